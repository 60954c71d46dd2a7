"""Replaying conformance cases against an implementation, through a small adapter.

An adapter starts a hand from a case's explicit deal and answers three questions: what
events an action caused (or the reason it was refused), what the state is, and how the
hand ended.  ``EngineAdapter`` wraps this project's engine; another team writes one for
theirs (or uses the gRPC adapter against their referee) and runs the same cases.

Comparison is deliberately partial where a case writes only part of something (an event's
fields, a view's keys) and exact where it matters: the number and order of events, the
full set of legal actions, the reason of a refusal, and an unchanged state after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml
from jsonschema import Draft202012Validator

from referee.cards import CardSyntaxError, card_str, parse_card
from referee.engine import Action, EngineError, Hand, IllegalActionError
from referee.ruleset.loader import RulesetError, load_ruleset, load_ruleset_text
from referee.ruleset.model import Ruleset

ROOT = Path(__file__).resolve().parents[2] / "conformance"
SCHEMA_PATH = ROOT / "schema" / "case.schema.json"
CASES = ROOT / "cases"


class Refused(Exception):
    """The implementation refused an action; ``reason`` is its code."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason


class CaseError(ValueError):
    """The case itself is malformed (not the implementation's fault)."""


class Adapter(Protocol):
    """What a runner needs from an engine or referee under test."""

    def start(self, case: Mapping[str, Any]) -> None:
        """Start the case's hand: its ruleset, players, dealer, deal and draws."""

    def act(self, seat: int, action: str) -> list[dict[str, Any]]:
        """Apply an action; return its events as mappings; raise Refused if refused."""

    def state(self) -> dict[str, Any]:
        """hand_sizes, turn, to_act, legal {"seat": [...]}, hands, views, waste_size, out."""

    def result(self) -> dict[str, Any] | None:
        """termination, bhabhi, losing_team, out_order; None while the hand goes on."""

    def close(self) -> None:
        """Release what ``start`` took."""


# --- the in-process adapter ---------------------------------------------------------------


def case_ruleset(case: Mapping[str, Any]) -> Ruleset:
    """The ruleset a case names (bundled id or inline), checked against its hash."""
    spec = case["ruleset"]
    try:
        if "inline" in spec:
            rules = load_ruleset_text(
                yaml.safe_dump(dict(spec["inline"]), sort_keys=False), f"{case['name']} (inline)"
            )
        else:
            rules = load_ruleset(spec["id"])
    except RulesetError as error:
        raise CaseError(f"ruleset: {error}") from error
    if "hash" in spec and spec["hash"] != rules.hash:
        raise CaseError(
            f"ruleset {rules.id!r} has hash {rules.hash}, but the case was recorded on "
            f"{spec['hash']}: the rules differ"
        )
    return rules


def deal_of(case: Mapping[str, Any]) -> list[list[int]]:
    hands = []
    for entry in case["deal"]:
        words = entry.split() if isinstance(entry, str) else list(entry)
        try:
            hands.append([parse_card(w) for w in words])
        except CardSyntaxError as error:
            raise CaseError(f"deal: {error}") from error
    return hands


class EngineAdapter:
    """This project's engine, in process."""

    def __init__(self) -> None:
        self.hand: Hand | None = None

    def start(self, case: Mapping[str, Any]) -> None:
        rules = case_ruleset(case)
        draws = [parse_card(c) for c in case.get("draws", [])] or None
        try:
            self.hand = Hand(
                rules,
                case["players"],
                deal=deal_of(case),
                dealer=case["dealer"],
                draws=draws,
                seed=case["seed"] if "seed" in case and draws is None else None,
            )
        except EngineError as error:
            raise CaseError(f"cannot start the hand: {error}") from error

    def _hand(self) -> Hand:
        assert self.hand is not None, "start() first"
        return self.hand

    def act(self, seat: int, action: str) -> list[dict[str, Any]]:
        hand = self._hand()
        try:
            parsed = Action.parse(action)
        except CardSyntaxError as error:
            raise CaseError(str(error)) from error
        try:
            events = hand.apply(seat, parsed)
        except IllegalActionError as error:
            raise Refused(error.reason.value, str(error)) from error
        return [e.to_dict() for e in events]

    def state(self) -> dict[str, Any]:
        hand = self._hand()
        return {
            "hand_sizes": list(hand.hand_sizes()),
            "turn": hand.to_move,
            "to_act": list(hand.seats_to_act()),
            "legal": {str(s): [str(a) for a in hand.legal_actions(s)] for s in range(hand.players)},
            "hands": {
                str(s): [card_str(c) for c in hand.view(s).hand] for s in range(hand.players)
            },
            "views": {str(s): hand.view(s).to_dict() for s in range(hand.players)},
            "waste_size": hand.waste.bit_count(),
            "out": [s for s in range(hand.players) if hand.out[s]],
        }

    def result(self) -> dict[str, Any] | None:
        outcome = self._hand().outcome
        return None if outcome is None else outcome.to_dict()

    def close(self) -> None:
        self.hand = None


# --- comparing ----------------------------------------------------------------------------


_UNORDERED = {"cards", "to_act", "out", "hand", "losing_team"}
"""Keys whose lists are compared as sets: the order of cards in a pile is not a rule."""


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where ``actual`` departs from ``expected``; keys absent from ``expected`` are free."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{path or 'value'}: expected a mapping, got {actual!r}"]
        found: list[str] = []
        for key, value in expected.items():
            here = f"{path}.{key}" if path else str(key)
            if key not in actual:
                found.append(f"{here}: missing (expected {value!r})")
            else:
                found.extend(differences(value, actual[key], here))
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        last = path.rsplit(".", 1)[-1]
        if last in _UNORDERED or path.startswith("legal") or path.startswith("hands"):
            if sorted(map(_norm, expected)) != sorted(map(_norm, actual)):
                return [f"{path}: expected {expected} (any order), got {actual}"]
            return []
        if len(expected) != len(actual):
            return [
                f"{path}: expected {len(expected)} items {expected}, got {len(actual)} {actual}"
            ]
        out: list[str] = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(differences(e, a, f"{path}[{i}]"))
        return out
    if _norm(expected) != _norm(actual):
        return [f"{path or 'value'}: expected {expected!r}, got {actual!r}"]
    return []


def _norm(value: Any) -> Any:
    """Cards compare by identity whatever their spelling (``10h`` is ``10H``)."""
    if isinstance(value, str):
        try:
            return card_str(parse_card(value))
        except CardSyntaxError:
            return value
    if isinstance(value, list):
        return json.dumps(value, sort_keys=True)
    return value


# --- running ------------------------------------------------------------------------------


@dataclass
class Failure:
    step: int | None
    """Index of the step (0-based); None for the start or the final result."""
    what: str


@dataclass
class CaseResult:
    name: str
    path: str
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures


def validate_case(case: Any) -> list[str]:
    validator = Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    return [
        f"{'.'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
        for e in sorted(validator.iter_errors(case), key=lambda e: list(e.absolute_path))
    ]


def run_case(case: Mapping[str, Any], adapter: Adapter, path: str = "") -> CaseResult:
    result = CaseResult(str(case.get("name", path)), path)
    problems = validate_case(case)
    if problems:
        result.failures.extend(Failure(None, f"malformed case: {p}") for p in problems[:5])
        return result
    try:
        adapter.start(case)
    except CaseError as error:
        result.failures.append(Failure(None, str(error)))
        return result
    try:
        if "initial_state" in case:
            for d in differences(case["initial_state"], adapter.state(), "state"):
                result.failures.append(Failure(None, f"before the first action: {d}"))
        for index, step in enumerate(case["steps"]):
            failure = _run_step(adapter, step)
            if failure:
                result.failures.append(Failure(index, failure))
                return result  # later steps would only repeat the damage
        expected = case.get("result")
        if expected is not None:
            actual = adapter.result()
            if actual is None:
                result.failures.append(Failure(None, "the hand should be over but is not"))
            else:
                for d in differences(expected, actual, "result"):
                    result.failures.append(Failure(None, d))
    except CaseError as error:
        result.failures.append(Failure(None, str(error)))
    finally:
        adapter.close()
    return result


def _run_step(adapter: Adapter, step: Mapping[str, Any]) -> str:
    seat, action = step["seat"], step["action"]
    label = f"seat {seat} {action}"
    if "refused" in step:
        before = adapter.state()
        try:
            events = adapter.act(seat, action)
        except Refused as refusal:
            if refusal.reason != step["refused"]:
                return f"{label}: refused with {refusal.reason!r}, expected {step['refused']!r}"
            after = adapter.state()
            changed = differences(before, after, "state")
            if changed:
                return f"{label}: refused, but the state changed: {'; '.join(changed[:3])}"
            return ""
        return f"{label}: expected refusal {step['refused']!r}, but it was accepted ({events})"
    try:
        events = adapter.act(seat, action)
    except Refused as refusal:
        return f"{label}: refused with {refusal.reason!r} ({refusal}), expected it to be accepted"
    if "events" in step:
        found = differences(step["events"], events, "events")
        if found:
            return f"{label}: " + "; ".join(found[:3])
    if "state" in step:
        found = differences(step["state"], adapter.state(), "state")
        if found:
            return f"{label}: " + "; ".join(found[:3])
    return ""


def case_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
        else:
            yield path


def load_case(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
