"""Cards explained in the question (issue 23 item 6): a prompt about a card carries that card's rules text, so a
person decides knowing what it does without leaving the chat (`/card NAME` answers any other card).

The card a prompt is about is either the one it names in the seat's own view (`drawn`: the black card in a Merlin
window, the card played face up or down, Morgan's card asking for a volunteer) or the one the prompt kind is named
after (Sir Kay's extra card, the Convocation, Lancelot's Armor, the card game's Morgan #2 …).
"""

from __future__ import annotations

from typing import Any

from service.render.i18n import t
from service.render.narration.cardbook import text as card_text
from service.render.narration.cardbook_data import BOOK, Card

# prompt kinds whose card is the one in the seat's view (`drawn`)
_DRAWN = {("board", "window"), ("board", "face"), ("board", "volunteer")}
# prompt kinds named after a card: (game, kind) → (family, card id)
_NAMED = {
    ("board", "arthur"): ("knight", "arthur"),
    ("board", "kay"): ("knight", "kay"),
    ("board", "percival"): ("knight", "percival"),
    ("board", "armor"): ("relic", "armor"),
    ("board", "grail_rescue"): ("white", "grail"),
    ("board", "convocation"): ("white", "convocation"),
    ("board", "messenger"): ("white", "messenger"),
    ("board", "clairvoyance"): ("white", "clairvoyance"),
    ("cards", "arthur"): ("knight", "arthur"),
    ("cards", "gawain"): ("knight", "gawain"),
    ("cards", "gawain_pick"): ("knight", "gawain"),
    ("cards", "percival"): ("knight", "percival"),
    ("cards", "merlin4_token"): ("rumor", "merlin_4"),
    ("cards", "morgan1_announce"): ("rumor", "morgan_1"),
    ("cards", "morgan2_count"): ("rumor", "morgan_2"),
}
_FAMILIES = {"board": ("black", "white", "relic"), "cards": ("rumor",)}


def _card(game: str, family: str | None, card_id: str) -> Card | None:
    families = (family,) if family else _FAMILIES[game]
    return next((c for c in BOOK if c.game == game and c.family in families and c.id == card_id), None)


def about(game: str, kind: str, view: dict[str, Any]) -> Card | None:
    """The card the prompt `kind` is about, as the seat's own view shows it; None if it is about none."""
    if (game, kind) in _DRAWN and isinstance(view.get("drawn"), str):
        return _card(game, None, view["drawn"])
    named = _NAMED.get((game, kind))
    return _card(game, *named) if named else None


def explanation(game: str, kind: str, view: dict[str, Any], lang: str) -> str:
    """The rules text line of the card the prompt is about ("📖 …"), or "" when it is about none."""
    card = about(game, kind, view)
    return t(lang, "ask.card", text=card_text(card, lang)) if card is not None else ""
