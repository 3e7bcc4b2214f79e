"""The chaos tests use the workers' fixtures: real Celery workers on each broker (`tests/workers/conftest.py`)."""

from tests.workers.conftest import celery_broker, celery_pg  # noqa: F401 (fixtures)
