"""Signed button data: only what the service offered unpacks, within Telegram's 64 bytes at the worst case, and the
secret comes from the settings or is generated once into a file that every process on the machine shares."""

from __future__ import annotations

import base64
import multiprocessing
import os
import stat

import pytest

from service import callback
from service.callback import Choice, LobbyTap, pack, pack_lobby, unpack
from service.callback_secret import callback_secret
from service.settings import get_settings


@pytest.fixture
def secret_file(tmp_path, monkeypatch):
    monkeypatch.delenv("CALLBACK_SECRET", raising=False)
    path = tmp_path / "var" / "callback-secret"
    monkeypatch.setenv("CALLBACK_SECRET_FILE", str(path))
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


def test_the_worst_case_fits_64_bytes_with_a_mac_of_at_least_64_bits():
    worst = pack(callback.MAX_ID, callback.MAX_ID, "~" * 40)
    assert len(worst.encode()) <= callback.MAX_BYTES
    assert unpack(worst) == Choice(callback.MAX_ID, callback.MAX_ID, "~" * 40)
    assert callback.MAC_CHARS * 6 >= 64
    lobby = pack_lobby(callback.MAX_ID, "z" * 16, "9" * 24)
    assert len(lobby.encode()) <= callback.MAX_BYTES and unpack(lobby) == LobbyTap(callback.MAX_ID, "z" * 16, "9" * 24)
    with pytest.raises(ValueError):
        pack(1, 1, "x" * 41)
    with pytest.raises(ValueError):
        pack(1, 1, "two words")


def test_small_ids_read_as_themselves():
    assert pack(5, 9, "fight:1").endswith("5:9:fight:1")


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.replace(":9:", ":8:"),  # another seq
        lambda d: d[:11] + "6" + d[12:],  # another game
        lambda d: d.replace("fight:1", "leave"),  # another code
        lambda d: ("A" if d[0] != "A" else "B") + d[1:],  # the MAC itself
        lambda d: d[11:],  # no MAC: the old unsigned form
        lambda d: d + "\n",
        lambda d: d[:11] + "05" + d[12:],  # a second writing of the same id
    ],
)
def test_any_change_to_offered_data_is_refused(change):
    data = pack(5, 9, "fight:1")
    assert unpack(data) == Choice(5, 9, "fight:1")
    assert unpack(change(data)) is None


def test_lobby_data_and_links_are_signed_apart_from_choices():
    data = pack_lobby(12, "players", "5")
    assert unpack(data) == LobbyTap(12, "players", "5")
    assert unpack(data.replace(":5", ":7")) is None
    assert unpack(data.replace("players", "start").rsplit(":", 1)[0]) is None
    token = callback.link_token(12)
    assert callback.linked_lobby(token) == 12
    assert callback.linked_lobby(token.replace("12_", "13_")) is None
    assert callback.linked_lobby("12") is None
    # a lobby button's MAC is not a link's, nor the other way round
    assert callback.linked_lobby(f"12_{data[1:12]}") is None


def test_another_secret_refuses_the_data(monkeypatch):
    data = pack(5, 9, "pass")
    monkeypatch.setenv("CALLBACK_SECRET", "another-secret")
    get_settings.cache_clear()
    try:
        assert unpack(data) is None
    finally:
        get_settings.cache_clear()


def _read_secret(path: str, queue) -> None:
    os.environ["CALLBACK_SECRET_FILE"] = path
    os.environ.pop("CALLBACK_SECRET", None)
    get_settings.cache_clear()
    queue.put(callback_secret())


def test_the_embedded_default_generates_one_private_secret_for_every_process(secret_file):
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    readers = [context.Process(target=_read_secret, args=(str(secret_file), queue)) for _ in range(4)]
    for p in readers:
        p.start()
    seen = {queue.get(timeout=60) for _ in readers}
    for p in readers:
        p.join(30)
    assert seen == {callback_secret()}  # four processes starting at once, and this one: one secret
    assert len(base64.urlsafe_b64decode(secret_file.read_text() + "==")) >= 32
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    assert [p.name for p in secret_file.parent.iterdir()] == ["callback-secret"]  # no temporary file left


def test_a_configured_secret_wins_over_the_file(secret_file, monkeypatch):
    monkeypatch.setenv("CALLBACK_SECRET", "configured")
    get_settings.cache_clear()
    assert callback_secret() == b"configured"
    assert not secret_file.exists()
