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

`apply` validates the action against `legal_actions` before touching anything, then applies it through the table
`engine.cards.rules.ACTIONS` (action kind → rule id and handler, one module per family of rules), mutating the state
in place: an `IllegalAction` leaves the state unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bots.cards_heuristic import CardsHeuristicBot
from engine.cards.catalogue import (
    ACCUSE_MIN_SWORDS,
    CARDS,
    COUNT_CHOICES,
    GAWAIN_DRAW,
    QUESTS,
)
from engine.cards.hidden import resample
from engine.cards.rules import ACTIONS
from engine.cards.setup import new_state
from engine.cards.state import State, snapshot
from engine.cards.views import public_view, quest_options, seat_view
from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.events import Event
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
            rule = ACTIONS[kind][0] if known and kind in ACTIONS else "C-TURN"
            raise IllegalAction(rule, f"{action.encode()} is not legal now")
        ev: list[Event] = []
        ACTIONS[action.kind][1](s, seat, action.args, ev)
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
