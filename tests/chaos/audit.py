"""What the chaos test checks once the games are over, and the figures it reports: every game finished and its log
replays to its stored result, every person's tap was applied exactly once, no outbox row was sent twice, nothing
was left pending, and the longest time a game waited for its next move."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import func, select

from engine import get_game
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, GameRow, InboxRow, OutboxRow, Seat, User


@dataclass
class Audit:
    games: int = 0
    moves: int = 0
    taps: int = 0
    sends: int = 0
    longest_stall: float = 0.0
    stalled_at: str = ""
    duplicates: int = 0
    lost: int = 0
    findings: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "findings"}


def audit(game_ids: list[int], taps: Counter[tuple[int, str]], calls: Path) -> Audit:
    found = Audit(games=len(game_ids), taps=sum(taps.values()))
    with session_scope() as s:
        for game in s.scalars(select(GameRow).where(GameRow.id.in_(game_ids)).order_by(GameRow.id)):
            _game(s, game, taps, found)
        pending = s.scalar(
            select(func.count()).select_from(OutboxRow).where(OutboxRow.status.in_(("pending", "failed")))
        )
        waiting = s.scalar(select(func.count()).select_from(InboxRow))
    if pending or waiting:
        found.lost += pending + waiting
        found.findings.append(f"left undone: {pending} outbox rows pending or failed, {waiting} taps in the inbox")
    rows = Counter(call["row"] for call in _calls(calls) if call.get("row"))
    found.sends = sum(rows.values())
    twice = {row: n for row, n in rows.items() if n > 1}
    found.duplicates = sum(n - 1 for n in twice.values())
    if twice:
        found.findings.append(f"outbox rows sent more than once: {sorted(twice.items())[:10]}")
    return found


def _game(s, game: GameRow, taps: Counter[tuple[int, str]], found: Audit) -> None:
    log = game_rows.action_log(s, game.id)
    found.moves += len(log)
    if game.status != "finished":
        found.lost += 1
        found.findings.append(f"game {game.id} ({game.kind}) not finished: {game.status} at seq {game.seq}")
        return
    engine = get_game(game.kind)
    if engine.result(engine.replay(game.config, game.seed, log)) != game.result:
        found.findings.append(f"game {game.id}: its log does not replay to its result")
    people = dict(
        s.execute(
            select(User.platform_id, Seat.seat).join(Seat, Seat.user_id == User.id).where(Seat.game_id == game.id)
        ).all()
    )
    applied = Counter(
        seat
        for seat, by in s.execute(select(ActionRow.seat, ActionRow.by).where(ActionRow.game_id == game.id))
        if by == "user"
    )
    for user, seat in people.items():
        if applied[seat] != taps[(game.id, user)]:
            found.lost += max(0, taps[(game.id, user)] - applied[seat])
            found.findings.append(
                f"game {game.id}: {user} tapped {taps[(game.id, user)]} times, {applied[seat]} applied"
            )
    times = [
        game.created,
        *s.scalars(select(ActionRow.created).where(ActionRow.game_id == game.id).order_by(ActionRow.seq)),
    ]
    for seq, (before, after) in enumerate(zip(times, times[1:], strict=False), start=1):
        gap = (after - before).total_seconds()
        if gap > found.longest_stall:
            found.longest_stall, found.stalled_at = round(gap, 2), f"game {game.id} ({game.kind}) move {seq}"


def _calls(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
