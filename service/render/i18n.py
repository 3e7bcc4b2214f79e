"""Translations: gettext catalogs (Babel .po files) loaded at first use, no compile step.

Message ids are stable keys (`board.action.move`, `cards.quest.dragon`), not English sentences, because the
engine names its menu labels that way (`Game.label`). The English catalog holds the source texts; every other
language falls back to English per message, and a key missing everywhere is returned as is (visible, never
a crash). Placeholders use `str.format` names: `{name}`, `{n}`.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "camelot"
SOURCE = "en"


@cache
def _catalog(lang: str) -> Catalog | None:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def _plural_index(lang: str):
    catalog = _catalog(lang)
    expr = catalog.plural_expr if catalog is not None else "(n != 1)"
    return gettext.c2py(expr)


def available_languages() -> list[str]:
    """Languages with a catalog, English first."""
    langs = sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())
    return [SOURCE] + [lang for lang in langs if lang != SOURCE]


def normalize(lang: str | None) -> str:
    """Map a client language tag (`pt-BR`, `cs_CZ`, None) to a catalog we have, else English."""
    if not lang:
        return SOURCE
    base = lang.replace("-", "_").split("_")[0].lower()
    if not (base.isascii() and base.isalpha() and 2 <= len(base) <= 3):
        return SOURCE  # only language codes ever reach the file system
    return base if _catalog(base) is not None else SOURCE


def _lookup(lang: str, msgid: str, index: int | None) -> str | None:
    catalog = _catalog(lang)
    if catalog is None:
        return None
    message = catalog.get(msgid)
    if message is None or message.fuzzy:
        return None
    if index is None:
        text = message.string if isinstance(message.string, str) else message.string[0]
    else:
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        text = strings[index] if index < len(strings) else ""
    return text or None


def has(msgid: str, lang: str = SOURCE) -> bool:
    return _lookup(lang, msgid, None) is not None


def t(lang: str | None, msgid: str, **kwargs: Any) -> str:
    """The text for `msgid` in `lang` (English if missing there), formatted with `kwargs`."""
    lang = normalize(lang)
    text = _lookup(lang, msgid, None) or _lookup(SOURCE, msgid, None) or msgid
    return text.format(**kwargs) if kwargs else text


def tn(lang: str | None, msgid: str, n: int, **kwargs: Any) -> str:
    """Plural-aware `t`: picks the form for `n` by the language's plural rule; `{n}` is available to the text."""
    lang = normalize(lang)
    text = _lookup(lang, msgid, _plural_index(lang)(n))
    if text is None:
        text = _lookup(SOURCE, msgid, _plural_index(SOURCE)(n)) or msgid
    return text.format(n=n, **kwargs)


class _Unknown(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def fill(text: str, values: dict[str, Any]) -> str:
    """Format `text` with `values`; a placeholder without a value shows "?" (event data may lack a field)."""
    return text.format_map(_Unknown(values))
