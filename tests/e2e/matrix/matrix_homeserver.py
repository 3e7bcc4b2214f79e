"""A throwaway Synapse on loopback for tests: config from `infra/synapse/*.tmpl`, keys in a temp dir.

`start()` picks a free port, generates the signing key, launches Synapse, waits for
`/_matrix/client/versions` and returns a `Homeserver` that registers users with the shared secret
(the admin API's HMAC nonce flow) and stops the process cleanly.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

INFRA = Path(__file__).resolve().parents[3] / "infra" / "synapse"
SERVER_NAME = "localhost"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Homeserver:
    url: str
    server_name: str
    shared_secret: str
    data_dir: Path
    process: subprocess.Popen
    started_in: float  # seconds from launch to the first answered /versions
    users: dict[str, str] = field(default_factory=dict)  # user id → password
    tokens: dict[str, str] = field(default_factory=dict)  # user id → the access token registration gave

    def user_id(self, localpart: str) -> str:
        return f"@{localpart}:{self.server_name}"

    def register(self, localpart: str, password: str | None = None, admin: bool = False) -> tuple[str, str]:
        """Create a user with the shared secret; returns (user id, password)."""
        password = password or secrets.token_urlsafe(12)
        endpoint = f"{self.url}/_synapse/admin/v1/register"
        nonce = httpx.get(endpoint, timeout=10).json()["nonce"]
        mac = _hmac_hex(self.shared_secret, nonce, localpart, password, admin)
        body = {"nonce": nonce, "username": localpart, "password": password, "admin": admin, "mac": mac}
        r = httpx.post(endpoint, json=body, timeout=10)
        r.raise_for_status()
        user_id = r.json()["user_id"]
        self.users[user_id] = password
        self.tokens[user_id] = r.json()["access_token"]
        return user_id, password

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def _hmac_hex(secret: str, nonce: str, user: str, password: str, admin: bool) -> str:
    """Synapse's registration MAC: HMAC-SHA1 over nonce, user, password and admin flag, NUL-separated."""
    mac = hmac.new(secret.encode(), digestmod=hashlib.sha1)
    mac.update(b"\x00".join(p.encode() for p in (nonce, user, password, "admin" if admin else "notadmin")))
    return mac.hexdigest()


def _render(template: str, target: Path, **values: str) -> None:
    target.write_text(string.Template((INFRA / template).read_text()).substitute(values))


def start(timeout: float = 60.0) -> Homeserver:
    data_dir = Path(tempfile.mkdtemp(prefix="camelot-synapse-"))
    port = free_port()
    secret = secrets.token_hex(16)
    values = {"port": str(port), "data_dir": str(data_dir), "shared_secret": secret, "server_name": SERVER_NAME}
    config = data_dir / "homeserver.yaml"
    _render("homeserver.yaml.tmpl", config, **values)
    _render("log.yaml.tmpl", data_dir / "log.yaml", **values)
    (data_dir / "media").mkdir()
    base = [sys.executable, "-m", "synapse.app.homeserver", "--config-path", str(config)]
    subprocess.run([*base, "--generate-keys"], check=True, capture_output=True, cwd=data_dir, timeout=60)
    began = time.monotonic()
    with open(data_dir / "stderr.log", "wb") as stderr:
        process = subprocess.Popen(base, cwd=data_dir, stdout=subprocess.DEVNULL, stderr=stderr)
    url = f"http://127.0.0.1:{port}"
    while True:
        if process.poll() is not None:
            err = (data_dir / "stderr.log").read_text(errors="replace")
            shutil.rmtree(data_dir, ignore_errors=True)
            raise RuntimeError(f"synapse exited with {process.returncode}: {err[-2000:]}")
        try:
            if httpx.get(f"{url}/_matrix/client/versions", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() - began > timeout:
            process.kill()
            raise RuntimeError("synapse did not answer /_matrix/client/versions in time")
        time.sleep(0.05)
    return Homeserver(url, SERVER_NAME, secret, data_dir, process, time.monotonic() - began)
