"""The catalogs: every one parses, every literal message id the code uses exists in English, placeholders agree."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service.render import i18n

ROOT = Path(__file__).resolve().parents[3]
LANGS = ["en", "cs", "pl", "nl", "ro", "it"]
CALLS = {"t": 1, "tn": 1, "has": 0}  # function name → index of its msgid argument


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def _catalog(lang: str):
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "camelot.po").open("rb") as f:
        return read_po(f, locale=lang)


KEY = re.compile(r"^(notice|lobby|menu|you|result|loyalty|prompt|image)\.[a-z_][a-z0-9_.]*[a-z0-9_]$")


def _literal_msgids() -> set[str]:
    """Message ids passed as string literals to t/tn/has anywhere in service/ and workers/, and string constants
    that can only be message ids (`notice.…`, `lobby.…`: gateways keep some in module constants)."""
    found: set[str] = set()
    for path in [*ROOT.glob("service/**/*.py"), *ROOT.glob("workers/**/*.py")]:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            constant = isinstance(node, ast.Constant) and isinstance(node.value, str)
            if constant and KEY.match(node.value) and not node.value.endswith(".py"):
                found.add(node.value)
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name not in CALLS or len(node.args) <= CALLS[name]:
                continue
            arg = node.args[CALLS[name]]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "." in arg.value:
                found.add(arg.value)
    return found


def test_every_language_is_available():
    assert i18n.available_languages() == ["en", "cs", "it", "nl", "pl", "ro"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_parses_with_the_languages_plural_rule(lang):
    catalog = _catalog(lang)
    assert len(catalog) > 100
    assert catalog.num_plurals == {"en": 2, "cs": 3, "pl": 3, "nl": 2, "ro": 3, "it": 2}[lang]
    for message in catalog:
        if message.id and message.pluralizable:
            assert len(message.string) == catalog.num_plurals, message.id


def test_every_literal_msgid_used_by_code_is_in_english():
    english = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog("en") if m.id}
    used = _literal_msgids()
    assert "you.loyalty" in used and "menu.back" in used  # the scan sees the renderers
    assert "notice.silence_no_rights" in used  # and the gateways' constants
    missing = sorted(
        m
        for m in used
        if m not in english
        and m.split(".")[0]
        in {
            "board",
            "cards",
            "menu",
            "you",
            "result",
            "loyalty",
            "prompt",
            "notice",
            "waiting",
            "turn_of",
            "lobby",
            "console",
            "image",
        }
    )
    assert missing == []


@pytest.mark.parametrize("lang", LANGS[1:])
def test_placeholders_match_english(lang):
    english = {m.id if isinstance(m.id, str) else m.id[0]: m for m in _catalog("en") if m.id}
    for message in _catalog(lang):
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        assert key in english, f"{lang}: {key} is not in the English catalog"
        source = english[key].string
        if isinstance(source, str):
            assert _placeholders(message.string) == _placeholders(source), f"{lang}: {key}"
        else:
            wanted = set().union(*(_placeholders(s) for s in source))
            for form in message.string:
                assert _placeholders(form) <= wanted | {"n"}, f"{lang}: {key}"
                assert form, f"{lang}: {key} has an empty plural form"


def test_lookup_falls_back_to_english_then_to_the_key():
    assert i18n.t("cs", "menu.back") == "⬅ Zpět"
    assert i18n.t("cs_CZ", "menu.back") == "⬅ Zpět"
    assert i18n.t("pt-BR", "menu.back") == "⬅ Back"
    assert i18n.t("en", "no.such.key") == "no.such.key"


def test_plural_forms_follow_each_language():
    assert i18n.tn("en", "you.hand", 1, cards="x") == "Your hand (1 card): x"
    assert i18n.tn("en", "you.hand", 2, cards="x") == "Your hand (2 cards): x"
    assert [i18n.tn("cs", "you.hand", n, cards="").split("(")[1].split(")")[0] for n in (1, 3, 5)] == [
        "1 karta",
        "3 karty",
        "5 karet",
    ]
    assert i18n.tn("pl", "you.hand", 22, cards="").startswith("Twoja ręka (22 karty)")
    assert i18n.tn("ro", "you.hand", 20, cards="").startswith("Mâna ta (20 de cărți)")


def test_card_names_come_from_the_seeds():
    from service.render import names

    assert names.board_card("it", "lady_of_the_lake") == "Dama del Lago"
    assert names.board_card("nl", "desolation") == "Woestenij"
    assert names.board_card("cs", "black_knight_5") == "Černý rytíř 5"
    assert names.board_card("it", "lancelot_3") == "Lancillotto/Drago 3/7"
    assert names.cards_card("pl", "grail_q") == "Święty Graal ?"
    assert names.cards_card("pl", "vivien") == "Viviana"
    assert names.knight("pl", "cards", "gawain") == "Gowen"


def test_notices_named_by_precheck_answers_exist():
    """Gateways build `notice.<reason>` from `service.play.dispatch.precheck` answers (`over` is `game_over`)."""
    for reason in ("expired", "not_seated", "malformed", "game_over", "silence_no_power", "silence_no_rights"):
        for lang in LANGS:
            assert i18n.has(f"notice.{reason}", lang), (lang, reason)


def test_only_language_codes_are_looked_up():
    assert i18n.normalize("../../etc") == "en"
    assert i18n.normalize("") == "en" and i18n.normalize(None) == "en"
    assert i18n.normalize("RO-md") == "ro"


@pytest.mark.parametrize("lang", ["en", "cs", "pl", "nl", "ro", "it"])
@pytest.mark.parametrize("kind", ["board", "cards"])
def test_the_lobbys_switch_button_names_the_other_game_in_words(lang, kind):
    from service.callback import unpack
    from service.render.lobby import lobby_message

    lobby = {"id": 5, "kind": kind, "status": "lobby", "players": 4, "bots": False, "names": ["ann"],
             "turn_hours": 24, "response_minutes": 60, "min_players": 3, "max_players": 7}
    _, keyboard = lobby_message(lobby, lang)
    other = "cards" if kind == "board" else "board"
    [label] = [b.label for row in keyboard for b in row if getattr(unpack(b.data), "verb", None) == "game"]
    assert not label.endswith(other) and "lobby." not in label and len(label) <= 30, label
