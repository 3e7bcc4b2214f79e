"""What a tournament says (`service.render.tournaments`), in all six languages: every text found in the catalogs
(never a raw key), the option buttons' data short enough to be signed (≤ 40 bytes) and cycling to the next value,
points written with a decimal only where there is one, the standings' rows and the podium."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from service.callback import unpack
from service.play.tournament_options import SEATS, defaults
from service.render import tournaments as texts
from service.render.i18n import available_languages


@dataclass(frozen=True)
class Row:
    name: str
    points: float
    merit: float
    opponents: float
    withdrawn: bool = False


ROWS = [Row("Ann", 2.0, 0.8, 1.5), Row("Ben", 1.5, -0.1, 1.0), Row("Cat", 1.0, 0.2, 2.0, True), Row("Dan", 0, -1, 0)]


def _view(status: str = "registration", **changed) -> dict:
    kind = changed.pop("kind", "board")
    return {"id": 12, "kind": kind, "status": status, "round": 1 if status != "registration" else 0,
            "late": status == "running", "names": ["Ann", "Ben"], "language": "en", "seat_bounds": SEATS[kind],
            **defaults(kind), **changed}


@pytest.mark.parametrize("lang", available_languages())
@pytest.mark.parametrize("status", ["registration", "running", "finished", "cancelled"])
def test_every_text_comes_from_the_catalog_in_every_language(lang, status):
    text, keyboard = texts.panel(_view(status, bots=1, rounds=0), lang)
    said = [text, texts.round_text(lang, 12, 2, [(40, ["Ann", "Ben", "Cat"])], datetime(2026, 12, 1, 18, tzinfo=UTC)),
            texts.standings_text(lang, 12, 2, ROWS), texts.standings_text(lang, 12, 0, []),
            texts.podium_text(lang, 12, "winner", ROWS), texts.cancelled_text(lang, 12),
            texts.autopilot_text(lang, 2, ["Ann", "Ben"]), texts.help_text(lang)]
    said += [button.label for row in keyboard or [] for button in row]
    assert not [line for line in said if "tournament." in line or "lobby." in line]
    if lang != "en":
        assert text != texts.panel(_view(status, bots=1, rounds=0), "en")[0]
    assert (keyboard is None) == (status in ("finished", "cancelled"))


@pytest.mark.parametrize("kind", ["board", "cards"])
def test_the_option_buttons_data_is_short_and_names_the_next_value(kind):
    _, keyboard = texts.panel(_view(kind=kind, low=3, high=5, rounds=5, round_hours=168), "en")
    taps = [unpack(button.data) for row in keyboard for button in row]
    assert all(len(button.data.encode()) <= 40 for row in keyboard for button in row)
    assert all(tap.lobby_id == 12 and tap.verb.startswith(texts.TAP) for tap in taps)
    values = {tap.value for tap in taps if tap.verb == "t_set"}
    assert {"low-4", "high-6", "bots-1", "rounds-0", "hours-24", "lang-cs"} <= values  # each one step on
    assert ("traitor-none" in values) == (kind == "board") and ("expert-on" in values) == (kind == "cards")
    full = texts.panel(_view(kind=kind, high=7), "en")[1]
    assert "bots-0" in {unpack(b.data).value for row in full for b in row}  # no room for a bot at a table of 7


def test_while_running_only_registration_and_withdrawal_remain_and_late_registration_ends_with_round_one():
    _, keyboard = texts.panel(_view("running"), "en")
    assert [unpack(b.data).verb for row in keyboard for b in row] == ["t_join", "t_leave"]
    _, keyboard = texts.panel(_view("running", round=2, late=False), "en")
    assert [unpack(b.data).verb for row in keyboard for b in row] == ["t_leave"]


def test_standings_rows_and_the_podium():
    assert texts.standings_text("en", 12, 2, ROWS).splitlines()[:5] == [
        "📊 Tournament #12: standings after round 2",
        "1. Ann: 2 (merit +0.80, opponents 1.5)",
        "2. Ben: 1.5 (merit −0.10, opponents 1)",
        "3. Cat: 1 (merit +0.20, opponents 2) · withdrawn",
        "4. Dan: 0 (merit −1.00, opponents 0)",
    ]
    assert texts.standings_text("cs", 12, 2, ROWS).splitlines()[2] == "2. Ben: 1,5 (zásluha −0,10, soupeři 1)"
    assert texts.podium_text("en", 12, "rounds", ROWS[:2]).splitlines() == [
        "🏆 Tournament #12 is over", "All its rounds are played.", "🥇 Ann (2)", "🥈 Ben (1.5)"
    ]
