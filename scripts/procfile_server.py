"""The Procfile's server, started on a free loopback port for a measuring script (busy, soak, bad_input_memory).

The scripts are programs, not a package: each imports this module from its own folder.
"""

from __future__ import annotations

import http.client
import os
import secrets
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def procfile_command() -> list[str]:
    """The Procfile's web command, run with this Python."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    program, *arguments = shlex.split(line.removeprefix("web:"))
    return [sys.executable, "-m", program, *arguments]


def start(workers: int = 2, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, int]:
    """The server (its master process) with ``workers`` workers, a fresh key and ``env``, and its port. The socket
    is bound here and handed over, so the port is known before the server has started; access logs are off."""
    listener = socket.create_server((HOST, 0), backlog=2048)
    port = listener.getsockname()[1]
    env = {**os.environ, "SECRET_KEY": secrets.token_urlsafe(32), "WEB_CONCURRENCY": str(workers), **(env or {})}
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


def wait_until_healthy(port: int, seconds: float = 120) -> None:
    """Return once /healthz answers; SystemExit if it never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
        finally:
            connection.close()
    raise SystemExit("the server did not start")


def health_seconds(port: int, timeout: float = 10) -> float:
    """How long /healthz took to answer 200, or infinity if it did not."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("GET", "/healthz")
        ok = connection.getresponse().status == 200
    except OSError:
        ok = False
    finally:
        connection.close()
    return time.perf_counter() - start if ok else float("inf")
