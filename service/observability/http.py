"""Each process's own small HTTP server: `/metrics` (Prometheus), `/healthz` (the process is alive: it answers) and
`/readyz` (200 when every readiness check passes, else 503; the checks in words, as JSON).

One port per process (`METRICS_PORT`, 0 = no server). Processes sharing a host (a Procfile's workers) each take the
first free port of METRICS_PORT … METRICS_PORT + METRICS_PORTS - 1; in containers each has its own network and
takes METRICS_PORT itself. A pool process of a prefork worker is a process of its own and serves its own counters
the same way (`workers.observed`). prometheus-client's multiprocess mode is not used: it needs one directory shared
by a tree of processes and its cleaning when one dies, where a port each needs nothing.
"""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import structlog
from prometheus_client import REGISTRY, make_wsgi_app

from service.observability import checks, collectors, metrics
from service.settings import get_settings

log = structlog.get_logger(__name__)

Respond = Callable[[str, list[tuple[str, str]]], Any]


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a scrape in progress never holds the process at exit


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # a scrape every few seconds is not news
        pass


def application() -> Callable[[dict[str, Any], Respond], Iterable[bytes]]:
    """The WSGI application: /healthz, /readyz, and /metrics (any other path answers 404)."""
    prometheus = make_wsgi_app(REGISTRY)

    def app(environ: dict[str, Any], respond: Respond) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == "/healthz":
            return _json(respond, 200, {"alive": True})
        if path == "/readyz":
            results = checks.readiness()
            ready = all(r.ok for r in results)
            body = {"ready": ready, "checks": {r.name: {"ok": r.ok, "detail": r.detail} for r in results}}
            return _json(respond, 200 if ready else 503, body)
        if path == "/metrics":
            return prometheus(environ, respond)
        return _json(respond, 404, {"error": "not found: /metrics, /healthz or /readyz"})

    return app


def _json(respond: Respond, status: int, body: dict[str, Any]) -> list[bytes]:
    reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}[status]
    respond(f"{status} {reason}", [("Content-Type", "application/json")])
    return [json.dumps(body).encode()]


_server: WSGIServer | None = None
_pid = 0  # the process that started `_server`: a forked pool process inherits the variable, not the thread


def serve(role: str) -> int | None:
    """Start this process's server in a thread, if METRICS_PORT is set; returns its port (None: none started).
    Shared gauges are registered and the role is named in `camelot_process{role}`. A second call is a no-op."""
    global _server, _pid
    settings = get_settings()
    if _server is not None:
        if _pid == os.getpid():
            return _server.server_port
        _server.socket.close()  # a forked pool process's copy of its parent's socket: the parent keeps serving
    if not settings.metrics_port:
        return None
    metrics.process(role)
    collectors.register()
    for port in range(settings.metrics_port, settings.metrics_port + max(1, settings.metrics_ports)):
        try:
            _server = make_server(
                settings.metrics_listen, port, application(), server_class=_Server, handler_class=_QuietHandler
            )
            break
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
    else:
        last = settings.metrics_port + max(1, settings.metrics_ports) - 1
        log.error("metrics.no_free_port", first=settings.metrics_port, last=last)
        return None
    _pid = os.getpid()
    threading.Thread(target=_server.serve_forever, name="metrics-http", daemon=True).start()
    log.info("metrics.serving", role=role, listen=settings.metrics_listen, port=_server.server_port)
    return _server.server_port


def stop() -> None:
    """Stop the server (tests; a process's server otherwise lives as long as the process)."""
    global _server
    if _server is not None:
        _server.shutdown()
        _server.server_close()
        _server = None
