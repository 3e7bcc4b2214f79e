"""`camelot doctor`: checks what a deployment needs before its processes start, and says what is wrong in words.

The settings (each readable, and consistent with each other), the database (reachable, schema migrated), Redis,
the broker, and each configured platform's account (Telegram: getMe; Matrix: whoami). The service checks are the
ones `/readyz` runs (`service.observability.checks`); a platform counts as configured when any of its settings is
set. Exit code 1 when anything is wrong; notes (worth knowing, not wrong) do not fail it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from pydantic import ValidationError

from service.observability import checks
from service.render.i18n import available_languages
from service.settings import Settings, get_settings

TIMEOUT = 20.0  # seconds for every check together (a platform's API can be slow to answer from far away)
PLATFORMS = {"telegram": "service.telegram.health", "matrix": "service.matrix.health"}


def settings_check() -> str:
    """The settings as the processes will read them: each value readable, and together something that can run."""
    try:
        settings = Settings()
    except ValidationError as exc:
        wrong = [f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors()]
        raise checks.Problem("unreadable settings: " + "; ".join(wrong)) from None
    problems = [text for wrong, text in _rules(settings) if wrong]
    if problems:
        raise checks.Problem("; ".join(problems))
    return "; ".join([_summary(settings), *(text for noted, text in _notes(settings) if noted)])


def _rules(s: Settings) -> list[tuple[bool, str]]:
    """(whether it is wrong, what is wrong): each a setting, or two that do not go together."""
    return [
        (
            not configured(s),
            "no chat platform is configured: set TELEGRAM_TOKEN (Telegram), or MATRIX_HOMESERVER, MATRIX_USER and "
            "MATRIX_PASSWORD (Matrix)",
        ),
        (
            bool(s.telegram_webhook_url and not s.telegram_webhook_secret),
            "TELEGRAM_WEBHOOK_URL is set without TELEGRAM_WEBHOOK_SECRET: the gateway refuses to start",
        ),
        (
            bool(s.telegram_webhook_url and not s.telegram_webhook_url.startswith("https://")),
            "TELEGRAM_WEBHOOK_URL must be an https:// URL: Telegram sends webhooks over HTTPS only",
        ),
        (
            bool(s.celery_broker_url and not s.redis_url),
            "CELERY_BROKER_URL is set without REDIS_URL: the processes would not share their sessions (cached states, "
            "locks, rates, work scheduled for later)",
        ),
        (
            s.default_language not in available_languages(),
            f"DEFAULT_LANGUAGE {s.default_language!r} is none of {', '.join(available_languages())}",
        ),
        (
            not all(0 < f < 1 for f in s.reminder_fractions),
            "REMINDER_FRACTIONS must lie between 0 and 1 (fractions of a deadline)",
        ),
        (s.delivery_shards < 1, "DELIVERY_SHARDS must be at least 1"),
        (not 0 <= s.metrics_port < 65536, "METRICS_PORT must be a port number (0: no metrics server)"),
    ]


def _notes(s: Settings) -> list[tuple[bool, str]]:
    return [
        (
            bool(s.telegram_webhook_url and s.telegram_webhook_listen in ("127.0.0.1", "localhost", "::1")),
            f"the webhook listens on {s.telegram_webhook_listen} only: right behind a TLS proxy on this host, "
            "unreachable through a container's published port (set TELEGRAM_WEBHOOK_LISTEN=0.0.0.0 there)",
        ),
        (
            bool(s.celery_broker_url and s.database_url.startswith("sqlite")),
            "several processes on one SQLite file: use PostgreSQL (DATABASE_URL) in production",
        ),
        (not s.metrics_port, "METRICS_PORT is 0: no process serves /metrics, /healthz or /readyz"),
    ]


def _summary(s: Settings) -> str:
    platforms = ", ".join(name for name in PLATFORMS if name in configured(s)) or "none"
    tasks = "a broker" if s.celery_broker_url else "in-process tasks"
    metrics = f"metrics from port {s.metrics_port}" if s.metrics_port else "no metrics server"
    return f"platforms: {platforms}; {tasks}; {metrics}; logs as {s.log_format}"


def configured(s: Settings) -> list[str]:
    """The platforms a deployment has set up (any of their settings set)."""
    found = []
    if s.telegram_token or s.telegram_webhook_url:
        found.append("telegram")
    if s.matrix_homeserver or s.matrix_user or s.matrix_password:
        found.append("matrix")
    return found


def diagnose() -> list[checks.Result]:
    """Every check, in order; after unreadable settings, only that (the others would repeat it)."""
    first = checks.run({"settings": settings_check}, TIMEOUT)
    if not first[0].ok and first[0].detail.startswith("unreadable"):
        return first
    get_settings.cache_clear()
    found: dict[str, Callable[[], str]] = dict(checks.SHARED)
    for platform in configured(get_settings()):
        found[platform] = _token_check(platform)
    return first + checks.run(found, TIMEOUT)


def _token_check(platform: str) -> Callable[[], str]:
    """The platform's own check, imported only when it is configured (Matrix needs the `matrix` extra)."""
    try:
        return importlib.import_module(PLATFORMS[platform]).token_check
    except ImportError as exc:
        missing = f"{platform}'s libraries are not installed ({exc.name}): pip install 'camelot[{platform}]'"

        def absent() -> str:
            raise checks.Problem(missing)

        return absent


def report(results: list[checks.Result]) -> tuple[str, int]:
    """The lines to print and the exit code (1 when anything is wrong)."""
    width = max(len(r.name) for r in results)
    lines = [f"{'ok' if r.ok else 'WRONG':5}  {r.name:{width}}  {r.detail}" for r in results]
    wrong = sum(not r.ok for r in results)
    lines.append(f"{wrong} problem(s) found" if wrong else "everything is in order")
    return "\n".join(lines), 1 if wrong else 0
