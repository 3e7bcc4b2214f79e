"""Primitive moves on the state shared by every rule module: decks, life, swords, engines, frames."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.board import catalogue as cat
from engine.board import known
from engine.board.state import BoardState
from engine.core.events import Event, private, public

Events = list[Event]


def push(s: BoardState, *frames: dict[str, Any]) -> None:
    """Schedule frames so that the first one given is handled first."""
    for frame in reversed(frames):
        s.frames.append(frame)


def rebuild_decks(s: BoardState) -> None:
    """Digest §5: when either deck runs out, both discard piles are shuffled back into their decks."""
    for deck, pile in ((s.white_deck, s.white_discard), (s.black_deck, s.black_discard)):
        if pile:
            deck.extend(pile)
            pile.clear()
            s.rng.shuffle(deck)
    for peek in s.peeks:
        peek.clear()


def draw_white(s: BoardState, k: int) -> list[str]:
    cards = []
    for _ in range(k):
        if not s.white_deck:
            rebuild_decks(s)
            if not s.white_deck:
                break
        cards.append(s.white_deck.pop())
        if not s.white_deck:
            rebuild_decks(s)
    return cards


def draw_black(s: BoardState) -> str | None:
    if not s.black_deck:
        rebuild_decks(s)
        if not s.black_deck:
            return None
    card = s.black_deck.pop()
    for peek in s.peeks:
        if peek:
            peek.pop(0)
    if not s.black_deck:
        rebuild_decks(s)
    return card


def give_white(s: BoardState, seat: int, cards: list[str], ev: Events, why: str) -> None:
    if not cards:
        return
    s.hands[seat].extend(cards)
    ev.append(public("white_gained", seat=seat, count=len(cards), why=why))
    ev.append(private("white_drawn", seat, seat=seat, cards=list(cards), why=why))


def deal_white(s: BoardState, seat: int, k: int, ev: Events, why: str) -> None:
    give_white(s, seat, draw_white(s, k), ev, why)


def take_card(s: BoardState, seat: int, card: str, seen_by: Collection[int] | None) -> None:
    """A white card leaves `seat`'s hand, seen by `seen_by` (`known.EVERYONE`: played face up) or not."""
    s.hands[seat].remove(card)
    known.lost(s, seat, card, seen_by)


def play_white(s: BoardState, seat: int, card: str, where: str, ev: Events) -> str:
    """A white card played face up on a quest (or in the siege): everybody sees it leave the hand."""
    take_card(s, seat, card, known.EVERYONE)
    ev.append(public("white_played", seat=seat, quest=where, card=card))
    return card


def discard_card(s: BoardState, seat: int, card: str, seen_by: Collection[int] | None) -> None:
    take_card(s, seat, card, seen_by)
    s.white_discard.append(card)


def change_life(s: BoardState, seat: int, delta: int, ev: Events, why: str) -> None:
    """Life stays in 0..6; a knight at 0 is doomed (only the Grail saves him) and gains nothing more."""
    if not s.alive[seat] or s.revealed[seat] or seat in s.doomed:
        return
    before = s.life[seat]
    s.life[seat] = max(0, min(cat.MAX_LIFE, before + delta))
    if s.life[seat] != before:
        ev.append(public("life", seat=seat, life=s.life[seat], delta=s.life[seat] - before, why=why))
    if s.life[seat] == 0:
        s.doomed.append(seat)


def add_swords(s: BoardState, color: str, k: int, ev: Events, why: str) -> None:
    k = min(k, cat.MAX_SWORDS - s.swords_white - s.swords_black)
    if k <= 0:
        return
    if color == "white":
        s.swords_white += k
    else:
        s.swords_black += k
    ev.append(public("swords", color=color, count=k, white=s.swords_white, black=s.swords_black, why=why))


def flip_white_sword(s: BoardState, ev: Events, why: str) -> bool:
    if not s.swords_white:
        return False
    s.swords_white -= 1
    s.swords_black += 1
    ev.append(public("sword_flipped", white=s.swords_white, black=s.swords_black, why=why))
    return True


def add_engines(s: BoardState, k: int, ev: Events, why: str) -> None:
    s.engines = min(cat.MAX_ENGINES, s.engines + k)
    ev.append(public("siege_engines", count=k, total=s.engines, why=why))


def living(s: BoardState) -> list[int]:
    """Living knights on the board (revealed Traitors have left it), in turn order from the current player."""
    order, alive, revealed = s.order, s.alive, s.revealed
    start = order.index(s.current)
    return [i for i in order[start:] + order[:start] if alive[i] and not revealed[i]]


def present(s: BoardState, where: str) -> list[int]:
    return [i for i in living(s) if s.loc[i] == where]


def roll_die(s: BoardState) -> int:
    return s.dice.pop(0) if s.dice else s.rng.randint(1, cat.SIEGE_DIE)


def accusations_open(s: BoardState) -> bool:
    return s.engines >= cat.ACCUSE_THRESHOLD or s.swords_white + s.swords_black >= cat.ACCUSE_THRESHOLD


def relic_holder(s: BoardState, relic: str) -> int | None:
    for i in range(s.n):
        if relic in s.relics[i] and s.alive[i] and not s.revealed[i]:
            return i
    return None


def remove_relic(s: BoardState, seat: int, relic: str, ev: Events, why: str) -> None:
    if relic in s.relics[seat]:
        s.relics[seat].remove(relic)
        ev.append(public("relic_removed", seat=seat, relic=relic, why=why))
