"""How strong the conformance suite is: mutation testing of the bundled rulesets.

A *mutant* is a bundled ruleset with one option changed to another value the schema
allows: every enumerated option set to each of its other values, every boolean flipped,
``end.max_tricks`` made small, and every integer option one more and one less (within the
schema's bounds; one that may be null, "no limit", also null, and a null one its least
value).  A mutant that does not validate (a team game for three
players) is no ruleset and is skipped.  Each mutant replays its ruleset's cases (hand-written
first, then the generated corpus, cheapest first) on the engine with the mutated rules in
place of the real ones, stopping at the first case that fails: the mutant is *caught*.  A
suite that lets a mutant survive cannot tell that ruleset from a different game.

Some changes cannot alter any game (``off_suit.tochoo_picked_up_by`` when nobody plays a
tochoo; ``deck.identical_cards`` with one pack).  They are listed, each with the reason, in
``conformance/equivalent-mutants.yaml`` and are not run (``--check-equivalents`` runs them
too, and a listed mutant that is caught means its reason is wrong).  The target: every
other mutant caught.
"""

from __future__ import annotations

import copy
import functools
import json
import multiprocessing
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from referee import bundled
from referee.conformance.runner import (
    ROOT,
    EngineAdapter,
    LoadedCase,
    case_files,
    is_lines_file,
    load_cases,
    read_lines,
    run_loaded,
)
from referee.ruleset.loader import RulesetError, bundled_ruleset_paths, load_ruleset, resolve_text
from referee.ruleset.model import Ruleset

RULESET_SCHEMA = bundled.RULESET_SCHEMA
EQUIVALENTS = ROOT / "equivalent-mutants.yaml"
SMALL_MAX_TRICKS = 10
"""``end.max_tricks`` of the bound mutant: shorter than nearly every game, so a suite that
never checks where a hand ends lets it through."""

OptionPath = tuple[str, ...]


@dataclass(frozen=True, order=True)
class Mutant:
    ruleset: str
    option: str
    """Dotted path of the option changed (``off_suit.play``)."""
    value: Any = field(compare=False)

    @property
    def value_text(self) -> str:
        return json.dumps(self.value) if not isinstance(self.value, str) else self.value

    @property
    def label(self) -> str:
        return f"{self.ruleset}: {self.option} = {self.value_text}"

    def key(self) -> tuple[str, str, str]:
        return (self.ruleset, self.option, json.dumps(self.value))


# --- the mutants ----------------------------------------------------------------------------


def schema_options(schema: Mapping[str, Any] | None = None) -> list[tuple[OptionPath, list[Any]]]:
    """Every option the mutants change, with every value it may take: the schema's
    enumerated options and booleans, found by walking its properties (so a new option is
    mutated without a change here), and ``end.max_tricks``."""
    if schema is None:
        schema = json.loads(RULESET_SCHEMA.read_text(encoding="utf-8"))
    found: list[tuple[OptionPath, list[Any]]] = []

    def walk(node: Mapping[str, Any], path: OptionPath) -> None:
        for name, prop in node.get("properties", {}).items():
            here = (*path, name)
            if "enum" in prop:
                found.append((here, list(prop["enum"])))
            elif prop.get("type") == "boolean":
                found.append((here, [False, True]))
            elif here == ("end", "max_tricks"):
                found.append((here, [SMALL_MAX_TRICKS]))
            elif prop.get("type") == "object":
                walk(prop, here)

    walk(schema, ())
    return found


@dataclass(frozen=True)
class IntegerOption:
    """An integer option of the ruleset schema, with the bounds its mutants keep to."""

    path: OptionPath
    minimum: int
    maximum: int
    nullable: bool
    """The option may be null (``session.hands``: no limit)."""

    def values(self, current: Any) -> list[Any]:
        """The mutants' values: one less and one more than ``current`` within the bounds,
        and null if the option may be null; for a null ``current``, the least value."""
        if current is None:
            return [self.minimum]
        found: list[Any] = [
            v for v in (current - 1, current + 1) if self.minimum <= v <= self.maximum
        ]
        if self.nullable:
            found.append(None)
        return found


def integer_options(schema: Mapping[str, Any] | None = None) -> list[IntegerOption]:
    """Every integer option of the schema (``deck.packs``, ``session.chips`` ...), found by
    walking its properties like ``schema_options``."""
    if schema is None:
        schema = _ruleset_schema()
    found: list[IntegerOption] = []

    def walk(node: Mapping[str, Any], path: OptionPath) -> None:
        for name, prop in node.get("properties", {}).items():
            here = (*path, name)
            kind = prop.get("type")
            kinds = kind if isinstance(kind, list) else [kind]
            if "integer" in kinds:
                found.append(IntegerOption(here, prop["minimum"], prop["maximum"], "null" in kinds))
            elif kind == "object":
                walk(prop, here)

    walk(schema, ())
    return found


def _get(data: Mapping[str, Any], path: OptionPath) -> Any:
    """An option's value in a resolved ruleset; an optional option that it leaves out has
    the schema's ``default`` (a mutant is every other value)."""
    node: Any = data
    for key in path:
        try:
            node = node[key]
        except KeyError:
            return _schema_default(path)
    return node


@functools.cache
def _ruleset_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(RULESET_SCHEMA.read_text(encoding="utf-8"))
    return schema


def _schema_default(path: OptionPath) -> Any:
    """The schema's ``default``; None for an optional option without one, which a ruleset
    writes only with the option that needs it (H12's ``trump_suit``)."""
    node: Any = _ruleset_schema()
    for key in path:
        node = node["properties"][key]
    return node.get("default")


def mutate(source: Mapping[str, Any], path: OptionPath, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(dict(source))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def validate(data: Mapping[str, Any]) -> list[str]:
    """The problems of a mutated ruleset, by the loader's own checks (schema, semantics)."""
    _, problems = resolve_text(yaml.safe_dump(dict(data), sort_keys=False), "<mutant>")
    return [p.message for p in problems]


@dataclass
class Mutants:
    """The mutants of one ruleset: valid ones with their rules, and the ones skipped."""

    ruleset: str
    valid: list[tuple[Mutant, dict[str, Any]]] = field(default_factory=list)
    invalid: list[tuple[Mutant, str]] = field(default_factory=list)


def mutants_of(
    rules: Ruleset,
    options: Sequence[tuple[OptionPath, list[Any]]],
    integers: Sequence[IntegerOption] | None = None,
) -> Mutants:
    """``rules``' mutants: ``options`` at each of their values, and ``integers`` (by default
    the schema's integer options) one off their values (``IntegerOption.values``)."""
    found = Mutants(rules.id)
    if integers is None:
        integers = integer_options()
    changes = [(path, list(values)) for path, values in options]
    changes += [(o.path, o.values(_get(rules.source, o.path))) for o in integers]
    seen: set[tuple[OptionPath, str]] = set()
    for path, values in changes:
        current = _get(rules.source, path)
        for value in values:
            if value == current or (path, json.dumps(value)) in seen:
                continue
            seen.add((path, json.dumps(value)))
            mutant = Mutant(rules.id, ".".join(path), value)
            data = mutate(rules.source, path, value)
            problems = validate(data)
            if problems:
                found.invalid.append((mutant, problems[0]))
            else:
                found.valid.append((mutant, data))
    return found


# --- the equivalent mutants -----------------------------------------------------------------


@dataclass(frozen=True)
class Equivalent:
    mutant: Mutant
    reason: str


def load_equivalents(path: Path = EQUIVALENTS) -> list[Equivalent]:
    """The equivalent mutants, each with its reason.  An entry may name several rulesets
    (``ruleset: [a, b]``) or values (``value: [x, y]``), for one reason shared by all."""
    if not path.is_file():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of equivalent mutants")
    found: list[Equivalent] = []
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, Mapping) or not {"ruleset", "option", "value", "reason"} <= set(
            entry
        ):
            raise ValueError(f"{path}: entry {number} needs ruleset, option, value and reason")
        rulesets = entry["ruleset"] if isinstance(entry["ruleset"], list) else [entry["ruleset"]]
        values = entry["value"] if isinstance(entry["value"], list) else [entry["value"]]
        reason = " ".join(str(entry["reason"]).split())
        for ruleset in rulesets:
            for value in values:
                found.append(Equivalent(Mutant(str(ruleset), str(entry["option"]), value), reason))
    return found


def is_current(source: Mapping[str, Any], mutant: Mutant) -> bool:
    """Whether ``mutant`` names the value the ruleset has already: no mutant, but harmless
    in an entry that lists every value of an option for several rulesets at once."""
    try:
        return bool(_get(source, tuple(mutant.option.split("."))) == mutant.value)
    except (KeyError, TypeError):
        return False


# --- the cases of a ruleset -----------------------------------------------------------------


@dataclass
class CasePlan:
    """Where a ruleset's cases are, in the order a mutant replays them."""

    ruleset: str
    hand_written: list[LoadedCase] = field(default_factory=list)
    lines: list[tuple[str, list[int]]] = field(default_factory=list)
    """JSON lines files and which of their lines (1-based) are this ruleset's."""

    @property
    def size(self) -> int:
        return len(self.hand_written) + sum(len(numbers) for _, numbers in self.lines)


def _ruleset_of(case: Any) -> str | None:
    """The bundled ruleset a case replays, or None (an inline ruleset or a file is its own
    rules: a mutant of the bundled one does not apply to it)."""
    if not isinstance(case, Mapping) or not isinstance(case.get("ruleset"), Mapping):
        return None
    spec = case["ruleset"]
    if "inline" in spec or "file" in spec or not isinstance(spec.get("id"), str):
        return None
    return str(spec["id"])


def plan_cases(paths: Sequence[str | Path]) -> dict[str, CasePlan]:
    """Every ruleset's cases under ``paths``: hand-written ones in memory, fewest steps first;
    lines files by line number (a corpus file is already written cheapest first)."""
    plans: dict[str, CasePlan] = {}

    def plan(ruleset: str) -> CasePlan:
        return plans.setdefault(ruleset, CasePlan(ruleset))

    for case_file in case_files(paths):
        path = case_file.path
        if is_lines_file(path):
            per_ruleset: dict[str, list[int]] = {}
            for loaded in load_cases(path, folder=case_file.folder):
                ruleset = None if loaded.error or loaded.skipped else _ruleset_of(loaded.case)
                if ruleset is not None:
                    number = int(loaded.label.rsplit(":", 1)[1])
                    per_ruleset.setdefault(ruleset, []).append(number)
            for ruleset, numbers in per_ruleset.items():
                plan(ruleset).lines.append((str(path), numbers))
            continue
        for loaded in load_cases(path, folder=case_file.folder):
            ruleset = None if loaded.error or loaded.skipped else _ruleset_of(loaded.case)
            if ruleset is not None:
                plan(ruleset).hand_written.append(loaded)
    for found in plans.values():
        found.hand_written.sort(key=lambda c: (_steps(c.case), c.label))
    return plans


def _steps(case: Any) -> int:
    steps = case.get("steps") if isinstance(case, Mapping) else None
    return len(steps) if isinstance(steps, list) else 0


def iter_plan(plan: CasePlan) -> Iterator[LoadedCase]:
    yield from plan.hand_written
    for path, numbers in plan.lines:
        wanted = set(numbers)
        for number, line in read_lines(Path(path)):
            if number in wanted:
                try:
                    yield LoadedCase(f"{path}:{number}", json.loads(line))
                except ValueError:
                    continue  # reported by ``bhabhi conformance run``


# --- running --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    mutant: Mutant
    caught_by: str | None
    """The first case that failed (``file: name``), None if the mutant survived."""
    why: str
    cases_run: int
    seconds: float
    equivalent: str | None = None
    """The listed reason, when the mutant is listed as equivalent (and was run)."""

    @property
    def caught(self) -> bool:
        return self.caught_by is not None


def run_mutant(mutant: Mutant, data: Mapping[str, Any], plan: CasePlan) -> Verdict:
    """Replay ``plan``'s cases on the mutated rules until one fails."""
    started = time.perf_counter()
    adapter = EngineAdapter(Ruleset.from_mapping(data))
    run = 0
    for loaded in iter_plan(plan):
        run += 1
        result = run_loaded(loaded, adapter, check_schema=False)
        if not result.passed:
            return Verdict(
                mutant,
                f"{loaded.label}: {result.name}",
                str(result.failures[0]),
                run,
                time.perf_counter() - started,
            )
    return Verdict(mutant, None, "", run, time.perf_counter() - started)


def _task(task: tuple[Mutant, dict[str, Any], CasePlan, str | None]) -> Verdict:
    mutant, data, plan, equivalent = task
    verdict = run_mutant(mutant, data, plan)
    if equivalent is None:
        return verdict
    return Verdict(
        verdict.mutant,
        verdict.caught_by,
        verdict.why,
        verdict.cases_run,
        verdict.seconds,
        equivalent,
    )


@dataclass
class Report:
    verdicts: list[Verdict] = field(default_factory=list)
    equivalent: list[Equivalent] = field(default_factory=list)
    """Listed equivalent mutants of the rulesets tested (run or not)."""
    invalid: list[tuple[Mutant, str]] = field(default_factory=list)
    stale: list[Equivalent] = field(default_factory=list)
    """Listed equivalents that match no valid mutant (an option renamed, a ruleset changed)."""
    no_cases: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def tested(self) -> list[Verdict]:
        """The verdicts on mutants not listed as equivalent."""
        return [v for v in self.verdicts if v.equivalent is None]

    @property
    def survivors(self) -> list[Verdict]:
        return [v for v in self.tested if not v.caught]

    @property
    def wrongly_equivalent(self) -> list[Verdict]:
        """Listed as equivalent, yet some case told them apart: the reason is wrong."""
        return [v for v in self.verdicts if v.equivalent is not None and v.caught]

    @property
    def ok(self) -> bool:
        return not self.survivors and not self.wrongly_equivalent and not self.no_cases


def run_mutants(
    paths: Sequence[str | Path],
    rulesets: Sequence[str] | None = None,
    *,
    jobs: int = 1,
    equivalents: Path = EQUIVALENTS,
    check_equivalents: bool = False,
) -> Report:
    """Generate every ruleset's mutants, replay the cases on each, and report."""
    started = time.perf_counter()
    ids = list(rulesets) if rulesets else sorted(bundled_ruleset_paths())
    options = schema_options()
    listed = {e.mutant.key(): e for e in load_equivalents(equivalents)}
    plans = plan_cases(paths)
    report = Report()
    tasks: list[tuple[Mutant, dict[str, Any], CasePlan, str | None]] = []
    matched: set[tuple[str, str, str]] = set()
    for ruleset_id in ids:
        try:
            rules = load_ruleset(ruleset_id)
        except RulesetError as error:
            raise ValueError(f"cannot load ruleset {ruleset_id!r}: {error}") from error
        found = mutants_of(rules, options)
        report.invalid.extend(found.invalid)
        plan = plans.get(ruleset_id, CasePlan(ruleset_id))
        if not plan.size:
            report.no_cases.append(ruleset_id)
        for mutant, data in found.valid:
            equivalent = listed.get(mutant.key())
            if equivalent is not None:
                matched.add(mutant.key())
                report.equivalent.append(equivalent)
                if not check_equivalents:
                    continue
            tasks.append((mutant, data, plan, equivalent.reason if equivalent else None))
    sources = {ruleset_id: load_ruleset(ruleset_id).source for ruleset_id in ids}
    report.stale = [
        e
        for key, e in listed.items()
        if key not in matched
        and e.mutant.ruleset in ids
        and not is_current(sources[e.mutant.ruleset], e.mutant)
    ]
    # The mutants of the ruleset with the most cases first, so that no slow one starts last.
    tasks.sort(key=lambda t: -t[2].size)
    if jobs <= 1 or len(tasks) <= 1:
        report.verdicts = [_task(t) for t in tasks]
    else:
        with multiprocessing.Pool(min(jobs, len(tasks))) as pool:
            report.verdicts = list(pool.imap_unordered(_task, tasks))
    report.verdicts.sort(key=lambda v: v.mutant)
    report.seconds = time.perf_counter() - started
    return report


# --- the report -----------------------------------------------------------------------------


def format_report(report: Report, *, verbose: bool = False) -> str:
    lines: list[str] = []
    rulesets = sorted(
        {v.mutant.ruleset for v in report.verdicts}
        | {e.mutant.ruleset for e in report.equivalent}
        | {m.ruleset for m, _ in report.invalid}
    )
    header = (
        f"{'ruleset':<20} {'mutants':>7} {'caught':>7} {'survived':>8} "
        f"{'equivalent':>10} {'invalid':>7}"
    )
    lines += [header, "-" * len(header)]
    for ruleset in rulesets:
        tested = [v for v in report.tested if v.mutant.ruleset == ruleset]
        caught = sum(1 for v in tested if v.caught)
        listed = sum(1 for e in report.equivalent if e.mutant.ruleset == ruleset)
        invalid = sum(1 for m, _ in report.invalid if m.ruleset == ruleset)
        lines.append(
            f"{ruleset:<20} {len(tested):>7} {caught:>7} {len(tested) - caught:>8} "
            f"{listed:>10} {invalid:>7}"
        )
    if verbose:
        lines += ["", "caught:"]
        for verdict in report.tested:
            if verdict.caught:
                lines.append(
                    f"  {verdict.mutant.label}: by {verdict.caught_by} "
                    f"({verdict.cases_run} cases, {verdict.seconds:.1f} s)\n      {verdict.why}"
                )
    if report.equivalent:
        lines += ["", "equivalent mutants (conformance/equivalent-mutants.yaml), not counted:"]
        for equivalent in sorted(report.equivalent, key=lambda e: e.mutant):
            lines.append(f"  {equivalent.mutant.label}\n      {equivalent.reason}")
    if report.wrongly_equivalent:
        lines += ["", "listed as equivalent, but a case tells them apart (the reason is wrong):"]
        for verdict in report.wrongly_equivalent:
            lines.append(f"  {verdict.mutant.label}: by {verdict.caught_by}\n      {verdict.why}")
    if report.stale:
        lines += ["", "listed as equivalent, but no such mutant (remove the entry):"]
        lines += [f"  {e.mutant.label}" for e in report.stale]
    if report.no_cases:
        lines += ["", f"rulesets without any case: {', '.join(report.no_cases)}"]
    survivors = report.survivors
    lines += ["", "survivors:" if survivors else "survivors: none"]
    for verdict in survivors:
        lines.append(f"  {verdict.mutant.label} ({verdict.cases_run} cases passed)")
    tested = report.tested
    caught = sum(1 for v in tested if v.caught)
    lines.append(
        f"{caught}/{len(tested)} mutants caught ({len(report.equivalent)} equivalent, "
        f"{len(report.invalid)} not valid rulesets; {report.seconds:.0f} s)"
    )
    return "\n".join(lines)


def report_json(report: Report) -> dict[str, Any]:
    def verdict(v: Verdict) -> dict[str, Any]:
        return {
            "ruleset": v.mutant.ruleset,
            "option": v.mutant.option,
            "value": v.mutant.value,
            "caught": v.caught,
            "caught_by": v.caught_by,
            "why": v.why,
            "cases_run": v.cases_run,
            "seconds": round(v.seconds, 3),
            "equivalent": v.equivalent,
        }

    def mutant(m: Mutant) -> dict[str, Any]:
        return {"ruleset": m.ruleset, "option": m.option, "value": m.value}

    return {
        "caught": sum(1 for v in report.tested if v.caught),
        "total": len(report.tested),
        "verdicts": [verdict(v) for v in report.verdicts],
        "survivors": [mutant(v.mutant) for v in report.survivors],
        "equivalent": [{**mutant(e.mutant), "reason": e.reason} for e in report.equivalent],
        "wrongly_equivalent": [verdict(v) for v in report.wrongly_equivalent],
        "invalid": [{**mutant(m), "problem": p} for m, p in report.invalid],
        "stale_equivalents": [mutant(e.mutant) for e in report.stale],
        "rulesets_without_cases": list(report.no_cases),
        "seconds": round(report.seconds, 1),
    }
