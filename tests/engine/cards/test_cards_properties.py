"""Property tests over thousands of random complete games (1–7 players, with and without the expert variant).

Invariants: every game ends (or hits the documented turn cap, reported as `turn_cap`); the 62 Rumor cards and
16 swords are conserved at every step; replay gives the same digest; views are JSON; a seat's view is unchanged
when `resample_hidden` re-deals what it may not know; no view depends on a Threat card below the top or on a
face-down Morgan #1 card the seat did not see; an illegal action leaves the state unchanged.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from cards_helpers import GAME

from engine import IllegalAction
from engine.bots import RandomBot
from engine.bots.cards_heuristic import CardsHeuristicBot
from engine.cards.catalogue import QUESTS, SWORDS_TOTAL, TURN_CAP
from engine.cards.state import PUBLIC, conserved, seen
from engine.core.actions import MAX_CODE_BYTES

PRIVATE_EVENTS = frozenset(
    {"morgan1_look", "traitor_draw", "gawain_draw", "tristan_look", "galahad_look", "knight_card", "vivien_card",
     "merlin4_quest"}
)
GAMES = 5040
SAMPLE_EVERY = 41  # deep checks (views, resampling, illegal input) on every 41st step


def config(seed: int) -> dict:
    return {"players": seed % 7 + 1, "expert": (seed // 7) % 2 == 0, "first": seed % (seed % 7 + 1)}


def play_checked(seed: int, bots, stats: Counter) -> None:
    rng = random.Random(seed)
    cfg = config(seed)
    state = GAME.new_game(cfg, seed)
    log: list[tuple[int, str]] = []
    step = 0
    while GAME.result(state) is None:
        prompts = GAME.pending(state)
        assert prompts, f"seed {seed}: nobody to play"
        seat = prompts[0].seat
        if step % SAMPLE_EVERY == seed % SAMPLE_EVERY:
            deep_checks(state, seat, rng, stats)
        action = (bots if not isinstance(bots, dict) else bots[seat]).choose(GAME, state, seat, rng)
        code = GAME.encode(action)
        assert len(code) <= MAX_CODE_BYTES and GAME.decode(code) == action
        _, events = GAME.apply(state, seat, action)
        for e in events:  # secrets go to one seat only, everything else is public
            assert (e.kind in PRIVATE_EVENTS) == (not e.public), e
            assert e.public or len(e.to) == 1
            json.dumps(e.data)
        log.append((seat, code))
        assert conserved(state), f"seed {seed}: Rumor cards not conserved"
        assert min(state.white, state.black) >= 0 and state.white + state.black <= SWORDS_TOTAL
        step += 1
    result = GAME.result(state)
    deep_checks(state, None, rng, stats)
    stats[result["reason"]] += 1
    if result["reason"] == "turn_cap":
        assert state.turn >= TURN_CAP and result["winner"] is None
    else:
        assert result["winner"] in ("loyal", "evil")
    assert GAME.digest(GAME.replay(cfg, seed, log)) == GAME.digest(state), f"seed {seed}: replay differs"


def deep_checks(state, seat: int | None, rng: random.Random, stats: Counter) -> None:
    before = GAME.digest(state)
    seats = [None, *range(state.n)]
    views = {s: GAME.view(state, s) for s in seats}
    for s, v in views.items():
        assert json.loads(json.dumps(v)) == v
        other = GAME.resample_hidden(state, s, rng)
        assert conserved(other)
        assert GAME.view(other, s) == v, f"view of {s} changed by resample_hidden"
        stats["resample_changed"] += GAME.digest(other) != before
    assert GAME.digest(state) == before, "resample_hidden mutated the state"
    # Nothing below the top of the Threat pile, nor an unseen face-down top, shows in any view.
    if state.threat:
        other = GAME.copy(state)
        other.threat[:-1] = [rng.choice(QUESTS) + "_q" for _ in other.threat[:-1]]
        top_mask = other.threat_seen[-1]
        if top_mask != PUBLIC:
            other.threat[-1] = rng.choice(QUESTS) + "_2"
        for s in seats:
            if top_mask == PUBLIC or not seen(top_mask, s):
                assert GAME.view(other, s) == views[s], "a view depends on a Threat card it must not show"
        stats["threat_checked"] += 1
    if seat is None:  # the game is over
        assert GAME.pending(state) == [] and all(v["result"] == GAME.result(state) for v in views.values())
        return
    # Illegal input is refused with a C- rule and changes nothing.
    legal = set(GAME.legal_actions(state, seat))
    for code in ("quest:grail", "accuse:0", "listen", "pass", "place:1", "count:99", "bogus!"):
        try:
            action = GAME.decode(code)
        except IllegalAction as err:
            assert err.rule == "C-CODE"
            continue
        if action not in legal:
            try:
                GAME.apply(state, seat, action)
            except IllegalAction as err:
                assert err.rule.startswith("C-")
            else:
                raise AssertionError(f"illegal {code} accepted")
            assert GAME.digest(state) == before
            stats["illegal_checked"] += 1
    assert GAME.timeout_action(state, seat) in legal


def test_random_games_hold_every_invariant():
    stats: Counter = Counter()
    bot = RandomBot()
    for seed in range(GAMES):
        play_checked(seed, bot, stats)
    assert sum(stats[r] for r in ("swords", "morgan_7", "turn_cap")) == GAMES
    assert stats["resample_changed"] > 100 and stats["threat_checked"] > 500 and stats["illegal_checked"] > 500
    assert stats["turn_cap"] < GAMES // 100, f"too many capped games: {stats}"


def test_heuristic_bots_play_complete_games_on_both_sides():
    stats: Counter = Counter()
    for seed in range(350):
        play_checked(seed, CardsHeuristicBot(), stats)
    assert stats["turn_cap"] == 0


def test_illegal_action_leaves_the_state_unchanged_mid_window():
    stack = {"threat": ["dragon_5"], "hands": [[], [], ["arthur"]]}
    state = GAME.new_game({"players": 3, "expert": True, "stack": stack}, 3)
    GAME.apply_code(state, 0, "quest:dragon")
    before = GAME.digest(state)
    for seat, code, rule in ((1, "arthur", "C-KNIGHTS"), (0, "pass", "C-TURN"), (2, "listen", "C-TURN"),
                             (1, "quest:dragon", "C-TURN"), (2, "arthur:1", "C-KNIGHTS")):
        try:
            GAME.apply_code(state, seat, code)
        except IllegalAction as err:
            assert err.rule == rule, (code, err.rule)
        else:
            raise AssertionError(f"{seat} {code} accepted")
        assert GAME.digest(state) == before
