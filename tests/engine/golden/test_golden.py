"""The golden playthroughs replay step for step on today's engine (see `tests/engine/golden/__init__.py`).

A failure prints the first step that differs, as recorded and as today's engine plays it. If the change is meant
(a rule fixed), regenerate the files: `PYTHONPATH=$PWD python3 -m tests.engine.golden --regenerate <game>`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .playthrough import Spec, parse, record, replay
from .specs import SPECS

HERE = Path(__file__).resolve().parent
ALL = [spec for specs in SPECS.values() for spec in specs]


@pytest.mark.parametrize("spec", ALL, ids=[f"{s.game}/{s.name}" for s in ALL])
def test_golden_playthrough_replays(spec: Spec) -> None:
    path = HERE / spec.game / f"{spec.name}.txt"
    assert path.exists(), f"{path} is missing: python3 -m tests.engine.golden --regenerate {spec.game}"
    difference = replay(path.read_text())
    assert difference is None, f"{spec.game}/{spec.name}: {difference}"


def test_every_golden_file_has_a_spec_and_its_header_matches_it() -> None:
    files = {p.relative_to(HERE).as_posix() for p in HERE.glob("*/*.txt")}
    assert files == {f"{s.game}/{s.name}.txt" for s in ALL}
    for spec in ALL:
        head, blocks, result = parse((HERE / spec.game / f"{spec.name}.txt").read_text())
        assert (head["game"], head["name"], int(head["seed"]), head["bots"]) == (spec.game, spec.name, spec.seed,
                                                                                  spec.bots)
        assert blocks and result.startswith("result: {"), f"{spec.name}: the game did not end"


def test_games_cover_several_player_counts_and_variants() -> None:
    for game in SPECS:
        configs = [s.config for s in SPECS[game]]
        assert len({c["players"] for c in configs}) >= 5, game
        assert len({str(c.get("variant") or c.get("expert")) for c in configs}) >= 2, game


def test_a_changed_behaviour_is_reported_at_its_first_step() -> None:
    """The net catches a change: a recorded event altered in the text is found at its step and shown."""
    spec = SPECS["board"][0]
    text = record(spec)
    assert replay(text) is None
    lines = text.splitlines()
    target = next(i for i, line in enumerate(lines) if line.startswith("  public   evil "))
    step = next(line for line in reversed(lines[:target]) if line[0].isdigit()).split()[0]
    lines[target] = lines[target].replace('"seat":', '"seat":9', 1)
    difference = replay("\n".join(lines) + "\n")
    assert difference is not None and difference.step == int(step)
    assert f"first difference at step {step}" in str(difference) and lines[target] in str(difference)
