"""The Flask class the game runs on."""

from __future__ import annotations

from types import FunctionType

from flask import Flask


class GameFlask(Flask):
    """Flask, checking each view and hook for ``async def`` once rather than on every request (ours are plain
    functions; asking inspect again each time cost a few percent of a move)."""

    def ensure_sync(self, func):
        if type(func) is not FunctionType:
            return super().ensure_sync(func)
        checked = self.__dict__.setdefault("checked_sync", {})  # the app's own functions: a fixed, small set
        sync = checked.get(func)
        if sync is None:
            sync = checked[func] = super().ensure_sync(func)
        return sync
