"""The server secret that signs button data (`service.callback`): `CALLBACK_SECRET`, or, for the embedded default,
one generated on first start and kept in a file (`CALLBACK_SECRET_FILE`).

Every process that renders buttons (workers) or reads taps (gateways) must sign with the same secret. Processes on
one machine share the file; processes in separate containers or hosts must be given `CALLBACK_SECRET` (the
docker-compose file refuses to start without it).
"""

from __future__ import annotations

import logging
import os
import secrets
from functools import lru_cache
from pathlib import Path

from service.settings import get_settings

log = logging.getLogger(__name__)
GENERATED_BYTES = 32


def callback_secret() -> bytes:
    """The secret in force for the current settings."""
    settings = get_settings()
    return _secret(settings.callback_secret, settings.callback_secret_file)


@lru_cache(maxsize=4)
def _secret(configured: str | None, path: str) -> bytes:
    if configured:
        return configured.encode()
    return _from_file(Path(path))


def _from_file(path: Path) -> bytes:
    """Read the file, creating it first if absent. Two processes starting at once both end up with the first one's
    secret: each writes its own to a private temporary file and links it into place, which fails if it exists."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(GENERATED_BYTES))
        try:
            os.link(temporary, path)
            log.info("generated a callback secret in %s (set CALLBACK_SECRET where processes share no disk)", path)
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
    value = path.read_text().strip()
    if not value:
        raise RuntimeError(f"the callback secret file {path} is empty: delete it or set CALLBACK_SECRET")
    return value.encode()
