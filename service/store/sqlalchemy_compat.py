"""The one place that reaches past SQLAlchemy's documented API: mapped objects made from column values as its
ORM makes them when it loads a row (no constructor, no session), for the rows a move reads without the ORM.

`ClassManager.new_instance` is what SQLAlchemy's loading calls; the mapper's `class_manager` is public, the method
is not documented. tests/compat/test_sqlalchemy_contract.py fails if a release changes what it does.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.orm import configure_mappers


def loaded(model: type[Any], keys: Iterable[str], values: Iterable[Any]) -> Any:
    """A `model` object holding these column values, as if loaded, untracked by any session (a tenth of a move's
    CPU went to the constructor's instrumentation)."""
    made = _new_instance(model)()
    made.__dict__.update(zip(keys, values, strict=True))
    return made


@cache
def _new_instance(model: type[Any]) -> Any:
    configure_mappers()  # else a new process's first objects would have their attributes unset
    return inspect(model).class_manager.new_instance
