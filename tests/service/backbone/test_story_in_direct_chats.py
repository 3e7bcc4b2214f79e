"""The story in a person's direct chat (issue 23 items 3, 6): "since your last turn" before a decision, `/log` (the
group's public, a direct chat's with one's own secrets, everyone's after the end), `/status` with one's hand,
`/card` in any language, `/rules` in the asker's language."""

from __future__ import annotations

import itertools

from service.callback import pack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import submit
from service.render.i18n import t
from service.render.narration.cardbook import name as card_name
from service.render.narration.cardbook_data import BOOK
from service.store import session_scope
from service.store.models import GameRow

_ids = itertools.count(1)
STACK = {
    "skip_gesture": True,
    "knights": ["gawain", "palamedes", "percival"],
    "first": 0,
    "loyalty": ["loyal", "traitor", "loyal"],
    "hands": [["fight_1", "fight_2", "fight_3"], ["fate", "fight_2"], ["fight_3", "fight_4"]],
}


def command(user: str, name: str, *args: str, chat: str | None = None, language: str | None = None) -> Inbound:
    chat = chat or f"dm-{user}"
    return Inbound(
        "rec", chat, user, f"c{next(_ids)}", "command", command=name, args=args, user_name=user.title(),
        language=language, is_group=chat == "group",
    )


def tap(user: str, data: str) -> Inbound:
    return Inbound("rec", f"dm-{user}", user, f"t{next(_ids)}", "tap", text=data)


def _seq(game_id: int) -> int:
    with session_scope() as s:
        return s.get(GameRow, game_id).seq


def _last(recording, chat: str) -> str:
    return [c for c in recording.sent(chat) if c.method == "send_text"][-1].text


def test_since_your_last_turn_comes_before_the_question_in_ones_own_view(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "group", "board", {"stack": STACK}, ["ann", "bob", "cat"], 0, seed=3)
    first = [c.text for c in recording.sent("dm-ann") if c.method == "send_text"]
    assert any(text.startswith(t("en", "narr.since.header")) and "Fight 1" in text for text in first)  # her deal
    for code in ("evil:siege", "draw", "end"):  # ann's turn; then bob is asked
        submit(tap("ann", pack(game_id, _seq(game_id), code)))
    sends = [c for c in recording.sent("dm-bob") if c.method == "send_text"]
    recap = [c for c in sends if c.text.startswith(t("en", "narr.since.header"))]
    assert recap and "Fate" in recap[0].text and "Fight 3, Fight 4" not in recap[0].text  # his hand, not cat's
    assert sends[-1].buttons and sends.index(recap[-1]) == len(sends) - 2  # then the question, at the bottom
    assert not any("Fate" in c.text for c in recording.sent("dm-cat"))  # bob's card never in another chat


def test_log_in_a_direct_chat_has_ones_own_secrets_and_the_groups_has_none(backbone_local, recording):
    lobby.create_and_start("rec", "group", "board", {"stack": STACK}, ["ann", "bob", "cat"], 0, seed=3)
    submit(command("bob", "log"))
    submit(command("bob", "log", chat="group"))
    mine, public = _last(recording, "dm-bob"), _last(recording, "group")
    assert mine.startswith("📜") and "Fate" in mine and "Traitor" in mine  # his hand and his loyalty
    assert public.startswith("📜") and "Fate" not in public and "Traitor" not in public


def test_status_in_a_direct_chat_is_the_board_and_ones_hand(backbone_local, recording):
    lobby.create_and_start("rec", "group", "board", {"stack": STACK}, ["ann", "bob", "cat"], 0, seed=3)
    submit(command("cat", "status"))
    text = _last(recording, "dm-cat")
    assert "Shadows over Camelot" in text and "Fight 3, Fight 4" in text and "Fate" not in text


def test_card_answers_a_name_in_any_language_in_the_askers_language(backbone_local, recording):
    grail = next(c for c in BOOK if c.game == "board" and c.family == "white" and c.id == "grail")
    submit(command("ann", "card", *card_name(grail, "pl").split(), language="it"))
    text = _last(recording, "dm-ann")
    assert text.startswith("🃏 " + card_name(grail, "it")) and t("it", f"cardtext.board.{grail.text}") in text
    submit(command("ann", "card", "zzzz"))
    assert _last(recording, "dm-ann") == t("it", "narr.card.not_found", query="zzzz")


def test_rules_answer_in_the_askers_language_with_each_card_family(backbone_local, recording):
    submit(command("ann", "rules", language="nl"))
    text = _last(recording, "dm-ann")
    assert text.startswith(t("nl", "lobby.rules.board"))
    for family in ("white", "black", "relic", "quest", "knight"):
        assert t("nl", f"narr.card.family.board.{family}") in text
    assert "/card" in text


def test_log_after_the_end_reveals_every_seats_secrets(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "group", "board", {}, [], 3, seed=5)  # bots only: over at once
    with session_scope() as s:
        assert s.get(GameRow, game_id).status == "finished"
    submit(command("ann", "log", "1", chat="group"))
    first_page = _last(recording, "group")
    for bot in ("Bot 1", "Bot 2", "Bot 3"):  # every seat's deal, revealed
        assert t("en", "narr.log.secret", name=bot, line="🃏") in first_page
    attached = [c for c in recording.sent("group") if c.method == "send_document"]
    assert len(attached) == 1 and attached[0].extra["filename"] == f"camelot-{game_id}.txt"
    whole = attached[0].extra["data"].decode()
    assert first_page.split("\n")[1] in whole and whole.count("\n") > first_page.count("\n")  # every page in it


def test_a_welcome_is_short_and_matrix_help_says_how_to_answer_by_number(backbone_local, recording):
    submit(command("ann", "welcome", language="pl"))
    text = _last(recording, "dm-ann")
    assert text == t("pl", "lobby.welcome") + "\n\n" + t("pl", "lobby.welcome.more")  # the commands wait for /help
    assert "/newgame" in text and "/help" in text and len(text) < 400
    assert t("pl", "lobby.help.numbers") not in text and "button" not in text.lower()
    assert t("en", "lobby.help.numbers") and "button" not in t("en", "lobby.help.numbers")
