"""The Matrix gateway: matrix-nio sync loop (inbound) and `MatrixAdapter` (outbound). See README.md here.

Only `run()` — `camelot serve --matrix` — registers the Matrix adapter: Matrix messages are sent by the
gateway's own device, also when Celery workers play the moves (see `service.matrix.runtime`).
"""

from __future__ import annotations


def run() -> None:
    from service.matrix.runtime import run as run_gateway

    run_gateway()


__all__ = ["run"]
