"""Every English message is translated in every other catalog, with the same placeholders.

A missing translation falls back to English silently (i18n.t), so a gap would only show as a stray English
line in a Czech or Polish chat; this test makes it a failure instead. A placeholder the English text has and a
translation lacks (or the reverse) would drop a value or raise KeyError at format time.
"""

from __future__ import annotations

import string

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from service.render import i18n

OTHERS = [lang for lang in i18n.available_languages() if lang != i18n.SOURCE]


def _catalog(lang: str) -> Catalog:
    with (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=i18n.DOMAIN)


def _key(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _forms(message: Message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def _english() -> dict[str, Message]:
    """English messages with a text: the ones users can see, so the ones every language must have."""
    return {_key(m): m for m in _catalog(i18n.SOURCE) if m.id and any(_forms(m))}


def test_all_other_languages_are_checked():
    assert set(OTHERS) == {"cs", "pl", "nl", "ro", "it"}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_english_message_is_translated(lang):
    catalog = _catalog(lang)
    missing = sorted(
        key
        for key in _english()
        if (message := catalog.get(key)) is None or message.fuzzy or not all(_forms(message))
    )
    assert missing == [], f"{lang} lacks translations"


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_use_the_english_placeholders(lang):
    """Plural forms may leave out `{n}` (tn always passes it; "one card" need not show the number)."""
    catalog = _catalog(lang)
    wrong = []
    for key, source in _english().items():
        message = catalog.get(key)
        if message is None:
            continue  # reported by the completeness test
        if source.pluralizable:
            wanted = set().union(*map(_placeholders, _forms(source))) - {"n"}
            wrong += [(key, form) for form in _forms(message) if _placeholders(form) - {"n"} != wanted]
        elif _placeholders(_forms(message)[0]) != _placeholders(_forms(source)[0]):
            wrong.append((key, _forms(message)[0]))
    assert wrong == [], f"{lang}: placeholders differ from English"
