"""Gunicorn settings for production: `gunicorn --config gunicorn.conf.py "webapp:create_app()"`.

Read once by the master at start-up; the platform configures us through PORT, WEB_CONCURRENCY and
PROXY_COUNT. docs/serving.md says why each setting is what it is, with its figures.
"""

import gc
import os
import sys

# The platform tells us which port its router forwards to; 8000 is only for running it by hand.
bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"

# A move is pure-Python CPU work, so parallelism comes from processes: one or two per core.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))

# gevent workers, so that a client sending its request slowly holds a greenlet, not a whole worker; our
# subclass closes connections that stall or whose request head grows too big (webapp/serving/worker.py).
worker_class = "webapp.serving.worker.GameWorker"
# Connections one worker keeps open at once, a few KB each; past them the kernel's backlog waits (docs/deploy.md).
worker_connections = 5000
# The fields of a request's head: a browser sends about 15, a platform's router adds a few.
limit_request_fields = 50

# A move takes milliseconds, so a worker silent this long is stuck: restart it before the router gives up.
timeout = 20
# On a deploy the platform sends SIGTERM and kills us a few seconds later: requests are short.
graceful_timeout = 10

# Every response closes its connection: kept-alive connections raised gevent's p99 from 27 to 200 ms.
keepalive = 0

# The app is loaded once, in the master: a bad SECRET_KEY stops the server at once with its one-line reason,
# and the workers share the loaded code and the warmed-up tables.
preload_app = True

# gunicorn itself believes no forwarded header from anyone: the app's ProxyFix reads X-Forwarded-For, -Proto and
# -Host of the last PROXY_COUNT hops, and nothing else. A router has no fixed address, so trusting it meant trusting
# every peer, whose X-Forwarded-Ssl, X-Forwarded-Protocol and SCRIPT_NAME headers gunicorn then obeyed.
forwarded_allow_ips = ""
secure_scheme_headers = {}
forwarder_headers = ""


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
    """Pay the app's cold costs in the master, after it loaded the app and before it forks a worker."""
    # The load script serves a trivial app with this same file; only the game has costs to pay.
    if "webapp.web.game" not in sys.modules:
        return
    from webapp.web.warm import warm_up

    for name, seconds in warm_up(server.app.wsgi()).items():
        server.log.info("Worked out %s before the workers start: %.2f s", name, seconds)
    from webapp.engine.big import ENGINE

    server.log.info("The big boards' engine runs %s (docs/deploy.md)", ENGINE)
    # Out of the collector's sight, so that a worker's first collections do not walk (and so copy) the tables
    # it shares with the master: a restarted worker's first /numbers cost 0.22 s of CPU without it, 0.02 s with.
    gc.freeze()


def post_worker_init(worker):
    """Start the worker's search processes (webapp/serving/searches.py): the cores shared by the workers, one at
    least; and name what ends at once when the worker is told to stop."""
    if "webapp.web.game" not in sys.modules:
        return
    from webapp.serving.costs import start_pool
    from webapp.web import relay

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    processes = int(os.environ.get("SEARCH_PROCESSES", max(1, cores // worker.cfg.workers)))
    start_pool(worker.wsgi, processes, "webapp.web.warm:warmed_app")
    worker.stopping = (relay.stop_all,)  # open friend pages' streams end at once when the worker is told to stop


def worker_exit(server, worker):
    """Stop the worker's search processes; hand the frozen objects back to the collector (with them frozen, a
    graceful stop printed a traceback)."""
    if "webapp.web.game" in sys.modules:
        from webapp.serving.costs import stop_pool

        stop_pool(worker.wsgi)
    gc.unfreeze()


# Each worker touches a file every second to prove it is alive; an overlay /tmp can stall that write.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# The platform collects stdout and stderr.
accesslog = "-"
errorlog = "-"

# Several servers on one machine (the tests, the load script) would otherwise claim one control socket.
control_socket_disable = True
