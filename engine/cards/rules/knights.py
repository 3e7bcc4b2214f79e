"""The Knight cards of the expert variant (digest §7, C-KNIGHTS): Tristan looks at the deck, Galahad at a loyalty, on
one's own turn; out of turn, in response windows that ask every seat who could act, Arthur forces a quester to
Listen instead, Gawain draws three cards and plays one into the resolution, Percival adds swords to a loyalty shown
at an accusation or at the end. A window closes when one seat plays its card or all pass."""

from __future__ import annotations

from typing import Any

from engine.cards import resolve
from engine.cards.catalogue import CARDS, GAWAIN_DRAW, PERCIVAL_SWORDS
from engine.cards.rules import accuse, end, listen, merlin, quest, table, vivien
from engine.cards.state import State
from engine.core.events import Event, private, public


def _play(s: State, seat: int, card: str, ev: list[Event], **data: Any) -> None:
    s.knights[seat].remove(card)
    s.knights_played.append(card)
    ev.append(public("knight_played", seat=seat, card=card, **data))


def tristan(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `tristan`: he sees the whole deck, top first (one Tristan per turn)."""
    _play(s, seat, "tristan", ev)
    s.tristan_used = True
    s.tristan_seen[seat] = s.deck[::-1]
    s.deck_known.add(seat)
    ev.append(private("tristan_look", seat, deck=s.deck[::-1]))


def galahad(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `galahad:<seat>`: he sees that player's loyalty; it takes his turn."""
    target = args[0]
    _play(s, seat, "galahad", ev, target=target)
    s.known[seat][target] = s.loyalty[target]
    s.looks[seat].append((target, s.loyalty[target]))
    ev.append(private("galahad_look", seat, target=target, loyalty=s.loyalty[target]))
    table.next_turn(s, ev)


def arthur(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """Arthur: the quester must Listen to Rumors instead."""
    _play(s, seat, "arthur", ev, target=s.current)
    s.window, s.quest = [], None
    s.actor = s.current
    listen.listen(s, s.current, (), ev)


def gawain(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    _play(s, seat, "gawain", ev)
    s.window = []
    s.gawain_hand, s.gawain_seen = table.draw_hand(s, seat, GAWAIN_DRAW, ev)
    hand = s.gawain_hand
    s.phase, s.actor = "gawain_pick", seat
    ev.append(private("gawain_draw", seat, cards=list(hand)))


def pick(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """Gawain plays one drawn card into the resolution: a quest card joins its stack, a character acts."""
    hand, s.gawain_hand = s.gawain_hand, []
    masks, s.gawain_seen = s.gawain_seen, []
    card = table.play_one(s, hand, masks, args[0])
    ev.append(public("gawain_card", seat=seat, card=card))
    res, c = s.resolution, CARDS[card]
    if c.kind == "quest":
        res["stacks"].setdefault(c.quest, []).append(card)
    else:
        res["chars"].append(card)
    if c.kind == "merlin":
        merlin.ends_morgans(s, ev)
        resolve.apply_merlin(res, card)
    res["totals"] = resolve.totals(res["stacks"], res["chars"])
    if c.kind == "merlin" and c.number == 4:
        s.phase, s.actor, s.after = "token", seat, "resolve"
        return
    if c.kind == "vivien" and vivien.revealed(s, card, c.number, seat, "resolve", ev):
        return
    quest.finish_resolution(s, ev)


def percival(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    _play(s, seat, "percival", ev)
    _close_percival(s, True, ev)


def _close_percival(s: State, played: bool, ev: list[Event]) -> None:
    s.window = []
    if s.end_flips:
        flips, s.end_flips = s.end_flips + (PERCIVAL_SWORDS - 1 if played else 0), 0
        end.flip(s, flips, ev)
        end.end_finish(s, s.after, ev)
    else:
        target, s.accusing = s.accusing, -1
        accuse.reveal(s, target, played, ev)


def pass_(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `pass`: in a window (it closes when all passed), or Gawain with only Morgans drawn."""
    if s.phase == "gawain_pick":  # only Morgans drawn: nothing can be played
        table.discard_hidden(s, s.gawain_hand, s.gawain_seen)
        s.gawain_hand, s.gawain_seen = [], []
        quest.finish_resolution(s, ev)
        return
    s.window.remove(seat)
    if s.window:
        return
    if s.phase == "arthur":
        name, s.quest = s.quest, None
        quest.start_resolution(s, s.current, name, ev)
    elif s.phase == "gawain":
        quest.finish_resolution(s, ev)
    else:
        _close_percival(s, False, ev)
