"""Ratings in words (`service.ratings`): what a finished game changed, a chat's standings, a person's own."""

from __future__ import annotations

from babel.numbers import format_decimal

from service.ratings import Change, Standing
from service.render.i18n import normalize, t


def changes_text(lang: str | None, kind: str, changes: list[Change]) -> str:
    """The group's notice after a rated game: each person's new rating and its change, winners first."""
    lines = [t(lang, "ratings.title", game=t(lang, f"lobby.game.{kind}"))]
    for change in sorted(changes, key=lambda c: (not c.won, -c.after, c.name)):
        delta = change.after - change.before
        lines.append(t(lang, "ratings.change", name=change.name, rating=number(lang, change.after),
                       delta=("+" if delta >= 0 else "−") + number(lang, abs(delta))))
    return "\n".join(lines)


def standings_text(lang: str | None, tables: dict[str, list[Standing]]) -> str:
    """A chat's standings per game kind (kinds without rated games left out)."""
    sections = []
    for kind, rows in tables.items():
        if not rows:
            continue
        lines = [t(lang, "ratings.title", game=t(lang, f"lobby.game.{kind}"))]
        lines += [_row(lang, rank, row) for rank, row in enumerate(rows, start=1)]
        sections.append("\n".join(lines))
    return "\n\n".join(sections) or t(lang, "ratings.none")


def own_text(lang: str | None, mine: dict[str, Standing]) -> str:
    """A person's ratings (asked in the direct chat)."""
    if not mine:
        return t(lang, "ratings.none")
    lines = [t(lang, "ratings.yours")]
    lines += [f"{t(lang, f'lobby.game.{kind}')}: {_row(lang, None, row)}" for kind, row in sorted(mine.items())]
    return "\n".join(lines)


def _row(lang: str | None, rank: int | None, row: Standing) -> str:
    text = t(lang, "ratings.row", name=row.name, rating=number(lang, row.rating), wins=row.wins, games=row.games)
    return text if rank is None else f"{rank}. {text}"


def number(lang: str | None, value: float) -> str:
    """A rating with one decimal, in the language's digits and separators."""
    return format_decimal(round(value, 1), format="0.0", locale=normalize(lang))
