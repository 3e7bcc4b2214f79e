"""engine/README.md's "Where is each rule" table: every rule id of the digests and of the engine has a row, each module
a row names exists and names the id, and no row invents an id the digests lack."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = [ROOT.parent / "shared" / "rules" / "board-game.md", ROOT.parent / "shared" / "rules" / "card-game.md"]
RULE_ID = re.compile(r"\b[BC]-[A-Z]+\b")
ROW = re.compile(r"^\| ([BC]-[A-Z]+) \|.*\|([^|]*)\|\s*$")


def rule_map() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in (ROOT / "engine" / "README.md").read_text().splitlines():
        match = ROW.match(line)
        if match:
            assert match[1] not in rows, f"{match[1]} has two rows"
            rows[match[1]] = re.findall(r"`([^`]+)`", match[2])
    return rows


def ids_in(paths: list[Path]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in paths:
        for rule in set(RULE_ID.findall(path.read_text())):
            found.setdefault(rule, []).append(str(path.relative_to(ROOT.parent if "shared" in path.parts else ROOT)))
    return found


def test_the_map_has_one_row_per_rule_and_each_row_names_modules():
    rows = rule_map()
    assert len(rows) >= 25 and all(rows.values()), rows


def test_every_rule_id_of_the_digests_is_mapped_and_no_mapped_id_is_invented():
    assert all(path.exists() for path in DIGESTS), DIGESTS
    in_digests = ids_in(DIGESTS)
    rows = rule_map()
    assert sorted(set(in_digests) - set(rows)) == []
    assert sorted(set(rows) - set(in_digests)) == []


def test_every_rule_id_the_engine_cites_is_mapped():
    in_engine = ids_in(sorted((ROOT / "engine").rglob("*.py")))
    missing = {rule: where for rule, where in in_engine.items() if rule not in rule_map()}
    assert missing == {}


def test_each_mapped_module_exists_and_names_its_rule():
    wrong = []
    for rule, modules in rule_map().items():
        for module in modules:
            path = ROOT / module
            if not path.is_file():
                wrong.append(f"{rule}: {module} does not exist")
            elif rule not in RULE_ID.findall(path.read_text()):
                wrong.append(f"{rule}: {module} does not mention it")
    assert wrong == []


def test_every_rule_module_is_on_the_map():
    """A new module of rules gets a row (or joins one): rules stay findable by their file."""
    rules = [*(ROOT / "engine" / "board").rglob("*.py"), *(ROOT / "engine" / "cards" / "rules").glob("*.py")]
    mapped = {module for modules in rule_map().values() for module in modules}
    plumbing = {"__init__.py", "catalogue.py", "frames.py", "known.py", "ops.py", "state.py", "views.py"}
    named = [str(p.relative_to(ROOT)) for p in rules if p.name not in plumbing]
    assert len(named) >= 30 and [module for module in named if module not in mapped] == []
