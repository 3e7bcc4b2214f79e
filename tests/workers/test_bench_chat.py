"""`camelot bench chat` runs end to end on a tiny load (two games of people, one worker) and prints its figures:
the tap → updated panel latency beside its same-run baseline, Bot API calls per move by method and chat kind,
and the games one bot account carries."""

from __future__ import annotations

import math
import re

import pytest

from bench.chat import chat

pytestmark = pytest.mark.e2e


def test_bench_chat_smoke(backbone_pg, monkeypatch, capsys):
    pytest.importorskip("aiohttp")
    from tests.e2e.telegram.fake_bot_api import spec_path

    if spec_path() is None:
        pytest.skip("the Bot API spec is not beside the repository")
    for var in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):  # the benchmark sets them; restored after
        monkeypatch.setenv(var, backbone_pg.redis_url if var != "DATABASE_URL" else backbone_pg.database_url)
    figures = chat(
        ["--games", "2", "--workers", "1", "--think", "0.2", "--seconds", "6", "--warmup", "4",
         "--send-latency", "0.02", "--database-url", backbone_pg.database_url, "--redis-url", backbone_pg.redis_url]
    )
    out = capsys.readouterr().out
    print(out)
    panel = re.search(r"tap -> updated panel: p50 (\d+) ms, p99 (\d+) ms \((\d+) taps", out)
    assert panel, out
    p50, p99, taps = map(int, panel.groups())
    assert taps > 0 and 0 < p50 <= p99
    answer = re.search(r"tap -> the gateway's answer \(answerCallbackQuery, no worker\): p50 (\d+) ms, p99 (\d+)", out)
    assert answer and int(answer.group(1)) <= int(answer.group(2))
    calls = re.search(r"Bot API calls per move \((\d+) moves\): ([\d.]+): (.*)", out)
    assert calls and int(calls.group(1)) > 0 and float(calls.group(2)) > 0
    assert "sendMessage" in calls.group(3) and "editMessageText" in calls.group(3)  # counted by name
    assert re.search(r"by chat kind: .*group.*direct|by chat kind: .*direct.*group", out)
    assert figures["messages_per_move"] > 0 and figures["direct_messages_per_move"] > 0
    games = re.search(r"human-paced games \(4 people, each moving once every 10 min\): (\d+) games", out)
    assert games and int(games.group(1)) == round(figures["games_per_bot"]) > 0
    assert figures["games_per_bot"] == pytest.approx(30 / figures["messages_per_move"] / (4 / 600))
    assert not math.isnan(figures["answer_p50_ms"]) and "reference workload" in out
