"""Gunicorn settings for production: `gunicorn --config gunicorn.conf.py "webapp:create_app()"`.

Read once by the master at start-up; the platform configures us through PORT and WEB_CONCURRENCY.
"""

import gc
import os
import sys

# The platform tells us which port its router forwards to; 8000 is only for running it by hand.
bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"

# A move is pure-Python CPU work (the solver), so parallelism comes from processes, one or two
# per core; the platform sets WEB_CONCURRENCY to suit the machine it gives us.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

# gevent workers: each worker reads requests in cheap greenlets and runs the app for a request only
# once gunicorn has parsed its headers, so a client that sends its headers or its body a byte at a
# time holds one greenlet (a few KB), not a whole worker. Sync workers, which we used before, give
# each connection the whole worker while it is read: two sockets trickling headers held both of them
# and /healthz waited 20-25 s (measured; docs/serving.md has the figures). Platforms do not promise
# a buffering proxy in front of us, so the server itself must not be stalled by slow clients.
#
# A move is pure-Python CPU work; under gevent it runs to the end without yielding, so while one
# request computes, the other requests of that worker wait for it, and for no longer: the search
# itself is the bound (a warm move takes microseconds; the costly cold searches are done in the
# master before the workers fork, see when_ready below). A busy worker is not waiting in accept(),
# so new connections go to the other workers meanwhile. gunicorn accepts one connection per wake-up
# when there are several workers (max_accept = 1), which spreads connections across the workers.
#
# Our subclass of that worker (webapp/worker.py) closes connections that stall: a socket that sends or
# reads nothing for 10 s, or that has not sent its whole request line and headers after 15 s.
worker_class = "webapp.web.worker.GameWorker"
# Connections one worker keeps open at once, slow ones included; beyond it the kernel's backlog waits.
# Each costs a greenlet and a socket (a few KB), and a stalled one is closed within 15 s, so a client
# must keep opening thousands a second to fill them; 3,000 idle sockets leave /healthz at once
# (tests/test_production.py). The open-files limit is raised to fit in on_starting, below.
worker_connections = 5000

# A move takes milliseconds, so a worker silent this long is stuck; restart it well before the
# router gives up on the request (commonly after 30 s).
timeout = 20

# On a deploy or restart the platform sends SIGTERM and kills us a few seconds later; requests are
# short, so this is plenty to finish the ones in flight and still beat the platform's SIGKILL.
graceful_timeout = 10

# No keep-alive: every response closes its connection, as sync workers did. Measured with wrk (4
# connections, 2 workers, the trivial app), kept-alive connections made gevent uneven: the median
# fell to 0.7 ms while the p99 rose to 145-200 ms, most likely because a greenlet whose next request
# is already waiting serves it without giving the others a turn; closing after each response gave
# a p99 of 15-27 ms on the same busy machine (docs/serving.md). Closing also means the router never sends a
# request on a connection we are about to close, so idle timeouts cannot race into a 502.
keepalive = 0

# Load the app once, in the master: a missing SECRET_KEY then stops the server at once with its
# one-line reason (loaded in each worker instead, gunicorn restarts the failing workers for ever),
# static files are fingerprinted once, and the workers share the loaded code's memory.
preload_app = True


def on_starting(server):
    """Raise the open-files limit as far as the platform allows, to fit every worker's connections."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = worker_connections + 100  # each worker's connections, and the files it has open besides
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        server.log.info("Open files: raised the limit from %d to %d", soft, raised)


def when_ready(server):
    """Pay the app's cold costs in the master, after it loaded the app and before it forks a worker.

    The solver's first call, the numbers page's count (seconds of plain minimax), the tournament and
    the compiled templates are then in every worker's memory from its first request, a worker
    restarted after a crash too.
    """
    # The load script serves a trivial app with this same file; only the game has costs to pay.
    if "webapp.web.game" not in sys.modules:
        return
    from webapp.web.warm import warm_up

    for name, seconds in warm_up(server.app.wsgi()).items():
        server.log.info("Worked out %s before the workers start: %.2f s", name, seconds)
    # Everything made so far lives as long as the app: moved out of the collector's sight, so that a
    # worker's first collections do not walk (and so copy, page by page) the tables it shares with the
    # master. Without it a restarted worker's first /numbers cost 0.22 s of CPU; with it, 0.02 s.
    gc.freeze()


def worker_exit(server, worker):
    """Hand the frozen objects back to the collector as a worker ends: with them frozen, gevent's thread
    module met a half-torn-down logging handler at exit and printed a traceback on every graceful stop."""
    gc.unfreeze()


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
