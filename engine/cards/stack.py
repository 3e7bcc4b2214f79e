"""The test-only `stack` config: scripting any situation of the rulebook into a new card game (C-SETUP).

Every key is optional; what is not named is dealt as in a real game. Card ids are those of `catalogue`.

- `deck`: Rumor cards on top of the deck, top first.
- `rest`: where the Rumor cards named nowhere go: "deck" (default: shuffled below `deck`) or "discard" (into the
  discard pile, below `discard`): then the deck is exactly `deck`, and `deck: []` scripts an empty deck.
- `discard`: the discard pile, bottom first, face up (what a resolution discarded; everybody saw it).
- `aside`: the 3 set-aside Morgans (else drawn at random from the Morgans named nowhere).
- `threat`: the Threat pile, bottom first. A card id lies face up; `[card, seat, quest, value]` is a quest card
  `seat` laid face down under Morgan #1, announcing `quest` and `value` (2..5 or "q"; it may be a lie).
- `loyalty`: n + 2 values "loyal"/"traitor": the seats' cards, then the two in the middle (Vivien's).
- `accusations`: `[[accuser, accused], …]` already made, in order: each accused showed the card dealt to him
  (their swords are not added: count them in `swords`).
- `swords`: `[white, black]` on the table.
- `silence`: True: Morgan's silence holds (a Morgan must lie face up in the Threat pile: a quest ends it).
- `morgan1`: True: Morgan #1 is in force; `morgan2`: the cards laid on the Threat pile since Morgan #2 (it is in
  force). Their Morgan must lie in the Threat pile or the discards (only a Merlin ends them).
- `token`: `[quest, seat]`: Merlin #4's token lies face down, chosen by `seat` (merlin_4 must be out of the deck).
- `knights`: the Knight deck's top cards, top first; `hands`: the Knight cards each seat holds (expert only).

A Morgan named in `deck`, `threat` or `discard` counts among the six in play.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.cards.catalogue import ACCUSE_SWORDS, CARDS, MORGANS, MORGANS_IN_DECK, QUESTS, TRAITOR
from engine.cards.state import PUBLIC, State
from engine.core.errors import IllegalAction

REST = ("deck", "discard")


def bad(message: str) -> IllegalAction:
    return IllegalAction("C-SETUP", f"stack: {message}")


def take(pool: list[str], wanted: list[str], what: str) -> None:
    """Take the named cards out of the pool of Rumor cards still to deal."""
    for card in wanted:
        if card not in CARDS:
            raise bad(f"unknown card {card!r} in {what}")
        try:
            pool.remove(card)
        except ValueError:
            raise bad(f"too many {card!r} in {what}") from None


class Layout(NamedTuple):
    """Where the stack puts Rumor cards: the Threat pile with its seen-masks and announcements, the rest apart."""

    top: list[str]
    threat: list[str]
    threat_seen: list[int]
    announced: list[tuple[int, str, Any] | None]
    discard: list[str]
    rest: str


def layout(stack: dict[str, Any], n: int, pool: list[str]) -> Layout:
    """The named Rumor cards (taken out of `pool`); the set-aside Morgans are the caller's, drawn after."""
    top, discard = list(stack.get("deck", ())), list(stack.get("discard", ()))
    threat, seen, announced = [], [], []
    for entry in stack.get("threat", ()):
        if isinstance(entry, str):
            threat.append(entry)
            seen.append(PUBLIC)
            announced.append(None)
            continue
        card, seat, quest, value = entry
        if card not in CARDS or CARDS[card].kind != "quest" or not 0 <= seat < n or quest not in QUESTS:
            raise bad(f"face-down Threat card {entry!r}: a quest card, a seat and an announced quest")
        threat.append(card)
        seen.append(1 << seat)
        announced.append((seat, quest, value))
    for cards, what in ((top, "deck"), (threat, "threat"), (discard, "discard")):
        take(pool, cards, what)
    if sum(1 for c in top + threat + discard if c in MORGANS) > MORGANS_IN_DECK:
        raise bad(f"at most {MORGANS_IN_DECK} Morgans are in play")
    rest = stack.get("rest", "deck")
    if rest not in REST:
        raise bad(f"rest must be one of {REST}")
    return Layout(top, threat, seen, announced, discard, rest)


def table(s: State, stack: dict[str, Any]) -> None:
    """What happened before the scripted moment: accusations, Morgans and Merlin #4's token in force."""
    for by, target in stack.get("accusations", ()):
        if s.solo or by == target or not (0 <= by < s.n and 0 <= target < s.n):
            raise bad(f"accusation {[by, target]!r}: two different seats of a game with loyalty")
        if s.accused[by] >= 0 or s.revealed[target]:
            raise bad(f"accusation {[by, target]!r}: each accuses once, nobody is accused twice")
        s.accused[by] = target
        s.revealed[target] = s.loyalty[target]
        s.loyalty_public.add(target)
        s.accusations.append((by, target, s.loyalty[target], ACCUSE_SWORDS))
    if s.revealed[s.current] == TRAITOR:
        raise bad("the first seat may not be a revealed Traitor (his turn starts with a draw: start one seat before)")
    played = s.threat + s.discard
    if stack.get("silence"):
        if not any(CARDS[c].kind == "morgan" for c, m in zip(s.threat, s.threat_seen, strict=True) if m == PUBLIC):
            raise bad("silence needs a Morgan face up in the Threat pile")
        s.silence = True
    if stack.get("morgan1"):
        if "morgan_1" not in played:
            raise bad("morgan1 needs morgan_1 in the Threat pile or the discards")
        s.morgan1 = True
    if stack.get("morgan2") is not None:
        if "morgan_2" not in played:
            raise bad("morgan2 needs morgan_2 in the Threat pile or the discards")
        s.morgan2, s.morgan2_count = True, int(stack["morgan2"])
    if stack.get("token") is not None:
        quest, seat = stack["token"]
        if quest not in QUESTS or not 0 <= seat < s.n or "merlin_4" not in played:
            raise bad("token needs a quest, a seat and merlin_4 in the Threat pile or the discards")
        s.token, s.token_by = quest, seat
