"""Exact texts where the wording carries a rule: perspectives, hidden draws, the Threat pile, menu structure."""

from __future__ import annotations

from engine import get_game
from engine.core.actions import Action
from engine.core.events import private
from service.callback import pack, unpack
from service.render import board_text, cards_text, menus, panel, present


def test_an_exchange_is_told_from_each_side():
    event = private("exchange_cards", [0, 2], gave="merlin", got="fight_1", seat=0, other=2)
    names = {0: "Arthur's player", 2: "Bea"}
    assert board_text.event_line(event, 0, "en", names) == "Exchange with Bea: you gave Merlin, you got Fight 1"
    assert board_text.event_line(event, 2, "en", names) == (
        "Exchange with Arthur's player: you gave Fight 1, you got Merlin"
    )


def test_a_drawn_card_that_may_go_face_down_is_not_named_on_the_board():
    game = get_game("board")
    view = game.view(game.new_game({"players": 3}, 1), None)
    for drawn, shown in (
        ("black_knight_7", "face-down card"),
        ("lancelot_5", "face-down card"),
        ("despair", "Despair"),
    ):
        text = board_text.board({**view, "drawn": drawn}, "en", {})
        assert f"Black card drawn: {shown}" in text
    assert "Black Knight 7" not in board_text.board({**view, "drawn": "black_knight_7"}, "en", {})


def test_the_card_game_board_names_only_the_top_threat_card():
    game = get_game("cards")
    view = game.view(game.new_game({"players": 3}, 1), None)
    text = cards_text.board({**view, "threat_top": "picts_4", "threat_count": 5}, "pl", {})
    assert "Wierzch stosu Zagrożenia: Piktowie 4\n   5 kart w stosie" in text  # folded to a phone's width
    hidden = cards_text.board({**view, "threat_top": "hidden", "threat_count": 1}, "en", {})
    assert "Threat pile top: face-down card\n   1 card in the pile" in hidden


def test_labels_combine_a_kind_with_its_arguments():
    game = get_game("board")
    view = game.view(game.new_game({"players": 3}, 1), 0)
    names = {1: "Bea"}
    assert board_text.label(Action("evil", ("black",)), view, 0, "en", names) == "🃏 Draw a black card"
    assert board_text.label(Action("move", ("grail",)), view, 0, "en", names) == "🐎 Go to: Holy Grail"
    assert board_text.label(Action("give", ("grail",)), view, 0, "en", names) == "Give: Grail"
    assert board_text.label(Action("accuse", (1,)), view, 0, "en", names) == "☝ Accuse: Bea"
    assert board_text.label(Action("play", ("merlin", "black_knight")), view, 0, "it", names) == (
        "✨ Gioca: Merlino · Cavaliere Nero"
    )
    assert board_text.label(Action("play", ("piety", "others")), view, 0, "en", names) == (
        "✨ Piety: +1 life to the others"
    )


def test_many_choices_make_two_levels_and_a_back_button():
    actions = [Action("move", (q,)) for q in ("black_knight", "lancelot", "grail", "picts", "saxons")]
    actions += [Action("fight", (v,)) for v in (1, 2, 3, 4, 5)] + [Action("draw")]

    def build(level):
        return menus.build(
            actions,
            lambda a: a.encode(),
            lambda a: a.encode(),
            lambda kind, n: f"{kind} ({n})",
            game_id=7,
            seq=3,
            lang="en",
            level=level,
        )

    top = [[b.data for b in row] for row in build(None)]
    assert [d for row in top for d in row] == [pack(7, 3, c) for c in ("@move", "@fight", "draw")]
    second = [b.data for row in build("fight") for b in row]
    assert second == [pack(7, 3, c) for c in ("fight:1", "fight:2", "fight:3", "fight:4", "fight:5", "@")]
    assert menus.reachable(build) == {a.encode() for a in actions}


def test_a_long_kind_is_paged_and_every_page_is_reachable():
    actions = [Action("pick", (i,)) for i in range(130)]

    def kb(level):
        return menus.build(
            actions,
            lambda a: a.encode(),
            lambda a: a.encode(),
            lambda k, n: k,
            game_id=1,
            seq=1,
            lang="en",
            level=level,
        )

    first = kb(None)
    assert sum(len(r) for r in first) <= menus.MAX_BUTTONS
    assert first[-1][-1].data == pack(1, 1, "@pick:1")
    assert menus.reachable(kb) == {a.encode() for a in actions}


def test_panel_of_a_seat_without_a_decision_has_no_buttons():
    game = get_game("cards")
    state = game.new_game({"players": 3}, 4)
    waiting = next(s for s in range(3) if s not in {p.seat for p in game.pending(state)})
    assert panel("cards", state, waiting, game_id=1, seq=0, lang="en").buttons is None


def test_prompts_name_what_they_are_about():
    game = get_game("board")
    view = game.view(game.new_game({"players": 3}, 1), 0)
    sharing = {**view, "table": ["grail", "fight_3"], "proposal": [1]}
    assert (
        board_text.prompt_line("split", sharing, 0, "en", {}) == "👉 Sharing the cards on the table: who gets Fight 3?"
    )
    voting = {**sharing, "proposal": [1, 2]}
    assert board_text.prompt_line("split", voting, 0, "en", {}).startswith("👉 Do you accept")
    assert board_text.prompt_line("window", {**view, "drawn": "vivien"}, 0, "nl", {}) == (
        "👉 Zwarte kaart getrokken: Vivien. Annuleren?"
    )
    # others' views say "hidden" for a card that may go face down; the drawer's own view names it
    assert "face-down card" in board_text.prompt_line("window", {**view, "drawn": "hidden"}, 1, "en", {})
    assert board_text.prompt_line("face", {**view, "drawn": "black_knight_5"}, 0, "it", {}) == (
        "👉 Giochi Cavaliere Nero 5 scoperta o coperta?"
    )


def test_forged_menu_levels_fall_back_to_a_valid_menu():
    actions = [Action("pick", (i,)) for i in range(30)] + [Action("pass")]

    def kb(level):
        return menus.build(
            actions,
            lambda a: a.encode(),
            lambda a: a.encode(),
            lambda k, n: k,
            game_id=1,
            seq=1,
            lang="en",
            level=level,
        )

    top = kb(None)
    assert kb("nosuchkind") == top and kb("") == top
    assert kb("pick:999") == kb("pick:1")  # past the last page: the last page
    assert kb("pick:x") == kb("pick")


def test_every_decision_kind_of_both_engines_has_a_sentence():
    from engine.board.frames import DECISIONS
    from engine.cards.game import PHASES
    from service.render.i18n import has

    board = set(DECISIONS) - {"split"}  # split is worded per step (split_assign, split_vote)
    assert board and all(has(f"board.prompt.{kind}") for kind in board), sorted(board)
    cards = {kind for kind, _, _ in PHASES.values()}
    assert all(has(f"cards.prompt.{kind}") for kind in cards), sorted(cards)
    assert has("board.prompt.split_assign") and has("board.prompt.split_vote")


def test_every_action_kind_in_the_engines_has_a_label():
    import re
    from pathlib import Path

    from service.render.i18n import has

    root = Path(__file__).resolve().parents[3] / "engine"
    for game in ("board", "cards"):
        source = "".join(p.read_text() for p in (root / game).glob("*.py"))
        kinds = set(re.findall(r'Action\("([a-z_]+)"', source))
        assert len(kinds) > 5
        missing = sorted(k for k in kinds if not has(f"{game}.action.{k}"))
        assert missing == [], (game, missing)


def test_the_armors_two_black_cards_are_a_private_choice_with_readable_labels():
    """B-KNIGHT (issue 21, item 1): the holder of Lancelot's Armor keeps one of two black cards; only he sees them."""
    game = get_game("board")
    stack = {"knights": ["gawain", "kay", "tristan"], "first": 0, "skip_gesture": True,
             "board": {"relics": [["armor"], [], []]}, "black": ["morgan_two_engines", "despair"]}
    state = game.new_game({"players": 3, "stack": stack}, 1)
    state, events = game.apply_code(state, 0, "evil:black")
    mine = panel("board", state, 0, game_id=1, seq=2, lang="en")
    labels = [b.label for row in mine.buttons for b in row]
    assert labels == ["Play: Morgan: 2 siege engines", "Play: Despair"]
    assert "Lancelot's Armor: which black card do you play?" in mine.question and "Despair" in mine.text
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    public = present("board", state, events, game_id=1, seq=2, group_lang="nl", seat_langs={}, seat_names=names)
    assert public.lines == ["😈 Ann trekt een zwarte kaart", "🛡 Ann trekt met Lancelots Pantser twee zwarte kaarten"]
    for text in (public.board, public.panels[1].text, public.panels[2].text, *public.lines):
        assert "Morgan" not in text and "Wanhoop" not in text


def test_galahads_free_special_card_is_labelled_apart_from_the_same_card_as_his_heroic_action():
    """B-KNIGHT (issue 21, item 6): both ways of playing Piety are offered, and the buttons tell them apart."""
    game = get_game("board")
    stack = {"knights": ["galahad", "kay", "tristan"], "first": 0, "skip_gesture": True,
             "hands": [["piety"], [], []], "board": {"loc": ["grail", "camelot", "camelot"]}}
    state, _ = game.apply_code(game.new_game({"players": 3, "stack": stack}, 1), 0, "evil:siege")
    view = game.view(state, 0)
    assert board_text.label(Action("play", ("piety", "self")), view, 0, "en", {}) == "✨ Piety: +3 life to me"
    free = board_text.label(Action("galahad", ("piety", "self")), view, 0, "en", {})
    assert free == "🆓 Free ✨ Piety: +3 life to me"
    labels = [b.label for row in panel("board", state, 0, game_id=1, seq=1, lang="nl").buttons for b in row]
    assert "🆓 Gratis ✨ Vroomheid: +3 levens voor mij" in labels


def test_a_heal_is_told_to_the_group_without_its_cards():
    """B-TURN heal (issue 21, item 8): the group learns that he healed, never which three cards (face down)."""
    game = get_game("board")
    stack = {"knights": ["gawain", "kay", "tristan"], "first": 0, "skip_gesture": True,
             "hands": [["grail", "grail", "grail", "merlin"], [], []], "board": {"life": [2, 4, 4]}}
    state = game.new_game({"players": 3, "stack": stack}, 1)
    state, events = game.apply_code(state, 0, "evil:siege")
    state, events = game.apply_code(state, 0, "heal:grail")
    names = {0: "Ann", 1: "Bea", 2: "Cy"}
    shown = present("board", state, events, game_id=1, seq=3, group_lang="it", seat_langs={}, seat_names=names)
    assert shown.lines == ["💚 Ann si cura con 3 carte: ❤ 3"]
    assert "Graal" not in shown.lines[0]  # face down: which three cards stays hidden


def test_the_lady_of_the_lakes_knight_is_asked_who_is_dealt_first_with_the_knights_names():
    game = get_game("board")
    stack = {"knights": ["gawain", "kay", "tristan"], "first": 0, "skip_gesture": True,
             "hands": [["lady_of_the_lake"], [], []], "board": {"excal_pos": 9, "loc": ["camelot", "excalibur",
                                                                                          "excalibur"]}}
    state = game.new_game({"players": 3, "stack": stack}, 1)
    moves = [(0, "evil:siege"), (0, "play:lady_of_the_lake"), *[(1, "give:1")] * 7, (2, "refuse")]
    for seat, code in moves:
        state, _ = game.apply_code(state, seat, code)
    mine = panel("board", state, 0, game_id=1, seq=len(moves), lang="en", seat_names={0: "Ann", 1: "Bea", 2: "Cy"})
    assert [b.label for row in mine.buttons for b in row] == ["🎲 First card to: Bea", "🎲 First card to: Cy"]
    assert "Who is dealt the first card?" in mine.question
    state, events = game.apply_code(state, 0, "first:2")
    told = present("board", state, events, game_id=1, seq=len(moves) + 1, group_lang="en", seat_langs={},
                   seat_names={0: "Ann", 1: "Bea", 2: "Cy"})
    assert told.lines[0] == "🎲 No agreement: Ann has the cards dealt at random from Cy"


def test_king_arthurs_exchange_goes_in_two_steps_a_knight_then_a_card():
    cards = ("fight_1", "fight_2", "fight_3", "grail", "merlin")
    actions = [Action("arthur", (seat, card)) for seat in (1, 2, 3) for card in cards] + [Action("draw")]

    def build(level):
        return menus.build(
            actions, lambda a: a.encode(), lambda a: a.encode(), lambda kind, n: f"{kind} ({n})",
            game_id=7, seq=3, lang="en", level=level,
        )

    def codes(level):
        return [unpack(b.data).code for row in build(level) for b in row]

    assert codes(None) == ["@arthur", "draw"]
    assert codes("arthur") == ["@arthur=1", "@arthur=2", "@arthur=3", "@"]  # first the knight…
    # …then the card, with a way back to the knights
    assert codes("arthur=2") == [Action("arthur", (2, c)).encode() for c in cards] + ["@arthur"]
    assert codes("arthur=9") == [a.encode() for a in actions if a.kind == "arthur"][:menus.PAGE_SIZE] + ["@arthur"]
    assert menus.reachable(build) == {a.encode() for a in actions}


def test_morgans_count_is_a_number_pad():
    actions = [Action("count", (n,)) for n in range(1, 21)]
    keyboard = menus.build(
        actions, lambda a: a.encode(), lambda a: f"Count: {a.args[0]}", lambda kind, n: kind,
        game_id=7, seq=3, lang="en",
    )
    assert [[b.label for b in row] for row in keyboard] == [[str(n) for n in range(r, r + 5)] for r in (1, 6, 11, 16)]
    assert [unpack(b.data).code for row in keyboard for b in row] == [a.encode() for a in actions]
