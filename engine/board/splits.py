"""Face-up white cards split among knights by agreement (digest §2, §6): a quest's shared rewards, Convocation's
cards, and the opening gesture that puts them on the table. One knight proposes who gets each card, the others
accept or refuse; a refusal deals them at random, one by one (from a knight the Lady of the Lake's player names, when
she won the quest for others)."""

from __future__ import annotations

from engine.board import known, ops
from engine.board.frames import Events, Frame, decision
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import public

# --- splitting face-up cards ---------------------------------------------------------------------


def start_split(
    s: BoardState, cards: list[str], seats: list[int], proposer: int | None, why: str, ev: Events,
    chooser: int | None = None,
) -> None:
    """Cards face up to split by agreement; one knight takes them privately; nobody: they are discarded. `chooser`
    (the Lady of the Lake's knight, not among them) names who is dealt first if they do not agree."""
    if not cards:
        return
    if not seats or proposer is None:
        s.white_discard.extend(cards)
        ev.append(public("white_discarded", cards=list(cards), why=why))
        return
    if len(seats) == 1:
        ops.give_white(s, seats[0], cards, ev, why)
        return
    start = seats.index(proposer) if proposer in seats else 0  # (the current player may have left the board)
    seats = seats[start:] + seats[:start]
    ev.append(public("table", cards=list(cards), seats=seats, why=why))
    frame = {"kind": "split", "cards": cards, "seats": seats, "assign": [], "waiting": [], "why": why}
    if chooser is not None:
        frame["chooser"] = chooser
    ops.push(s, frame)


def _sharers(s: BoardState, frame: Frame) -> list[int]:
    """The split's knights still on the board, proposer first; if none is left, all of them (their answers are then
    given by default and the cards discarded), so that the cards on the table never go astray."""
    here = [i for i in frame["seats"] if s.alive[i] and not s.revealed[i]]
    return here or frame["seats"]


@decision("split", rule="B-QUEST")
class _Split:
    """The proposer names a knight for each card in turn; every other knight accepts or refuses the proposal.
    A knight who leaves the board meanwhile (dies, or unmasks himself as the Traitor) drops out: the next one
    proposes, and cards proposed to him are discarded."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        if len(frame["assign"]) < len(frame["cards"]):
            return _sharers(s, frame)[:1]
        return list(frame["waiting"])

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        if len(frame["assign"]) < len(frame["cards"]):
            return [Action("give", (i,)) for i in _sharers(s, frame)]
        return [Action("accept"), Action("refuse")]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "give":
            frame["assign"].append(action.args[0])
            ev.append(public("split_proposed", card=frame["cards"][len(frame["assign"]) - 1], to=action.args[0]))
            if len(frame["assign"]) == len(frame["cards"]):
                frame["waiting"] = [i for i in frame["seats"] if i != seat and s.alive[i] and not s.revealed[i]]
                if not frame["waiting"]:
                    _deal_split(s, frame, frame["assign"], ev)
            return
        frame["waiting"].remove(seat)
        ev.append(public("split_vote", seat=seat, accept=action.kind == "accept"))
        if action.kind == "refuse":
            frame["refused"] = True
        if frame["waiting"]:
            return
        chooser = frame.get("chooser")
        if frame.get("refused") and chooser is not None and s.alive[chooser] and not s.revealed[chooser]:
            ops.push(s, {"kind": "deal_first", "seat": chooser})
        elif frame.get("refused"):
            _random_deal(s, frame, _sharers(s, frame)[0], ev)
        else:
            _deal_split(s, frame, frame["assign"], ev)

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        if len(frame["assign"]) < len(frame["cards"]):
            seats = _sharers(s, frame)
            return Action("give", (seats[len(frame["assign"]) % len(seats)],))
        return Action("refuse")


@decision("deal_first", rule="B-QUEST", turn=True)
class _DealFirst:
    """After a Lady of the Lake win without agreement, her knight names who is dealt first (seed 002 FAQ: "te
    beginnen met de ridder die gekozen wordt door de ridder van de Lady of the Lake")."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [frame["seat"]]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("first", (i,)) for i in _sharers(s, s.frames[-2])]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        ev.append(public("deal_first", seat=seat, target=action.args[0]))
        _random_deal(s, s.frames[-1], action.args[0], ev)


def _random_deal(s: BoardState, frame: Frame, first: int, ev: Events) -> None:
    """No agreement: the cards are shuffled and dealt one by one, from `first` on in turn order."""
    seats = _sharers(s, frame)
    seats = seats[seats.index(first):] + seats[: seats.index(first)]
    s.rng.shuffle(frame["cards"])
    _deal_split(s, frame, [seats[k % len(seats)] for k in range(len(frame["cards"]))], ev)


def _deal_split(s: BoardState, frame: Frame, assign: list[int], ev: Events) -> None:
    s.frames.pop()
    for seat in frame["seats"]:
        got = [c for c, to in zip(frame["cards"], assign, strict=True) if to == seat]
        if not s.alive[seat] or s.revealed[seat]:
            s.white_discard.extend(got)
        elif got:
            s.hands[seat].extend(got)
            known.gained(s, seat, got, known.EVERYONE)
            ev.append(public("white_taken", seat=seat, cards=got, why=frame["why"]))


# --- opening gesture -----------------------------------------------------------------------------


@decision("gesture", rule="B-SETUP")
class _Gesture:
    """Every knight puts one white card face up on the Round Table; then they are split by agreement."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return list(frame["waiting"])

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("give", (c,)) for c in sorted(set(s.hands[seat]))] or [Action("pass")]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["waiting"].remove(seat)
        if action.kind == "give":
            frame["chosen"][seat] = action.args[0]
        if frame["waiting"]:
            return
        s.frames.pop()
        cards = []
        for i in ops.living(s):
            card = frame["chosen"][i]
            if card is not None and card in s.hands[i]:
                ops.take_card(s, i, card, ())  # the cards are shown together, not who gave which
                cards.append(card)
        start_split(s, cards, ops.living(s), s.current, "gesture", ev)

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("give", (min(s.hands[seat]),)) if s.hands[seat] else Action("pass")
