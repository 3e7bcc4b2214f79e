"""Per-seat numbers for the end of a game, counted from its moves (the action log and the events it replays to).

- `decisions`: the seat's own actions in the log (every answer counts, a pass in a response window too);
- `quests_won`: board game: quests won while the seat's knight was on them (or by his action from afar, as with
  the Lady of the Lake); card game: quests the seat resolved with success;
- `cards_played`: board game: white cards put into play (fight and Grail cards, specials, Kay's card, the card
  pushed to Excalibur, the 3 of a heal, Merlins paid to cancel); card game: Rumor cards the seat laid face up or
  announced, the card Gawain played, and Knight cards.

Only public events are counted, so the numbers are the same whoever asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.events import Event
from service.render.narration.history import Move

# What ends a game but is not the play that decided it (the end's own reveals and flips).
_END_NOISE = frozenset((
    "game_over", "final_reveal", "swords_flipped", "table", "white_taken", "white_gained", "turn", "knighted",
    "morgan_shuffled_in", "knight_drawn",
))


@dataclass
class SeatStats:
    decisions: int = 0
    quests_won: int = 0
    cards_played: int = 0


@dataclass
class GameStats:
    seats: dict[int, SeatStats] = field(default_factory=dict)
    decisive: list[Event] = field(default_factory=list)  # public events of the move that ended the game

    def of(self, seat: int) -> SeatStats:
        return self.seats.setdefault(seat, SeatStats())


def _board(stats: GameStats, e: Event) -> None:
    data = e.data
    if e.kind == "quest_over" and data.get("won"):
        winners = set(data.get("knights") or [])
        if data.get("by") is not None:
            winners.add(data["by"])
        for seat in winners:
            stats.of(seat).quests_won += 1
    elif e.kind in ("white_played", "special_played", "kay_card", "excalibur_push"):
        stats.of(data["seat"]).cards_played += 1
    elif e.kind == "healed":
        stats.of(data["seat"]).cards_played += 3
    elif e.kind == "black_cancelled" and data.get("by") == "merlin":
        for seat, paid in data.get("merlins", []):
            stats.of(seat).cards_played += paid


def _cards(stats: GameStats, e: Event) -> None:
    data = e.data
    if e.kind == "quest_result" and data.get("outcome") == "success":
        stats.of(data["seat"]).quests_won += 1
    elif e.kind in ("reveal", "morgan1_announce", "gawain_card", "knight_played"):
        stats.of(data["seat"]).cards_played += 1


def game_stats(game: str, log: list[Move]) -> GameStats:
    """Every seat's numbers and the decisive move's events. A revealed Traitor's face-up card counts as his (the
    card game's `reveal` names the seat who laid it)."""
    count = _board if game == "board" else _cards
    stats = GameStats()
    last_play: list[Event] = []
    for _, seat, events in log:
        if seat is not None:
            stats.of(seat).decisions += 1
        public = [e for e in events if e.public]
        for e in public:
            count(stats, e)
        last_play = [e for e in public if not _noise(e)] or last_play
        if any(e.kind == "game_over" for e in public):
            stats.decisive = last_play  # (a card game may end after a window the decisive quest opened)
    return stats


def _noise(e: Event) -> bool:
    why = e.data.get("why")
    return e.kind in _END_NOISE or (e.kind, why) in (("traitor_revealed", "end"), ("sword_flipped", "traitor"))
