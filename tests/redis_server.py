"""A real redis-server for the tests and the measurements: on a Unix socket in a temporary folder, no port to
choose, nothing written to disk, stopped with its owner."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

STARTUP_SECONDS = 10


class RedisServer:
    """``with RedisServer() as server:`` a redis-server answering at ``server.url`` until the block ends."""

    def __init__(self, *options: str):
        self.options = options  # redis-server's own, after ours: the last of a setting wins
        self.folder = Path(tempfile.mkdtemp(prefix="redis-"))
        self.socket = self.folder / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        # No TCP port (0), no snapshots, no append-only file: a socket in its folder, and memory only.
        options = ["--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700", "--save", ""]
        options += ["--appendonly", "no", "--dir", str(self.folder), "--loglevel", "warning", *self.options]
        self.process = subprocess.Popen(
            [binary, *options],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.wait_until_answering()
        return self

    def wait_until_answering(self) -> None:
        import redis

        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                redis.Redis.from_url(self.url, socket_timeout=1).ping()
                return
            except (redis.RedisError, OSError):
                if time.monotonic() > deadline or (self.process is None or self.process.poll() is not None):
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
