"""The question at the bottom of a person's direct chat (issue 23 item 4).

A person's direct chat holds two kinds of game messages: the hand panel (`panel:<game>:<seat>`, their state, edited
in place) and, for each decision, a question (`ask:<game>:<seat>:<prompt seq>`) sent as a new message at the bottom,
naming the game and the question in words, with the time left and its buttons. When the decision closes or a new
one replaces it, the old question is edited to say so and loses its buttons: one live set of buttons per person.
Standing actions (the Traitor's unmasking) ride on the question when there is one, else on the hand panel.

The confirmations of games that last days (leave, take a seat, take one's seat back) are questions too, each a new
message (`confirm:<game>:<verb>:<seat>_<person>:<token>`): once answered, they and any earlier one for the same
button lose their button, so a second tap is impossible rather than refused (`close_confirmations`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core.events import Event
from service.callback import unpack
from service.play import presenting
from service.render import Panel, narration
from service.render.clock import time_left
from service.store import get_engine, outbox
from service.store.models import ActionRow, GameRow, OutboxRow, SentMessage


def ask_ref(game_id: int, seat: int, seq: int) -> str:
    return f"ask:{game_id}:{seat}:{seq}"


def confirmation_ref(s: Session, dm: tuple[str, str], game_id: int, verb: str, value: str) -> str:
    """A new confirmation's message in the direct chat `dm` (`value` is its button's, "<seat>_<user id>"): numbered
    after those sent before for the same button, so that one sent again comes at the bottom of the chat instead of
    editing an older one."""
    return f"confirm:{game_id}:{verb}:{value}:{len(_confirmations(s, dm, game_id, verb, value)) + 1}"


def _confirmations(s: Session, dm: tuple[str, str], game_id: int, verb: str, value: str) -> set[str]:
    """The refs of the confirmations queued or sent for this button in the chat (a sent message is remembered
    after its outbox rows are pruned: its ref is never given to another)."""
    prefix = f"confirm:{game_id}:{verb}:{value}:"

    def query(conn: Any) -> set[str]:
        queued = select(OutboxRow.ref).where(
            OutboxRow.platform == dm[0], OutboxRow.chat == dm[1], OutboxRow.ref.startswith(prefix)
        )
        sent = select(SentMessage.ref).where(
            SentMessage.platform == dm[0], SentMessage.chat == dm[1], SentMessage.ref.startswith(prefix)
        )
        return set(conn.scalars(queued.union(sent)).all())

    return _read(s, query)


def close_confirmations(s: Session, dm: tuple[str, str], game_id: int, verb: str, value: str) -> int:
    """Take the button off every confirmation in the direct chat `dm` that carries this button: each stays, marked
    with the button's label ("✔ 🚪 Yes, leave the game"). Returns how many lost their button."""
    closed = 0
    for ref in sorted(_confirmations(s, dm, game_id, verb, value)):
        last = _last_payload(s, dm, ref)
        if last is not None and last.get("buttons"):
            label = last["buttons"][0][0][0]
            outbox.upsert(s, *dm, ref, {"text": f"{last.get('text', '')}\n✔ {label}"})
            closed += 1
    return closed


def panel_ref(game_id: int, seat: int) -> str:
    return f"panel:{game_id}:{seat}"


def buttons_payload(keyboard: Any) -> list[list[list[str]]] | None:
    if not keyboard:
        return None
    return [[[b.label, b.data] for b in row] for row in keyboard]


def where(game: GameRow, lang: str | None) -> str:
    """The game in words for a person's direct chat: its group's name (when known), its kind and number."""
    opts = game.options or {}
    group = opts.get("title") or opts.get("table_title")
    kind = presenting.t(lang, f"lobby.game.{game.kind}")
    kind = game.kind if kind == f"lobby.game.{game.kind}" else kind
    if group:
        return presenting.t(lang, "ask.where.group", group=group, game=kind, game_id=game.id)
    return presenting.t(lang, "ask.where", game=kind, game_id=game.id)


def question_text(game: GameRow, p: Panel, lang: str) -> str:
    """The question in words: which game (and group) it is in, and what is asked."""
    ask = p.question or presenting.t(lang, "prompt.generic")
    return f"{presenting.t(lang, 'ask.header', where=where(game, lang))}\n{ask}"


def hand_payload(p: Panel, asking: bool, reach: dict[str, Any]) -> dict[str, Any]:
    """The hand panel: without buttons while a question carries them."""
    return {"text": p.text, "buttons": None if asking else buttons_payload(p.buttons), **reach}


def ask(
    s: Session,
    dm: tuple[str, str],
    game: GameRow,
    seat: int,
    seq: int,
    p: Panel,
    lang: str,
    left: float | None,
    reach: dict[str, Any],
) -> None:
    """Send (or, on a menu step, edit) the question of prompt `seq` with its buttons and the time left (`left`
    seconds, if the decision has a deadline)."""
    question = question_text(game, p, lang)
    text = question if left is None else f"{question}\n{time_left(lang, left)}"
    payload = {"text": text, "question": question, "buttons": buttons_payload(p.buttons), **reach}
    outbox.upsert(s, *dm, ask_ref(game.id, seat, seq), payload)


def close(
    s: Session, dm: tuple[str, str], game_id: int, seat: int, seq: int, lang: str, answered: bool,
    chosen: str | None = None,
) -> None:
    """Take the buttons off the question of prompt `seq`: the question stays, marked with the choice made (the label
    of the button whose code is `chosen`), done, or closed; its clock goes."""
    ref = ask_ref(game_id, seat, seq)
    last = _last_payload(s, dm, ref)
    if last is None:  # never queued, or its rows are gone: nothing to close (an old message's edit would be blind)
        return
    label = _label_of(last.get("buttons"), chosen) if chosen else None
    if label:
        mark = label if label.startswith("✔") else f"✔ {label}"  # "✔ End my turn" is marked already
    else:
        mark = presenting.t(lang, "ask.answered" if answered else "ask.closed")
    payload = {k: v for k, v in last.items() if k not in ("buttons", "question")}
    payload["text"] = f"{last.get('question', last.get('text', ''))}\n{mark}"
    outbox.upsert(s, *dm, ref, payload)


def _label_of(buttons: list[list[list[str]]] | None, code: str) -> str | None:
    """The label of the button (as queued: [label, data]) whose signed data carries `code`."""
    for label, data in (b for row in buttons or [] for b in row):
        tap = unpack(data)
        if tap is not None and getattr(tap, "code", None) == code:
            return label
    return None


def recap(
    s: Session, game: GameRow, seat: int, actor: int | None, events: list[Event], lang: str, names: dict[int, str]
) -> str | None:
    """What happened since the seat last decided ("since your last turn"), in its own view, from the game's log and
    this move's `events` (not logged yet); None when nothing did. Games without a narrated story have none."""
    if game.kind not in presenting.RENDERED:
        return None
    codes = _read(
        s,
        lambda conn: list(
            conn.execute(
                select(ActionRow.seat, ActionRow.code).where(ActionRow.game_id == game.id).order_by(ActionRow.seq)
            )
        ),
    )
    if codes is None:
        return None
    log = narration.moves(game.kind, game.config, game.seed, [(seat_, code) for seat_, code in codes])
    log.append((game.seq, actor, list(events)))
    text = narration.since_last_turn(game.kind, log, seat, lang, names)
    return None if text == presenting.t(lang, "narr.since.nothing") else text


def _last_payload(s: Session, dm: tuple[str, str], ref: str) -> dict[str, Any] | None:
    """The newest content queued for `ref` in this chat: this transaction's buffered rows first, then the outbox."""
    for row in reversed(outbox.buffered_rows(s)):
        if row["ref"] == ref and row["chat"] == dm[1]:
            return dict(row["payload"])
    found = _read(
        s,
        lambda conn: conn.scalar(
            select(OutboxRow.payload)
            .where(OutboxRow.platform == dm[0], OutboxRow.chat == dm[1], OutboxRow.ref == ref)
            .order_by(OutboxRow.id.desc())
            .limit(1)
        ),
    )
    return dict(found) if found is not None else None


def _read(s: Session, query: Callable[[Any], Any]) -> Any:
    """Run a read in the move's transaction, or, for a move computed from the cache without one (a bot's move, see
    `service.play.bot_move`), on a connection of its own: the rows it reads were committed before the move."""
    if s.bind is not None:
        return query(s.connection())
    with get_engine().connect() as conn:
        return query(conn)
