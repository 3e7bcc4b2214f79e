"""Phone-sized: symbols that are emoji (a phone draws them), and short lines where they can be."""

from __future__ import annotations

import unicodedata

import pytest
from babel.messages.pofile import read_po

from service.render import i18n
from service.render.narration.messages import size
from service.render.narration.story import narrate
from tests.service.render.narration.games import LANGS, NAMES, logs

# Every pictograph the narration uses: emoji since Emoji 1.0-12.0, drawn by the phones people use. Adding one means
# checking it is an emoji, not a symbol a phone may draw as a box (like U+1F0A0, the playing card back).
EMOJI = set("⌛▶☝⚔⚙⚪⚫✅✉✋✖✨❤➕⭐🃏🎖🎲🏁🏆🏰🐍🐎👁👍👎👑💀💚📜🔄🔇🔊🔒🔢🔮🗑🗡🗣😈🙋🚪🛡🤝🤫🧙🧚🩸❔")


def _texts(lang: str) -> list[str]:
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "camelot.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in catalog:
        key = message.id if isinstance(message.id, str) else message.id[0] if message.id else ""
        if key.startswith(("narr.", "cardtext.")):
            out += [message.string] if isinstance(message.string, str) else list(message.string)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_symbol_in_the_narration_is_an_emoji(lang):
    texts = _texts(lang)
    assert len(texts) > 250
    symbols = {c for text in texts for c in text if unicodedata.category(c) == "So"}
    assert symbols <= EMOJI, symbols - EMOJI
    cards_block = {c for text in texts for c in text if 0x1F0A0 <= ord(c) <= 0x1F0FF}
    assert cards_block <= {"🃏"}  # the joker is an emoji; the rest of the block are not


@pytest.mark.parametrize("lang", LANGS)
def test_most_lines_fit_a_phone_line(lang):
    """Names of 3-4 letters, every move of a few games for the group and each seat: at least 3 lines in 4 within
    36 characters (the rest carry a cause and all it caused, or a list of cards)."""
    total = short = 0
    for game in ("board", "cards"):
        for log in logs(game)[:4]:
            for _, _, events in log:
                for viewer in (None, 0, 1):
                    for line in narrate(game, events, lang, NAMES, viewer):
                        total += 1
                        short += size(line) <= 36
    assert total > 2000 and short / total >= 0.75, short / total
