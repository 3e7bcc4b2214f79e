"""Tournaments in words: the tournament's message (options, registrations, and the buttons to register, withdraw,
change an option, start or cancel), a round's tables, the standings after a round, the podium, the autopilot's
notice, and the help. The rows are read by the fields named below (`Row`), so rendering does not depend on the
application. (A picture of the standings is for later; the board picture's renderer could draw it.)"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from babel.dates import format_datetime
from babel.numbers import format_decimal

from service.callback import pack_lobby
from service.chat.base import Button, Keyboard
from service.render.i18n import available_languages, normalize, t, tn
from service.render.lobby import RESPONSE_MINUTES, TURN_HOURS, VARIANT_CHOICES
from service.tournaments.course import AUTO, AUTO_CAP, ROUND_ROBIN, SWISS

# Choices the option buttons cycle through (the organiser taps until the wanted one shows), like the lobby's.
ROUNDS = (2, 3, 4, 5, AUTO)
ROUND_HOURS = (24, 48, 72, 168)
BOTS = (0, 1, 2)
PAIRINGS = (SWISS, ROUND_ROBIN)
MEDALS = ("🥇", "🥈", "🥉")
TAP = "t_"  # every tournament button's verb starts so (`service.play.dispatch` routes them by it)


class Row(Protocol):
    """One line of the standings."""

    name: str
    points: float
    merit: float
    opponents: float
    withdrawn: bool


def panel(view: dict[str, Any], lang: str | None) -> tuple[str, Keyboard | None]:
    """The tournament's message. `view`: id, kind, status, round, low, high, rounds, pairing, round_hours,
    turn_hours, response_minutes, language, bots, variants, names (registered, in order), seat_bounds (the kind's
    (least, most) seats), late (registration still open while running)."""
    game = t(lang, f"lobby.game.{view['kind']}")
    lines = [t(lang, "tournament.title", id=view["id"], game=game), _format(view, lang)]
    status = view["status"]
    if status in ("finished", "cancelled"):
        return "\n".join([*lines, t(lang, f"tournament.status.{status}")]), None
    names = view["names"]
    registered = t(lang, "tournament.registered", count=len(names), names=", ".join(names))
    lines.append(registered if names else t(lang, "tournament.registered.none"))
    if status == "running":
        lines.append(t(lang, "tournament.status.running", round=view["round"]))
        if view["late"]:
            lines.append(t(lang, "tournament.late"))
        return "\n".join(lines), _entry_row(view, lang, start=False)
    lines.append(t(lang, "tournament.direct"))
    return "\n".join(lines), _entry_row(view, lang, start=False) + _option_rows(view, lang) + _entry_row(
        view, lang, start=True
    )


def _format(view: dict[str, Any], lang: str | None) -> str:
    sizes = str(view["low"]) if view["low"] == view["high"] else f"{view['low']}–{view['high']}"
    parts = [t(lang, "tournament.tables", sizes=sizes)]
    if view["bots"]:
        parts.append(tn(lang, "tournament.bots", view["bots"]))
    if view["rounds"] == AUTO:
        parts.append(t(lang, f"tournament.rounds.auto_{view['pairing']}", most=AUTO_CAP))
    else:
        parts.append(tn(lang, "tournament.rounds", view["rounds"]))
    parts.append(t(lang, f"tournament.pairing.{view['pairing']}"))
    deadlines = t(lang, "tournament.deadlines", round=view["round_hours"], turn=view["turn_hours"],
                  response=view["response_minutes"])
    return " · ".join(parts) + "\n" + deadlines


def _entry_row(view: dict[str, Any], lang: str | None, start: bool) -> Keyboard:
    tid = view["id"]
    if start:
        return [[Button(t(lang, "tournament.button.start"), pack_lobby(tid, f"{TAP}start")),
                 Button(t(lang, "tournament.button.cancel"), pack_lobby(tid, f"{TAP}cancel"))]]
    row = [Button(t(lang, "tournament.button.leave"), pack_lobby(tid, f"{TAP}leave"))]
    if view["status"] == "registration" or view["late"]:
        row.insert(0, Button(t(lang, "tournament.button.join"), pack_lobby(tid, f"{TAP}join")))
    return [row]


def _option_rows(view: dict[str, Any], lang: str | None) -> Keyboard:
    """One button per option, showing its value; a tap sets the next (`t_set` with `<option>-<value>`)."""
    tid, kind = view["id"], view["kind"]
    least, most = view["seat_bounds"]
    other = "cards" if kind == "board" else "board"

    def button(label: str, option: str, value: Any) -> Button:
        return Button(label, pack_lobby(tid, f"{TAP}set", f"{option}-{_wire(value)}"))

    rows: Keyboard = [
        [
            button(t(lang, "lobby.button.game", game=t(lang, f"lobby.switch.{other}")), "game", other),
            button(t(lang, f"tournament.button.pairing.{view['pairing']}"), "pairing",
                   _next(PAIRINGS, view["pairing"])),
        ],
        [
            button(t(lang, "tournament.button.low", n=view["low"]), "low",
                   _next(tuple(range(least, view["high"] + 1)), view["low"])),
            button(t(lang, "tournament.button.high", n=view["high"]), "high",
                   _next(tuple(range(view["low"], most - view["bots"] + 1)), view["high"])),
            button(t(lang, "tournament.button.bots", n=view["bots"]), "bots",
                   _next(tuple(b for b in BOTS if view["high"] + b <= most), view["bots"])),
        ],
        [
            button(t(lang, "tournament.button.rounds", value=_rounds(lang, view["rounds"])), "rounds",
                   _next(ROUNDS, view["rounds"])),
            button(t(lang, "tournament.button.hours", hours=view["round_hours"]), "hours",
                   _next(ROUND_HOURS, view["round_hours"])),
        ],
        [
            button(t(lang, "lobby.button.turn", hours=view["turn_hours"]), "turn",
                   _next(TURN_HOURS, view["turn_hours"])),
            button(t(lang, "lobby.button.response", minutes=view["response_minutes"]), "resp",
                   _next(RESPONSE_MINUTES, view["response_minutes"])),
            button(t(lang, "lobby.button.lang", code=view["language"]), "lang",
                   _next(tuple(available_languages()), view["language"])),
        ],
    ]
    variants = []
    for name, choices in VARIANT_CHOICES.get(kind, {}).items():
        current = view["variants"].get(name, choices[0])
        label = t(lang, "lobby.button.variant", name=t(lang, f"lobby.variant.{name}"),
                  value=t(lang, f"lobby.value.{_wire(current)}"))
        variants.append(button(label, name, _next(choices, current)))
    return rows + ([variants] if variants else [])


def round_text(lang: str | None, tournament_id: int, number: int, tables: list[tuple[int, list[str]]],
               deadline: datetime) -> str:
    """A round's tables (each its game's id and the names in seat order) and when the round ends."""
    lines = [t(lang, "tournament.round.title", id=tournament_id, round=number)]
    lines += [t(lang, "tournament.round.table", number=n, game=game, names=", ".join(names))
              for n, (game, names) in enumerate(tables, start=1)]
    when = format_datetime(deadline, format="short", tzinfo=deadline.tzinfo, locale=normalize(lang))
    lines.append(t(lang, "tournament.round.deadline", deadline=when))
    return "\n".join(lines)


def standings_text(lang: str | None, tournament_id: int, after_round: int, rows: list[Row]) -> str:
    """The standings after a round, best first, with what ranks them (before any round is over: that there are
    none yet)."""
    if after_round < 1:
        return t(lang, "tournament.standings.none", id=tournament_id)
    lines = [t(lang, "tournament.standings.title", id=tournament_id, round=after_round)]
    lines += [_row(lang, rank, row) for rank, row in enumerate(rows, start=1)]
    lines.append(t(lang, "tournament.standings.key"))
    return "\n".join(lines)


def podium_text(lang: str | None, tournament_id: int, reason: str, rows: list[Row]) -> str:
    """The final podium: the first three (fewer if fewer played), and why the tournament ended."""
    lines = [t(lang, "tournament.podium.title", id=tournament_id), t(lang, f"tournament.over.{reason}")]
    lines += [t(lang, "tournament.podium.row", medal=medal, name=row.name, points=points(lang, row.points))
              for medal, row in zip(MEDALS, rows, strict=False)]
    return "\n".join(lines)


def cancelled_text(lang: str | None, tournament_id: int) -> str:
    return t(lang, "tournament.cancelled", id=tournament_id)


def autopilot_text(lang: str | None, number: int, names: list[str]) -> str:
    """The notice at a table still running when its round ends."""
    return t(lang, "tournament.autopilot", round=number, names=", ".join(names))


def help_text(lang: str | None) -> str:
    return t(lang, "tournament.help")


def _row(lang: str | None, rank: int, row: Row) -> str:
    text = t(lang, "tournament.standings.row", rank=rank, name=row.name, points=points(lang, row.points),
             merit=signed(lang, row.merit), opponents=points(lang, row.opponents))
    return f"{text} · {t(lang, 'tournament.standings.withdrawn')}" if row.withdrawn else text


def points(lang: str | None, value: float) -> str:
    """Points and scores as the language writes them, with a decimal only where there is one: "2", "1.5"."""
    return format_decimal(round(value, 2), format="0.##", locale=normalize(lang))


def signed(lang: str | None, value: float) -> str:
    """A merit with its sign and two decimals, as the language writes them: "+0.25", "−1.00"."""
    return ("+" if round(value, 2) >= 0 else "−") + format_decimal(abs(value), format="0.00", locale=normalize(lang))


def _rounds(lang: str | None, rounds: int) -> str:
    return t(lang, "tournament.value.auto") if rounds == AUTO else str(rounds)


def _next(choices: tuple[Any, ...], current: Any) -> Any:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]


def _wire(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
