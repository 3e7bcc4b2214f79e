"""Going on a quest and resolving it (digest §3, §4, C-QUEST, C-RESOLVE): declaring a quest ends the silence (Arthur
may still force a Listen instead); the Threat pile is sorted into stacks (shuffled first if Morgan #1 hid cards),
Merlins and Merlin #4's token remove cards, Gawain may add one, then the totals decide success, too early or too late,
and the swords. After a failure in the expert variant the quester draws a Knight card; after a success a Morgan set
aside goes back into the deck."""

from __future__ import annotations

from typing import Any

from engine.cards import resolve
from engine.cards.catalogue import CARDS
from engine.cards.rules import end, morgan, table
from engine.cards.state import PUBLIC, State
from engine.core.events import Event, private, public


def declare(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `quest:<quest>`."""
    name = args[0]
    ev.append(public("quest_declared", seat=seat, quest=name))
    morgan.silence_off(s, "quest", ev)
    others = [t for t in table.order_from(s, seat) if t != seat]
    if s.expert and any(s.knights[t] for t in others):
        s.quest = name
        table.open_window(s, "arthur", others)
        return
    start_resolution(s, seat, name, ev)


def start_resolution(s: State, seat: int, name: str, ev: list[Event]) -> None:
    pile = s.threat
    if any(mask != PUBLIC for mask in s.threat_seen):
        s.rng.shuffle(pile)  # Morgan #1: shuffle the Threat pile before resolving
    s.threat, s.threat_seen, s.announced = [], [], []
    stacks, chars = resolve.sort_pile(pile)
    res: dict[str, Any] = {"main": name, "by": seat, "stacks": stacks, "chars": chars, "removed": []}
    for cid in chars:
        if CARDS[cid].kind == "merlin":
            resolve.apply_merlin(res, cid)
    if s.token is not None:
        ev.append(public("merlin4_token_used", seat=s.token_by, quest=s.token))
        resolve.remove_highest(stacks, s.token, res["removed"])
        s.token, s.token_by = None, -1
    res["totals"] = resolve.totals(stacks, chars)
    s.resolution = res
    ev.append(public("quest_sorted", seat=seat, quest=name, stacks={q: list(c) for q, c in stacks.items()},
                     characters=list(chars), removed=list(res["removed"]), totals=dict(res["totals"])))
    if s.expert and any(s.knights):
        table.open_window(s, "gawain", table.order_from(s, seat))
        return
    finish_resolution(s, ev)


def finish_resolution(s: State, ev: list[Event]) -> None:
    res = s.resolution
    result, swords = resolve.outcome(res)
    placed = [(q, color, table.place_swords(s, color, count)) for q, color, count in swords]
    main_total = res["totals"].get(res["main"], 0)
    ev.append(public("quest_result", seat=res["by"], quest=res["main"], outcome=result,
                     totals=dict(res["totals"]), swords=[list(p) for p in placed]))
    for cards in res["stacks"].values():
        s.discard += cards
    s.discard += res["chars"] + res["removed"]
    s.discard_seen += [PUBLIC] * (len(s.discard) - len(s.discard_seen))
    s.resolution = None
    if "morgan_7" in res["chars"] and main_total >= resolve.TOO_LATE_MIN:
        end.game_over(s, "evil", "morgan_7", ev)
        return
    if s.expert:
        if result == "success" and s.aside:
            s.deck.append(s.aside.pop())
            s.rng.shuffle(s.deck)
            s.deck_known.clear()
            ev.append(public("morgan_shuffled_in", aside=len(s.aside)))
        elif result != "success" and s.knight_deck and placed[0][2] > 0:
            knight = s.knight_deck.pop()
            s.knights[res["by"]].append(knight)
            ev.append(public("knight_drawn", seat=res["by"]))
            ev.append(private("knight_card", res["by"], card=knight))
    end.end_check(s, "turn", ev)
