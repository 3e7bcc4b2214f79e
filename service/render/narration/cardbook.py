"""`/card NAME`: any card, relic, quest or knight of both games, found by its name in any of the six languages, and
its one-line rules text in the asker's language.

A name matches case- and accent-insensitively, punctuation aside ("merlin 3" finds "Merlin #3", "swiety graal"
finds "Święty Graal"); a name's later words match too ("kay" finds "Sir Kay"). An exact name wins; else a prefix
that leads to one rules text (e.g. "fight" → the five fight cards, one text). Several cards may share a name
(Excalibur is a black card, a relic and a quest): then each is explained.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

from engine.cards import catalogue as cards_cat
from service.render import names as nm
from service.render.i18n import available_languages, normalize, t, tn
from service.render.narration.cardbook_data import BOOK, Card

MAX_CHOICES = 10
_FOLD = str.maketrans({"ł": "l", "đ": "d", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "ı": "i"})


def fold(text: str) -> str:
    """Lower case, no accents, letters, digits and "?" only, single spaces: what two spellings of a name share."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    text = "".join(c if c.isalnum() or c == "?" else " " for c in text if not unicodedata.combining(c))
    return " ".join(text.split())


def name(card: Card, lang: str) -> str:
    """The card's name in `lang`, as the games' other texts write it."""
    if card.game == "board":
        if card.family in ("white", "black"):
            return nm.board_card(lang, card.id)
        if card.family == "relic":
            return nm.relic(lang, card.id)
        return (nm.quest if card.family == "quest" else nm.knight)(lang, "board", card.id)
    if card.family == "rumor":
        return nm.cards_card(lang, card.id)
    return (nm.quest if card.family == "quest" else nm.knight)(lang, "cards", card.id)


def text(card: Card, lang: str) -> str:
    """The card's rules text in `lang`."""
    key = f"cardtext.{card.game}.{card.text}"
    if card.game == "cards" and card.family == "quest":
        return t(lang, key, swords=tn(lang, "narr.n.swords_white", cards_cat.SWORDS[card.id]))
    if card.text == "quest_card":
        return t(lang, key, quest=nm.quest(lang, "cards", cards_cat.CARDS[card.id].quest))
    if card.text == "morgan_4":
        return t(lang, key, bonus=cards_cat.CARDS[card.id].bonus)
    return t(lang, key)


@cache
def _index() -> tuple[dict[str, set[Card]], dict[str, set[Card]]]:
    """Folded names → cards, and folded later parts of names ("sir kay" → "kay") → cards."""
    full: dict[str, set[Card]] = {}
    tail: dict[str, set[Card]] = {}
    for card in BOOK:
        for lang in available_languages():
            words = fold(name(card, lang)).split()
            full.setdefault(" ".join(words), set()).add(card)
            for i in range(1, len(words)):
                tail.setdefault(" ".join(words[i:]), set()).add(card)
    return full, tail


@dataclass(frozen=True)
class Found:
    """The cards a query names (`cards`), or the names it could mean when it names several (`choices`)."""

    cards: tuple[Card, ...] = ()
    choices: tuple[Card, ...] = ()


def _order(cards: set[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=BOOK.index))


def find(query: str) -> Found:
    """Exact names first (whole, then later words), then prefixes that lead to one rules text."""
    q = fold(query)
    if not q:
        return Found()
    full, tail = _index()
    for names in (full, tail):
        if q in names:
            return Found(_order(names[q]))
    for names in (full, tail):
        hits = set().union(*(cards for key, cards in names.items() if key.startswith(q)))
        if len({(c.game, c.text) for c in hits}) == 1:
            return Found(_order(hits))
        if hits:
            return Found(choices=_order(hits))
    return Found()


def card_text(query: str, lang: str) -> str:
    """The answer to `/card <query>` in `lang`: each named card's name, family and rules text; or the names it
    could mean; or that no card is called so."""
    lang = normalize(lang)
    found = find(query)
    if found.choices:
        names = list(dict.fromkeys(name(c, lang) for c in found.choices))
        shown = ", ".join(names[:MAX_CHOICES]) + (", …" if len(names) > MAX_CHOICES else "")
        return t(lang, "narr.card.ambiguous", names=shown)
    if not found.cards:
        return t(lang, "narr.card.not_found", query=query.strip()[:40])
    blocks: dict[tuple[str, str], list[str]] = {}  # (family, rules text) → names: the five fight cards, one text
    for card in found.cards:
        family = t(lang, f"narr.card.family.{card.game}.{card.family}")
        blocks.setdefault((family, text(card, lang)), []).append(name(card, lang))
    out = []
    for (family, rules), names in blocks.items():
        heading = t(lang, "narr.card.entry", name=", ".join(dict.fromkeys(names)), family=family)
        out.append(f"{heading}\n{rules}")
    return "\n\n".join(out)
