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

import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, ValidationError

from referee import bundled
from referee.cards import CardSyntaxError, card_str, parse_card
from referee.conformance.adapter import Adapter as Adapter
from referee.conformance.adapter import CaseError as CaseError
from referee.conformance.adapter import DealDiffers as DealDiffers
from referee.conformance.adapter import Refused as Refused
from referee.engine import Action, EngineError, Hand, IllegalActionError, Session
from referee.ruleset.loader import ID_PATTERN, RulesetError, load_ruleset, load_ruleset_text
from referee.ruleset.model import Ruleset

ROOT = bundled.CONFORMANCE
SCHEMA_PATH = ROOT / "schema" / "case.schema.json"
CASES = ROOT / "cases"
CORPUS = ROOT / "corpus"
STATE_KEYS = ("hand_sizes", "turn", "to_act", "legal", "hands", "views", "waste_size", "out")
"""The keys of a state (``$defs/state`` of the case schema)."""
CASE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl", ".jsonl.gz")
"""Files a folder is searched for: one case per YAML or JSON file, or many cases in JSON
lines (gzip'd for the generated corpus, whose full states compress some thirtyfold)."""


# --- the in-process adapter ---------------------------------------------------------------


def case_ruleset(case: Mapping[str, Any], *, check_hash: bool = True) -> Ruleset:
    """The ruleset a case names (an id, a file or inline), checked against its id and hash.

    A ``file`` is read as written, relative to the working folder (``run_case`` reads it
    relative to the case file's folder, ``carry_ruleset_file``).  Bundled ids and any
    ruleset of a folder that ``$BHABHI_RULES_DIR`` (``--rules``) adds are ids; an inline
    ruleset or a file may ``extends`` any of them.  ``check_hash=False`` is for mutation
    testing only, where differing rules are the point.
    """
    spec = case["ruleset"]
    try:
        if "inline" in spec:
            rules = load_ruleset_text(
                yaml.safe_dump(dict(spec["inline"]), sort_keys=False), f"{case['name']} (inline)"
            )
        elif "file" in spec:
            rules = load_ruleset(Path(spec["file"]))
        else:
            if not ID_PATTERN.fullmatch(spec["id"]):
                raise CaseError(f"ruleset.id: {not_an_id(spec['id'])}")
            rules = load_ruleset(spec["id"])
    except RulesetError as error:
        raise CaseError(f"ruleset: {error}") from error
    if "file" in spec and rules.id != spec["id"]:
        wrong = f"the case names id {spec['id']!r}, but the file's is {rules.id!r}"
        raise CaseError(f"ruleset: {wrong}")
    if check_hash and "hash" in spec and spec["hash"] != rules.hash:
        raise CaseError(
            f"ruleset {rules.id!r} has hash {rules.hash}, but the case was recorded on "
            f"{spec['hash']}: the rules differ"
        )
    return rules


def not_an_id(value: str) -> str:
    """Why a ``ruleset.id`` that is no id (a path, say) is refused, and what to write."""
    return (
        f"{value!r} is not a ruleset id (lower-case words joined by hyphens): to name a "
        f"ruleset file, write ruleset: {{id: ID, file: {value}}}, the path relative to the "
        "case file"
    )


def carry_ruleset_file(case: Any, folder: Path | None) -> Any:
    """``case`` with its ``ruleset.file`` read (relative to ``folder``, the folder of the case
    file) and carried inline, resolved, so that every adapter, a remote referee's included,
    gets rules it can use without the file or the folders it extends from.  Any other case
    is returned as it is.  Raises CaseError for a file that does not load."""
    if not isinstance(case, Mapping):
        return case
    spec = case.get("ruleset")
    if not isinstance(spec, Mapping) or not isinstance(spec.get("file"), str):
        return case
    file = spec["file"] if folder is None else str(folder / spec["file"])
    rules = case_ruleset({**case, "ruleset": {**spec, "file": file}})
    carried = {k: v for k, v in spec.items() if k != "file"}
    return {**case, "ruleset": {**carried, "inline": dict(rules.source)}}


def _dealt_from_seed(rules: Ruleset, case: Mapping[str, Any]) -> list[list[int]] | None:
    """Each seat's cards (sorted) as the engine deals the case's ``fair_deal.seed`` from its
    dealer: a recorded deal is checked, not only replayed.  None without a ``fair_deal``."""
    fair = case.get("fair_deal")
    if not isinstance(fair, Mapping) or not isinstance(fair.get("seed"), str):
        return None
    hand = Hand(rules, case["players"], seed=fair["seed"].encode(), dealer=case["dealer"])
    return [sorted(cards) for cards in hand.deal]


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
    """This project's engine, in process.

    ``rules`` replaces whatever ruleset the cases name, without the hash check: mutation
    testing replays a ruleset's cases on a changed copy of it, which must make some fail.
    """

    def __init__(self, rules: Ruleset | None = None) -> None:
        self.hand: Hand | None = None
        self.session: Session | None = None
        self.rules = rules

    def start(self, case: Mapping[str, Any]) -> None:
        rules = self.rules if self.rules is not None else case_ruleset(case)
        try:
            self.session = Session(rules, case["players"], seed="case", first_dealer=case["dealer"])
            self.hand = self._deal(case, dealer=case["dealer"])
            dealt = _dealt_from_seed(rules, case)
        except EngineError as error:
            raise CaseError(f"cannot start the hand: {error}") from error
        recorded = [sorted(cards) for cards in deal_of(case)]
        if dealt is not None and dealt != recorded:
            seat = next(s for s, cards in enumerate(recorded) if cards != dealt[s])
            raise DealDiffers(
                f"the engine deals fair_deal.seed to seat {seat} "
                f"{' '.join(card_str(c) for c in dealt[seat])}, the case records "
                f"{' '.join(card_str(c) for c in recorded[seat])}"
            )

    def _deal(self, spec: Mapping[str, Any], dealer: int | None) -> Hand:
        assert self.session is not None
        draws = [parse_card(c) for c in spec.get("draws", [])] or None
        return self.session.next_hand(
            deal=deal_of(spec),
            draws=draws,
            dealer=dealer,
            seed=spec["seed"] if "seed" in spec and draws is None else None,
        )

    def next_hand(self, spec: Mapping[str, Any]) -> int:
        """Deal ``spec`` with the dealer the session's rotation chooses (C5)."""
        if self.session is None or self.session.is_over:
            raise CaseError("the session is over: there is no next hand to deal")
        try:
            self.hand = self._deal(spec, dealer=None)
        except EngineError as error:
            raise CaseError(f"cannot deal the next hand: {error}") from error
        return self.hand.dealer

    def session_result(self) -> dict[str, Any]:
        assert self.session is not None, "start() first"
        over = self.session.is_over
        return {**self.session.finish().to_dict(), "over": over}

    def _hand(self) -> Hand:
        assert self.hand is not None, "start() first"
        return self.hand

    def act(self, seat: int, action: str) -> list[dict[str, Any]]:
        hand = self._hand()
        try:
            parsed = Action.parse(action)
        except CardSyntaxError as error:
            raise CaseError(str(error)) from error
        # The engine's promise, checked at every step: its legal actions are what it accepts
        # (an offence it accepts to penalise, C16 and H26, says so by its event).
        listed = parsed in hand.legal_actions(seat)
        try:
            events = hand.apply(seat, parsed)
        except IllegalActionError as error:
            if listed:
                raise CaseError(
                    f"seat {seat} {action}: refused ({error.reason.value}), but the seat's "
                    "legal actions hold it"
                ) from error
            raise Refused(error.reason.value, str(error)) from error
        except EngineError as error:  # an explicit draw that is not in the waste pile
            raise CaseError(f"seat {seat} {action}: {error}") from error
        recorded = [e.to_dict() for e in events]
        penalised = any(e["kind"] == "illegal_play_penalised" for e in recorded)  # C16, H26
        if not listed and not penalised:
            raise CaseError(f"seat {seat} {action}: accepted, but not among its legal actions")
        return recorded

    def state(self) -> dict[str, Any]:
        return self.state_of(STATE_KEYS)

    def state_of(self, keys: Iterable[str]) -> dict[str, Any]:
        """Only the state keys asked for: a generated case checks five of the eight at every
        step, and every seat's view is most of the cost of a replay."""
        hand = self._hand()
        seats = range(hand.players)
        wanted = set(keys)
        views = [hand.view(s) for s in seats] if wanted & {"hands", "views"} else []
        state: dict[str, Any] = {}
        if "hand_sizes" in wanted:
            state["hand_sizes"] = list(hand.hand_sizes())
        if "turn" in wanted:
            state["turn"] = hand.to_move
        if "to_act" in wanted:
            state["to_act"] = list(hand.seats_to_act())
        if "legal" in wanted:
            state["legal"] = {str(s): [str(a) for a in hand.legal_actions(s)] for s in seats}
        if "hands" in wanted:
            state["hands"] = {str(s): [card_str(c) for c in views[s].hand] for s in seats}
        if "views" in wanted:
            state["views"] = {str(s): views[s].to_dict() for s in seats}
        if "waste_size" in wanted:
            state["waste_size"] = hand.waste.bit_count()
        if "out" in wanted:
            state["out"] = [s for s in seats if hand.out[s]]
        return state

    def result(self) -> dict[str, Any] | None:
        outcome = self._hand().outcome
        return None if outcome is None else outcome.to_dict()

    def close(self) -> None:
        self.hand = None


# --- comparing ----------------------------------------------------------------------------


_UNORDERED = {"cards", "to_act", "out", "hand", "losing_team"}
"""Keys whose lists are compared as sets: the order of cards in a pile is not a rule."""


@dataclass(frozen=True)
class Difference:
    """One place where what happened departs from what a case expects."""

    field: str
    """The path of the case's key that did not hold (``events[0].seat``, ``state.turn``)."""
    problem: str

    def __str__(self) -> str:
        return f"{self.field}: {self.problem}"


def differences(expected: Any, actual: Any, path: str = "") -> list[Difference]:
    """Where ``actual`` departs from ``expected``; keys absent from ``expected`` are free."""
    if expected == actual:  # the usual case, and most of a replay's time without this
        return []
    here = path or "value"
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [Difference(here, f"expected a mapping, got {actual!r}")]
        found: list[Difference] = []
        for key, value in expected.items():
            inner = f"{path}.{key}" if path else str(key)
            if key not in actual:
                found.append(Difference(inner, f"missing (expected {shown(value)!r})"))
            else:
                found.extend(differences(value, actual[key], inner))
        return found
    if isinstance(expected, list) and isinstance(actual, list):
        parts = path.split(".")
        in_set = len(parts) > 1 and parts[-2] in ("legal", "hands")  # state.legal.0
        if parts[-1] in _UNORDERED or in_set:
            if sorted(map(_norm, expected)) != sorted(map(_norm, actual)):
                wrong = f"expected {shown(expected)} (any order), got {shown(actual)}"
                return [Difference(here, wrong)]
            return []
        if len(expected) != len(actual):
            counts = f"expected {len(expected)} items {shown(expected)}, got {len(actual)}"
            return [Difference(here, f"{counts} {shown(actual)}")]
        out: list[Difference] = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(differences(e, a, f"{path}[{i}]"))
        return out
    if _norm(expected) != _norm(actual):
        return [Difference(here, f"expected {shown(expected)!r}, got {shown(actual)!r}")]
    return []


def shown(value: Any) -> Any:
    """``value`` as a message shows it: every card in its one written form (``TS`` and
    ``10s`` are shown ``10S``), whatever the case spelled."""
    if isinstance(value, str):
        try:
            return card_str(parse_card(value))
        except CardSyntaxError:
            return value
    if isinstance(value, list):
        return [shown(v) for v in value]
    return value


def _norm(value: Any) -> Any:
    """Cards compare by identity whatever their spelling (``10h`` and ``TH`` are ``10H``)."""
    if isinstance(value, list):
        return json.dumps(value, sort_keys=True)
    return shown(value)


# --- running ------------------------------------------------------------------------------


PHASES = ("case", "deal", "action", "end", "session")
"""Where in a case a failure was found: the case as a whole (unreadable, malformed, an API
discrepancy the adapter noted), the deal (starting the hand, its dealer, ``initial_state``:
everything before the first action), an action (``steps[step]``), the end of the hand (its
result, after the last action), or the session's result."""


@dataclass
class Failure:
    """One thing wrong with a replay, and where in the case it was found."""

    step: int | None
    """Index into the hand's ``steps`` list, so 0 is its first action; None for a failure
    that is not at an action (see ``phase``)."""
    what: str
    phase: str = ""
    """One of ``PHASES``; by default ``action`` when ``step`` is given, else ``case``."""
    hand: int | None = None
    """For a case of several hands: 0 for the case's own hand, n for ``next_hands[n-1]``;
    None for a case of one hand."""
    field: str | None = None
    """The case's key that did not hold, as a path from the step (``events[0].seat``,
    ``state.turn``, ``refused``) or from the hand or case (``initial_state.turn``,
    ``result.bhabhi``, ``session_result.chips``); None when no one key is at fault."""
    error: bool = False
    """True when the case could not be judged: the case is at fault (unreadable, malformed,
    a card it cannot spell, rules that differ from the ones it was recorded on) or the
    implementation could not be used at all (``CaseError``: the gRPC adapter's referee
    unreachable, a stream broken).  False for a departure from the case, a crash included:
    the implementation did what the case says it must not."""

    def __post_init__(self) -> None:
        if not self.phase:
            self.phase = "case" if self.step is None else "action"
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r} (one of {', '.join(PHASES)})")

    def location(self) -> str:
        """Where, in words that need no convention: ``action 3 (steps[2])``, ``at the deal``,
        ``hand 2 (next_hands[0]), at the end of the hand``."""
        hand = ""
        steps = "steps"
        if self.hand == 0:
            hand = "hand 1, "
        elif self.hand is not None:
            hand = f"hand {self.hand + 1} (next_hands[{self.hand - 1}]), "
            steps = f"next_hands[{self.hand - 1}].steps"
        if self.phase == "action":
            if self.hand:  # the path already names the hand
                hand = f"hand {self.hand + 1}, "
            return f"{hand}action {(self.step or 0) + 1} ({steps}[{self.step}])"
        if self.phase == "deal":
            return f"{hand}at the deal"
        if self.phase == "end":
            return f"{hand}at the end of the hand"
        if self.phase == "session":
            return "session result"
        return "case"

    def __str__(self) -> str:
        return f"{self.location()}: {self.what}"


@dataclass
class CaseResult:
    name: str
    path: str
    """Where the case was read: the file, and for JSON lines the line (``x.jsonl.gz:12``)."""
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    relative: str = ""
    """``path`` relative to the folder given whose search found it (a file named on the
    command line: relative to the current folder, or its name when outside it): the same on
    every machine, so that a report's test names line up from run to run."""
    provenance: dict[str, str] | None = None
    """The case's ``provenance_of`` (None for a case that could not be read)."""

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def status(self) -> str:
        """``pass``, ``fail`` (the implementation departed from the case) or ``error`` (the
        case could not be judged: some failure is an ``error``)."""
        if not self.failures:
            return "pass"
        return "error" if any(f.error for f in self.failures) else "fail"


STATUSES = ("pass", "fail", "error")


def tally(results: Iterable[CaseResult]) -> dict[str, int]:
    """How many results have each of ``STATUSES``."""
    counts = dict.fromkeys(STATUSES, 0)
    for result in results:
        counts[result.status] += 1
    return counts


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def validate_case(case: Any) -> list[str]:
    """Where ``case`` departs from the case schema (empty when it conforms).

    The states and events recorded at every step are checked by ``state_problems`` and
    ``event_problems``, direct transcriptions of the schema's ``$defs/state`` and
    ``$defs/event``: generic validation of a generated game's thousands of full states took
    longer than replaying it.  Everything else goes through the schema itself.
    """
    validator = _validator()
    problems: list[str] = []
    shell = case
    if isinstance(case, Mapping):
        shell = dict(case)
        if isinstance(case.get("initial_state"), Mapping):
            problems.extend(state_problems(case["initial_state"], "initial_state"))
            shell["initial_state"] = {}
        steps = case.get("steps")
        if isinstance(steps, list):
            light = []
            for index, step in enumerate(steps):
                if isinstance(step, Mapping) and isinstance(step.get("state"), Mapping):
                    problems.extend(state_problems(step["state"], f"steps.{index}.state"))
                    step = {**step, "state": {}}
                if isinstance(step, Mapping) and isinstance(step.get("events"), list):
                    problems.extend(event_problems(step["events"], f"steps.{index}.events"))
                    step = {**step, "events": []}
                light.append(step)
            shell["steps"] = light
    schema_errors = sorted(validator.iter_errors(shell), key=lambda e: list(e.absolute_path))
    found = [
        f"{'.'.join(map(str, e.absolute_path)) or '(root)'}: {_message(e, shell)}"
        for e in schema_errors
    ]
    return found + problems


def _message(error: ValidationError, case: Any) -> str:
    """The schema's message, but for the choice of ``provenance`` or ``generated``, whose
    generic message would quote the whole case, and for a ruleset that is no id."""
    where = list(error.absolute_path)
    if where == ["ruleset", "id"] and error.validator == "pattern":
        return not_an_id(str(error.instance))
    if where == ["ruleset"] and error.validator == "not":
        return "give 'file' or 'inline', not both"
    if error.validator == "oneOf" and not error.absolute_path and isinstance(case, Mapping):
        if "provenance" in case and "generated" in case:
            return "give 'provenance' or the older 'generated', not both"
        return (
            "'provenance' is a required property (or, in older cases, 'generated'): where "
            "the case's expectations come from"
        )
    return str(error.message)


PROVENANCES = ("hand-reasoned", "this-engine", "other-implementation")
"""``provenance.source`` of the case schema."""


def provenance_of(case: Any) -> dict[str, str] | None:
    """A case's ``provenance``, the older ``generated`` read as one (true: ``this-engine``,
    false: ``hand-reasoned``); None when it says neither, or not in a form the schema
    allows."""
    if not isinstance(case, Mapping):
        return None
    given = case.get("provenance")
    if isinstance(given, Mapping):
        if given.get("source") not in PROVENANCES:
            return None
        return {k: v for k, v in given.items() if isinstance(v, str)}
    generated = case.get("generated")
    if isinstance(generated, bool) and given is None:
        return {"source": "this-engine" if generated else "hand-reasoned"}
    return None


_CARD = re.compile(r"^(10|[2-9TJQKA])[CDHS](/[1-9])?$")
"""``$defs/card`` of the case schema (a test keeps the two in step)."""


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _lists_of(value: Any, item: Callable[[Any], bool]) -> bool:
    return isinstance(value, Mapping) and all(
        isinstance(v, list) and all(item(x) for x in v) for v in value.values()
    )


STATE_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "hand_sizes": (_ints, "a list of integers"),
    "turn": (lambda v: v is None or _int(v), "an integer or null"),
    "to_act": (_ints, "a list of integers"),
    "legal": (lambda v: _lists_of(v, lambda x: isinstance(x, str)), "seat -> list of actions"),
    "hands": (
        lambda v: _lists_of(v, lambda x: isinstance(x, str) and bool(_CARD.match(x))),
        "seat -> list of cards",
    ),
    "views": (
        lambda v: isinstance(v, Mapping) and all(isinstance(x, Mapping) for x in v.values()),
        "seat -> view mapping",
    ),
    "waste_size": (_int, "an integer"),
    "out": (_ints, "a list of integers"),
}
"""``$defs/state`` of the case schema, key by key (a test keeps the two in step)."""


@lru_cache(maxsize=1)
def event_kinds() -> frozenset[str]:
    """The event kinds the schema allows (read from it, so the two cannot drift apart)."""
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return frozenset(schema["$defs"]["event"]["properties"]["kind"]["enum"])


def event_problems(events: list[Any], where: str) -> list[str]:
    problems = []
    kinds = event_kinds()
    for index, event in enumerate(events):
        if not isinstance(event, Mapping):
            problems.append(f"{where}.{index}: expected an event mapping, got {event!r:.80}")
        elif "kind" not in event:
            problems.append(f"{where}.{index}: 'kind' is a required property")
        elif event["kind"] not in kinds:
            problems.append(
                f"{where}.{index}.kind: {event['kind']!r} is not one of {sorted(kinds)}"
            )
    return problems


def state_problems(state: Mapping[str, Any], where: str) -> list[str]:
    problems = []
    for key, value in state.items():
        check = STATE_CHECKS.get(key)
        if check is None:
            known = ", ".join(STATE_CHECKS)
            problems.append(f"{where}: unknown key {key!r} (a state may give {known})")
        elif not check[0](value):
            problems.append(f"{where}.{key}: expected {check[1]}, got {value!r:.80}")
    return problems


def run_case(
    case: Mapping[str, Any],
    adapter: Adapter,
    path: str = "",
    *,
    check_schema: bool = True,
    folder: Path | None = None,
) -> CaseResult:
    """Replay one case; every problem, the case's or the implementation's, is a failure.

    Nothing raised by the adapter escapes: a crash is reported as the failure of the step
    it happened at, so one broken case never hides the verdicts on the others.
    ``check_schema=False`` skips validation for cases already validated (mutation runs).
    ``folder``: where the case file is, which its ``ruleset.file`` is relative to.
    """
    name = case.get("name", path) if isinstance(case, Mapping) else path
    result = CaseResult(str(name), path, provenance=provenance_of(case))
    problems = validate_case(case) if check_schema else []
    if problems:
        result.failures.extend(
            Failure(None, f"malformed case: {p}", error=True) for p in problems[:5]
        )
        return result
    try:
        case = carry_ruleset_file(case, folder)
        adapter.start(case)
    except CaseError as error:
        result.failures.append(Failure(None, str(error), "deal", error=True))
        return result
    except DealDiffers as error:
        result.failures.append(Failure(None, str(error), "deal"))
        return result
    except Exception as error:  # an adapter's crash is the implementation's failure
        result.failures.append(Failure(None, f"start: {_crash(error)}", "deal"))
        return result
    hands = [case, *case.get("next_hands", [])]
    hand: int | None = None
    index: int | None = None
    phase = "deal"
    try:
        for number, spec in enumerate(hands):
            hand = number if len(hands) > 1 else None
            phase, index = "deal", None
            if number:
                dealer = adapter.next_hand(spec)  # the implementation's choice (C5)
                if "dealer" in spec and dealer != spec["dealer"]:
                    wrong = f"dealt by seat {dealer}, expected {spec['dealer']}"
                    result.failures.append(Failure(None, wrong, phase, hand))
                    return result
            if "initial_state" in spec:
                for d in differences(spec["initial_state"], adapter.state(), "initial_state"):
                    result.failures.append(Failure(None, str(d), phase, hand, d.field))
            phase = "action"
            for index, step in enumerate(spec["steps"]):
                found = _run_step(adapter, step, case.get("events_match", EXACT))
                if found:
                    result.failures.extend(
                        Failure(index, what, phase, hand, where) for where, what in found
                    )
                    return result  # later steps would only repeat the damage
            phase, index = "end", None
            expected = spec.get("result")
            if expected is not None:
                actual = adapter.result()
                if actual is None:
                    result.failures.append(
                        Failure(None, "the hand should be over but is not", phase, hand)
                    )
                    return result
                for d in differences(expected, actual, "result"):
                    result.failures.append(Failure(None, str(d), phase, hand, d.field))
        phase, hand = "session", None
        if "session_result" in case:
            actual = adapter.session_result()
            for d in differences(case["session_result"], actual, "session_result"):
                result.failures.append(Failure(None, str(d), phase, field=d.field))
    except CaseError as error:
        result.failures.append(Failure(index, str(error), phase, hand, error=True))
    except Exception as error:
        result.failures.append(Failure(index, _crash(error), phase, hand))
    finally:
        try:
            adapter.close()
        except Exception as error:
            result.failures.append(Failure(None, f"close: {_crash(error)}", "end"))
    return result


def _crash(error: BaseException) -> str:
    return f"the implementation raised {type(error).__name__}: {error}"


MAX_PER_STEP = 3
"""Differences reported per step: a wrong card early on changes a whole view."""

StepProblem = tuple[str | None, str]
"""(the field of the step that did not hold, or None; the message)."""


def _run_step(adapter: Adapter, step: Mapping[str, Any], events_match: str) -> list[StepProblem]:
    seat, action = step["seat"], step["action"]
    label = f"seat {seat} {shown(action)}"
    if "refused" in step:
        before = adapter.state()
        try:
            events = adapter.act(seat, action)
        except Refused as refusal:
            if refusal.reason != step["refused"]:
                wrong = f"refused with {refusal.reason!r}, expected {step['refused']!r}"
                return [("refused", f"{label}: {wrong}")]
            after = adapter.state()
            changed = differences(before, after, "state")
            if changed:
                listed = "; ".join(map(str, changed[:MAX_PER_STEP]))
                return [("refused", f"{label}: refused, but the state changed: {listed}")]
            return []
        accepted = f"expected refusal {step['refused']!r}, but it was accepted ({events})"
        return [("refused", f"{label}: {accepted}")]
    try:
        events = adapter.act(seat, action)
    except Refused as refusal:
        wrong = f"refused with {refusal.reason!r} ({refusal}), expected it to be accepted"
        return [(None, f"{label}: {wrong}")]
    if "events" in step:
        if step.get("events_match", events_match) == SUBSEQUENCE:
            found = subsequence_differences(step["events"], events)
        else:
            found = differences(step["events"], events, "events")
        if found:
            return [(d.field, f"{label}: {d}") for d in found[:MAX_PER_STEP]]
    if "state" in step:
        expected = step["state"]
        state_of = getattr(adapter, "state_of", None)  # an optional, cheaper partial state
        actual = state_of(expected.keys()) if callable(state_of) else adapter.state()
        found = differences(expected, actual, "state")
        if found:
            return [(d.field, f"{label}: {d}") for d in found[:MAX_PER_STEP]]
    return []


EXACT = "exact"
SUBSEQUENCE = "subsequence"
"""``events_match``: a step's ``events`` are every event the action caused (``exact``, the
default), or some of them, in the order caused, others free before, between and after
(``subsequence``: a case recorded by another engine states what that engine observed)."""


def subsequence_differences(expected: list[Any], actual: list[Any]) -> list[Difference]:
    """Where ``expected`` is not a subsequence of ``actual``: each expected event must match
    (as ``differences`` compares: the fields written) an event after the one the previous
    expected event matched.  Taking the first match each time is enough: a later one never
    leaves more events to match the rest.  Only the first event not found is reported."""
    position = 0
    for index, event in enumerate(expected):
        at = next(
            (i for i in range(position, len(actual)) if not differences(event, actual[i])),
            None,
        )
        if at is not None:
            position = at + 1
            continue
        caused = ", ".join(str(a.get("kind")) if isinstance(a, Mapping) else "?" for a in actual)
        after = f" after the event that matched events[{index - 1}]" if index else ""
        earlier = any(not differences(event, a) for a in actual[:position])
        order = " (it came earlier: out of order)" if earlier else ""
        problem = f"{shown_event(event)} not found{after}{order}; the action caused: {caused}"
        return [Difference(f"events[{index}]", problem)]
    return []


def shown_event(event: Any) -> str:
    """An expected event as a message shows it: ``{kind: card_played, seat: 1, card: 10S}``."""
    if not isinstance(event, Mapping):
        return repr(event)
    return "{" + ", ".join(f"{k}: {shown(v)}" for k, v in event.items()) + "}"


def is_case_file(path: Path) -> bool:
    """A file whose name a case file may have (its content decides, ``is_case_document``)."""
    return path.name.endswith(CASE_SUFFIXES)


FORMAT_PREFIX = "bhabhi-case/"


def is_case_document(data: Any) -> bool:
    """Whether a document found in a folder is meant as a case, by its content: a mapping
    whose ``format`` is ``bhabhi-case/...``, or (a case that forgot its ``format``) one
    with both ``deal`` and ``steps``.  Anything else beside the cases (a ``summary.json``,
    a CI configuration) is not a case, and a folder run skips it; a file named on the
    command line is read as a case whatever it holds."""
    if not isinstance(data, Mapping):
        return False
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith(FORMAT_PREFIX):
        return True
    return "format" not in data and "deal" in data and "steps" in data


NOT_A_CASE = f"not a case (no format: {FORMAT_PREFIX}...)"
"""Why a file found in a folder was skipped."""


@dataclass(frozen=True)
class CaseFile:
    """A file to read cases from, and how it was found."""

    path: Path
    folder: Path | None = None
    """The folder given whose search found the file; None when the file was named itself
    (then it is read as a case whatever it holds)."""


def case_files(paths: Iterable[str | Path]) -> Iterator[CaseFile]:
    """The case files under ``paths``: folders searched recursively for names a case file
    may have (``CASE_SUFFIXES``), files as given."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in sorted(p for p in path.rglob("*") if p.is_file() and is_case_file(p)):
                yield CaseFile(found, path)
        else:
            yield CaseFile(path)


def load_case(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def is_lines_file(path: Path) -> bool:
    """A file of many cases, one JSON document per line (``.jsonl``, ``.jsonl.gz``)."""
    return path.name.endswith((".jsonl", ".jsonl.gz"))


@dataclass
class LoadedCase:
    """One case as read from disk, or why it could not be read, or why it was skipped."""

    label: str
    """Where it came from: the file, and for JSON lines the line (``corpus/x.jsonl.gz:12``)."""
    case: Any = None
    error: str = ""
    skipped: str = ""
    """Set for a file found in a folder that does not hold cases (``is_case_document``):
    not a case, so neither a pass nor a failure."""
    relative: str = ""
    """``label`` relative to the folder searched (``CaseResult.relative``)."""
    file: Path | None = None
    """The file the case was read from (its ``ruleset.file`` is relative to its folder)."""


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a JSON lines file, numbered from 1, read lazily (a corpus
    file holds more cases than are worth keeping in memory at once)."""
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            for number, line in enumerate(stream, 1):
                if line.strip():
                    yield number, line
    else:
        with path.open(encoding="utf-8") as stream:
            for number, line in enumerate(stream, 1):
                if line.strip():
                    yield number, line


def lines_hold_cases(path: Path) -> bool:
    """Whether a JSON lines file found in a folder holds cases, by its first line: False
    only when that line is JSON and not a case (a log, a table of results); a file that
    cannot be read is read as cases, so that its damage is reported."""
    try:
        for _, line in read_lines(path):
            return is_case_document(json.loads(line))
    except (OSError, EOFError, UnicodeDecodeError, zlib.error, ValueError):
        return True
    return True


def load_cases(path: Path, *, folder: Path | None = None) -> Iterator[LoadedCase]:
    """Every case of one file; a file or line that cannot be read is a ``LoadedCase`` with
    ``error`` set (the run reports it, never as a traceback).  ``folder``: the file was found
    by searching that folder, and one that holds no case is a ``LoadedCase`` with
    ``skipped`` set."""
    label = str(path)
    rel = relative_path(path, folder)
    if not path.is_file():
        yield LoadedCase(label, error=f"no such case file: {path}", relative=rel)
        return
    if not is_lines_file(path):
        try:
            data = load_case(path)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError) as error:
            why = f"cannot read the case file: {one_line(error)}"
            yield LoadedCase(label, error=why, relative=rel)
            return
        if folder is not None and not is_case_document(data):
            yield LoadedCase(label, skipped=NOT_A_CASE, relative=rel)
        else:
            yield LoadedCase(label, data, relative=rel, file=path)
        return
    if folder is not None and not lines_hold_cases(path):
        yield LoadedCase(label, skipped=NOT_A_CASE, relative=rel)
        return
    number = 0
    try:
        for number, line in read_lines(path):
            at = f"{label}:{number}", f"{rel}:{number}"
            try:
                yield LoadedCase(at[0], json.loads(line), relative=at[1], file=path)
            except ValueError as error:
                yield LoadedCase(at[0], error=f"not a JSON case: {error}", relative=at[1])
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as error:
        where = f":{number + 1}" if number else ""
        why = f"cannot read the case file: {one_line(error)}"
        yield LoadedCase(label + where, error=why, relative=rel + where)


def relative_path(path: Path, folder: Path | None) -> str:
    """``path`` as the same text on every machine: relative to the folder whose search found
    it, else to the current folder (or its bare name when outside it), with ``/``."""
    base = folder if folder is not None else Path.cwd()
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.name


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def run_loaded(loaded: LoadedCase, adapter: Adapter, *, check_schema: bool = True) -> CaseResult:
    """``run_case`` on a case read from disk; an unreadable one is a failure of its own."""
    if loaded.skipped:
        raise ValueError(f"{loaded.label} is no case to run: {loaded.skipped}")
    if loaded.error:
        failure = Failure(None, loaded.error, error=True)
        return CaseResult(loaded.label, loaded.label, [failure], relative=loaded.relative)
    folder = None if loaded.file is None else loaded.file.parent
    result = run_case(loaded.case, adapter, loaded.label, check_schema=check_schema, folder=folder)
    result.relative = loaded.relative
    return result
