"""The whole path in-process (embedded defaults: SQLite, in-memory sessions, no broker) with the toy game."""

from __future__ import annotations

import itertools

from engine import get_game
from service.callback import unpack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import precheck, submit
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, GameRow, OutboxRow

_ids = itertools.count(1)


def tap(user: str, data: str, chat: str | None = None, update_id: str | None = None) -> Inbound:
    chat = chat or f"dm-{user}"
    return Inbound("rec", chat, user, update_id or f"u{next(_ids)}", "tap", text=data, is_group=chat == "group")


def command(user: str, name: str, *args: str, chat: str = "group") -> Inbound:
    return Inbound(
        "rec",
        chat,
        user,
        f"c{next(_ids)}",
        "command",
        command=name,
        args=args,
        user_name=user.title(),
        is_group=chat == "group",
    )


def panel_buttons(rec, user: str) -> list[str]:
    """The button data of the newest panel message in the user's direct chat."""
    for call in reversed(rec.calls):
        if call.chat == f"dm-{user}" and call.buttons:
            return [b.data for row in call.buttons for b in row]
    return []


def test_all_bot_game_runs_to_the_end_and_the_log_replays(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "table", "toy", {"target": 15}, [], 3, seed=5)
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        log = game_rows.action_log(s, game_id)
        assert game.status == "finished" and game.seq == len(log) > 5
        state = get_game("toy").replay(game.config, game.seed, log)
        assert get_game("toy").result(state) == game.result
    texts = [c.text for c in recording.sent("table")]
    assert any("game is over" in t for t in texts)
    assert [c.method for c in recording.sent("table")].count("send_text") >= 1


def test_lobby_then_taps_play_moves_and_refusals_change_nothing(backbone_local, toy_game, recording):
    submit(command("alice", "newgame", "toy"))
    submit(command("bob", "join"))
    submit(command("carol", "join"))
    submit(command("bob", "help", chat="dm-bob"))  # the bot now knows Bob's direct chat
    submit(command("bob", "start"))  # not the creator: told privately, never in the group
    assert any("Only the game's creator" in c.text for c in recording.sent("dm-bob"))
    assert not any("Only the game's creator" in c.text for c in recording.sent("group"))
    submit(command("alice", "start"))
    with session_scope() as s:
        game = s.query(GameRow).one()
        assert game.status == "active" and len(game_rows.seats_of(s, game.id)) == 3
    alice = panel_buttons(recording, "alice")
    assert [unpack(d).code for d in alice] == ["add:1", "add:2", "add:3"]
    assert panel_buttons(recording, "bob") == []  # not bob's turn: no buttons
    assert precheck(tap("dave", alice[0])) == "not_seated"

    submit(tap("bob", alice[0]))  # bob taps alice's button (forwarded): he is seated but it is not his turn
    submit(tap("dave", alice[0]))  # not seated
    submit(tap("alice", "1:0:garbage!code"))  # malformed code
    submit(tap("alice", "not a callback"))
    with session_scope() as s:
        assert s.query(ActionRow).count() == 0
    texts = [c.text for c in recording.calls]
    for phrase in ("not your turn", "not seated", "not valid"):
        assert any(phrase in t for t in texts), phrase

    submit(tap("alice", alice[2], update_id="same"))
    submit(tap("alice", alice[2], update_id="same"))  # duplicate delivery
    submit(tap("alice", alice[1]))  # stale: alice already moved
    with session_scope() as s:
        assert game_rows.action_log(s, game.id) == [(0, "add:3")]
    assert any("expired" in c.text for c in recording.sent("dm-alice"))
    assert precheck(tap("alice", alice[1])) == "expired"
    bob = panel_buttons(recording, "bob")
    assert precheck(tap("bob", bob[0])) is None
    submit(tap("bob", bob[2]))  # total 6: crosses 5 → a response window for everyone, silence on
    with session_scope() as s:
        assert game_rows.action_log(s, game.id) == [(0, "add:3"), (1, "add:3")]
        ops = [r.op for r in s.query(OutboxRow).filter_by(chat="group")]
        assert "restrict" in ops
    assert any(c.method == "set_silence" and c.extra["on"] for c in recording.calls)
    # in a response window, each seat's own buttons stay valid while others answer
    windows = {u: panel_buttons(recording, u) for u in ("alice", "bob", "carol")}
    submit(tap("carol", windows["carol"][0]))
    submit(tap("alice", windows["alice"][1]))
    with session_scope() as s:
        assert [c for _, c in game_rows.action_log(s, game.id)][2:] == ["ack", "pass"]


def test_private_cards_go_only_to_their_owner(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "group", "toy", {}, ["alice", "bob"], 0, seed=3)
    submit(tap("alice", panel_buttons(recording, "alice")[0]))
    with session_scope() as s:
        secret_alice = get_game("toy").view(
            get_game("toy").replay(s.get(GameRow, game_id).config, 3, game_rows.action_log(s, game_id)), 0
        )["secret"]
    drew = [c for c in recording.calls if "drew" in c.text]
    assert drew and all(c.chat == "dm-alice" for c in drew)
    assert all(f'"secret": {secret_alice}' not in c.text for c in recording.calls if c.chat != "dm-alice")


def test_a_player_the_bot_cannot_reach_privately_is_asked_in_the_group(backbone_local, toy_game, recording):
    recording.direct_chats["bob"] = None  # e.g. a Telegram user who never started the bot
    lobby.create_and_start("rec", "group", "toy", {}, ["alice", "bob"], 0, seed=3)
    asks = [c for c in recording.sent("group") if "open a direct chat" in c.text]
    assert len(asks) == 1 and "bob" in asks[0].text
    assert panel_buttons(recording, "alice")  # alice is reachable and got her panel


def test_bot_delay_paces_the_bots(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "table", "toy", {"target": 6}, [], 2, seed=5, bot_delay=0.05)
    with session_scope() as s:
        times = [a.created for a in s.query(ActionRow).filter_by(game_id=game_id).order_by(ActionRow.seq)]
    assert len(times) >= 3
    # the pace, give or take its jitter (`service.play.queue.paced`): never quicker than that
    assert all((b - a).total_seconds() >= 0.05 * 0.8 for a, b in zip(times, times[1:], strict=False))


def test_a_decision_comes_as_a_new_message_at_the_bottom_and_the_answered_one_loses_its_buttons(
    backbone_local, toy_game, recording
):
    lobby.create_and_start("rec", "group", "toy", {}, ["alice", "bob"], 0, seed=3)

    def questions(user: str) -> list:
        return [c for c in recording.sent(f"dm-{user}") if c.method == "send_text" and c.buttons]

    def live(user: str) -> set[str]:
        """The user's messages whose latest version has buttons."""
        shown: dict[str, bool] = {}
        for c in recording.sent(f"dm-{user}"):
            shown[c.message_id] = bool(c.buttons)
        return {message_id for message_id, has in shown.items() if has}

    assert (len(questions("alice")), len(questions("bob"))) == (1, 0)
    asked = questions("alice")[0]
    assert asked.text.startswith("🛡 toy #") and recording.sent("dm-alice")[-1] is asked
    chosen = panel_buttons(recording, "alice")[0]
    submit(tap("alice", chosen))
    assert len(questions("bob")) == 1 and recording.sent("dm-bob")[-1] is questions("bob")[0]
    closed = [c for c in recording.sent("dm-alice") if c.method == "edit_text" and c.message_id == asked.message_id]
    assert closed and not closed[-1].buttons
    question, clock = asked.text.rsplit("\n", 1)
    label = next(b.label for row in asked.buttons for b in row if b.data == chosen)
    # the clock goes with the buttons; the question keeps the choice made
    assert clock.startswith("⏳") and closed[-1].text == f"{question}\n✔ {label}"
    assert len(live("alice")) <= 1 and len(live("bob")) == 1


def test_a_bots_pace_varies_within_its_jitter():
    """Exactly equal paces let the bots of many games fall into step behind a slow moment (see `paced`)."""
    from service.play.queue import PACE_JITTER, paced

    waits = [paced(2.0) for _ in range(200)]
    assert all(2.0 * (1 - PACE_JITTER) <= w <= 2.0 * (1 + PACE_JITTER) for w in waits)
    assert max(waits) - min(waits) > 2.0 * PACE_JITTER  # spread over most of the range, not one value
    assert paced(0.0) == 0.0
