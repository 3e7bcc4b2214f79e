"""Seeing the service run: Prometheus metrics counted where things happen (`metrics`), gauges read from shared state
on scrape (`collectors`), readiness checks in words (`checks`) and each process's `/metrics`, `/healthz` and
`/readyz` (`http`). docs/operations.md lists the metrics, ports and settings."""
