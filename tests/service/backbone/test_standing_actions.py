"""Standing actions through the whole path: the board game's Traitor may unmask himself with Fate at any moment of
his own turn (B-TRAITOR, seed 002 "in zijn beurt"), so his panel offers it while the others decide in his turn and
the worker takes it although he is not asked; nobody else can, the offer shows only in his own direct chat, and in
another knight's turn it is neither offered nor taken."""

from __future__ import annotations

import itertools

from service.callback import pack, unpack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import precheck, submit
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow

REVEAL = "play:fate.reveal"
_ids = itertools.count(1)
STACK = {
    "skip_gesture": True,
    "knights": ["gawain", "palamedes", "percival"],
    "first": 0,
    "loyalty": ["loyal", "traitor", "loyal"],
    "hands": [["fight_1", "fight_2", "fight_3"], ["fate", "fight_2"], ["fight_3", "fight_4"]],
}


def tap(user: str, data: str) -> Inbound:
    return Inbound("rec", f"dm-{user}", user, f"s{next(_ids)}", "tap", text=data)


def codes_offered(rec, user: str) -> list[str]:
    """The live choices in the user's direct chat: the buttons of each message as last shown (a message is edited
    in place; an edit may drop every button)."""
    shown: dict[str, list[str]] = {}
    for call in rec.calls:
        if call.chat == f"dm-{user}" and call.method in ("send_text", "edit_text"):
            shown[call.message_id] = [c.code for row in call.buttons or [] for b in row if (c := unpack(b.data))]
    return [code for codes in shown.values() for code in codes]


def _seq(game_id: int) -> int:
    with session_scope() as s:
        return s.get(GameRow, game_id).seq


def test_the_traitor_unmasks_with_fate_in_his_own_turn_while_the_others_decide(backbone_local, recording):
    stack = {**STACK, "first": 1, "black": ["morgan_two_engines"]}
    game_id = lobby.create_and_start("rec", "group", "board", {"stack": stack}, ["ann", "bob", "cat"], 0, seed=3)
    for code in ("evil:black", "pass"):  # bob draws Morgan and passes in its window; ann and cat still decide
        submit(tap("bob", pack(game_id, _seq(game_id), code)))
    with session_scope() as s:
        seq = s.get(GameRow, game_id).seq
        log_before = game_rows.action_log(s, game_id)
    assert log_before == [(1, "evil:black"), (1, "pass")]
    assert REVEAL in codes_offered(recording, "bob")  # his turn, not asked, and offered the unmasking
    assert REVEAL not in codes_offered(recording, "cat") and REVEAL not in codes_offered(recording, "ann")
    group_text = " ".join(c.text or "" for c in recording.calls if c.chat == "group")
    assert "reveal" not in group_text.lower()

    forged = tap("cat", pack(game_id, seq, REVEAL))  # a loyal knight, asked in the window, forging the same button
    submit(forged)  # (his seat is asked at this seq, so the gateway lets it through: the worker refuses it)
    with session_scope() as s:
        assert game_rows.action_log(s, game_id) == log_before

    mine = tap("bob", pack(game_id, seq, REVEAL))
    assert precheck(mine) is None  # a standing action: the gateway lets it through to the worker
    submit(mine)
    with session_scope() as s:
        assert game_rows.action_log(s, game_id) == [*log_before, (1, REVEAL)]
    assert REVEAL not in codes_offered(recording, "bob")  # used: no longer offered
    # each other knight must now discard two cards: both are asked in their direct chats
    assert any(code.startswith("discard") for code in codes_offered(recording, "ann"))
    assert any(code.startswith("discard") for code in codes_offered(recording, "cat"))


def test_in_another_knights_turn_the_unmasking_is_neither_offered_nor_taken(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "group", "board", {"stack": STACK}, ["ann", "bob", "cat"], 0, seed=3)
    with session_scope() as s:
        seq = s.get(GameRow, game_id).seq
        log_before = game_rows.action_log(s, game_id)
    assert REVEAL not in codes_offered(recording, "bob")  # ann's turn
    tapped = tap("bob", pack(game_id, seq, REVEAL))
    assert precheck(tapped) == "expired"
    submit(tapped)
    with session_scope() as s:
        assert game_rows.action_log(s, game_id) == log_before
