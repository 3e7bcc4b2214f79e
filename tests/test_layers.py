"""The package layout holds: pyproject.toml's import contracts (`[tool.importlinter]`: dependencies point one way,
the engine imports nothing of ours, only the composition root reaches workers and the benchmarks), and no module of
service/ loads Celery or kombu when imported (they are the workers' alone, loaded by a process that uses a broker)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(capsys):
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert status == 0, capsys.readouterr().out


def _service_modules() -> list[str]:
    """Every module of service/ (Alembic's migration scripts are not modules to import)."""
    names = []
    for path in sorted((ROOT / "service").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "migrations" in parts:
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


FIRST_TO_LOAD = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    loaded = sorted(m for m in ("celery", "kombu") if m in sys.modules)
    if loaded:
        print(json.dumps([name, loaded]))
        break
else:
    print(json.dumps(None))
"""


def test_no_module_of_service_loads_celery():
    modules = _service_modules()
    assert "service.play.queue" in modules and "service.compose" in modules
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, "-c", FIRST_TO_LOAD, *modules], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) is None  # else [the module that loaded it, what it loaded]
