"""Shadows over Camelot, the board game: `engine.get_game("board")`.

The rules live in small modules named for what they hold (`turns`, `quests/<quest>`, `siege`, `blacks`,
`black_specials`, `white_cards`, `knights`, `traitor`, `splits`, `ending`, `setup`; engine/README.md maps every rule id
of the digest `shared/rules/board-game.md` to its module); this class is the protocol around them. Pending decisions
are frames on a stack (`frames.py`); `apply` validates an answer against the legal actions BEFORE changing anything,
then mutates the state in place and runs automatic steps until the next decision.

Config: `players` (3-7); optional `knights` (ids per seat), `first`; variants as top-level keys or under
`variant`: `traitor` ("standard" | "none" | "among_us"), `three_player_rule` (+ `three_player_trigger`:
"swords_or_engines" | "swords"), `squires` (+ `squire_life`, `squire_cards`), `war_any_order`. Test only: `stack`
(see `engine.board.setup`) fixes knights, loyalty, hands, deck tops, die rolls and board fields so a test can script
any situation.

Joining and leaving mid-game (B-VAR, B-LEAVE): `join(state)` seats a new player; the action `leave` is accepted
from any living seat at any time (it is never offered among the legal actions, so bots do not leave).

Standing actions (B-TRAITOR): the Traitor holding Fate may unmask himself at any moment of his own turn, asked or
not (`standing_actions`; not in another knight's turn: seed 002 FATE "in zijn beurt"); `apply` takes it from him
whatever decision is due, and every decision then goes on without him (he is answered for by default, as the dead
are).

Table talk (B-TALK) is etiquette the bot states in its rules summary; nothing here enforces it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.board import (  # noqa: F401  (each rule module registers its frames)
    black_specials,
    blacks,
    ending,
    knights,
    known,
    ops,
    siege,
    splits,
    traitor,
    turns,
    white_cards,
)
from engine.board import catalogue as cat
from engine.board.frames import DECISIONS
from engine.board.quests import excalibur, fight, grail, lancelot, rewards, wars  # noqa: F401  (registers frames)
from engine.board.setup import setup
from engine.board.state import BoardState
from engine.board.views import public_view, seat_view
from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.events import Event, public
from engine.core.game import Game
from engine.core.prompts import RESPONSE, TURN, Prompt

_LEAVE = Action("leave")


class BoardGame(Game):
    name = "board"
    rule_prefix = "B"
    min_players = 3
    max_players = 7

    def new_game(self, config: dict[str, Any], seed: int) -> BoardState:
        return setup(config, seed)[0]

    def start(self, config: dict[str, Any], seed: int) -> tuple[BoardState, list[Event]]:
        """Like `new_game`, with the setup's events (each seat's private hand and loyalty)."""
        return setup(config, seed)

    def pending(self, state: BoardState) -> list[Prompt]:
        if state.result is not None or not state.frames:
            return []
        frame = state.frames[-1]
        dec = DECISIONS[frame["kind"]]
        timing = TURN if dec.turn else RESPONSE
        return [Prompt(seat, frame["kind"], timing) for seat in dec.who(state, frame)]

    def legal_actions(self, state: BoardState, seat: int) -> list[Action]:
        if state.result is not None or not state.frames:
            return []
        cached = state.cache
        if cached is not None and cached[0] == seat:
            return list(cached[1])
        frame = state.frames[-1]
        dec = DECISIONS[frame["kind"]]
        actions = dec.legal(state, frame, seat) if seat in dec.who(state, frame) else []
        state.cache = (seat, actions)
        return list(actions)

    def apply(self, state: BoardState, seat: int, action: Action) -> tuple[BoardState, list[Event]]:
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            raise IllegalAction("B-TURN", "no such seat")
        if state.result is not None:
            raise IllegalAction("B-END", "the game is over")
        ev: list[Event] = []
        if action in traitor.standing_actions(state, seat):
            state.cache = None
            white_cards.play_special(state, seat, action, ev)
            turns.advance(state, ev)
            return state, ev
        if action == traitor.FATE_REVEAL:
            raise IllegalAction("B-TRAITOR", "only a living, unmasked Traitor holding Fate may reveal himself")
        if action == _LEAVE:
            if not state.alive[seat]:
                raise IllegalAction("B-LEAVE", "this knight has already left the game")
            ev.append(public("left", seat=seat))
            state.cache = None
            ending.kill(state, seat, ev)
            turns.advance(state, ev)
            return state, ev
        frame = state.frames[-1]
        dec = DECISIONS[frame["kind"]]
        if seat not in dec.who(state, frame):
            raise IllegalAction("B-TURN", "this seat has nothing to decide now")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(dec.rule, f"{action.encode()} is not possible now")
        state.cache = None
        dec.act(state, frame, seat, action, ev)
        turns.advance(state, ev)
        return state, ev

    def standing_actions(self, state: BoardState, seat: int) -> list[Action]:
        if state.result is not None or not 0 <= seat < state.n:
            return []
        return traitor.standing_actions(state, seat)

    def view(self, state: BoardState, seat: int | None) -> dict[str, Any]:
        pending = [{"seat": p.seat, "kind": p.kind, "timing": p.timing} for p in self.pending(state)]
        if seat is None:
            return public_view(state, pending)
        legal = [a.encode() for a in self.legal_actions(state, seat)]
        standing = [code for a in self.standing_actions(state, seat) if (code := a.encode()) not in legal]
        return seat_view(state, seat, pending, legal, standing)

    def result(self, state: BoardState) -> dict[str, Any] | None:
        return state.result

    def snapshot(self, state: BoardState) -> dict[str, Any]:
        return state.to_dict()

    def copy(self, state: BoardState) -> BoardState:
        return state.copy()

    def timeout_action(self, state: BoardState, seat: int) -> Action:
        frame = state.frames[-1]
        dec = DECISIONS[frame["kind"]]
        if not dec.turn and dec.timeout is not None:
            return dec.timeout(state, frame, seat)
        from engine.bots.board_heuristic import BoardHeuristicBot

        return BoardHeuristicBot(as_loyal=True).choose(self, state, seat, random.Random(state.turns * 8 + seat))

    def resample_hidden(self, state: BoardState, seat: int | None, rng: random.Random) -> BoardState:
        """A copy where what `seat` may not know is re-dealt: other hands and the white deck, the black deck below
        the cards it has seen, others' face-down black cards (within their kind), a Black Knight or Lancelot card
        another knight just drew, cards in the current player's look, loyalty it does not know, and the future of
        the random generator. Kept as they are: discard piles, cards already committed to a pending choice, and
        the cards the seat knows to be in other hands (`known`: exchanges, Messenger, face-up splits); what the
        other seats knew is cut down to their re-dealt world."""
        s = state.copy()
        _resample_white(s, seat, rng)
        _resample_black(s, seat, rng)
        _resample_loyalty(s, seat, rng)
        s.rng.seed(rng.getrandbits(64))
        return s

    def join(self, state: BoardState) -> tuple[BoardState, list[Event]]:
        """A new player joins (B-VAR): a free knight and loyalty card, 4 life, 5 white cards, at Camelot, seated
        left of King Arthur (or of the first player). Only between turns' decisions and with fewer than 7 seats."""
        s = state
        free = [k for k in cat.KNIGHTS if k not in s.knight]
        if s.result is not None or s.n >= cat.LOYALTY_COUNTS["loyal"] or not free or not s.loyalty_unused:
            raise IllegalAction("B-VAR", "nobody can join this game now")
        if s.frames[-1]["kind"] not in ("evil", "heroic", "post", "traitor_steal", "traitor_evil"):
            raise IllegalAction("B-VAR", "a player may join only between other decisions")
        seat, ev = s.n, []
        anchor = s.knight.index("arthur") if "arthur" in s.knight else s.config["first_seat"]
        s.cache = None
        s.n += 1
        knight = free[s.rng.randrange(len(free))]
        s.knight.append(None if s.config["squires"] else knight)
        for field, value in (("life", cat.START_LIFE), ("loc", cat.CAMELOT), ("alive", True), ("known_loyal", False),
                             ("has_accused", False), ("revealed", False), ("loyalty_seen", True)):
            getattr(s, field).append(value)
        s.hands.append([])
        s.relics.append([])
        s.peeks.append([])
        known.add_seat(s)
        s.loyalty.append(s.loyalty_unused.pop(s.rng.randrange(len(s.loyalty_unused))))
        s.order.insert(s.order.index(anchor) + 1, seat)
        ev.append(public("joined", seat=seat, knight=s.knight[seat]))
        ops.deal_white(s, seat, cat.START_HAND, ev, "join")
        turns.advance(s, ev)
        return s, ev


def _committed(s: BoardState) -> list[list[str]]:
    """Cards a seat has already chosen in a pending decision (Arthur's exchange, the opening gesture) and still holds
    (he may have discarded it meanwhile, or left the board): they stay."""
    kept: list[list[str]] = [[] for _ in range(s.n)]
    for frame in s.frames:
        if frame["kind"] == "arthur" and frame["card"] in s.hands[s.current]:
            kept[s.current].append(frame["card"])
        elif frame["kind"] == "gesture":
            for i, card in enumerate(frame["chosen"]):
                if card is not None and card in s.hands[i]:
                    kept[i].append(card)
    return kept


def _resample_white(s: BoardState, seat: int | None, rng: random.Random) -> None:
    others = [i for i in range(s.n) if i != seat]
    committed = _committed(s)
    kept, free = [], []
    for i in others:
        keep = Counter(committed[i]) | known.to_keep(s, seat, i)
        kept.append(list(keep.elements()))
        free.append(list((Counter(s.hands[i]) - keep).elements()))
    pool = [c for hand in free for c in hand] + s.white_deck
    rng.shuffle(pool)
    for i, keep, hand in zip(others, kept, free, strict=True):
        k = len(hand)
        s.hands[i], pool = keep + pool[:k], pool[k:]
    s.white_deck = pool
    known.clip(s)


def _resample_black(s: BoardState, seat: int | None, rng: random.Random) -> None:
    known = len(s.peeks[seat]) if seat is not None else 0
    top = s.black_deck[len(s.black_deck) - known:] if known else []
    rest = s.black_deck[: len(s.black_deck) - known]
    for kinds, rows in ((cat.BLACK_KNIGHT_VALUE, s.black_knight_black), (cat.LANCELOT_VALUE, s.lancelot_black)):
        hidden = [r for r in rows if r[1] and r[2] != seat]
        spots = [k for k, c in enumerate(rest) if c in kinds]
        pool = [r[0] for r in hidden] + [rest[k] for k in spots]
        rng.shuffle(pool)
        for r in hidden:
            r[0] = pool.pop()
        for k in spots:
            rest[k] = pool.pop()
    looked = [f for f in s.frames if f["kind"] in ("percival", "clairvoyance", "armor") and seat != s.current]
    for frame in looked:  # cards the current player holds in his look, unseen by `seat`
        for key in ("cards", "chosen"):
            cards = frame.get(key, [])
            pool = cards + rest
            rng.shuffle(pool)
            frame[key], rest = pool[: len(cards)], pool[len(cards):]
    rng.shuffle(rest)
    s.black_deck = rest + top
    _resample_drawn(s, seat, len(rest), rng)


def _resample_drawn(s: BoardState, seat: int | None, unknown: int, rng: random.Random) -> None:
    """A Black Knight or Lancelot card just drawn is known only to its drawer: swap it with one of its kind."""
    frames = [f for f in s.frames if f["kind"] in ("window", "resolve_black", "face")]
    if not frames or seat == s.current or frames[0]["card"] not in cat.FACE_DOWN_ABLE or s.revealed[s.current]:
        return
    drawn = frames[0]["card"]
    kinds = cat.BLACK_KNIGHT_VALUE if drawn in cat.BLACK_KNIGHT_VALUE else cat.LANCELOT_VALUE
    spots = [k for k, c in enumerate(s.black_deck[:unknown]) if c in kinds]
    pick = rng.randrange(len(spots) + 1)
    if pick < len(spots):
        s.black_deck[spots[pick]], new = drawn, s.black_deck[spots[pick]]
        for f in frames:
            f["card"] = new


def _resample_loyalty(s: BoardState, seat: int | None, rng: random.Random) -> None:
    if s.config["traitor"] == "none":
        return
    unknown = [
        i for i in range(s.n)
        if not s.revealed[i] and not s.known_loyal[i] and (i != seat or not s.loyalty_seen[i])
    ]
    pool = [s.loyalty[i] for i in unknown] + s.loyalty_unused
    rng.shuffle(pool)
    for i in unknown:
        s.loyalty[i] = pool.pop()
    s.loyalty_unused = pool
