"""The end (digest §6, C-END): at 7+ swords of a colour the unaccused reveal their loyalty and each Traitor revealed
now flips a white sword (Percival may add to it); then white wins with more white swords, else Evil. Morgan #7 on a
too-late quest ends the game at once; every loyalty is public at the end and the silence is over."""

from __future__ import annotations

from engine.cards.catalogue import END_SWORDS, LOYAL, TRAITOR
from engine.cards.rules import table
from engine.cards.state import State
from engine.core.events import Event, public


def end_check(s: State, after: str, ev: list[Event]) -> None:
    """7+ swords of a color: the unaccused reveal, each Traitor revealed now flips a white sword; then who won."""
    if s.white < END_SWORDS and s.black < END_SWORDS:
        table.continue_after(s, after, ev)
        return
    if not s.end_done and not s.solo:
        s.end_done = True
        newly = [t for t in range(s.n) if not s.revealed[t]]
        for t in newly:
            s.revealed[t] = s.loyalty[t]
            s.loyalty_public.add(t)
        ev.append(public("final_reveal", loyalties=[[t, s.loyalty[t]] for t in newly]))
        traitors = sum(1 for t in newly if s.loyalty[t] == TRAITOR)
        if traitors and s.expert and any(s.knights):
            s.end_flips, s.after = traitors, after
            table.open_window(s, "percival", table.order_from(s, s.current))
            return
        flip(s, traitors, ev)
    end_finish(s, after, ev)


def end_finish(s: State, after: str, ev: list[Event]) -> None:
    if s.white >= END_SWORDS and s.white > s.black:
        game_over(s, "loyal", "swords", ev)
    elif s.black >= END_SWORDS and s.black >= s.white:
        game_over(s, "evil", "swords", ev)
    else:
        table.continue_after(s, after, ev)


def flip(s: State, count: int, ev: list[Event]) -> None:
    flips = min(count, s.white)
    if flips:
        s.white -= flips
        s.black += flips
        ev.append(public("swords_flipped", count=flips))


def game_over(s: State, winner: str | None, reason: str, ev: list[Event]) -> None:
    s.phase, s.window = "over", []
    if s.silence:  # nothing is forbidden once the game is over (C-SILENCE)
        s.silence = False
        ev.append(public("silence_off", reason="end"))
    s.morgan1 = s.morgan2 = False
    if not s.solo:
        s.revealed = s.loyalty[: s.n]  # every loyalty is public at the end: the cards held now
        s.loyalty_public = set(range(s.n))
    s.result = {
        "winner": winner,
        "reason": reason,
        "loyalty": [LOYAL] if s.solo else s.loyalty[: s.n],
        "swords": {"white": s.white, "black": s.black},
        "turns": s.turn,
    }
    ev.append(public("game_over", **s.result))
