"""Issue 23 item 10: the pinned board of a chat game is a picture with the text board as its caption, edited in
place; a text too long for a caption is cut at a whole line there and kept whole in a text message beside it."""

from __future__ import annotations

import io

from PIL import Image

from engine import get_game
from service.play import board_post, lobby
from service.render import present
from service.render.narration.messages import size
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow


def final_board(game_id: int, players: int) -> str:
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        kind, config, seed, log = game.kind, game.config, game.seed, game_rows.action_log(s, game_id)
    state = get_game(kind).replay(config, seed, log)
    names = {seat: f"Bot {seat + 1}" for seat in range(players)}
    return present(kind, state, [], game_id=game_id, seq=len(log), group_lang="en", seat_langs={},
                   seat_names=names).board


def test_the_board_is_one_picture_captioned_with_the_text_and_edited_in_place(backbone_local, recording):
    game_id = lobby.create_and_start("rec", "table", "cards", {}, [], 4, seed=3, picture=True)
    calls = recording.sent("table")
    photos = [c for c in calls[:-1] if c.method in ("send_photo", "edit_photo")]  # the last: the game's end
    assert [c.method for c in photos][:1] == ["send_photo"] and len(photos) > 10
    assert {c.message_id for c in photos} == {photos[0].message_id}  # one message, edited in place
    assert photos[0].extra["bytes"] > 1000
    assert photos[-1].text == final_board(game_id, 4)  # the caption is the text board
    assert all(size(c.text) <= board_post.CAPTION_LIMIT for c in photos)
    title = photos[-1].text.split("\n")[0]
    assert not [c for c in calls if c.method == "edit_text" and c.text.startswith(title)]  # no text board beside it
    closing = calls[-1]  # the game's end on the picture of the final position (issue 23 item 9)
    assert closing.method == "send_photo" and closing.text.startswith("🏁") and "⭐" in closing.text


def test_a_board_too_long_for_a_caption_is_cut_there_and_whole_beside_it(backbone_local, recording, monkeypatch):
    monkeypatch.setattr(board_post, "CAPTION_LIMIT", 120)
    game_id = lobby.create_and_start("rec", "table", "cards", {}, [], 4, seed=3, picture=True)
    calls = recording.sent("table")
    photos = [c for c in calls if c.method in ("send_photo", "edit_photo")]
    photos = [c for c in photos if c.message_id == photos[0].message_id]  # the board's (the end has its own)
    assert photos and all(size(c.text) <= 120 and c.text.endswith(board_post.MORE) for c in photos)
    whole = final_board(game_id, 4)
    boards = [c for c in calls if c.method == "edit_text" and c.text.startswith(whole.split("\n")[0])]  # edited
    assert boards and len({c.message_id for c in boards}) == 1 and boards[-1].text == whole
    assert photos[-1].text == board_post.caption(whole, 120)
    # the closing message too long for a caption: its text, then the final picture
    assert [c.method for c in calls[-2:]] == ["send_text", "send_photo"] and calls[-2].text.startswith("🏁")


def test_the_picture_is_a_png_of_the_public_view():
    state = get_game("cards").new_game({"players": 4}, 1)
    pres = present("cards", state, [], game_id=1, seq=0, group_lang="en", seat_langs={}, seat_names={},
                   with_image=True)
    with Image.open(io.BytesIO(pres.board_image)) as image:
        assert image.format == "PNG" and image.size[0] >= 400


def test_a_caption_keeps_whole_lines_within_its_limit():
    text = "\n".join(f"line {n} " + "é" * 20 for n in range(100))
    cut = board_post.caption(text, 1024)
    assert size(cut) <= 1024 and cut.endswith("\n…")
    assert text.startswith(cut[:-2]) and cut[:-2].split("\n")[-1] in text.split("\n")
