"""Static files under fingerprinted names, cached for a year, compressed, and served by WhiteNoise.

At start-up each file in ``static/`` is copied once into the instance folder as
``name.<hash>.ext`` (with a gzip copy where that is smaller), and templates ask ``asset(name)``
for its URL. A changed file gets a new name, so browsers may cache every name for ever.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
from pathlib import Path

from flask import Flask, url_for
from whitenoise import WhiteNoise

COMPRESSIBLE = {".js", ".css", ".svg", ".txt", ".json"}


def init_app(app: Flask) -> None:
    """Fingerprint the static files, serve them with WhiteNoise, and give templates ``asset()``."""
    build = Path(app.instance_path) / "static"
    assert app.static_folder, "the app is made with its static folder"
    manifest = fingerprint(Path(app.static_folder), build)
    app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]  # Flask documents wrapping its WSGI app so
        app.wsgi_app,
        root=build,
        prefix=app.static_url_path,
        max_age=None,
        immutable_file_test=lambda path, url: True,  # every name here carries its content's hash
        add_headers_function=_no_sniffing,
    )

    def asset(name: str) -> str:
        return url_for("static", filename=manifest[name])

    app.jinja_env.globals["asset"] = asset


def _no_sniffing(headers, path: str, url: str) -> None:
    headers["X-Content-Type-Options"] = "nosniff"


def fingerprint(source: Path, build: Path) -> dict[str, str]:
    """Copy each file in ``source`` into ``build`` under a name with its hash; return the names."""
    build.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()[:12]
        relative = path.relative_to(source)
        hashed = relative.with_name(f"{relative.stem}.{digest}{relative.suffix}")
        manifest[relative.as_posix()] = hashed.as_posix()
        target = build / hashed
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_atomically(target, data)
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if path.suffix in COMPRESSIBLE and len(packed) < len(data) and not Path(f"{target}.gz").exists():
            _write_atomically(Path(f"{target}.gz"), packed)
    return manifest


def _write_atomically(target: Path, data: bytes) -> None:
    # Several workers may start at once; each writes its own temporary file and renames it.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    shutil.move(temporary, target)
