"""Every card of both games as data: which family it belongs to and which rules text (`cardtext.<game>.<text>`)
explains it. Built from the engines' own catalogues, so a card the engine knows cannot lack an entry."""

from __future__ import annotations

from typing import NamedTuple

from engine.board import catalogue as board
from engine.cards import catalogue as cards


class Card(NamedTuple):
    game: str  # "board" or "cards"
    family: str  # board: white, black, relic, quest, knight; cards: rumor, quest, knight
    id: str  # the engine's id
    text: str  # rules text key: `cardtext.<game>.<text>`


RELICS = ("excalibur", "grail", "armor")

# Cards whose text is shared with others of their family, or whose id is taken by another kind of thing.
_BOARD_TEXT = {
    **{c: "fight" for c in board.FIGHT.values()},
    **{c: "black_knight" for c in board.BLACK_KNIGHT_VALUE},
    **{c: "lancelot" for c in board.LANCELOT_VALUE},
    "excalibur": "excalibur_black",
}
_BOARD_QUEST_TEXT = {"picts": "quest_war", "saxons": "quest_war"}


def _cards_text(card: str) -> str:
    kind = cards.CARDS[card]
    if kind.kind == "quest":
        return "quest_card"
    if kind.kind == "morgan" and kind.number == 4:
        return "morgan_4"
    return card


def _build() -> tuple[Card, ...]:
    book = [Card("board", "white", c, _BOARD_TEXT.get(c, c)) for c in board.WHITE_COUNTS]
    book += [Card("board", "black", c, _BOARD_TEXT.get(c, c)) for c in board.BLACK_COUNTS]
    book += [Card("board", "relic", r, f"relic_{r}") for r in RELICS]
    book += [Card("board", "quest", q, _BOARD_QUEST_TEXT.get(q, f"quest_{q}")) for q in board.LOCATIONS]
    book += [Card("board", "knight", k, f"knight_{k}") for k in board.KNIGHTS]
    book += [Card("cards", "rumor", c, _cards_text(c)) for c in cards.CARDS]
    book += [Card("cards", "quest", q, "quest") for q in cards.QUESTS]
    book += [Card("cards", "knight", k, f"knight_{k}") for k in cards.KNIGHTS]
    return tuple(book)


BOOK: tuple[Card, ...] = _build()
