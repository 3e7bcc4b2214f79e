"""A move's write, built in one place from the models' columns, for both dialects.

A move writes the game row's changed columns (`GAME_COLUMNS`), its log entry, the seats whose prompt changed
(`SEAT_COLUMNS`) and its outbox rows; a bot move on a cached table writes its deadlines too, and only if the game is
still where the cache saw it. On PostgreSQL it is one statement, each write a CTE on the game row's update `g`
(`statement`): through the ORM's flush the same writes cost twice the CPU and more round trips. On SQLite, a
statement per write (`statements`). Every value comes from `params`, named after its column; columns a row does not
give take their model default (one parameter each) or the move's time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import (
    ARRAY,
    Integer,
    Table,
    any_,
    bindparam,
    cast,
    func,
    insert,
    literal_column,
    not_,
    or_,
    select,
    union_all,
)
from sqlalchemy import update as update_
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.sql import ColumnElement, Executable
from sqlalchemy.types import JSON

from service.store.models import ActionRow, Deadline, GameRow, OutboxRow, Seat, utcnow

GAME_COLUMNS = ("seq", "status", "result", "board_digest", "silence")  # what a move changes in its game row
SEAT_COLUMNS = ("prompt_seq", "prompt_sig")  # what a move changes in a seat's row
OUTBOX_COLUMNS = ("platform", "chat", "shard", "is_group", "op", "ref", "payload", "photo")  # `outbox.add`'s
DEADLINE_COLUMNS = ("seat", "seq", "timing", "started_at", "due_at", "next_at")  # `deadlines.rows_for`'s
ACTION_COLUMNS = ("seat", "code", "by")  # the log entry's own (its seq is the game's)

_GAMES, _ACTIONS, _SEATS, _OUTBOX, _DEADLINES = (
    m.__table__ for m in (GameRow, ActionRow, Seat, OutboxRow, Deadline)
)


def params(
    game: GameRow,
    seats: Sequence[Seat],
    action: dict[str, Any],
    rows: Sequence[dict[str, Any]],
    deadlines: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The values of a move's write: the game's `GAME_COLUMNS`, the changed `seats`' `SEAT_COLUMNS`, the log entry
    (`action`: `ACTION_COLUMNS`), the outbox `rows` and the `deadlines` rows, and the defaults the statements bind."""
    values: dict[str, Any] = {
        "game": game.id, "before": game.seq - 1, "roster": game.roster, "now": utcnow(), **_defaults()
    }
    values.update((f"game_{key}", getattr(game, key)) for key in GAME_COLUMNS)
    values.update((f"action_{key}", action[key]) for key in ACTION_COLUMNS)
    for n, seat in enumerate(seats):
        values[f"seat{n}"] = seat.seat
        values.update((f"seat_{key}{n}", getattr(seat, key)) for key in SEAT_COLUMNS)
    for n, row in enumerate(rows):
        values.update((f"outbox_{key}{n}", row[key]) for key in OUTBOX_COLUMNS)
    if deadlines is not None:
        values["keep"] = [row["seat"] for row in deadlines]
        for n, row in enumerate(deadlines):
            values.update((f"deadline_{key}{n}", row[key]) for key in DEADLINE_COLUMNS)
    return values


@cache
def json_params(rows: int) -> tuple[str, ...]:
    """The parameters of JSON columns in a write with `rows` outbox rows (the driver must be handed them wrapped)."""
    names = [f"game_{key}" for key in GAME_COLUMNS if _is_json(_GAMES, key)]
    return (*names, *(f"outbox_{key}{n}" for n in range(rows) for key in OUTBOX_COLUMNS if _is_json(_OUTBOX, key)))


@cache
def statement(seats: int, rows: int, deadlines: int | None, conditional: bool) -> Executable:
    """The PostgreSQL statement writing a move with `seats` changed seats and `rows` outbox rows: the game row's
    update `g`, and every other write a CTE on it, so that nothing is written if it updated no row; it returns how
    many it updated (0 or 1). `conditional`: only if the game is still active at the seq before the move, with the
    roster the move was computed for (`GameRow.roster`: no seat changed hands meanwhile).
    `deadlines` (with `conditional`): the rows for the open prompts of a game with people (None: none are written),
    left as `deadlines.set_for_game` leaves them: the seats without a prompt lose theirs, a changed prompt restarts
    its clock, an unchanged one runs on."""
    where = _GAMES.c.id == bindparam("game")
    if conditional:
        where &= (_GAMES.c.seq == bindparam("before", type_=Integer)) & (_GAMES.c.status == literal_column("'active'"))
        where &= _GAMES.c.roster == bindparam("roster", type_=Integer)
    g = update_(_GAMES).where(where).values(_game_values()).returning(_GAMES.c.id).cte("g")
    game_id = select(g.c.id).scalar_subquery()
    ctes = [_insert(_ACTIONS, "a", [_action_values(g.c.id)], g)]
    ctes += [_seat_update(n, game_id).cte(f"s{n}") for n in range(seats)]
    if rows:
        ctes.append(_insert(_OUTBOX, "o", [_outbox_values(n) for n in range(rows)], g))
    if deadlines is not None:
        keep = _DEADLINES.c.seat == any_(bindparam("keep", type_=ARRAY(Integer)))
        ctes.append(_DEADLINES.delete().where(_DEADLINES.c.game_id == game_id, not_(keep)).cte("dd"))
    if deadlines:
        ctes.append(_deadlines_upsert(deadlines, g))
    return select(func.count()).select_from(g).add_cte(*ctes)


@cache
def statements(seats: int, rows: int) -> list[Executable]:
    """The same writes (without deadlines, unconditional) as a statement each, for SQLite."""
    game_id = bindparam("game", type_=Integer)
    written: list[Executable] = [
        update_(_GAMES).where(_GAMES.c.id == game_id).values(_game_values()),
        insert(_ACTIONS).values(_action_values(game_id)),
    ]
    written += [_seat_update(n, game_id) for n in range(seats)]
    written += [insert(_OUTBOX).values(_outbox_values(n)) for n in range(rows)]
    return written


def _game_values() -> dict[str, Any]:
    values: dict[str, Any] = {key: _bind(_GAMES, key, f"game_{key}") for key in GAME_COLUMNS}
    return values | {"updated": _bind(_GAMES, "updated", "now")}


def _action_values(game_id: Any) -> dict[str, Any]:
    values = {"game_id": game_id, "seq": _bind(_ACTIONS, "seq", "game_seq")}
    values.update((key, _bind(_ACTIONS, key, f"action_{key}")) for key in ACTION_COLUMNS)
    return _with_defaults(_ACTIONS, values)


def _seat_update(n: int, game_id: Any) -> Any:
    values = {key: _bind(_SEATS, key, f"seat_{key}{n}") for key in SEAT_COLUMNS}
    where = (_SEATS.c.game_id == game_id) & (_SEATS.c.seat == _bind(_SEATS, "seat", f"seat{n}"))
    return update_(_SEATS).where(where).values(values)


def _outbox_values(n: int) -> dict[str, Any]:
    return _with_defaults(_OUTBOX, {key: _bind(_OUTBOX, key, f"outbox_{key}{n}") for key in OUTBOX_COLUMNS})


def _deadline_values(n: int, game_id: Any) -> dict[str, Any]:
    values = {key: _bind(_DEADLINES, key, f"deadline_{key}{n}") for key in DEADLINE_COLUMNS}
    return _with_defaults(_DEADLINES, {"game_id": game_id, **values})


def _insert(table: Table, name: str, rows: list[dict[str, Any]], g: Any) -> Any:
    """INSERT INTO `table` the `rows` (column → expression), each selected FROM `g`: none if `g` updated nothing."""
    columns, selected = _selected(table, rows, g)
    return insert(table).from_select(columns, selected).cte(name)


def _deadlines_upsert(count: int, g: Any) -> Any:
    columns, selected = _selected(_DEADLINES, [_deadline_values(n, g.c.id) for n in range(count)], g)
    upsert = pg_insert(_DEADLINES).from_select(columns, selected)
    restarted = [key for key in DEADLINE_COLUMNS if key != "seat"] + ["reminders"]
    changed = or_(*(_DEADLINES.c[key].is_distinct_from(upsert.excluded[key]) for key in ("seq", "timing")))
    return upsert.on_conflict_do_update(
        index_elements=["game_id", "seat"],
        set_={key: upsert.excluded[key] for key in restarted},
        where=changed,
    ).cte("du")


def _selected(table: Table, rows: list[dict[str, Any]], g: Any) -> tuple[list[str], Any]:
    """The columns of `rows` and a SELECT of each row FROM `g` (UNION ALL), every value cast to its column's type
    (a NULL parameter in a union would be text)."""
    columns = list(rows[0])
    selects = [
        select(*(value if key == "game_id" else cast(value, table.c[key].type) for key, value in row.items()))
        .select_from(g)
        for row in rows
    ]
    return columns, selects[0] if len(selects) == 1 else union_all(*selects)


def _with_defaults(table: Table, values: dict[str, Any]) -> dict[str, Any]:
    """`values` plus each other column's model default: a scalar as its parameter (`_defaults`), a function (the
    time) as the move's `now`."""
    for column in table.c:
        if column.key in values or column.default is None or column.primary_key:
            continue
        name = "now" if column.default.is_callable else f"default_{table.name}_{column.key}"
        values[column.key] = _bind(table, column.key, name)
    return values


@cache
def _defaults() -> dict[str, Any]:
    """The scalar model defaults the statements bind (`_with_defaults`), by parameter name."""
    return {
        f"default_{table.name}_{column.key}": column.default.arg
        for table in (_ACTIONS, _OUTBOX, _DEADLINES)
        for column in table.c
        if column.default is not None and column.default.is_scalar and not column.primary_key
    }


def _bind(table: Table, key: str, name: str) -> ColumnElement[Any]:
    return bindparam(name, type_=table.c[key].type)


def _is_json(table: Table, key: str) -> bool:
    return isinstance(table.c[key].type, JSON)

