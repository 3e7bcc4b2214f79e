"""Quests (digest §6, §7): quest actions, black cards landing on quests, fights, the end of a quest and its rewards,
and the siege of Camelot. Shared rewards are split among the knights by `splits`."""

from __future__ import annotations

from collections import Counter

from engine.board import catalogue as cat
from engine.board import known, ops, splits
from engine.board.frames import Events, Frame, auto, decision
from engine.board.state import BoardState
from engine.board.views import quest_open, war_needed
from engine.core.actions import Action
from engine.core.events import private, public

# --- fight quests --------------------------------------------------------------------------------


def fight_rows(s: BoardState, quest: str) -> tuple[list[str], list[list]]:
    return (s.bk_white, s.bk_black) if quest == "black_knight" else (s.lance_white, s.lance_black)


def pattern_ok(values: list[int], quest: str) -> bool:
    """The white spots can still be completed with groups of DISTINCT values (e.g. two pairs for the Black Knight)."""
    counts = sorted(Counter(values).values(), reverse=True)
    groups = cat.FIGHT_PATTERN[quest]
    return len(counts) <= len(groups) and all(c <= g for c, g in zip(counts, groups, strict=False))


def black_value(card: str, quest: str) -> int:
    if quest == "black_knight":
        return cat.BLACK_KNIGHT_VALUE[card]
    return cat.LANCELOT_VALUE[card][0 if quest == "lancelot" else 1]


def fight_values(hand: list[str]) -> list[int]:
    return sorted({cat.FIGHT_VALUE[c] for c in hand if c in cat.FIGHT_VALUE})


def quest_actions(s: BoardState, seat: int) -> list[Action]:
    """Heroic action type B where the knight stands."""
    where, hand = s.loc[seat], s.hands[seat]
    if where == cat.CAMELOT:
        acts = [Action("siege")]
        if len(hand) < cat.ROUND_TABLE_HAND_LIMIT and (s.white_deck or s.white_discard):
            acts.insert(0, Action("draw"))
        return acts
    if where in cat.FIGHT_QUESTS:
        white, _ = fight_rows(s, where)
        played = [cat.FIGHT_VALUE[c] for c in white]
        return [Action("fight", (v,)) for v in fight_values(hand) if pattern_ok([*played, v], where)]
    if where in cat.WARS:
        return [Action("fight", (v,)) for v in fight_values(hand) if war_accepts(s, where, v)]
    if where == "excalibur":
        return [Action("excal", (c,)) for c in sorted(set(hand))]
    if where == "grail" and "grail" in hand and not s.dark_forest:
        return [Action("grail")]
    return []


def war_accepts(s: BoardState, war: str, v: int) -> bool:
    if s.config["war_any_order"]:
        played = Counter(cat.FIGHT_VALUE[c] for c in s.war_white[war])
        allowed = Counter(cat.WAR_RUN)
        if s.mordred == war:
            allowed[cat.MORDRED_EXTRA] += 1
        return played[v] < allowed[v]
    return war_needed(s, war) == v


def do_quest_action(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    where = s.loc[seat]
    if action.kind == "draw":
        k = cat.GAWAIN_DRAW if s.knight[seat] == "gawain" else cat.ROUND_TABLE_DRAW
        ops.deal_white(s, seat, k, ev, "round_table")
    elif action.kind == "siege":
        ops.push(s, {"kind": "siege", "cards": []})
    elif action.kind == "fight":
        card = cat.FIGHT[action.args[0]]
        ops.take_card(s, seat, card, known.EVERYONE)
        ev.append(public("white_played", seat=seat, quest=where, card=card))
        if where in cat.WARS:
            s.war_white[where].append(card)
            if war_needed(s, where) is None:
                end_quest(s, where, True, seat, ev)
        else:
            white, _ = fight_rows(s, where)
            white.append(card)
            if len(white) == sum(cat.FIGHT_PATTERN[where]):
                start_fight_end(s, where, seat)
    elif action.kind == "excal":
        ops.discard_card(s, seat, action.args[0], ())  # which card pushed Excalibur is not shown
        ev.append(public("excalibur_push", seat=seat))
        move_excalibur(s, 1, seat, ev)
    elif action.kind == "grail":
        ops.take_card(s, seat, "grail", known.EVERYONE)
        ev.append(public("white_played", seat=seat, quest="grail", card="grail"))
        play_grail_card(s, seat, ev)


def move_excalibur(s: BoardState, delta: int, by: int | None, ev: Events) -> None:
    s.excal_pos += delta
    ev.append(public("excalibur_moved", position=s.excal_pos, delta=delta))
    if s.excal_pos >= cat.EXCALIBUR_WIN:
        end_quest(s, "excalibur", True, by, ev)
    elif s.excal_pos <= 0:
        end_quest(s, "excalibur", False, None, ev)


def play_grail_card(s: BoardState, seat: int, ev: Events) -> None:
    if s.grail_white + len(s.grail_black) < cat.GRAIL_SPOTS:
        s.grail_white += 1
        if s.grail_white == cat.GRAIL_SPOTS:
            end_quest(s, "grail", True, seat, ev)
    else:  # full with some black: the Grail card removes the black card nearest the relic, both discarded
        s.black_discard.append(s.grail_black.pop())
        s.white_discard.append("grail")
        ev.append(public("grail_cleansed", seat=seat))


def place_despair(s: BoardState, card: str, ev: Events) -> None:
    """Despair (or Desolation played as one) on the free spot farthest from the relic. On a full quest it is not
    placed: it removes the Grail card farthest from the relic and both are discarded (seed 002 DESPAIR: "wordt de
    kaart niet op het bord gelegd"; seed 004: "la carta non viene posta sul tabellone")."""
    if s.grail_white + len(s.grail_black) >= cat.GRAIL_SPOTS:
        s.grail_white -= 1
        s.white_discard.append("grail")
        s.black_discard.append(card)
        ev.append(public("grail_lost", why=card))
        return
    s.grail_black.append(card)
    ev.append(public("black_placed", quest="grail", card=card))
    if len(s.grail_black) == cat.GRAIL_SPOTS:
        end_quest(s, "grail", False, None, ev)


def place_fight_black(s: BoardState, quest: str, card: str, down: bool, drawer: int, ev: Events) -> None:
    _, black = fight_rows(s, quest)
    black.append([card, down, drawer])
    if down:
        ev.append(public("black_placed", quest=quest, card="hidden"))
        ev.append(private("face_down_value", drawer, quest=quest, card=card))
        ops.deal_white(s, drawer, 1, ev, "face_down")
    else:
        ev.append(public("black_placed", quest=quest, card=card))
    if len(black) == cat.BLACK_SPOTS[quest]:
        start_fight_end(s, quest, None)


def add_figure(s: BoardState, war: str, card: str, ev: Events) -> None:
    s.war_black[war].append(card)
    ev.append(public("figure_added", war=war, figures=len(s.war_black[war])))
    if len(s.war_black[war]) >= cat.WAR_FIGURES:
        end_quest(s, war, False, None, ev)


def start_fight_end(s: BoardState, quest: str, by: int | None) -> None:
    """Last white or black spot filled: Sir Kay may add a card after the reveal, then the sums are compared."""
    result = {"kind": "fight_result", "quest": quest, "by": by, "bonus": 0}
    kay = [i for i in ops.present(s, quest) if s.knight[i] == "kay" and i not in s.doomed and s.hands[i]]
    if kay:
        ops.push(s, {"kind": "fight_reveal", "quest": quest}, {"kind": "kay", "seat": kay[0]}, result)
    else:
        ops.push(s, {"kind": "fight_reveal", "quest": quest}, result)


@auto("fight_reveal")
def _fight_reveal(s: BoardState, frame: Frame, ev: Events) -> None:
    _, black = fight_rows(s, frame["quest"])
    s.rng.shuffle(black)
    for row in black:
        row[1] = False
    ev.append(public("black_revealed", quest=frame["quest"], cards=[r[0] for r in black]))


@auto("fight_result")
def _fight_result(s: BoardState, frame: Frame, ev: Events) -> None:
    quest = frame["quest"]
    white, black = fight_rows(s, quest)
    here = ops.present(s, quest)
    bonus = frame["bonus"] + (1 if ops.relic_holder(s, "excalibur") in here else 0)
    w = sum(cat.FIGHT_VALUE[c] for c in white) + bonus
    b = sum(black_value(r[0], quest) for r in black)
    ev.append(public("fight", quest=quest, white=w, black=b, won=w > b))
    by = frame["by"] if frame["by"] is not None else (here[0] if here else None)
    end_quest(s, quest, w > b, by, ev)


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


# --- leaving quests, ending quests ---------------------------------------------------------------


def leave_location(s: BoardState, seat: int, to: str | None) -> None:
    """A knight leaving a solo quest before it ends discards the white cards played there (black cards stay)."""
    where = s.loc[seat]
    if where in cat.SOLO_QUESTS and quest_open(s, where):
        white, _ = fight_rows(s, where)
        s.white_discard.extend(white)
        white.clear()
    if to is not None:
        s.loc[seat] = to


def _clear_quest(s: BoardState, quest: str) -> None:
    if quest in cat.FIGHT_QUESTS:
        white, black = fight_rows(s, quest)
        s.white_discard.extend(white)
        s.black_discard.extend(r[0] for r in black)
        white.clear()
        black.clear()
        if quest != "black_knight":
            s.lance_stage = "dragon" if quest == "lancelot" else "done"
    elif quest in cat.WARS:
        s.white_discard.extend(s.war_white[quest])
        s.black_discard.extend(s.war_black[quest])
        s.war_white[quest] = []
        s.war_black[quest] = []
        if s.mordred == quest:
            s.mordred = None
            s.black_discard.append("mordred")
    elif quest == "excalibur":
        s.excal_done = True
    elif quest == "grail":
        s.white_discard.extend(["grail"] * s.grail_white)
        s.black_discard.extend(s.grail_black)
        s.grail_white = 0
        s.grail_black = []
        s.grail_done = True
        if s.dark_forest:
            s.dark_forest = False
            s.black_discard.append("dark_forest")


def end_quest(s: BoardState, quest: str, won: bool, by: int | None, ev: Events) -> None:
    """Knights return to Camelot, cards are discarded, then victory or defeat applies once (digest §6)."""
    here = ops.present(s, quest)
    for i in here:
        s.loc[i] = cat.CAMELOT
    _clear_quest(s, quest)
    outcome = cat.REWARDS[quest]["win" if won else "lose"]
    color = "white" if won else "black"
    ev.append(public("quest_over", quest=quest, won=won, knights=here, by=by))
    ops.add_swords(s, color, outcome["swords"], ev, quest)
    if s.heroism == quest:
        s.heroism = None
        s.white_discard.append("heroism")
        ops.add_swords(s, color, 1, ev, "heroism")
    if not won and s.mists:
        ops.add_swords(s, "black", 1, ev, "mists_of_avalon")
    if outcome.get("engines"):
        ops.add_engines(s, outcome["engines"], ev, quest)
    for i in here:
        bonus = 1 if won and s.knight[i] == "palamedes" else 0
        ops.change_life(s, i, outcome["life"] + bonus, ev, quest)
    if not won:
        return
    relic = outcome.get("relic")
    if relic and by is not None and s.alive[by] and not s.revealed[by]:
        if by not in s.doomed:
            s.relics[by].append(relic)
            ev.append(public("relic_won", seat=by, relic=relic))
        elif relic == "excalibur":  # B-LIFE (seed 002 FAQ): it goes to whoever lets him drink from the Grail
            s.turn["excalibur_to_rescuer"] = by
    if s.vivien:
        s.vivien = False
        s.black_discard.append("vivien")
    if s.dark_forest and quest != "grail":
        s.dark_forest = False
        s.black_discard.append("dark_forest")
    worthy = [i for i in here if i not in s.doomed]
    if s.config["squires"]:
        _knight_a_squire(s, worthy, by, ev)
    if outcome.get("draw"):
        cards = ops.draw_white(s, outcome["draw"])
        if worthy:
            ops.give_white(s, worthy[0], cards, ev, quest)
        else:
            s.white_discard.extend(cards)
    elif outcome.get("share"):
        proposer = by if by in worthy else (worthy[0] if worthy else None)
        absent = by is not None and by not in here and s.alive[by] and not s.revealed[by] and by not in s.doomed
        chooser = by if absent else None  # (the Lady of the Lake's knight won it from afar)
        splits.start_split(s, ops.draw_white(s, outcome["share"]), worthy, proposer, quest, ev, chooser)


def _knight_a_squire(s: BoardState, worthy: list[int], by: int | None, ev: Events) -> None:
    squires = [i for i in worthy if s.knight[i] is None]
    if not squires:
        return
    seat = by if by in squires else squires[0]
    free = [k for k in cat.KNIGHTS if k not in s.knight]
    if free:
        s.knight[seat] = free[s.rng.randrange(len(free))]
        ev.append(public("knighted", seat=seat, knight=s.knight[seat]))


# --- the siege of Camelot --------------------------------------------------------------------------


@decision("siege", rule="B-CAMELOT", turn=True)
class _Siege:
    """Play any number of fight cards, then roll the d8: the sum (+1 with Excalibur) must beat the roll."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("roll")] + [Action("add", (v,)) for v in fight_values(s.hands[seat])]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "add":
            card = cat.FIGHT[action.args[0]]
            ops.take_card(s, seat, card, known.EVERYONE)
            frame["cards"].append(card)
            ev.append(public("white_played", seat=seat, quest="siege", card=card))
            return
        s.frames.pop()
        roll = ops.roll_die(s)
        ev.append(public("siege_roll", seat=seat, roll=roll, cards=list(frame["cards"])))
        result = {"kind": "siege_result", "cards": frame["cards"], "roll": roll, "bonus": 0}
        if s.knight[seat] == "kay" and fight_values(s.hands[seat]) and seat not in s.doomed:
            ops.push(s, {"kind": "kay", "seat": seat}, result)
        else:
            ops.push(s, result)


@auto("siege_result")
def _siege_result(s: BoardState, frame: Frame, ev: Events) -> None:
    seat = s.current
    total = sum(cat.FIGHT_VALUE[c] for c in frame["cards"]) + frame["bonus"]
    total += 1 if ops.relic_holder(s, "excalibur") == seat else 0
    s.white_discard.extend(frame["cards"])
    won = total > frame["roll"]
    ev.append(public("siege_fight", seat=seat, total=total, roll=frame["roll"], won=won))
    if won:
        if s.engines:
            s.engines -= 1
            ev.append(public("siege_engines", count=-1, total=s.engines, why="siege"))
    else:
        ops.change_life(s, seat, -1, ev, "siege")

