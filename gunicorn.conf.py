"""Gunicorn settings for production: `gunicorn --config gunicorn.conf.py "webapp:create_app()"`.

Read once by the master at start-up; the platform configures us through PORT and WEB_CONCURRENCY.
"""

import os

# The platform tells us which port its router forwards to; 8000 is only for running it by hand.
bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"

# A move is pure-Python CPU work (the solver), so parallelism comes from processes, one or two
# per core; the platform sets WEB_CONCURRENCY to suit the machine it gives us.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

# Sync workers, one request at a time each. A move is CPU work under the GIL, so threads would
# only take turns; and a sync worker accepts a connection only when it is free, so the kernel hands
# every request to an idle worker. A gthread worker accepts while it is busy and keep-alive then
# pins the connection to it: measured with scripts/load.py, all eight clients' connections often
# sat on one worker while the other core idled (see docs/load.md). The price: a client that sends
# slowly holds a whole worker. Our only client is the platform's router and requests are small (64 KB
# at most), so that is acceptable here; it would not be with nothing buffering in front of us.
worker_class = "sync"
threads = 1  # more than one would silently switch to gthread

# A move takes milliseconds, so a worker silent this long is stuck; restart it well before the
# router gives up on the request (commonly after 30 s).
timeout = 20

# On a deploy or restart the platform sends SIGTERM and kills us a few seconds later; requests are
# short, so this is plenty to finish the ones in flight and still beat the platform's SIGKILL.
graceful_timeout = 10

# Sync workers close the connection after each response (which is what lets any free worker take
# the next request), so this only applies if the worker class above is changed: then it should be
# longer than the router's idle timeout (commonly 60 s), so that the router, not us, closes idle
# connections, and a request it sends cannot cross our close and come back as a 502.
keepalive = 75

# Load the app once, in the master: a missing SECRET_KEY then stops the server at once with its
# one-line reason (loaded in each worker instead, gunicorn restarts the failing workers for ever),
# static files are fingerprinted once, and the workers share the loaded code's memory.
preload_app = True

# Each worker proves it is alive by touching a file every second; in a container /tmp can be an
# overlay filesystem where that write stalls and gets a healthy worker killed, so keep it in memory.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# The platform collects stdout and stderr; it has no use for log files inside the container.
accesslog = "-"
errorlog = "-"

# Only the platform's router can reach our port, and its addresses are not fixed or published, so
# trust X-Forwarded-Proto from any address; the app's ProxyFix then believes only the last hop.
forwarded_allow_ips = "*"

# Nobody runs `gunicornc` inside a platform container, and several servers on one machine (the
# tests, the load script) would otherwise all claim the same default socket path in $HOME.
control_socket_disable = True
