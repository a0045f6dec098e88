"""The Procfile's server, started on a free loopback port for a measuring script (busy, soak, bad_input_memory).

The scripts are programs, not a package: each imports this module from its own folder.
"""

from __future__ import annotations

import os
import secrets
import shlex
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def procfile_command() -> list[str]:
    """The Procfile's web command, run with this Python."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    program, *arguments = shlex.split(line.removeprefix("web:"))
    return [sys.executable, "-m", program, *arguments]


def start(workers: int = 2) -> tuple[subprocess.Popen, int]:
    """The server (its master process) with ``workers`` workers and a fresh key, and its port. The socket is
    bound here and handed over, so the port is known before the server has started; access logs are off."""
    listener = socket.create_server((HOST, 0))
    port = listener.getsockname()[1]
    env = {**os.environ, "SECRET_KEY": secrets.token_urlsafe(32), "WEB_CONCURRENCY": str(workers)}
    server = subprocess.Popen(
        [*procfile_command(), "--bind", f"fd://{listener.fileno()}", "--access-logfile", "/dev/null"],
        cwd=ROOT,
        env=env,
        pass_fds=[listener.fileno()],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    listener.close()
    return server, port
