"""Localized names of the games' components (cards, quests, knights, relics), from engine ids.

Engine ids are English snake_case (`fight_3`, `black_knight_5`, `lancelot_3`, `morgan_4_2`, `picts_q`); the
catalogs hold one name per component, and numbered cards are a name with a `{value}` placeholder, so a
translation is written once per card family. Names come from the seed rulebooks (see the .po headers).
"""

from __future__ import annotations

import re

from engine.board import catalogue as board_cat
from service.render.i18n import t

_NUMBERED = re.compile(r"^([a-z_]+?)_(\d+|q)$")


def board_card(lang: str, card: str) -> str:
    """A board-game card: white or black, by id; `hidden` is a face-down black card."""
    if card in board_cat.LANCELOT_VALUE:
        left, right = board_cat.LANCELOT_VALUE[card]
        return t(lang, "board.card.lancelot", left=left, right=right)
    if card in board_cat.FIGHT_VALUE:
        return t(lang, "board.card.fight", value=board_cat.FIGHT_VALUE[card])
    if card in board_cat.BLACK_KNIGHT_VALUE:
        return t(lang, "board.card.black_knight", value=board_cat.BLACK_KNIGHT_VALUE[card])
    return t(lang, f"board.card.{card}")


def cards_card(lang: str, card: str) -> str:
    """A card-game Rumor card: `picts_4`, `picts_q`, `merlin_3`, `morgan_4_2`, `mordred`, `vivien`."""
    if card.startswith("morgan_4_"):
        return t(lang, "cards.card.morgan4", bonus=card.rsplit("_", 1)[1])
    m = _NUMBERED.match(card)
    if m:
        family, value = m.groups()
        if family in ("merlin", "morgan"):
            return t(lang, f"cards.card.{family}", number=value)
        return t(lang, "cards.card.quest", quest=t(lang, f"cards.quest.{family}"), value="?" if value == "q" else value)
    return t(lang, f"cards.card.{card}")


def quest(lang: str, game: str, quest_id: str) -> str:
    return t(lang, f"{game}.quest.{quest_id}")


def knight(lang: str, game: str, knight_id: str | None) -> str:
    return t(lang, f"{game}.knight.{knight_id}") if knight_id else t(lang, "board.squire")


def relic(lang: str, relic_id: str) -> str:
    return t(lang, f"board.relic.{relic_id}")


def loyalty(lang: str, value: str | None) -> str:
    return t(lang, f"loyalty.{value}") if value else t(lang, "loyalty.unknown")


def seat(names: dict[int, str], value: object) -> str:
    """A seat's display name (the service passes every seat's name; `#n` counts from 1 otherwise)."""
    return names.get(value, f"#{value + 1}") if isinstance(value, int) else str(value)
