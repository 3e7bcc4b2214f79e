"""The bot's Matrix login and sync position, kept across restarts in `MATRIX_STORE_PATH`.

Logging in once and reusing the access token and device id keeps transaction ids idempotent (Synapse
deduplicates a repeated txn id only for the same device) and keeps the device's encryption keys; the
`next_batch` sync token, saved only after a sync's events were handed on, means a restart neither
re-processes nor skips events. The file holds a secret (the access token): it is written 0600.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

FILE_NAME = "login.json"


@dataclass(frozen=True)
class StoredLogin:
    homeserver: str
    user_id: str
    device_id: str
    access_token: str
    next_batch: str | None = None


class LoginStore:
    """One JSON file in the store directory, replaced atomically on every write."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / FILE_NAME

    def load(self) -> StoredLogin | None:
        if not self.path.is_file():
            return None
        return StoredLogin(**json.loads(self.path.read_text()))

    def save(self, login: StoredLogin) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(asdict(login), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
