"""The browser tests' own server: the app on a loopback port, in a thread."""

import threading

from werkzeug.serving import make_server


def closing(wsgi):
    """``wsgi`` with each answer closed however its visitor leaves.

    Werkzeug's server skips an answer's ``close()`` when the browser hangs up mid-answer (its clean-up
    reads the reset socket first, and that raises). A static file's handle was then left to the garbage
    collector, whose ResourceWarning failed whichever browser test was running. A generator's ``finally``
    runs when it is collected, so the file is closed then.
    """

    def answer(environ, start_response):
        inner = wsgi(environ, start_response)
        try:
            yield from inner
        finally:
            if hasattr(inner, "close"):
                inner.close()

    return answer


def serve(app):
    """Serve ``app`` on a free loopback port until the generator is closed; yields its address."""
    server = make_server("127.0.0.1", 0, closing(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()
    server.server_close()
