"""Ratings in words: what a finished game changed, a community's standings, the global leaderboard, a person's
own ratings and history, and what the numbers mean (`/ratings help`). The rows are `service.ratings`' (`Change`,
`Standing`, `Played`), read here by the fields named below, so rendering does not depend on the application."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from babel.dates import format_date
from babel.numbers import format_decimal

from service.render.i18n import normalize, t, tn


class Change(Protocol):
    name: str
    won: bool
    before: float
    after: float


class Standing(Protocol):
    name: str
    rating: float
    spread: float
    games: int
    wins: int
    provisional: bool


class Played(Protocol):
    kind: str
    ended: datetime
    side: str
    won: bool
    before: float
    after: float


def changes_text(lang: str | None, kind: str, changes: list[Change]) -> str:
    """The group's notice after a rated game: each person's new rating and its change, winners first."""
    lines = [t(lang, "ratings.title", game=t(lang, f"lobby.game.{kind}"))]
    for change in sorted(changes, key=lambda c: (not c.won, -c.after, c.name)):
        lines.append(t(lang, "ratings.change", name=change.name, rating=number(lang, change.after),
                       delta=signed(lang, change.after - change.before)))
    return "\n".join(lines)


def standings_text(lang: str | None, tables: dict[str, list[Standing]]) -> str:
    """A community's standings per game kind (kinds without rated games left out)."""
    sections = []
    for kind, rows in tables.items():
        if not rows:
            continue
        lines = [t(lang, "ratings.title", game=t(lang, f"lobby.game.{kind}"))]
        lines += [_row(lang, rank, row) for rank, row in enumerate(rows, start=1)]
        sections.append("\n".join(lines))
    return "\n\n".join(sections) or t(lang, "ratings.none")


def leaderboard_text(lang: str | None, kind: str, rows: list[Standing], provisional_games: int) -> str:
    """The global leaderboard of one kind (people with `provisional_games` rated games or more only)."""
    game = t(lang, f"lobby.game.{kind}")
    if not rows:
        return tn(lang, "ratings.leaderboard.none", provisional_games, game=game)
    lines = [t(lang, "ratings.leaderboard", game=game)]
    return "\n".join(lines + [_row(lang, rank, row) for rank, row in enumerate(rows, start=1)])


def own_text(lang: str | None, mine: dict[str, Standing]) -> str:
    """A person's ratings (asked in the direct chat)."""
    if not mine:
        return t(lang, "ratings.none")
    lines = [t(lang, "ratings.yours")]
    lines += [_row(lang, None, row, t(lang, f"lobby.game.{kind}")) for kind, row in sorted(mine.items())]
    return "\n".join(lines)


def history_text(lang: str | None, played: list[Played]) -> str:
    """A person's last rated games, the latest first (`/me`): when, which game, their side and its result, and
    their rating before and after."""
    if not played:
        return t(lang, "ratings.history.none")
    lines = [t(lang, "ratings.history.title")]
    for game in played:
        lines.append(t(
            lang, "ratings.history.row",
            date=format_date(game.ended, format="medium", locale=normalize(lang)),
            game=t(lang, f"ratings.kind.{game.kind}"),
            side=t(lang, "loyalty.traitor" if game.side == "evil" else "loyalty.loyal"),
            result=t(lang, "ratings.result.won" if game.won else "ratings.result.lost"),
            before=number(lang, game.before), after=number(lang, game.after),
            delta=signed(lang, game.after - game.before),
        ))
    return "\n".join(lines)


def help_text(lang: str | None, provisional_games: int) -> str:
    """What a rating is, which games are rated, and for how many games a rating is provisional."""
    return tn(lang, "ratings.help", provisional_games)


def _row(lang: str | None, rank: int | None, row: Standing, name: str | None = None) -> str:
    """A standing's line, headed by the person's name (or by `name`: one's own list names the game instead)."""
    text = t(lang, "ratings.row", name=name or row.name, rating=number(lang, row.rating),
             spread=number(lang, row.spread), wins=row.wins, games=row.games)
    if row.provisional:
        text = f"{text} · {t(lang, 'ratings.provisional')}"
    return text if rank is None else f"{rank}. {text}"


def number(lang: str | None, value: float) -> str:
    """A rating with one decimal, in the language's digits and separators."""
    return format_decimal(round(value, 1), format="0.0", locale=normalize(lang))


def signed(lang: str | None, value: float) -> str:
    """A change with its sign: "+1.2", "−0.4" (a true minus sign)."""
    return ("+" if round(value, 1) >= 0 else "−") + number(lang, abs(value))
