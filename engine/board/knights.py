"""The knights' powers (digest §8, B-KNIGHT) beyond a plain bonus: the free ones (King Arthur's exchange, Sir
Galahad's special card, Sir Tristan's move from Camelot), Sir Kay's card at a fight's end, Sir Percival's look at
the black deck. Gawain's and Palamedes' bonuses are where they apply (`siege`, `quests.rewards`)."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import known, ops, traitor, turns, white_cards
from engine.board.frames import Events, Frame, decision
from engine.board.quests.fight import fight_values
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import private, public


@decision("kay", rule="B-KNIGHT")
class _Kay:
    """Sir Kay adds one fight card of any value at a fight's end (even out of turn), or passes."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [frame["seat"]]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("pass")] + [Action("kay", (v,)) for v in fight_values(s.hands[seat])]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        if action.kind == "kay":
            card = cat.FIGHT[action.args[0]]
            ops.discard_card(s, seat, card, known.EVERYONE)
            s.frames[-1]["bonus"] += action.args[0]
            ev.append(public("kay_card", seat=seat, card=card))

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("pass")


def tristan_free(s: BoardState, seat: int) -> bool:
    return s.knight[seat] == "tristan" and not s.turn["tristan"] and s.loc[seat] == cat.CAMELOT


def _galahad_free(s: BoardState, seat: int) -> bool:
    return s.knight[seat] == "galahad" and not s.turn["galahad"] and not s.turn["special"]


def free_actions(s: BoardState, seat: int) -> list[Action]:
    """Powers that cost no heroic action: Arthur's exchange, Galahad's special card (`galahad:<card>…`, optional:
    B-KNIGHT, seed 002 "mag je jouw speciale kracht gebruiken"), Tristan's move from Camelot,
    and the Traitor's unmasking with Fate (a standing action, applied by `BoardGame.apply`; listed here too because
    it is his own decision)."""
    acts = traitor.standing_actions(s, seat)
    if s.knight[seat] == "arthur" and not s.turn["arthur"] and s.hands[seat]:
        mine = sorted(set(s.hands[seat]))
        for other in ops.living(s):
            if other != seat and s.hands[other]:
                acts += [Action("arthur", (other, c)) for c in mine]
    if _galahad_free(s, seat):  # his power is optional: the same cards stay playable as his heroic action
        acts += [Action("galahad", a.args) for a in white_cards.special_actions(s, seat)]
    if tristan_free(s, seat):
        acts += [a for a in turns.moves(s, seat) if a.args[0] != cat.CAMELOT]
    return acts


def do_free(s: BoardState, seat: int, action: Action, ev: Events) -> bool:
    """Apply `action` as a free power if it is one; False when it is a normal heroic action."""
    if action.kind == "arthur":
        s.turn["arthur"] = True
        ev.append(public("exchange_asked", seat=seat, target=action.args[0]))
        ops.push(s, {"kind": "arthur", "seat": action.args[0], "card": action.args[1]})
        return True
    if action.kind == "galahad":
        s.turn["galahad"] = s.turn["special"] = True
        white_cards.play_special(s, seat, Action("play", action.args), ev)
        return True
    if action.kind == "move" and tristan_free(s, seat):
        s.turn["tristan"] = True
        turns.move(s, seat, action.args[0], ev)
        return True
    return False


@decision("percival", rule="B-KNIGHT", turn=True)
class _PercivalBury:
    """Percival with Lancelot's Armor saw two black cards: one goes under the deck, the other back on top."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("bury", (i,)) for i in range(len(frame["cards"]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        cards = frame["cards"]
        under = cards.pop(action.args[0])
        s.black_deck.insert(0, under)
        s.black_deck.extend(cards)
        for i in range(s.n):
            if s.peeks[i]:
                s.peeks[i] = []
        s.peeks[seat] = list(cards)
        ev.append(public("black_buried", seat=seat))


def percival_look(s: BoardState, seat: int, ev: Events) -> None:
    k = 2 if "armor" in s.relics[seat] else 1
    look = s.black_deck[-k:][::-1]
    ev.append(private("black_seen", seat, cards=list(look), why="percival"))
    if k == 2 and len(look) == 2:
        del s.black_deck[-2:]
        ops.push(s, {"kind": "percival", "cards": look})
    else:
        s.peeks[seat] = list(look)


@decision("arthur", rule="B-KNIGHT")
class _ArthurGive:
    """The knight King Arthur chose gives one white card back, face down, without seeing Arthur's."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        # lapses if Arthur has left the board: dead or unmasked, his hand (the card he offered too) is discarded
        return [frame["seat"]] if frame["card"] in s.hands[s.current] else []

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("give", (c,)) for c in sorted(set(s.hands[seat]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        arthur, mine, theirs = s.current, frame["card"], action.args[0]
        ops.take_card(s, arthur, mine, (seat,))
        ops.take_card(s, seat, theirs, (arthur,))
        s.hands[arthur].append(theirs)
        s.hands[seat].append(mine)
        known.gained(s, arthur, [theirs], (seat,))
        known.gained(s, seat, [mine], (arthur,))
        ev.append(public("exchanged", seat=arthur, with_=seat))
        ev.append(private("exchange_cards", [arthur, seat], gave=mine, got=theirs, seat=arthur, other=seat))

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        hand = s.hands[frame["seat"]]
        return Action("give", (min(hand),)) if hand else Action("pass")
