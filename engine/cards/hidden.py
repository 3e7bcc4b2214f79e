"""Re-dealing what a seat may not know (`CardGame.resample_hidden`), for tests and for bots that sample.

What a seat knows and keeps: its own loyalty, loyalties everybody knows (shown, and not offered a swap since),
loyalties it looked at (Galahad, Vivien) while still current, face-up cards, the face-down cards it saw (its Morgan
#1 look, its Traitor discards, its Gawain rejects, and any card drawn while its Tristan look was current), the Rumor
deck while that look is current, its own Knight cards, its own Merlin #4 token. Everything else is re-dealt
consistently: the unknown loyalty slots are permuted; the unseen Rumor cards are re-dealt over the unseen places
(the 3 set-aside places get Morgans, face-down Threat cards get quest cards, as the rules require); unseen Knight
cards are re-dealt over the Knight deck and other hands; a token chosen by someone else gets a random quest; the
state's RNG is reseeded (future shuffles are unknown).
"""

from __future__ import annotations

import random

from engine.cards.catalogue import CARDS, QUESTS
from engine.cards.state import State, seen
from engine.core.rng import Rng


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    s = state.copy()
    _loyalty(s, seat, rng)
    _rumors(s, seat, rng)
    _knights(s, seat, rng)
    if s.token is not None and s.token_by != seat:
        s.token = rng.choice(QUESTS)
    s.rng = Rng(rng.getrandbits(64))
    return s


def _loyalty(s: State, seat: int | None, rng: random.Random) -> None:
    if s.solo:
        return
    known = set(s.loyalty_public) if seat is None else {seat, *s.known[seat], *s.loyalty_public}
    unknown = [i for i in range(len(s.loyalty)) if i not in known]
    values = [s.loyalty[i] for i in unknown]
    rng.shuffle(values)
    for i, value in zip(unknown, values, strict=True):
        s.loyalty[i] = value


def _rumors(s: State, seat: int | None, rng: random.Random) -> None:
    # Places the seat cannot see, each as (list, index); `need` = what the rules require there.
    places: list[tuple[list[str], int, str]] = []
    if seat is None or seat not in s.deck_known:
        places += [(s.deck, i, "any") for i in range(len(s.deck))]
    places += [(s.aside, i, "morgan") for i in range(len(s.aside))]
    places += [(s.threat, i, "quest") for i, m in enumerate(s.threat_seen) if not seen(m, seat)]
    places += [(s.discard, i, "any") for i, m in enumerate(s.discard_seen) if not seen(m, seat)]
    places += [(s.traitor_hand, i, "any") for i, m in enumerate(s.traitor_seen) if not seen(m, seat)]
    places += [(s.gawain_hand, i, "any") for i, m in enumerate(s.gawain_seen) if not seen(m, seat)]
    if s.held is not None and not seen(s.held_seen, seat):
        places.append((None, 0, "quest"))  # the card under a Morgan #1 look
    if not places:
        return
    pool = [s.held if cards is None else cards[i] for cards, i, _ in places]
    rng.shuffle(pool)
    for need in ("morgan", "quest", "any"):
        for cards, i, want in places:
            if want != need:
                continue
            k = next(j for j, c in enumerate(pool) if need == "any" or CARDS[c].kind == need)
            card = pool.pop(k)
            if cards is None:
                s.held = card
            else:
                cards[i] = card


def _knights(s: State, seat: int | None, rng: random.Random) -> None:
    if not s.expert:
        return
    others = [t for t in range(s.n) if t != seat]
    pool = list(s.knight_deck) + [k for t in others for k in s.knights[t]]
    rng.shuffle(pool)
    s.knight_deck = pool[: len(s.knight_deck)]
    pos = len(s.knight_deck)
    for t in others:
        size = len(s.knights[t])
        s.knights[t] = pool[pos : pos + size]
        pos += size
