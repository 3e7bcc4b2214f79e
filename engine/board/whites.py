"""Special white cards (digest §11.1), healing, accusations and the Traitor's reveal (§9), and the knights'
powers that need a decision of their own (Arthur's exchange, Percival's look)."""

from __future__ import annotations

from collections import Counter

from engine.board import catalogue as cat
from engine.board import known, ops, splits
from engine.board.frames import Events, Frame, decision
from engine.board.quests import excalibur, fight, rewards
from engine.board.state import BoardState
from engine.board.views import quest_open
from engine.core.actions import Action
from engine.core.events import private, public


def _merlin_targets(s: BoardState) -> list[str]:
    targets = []
    if s.engines:
        targets.append("engine")
    if s.bk_black:
        targets.append("black_knight")
    if s.lance_black:
        targets.append(s.lance_stage)
    if s.grail_black and s.grail_black[-1] == "despair":
        targets.append("grail")
    targets += [w for w in cat.WARS if s.war_black[w]]
    return targets


def special_actions(s: BoardState, seat: int) -> list[Action]:
    """Heroic action type C: every special white card the seat may play now, with its choices."""
    acts: list[Action] = []
    others = [i for i in ops.living(s) if i != seat]
    for card in sorted({c for c in s.hands[seat] if c in cat.SPECIAL_WHITE}):
        if card == "merlin":
            if not s.vivien:
                acts += [Action("play", ("merlin", t)) for t in _merlin_targets(s)]
        elif card in ("fate", "piety", "reinforcements"):
            acts.append(Action("play", (card, "self" if card != "fate" else "draw")))
            if card != "fate":  # Fate's other use, the Traitor's unmasking, is a free action (see turns)
                acts.append(Action("play", (card, "others")))
        elif card == "heroism":
            acts += [Action("play", ("heroism", q)) for q in cat.QUESTS if quest_open(s, q)]
        elif card == "messenger":
            acts += [Action("play", ("messenger", i)) for i in others]
        elif card == "clairvoyance":
            if s.black_deck:
                acts.append(Action("play", (card,)))
        else:  # convocation, lady_of_the_lake
            acts.append(Action("play", (card,)))
    return acts


def heal_actions(s: BoardState, seat: int) -> list[Action]:
    return [Action("heal", (c,)) for c, k in sorted(Counter(s.hands[seat]).items()) if k >= 3]


def accuse_actions(s: BoardState, seat: int) -> list[Action]:
    if s.has_accused[seat] or not ops.accusations_open(s):
        return []
    return [Action("accuse", (i,)) for i in ops.living(s) if i != seat]


FATE_REVEAL = Action("play", ("fate", "reveal"))


def standing_actions(s: BoardState, seat: int) -> list[Action]:
    """Fate lets a Traitor who knows his loyalty unmask himself at any moment of his own turn, asked or not, also
    while others decide (B-TRAITOR, seed 002 FATE: "mag de verrader deze kaart in zijn beurt spelen"; not in another
    knight's turn); a dying knight (at 0 life, awaiting the Grail) can no longer act."""
    if (
        seat == s.current and s.turns and s.loyalty[seat] == "traitor" and "fate" in s.hands[seat]
        and s.loyalty_seen[seat] and not s.revealed[seat] and s.alive[seat] and seat not in s.doomed
    ):
        return [FATE_REVEAL]
    return []


def play_special(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    card, arg = action.args[0], (action.args[1] if len(action.args) > 1 else None)
    ops.take_card(s, seat, card, known.EVERYONE)
    ev.append(public("special_played", seat=seat, card=card, arg=arg))
    if card != "heroism":
        s.white_discard.append(card)
    if card == "merlin":
        _merlin(s, arg, ev)
    elif card == "fate":
        if arg == "reveal":
            reveal_traitor(s, seat, ev, "fate")
            need = [0] * s.n
            for i in ops.living(s):
                need[i] = min(cat.FATE_REVEAL_DISCARD, len(s.hands[i]))
            if any(need):
                ops.push(s, {"kind": "discard", "need": need, "waiting": [i for i in range(s.n) if need[i]]})
        else:
            for i in ops.living(s):
                ops.deal_white(s, i, 1, ev, "fate")
    elif card == "piety":
        if arg == "self":
            ops.change_life(s, seat, cat.PIETY_SELF, ev, card)
        else:
            for i in ops.living(s):
                if i != seat:
                    ops.change_life(s, i, 1, ev, card)
    elif card == "reinforcements":
        if arg == "self":
            ops.deal_white(s, seat, cat.REINFORCEMENTS_DRAW, ev, card)
        else:
            for i in ops.living(s):
                if i != seat:
                    ops.deal_white(s, i, 1, ev, card)
    elif card == "heroism":
        s.heroism = arg
    elif card == "lady_of_the_lake":
        if quest_open(s, "excalibur"):
            excalibur.move(s, 1, seat, ev)
        else:
            ops.change_life(s, seat, cat.LADY_LIFE, ev, card)
    elif card == "messenger":
        ops.push(s, {"kind": "messenger", "target": arg, "given": 0})
    elif card == "clairvoyance":
        look = s.black_deck[-cat.CLAIRVOYANCE_LOOK:][::-1]
        del s.black_deck[-len(look):]
        ev.append(private("black_seen", seat, cards=list(look), why=card))
        ops.push(s, {"kind": "clairvoyance", "cards": look, "chosen": []})
    elif card == "convocation":
        away = [i for i in ops.living(s) if s.loc[i] != cat.CAMELOT]
        ops.push(s, {"kind": "convocation", "waiting": away, "going": []})
        if not away:
            _convocation_draw(s, ev)


def _merlin(s: BoardState, target: str, ev: Events) -> None:
    if target == "engine":
        s.engines -= 1
        ev.append(public("siege_engines", count=-1, total=s.engines, why="merlin"))
    elif target in cat.FIGHT_QUESTS:
        _, black = fight.fight_rows(s, target)
        s.black_discard.append(black.pop()[0])
    elif target == "grail":
        s.black_discard.append(s.grail_black.pop())
    else:
        s.black_discard.append(s.war_black[target].pop())
    ev.append(public("merlin", target=target))


def heal(s: BoardState, seat: int, card: str, ev: Events) -> None:
    """Three identical cards discarded face down (seed 002 FAQ: "met afbeelding naar beneden"): the table learns that
    he healed, not with which cards."""
    for _ in range(3):
        ops.discard_card(s, seat, card, ())
    ev.append(public("healed", seat=seat))
    ops.change_life(s, seat, 1, ev, "heal")


def accuse(s: BoardState, seat: int, target: int, ev: Events) -> None:
    s.has_accused[seat] = True
    traitor = s.loyalty[target] == "traitor"
    ev.append(public("accused", seat=seat, target=target, traitor=traitor))
    if traitor:
        ops.add_swords(s, "white", 1, ev, "accusation")
        reveal_traitor(s, target, ev, "accused")
    else:
        s.known_loyal[target] = True
        ops.flip_white_sword(s, ev, "false_accusation")


def reveal_traitor(s: BoardState, seat: int, ev: Events, why: str) -> None:
    """The revealed Traitor discards his white cards, leaves the board, loses Excalibur and the Grail. A question
    he was asked meanwhile is answered for him with its safe default (see `turns.advance`), as for the dead."""
    rewards.leave_location(s, seat, None)
    s.white_discard.extend(s.hands[seat])
    s.hands[seat] = []
    known.cleared(s, seat)
    for relic in ("excalibur", "grail"):
        ops.remove_relic(s, seat, relic, ev, "traitor")
    s.revealed[seat] = True
    s.life[seat] = 0
    if seat in s.doomed:
        s.doomed.remove(seat)
    s.loyalty_seen[seat] = True
    ev.append(public("traitor_revealed", seat=seat, why=why))


def _convocation_draw(s: BoardState, ev: Events) -> None:
    here = ops.present(s, cat.CAMELOT)
    proposer = s.current if s.current in here else (here[0] if here else None)
    splits.start_split(s, ops.draw_white(s, len(here)), here, proposer, "convocation", ev)


@decision("convocation", rule="B-TURN")
class _Convocation:
    """Every knight away from Camelot may return; then one white card per knight in Camelot is shared."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return list(frame["waiting"])

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("stay"), Action("return")]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["waiting"].remove(seat)
        if action.kind == "return":
            frame["going"].append(seat)
        if frame["waiting"]:
            return
        s.frames.pop()
        for i in frame["going"]:
            if s.alive[i] and not s.revealed[i]:
                rewards.leave_location(s, i, cat.CAMELOT)
                ev.append(public("moved", seat=i, to=cat.CAMELOT, why="convocation"))
        _convocation_draw(s, ev)

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("stay")


@decision("messenger", rule="B-TURN", turn=True)
class _Messenger:
    """Give up to 3 white cards to the chosen knight, one at a time (it lapses if he leaves the board)."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        target = frame["target"]
        return [s.current] if s.alive[target] and not s.revealed[target] else []

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("done")] + [Action("give", (c,)) for c in sorted(set(s.hands[seat]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "give":
            card, target = action.args[0], frame["target"]
            ops.take_card(s, seat, card, (target,))
            s.hands[target].append(card)
            known.gained(s, target, [card], (seat,))
            frame["given"] += 1
            ev.append(public("white_given", seat=seat, to=target, count=1))
            ev.append(private("white_received", [seat, target], seat=seat, to=target, card=card))
        if action.kind == "done" or frame["given"] >= cat.MESSENGER_MAX or not s.hands[seat]:
            s.frames.pop()


@decision("clairvoyance", rule="B-TURN", turn=True)
class _Clairvoyance:
    """Put the looked-at black cards back in the order of choice: pick the next card from the top each time."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("top", (i,)) for i in range(len(frame["cards"]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        frame["chosen"].append(frame["cards"].pop(action.args[0]))
        if len(frame["cards"]) > 1:
            return
        s.frames.pop()
        order = frame["chosen"] + frame["cards"]
        s.black_deck.extend(reversed(order))
        for i in range(s.n):
            s.peeks[i] = []
        s.peeks[seat] = list(order)
        ev.append(public("black_reordered", seat=seat, count=len(order)))


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
