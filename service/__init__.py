"""Shadows over Camelot by message: gateways, rendering, storage and sessions around the engines."""

from service.logs import configure as _configure_logs

_configure_logs()
