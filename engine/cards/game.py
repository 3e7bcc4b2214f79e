"""Shadows over Camelot: The Card Game behind the shared `engine.core.Game` protocol.

Config: `players` 1–7, `expert` (the Knights variant), `first` (starting seat, default 0; the seed says the
youngest starts), and the test-only `stack` that scripts any situation of the rulebook (the deck, the discards,
the Threat pile with face-down cards, loyalties, accusations made, swords, the silence and Morgan #1/#2 in force,
Merlin #4's token, Knight cards): see `engine.cards.stack` for its exact keys.

Flow: `state.phase` says who decides what (see `PHASES`). Out-of-turn decisions are response windows that ask
every seat who could act (Arthur: every other player; Gawain and Percival: everyone), so asking leaks nothing;
a window closes when one seat plays its card or all pass. Windows open only in the expert variant and only
when some asked seat holds a Knight card (how many each holds is public). Games that reach
`catalogue.TURN_CAP` turns end with result reason `turn_cap` and no winner (pathological bot play only).

Choices the seed leaves open (besides the digest's, kept in `catalogue`): a seat whose loyalty was shown
cannot be accused again nor looked at with Galahad; Vivien's card may go to any other player, accused or not,
and both decide keep-or-swap in secret, so a shown loyalty stays what everybody saw: a revealed Traitor keeps
his draw-two turns and is not revealed again at the end whatever he chose, and the result names the cards held;
the Morgan #2 count is the number of cards laid on the Threat pile since that Morgan (listens and a revealed
Traitor's placements), announced as the player says it (the seed names no penalty for a wrong count);
a revealed Traitor's placed card is face up even under Morgan #1 (he does not listen); silence ends when a
quest is declared, even if Arthur then forces a Listen, and with the game (Morgan #1/#2 too); Merlin #4
played by Gawain lays its token for the next resolution; at most one Gawain per resolution; Gawain's two
unplayed cards are discarded face down; Percival at an accusation is played before the loyalty is shown, at
the final reveal after it; Arthur and Gawain cannot be played when no Rumor card can be drawn; one Tristan
per turn (a second shows nothing new).

Events (`Event.kind` → data). Public: `turn` {seat, turn}; `reveal` {seat, card}; `silence_on` {seat, card};
`silence_off` {reason: "merlin" | "quest" | "end"}; `morgan2_count` {seat, count}; `morgan1_announce` {seat, quest,
value}; `quest_declared` {seat, quest}; `quest_sorted` {seat, quest, stacks, characters, removed, totals};
`quest_result` {seat, quest, outcome: "success" | "early" | "late", totals, swords: [[quest, color, n]]}; `accuse`
{seat, target}; `loyalty_revealed` {seat, loyalty, swords, percival}; `vivien` {seat}; `vivien_give` {seat, target};
`vivien_decided` {seat}; `merlin4_token` {seat}; `merlin4_token_used` {seat, quest}; `knight_played` {seat, card[,
target]}; `knight_drawn` {seat}; `gawain_card` {seat, card}; `morgan_shuffled_in` {aside}; `reshuffle` {count};
`final_reveal` {loyalties: [[seat, loyalty]]}; `swords_flipped` {count}; `game_over` {winner, reason, loyalty,
swords, turns}.
Private to one seat: `morgan1_look` {card}; `traitor_draw` {cards}; `gawain_draw` {cards}; `tristan_look` {deck};
`galahad_look` {target, loyalty}; `knight_card` {card}; `vivien_card` {loyalty}; `merlin4_quest` {quest}.

`apply` validates the action against `legal_actions` before touching anything, then mutates the state in
place and returns it: an `IllegalAction` leaves the state unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots.cards_heuristic import CardsHeuristicBot
from engine.cards import resolve
from engine.cards.catalogue import (
    ACCUSE_MIN_SWORDS,
    ACCUSE_SWORDS,
    CARDS,
    COUNT_CHOICES,
    END_SWORDS,
    GAWAIN_DRAW,
    LOYAL,
    PERCIVAL_SWORDS,
    QUESTS,
    SWORDS_TOTAL,
    TRAITOR,
    TURN_CAP,
)
from engine.cards.hidden import resample
from engine.cards.setup import new_state
from engine.cards.state import PUBLIC, State, snapshot
from engine.cards.views import public_view, quest_options, seat_view
from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.events import Event, private, public
from engine.core.game import Game
from engine.core.prompts import RESPONSE, TURN, Prompt

PHASES: dict[str, tuple[str, str, bool]] = {
    # phase: (prompt kind, timing, asks every seat of `state.window` rather than `state.actor`)
    "turn": ("turn", TURN, False),
    "traitor": ("traitor_place", TURN, False),
    "count": ("morgan2_count", TURN, False),
    "announce": ("morgan1_announce", TURN, False),
    "token": ("merlin4_token", TURN, False),
    "vivien_give": ("vivien_give", TURN, False),
    "vivien_keep": ("vivien_keep", RESPONSE, True),
    "arthur": ("arthur", RESPONSE, True),
    "gawain": ("gawain", RESPONSE, True),
    "gawain_pick": ("gawain_pick", RESPONSE, False),
    "percival": ("percival", RESPONSE, True),
}

LISTEN = Action("listen")
PASS = Action("pass")
KEEP, SWAP = Action("keep"), Action("swap")
TRISTAN = Action("tristan")
PLAY = {k: Action(k) for k in ("arthur", "gawain", "percival")}
QUEST = {q: Action("quest", (q,)) for q in QUESTS}
TOKEN = [Action("token", (q,)) for q in QUESTS]
ANNOUNCE = [Action("announce", (q, v)) for q in QUESTS for v in ("q", 2, 3, 4, 5)]
ACCUSE = [Action("accuse", (t,)) for t in range(7)]
GALAHAD = [Action("galahad", (t,)) for t in range(7)]
GIVE = [Action("give", (t,)) for t in range(7)]
PLACE = [Action("place", (i,)) for i in range(2)]
PICK = [Action("pick", (i,)) for i in range(GAWAIN_DRAW)]

TURN_KINDS = frozenset({"listen", "quest", "accuse", "tristan", "galahad"})
"""What a player may do on his own turn; another kind then breaks C-TURN, a wrong one of these its own rule."""
RULE_OF_KIND = {
    "listen": "C-LISTEN", "quest": "C-QUEST", "accuse": "C-ACCUSE", "place": "C-TRAITOR", "count": "C-SILENCE",
    "announce": "C-SILENCE", "token": "C-CHAR", "give": "C-CHAR", "keep": "C-CHAR", "swap": "C-CHAR",
    "tristan": "C-KNIGHTS", "galahad": "C-KNIGHTS", "arthur": "C-KNIGHTS", "gawain": "C-KNIGHTS",
    "percival": "C-KNIGHTS", "pick": "C-KNIGHTS",
}


class CardGame(Game):
    name = "cards"
    rule_prefix = "C"
    min_players = 1
    max_players = 7

    # --- protocol ----------------------------------------------------------------------------------
    def new_game(self, config: dict[str, Any], seed: int) -> State:
        return new_state(config, seed)

    def copy(self, state: State) -> State:
        return state.copy()

    def snapshot(self, state: State) -> dict[str, Any]:
        return snapshot(state)

    def result(self, state: State) -> dict[str, Any] | None:
        return state.result

    def pending(self, s: State) -> list[Prompt]:
        if s.result is not None:
            return []
        kind, timing, multi = PHASES[s.phase]
        if multi:
            return [Prompt(seat, kind, timing) for seat in s.window]
        return [Prompt(s.actor, kind, timing)]

    def legal_actions(self, s: State, seat: int) -> list[Action]:
        if s.result is not None:
            return []
        phase = s.phase
        if phase == "turn":
            return self._turn_actions(s, seat) if seat == s.current else []
        multi = PHASES[phase][2]
        if (seat not in s.window) if multi else (seat != s.actor):
            return []
        if phase == "traitor":
            return PLACE[: len(s.traitor_hand)]
        if phase == "count":
            return [Action("count", (i,)) for i in range(1, max(COUNT_CHOICES, s.morgan2_count + 1) + 1)]
        if phase == "announce":
            return list(ANNOUNCE)
        if phase == "token":
            return list(TOKEN)
        if phase == "vivien_give":
            return [GIVE[t] for t in range(s.n) if t != seat]
        if phase == "vivien_keep":
            return [KEEP, SWAP]
        if phase == "gawain_pick":
            picks = [PICK[i] for i, c in enumerate(s.gawain_hand) if CARDS[c].kind != "morgan"]
            return picks or [PASS]
        card = phase  # arthur, gawain, percival windows
        if card in s.knights[seat] and (card == "percival" or s.deck or s.discard):
            return [PLAY[card], PASS]
        return [PASS]

    def _turn_actions(self, s: State, seat: int) -> list[Action]:
        acts = [LISTEN] if (s.deck or s.discard) else []
        for q in quest_options(s):
            acts.append(QUEST[q])
        revealed = s.revealed
        if not s.solo and s.accused[seat] < 0 and s.white + s.black >= ACCUSE_MIN_SWORDS:
            acts += [ACCUSE[t] for t in range(s.n) if t != seat and not revealed[t]]
        if s.expert:
            hand = s.knights[seat]
            if "tristan" in hand and not s.tristan_used:
                acts.append(TRISTAN)
            if "galahad" in hand and not s.solo:
                acts += [GALAHAD[t] for t in range(s.n) if t != seat and not revealed[t]]
        return acts

    def apply(self, s: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if s.result is not None:
            raise IllegalAction("C-END", "the game is over")
        legal = self.legal_actions(s, seat)
        if action not in legal:
            if not legal:
                raise IllegalAction("C-TURN", "this seat has nothing to decide now")
            kind = action.kind
            known = kind in TURN_KINDS if s.phase == "turn" else kind == s.phase or any(a.kind == kind for a in legal)
            rule = RULE_OF_KIND.get(kind, "C-TURN") if known else "C-TURN"
            raise IllegalAction(rule, f"{action.encode()} is not legal now")
        ev: list[Event] = []
        getattr(self, "_do_" + action.kind)(s, seat, action.args, ev)
        return s, ev

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        out = public_view(s, self.pending(s), s.result)
        if seat is not None:
            out["you"] = seat_view(s, seat)
        return out

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        return resample(state, seat, rng)

    def timeout_action(self, state: State, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("C-TURN", "this seat has nothing to decide now")
        if PHASES[state.phase][1] == RESPONSE:
            for safe in (PASS, KEEP):
                if safe in legal:
                    return safe
            return legal[0]
        return CardsHeuristicBot(as_loyal=True).choose(self, state, seat, random.Random(state.turn * 7919 + seat))

    # --- the three actions (C-TURN) ------------------------------------------------------------------
    def _do_listen(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        if s.morgan2:
            s.phase, s.actor = "count", seat
            return
        self._listen_draw(s, seat, ev)

    def _do_count(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        ev.append(public("morgan2_count", seat=seat, count=args[0]))
        self._listen_draw(s, seat, ev)

    def _listen_draw(self, s: State, seat: int, ev: list[Event]) -> None:
        """C-LISTEN: reveal the top Rumor card onto the Threat pile (Morgan #1: look, announce, face down)."""
        card = self._draw(s, ev)
        if s.morgan1 and CARDS[card].kind == "quest":
            s.held, s.held_seen = card, self._seen_by(s, seat)
            s.phase, s.actor = "announce", seat
            ev.append(private("morgan1_look", seat, card=card))
            return
        self._push(s, card, PUBLIC)
        self._reveal(s, card, seat, "turn", ev)

    def _do_announce(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        card, s.held = s.held, None
        self._push(s, card, s.held_seen)
        s.announced[-1] = (seat, args[0], args[1])
        ev.append(public("morgan1_announce", seat=seat, quest=args[0], value=args[1]))
        self._next_turn(s, ev)

    def _do_quest(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        """C-QUEST: declaring a quest ends the silence; Arthur may still force a Listen instead."""
        quest = args[0]
        ev.append(public("quest_declared", seat=seat, quest=quest))
        self._silence_off(s, "quest", ev)
        others = [t for t in self._order(s, seat) if t != seat]
        if s.expert and any(s.knights[t] for t in others):
            s.quest = quest
            self._open(s, "arthur", others)
            return
        self._start_resolution(s, seat, quest, ev)

    def _do_accuse(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        """C-ACCUSE: the accused reveals loyalty (Percival's window first, in the expert variant)."""
        target = args[0]
        s.accused[seat] = target
        ev.append(public("accuse", seat=seat, target=target))
        if s.expert and any(s.knights):
            s.accusing = target
            self._open(s, "percival", self._order(s, seat))
            return
        self._accuse_reveal(s, target, False, ev)

    def _accuse_reveal(self, s: State, target: int, percival: bool, ev: list[Event]) -> None:
        loyalty = s.revealed[target] = s.loy[target]
        s.loy_public.add(target)
        count = PERCIVAL_SWORDS if percival else ACCUSE_SWORDS
        placed = self._place(s, "white" if loyalty == TRAITOR else "black", count)
        s.accusations.append((s.current, target, loyalty, placed))
        ev.append(public("loyalty_revealed", seat=target, loyalty=loyalty, swords=placed, percival=percival))
        self._end_check(s, "turn", ev)

    def _do_place(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        """C-TRAITOR: the revealed Traitor puts one drawn card face up and discards the other face down."""
        hand, s.traitor_hand = s.traitor_hand, []
        masks, s.traitor_seen = s.traitor_seen, []
        card = hand.pop(args[0])
        masks.pop(args[0])
        self._discard_hidden(s, hand, masks)
        self._push(s, card, PUBLIC)
        self._reveal(s, card, seat, "turn", ev)

    # --- characters (C-CHAR, C-SILENCE) --------------------------------------------------------------
    def _reveal(self, s: State, card: str, seat: int, after: str, ev: list[Event]) -> None:
        """A card laid face up: Morgan starts the silence, Merlin ends it, Vivien and Merlin #4 ask."""
        ev.append(public("reveal", seat=seat, card=card))
        c = CARDS[card]
        if c.kind == "morgan":
            if not s.silence:
                s.silence = True
                ev.append(public("silence_on", seat=seat, card=card))
            if c.number == 1:
                s.morgan1 = True
            elif c.number == 2:
                s.morgan2, s.morgan2_count = True, 0
        elif c.kind == "merlin":
            self._merlin_revealed(s, ev)
            if c.number == 4:
                s.phase, s.actor, s.after = "token", seat, after
                return
        elif c.kind == "vivien" and self._start_vivien(s, seat, after, ev):
            return
        self._continue(s, after, ev)

    def _merlin_revealed(self, s: State, ev: list[Event]) -> None:
        self._silence_off(s, "merlin", ev)
        s.morgan1 = s.morgan2 = False

    def _silence_off(self, s: State, reason: str, ev: list[Event]) -> None:
        if s.silence:
            s.silence = False
            ev.append(public("silence_off", reason=reason))

    def _do_token(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        s.token, s.token_by = args[0], seat
        ev.append(public("merlin4_token", seat=seat))
        ev.append(private("merlin4_quest", seat, quest=args[0]))
        self._continue(s, s.after, ev)

    def _start_vivien(self, s: State, seat: int, after: str, ev: list[Event]) -> bool:
        """Vivien: take one middle Loyalty card, give the other to any player; True unless solo (nothing to do)."""
        if s.solo:
            return False
        ev.append(public("vivien", seat=seat))
        s.vivien = {"by": seat, "after": after, "slots": {}}
        s.after = after
        s.phase, s.actor = "vivien_give", seat
        return True

    def _do_give(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        """Both then decide keep-or-swap in secret, an accused one too: nobody knows their four cards any more."""
        ev.append(public("vivien_give", seat=seat, target=args[0]))
        n = s.n
        slots = {seat: n, args[0]: n + 1}
        touched = set(slots) | {n, n + 1}
        s.loy_public -= touched
        for known in s.known:
            for slot in touched:
                known.pop(slot, None)
        for who, slot in slots.items():
            s.known[who][slot] = s.loy[slot]
            ev.append(private("vivien_card", who, loyalty=s.loy[slot]))
        s.vivien["slots"] = slots
        s.window = list(slots)
        s.phase = "vivien_keep"

    def _do_keep(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        self._vivien_decided(s, seat, ev)

    def _do_swap(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        slot = s.vivien["slots"][seat]
        s.loy[seat], s.loy[slot] = s.loy[slot], s.loy[seat]
        s.known[seat][slot] = s.loy[slot]
        self._vivien_decided(s, seat, ev)

    def _vivien_decided(self, s: State, seat: int, ev: list[Event]) -> None:
        s.window.remove(seat)
        ev.append(public("vivien_decided", seat=seat))
        if not s.window:
            s.vivien = None
            self._continue(s, s.after, ev)

    # --- quest resolution (C-RESOLVE) ----------------------------------------------------------------
    def _start_resolution(self, s: State, seat: int, quest: str, ev: list[Event]) -> None:
        pile = s.threat
        if any(mask != PUBLIC for mask in s.threat_seen):
            s.rng.shuffle(pile)  # Morgan #1: shuffle the Threat pile before resolving
        s.threat, s.threat_seen, s.announced = [], [], []
        stacks, chars = resolve.sort_pile(pile)
        res: dict[str, Any] = {"main": quest, "by": seat, "stacks": stacks, "chars": chars, "removed": []}
        for cid in chars:
            if CARDS[cid].kind == "merlin":
                resolve.apply_merlin(res, cid)
        if s.token is not None:
            ev.append(public("merlin4_token_used", seat=s.token_by, quest=s.token))
            resolve.remove_highest(stacks, s.token, res["removed"])
            s.token, s.token_by = None, -1
        res["totals"] = resolve.totals(stacks, chars)
        s.res = res
        ev.append(public("quest_sorted", seat=seat, quest=quest, stacks={q: list(c) for q, c in stacks.items()},
                         characters=list(chars), removed=list(res["removed"]), totals=dict(res["totals"])))
        if s.expert and any(s.knights):
            self._open(s, "gawain", self._order(s, seat))
            return
        self._finish_resolution(s, ev)

    def _finish_resolution(self, s: State, ev: list[Event]) -> None:
        res = s.res
        result, swords = resolve.outcome(res)
        placed = [(q, color, self._place(s, color, count)) for q, color, count in swords]
        main_total = res["totals"].get(res["main"], 0)
        ev.append(public("quest_result", seat=res["by"], quest=res["main"], outcome=result,
                         totals=dict(res["totals"]), swords=[list(p) for p in placed]))
        for cards in res["stacks"].values():
            s.discard += cards
        s.discard += res["chars"] + res["removed"]
        s.discard_seen += [PUBLIC] * (len(s.discard) - len(s.discard_seen))
        s.res = None
        if "morgan_7" in res["chars"] and main_total >= resolve.TOO_LATE_MIN:
            self._game_over(s, "evil", "morgan_7", ev)
            return
        if s.expert:
            if result == "success" and s.aside:
                s.deck.append(s.aside.pop())
                s.rng.shuffle(s.deck)
                s.deck_known.clear()
                ev.append(public("morgan_shuffled_in", aside=len(s.aside)))
            elif result != "success" and s.knight_deck and placed[0][2] > 0:
                knight = s.knight_deck.pop()
                s.knights[res["by"]].append(knight)
                ev.append(public("knight_drawn", seat=res["by"]))
                ev.append(private("knight_card", res["by"], card=knight))
        self._end_check(s, "turn", ev)

    # --- Knight cards (C-KNIGHTS) ----------------------------------------------------------------------
    def _play_knight(self, s: State, seat: int, card: str, ev: list[Event], **data: Any) -> None:
        s.knights[seat].remove(card)
        s.knights_played.append(card)
        ev.append(public("knight_played", seat=seat, card=card, **data))

    def _do_tristan(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        self._play_knight(s, seat, "tristan", ev)
        s.tristan_used = True
        s.tristan_seen[seat] = s.deck[::-1]
        s.deck_known.add(seat)
        ev.append(private("tristan_look", seat, deck=s.deck[::-1]))

    def _do_galahad(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        target = args[0]
        self._play_knight(s, seat, "galahad", ev, target=target)
        s.known[seat][target] = s.loy[target]
        s.looks[seat].append((target, s.loy[target]))
        ev.append(private("galahad_look", seat, target=target, loyalty=s.loy[target]))
        self._next_turn(s, ev)

    def _do_arthur(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        """Arthur: the quester must Listen to Rumors instead."""
        self._play_knight(s, seat, "arthur", ev, target=s.current)
        s.window, s.quest = [], None
        s.actor = s.current
        self._do_listen(s, s.current, (), ev)

    def _do_gawain(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        self._play_knight(s, seat, "gawain", ev)
        s.window = []
        s.gawain_hand, s.gawain_seen = self._draw_hand(s, seat, GAWAIN_DRAW, ev)
        hand = s.gawain_hand
        s.phase, s.actor = "gawain_pick", seat
        ev.append(private("gawain_draw", seat, cards=list(hand)))

    def _do_pick(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        """Gawain plays one drawn card into the resolution: a quest card joins its stack, a character acts."""
        hand, s.gawain_hand = s.gawain_hand, []
        masks, s.gawain_seen = s.gawain_seen, []
        card = hand.pop(args[0])
        masks.pop(args[0])
        self._discard_hidden(s, hand, masks)
        ev.append(public("gawain_card", seat=seat, card=card))
        res, c = s.res, CARDS[card]
        if c.kind == "quest":
            res["stacks"].setdefault(c.quest, []).append(card)
        else:
            res["chars"].append(card)
        if c.kind == "merlin":
            self._merlin_revealed(s, ev)
            resolve.apply_merlin(res, card)
        res["totals"] = resolve.totals(res["stacks"], res["chars"])
        if c.kind == "merlin" and c.number == 4:
            s.phase, s.actor, s.after = "token", seat, "resolve"
            return
        if c.kind == "vivien" and self._start_vivien(s, seat, "resolve", ev):
            return
        self._finish_resolution(s, ev)

    def _do_percival(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        self._play_knight(s, seat, "percival", ev)
        self._close_percival(s, True, ev)

    def _close_percival(self, s: State, played: bool, ev: list[Event]) -> None:
        s.window = []
        if s.end_flips:
            flips, s.end_flips = s.end_flips + (PERCIVAL_SWORDS - 1 if played else 0), 0
            self._flip(s, flips, ev)
            self._end_finish(s, s.after, ev)
        else:
            target, s.accusing = s.accusing, -1
            self._accuse_reveal(s, target, played, ev)

    def _do_pass(self, s: State, seat: int, args: tuple, ev: list[Event]) -> None:
        if s.phase == "gawain_pick":  # only Morgans drawn: nothing can be played
            self._discard_hidden(s, s.gawain_hand, s.gawain_seen)
            s.gawain_hand, s.gawain_seen = [], []
            self._finish_resolution(s, ev)
            return
        s.window.remove(seat)
        if s.window:
            return
        if s.phase == "arthur":
            quest, s.quest = s.quest, None
            self._start_resolution(s, s.current, quest, ev)
        elif s.phase == "gawain":
            self._finish_resolution(s, ev)
        else:
            self._close_percival(s, False, ev)

    # --- the end (C-END) -----------------------------------------------------------------------------
    def _end_check(self, s: State, after: str, ev: list[Event]) -> None:
        """7+ swords of a color: the unaccused reveal, each Traitor revealed now flips a white sword; then who won."""
        if s.white < END_SWORDS and s.black < END_SWORDS:
            self._continue(s, after, ev)
            return
        if not s.end_done and not s.solo:
            s.end_done = True
            newly = [t for t in range(s.n) if not s.revealed[t]]
            for t in newly:
                s.revealed[t] = s.loy[t]
                s.loy_public.add(t)
            ev.append(public("final_reveal", loyalties=[[t, s.loy[t]] for t in newly]))
            traitors = sum(1 for t in newly if s.loy[t] == TRAITOR)
            if traitors and s.expert and any(s.knights):
                s.end_flips, s.after = traitors, after
                self._open(s, "percival", self._order(s, s.current))
                return
            self._flip(s, traitors, ev)
        self._end_finish(s, after, ev)

    def _end_finish(self, s: State, after: str, ev: list[Event]) -> None:
        if s.white >= END_SWORDS and s.white > s.black:
            self._game_over(s, "loyal", "swords", ev)
        elif s.black >= END_SWORDS and s.black >= s.white:
            self._game_over(s, "evil", "swords", ev)
        else:
            self._continue(s, after, ev)

    def _flip(self, s: State, count: int, ev: list[Event]) -> None:
        flips = min(count, s.white)
        if flips:
            s.white -= flips
            s.black += flips
            ev.append(public("swords_flipped", count=flips))

    def _game_over(self, s: State, winner: str | None, reason: str, ev: list[Event]) -> None:
        s.phase, s.window = "over", []
        if s.silence:  # nothing is forbidden once the game is over (C-SILENCE)
            s.silence = False
            ev.append(public("silence_off", reason="end"))
        s.morgan1 = s.morgan2 = False
        if not s.solo:
            s.revealed = s.loy[: s.n]  # every loyalty is public at the end: the cards held now
            s.loy_public = set(range(s.n))
        s.result = {
            "winner": winner,
            "reason": reason,
            "loyalty": [LOYAL] if s.solo else s.loy[: s.n],
            "swords": {"white": s.white, "black": s.black},
            "turns": s.turn,
        }
        ev.append(public("game_over", **s.result))

    # --- plumbing ------------------------------------------------------------------------------------
    def _continue(self, s: State, after: str, ev: list[Event]) -> None:
        if after == "turn":
            self._next_turn(s, ev)
        else:
            self._finish_resolution(s, ev)

    def _next_turn(self, s: State, ev: list[Event]) -> None:
        s.turn += 1
        if s.turn >= TURN_CAP:
            self._game_over(s, None, "turn_cap", ev)
            return
        seat = s.current
        for _ in range(s.n):
            seat = (seat + 1) % s.n
            if s.revealed[seat] != TRAITOR:
                s.phase = "turn"
                break
            hand, masks = self._draw_hand(s, seat, 2, ev)
            if hand:  # a revealed Traitor's turn: draw 2, place one (C-TRAITOR)
                s.traitor_hand, s.traitor_seen, s.phase = hand, masks, "traitor"
                ev.append(private("traitor_draw", seat, cards=list(hand)))
                break
        s.current = s.actor = seat
        s.tristan_used = False
        ev.append(public("turn", seat=seat, turn=s.turn))

    def _draw(self, s: State, ev: list[Event]) -> str | None:
        """The top Rumor card; an empty deck is rebuilt by shuffling the discards."""
        if not s.deck:
            if not s.discard:
                return None
            s.deck, s.discard, s.discard_seen = s.discard, [], []
            s.rng.shuffle(s.deck)
            s.deck_known.clear()
            ev.append(public("reshuffle", count=len(s.deck)))
        return s.deck.pop()

    def _draw_hand(self, s: State, seat: int, count: int, ev: list[Event]) -> tuple[list[str], list[int]]:
        """Up to `count` cards drawn secretly by `seat`, with who has seen each (a current Tristan look too)."""
        hand, masks = [], []
        for _ in range(count):
            card = self._draw(s, ev)
            if card is None:
                break
            hand.append(card)
            masks.append(self._seen_by(s, seat))
        return hand, masks

    @staticmethod
    def _seen_by(s: State, seat: int) -> int:
        """Seen-mask of a card `seat` just drew secretly: him, and whoever's Tristan look showed the deck."""
        mask = 1 << seat
        for t in s.deck_known:
            mask |= 1 << t
        return mask

    def _push(self, s: State, card: str, seen_mask: int) -> None:
        s.threat.append(card)
        s.threat_seen.append(seen_mask)
        s.announced.append(None)
        if s.morgan2:
            s.morgan2_count += 1

    def _place(self, s: State, color: str, count: int) -> int:
        """Put swords on the table, as many as the box still holds."""
        count = max(0, min(count, SWORDS_TOTAL - s.white - s.black))
        if color == "white":
            s.white += count
        else:
            s.black += count
        return count

    def _discard_hidden(self, s: State, cards: list[str], masks: list[int]) -> None:
        s.discard += cards
        s.discard_seen += masks

    def _open(self, s: State, phase: str, seats: list[int]) -> None:
        s.phase, s.window = phase, list(seats)

    @staticmethod
    def _order(s: State, first: int) -> list[int]:
        return [(first + i) % s.n for i in range(s.n)]
