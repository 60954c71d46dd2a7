"""Schema validation whose errors read like advice to the person who wrote the file.

jsonschema's own messages (``'pikup' is not one of [...]``, ``Additional properties are not
allowed``) name neither the line nor the likely fix, and one mistake often yields several
errors.  Here each error becomes one :class:`Problem` at the line where the offending key or
value was written, with a suggestion where one is likely, and near-duplicates are dropped.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.protocols import Validator
from jsonschema.validators import extend

from referee import bundled
from referee.cards import CardSyntaxError, card_str, parse_card
from referee.ruleset.problems import Code, Problem
from referee.ruleset.yamlsafe import KeyPath, Mark, dotted

SCHEMA_PATH = bundled.RULESET_SCHEMA

Locate = Callable[[KeyPath, bool], tuple[str, Mark]]
"""``locate(path, at_key)``: the file and mark where ``path``'s key (or value) was written."""

_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "null": "null",
    "object": "a mapping",
    "array": "a list",
}


def _is_strict_integer(checker: Any, instance: object) -> bool:
    # Draft 2020-12 counts 3.0 as an integer; a ruleset must not, or `max_tricks: 1000.0` would
    # validate, reach the engine as a float and hash differently from `max_tricks: 1000`.
    return isinstance(instance, int) and not isinstance(instance, bool)


_StrictValidator = extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer),
)


@cache
def schema() -> dict[str, Any]:
    """The ruleset JSON Schema (read once; the file is part of the repository)."""
    with SCHEMA_PATH.open(encoding="utf-8") as stream:
        loaded: dict[str, Any] = json.load(stream)
    return loaded


@cache
def validator() -> Validator:
    validator: Validator = _StrictValidator(schema())
    return validator


def schema_problems(
    instance: Mapping[str, Any], locate: Locate
) -> tuple[list[Problem], frozenset[KeyPath]]:
    """Every schema violation of a resolved ruleset, as located, human problems (unsorted),
    and the key paths the violations were found at, with the key a misspelt one was meant to
    be (its value is not the one the author wrote): a value at or above none of them passed
    the schema, so the checks across several keys may read it."""
    errors = list(validator().iter_errors(instance))
    # A misspelt key also leaves the key it was meant to be missing; "did you mean" says both.
    meant: set[tuple[KeyPath, str]] = set()
    for error in errors:
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = list(_subschema(error).get("properties", {}))
            for name in error.instance:
                guess = did_you_mean(name, allowed) if name not in allowed else None
                if guess is not None:
                    meant.add((tuple(error.absolute_path), guess))
    problems: list[Problem] = []
    seen_required: set[KeyPath] = set()
    for error in errors:
        path: KeyPath = tuple(error.absolute_path)
        if error.validator == "required":
            if path in seen_required:  # jsonschema reports each missing key separately
                continue
            seen_required.add(path)
        problems.extend(_problems_of(error, path, locate, meant))
    invalid = {tuple(e.absolute_path) for e in errors} | {(*path, key) for path, key in meant}
    return _drop_echoes(problems), frozenset(invalid)


def _problems_of(
    error: ValidationError, path: KeyPath, locate: Locate, meant: set[tuple[KeyPath, str]]
) -> Iterable[Problem]:
    def at(where: KeyPath, message: str, code: Code, *, key: bool = False) -> Problem:
        file, mark = locate(where, key)
        return Problem(file, mark.line, mark.column, dotted(where), message, code)

    kind: Any = error.validator
    value: Any = error.validator_value
    instance: Any = error.instance
    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed = list(_subschema(error).get("properties", {}))
        for name in instance:
            if name not in allowed:
                yield at((*path, name), _unknown_key(name, allowed), Code.UNKNOWN_KEY, key=True)
    elif kind == "required" and isinstance(instance, dict):
        for name in value:
            if name not in instance and (path, name) not in meant:
                message = f"missing required key {name!r}"
                yield at(path, message, Code.MISSING_KEY, key=True)
    elif kind == "type":
        types = [value] if isinstance(value, str) else list(value)
        expected = " or ".join(_TYPE_NAMES.get(t, t) for t in types)
        yield at(path, f"expected {expected}, got {describe(instance)}", Code.WRONG_TYPE)
    elif kind == "enum":
        yield at(path, _not_allowed(instance, [str(v) for v in value]), Code.NOT_ALLOWED)
    elif kind == "pattern":
        yield at(path, _bad_format(path, instance, _subschema(error)), Code.BAD_FORMAT)
    elif kind == "minimum":
        yield at(path, f"expected at least {value}, got {instance}", Code.OUT_OF_RANGE)
    elif kind == "maximum":
        yield at(path, f"expected at most {value}, got {instance}", Code.OUT_OF_RANGE)
    elif kind == "minItems":
        message = "must not be empty" if value == 1 else f"must list at least {value} items"
        yield at(path, message, Code.OUT_OF_RANGE)
    elif kind == "minLength":
        message = "must not be empty" if value == 1 else f"must be at least {value} characters"
        yield at(path, message, Code.OUT_OF_RANGE)
    elif kind == "maxLength":
        message = f"is too long: at most {value} characters, got {len(instance)}"
        yield at(path, message, Code.OUT_OF_RANGE)
    elif kind == "uniqueItems" and isinstance(instance, list):
        seen: dict[str, int] = {}
        for i, item in enumerate(instance):
            key = json.dumps(item, sort_keys=True)
            if key in seen:
                shown = repr(_short(item) if isinstance(item, str) else item)
                message = f"{shown} is listed twice (first as item {seen[key]})"
                yield at((*path, i), message, Code.DUPLICATE_ITEM)
            else:
                seen[key] = i
    else:
        yield at(path, error.message, Code.INVALID)


def _subschema(error: ValidationError) -> Mapping[str, Any]:
    return error.schema if isinstance(error.schema, Mapping) else {}


def _drop_echoes(problems: list[Problem]) -> list[Problem]:
    """Keep one problem per mistake.

    A value of the wrong type also fails the checks meant for the right type (``0.5`` for an
    integer with a minimum): the type error says everything.
    """
    wrong_type = {(p.file, p.path) for p in problems if p.code is Code.WRONG_TYPE}
    kept = [p for p in problems if p.code is Code.WRONG_TYPE or (p.file, p.path) not in wrong_type]
    return list(dict.fromkeys(kept))


def describe(value: object) -> str:
    """A value and its YAML type, for "expected X, got Y" messages."""
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        return f"string {_short(value)!r}"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__  # pragma: no cover - YAML gives nothing else


_SYNONYMS = {
    "anticlockwise": "counterclockwise",
    "counterclockwise": "counterclockwise",
    "ccw": "counterclockwise",
    "clockwise": "clockwise",
    "cw": "clockwise",
}
"""Other words for a value, keyed by their letters alone (``_letters``), so that
``anti-clockwise``, ``Counter_Clockwise`` and ``counter clockwise`` are found too: spelling
alone would take ``anticlockwise`` for ``clockwise``, the opposite of what it means."""

_LEFT_OR_RIGHT = frozenset({"left", "right", "toleft", "toright", "totheleft", "totheright"})
"""Words that name a side, not a way round: play that passes to each player's left goes
clockwise, but a turn to the left is counterclockwise, so neither is suggested."""


def _letters(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalnum())


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` most likely stands for: a synonym's value, else the closest
    spelling, else None."""
    choices = list(choices)
    meant = _SYNONYMS.get(_letters(word))
    if meant in choices:
        return meant
    matches = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return matches[0] if matches else None


def _unknown_key(name: str, allowed: list[str]) -> str:
    guess = did_you_mean(name, allowed)
    if guess is not None:
        return f"unknown key {_short(name)!r}; did you mean {guess!r}?"
    shown = ", ".join(k for k in allowed if not k.startswith("$"))
    return f"unknown key {_short(name)!r}; allowed keys here: {shown}"


def _not_allowed(instance: object, allowed: list[str]) -> str:
    listed = ", ".join(allowed)
    if isinstance(instance, str):
        message = f"{_short(instance)!r} is not allowed; allowed values: {listed}"
        ways = {"clockwise", "counterclockwise"}
        if _letters(instance) in _LEFT_OR_RIGHT and ways <= set(allowed):
            return message + (
                f"; {_short(instance)!r} could mean either way round: play that passes to "
                "each player's left neighbour is 'clockwise' (seats are numbered clockwise, "
                "seat 1 sits to the left of seat 0), to the right neighbour 'counterclockwise'"
            )
        guess = did_you_mean(instance, allowed)
        return message + (f"; did you mean {guess!r}?" if guess else "")
    if isinstance(instance, int | float) and not isinstance(instance, bool):
        text = str(instance)
        if text in allowed:  # `ranks: [2, 3, 10]` written without quotes
            return f"expected the string '{text}', got {describe(instance)}; quote it: \"{text}\""
    return f"expected one of {listed}, got {describe(instance)}"


def _bad_format(path: KeyPath, instance: object, subschema: Mapping[str, Any]) -> str:
    text = _short(str(instance))
    pattern = subschema.get("pattern")
    if pattern == schema()["$defs"]["card"]["pattern"]:
        if text == str(instance):  # the card parser's reason quotes the whole text
            try:
                parse_card(text)
            except CardSyntaxError as exc:
                return str(exc)
        try:
            canonical = card_str(parse_card(text)) if text == str(instance) else None
        except CardSyntaxError:
            canonical = None
        if canonical is not None:  # TS, 10s: a card, written another way
            return (
                f"{text!r}: a ruleset writes each card one way, rank then suit in capitals "
                f"with the ten as 10: write {canonical}"
            )
        return (
            f"{text!r} is not a card as this key takes it: rank then suit in capitals, "
            "for example AS, 10H, 2C"
        )
    if path and path[-1] in ("id", "extends"):
        return (
            f"{text!r} is not a ruleset id: lower-case letters and digits in words joined by "
            "hyphens, for example my-house-rules"
        )
    if len(path) >= 2 and path[-2] == "clauses":
        return (
            f"{text!r} is not a clause ID of the rules catalogue "
            "(C1-C16, P1-P3, D1-D2, V1-V5, B1-B9, X1-X5, H1-H31: `bhabhi rules clauses`)"
        )
    return f"{text!r} does not have the expected form (pattern {pattern})"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ordered_like_schema(value: Any, node: Mapping[str, Any] | None = None) -> Any:
    """``value`` with mapping keys in the order the schema lists its properties.

    The schema's order is the documented reading order (identity, deck, players, then the
    play), so showing a resolved ruleset in that order makes it comparable with the files.
    """
    root = schema()
    node = root if node is None else node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        node = root["$defs"][ref.removeprefix("#/$defs/")]
    if isinstance(value, dict):
        properties: Mapping[str, Any] = node.get("properties", {})
        keys = [k for k in properties if k in value] + [k for k in value if k not in properties]
        return {k: ordered_like_schema(value[k], properties.get(k, {})) for k in keys}
    if isinstance(value, list):
        items: Mapping[str, Any] = node.get("items", {})
        return [ordered_like_schema(v, items) for v in value]
    return value
