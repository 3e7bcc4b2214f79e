"""The card game's state: one mutable object, copied cheaply, serialised whole by `snapshot`.

Conventions that keep the hot path fast: the Rumor deck's top card is the END of `deck` (pop is O(1));
the Threat pile's top card is the end of `threat`. Who has seen a card that is not face up is a bit mask of
seats (`PUBLIC` = every bit: face up or seen by all): the `*_seen` lists run parallel to their cards.
Loyalty cards live in slots: `loyalty[0..n-1]` are the seats', `loyalty[n]` and `loyalty[n+1]` the two set aside in the
middle (Vivien's); solo games have no slots. `revealed[seat]` is the loyalty a seat showed (accused, or at the
final reveal), None if never: it stays what everybody saw even if Vivien later lets the seat swap its card in secret;
`loyalty_public` holds the slots whose card everybody still knows.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cards.catalogue import RUMOR_COUNTS
from engine.core.rng import copy_rng

PUBLIC = -1
"""Seen-mask of a face-up card or one everybody saw: all bits set, so `seen(PUBLIC, seat)` is always true."""


def seen(mask: int, seat: int | None) -> bool:
    """Whether `seat` (None: an onlooker) has seen a card with this seen-mask."""
    return mask == PUBLIC or (seat is not None and (mask >> seat) & 1 == 1)


_LISTS = (
    "deck", "discard", "discard_seen", "threat", "threat_seen", "announced", "aside", "loyalty", "revealed", "accused",
    "accusations", "knight_deck", "knights_played", "window", "traitor_hand", "traitor_seen", "gawain_hand",
    "gawain_seen",
)
_NESTED = ("known", "looks", "knights", "tristan_seen")
RENAMED = {"loy": "loyalty", "loy_public": "loyalty_public", "res": "resolution"}
"""Fields' short names before issue 22, still read in states the service cached."""


class State:
    """Everything about one game. Attributes are documented in `engine.cards.setup.new_state`; `copy` is
    shallow-per-field."""

    __slots__ = (
        "n", "expert", "solo", "rng", "deck", "discard", "discard_seen", "threat", "threat_seen", "announced", "aside",
        "white", "black", "loyalty", "revealed", "loyalty_public", "accused", "accusations", "known", "looks",
        "knight_deck",
        "knights", "knights_played", "tristan_seen", "deck_known", "tristan_used", "silence", "morgan1", "morgan2",
        "morgan2_count", "token", "token_by", "current", "turn", "phase", "window", "after", "actor", "held",
        "held_seen", "quest", "accusing", "resolution", "traitor_hand", "traitor_seen", "gawain_hand", "gawain_seen",
        "vivien", "end_done", "end_flips", "result",
    )

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """Unpickle (the service caches states); one cached before the fields' full names gets them (`RENAMED`)."""
        for name, value in state[1].items():
            setattr(self, RENAMED.get(name, name), value)

    def copy(self) -> State:
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = copy_rng(self.rng)
        for name in _LISTS:
            setattr(new, name, list(getattr(self, name)))
        new.known = [dict(d) for d in self.known]
        new.looks = [list(x) for x in self.looks]
        new.knights = [list(x) for x in self.knights]
        new.tristan_seen = [None if x is None else list(x) for x in self.tristan_seen]
        new.deck_known = set(self.deck_known)
        new.loyalty_public = set(self.loyalty_public)
        new.resolution = None if self.resolution is None else _copy_res(self.resolution)
        new.vivien = None if self.vivien is None else {**self.vivien, "slots": dict(self.vivien["slots"])}
        return new


def _copy_res(res: dict[str, Any]) -> dict[str, Any]:
    out = dict(res)
    out["stacks"] = {q: list(cs) for q, cs in res["stacks"].items()}
    out["chars"] = list(res["chars"])
    out["removed"] = list(res["removed"])
    out["totals"] = dict(res["totals"])
    return out


def all_rumors(s: State) -> list[str]:
    """Every Rumor card wherever it lies (deck, discards, Threat pile, aside, hands, resolution)."""
    cards = s.deck + s.discard + s.threat + s.aside + s.traitor_hand + s.gawain_hand
    if s.held is not None:
        cards.append(s.held)
    if s.resolution is not None:
        for cs in s.resolution["stacks"].values():
            cards += cs
        cards += s.resolution["chars"] + s.resolution["removed"]
    return cards


def conserved(s: State) -> bool:
    """C-COMP: the 62 Rumor cards are all somewhere, each exactly as often as in the box."""
    return Counter(all_rumors(s)) == RUMOR_COUNTS


def snapshot(s: State) -> dict[str, Any]:
    """The whole state as JSON-able data (secrets and the RNG included): what `digest` hashes."""
    out: dict[str, Any] = {}
    for name in State.__slots__:
        value = getattr(s, name)
        if name == "rng":
            version, internal, gauss = value.getstate()
            value = [version, list(internal), gauss]
        elif name in ("deck_known", "loyalty_public"):
            value = sorted(value)
        elif name == "known":
            value = [{str(k): v for k, v in d.items()} for d in value]
        elif name == "resolution" and value is not None:
            value = {k: (sorted(v.items()) if isinstance(v, dict) else v) for k, v in value.items()}
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out
