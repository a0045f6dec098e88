"""Compile the big boards' hot modules with mypyc into build/engine/ (``make run`` and ``make test`` call this).

The same sources run uncompiled where there is no build: a host without a C compiler plays the same moves, more
slowly. A build is made only when the sources changed since the last (``webapp.engine.big.sources_stamp``), and
the engine uses it only while they stay the same, so an edited module never runs from a stale extension. Installs
gcc and Python's headers with apt-get when they are missing (as root, or with sudo), as ensure-chromium does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from webapp.engine.big import BUILD, COMPILED, sources_stamp

ROOT = Path(__file__).resolve().parent.parent
SETUP = """
from setuptools import setup
from mypyc.build import mypycify

setup(name="engine", ext_modules=mypycify({paths!r}, opt_level="3"), script_args=["build_ext", "--build-lib", {out!r}])
"""


def have_a_compiler() -> bool:
    """Whether gcc and Python's headers are here, after installing them with apt-get if they were missing."""
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if shutil.which("gcc") and headers.is_file():
        return True
    apt = shutil.which("apt-get")
    sudo = [] if os.getuid() == 0 else ["sudo"] if shutil.which("sudo") else None
    if apt and sudo is not None:
        print("Installing gcc and Python's headers to compile the engine...", flush=True)
        subprocess.run([*sudo, apt, "install", "-y", "-qq", "gcc", "python3-dev"], check=False)
    return bool(shutil.which("gcc")) and headers.is_file()


def build() -> str:
    """Build the extensions if the sources changed; what was done, in words."""
    stamp = sources_stamp()
    if (BUILD / "stamp").is_file() and (BUILD / "stamp").read_text().strip() == stamp:
        return "up to date"
    if not have_a_compiler():
        return "no C compiler: the engine runs as pure Python"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "mypy>=1.13"], check=True)
    paths = [f"webapp/engine/big/{name}.py" for name in COMPILED]
    with tempfile.TemporaryDirectory() as out:
        script = SETUP.format(paths=paths, out=out)
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
        if done.returncode:
            sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
            return "the build failed: the engine runs as pure Python"
        shutil.rmtree(BUILD, ignore_errors=True)
        for built in Path(out).rglob("*.so"):
            target = BUILD / built.relative_to(out)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(built, target)
    (BUILD / "stamp").write_text(stamp + "\n")
    return "compiled"


if __name__ == "__main__":
    print(f"engine: {build()}")
