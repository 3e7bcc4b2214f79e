"""The shared machinery: action codes, events' audiences, button payloads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import Action, IllegalAction
from engine.core.actions import MAX_CODE_BYTES, decode, encode
from engine.core.events import private, public
from service import callback

words = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
args = st.lists(st.one_of(st.integers(0, 999_999), words), max_size=3)


@given(kind=words, arguments=args)
def test_action_code_round_trips(kind: str, arguments: list) -> None:
    action = Action(kind, tuple(arguments))
    code = encode(action)
    assert len(code) <= MAX_CODE_BYTES and code.isascii()
    assert decode(code, "B-CODE") == action


MALFORMED = ["", "Move", "move:", "move:1..2", "move:-1", "x" * 41, "mové", "move:1;drop", None, 7]


@pytest.mark.parametrize("code", MALFORMED)
def test_malformed_codes_raise_illegal_action(code) -> None:
    with pytest.raises(IllegalAction) as err:
        decode(code, "C-CODE")
    assert err.value.rule == "C-CODE"


def test_too_long_action_is_refused_at_encoding() -> None:
    with pytest.raises(ValueError):
        encode(Action("play", tuple(range(100_000, 100_010))))


def test_event_audience() -> None:
    secret = private("drew", 2, card="merlin")
    assert secret.visible_to(2) and not secret.visible_to(1) and not secret.visible_to(None)
    assert public("quest_won").visible_to(None)


@given(game_id=st.integers(0, callback.MAX_ID), seq=st.integers(0, callback.MAX_ID), kind=words, arguments=args)
def test_callback_data_fits_telegram_and_round_trips(game_id: int, seq: int, kind: str, arguments: list) -> None:
    code = encode(Action(kind, tuple(arguments)))
    data = callback.pack(game_id, seq, code)
    assert len(data.encode()) <= 64
    assert callback.unpack(data) == callback.Choice(game_id, seq, code)


FORGED = ["", "garbage", "1:2", "a:b:c", "1:2:" + "x" * 61, "L1:JOIN", "\x00\x01", "1:2:move x"]


@pytest.mark.parametrize("data", FORGED)
def test_forged_callback_data_is_rejected_quietly(data: str) -> None:
    assert callback.unpack(data) is None


def test_ids_beyond_the_database_range_are_refused_both_ways() -> None:
    with pytest.raises(ValueError):
        callback.pack(callback.MAX_ID + 1, 0, "pass")
    assert callback.unpack(f"{callback.MAX_ID + 1}:0:pass") is None


def test_lobby_taps() -> None:
    assert callback.unpack(callback.pack_lobby(5, "set", "board")) == callback.LobbyTap(5, "set", "board")
    assert callback.unpack(callback.pack_lobby(5, "join")) == callback.LobbyTap(5, "join", None)
    assert callback.unpack("L5:join") is None  # the old unsigned form
