"""Quest resolution arithmetic (C-RESOLVE, C-CHAR): sorting the pile, Merlins' removals, totals, swords.

Pure functions over a resolution record `res` = {"main", "by", "stacks": {quest: [card ids]},
"chars": [character card ids found or played], "removed": [cards Merlins removed], "totals": {quest: int}}.
"""

from __future__ import annotations

from typing import Any

from engine.cards.catalogue import (
    CARDS,
    MERLIN5_EXACT_CARDS,
    MERLIN_REMOVES,
    MORGAN5_SUCCESS_TOTALS,
    MORGAN6_UNKNOWN_VALUE,
    SUCCESS_TOTALS,
    SWORDS,
    TOO_EARLY_BLACK,
    TOO_LATE_MIN,
    WAR,
)


def sort_pile(pile: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Quest cards into stacks by quest; characters (Merlin, Morgan, Mordred, Vivien) apart, unsorted."""
    stacks: dict[str, list[str]] = {}
    chars: list[str] = []
    for cid in pile:
        card = CARDS[cid]
        if card.kind == "quest":
            stacks.setdefault(card.quest, []).append(cid)
        else:
            chars.append(cid)
    return stacks, chars


def remove_highest(stacks: dict[str, list[str]], quest: str, removed: list[str]) -> None:
    """Merlin removes the highest card of a quest; never a "?" (a stack of only "?" is unaffected)."""
    cards = stacks.get(quest)
    if not cards:
        return
    best, best_value = None, -1
    for cid in cards:
        value = CARDS[cid].value
        if value is not None and value > best_value:
            best, best_value = cid, value
    if best is None:
        return
    cards.remove(best)
    removed.append(best)
    if not cards:
        del stacks[quest]


def apply_merlin(res: dict[str, Any], cid: str) -> None:
    """Merlins #1–#3 remove the highest card of their two quests (C-CHAR)."""
    for quest in MERLIN_REMOVES.get(CARDS[cid].number, ()):
        remove_highest(res["stacks"], quest, res["removed"])


def totals(stacks: dict[str, list[str]], chars: list[str]) -> dict[str, int]:
    """Each present quest's value: card values, "?" = number of "?" in the stack (Morgan #6: 1),
    Mordred + stack size to Picts and Saxons, Morgan #4 + its bonus to every present quest."""
    mordreds = 0
    bonus = 0
    unknown = None
    for cid in chars:
        card = CARDS[cid]
        if card.kind == "mordred":
            mordreds += 1
        elif card.kind == "morgan":
            if card.number == 4:
                bonus += card.bonus
            elif card.number == 6:
                unknown = MORGAN6_UNKNOWN_VALUE
    out: dict[str, int] = {}
    for quest, cards in stacks.items():
        values = [CARDS[c].value for c in cards]
        q_value = unknown if unknown is not None else values.count(None)
        total = sum(q_value if v is None else v for v in values) + bonus
        if quest in WAR:
            total += mordreds * len(cards)
        out[quest] = total
    return out


def outcome(res: dict[str, Any]) -> tuple[str, list[tuple[str, str, int]]]:
    """The Main quest's outcome ("success" | "early" | "late") and the swords to place, in order:
    (quest, "white"|"black", count) for the Main quest then each failing Secondary (Morgan #3 adds one to each)."""
    main, chars, tot = res["main"], res["chars"], res["totals"]
    total = tot.get(main, 0)
    success = MORGAN5_SUCCESS_TOTALS if "morgan_5" in chars else SUCCESS_TOTALS
    extra = 1 if "morgan_3" in chars else 0
    exact = "merlin_5" in chars and len(res["stacks"].get(main, ())) == MERLIN5_EXACT_CARDS
    if exact or total in success:
        result, swords = "success", [(main, "white", SWORDS[main] + extra)]
    elif total >= TOO_LATE_MIN:
        result, swords = "late", [(main, "black", SWORDS[main] + extra)]
    else:
        result, swords = "early", [(main, "black", TOO_EARLY_BLACK + extra)]
    for quest, value in tot.items():
        if quest != main and value >= TOO_LATE_MIN:
            swords.append((quest, "black", SWORDS[quest] + extra))
    return result, swords
