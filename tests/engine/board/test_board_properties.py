"""Property tests over random complete board games: every game ends, all 168 cards stay accounted for, counters stay
in range, replay reproduces the digest, views are JSON and hide exactly what a seat may not know.

The random games include standing actions: a Traitor holding Fate unmasks himself at random moments of his own turn,
whoever is being asked what (`STANDING_RATE` per step while he may)."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter

import pytest
from board_helpers import GAME, check_invariants, json_round_trip

from engine.board import catalogue as cat
from engine.bots import RandomBot, heuristic_bot
from engine.core import IllegalAction
from engine.core.simulate import play_game

VARIANTS = ({}, {"traitor": "none"}, {"traitor": "among_us"}, {"three_player_rule": True}, {"squires": True},
            {"war_any_order": True}, {"squires": True, "squire_life": 3, "squire_cards": 3},
            {"three_player_rule": True, "three_player_trigger": "swords"})
CONFIGS = [{"players": n, **v} for n in range(3, 8) for v in VARIANTS]
GAMES = 2000
STEP_CHECK_EVERY = 25  # every 25th game is checked after every single action, the others at their end
STANDING_RATE = 0.04  # chance per step that a seat with a standing action takes it


def _config(seed: int) -> dict:
    return CONFIGS[seed % len(CONFIGS)]


def _standing_move(state, rng: random.Random) -> tuple[int, str] | None:
    """Maybe take a standing action (asked or not): the first seat that has one, with `STANDING_RATE`."""
    for seat in range(state.n):
        standing = GAME.standing_actions(state, seat)
        if standing and rng.random() < STANDING_RATE:
            return seat, GAME.encode(standing[rng.randrange(len(standing))])
    return None


def _random_step(state, rng: random.Random) -> tuple[int, str]:
    """One random move: a standing action now and then, else the first asked seat's random legal action."""
    move = _standing_move(state, rng)
    if move is None:
        seat = GAME.pending(state)[0].seat
        move = seat, GAME.encode(RandomBot().choose(GAME, state, seat, rng))
    GAME.apply_code(state, *move)
    return move


def test_random_games_end_conserve_cards_and_replay() -> None:
    reasons: set[str] = set()
    unmasked_during: Counter = Counter()  # decision due when a Traitor unmasked himself, his own turn's or another's
    for seed in range(GAMES):
        config = _config(seed)
        rng = random.Random(seed ^ 0x5EED)
        state = GAME.new_game(config, seed)
        log: list[tuple[int, str]] = []
        while GAME.result(state) is None:
            assert len(log) < 20_000, f"seed {seed} {config}: game did not end"
            top, current = state.frames[-1], state.current
            seat, code = _random_step(state, rng)
            log.append((seat, code))
            if code == "play:fate.reveal":
                unmasked_during[top["kind"] if seat == current else "other:" + top["kind"]] += 1
        result = GAME.result(state)
        assert result["winner"] in ("loyal", "evil")
        reasons.add(result["reason"])
        check_invariants(state)
        assert GAME.digest(GAME.replay(config, seed, log)) == GAME.digest(state), f"seed {seed}"
        if seed % STEP_CHECK_EVERY == 0:
            state = GAME.new_game(config, seed)
            for seat, code in log:
                GAME.apply_code(state, seat, code)
                check_invariants(state)
    assert {"siege_engines", "loyal_dead"} <= reasons
    assert unmasked_during and not any(kind.startswith("other:") for kind in unmasked_during), unmasked_during


def _traitor_with_fate(config: dict, seed: int, traitor: int) -> dict:
    """`config` with the Traitor at seat `traitor` dealt Fate among his Merlin and five cards (a random deal)."""
    rng = random.Random(seed)
    deck = [c for c, k in cat.WHITE_COUNTS.items() for _ in range(k - (c == "merlin") * config["players"])]
    deck.remove("fate")
    rng.shuffle(deck)
    hands = [["merlin"] + [deck.pop() for _ in range(5)] for _ in range(config["players"])]
    hands[traitor][1] = "fate"
    loyalty = ["loyal"] * config["players"]
    loyalty[traitor] = "traitor"
    return {**config, "stack": {"hands": hands, "loyalty": loyalty}}


def test_a_traitor_unmasking_at_any_moment_of_his_turn_breaks_nothing() -> None:
    """B-TRAITOR: the Traitor with Fate unmasks himself at a random step of his own turn, whatever is being decided
    and by whom (never in another knight's turn); every invariant holds after each action, the game ends, and the log
    (his action with his seat) replays."""
    during: Counter = Counter()
    for seed in range(1200):
        config = _config(seed)
        if config.get("traitor") == "none":
            continue
        rng = random.Random(seed)
        traitor = rng.randrange(config["players"])
        config = _traitor_with_fate(config, seed, traitor)
        state = GAME.new_game(config, seed)
        at, log = rng.randrange(150), []
        rare = seed % 2  # then he waits for a moment outside the turns' main steps (a window, a split, …)
        while GAME.result(state) is None:
            assert len(log) < 20_000, f"seed {seed}: game did not end"
            main_step = state.frames[-1]["kind"] in ("evil", "heroic", "post")
            if len(log) >= at and not (rare and main_step) and GAME.standing_actions(state, traitor):
                assert traitor == state.current, f"seed {seed}: offered in another knight's turn"
                during[state.frames[-1]["kind"]] += 1
                move = traitor, "play:fate.reveal"
                GAME.apply_code(state, *move)
                at = 20_000
            else:
                seat = GAME.pending(state)[0].seat
                actions = GAME.legal_actions(state, seat)
                if seat == traitor and at < 20_000:  # he keeps Fate for the moment chosen
                    actions = [a for a in actions if "fate" not in a.args] or actions
                move = seat, GAME.encode(actions[rng.randrange(len(actions))])
                GAME.apply_code(state, *move)
            log.append(move)
            check_invariants(state)
        assert GAME.digest(GAME.replay(config, seed, log)) == GAME.digest(state), f"seed {seed}"
    assert sum(during.values()) > 300, during  # (only in his own turn: fewer moments than before)
    kinds = {"evil", "heroic", "post", "window", "split", "arthur", "face", "siege"}
    assert kinds <= set(during), during  # (rarer moments — Convocation, a discard, Kay — have scenario tests)


def _sample_states(games: int, every: int):
    for seed in range(games):
        config = _config(seed)
        rng = random.Random(seed)
        state = GAME.new_game(config, seed)
        step = 0
        while GAME.result(state) is None:
            if step % every == 0:
                yield seed, state
            _random_step(state, rng)
            step += 1
        yield seed, state


def test_views_are_json_and_invariant_under_resampling_hidden_information() -> None:
    rng = random.Random(7)
    checked = knowing = 0
    for seed, state in _sample_states(games=120, every=9):
        public = GAME.view(state, None)
        assert json_round_trip(public) == public
        assert "you" not in public
        for seat in range(state.n):
            mine = GAME.view(state, seat)
            assert json_round_trip(mine) == mine
            other = GAME.resample_hidden(state, seat, rng)
            check_invariants(other)
            for holder in range(state.n):  # what the seat learnt of other hands stays in them
                assert not Counter(state.known[seat][holder]) - Counter(other.hands[holder]), f"seed {seed}"
            knowing += any(mine["you"]["known_hands"])
            assert GAME.view(other, seat) == mine, f"seed {seed}: seat {seat}'s view depends on hidden information"
            assert GAME.view(other, None) == public
        everyone_else = GAME.resample_hidden(state, None, rng)
        check_invariants(everyone_else)
        assert GAME.view(everyone_else, None) == public
        checked += 1
    assert checked > 500 and knowing > 2000, (checked, knowing)


def test_resampling_really_changes_what_is_hidden() -> None:
    state = GAME.new_game({"players": 5}, 3)
    other = GAME.resample_hidden(state, 0, random.Random(1))
    assert other.hands[0] == state.hands[0]
    assert [other.hands[i] for i in range(1, 5)] != [state.hands[i] for i in range(1, 5)]
    assert other.black_deck != state.black_deck


def test_illegal_input_leaves_the_state_unchanged() -> None:
    rng = random.Random(3)
    for _, state in _sample_states(games=40, every=13):
        if GAME.result(state) is not None:
            with pytest.raises(IllegalAction):
                GAME.apply_code(state, 0, "end")
            continue
        before = GAME.digest(state)
        asked = {p.seat for p in GAME.pending(state)}
        idle = [i for i in range(state.n) if i not in asked]
        legal = {GAME.encode(a) for a in GAME.legal_actions(state, min(asked))}
        for seat, code in [(min(asked), "fight:9"), (min(asked), "move:avalon"), (min(asked), "evil:maybe"),
                           (min(asked), "play:merlin.nowhere"), (min(asked), "Bad Code!")]:
            if code not in legal:
                with pytest.raises(IllegalAction):
                    GAME.apply_code(state, seat, code)
        if idle:
            code = sorted(legal)[rng.randrange(len(legal))]
            with pytest.raises(IllegalAction) as err:
                GAME.apply_code(state, idle[0], code)
            assert err.value.rule == "B-TURN"
        assert GAME.digest(state) == before


def test_timeout_action_is_always_legal_and_reveals_nothing() -> None:
    for _, state in _sample_states(games=60, every=5):
        for prompt in GAME.pending(state):
            action = GAME.timeout_action(state, prompt.seat)
            assert action in GAME.legal_actions(state, prompt.seat)
            if prompt.kind == "heroic":
                assert not (action.kind == "play" and action.args[:2] == ("fate", "reveal"))


def test_action_codes_fit_in_callback_data() -> None:
    for _, state in _sample_states(games=60, every=3):
        for prompt in GAME.pending(state):
            for action in GAME.legal_actions(state, prompt.seat):
                code = GAME.encode(action)
                assert len(code) <= 40 and GAME.decode(code) == action


@pytest.mark.parametrize("as_loyal", [True, False])
def test_heuristic_bots_finish_games(as_loyal: bool) -> None:
    for seed in range(30):
        config = _config(seed)
        bot = heuristic_bot("board", as_loyal=as_loyal)
        played = play_game(GAME, config, seed, bot)
        assert GAME.result(played.state) is not None
        check_invariants(played.state)


def test_snapshot_is_json_and_digest_is_stable() -> None:
    state = GAME.new_game({"players": 4}, 11)
    snap = GAME.snapshot(state)
    assert json.loads(json.dumps(snap)) == json_round_trip(snap)
    assert GAME.digest(state) == GAME.digest(GAME.new_game({"players": 4}, 11))
    assert GAME.digest(state) != GAME.digest(GAME.new_game({"players": 4}, 12))
    assert GAME.digest(GAME.copy(state)) == GAME.digest(state)


def test_random_games_with_players_leaving_and_joining() -> None:
    """B-LEAVE and joining mid-game at random moments keep every invariant and the game still ends."""
    for seed in range(300):
        config = _config(seed)
        rng = random.Random(seed)
        state = GAME.new_game(config, seed)
        leave_at, join_at = rng.randrange(5, 150), rng.randrange(5, 150)
        for step in range(20_000):
            if GAME.result(state) is not None:
                break
            if step == leave_at:
                living = [i for i in range(state.n) if state.alive[i]]
                GAME.apply_code(state, living[rng.randrange(len(living))], "leave")
                check_invariants(state)
                continue
            if step == join_at:
                try:
                    GAME.join(state)
                except IllegalAction as err:
                    assert err.rule == "B-VAR"
                check_invariants(state)
            if GAME.result(state) is not None:
                break
            _random_step(state, rng)
            check_invariants(state)
        assert GAME.result(state) is not None, f"seed {seed}"


def test_states_survive_pickling_as_the_service_caches_them() -> None:
    state = GAME.new_game({"players": 5}, 21)
    rng = random.Random(2)
    for _ in range(60):
        seat = GAME.pending(state)[0].seat
        GAME.apply(state, seat, RandomBot().choose(GAME, state, seat, rng))
    loaded = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert GAME.digest(loaded) == GAME.digest(state)
    seat = GAME.pending(state)[0].seat
    action = GAME.legal_actions(state, seat)[0]
    GAME.apply(loaded, seat, action)
    GAME.apply(state, seat, action)
    assert GAME.digest(loaded) == GAME.digest(state)


def test_a_state_cached_before_known_hands_existed_still_loads() -> None:
    state = GAME.new_game({"players": 4}, 5)
    del state.known  # as pickled by the service before the field existed
    loaded = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert loaded.known == [[[] for _ in range(4)] for _ in range(4)]
    check_invariants(loaded)


def test_a_state_cached_before_the_fields_full_names_still_loads() -> None:
    """Issue 22 named the quests' fields in full (`lancelot_white`, not `lance_white`): a state the service pickled
    with the short names loads under the new ones."""
    from engine.board.state import RENAMED, BoardState

    state = GAME.new_game({"players": 4}, 5)
    state.excalibur_position, state.lancelot_stage = 7, "dragon"
    _, _, (_, fields), *_ = state.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    short = {name: old for old, name in RENAMED.items()}
    assert set(short) <= set(fields)
    old = BoardState.__new__(BoardState)
    old.__setstate__((None, {short.get(f, f): v for f, v in fields.items()}))
    assert old.excalibur_position == 7 and old.lancelot_stage == "dragon" and GAME.digest(old) == GAME.digest(state)
