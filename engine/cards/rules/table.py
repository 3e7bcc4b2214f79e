"""The table's plumbing shared by every rule (digest §3, C-TURN): the turn passing on (a revealed Traitor's turn is
`traitor`'s), drawing Rumor cards (an empty deck is rebuilt from the discards), the Threat pile, the box of swords,
and the response windows that ask several seats."""

from __future__ import annotations

from engine.cards.catalogue import SWORDS_TOTAL, TRAITOR, TURN_CAP
from engine.cards.rules import end, quest, traitor
from engine.cards.state import State
from engine.core.events import Event, public


def continue_after(s: State, after: str, ev: list[Event]) -> None:
    """Go on with what a character's question interrupted: the next turn, or the quest being resolved."""
    if after == "turn":
        next_turn(s, ev)
    else:
        quest.finish_resolution(s, ev)


def next_turn(s: State, ev: list[Event]) -> None:
    s.turn += 1
    if s.turn >= TURN_CAP:
        end.game_over(s, None, "turn_cap", ev)
        return
    seat = s.current
    for _ in range(s.n):
        seat = (seat + 1) % s.n
        if s.revealed[seat] != TRAITOR:
            s.phase = "turn"
            break
        if traitor.begin_turn(s, seat, ev):
            break
    s.current = s.actor = seat
    s.tristan_used = False
    ev.append(public("turn", seat=seat, turn=s.turn))


def draw(s: State, ev: list[Event]) -> str | None:
    """The top Rumor card; an empty deck is rebuilt by shuffling the discards."""
    if not s.deck:
        if not s.discard:
            return None
        s.deck, s.discard, s.discard_seen = s.discard, [], []
        s.rng.shuffle(s.deck)
        s.deck_known.clear()
        ev.append(public("reshuffle", count=len(s.deck)))
    return s.deck.pop()


def draw_hand(s: State, seat: int, count: int, ev: list[Event]) -> tuple[list[str], list[int]]:
    """Up to `count` cards drawn secretly by `seat`, with who has seen each (a current Tristan look too)."""
    hand, masks = [], []
    for _ in range(count):
        card = draw(s, ev)
        if card is None:
            break
        hand.append(card)
        masks.append(seen_by(s, seat))
    return hand, masks


def seen_by(s: State, seat: int) -> int:
    """Seen-mask of a card `seat` just drew secretly: him, and whoever's Tristan look showed the deck."""
    mask = 1 << seat
    for t in s.deck_known:
        mask |= 1 << t
    return mask


def push(s: State, card: str, seen_mask: int) -> None:
    """A card laid on the Threat pile (Morgan #2 counts it)."""
    s.threat.append(card)
    s.threat_seen.append(seen_mask)
    s.announced.append(None)
    if s.morgan2:
        s.morgan2_count += 1


def place_swords(s: State, color: str, count: int) -> int:
    """Put swords on the table, as many as the box still holds."""
    count = max(0, min(count, SWORDS_TOTAL - s.white - s.black))
    if color == "white":
        s.white += count
    else:
        s.black += count
    return count


def discard_hidden(s: State, cards: list[str], masks: list[int]) -> None:
    s.discard += cards
    s.discard_seen += masks


def play_one(s: State, hand: list[str], masks: list[int], index: int) -> str:
    """The card a player plays out of a secret draw (a revealed Traitor's two, Gawain's three); the others go to
    the discards face down, known only to whoever saw them."""
    card = hand.pop(index)
    masks.pop(index)
    discard_hidden(s, hand, masks)
    return card


def open_window(s: State, phase: str, seats: list[int]) -> None:
    s.phase, s.window = phase, list(seats)


def order_from(s: State, first: int) -> list[int]:
    return [(first + i) % s.n for i in range(s.n)]
