"""Random games of both kinds rendered at every step: nothing private in public text, menus within limits, every
legal action reachable.

The strongest secrecy check is a counterfactual: re-deal everything the group may not know
(`game.resample_hidden(state, None, …)`) and the group's board text must not change; re-deal what one seat may not
know and that seat's panel must not change. A renderer that peeked at a secret would fail it.
"""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.board.catalogue import FACE_DOWN_ABLE
from engine.bots import RandomBot, heuristic_bot
from engine.cards.catalogue import CARDS
from service.callback import MAX_BYTES
from service.render import panel, present
from service.render.i18n import has
from service.render.menus import MAX_BUTTONS, MAX_ROW, reachable
from service.render.names import board_card, cards_card

LANGS = ["en", "cs", "pl", "nl", "ro", "it"]
# The longest ids a callback can carry: the 64-byte limit must hold even then.
GAME_ID, SEQ_BASE = 999_999_999, 900_000_000  # the largest ids a button may carry (service.callback.MAX_ID)


def _check_keyboard(keyboard) -> None:
    assert sum(len(row) for row in keyboard) <= MAX_BUTTONS
    for row in keyboard:
        assert 0 < len(row) <= MAX_ROW
        for button in row:
            assert button.label.strip()
            assert ".action." not in button.label  # every action kind has a catalog label
            assert len(button.data.encode()) <= MAX_BYTES


def _check_menu(name, state, seat, seq, lang) -> None:
    """Every keyboard level is within limits, and walking the menu reaches exactly the legal actions."""
    game = get_game(name)

    def at(level):
        keyboard = panel(name, state, seat, game_id=GAME_ID, seq=seq, lang=lang, level=level).buttons
        if keyboard:
            _check_keyboard(keyboard)
        return keyboard

    legal = {game.encode(a) for a in game.legal_actions(state, seat)}
    assert reachable(at) == legal


def _play(name, config, seed, on_step, max_steps=1500):
    """Odd seeds: random play (odd corners); even seeds: the heuristic bot (long games that win quests)."""
    game = get_game(name)
    rng = random.Random(seed)
    bot = RandomBot() if seed % 2 else heuristic_bot(name)
    state = game.new_game(config, seed)
    for step in range(max_steps):
        if game.result(state) is not None:
            return state
        seat = game.pending(state)[0].seat
        state, events = game.apply(state, seat, bot.choose(game, state, seat, rng))
        on_step(game, state, events, step)
    return state


def _board(name, state, lang, n):
    """The board text alone, without the "waiting for" line that follows the engine's prompts."""
    from service.render.present import renderer

    view = get_game(name).view(state, None)
    return renderer(name).board(view, lang, {s: f"Knight{s}" for s in range(n)})


def _check_prompts(name, state) -> None:
    """Every decision kind the engine asks has its own sentence in the catalog, not the generic fallback."""
    for prompt in get_game(name).pending(state):
        split = (name, prompt.kind) == ("board", "split")  # worded per step: split_assign / split_vote
        assert has(f"{name}.prompt.{prompt.kind}") or split, prompt.kind


def _present(name, state, events, seq, lang, n):
    return present(
        name,
        state,
        events,
        game_id=GAME_ID,
        seq=SEQ_BASE + seq,
        group_lang=lang,
        seat_langs={s: LANGS[(s + 1) % 6] for s in range(n)},
        seat_names={s: f"Knight{s}" for s in range(n)},
    )


CARD_GAMES = [({"players": n, "expert": n % 2 == 0}, seed) for seed, n in enumerate([2, 3, 4, 5, 6, 7, 4, 5, 7, 3, 6])]
CARD_GAMES += [({"players": 1, "expert": False}, 11), ({"players": 1, "expert": False}, 12)]  # solo


@pytest.mark.parametrize(("config", "seed"), CARD_GAMES)
def test_card_game_rendering(config, seed):
    n = config["players"]
    rng = random.Random(seed)

    def step(game, state, events, i):
        lang = LANGS[i % 6]
        pres = _present("cards", state, events, i, lang, n)
        view = game.view(state, None)
        # the board is rendered from public information only
        other = game.resample_hidden(state, None, rng)
        assert _board("cards", other, lang, n) == _board("cards", state, lang, n)
        assert pres.board.startswith(_board("cards", state, lang, n))
        assert _present("cards", other, [], i, lang, n).board == pres.board  # who must decide is public too
        # only the top Threat card: no quest card below it is named (unless the same card is on top / announced);
        # characters below it are not checked by name, their rules lines (Morgan #1 in force…) are public
        shown = {view["threat_top"]}
        if view["threat_announced"]:
            ann = view["threat_announced"]
            shown.add(f"{ann['quest']}_{ann['value']}")
        for card in {c for c in state.threat[:-1] if CARDS[c].kind == "quest"} - shown:
            assert cards_card(lang, card) not in pres.board, (card, pres.board)
        assert pres.silence == view["silence"]
        _check_prompts("cards", state)
        for seat in range(n):
            mine = pres.panels[seat]
            same = game.resample_hidden(state, seat, rng)
            lang_s = LANGS[(seat + 1) % 6]
            assert _private("cards", same, seat, lang_s, n) == _private("cards", state, seat, lang_s, n)
            assert mine.text.startswith(_private("cards", state, seat, lang_s, n))
            names = {s: f"Knight{s}" for s in range(n)}
            redo = panel("cards", same, seat, game_id=GAME_ID, seq=SEQ_BASE + i, lang=lang_s, seat_names=names)
            assert redo == mine
            if mine.buttons:
                _check_menu("cards", state, seat, SEQ_BASE + i, lang_s)
        assert set(pres.mentions) == {p.seat for p in game.pending(state)} or game.result(state) is not None

    state = _play("cards", config, seed, step)
    assert get_game("cards").result(state) is not None


def _private(name, state, seat, lang, n):
    """The seat's private text: its panel without the prompt line."""
    from service.render.present import renderer

    return renderer(name).private(get_game(name).view(state, seat), seat, lang, {s: f"Knight{s}" for s in range(n)})


def test_public_lines_of_a_card_game_do_not_depend_on_secrets():
    """Public event lines come from public events only: a private event never produces a group line."""
    game = get_game("cards")
    found_private = []

    def step(game, state, events, i):
        pres = _present("cards", state, events, i, "en", 5)
        public_only = _present("cards", state, [e for e in events if e.public], i, "en", 5)
        assert pres.lines == public_only.lines
        for e in events:
            if not e.public:
                found_private.append(e.kind)
                for seat in e.to:
                    assert seat in range(5)
        for seat, lines in pres.private_lines.items():
            assert any(e.visible_to(seat) and not e.public for e in events), (seat, lines)

    for seed in range(4):
        _play("cards", {"players": 5, "expert": True}, seed, step)
    assert found_private  # the games exercised private events
    assert game.name == "cards"


def test_board_card_names_cover_every_card_of_both_games():
    from engine.board import catalogue as board_cat
    from engine.cards import catalogue as cards_cat

    for lang in LANGS:
        for card in [*board_cat.WHITE_COUNTS, *board_cat.BLACK_COUNTS]:
            assert "." not in board_card(lang, card), (lang, card)
        for card in cards_cat.CARDS:
            assert "." not in cards_card(lang, card), (lang, card)


BOARD_GAMES = [
    ({"players": 3}, 11),
    ({"players": 4, "variant": {"traitor": "among_us"}}, 12),
    ({"players": 5}, 13),
    ({"players": 7, "variant": {"squires": True}}, 14),
    ({"players": 6, "variant": {"traitor": "none"}}, 15),
    ({"players": 5}, 16),
    ({"players": 4}, 18),
]
WHITE_CARDS = ("fight_1", "fight_2", "fight_3", "fight_4", "fight_5", "grail", "merlin", "convocation", "fate", "piety")
WHITE_CARDS += ("clairvoyance", "heroism", "reinforcements", "lady_of_the_lake", "messenger")


def _without_places(text: str, lang: str) -> str:
    """The board minus quest, relic and knight names, so that e.g. the Grail card is not found in "Holy Grail"."""
    from engine.board import catalogue as cat
    from service.render import names

    for q in (*cat.QUESTS, "camelot"):
        text = text.replace(names.quest(lang, "board", q), "")
    for r in ("excalibur", "grail", "armor"):
        text = text.replace(names.relic(lang, r), "")
    return text


@pytest.mark.parametrize(("config", "seed"), BOARD_GAMES)
def test_board_game_rendering(config, seed):
    n = config["players"]
    rng = random.Random(seed)

    def step(game, state, events, i):
        lang = LANGS[i % 6]
        pres = _present("board", state, events, i, lang, n)
        view = game.view(state, None)
        _check_prompts("board", state)
        other = game.resample_hidden(state, None, rng)
        assert _board("board", other, lang, n) == _board("board", state, lang, n)
        assert pres.board.startswith(_board("board", state, lang, n))
        assert _present("board", other, [], i, lang, n).board == pres.board  # who must decide is public too
        # no hand card is named on the board, except cards that are public right now (face up on the table,
        # Heroism in play); face-down black cards are never named
        public_cards = set(view["table"]) | ({"heroism"} if view["heroism"] else set())
        board = _without_places(pres.board, lang)
        for hand in state.hands:
            for card in set(hand) - public_cards:
                assert board_card(lang, card) not in board, (card, pres.board)
        for rows in (state.black_knight_black, state.lancelot_black):
            for card, down, _ in rows:
                if down:
                    assert board_card(lang, card) not in pres.board
        top = state.frames[-1] if state.frames else None
        if top and top["kind"] in ("window", "face") and top.get("card") in FACE_DOWN_ABLE:
            for seat in set(range(n)) - {state.current}:  # a card that may go face down: the drawer's alone
                you = game.view(state, seat)["you"]
                own = {fd["card"] for fd in you["face_down"]} | set(you["black_top"])  # its own cards and looks
                if top["card"] not in own:
                    assert board_card(LANGS[(seat + 1) % 6], top["card"]) not in pres.panels[seat].text
        for seat in range(n):  # a Traitor is marked only once revealed
            lines = pres.board.splitlines()
            at = next(i for i, x in enumerate(lines) if x[2:].startswith(f"Knight{seat} · "))
            status = lines[at + 1]  # a seat's second line: its life and place, or what became of it
            assert ("🗡" in status) == view["seats"][seat]["revealed"], status
        if i % 3 == 0:  # panels and menus of every seat, every third step (keeps the test fast)
            for seat in range(n):
                mine = pres.panels[seat]
                same = game.resample_hidden(state, seat, rng)
                lang_s = LANGS[(seat + 1) % 6]
                assert _private("board", same, seat, lang_s, n) == _private("board", state, seat, lang_s, n)
                assert mine.text.startswith(_private("board", state, seat, lang_s, n))
                names = {s: f"Knight{s}" for s in range(n)}
                redo = panel("board", same, seat, game_id=GAME_ID, seq=SEQ_BASE + i, lang=lang_s, seat_names=names)
                assert redo.text == mine.text
                if mine.buttons:
                    _check_menu("board", state, seat, SEQ_BASE + i, lang_s)

    _play("board", config, seed, step, max_steps=800)
