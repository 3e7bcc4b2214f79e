"""Contract tests of the compat modules (`workers/celery_compat.py`, `service/store/sqlalchemy_compat.py`): each
holds what one of them assumes of an upstream library's internals, so it fails on a release that changes them.
`pytest -m upstream_contract` runs them alone; .ci/upstream-newest runs them against the newest releases."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/compat/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.upstream_contract)
