"""The ending: per-seat numbers counted from the log, and the closing text."""

from __future__ import annotations

from engine import get_game
from engine.core.events import private, public
from service.render.narration import final_summary, game_stats, narrate
from tests.service.render.narration.games import NAMES, logs, record


def test_stats_count_decisions_quests_won_and_cards_played_from_public_events():
    log = [
        (0, None, [private("hand", 0, seat=0, cards=["fight_1"])]),
        (1, 0, [public("white_played", seat=0, quest="picts", card="fight_1")]),
        (2, 1, [public("special_played", seat=1, card="piety", arg="self"), public("healed", seat=1, card="grail")]),
        (3, 2, [public("black_cancelled", card="vivien", by="merlin", merlins=[[0, 2], [2, 1]])]),
        (4, 0, [public("white_played", seat=0, quest="picts", card="fight_5"),
                public("quest_over", quest="picts", won=True, knights=[0, 2], by=0),
                public("game_over", winner="loyal", reason="swords")]),
    ]
    stats = game_stats("board", log)
    assert [(s.decisions, s.quests_won, s.cards_played) for s in (stats.of(0), stats.of(1), stats.of(2))] == [
        (2, 1, 4), (1, 0, 4), (1, 1, 1)
    ]
    assert [e.kind for e in stats.decisive] == ["white_played", "quest_over"]


def test_the_card_games_decisive_play_is_found_before_the_windows_that_close_the_game():
    log = [
        (1, 0, [public("quest_result", seat=0, quest="grail", outcome="success", totals={"grail": 12},
                       swords=[["grail", "white", 3]]),
                public("final_reveal", loyalties=[[0, "loyal"], [1, "traitor"]])]),
        (2, 1, []),
        (3, 0, [public("swords_flipped", count=2), public("game_over", winner="loyal", reason="swords")]),
    ]
    stats = game_stats("cards", log)
    assert [e.kind for e in stats.decisive] == ["quest_result"]
    assert stats.of(0).quests_won == 1


def test_the_final_summary_names_every_loyalty_the_counters_and_the_decisive_play():
    for game in ("board", "cards"):
        for seed in range(3):
            log, codes, config = record(game, seed)
            engine = get_game(game)
            state = engine.replay(config, seed, codes)
            result = engine.result(state)
            names = {i: NAMES[i] for i in range(config["players"])}
            stats = game_stats(game, log)
            text = final_summary(game, result, engine.view(state, None), names, stats, "en")
            lines = text.split("\n")
            assert lines[0] == narrate(game, [public("game_over", **result)], "en", names)[0]
            white, black = result["swords"]["white"], result["swords"]["black"]
            assert lines[1].startswith(f"⚔ Swords ⚪ {white} ⚫ {black}")
            if stats.decisive:
                assert lines[2] == "⭐ Decisive: " + narrate(game, stats.decisive, "en", names)[-1]
            for seat, loyalty in enumerate(result["loyalty"]):
                mark = "🛡" if loyalty == "loyal" else "🐍"
                row = next(line for line in lines if line.startswith(f"{mark} {names[seat]}"))
                assert row.endswith("Loyal" if loyalty == "loyal" else "Traitor")
                numbers = lines[lines.index(row) + 1]
                mine = stats.of(seat)
                assert f"{mine.quests_won} quest" in numbers and f"{mine.cards_played} card" in numbers


def test_the_summary_speaks_the_readers_language_and_marks_the_dead():
    log = list(logs("board")[5])
    result = next(e.data for _, _, ev in log for e in ev if e.kind == "game_over")
    n = len(result["loyalty"])
    view = {"seats": [{"seat": i, "knight": "kay" if i else "arthur", "alive": i != 1} for i in range(n)]}
    text = final_summary("board", result, view, {i: NAMES[i] for i in range(n)}, game_stats("board", log), "cs")
    assert "Anna (Král Artuš):" in text and "Bob (Sir Kay) 💀:" in text
    assert "splněn" in text and "zahran" in text and "Meče ⚪" in text
