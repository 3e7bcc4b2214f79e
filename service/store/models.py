"""SQLAlchemy 2 models. The action log (`actions`) is the truth: any game is rebuilt by replaying it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Always an aware UTC datetime in Python (SQLite hands back naive ones)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, datetime: UTCDateTime()}


class User(Base):
    """A person on one platform; `direct_chat` is known once they have written to the bot privately."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("platform", "platform_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    platform_id: Mapped[str] = mapped_column(String(255))
    name: Mapped[str | None] = mapped_column(String(255))
    direct_chat: Mapped[str | None] = mapped_column(String(255))
    language: Mapped[str | None] = mapped_column(String(16))
    away_until: Mapped[datetime | None] = mapped_column()  # on vacation until then (`service.play.away`)
    # their direct-chat reminders come even during a group's quiet hours (`/quiet off`, `service.play.quiet`)
    remind_in_quiet: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[datetime] = mapped_column(default=utcnow)


class Chat(Base):
    __tablename__ = "chats"
    __table_args__ = (UniqueConstraint("platform", "platform_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    platform_id: Mapped[str] = mapped_column(String(255))
    is_group: Mapped[bool] = mapped_column(Boolean, default=True)
    language: Mapped[str | None] = mapped_column(String(16))
    quiet: Mapped[str | None] = mapped_column(String(64))  # quiet hours and zone: "23-08 Europe/Prague"
    created: Mapped[datetime] = mapped_column(default=utcnow)


class GameRow(Base):
    """A lobby (status "lobby") or a game. `seq` counts applied actions; it is the prompt seq buttons carry."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_chat_status", "chat_id", "status"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # passed to the engine's new_game
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # service options: bots, deadlines
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="lobby")  # lobby | active | finished | aborted
    language: Mapped[str] = mapped_column(String(16), default="en")
    chat_id: Mapped[int | None] = mapped_column(ForeignKey("chats.id"))
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    seq: Mapped[int] = mapped_column(Integer, default=0)
    silence: Mapped[bool] = mapped_column(Boolean, default=False)
    board_digest: Mapped[str | None] = mapped_column(String(64))  # of the board last queued: skip unchanged edits
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # bumped by every change of who plays a seat: a move computed from a cached table of another roster is not written
    roster: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    paused_at: Mapped[datetime | None] = mapped_column()  # deadlines frozen since then (`service.play.pause`)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    updated: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Seat(Base):
    """One seat: a user or a bot ("random"/"heuristic"). `prompt_seq` is the seq the seat's open prompt began at:
    a button carrying another seq is stale. `prompt_sig` detects whether that prompt, and the hand as shown, changed
    since. A user's seat with `bot` set is played by that bot from then on (a tournament's autopilot at its round's
    deadline); `pilot` says why the timeout autopilot plays a person's seat (left, idle, away, forced:
    `service.play.autopilot`), and `timeouts` counts the seat's timeouts in a row."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot: Mapped[str | None] = mapped_column(String(16))
    language: Mapped[str | None] = mapped_column(String(16))
    prompt_seq: Mapped[int | None] = mapped_column(Integer)
    prompt_sig: Mapped[str | None] = mapped_column(String(64))
    pilot: Mapped[str | None] = mapped_column(String(16))
    timeouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # 1-based: the action that took the game from seq-1 to seq
    seat: Mapped[int] = mapped_column(Integer)
    code: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(16), default="user")  # user | bot | timeout
    created: Mapped[datetime] = mapped_column(default=utcnow)


class Deadline(Base):
    """The open prompt of one seat: when reminders and the timeout fall due. Scanned by the beat task."""

    __tablename__ = "deadlines"
    __table_args__ = (UniqueConstraint("game_id", "seat"), Index("ix_deadlines_next_at", "next_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    timing: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[datetime] = mapped_column()
    due_at: Mapped[datetime] = mapped_column()
    next_at: Mapped[datetime] = mapped_column()  # the earlier of the next reminder and due_at
    reminders: Mapped[int] = mapped_column(Integer, default=0)
    extended: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")  # seconds added for a vacation


class GameEvent(Base):
    """A change to a running game outside its moves (a seat left, taken over, handed to the autopilot or taken back;
    a pause; an admin's change): the game's log beside its action log, each shown in the group when it happens."""

    __tablename__ = "game_events"
    __table_args__ = (Index("ix_game_events_game", "game_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # the game's seq when it happened
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # whose seat it was (who left, who came)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # who did it (an admin), if not them
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class OutboxRow(Base):
    """A message to send, in id order per (platform, chat). `ref` names a message that is edited in place
    (board:<game>, panel:<game>:<seat>, lobby:<game>); op "upsert" edits it when already sent, else sends it."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_chat_pending", "platform", "chat", "status", "id"),
        Index("ix_outbox_shard_pending", "platform", "shard", "status", "id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    chat: Mapped[str] = mapped_column(String(255))
    shard: Mapped[int] = mapped_column(SmallInteger, default=0)  # `outbox.shard_of(chat)`: one sender per shard
    is_group: Mapped[bool] = mapped_column(Boolean, default=False)
    op: Mapped[str] = mapped_column(String(16))  # send | upsert | restrict | unrestrict | delete
    ref: Mapped[str | None] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    photo: Mapped[bytes | None] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending | sent | failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    not_before: Mapped[datetime | None] = mapped_column()
    error: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column()


class SentMessage(Base):
    """The platform id of a message edited in place, and the digest of its last queued content (skip unchanged)."""

    __tablename__ = "sent_messages"
    __table_args__ = (UniqueConstraint("platform", "chat", "ref"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    chat: Mapped[str] = mapped_column(String(255))
    ref: Mapped[str] = mapped_column(String(64))
    message_id: Mapped[str | None] = mapped_column(String(255))
    digest: Mapped[str | None] = mapped_column(String(64))
    updated: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ProcessedUpdate(Base):
    """Idempotency: an update id is inserted in the same transaction as its effect, so a redelivery is a no-op."""

    __tablename__ = "processed_updates"
    platform: Mapped[str] = mapped_column(String(16), primary_key=True)
    update_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class InboxRow(Base):
    """A person's tap or command that a gateway accepted and no worker has applied yet: written before its task is
    queued, deleted in the transaction that claims its update id (`games.claim_update`). The beat queues again what
    stays (`service.play.inbox.replay`): its task was lost with a worker or the broker, or kept failing."""

    __tablename__ = "inbox"
    platform: Mapped[str] = mapped_column(String(16), primary_key=True)
    update_id: Mapped[str] = mapped_column(String(128), primary_key=True)  # as `ProcessedUpdate` keeps it
    job: Mapped[str] = mapped_column(String(16))  # play | command
    cmd: Mapped[dict[str, Any]] = mapped_column(JSON)  # the job's argument, as the gateway submitted it
    replays: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[datetime] = mapped_column(index=True)  # when the beat queues it again if it is still here
    created: Mapped[datetime] = mapped_column(default=utcnow)


class Rating(Base):
    """A person's skill at one game kind (a normal belief: `mu`, `sigma`; `service.ratings.model`), over their
    finished, rated games. Bots have none: they count at the model's starting mean."""

    __tablename__ = "ratings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class RatingChange(Base):
    """What one finished game did to one person's rating. A game is rated once: its rows are the proof (a
    redelivered rating task finds them); a chat's standings are its players' and a person's history is theirs
    (`service.ratings.standings`)."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_user", "user_id", "created"),)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    side: Mapped[str] = mapped_column(String(8))  # "loyal" | "evil"
    won: Mapped[bool] = mapped_column(Boolean)
    expected: Mapped[float] = mapped_column(Float)  # the chance the model gave the person's side
    before: Mapped[float] = mapped_column(Float)  # the rating shown before and after (`service.ratings.shown`)
    after: Mapped[float] = mapped_column(Float)
    created: Mapped[datetime] = mapped_column(default=utcnow)  # when the game ended


class RatingSide(Base):
    """How often the loyal side won the rated games of one setting (game kind, player count, variant set), from
    which the model learns the side advantage (`service.ratings.model.loyal_rate`)."""

    __tablename__ = "rating_sides"
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    variants: Mapped[str] = mapped_column(String(255), primary_key=True)  # `service.ratings.store.variant_key`
    games: Mapped[int] = mapped_column(Integer, default=0)
    loyal_wins: Mapped[int] = mapped_column(Integer, default=0)


class Tournament(Base):
    """A community's tournament (`service.tournaments`): registration, then rounds whose tables are games. `chat_id`
    is where it is organised (its message, standings, commands); `round` the current round's number (0 before it
    starts); `options` the table size range, rounds, pairing, deadlines, variants, bots and where tables are played."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_chat_status", "chat_id", "status"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chat_id: Mapped[int] = mapped_column(ForeignKey("chats.id"))
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    language: Mapped[str] = mapped_column(String(16), default="en")
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="registration")  # registration|running|finished|cancelled
    round: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    updated: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class TournamentPlayer(Base):
    """A registration: seated from `first_round` on, and not after `withdrawn_after` (the round they withdrew in)."""

    __tablename__ = "tournament_players"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    first_round: Mapped[int] = mapped_column(Integer, default=1)
    withdrawn_after: Mapped[int | None] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentRound(Base):
    """One round; unique per tournament and number, so two transitions racing create it once. `finished` is set
    when its last table is recorded; `autopilot` when its deadline handed the tables still running to the autopilot."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    started: Mapped[datetime] = mapped_column(default=utcnow)
    deadline: Mapped[datetime] = mapped_column()
    autopilot: Mapped[datetime | None] = mapped_column()
    finished: Mapped[datetime | None] = mapped_column()


class TournamentTable(Base):
    """One table of a round: the game played there, and when its result was recorded (`outcome`: "played", or
    "void" for a game that was aborted)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("round_id", "number"), UniqueConstraint("game_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_rounds.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    recorded: Mapped[datetime | None] = mapped_column()
    outcome: Mapped[str | None] = mapped_column(String(8))


class TournamentSeat(Base):
    """A person at a table: their seat in its game and, once recorded, their side, points and merit."""

    __tablename__ = "tournament_seats"
    __table_args__ = (Index("ix_tournament_seats_user", "user_id"),)
    table_id: Mapped[int] = mapped_column(ForeignKey("tournament_tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    side: Mapped[str | None] = mapped_column(String(8))
    points: Mapped[float | None] = mapped_column(Float)
    merit: Mapped[float | None] = mapped_column(Float)


class Follower(Base):
    """A person following a table from the bot's direct chat (`service.play.spectators`): they receive what its
    chat receives (the public board and the narrated story, then the full reveal), never a seat's private view."""

    __tablename__ = "followers"
    __table_args__ = (Index("ix_followers_user", "user_id"),)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    created: Mapped[datetime] = mapped_column(default=utcnow)
