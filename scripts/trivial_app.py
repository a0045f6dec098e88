"""The yardstick for scripts/load.py: the least a Flask app with a signed-cookie session can do.

Served by gunicorn with the game's own settings (`--chdir scripts trivial_app:app`), so that what
the load script compares is the game's work, not the server's.
"""

import os

from flask import Flask, session

app = Flask(__name__)
app.secret_key = os.environ["SECRET_KEY"]


@app.post("/count")
def count():
    """Read one session value, write it back increased, and answer with a short body."""
    session["count"] = session.get("count", 0) + 1
    return f"{session['count']}\n"


@app.get("/healthz")
def healthz():
    """Answer the readiness poll the same way the game does."""
    return {"status": "ok"}
