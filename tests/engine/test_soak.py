"""The rules soak (`engine.soak`): its tables of bots, and that a failure is reported with what replays it."""

from __future__ import annotations

import pytest

from engine import soak
from engine.bots import RandomBot
from engine.bots.board_heuristic import BoardHeuristicBot
from engine.bots.cards_heuristic import CardsHeuristicBot


def test_mixed_tables_seat_both_kinds_and_are_fixed_by_the_seed() -> None:
    kinds = set()
    for seed in range(20):
        config = soak.config_for("board", seed)
        bots = soak.bots_for("board", "mixed", config, seed)
        assert sorted(bots) == list(range(config["players"]))
        again = soak.bots_for("board", "mixed", config, seed)
        assert [type(b) for b in bots.values()] == [type(b) for b in again.values()]
        kinds |= {type(b) for b in bots.values()}
    assert kinds == {RandomBot, BoardHeuristicBot}


def test_one_kind_for_every_seat() -> None:
    config = soak.config_for("cards", 3)
    assert isinstance(soak.bots_for("cards", "heuristic", config, 3), CardsHeuristicBot)
    assert isinstance(soak.bots_for("cards", "random", config, 3), RandomBot)


@pytest.mark.parametrize(("game", "bot"), [("cards", "heuristic"), ("cards", "mixed"), ("board", "mixed")])
def test_games_pass_the_soak_checks(game: str, bot: str) -> None:
    assert [soak.check(game, seed, bot) for seed in range(3)] == [None, None, None]


def test_a_failure_names_the_bots_config_and_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("rule bug")

    monkeypatch.setattr(soak, "play_game", broken)
    error = soak.check("cards", 7, "mixed")
    assert error is not None
    assert error.startswith(f"bot=mixed seed=7 config={soak.config_for('cards', 7)}:")
    assert "RuntimeError: rule bug" in error


def test_main_counts_failures_in_its_exit_code(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    assert soak.main(["--game", "cards", "--games", "4", "--bot", "mixed"]) == 0
    monkeypatch.setattr(soak, "check", lambda game, seed, bot: "boom" if seed == 1 else None)
    assert soak.main(["--game", "cards", "--games", "3", "--bot", "heuristic"]) == 1
    out = capsys.readouterr().out
    assert "FAIL cards boom" in out and "3 games, 1 failures" in out
