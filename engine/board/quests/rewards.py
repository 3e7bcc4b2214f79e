"""The end of any quest (digest §6): knights return to Camelot, the quest's cards are discarded, then its victory or
defeat applies once — swords (and Heroism's, and the Mists of Avalon's), siege engines, life (Palamedes gains one
more on a win), the relic to its winner, and white cards drawn or shared (`splits`). Also a knight leaving a quest."""

from __future__ import annotations

from types import ModuleType

from engine.board import catalogue as cat
from engine.board import ops, splits
from engine.board.frames import Events
from engine.board.quests import excalibur, fight, grail, wars
from engine.board.state import BoardState
from engine.board.views import quest_open
from engine.core.events import public

# Where each quest's cards go when it ends (and what it becomes: Lancelot turns over to the Dragon).
_CLEAR: dict[str, ModuleType] = {
    "black_knight": fight, "lancelot": fight, "dragon": fight, "excalibur": excalibur, "grail": grail,
    "picts": wars, "saxons": wars,
}


def leave_location(s: BoardState, seat: int, to: str | None) -> None:
    """A knight leaving a solo quest before it ends discards the white cards played there (black cards stay)."""
    where = s.loc[seat]
    if where in cat.SOLO_QUESTS and quest_open(s, where):
        fight.leave(s, where)
    if to is not None:
        s.loc[seat] = to


def end_quest(s: BoardState, quest: str, won: bool, by: int | None, ev: Events) -> None:
    """Knights return to Camelot, cards are discarded, then victory or defeat applies once (digest §6)."""
    here = ops.present(s, quest)
    for i in here:
        s.loc[i] = cat.CAMELOT
    _CLEAR[quest].clear(s, quest)
    outcome = cat.REWARDS[quest]["win" if won else "lose"]
    color = "white" if won else "black"
    ev.append(public("quest_over", quest=quest, won=won, knights=here, by=by))
    ops.add_swords(s, color, outcome["swords"], ev, quest)
    if s.heroism == quest:
        s.heroism = None
        s.white_discard.append("heroism")
        ops.add_swords(s, color, 1, ev, "heroism")
    if not won and s.mists:
        ops.add_swords(s, "black", 1, ev, "mists_of_avalon")
    if outcome.get("engines"):
        ops.add_engines(s, outcome["engines"], ev, quest)
    for i in here:
        bonus = 1 if won and s.knight[i] == "palamedes" else 0
        ops.change_life(s, i, outcome["life"] + bonus, ev, quest)
    if won:
        _won(s, quest, outcome, here, by, ev)


def _won(s: BoardState, quest: str, outcome: dict, here: list[int], by: int | None, ev: Events) -> None:
    relic = outcome.get("relic")
    if relic and by is not None and s.alive[by] and not s.revealed[by]:
        if by not in s.doomed:
            s.relics[by].append(relic)
            ev.append(public("relic_won", seat=by, relic=relic))
        elif relic == "excalibur":  # B-LIFE (seed 002 FAQ): it goes to whoever lets him drink from the Grail
            s.turn["excalibur_to_rescuer"] = by
    if s.vivien:
        s.vivien = False
        s.black_discard.append("vivien")
    if s.dark_forest and quest != "grail":
        s.dark_forest = False
        s.black_discard.append("dark_forest")
    worthy = [i for i in here if i not in s.doomed]
    if s.config["squires"]:
        _knight_a_squire(s, worthy, by, ev)
    if outcome.get("draw"):
        cards = ops.draw_white(s, outcome["draw"])
        if worthy:
            ops.give_white(s, worthy[0], cards, ev, quest)
        else:
            s.white_discard.extend(cards)
    elif outcome.get("share"):
        proposer = by if by in worthy else (worthy[0] if worthy else None)
        absent = by is not None and by not in here and s.alive[by] and not s.revealed[by] and by not in s.doomed
        chooser = by if absent else None  # (the Lady of the Lake's knight won it from afar)
        splits.start_split(s, ops.draw_white(s, outcome["share"]), worthy, proposer, quest, ev, chooser)


def _knight_a_squire(s: BoardState, worthy: list[int], by: int | None, ev: Events) -> None:
    """Squire's challenge (B-VAR): a squire on a won quest becomes a free knight."""
    squires = [i for i in worthy if s.knight[i] is None]
    if not squires:
        return
    seat = by if by in squires else squires[0]
    free = [k for k in cat.KNIGHTS if k not in s.knight]
    if free:
        s.knight[seat] = free[s.rng.randrange(len(free))]
        ev.append(public("knighted", seat=seat, knight=s.knight[seat]))
