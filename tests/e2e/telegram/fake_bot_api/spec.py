"""Validation of Bot API requests and objects against the machine-readable spec (`shared/telegram-bot-api/api.json`).

The fake server refuses what the real one would refuse before doing anything: unknown or missing parameters,
wrong types, the length limits written in the spec's descriptions ("1-4096 characters", "1-64 bytes"), and the
inline keyboard limits from the Bot FAQ (8 buttons a row, 100 in all). Form-encoded bodies carry every value as
text (objects JSON-encoded), exactly as python-telegram-bot and the real server treat them.
"""

from __future__ import annotations

import html.parser
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

MAX_BUTTONS_PER_ROW = 8
MAX_BUTTONS = 100
_LIMIT = re.compile(r"(\d+)-(\d+) (characters|bytes)")
_WRONG_KIND = re.compile(r"\.(type|status) must be [a-z_]+$")
_DISCRIMINATOR = re.compile(r"(?:must be|always) [“\"]?([a-z_]+)[”\"]?")
_HTML_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "a",
    "code",
    "pre",
    "tg-spoiler",
    "span",
    "blockquote",
    "tg-emoji",
}


class SpecError(ValueError):
    """A request the real Bot API would answer with 400 Bad Request."""


@dataclass(frozen=True)
class FilePart:
    """An uploaded multipart file (the spec's InputFile)."""

    filename: str
    data: bytes


def spec_path() -> Path | None:
    """`<repo root>/../shared/telegram-bot-api/api.json`, or the path in CAMELOT_TELEGRAM_SPEC; None if absent."""
    import os

    env = os.environ.get("CAMELOT_TELEGRAM_SPEC")
    candidates = [Path(env)] if env else []
    root = Path(__file__).resolve().parents[4]
    candidates += [root.parent / "shared/telegram-bot-api/api.json", root / "shared/telegram-bot-api/api.json"]
    return next((p for p in candidates if p.is_file()), None)


class Spec:
    """The methods and types of the Bot API, with a validator for each."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.version: str = data.get("version", "?")
        self.methods: dict[str, dict[str, Any]] = data["methods"]
        self.types: dict[str, dict[str, Any]] = data["types"]

    @classmethod
    def load(cls, path: Path | None = None) -> Spec:
        path = path or spec_path()
        if path is None:
            raise FileNotFoundError("shared/telegram-bot-api/api.json not found beside the repository")
        return _load(str(path))

    # --- requests -------------------------------------------------------------------------------------------
    def check_request(self, method: str, params: dict[str, Any], *, form: bool) -> dict[str, Any]:
        """Validate a method call; return its parameters decoded (ints, bools, objects). Raises SpecError."""
        spec = self.methods[method]
        fields = {f["name"]: f for f in spec.get("fields", [])}
        attachments = {k: v for k, v in params.items() if isinstance(v, FilePart) and k not in fields}
        params = {k: v for k, v in params.items() if k not in attachments}
        unknown = sorted(set(params) - set(fields))
        if unknown:
            raise SpecError(f"unknown parameter(s) {', '.join(unknown)} for {method}")
        out: dict[str, Any] = {}
        for name, field in fields.items():
            if name not in params:
                if field["required"]:
                    raise SpecError(f"parameter {name} is required for {method}")
                continue
            out[name] = self._field(field, params[name], f"{method}.{name}", form=form, attachments=attachments)
        unused = set(attachments) - self._referenced(out)
        if unused:
            raise SpecError(f"unknown parameter(s) {', '.join(sorted(unused))} for {method}")
        return out

    @staticmethod
    def _referenced(value: Any) -> set[str]:
        if isinstance(value, str) and value.startswith("attach://"):
            return {value[len("attach://") :]}
        if isinstance(value, dict):
            return set().union(*(Spec._referenced(v) for v in value.values())) if value else set()
        if isinstance(value, list):
            return set().union(*(Spec._referenced(v) for v in value)) if value else set()
        return set()

    # --- values ---------------------------------------------------------------------------------------------
    def _field(
        self, field: dict[str, Any], value: Any, where: str, *, form: bool, attachments: dict[str, FilePart]
    ) -> Any:
        errors = []
        for type_name in field["types"]:
            try:
                decoded = self._value(type_name, value, where, form=form, attachments=attachments)
            except SpecError as exc:
                errors.append(str(exc))
                continue
            self._limits(field, decoded, where)
            return decoded
        raise SpecError(errors[0] if len(errors) == 1 else f"{where}: none of {field['types']} fits ({errors})")

    def _limits(self, field: dict[str, Any], value: Any, where: str) -> None:
        if not isinstance(value, str):
            return
        m = _LIMIT.search(field.get("description", ""))
        if not m:
            return
        low, high, unit = int(m.group(1)), int(m.group(2)), m.group(3)
        size = len(value.encode("utf-8")) if unit == "bytes" else len(value)
        if not low <= size <= high:
            raise SpecError(f"{where} must be {low}-{high} {unit}, got {size}")

    def _value(self, type_name: str, value: Any, where: str, *, form: bool, attachments: dict[str, FilePart]) -> Any:
        if type_name.startswith("Array of "):
            if form and isinstance(value, str):
                value = _json(value, where)
            if not isinstance(value, list):
                raise SpecError(f"{where} must be an array")
            inner = type_name[len("Array of ") :]
            items = [
                self._value(inner, v, f"{where}[{i}]", form=False, attachments=attachments) for i, v in enumerate(value)
            ]
            if inner == "Array of InlineKeyboardButton":
                _check_keyboard(items, where)
            return items
        if type_name == "Integer":
            if form and isinstance(value, str) and re.fullmatch(r"-?\d+", value):
                return int(value)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            raise SpecError(f"{where} must be an Integer")
        if type_name == "Float":
            if form and isinstance(value, str):
                try:
                    return float(value)
                except ValueError:
                    raise SpecError(f"{where} must be a Float") from None
            if isinstance(value, int | float) and not isinstance(value, bool):
                return value
            raise SpecError(f"{where} must be a Float")
        if type_name == "Boolean":
            if form and value in ("true", "false", "True", "False"):
                return value.lower() == "true"
            if isinstance(value, bool):
                return value
            raise SpecError(f"{where} must be a Boolean")
        if type_name == "String":
            if isinstance(value, str):
                return value
            raise SpecError(f"{where} must be a String")
        if type_name == "InputFile":
            if isinstance(value, FilePart):
                return value
            raise SpecError(f"{where} must be an uploaded file")
        if type_name not in self.types:
            raise SpecError(f"{where}: unknown type {type_name}")
        if form and isinstance(value, str):
            value = _json(value, where)
        return self.check_object(type_name, value, where, attachments=attachments)

    def check_object(
        self, type_name: str, value: Any, where: str = "", attachments: dict[str, FilePart] | None = None
    ) -> dict[str, Any]:
        """Validate a JSON object as `type_name` (a union type tries each of its subtypes)."""
        where = where or type_name
        spec = self.types[type_name]
        if not isinstance(value, dict):
            raise SpecError(f"{where} must be a {type_name} object")
        if spec.get("subtypes"):
            errors = []
            for sub in spec["subtypes"]:
                try:
                    return self.check_object(sub, value, where, attachments)
                except SpecError as exc:
                    errors.append(str(exc))
            fitting = [e for e in errors if not _WRONG_KIND.search(e)]  # the subtype its type/status names
            raise SpecError(f"{where} is no {type_name}: {(fitting or errors)[0]}")
        fields = {f["name"]: f for f in spec.get("fields", [])}
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise SpecError(f"{where}: unknown field(s) {', '.join(unknown)} in {type_name}")
        out: dict[str, Any] = {}
        for name, field in fields.items():
            if name not in value:
                if field["required"]:
                    raise SpecError(f"{where}: field {name} is required in {type_name}")
                continue
            fixed = _DISCRIMINATOR.search(field.get("description", "")) if name in ("type", "status") else None
            if fixed and value[name] != fixed.group(1):
                raise SpecError(f"{where}.{name} must be {fixed.group(1)}")
            out[name] = self._field(field, value[name], f"{where}.{name}", form=False, attachments=attachments or {})
            if (
                name == "media"
                and isinstance(out[name], str)
                and out[name].startswith("attach://")
                and out[name][len("attach://") :] not in (attachments or {})
            ):
                raise SpecError(f"{where}.media refers to a missing file part")
        if type_name == "InlineKeyboardButton":
            kinds = set(out) - {"text", "icon_custom_emoji_id", "style"}
            if len(kinds) != 1:
                raise SpecError(f"{where}: exactly one of url, callback_data, … must be used, got {sorted(kinds)}")
        return out


@cache
def _load(path: str) -> Spec:
    return Spec(json.loads(Path(path).read_text(encoding="utf-8")))


def _json(value: str, where: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        raise SpecError(f"{where}: can't parse JSON") from None


def _check_keyboard(rows: list[list[Any]], where: str) -> None:
    if any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
        raise SpecError(f"{where}: more than {MAX_BUTTONS_PER_ROW} buttons in a row")
    if sum(len(row) for row in rows) > MAX_BUTTONS:
        raise SpecError(f"{where}: more than {MAX_BUTTONS} buttons")


class _HtmlText(html.parser.HTMLParser):
    """Telegram's HTML parse mode: a few tags, balanced, nothing else; yields the visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS:
            raise SpecError(f'can\'t parse entities: unsupported start tag "{tag}"')
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise SpecError(f"can't parse entities: can't find end tag corresponding to start tag \"{tag}\"")
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def visible_text(text: str, parse_mode: str | None) -> str:
    """The text a user sees (entities parsed); raises SpecError when the markup would not parse."""
    if parse_mode is None:
        return text
    if parse_mode != "HTML":
        raise SpecError(f"unsupported parse_mode {parse_mode!r} in this fake server (use HTML)")
    parser = _HtmlText()
    parser.feed(text)
    parser.close()
    if parser.open:
        raise SpecError(f'can\'t parse entities: unclosed tag "{parser.open[-1]}"')
    return "".join(parser.text)
