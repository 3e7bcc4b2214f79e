"""No reference to a private attribute of kombu, Celery, redis-py or SQLAlchemy outside the one compat module per
upstream (and their contract tests, tests/compat): a release may change those at any time, and only the compat
modules' contract tests say so.

A reference is `obj._name` (not on `self`, `cls` or `super()`, nor on a module of ours) or `getattr(obj, "_name")`,
where `_name` occurs in those libraries' sources."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARIES = ("kombu", "celery", "redis", "sqlalchemy")
COMPAT = {  # one per upstream that needs one
    "workers/celery_compat.py",
    "workers/kombu_compat.py",
    "service/store/sqlalchemy_compat.py",
}
OURS = ("engine", "service", "workers", "bench", "tests")
PUBLIC = {"_replace", "_asdict", "_fields", "_make", "_field_defaults", "_exit"}  # named tuples', os._exit
NOT_THEIRS = {  # references whose name these libraries happen to use too
    "gw.adapter._raw": "our Matrix adapter's",
    "site._server": "aiohttp's site, in the fake Bot API's tests",
}


def _sources() -> list[Path]:
    files = [p for top in OURS for p in (ROOT / top).rglob("*.py")]
    return [p for p in files if _relative(p) not in COMPAT and not _relative(p).startswith("tests/compat/")]


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _our_module_names(tree: ast.AST) -> set[str]:
    """Names a file binds to modules (or objects) of ours by its imports."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in OURS:
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in OURS)
    return names


def _private_references(path: Path) -> list[tuple[str, int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ours = _our_module_names(tree) | {"self", "cls"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            value = node.value
            if isinstance(value, ast.Name) and value.id in ours:
                continue
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
                continue
            found.append((node.attr, node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) > 1:
            name = node.args[1]
            accessor = node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            if accessor and isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value):
                found.append((name.value, node.lineno, ast.unparse(node)))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC


def _upstream_names(candidates: set[str]) -> set[str]:
    """Which of `candidates` occur as a word in the libraries' sources."""
    if not candidates:
        return set()
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(candidates))) + r")\b")
    seen: set[str] = set()
    for library in LIBRARIES:
        for source in Path(importlib.import_module(library).__file__ or "").parent.rglob("*.py"):
            seen.update(pattern.findall(source.read_text(encoding="utf-8", errors="replace")))
            if seen == candidates:
                return seen
    return seen


def test_no_private_attribute_of_the_upstream_libraries_outside_the_compat_modules():
    references = {_relative(path): _private_references(path) for path in _sources()}
    upstream = _upstream_names({name for found in references.values() for name, _, _ in found})
    offending = [
        f"{file}:{line}: {code}"
        for file, found in references.items()
        for name, line, code in found
        if name in upstream and code not in NOT_THEIRS
    ]
    assert offending == [], "private attributes of kombu, Celery, redis-py or SQLAlchemy:\n" + "\n".join(offending)


def test_the_check_finds_a_private_attribute(tmp_path):
    """The check is not vacuous: the references it must find in code like the compat modules', it finds."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f(app, message):\n    app._pool = None\n    return getattr(message, '_raw')\n")
    found = _private_references(sample)
    assert [name for name, _, _ in found] == ["_pool", "_raw"]
    assert _upstream_names({"_pool", "_raw", "_no_such_name_upstream"}) == {"_pool", "_raw"}
