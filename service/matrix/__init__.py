"""The Matrix gateway: matrix-nio sync loop (inbound) and `MatrixAdapter` (outbound). See README.md here.

Importing this package registers the worker-side adapter factory with `service.chat.registry` (a Celery
worker that imports it can deliver); `run()` — `camelot serve --matrix` — replaces it with the gateway's own.
"""

from __future__ import annotations

from service.chat import registry


def run() -> None:
    from service.matrix.runtime import run as run_gateway

    run_gateway()


def _worker_adapter():
    from service.matrix.runtime import worker_adapter

    return worker_adapter()


registry.register("matrix", _worker_adapter)

__all__ = ["run"]
