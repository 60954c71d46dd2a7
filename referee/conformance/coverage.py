"""Which clauses of the rules catalogue the conformance cases exercise, per ruleset.

A case lists the clause IDs it exercises (``clauses``) and names its ruleset; this counts,
for every (clause, ruleset) pair, the cases of each provenance apart: hand-reasoned
("hand-written"), exported from this engine ("generated") and recorded by another
implementation.  Only hand-reasoned cases satisfy the requirement that every clause a
bundled ruleset follows (its own ``clauses`` list) is exercised: a generated game records
what the engine did, and another implementation's game what that one did, so neither can
show that an engine does what the rule says.  The other counts are shown for information.
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.conformance.runner import (
    LoadedCase,
    case_files,
    is_lines_file,
    lines_hold_cases,
    load_cases,
    provenance_of,
    read_lines,
)
from referee.ruleset.catalogue import load_catalogue

CLAUSES: tuple[str, ...] = tuple(load_catalogue())
"""Every clause ID of the rules catalogue (rules/catalogue.yaml), in its order: the rule
documents' C, P, D, V, B, X and the house rules H1-H31 (the schemas' pattern allows these)."""

Pair = tuple[str, str]
"""(ruleset id, clause id)."""


@dataclass
class Coverage:
    hand: Counter[Pair] = field(default_factory=Counter)
    """Hand-written cases per (ruleset, clause)."""
    generated: Counter[Pair] = field(default_factory=Counter)
    """Cases exported from this engine."""
    other: Counter[Pair] = field(default_factory=Counter)
    """Cases recorded by another implementation."""
    required: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per bundled ruleset, the clauses it says it follows: each needs a hand-written case."""
    unreadable: list[str] = field(default_factory=list)
    """Cases that could not be counted (unreadable, or without ruleset or clauses)."""

    @property
    def rulesets(self) -> list[str]:
        """The bundled rulesets, then any other ruleset a case names."""
        seen = {r for counter in self.counters() for r, _ in counter}
        return [*self.required, *sorted(seen - set(self.required))]

    def counters(self) -> tuple[Counter[Pair], ...]:
        return self.hand, self.generated, self.other

    def missing(self) -> list[Pair]:
        """(ruleset, clause) pairs a bundled ruleset requires and no hand-written case has."""
        return [
            (ruleset, clause)
            for ruleset, clauses in self.required.items()
            for clause in clauses
            if not self.hand[(ruleset, clause)]
        ]


Facts = tuple[str, list[str], str]
"""What coverage needs of a case: its ruleset id, its clauses, its ``provenance.source``."""


def count(cases: Iterable[LoadedCase], required: Mapping[str, Sequence[str]]) -> Coverage:
    """Count ``cases`` (as ``runner.load_cases`` reads them) against ``required``."""
    return count_facts(((c.label, None if c.error else _facts(c.case)) for c in cases), required)


def count_facts(
    facts: Iterable[tuple[str, Facts | None]], required: Mapping[str, Sequence[str]]
) -> Coverage:
    coverage = Coverage(required={r: tuple(c) for r, c in required.items()})
    for label, found in facts:
        if found is None:
            coverage.unreadable.append(label)
            continue
        ruleset, clauses, source = found
        counter = {"hand-reasoned": coverage.hand, "this-engine": coverage.generated}.get(
            source, coverage.other
        )
        for clause in clauses:
            counter[(ruleset, clause)] += 1
    return coverage


def scan(paths: Iterable[str | Path]) -> Iterator[tuple[str, Facts | None]]:
    """The facts of every case under ``paths``, without parsing a generated game's steps:
    in a JSON lines file the keys coverage needs come before ``players`` (the exporter's
    order), so only that head of the line is parsed when it is valid JSON by itself; any
    other line is parsed whole.  Files found in a folder that hold no case are not counted
    (``bhabhi conformance run`` skips them too)."""
    for found in case_files(paths):
        path = found.path
        if not is_lines_file(path):
            for loaded in load_cases(path, folder=found.folder):
                if not loaded.skipped:
                    yield loaded.label, None if loaded.error else _facts(loaded.case)
            continue
        if found.folder is not None and not lines_hold_cases(path):
            continue
        try:
            for number, line in read_lines(path):
                yield f"{path}:{number}", _line_facts(line)
        except (OSError, EOFError, UnicodeDecodeError, zlib.error):
            yield str(path), None


def _line_facts(line: str) -> Facts | None:
    head = line.find(',"players":')
    if head > 0:
        try:
            found = _facts(json.loads(line[:head] + "}"))
        except ValueError:
            found = None
        if found is not None:
            return found
    try:
        return _facts(json.loads(line))
    except ValueError:
        return None


def _facts(case: Any) -> Facts | None:
    if not isinstance(case, Mapping):
        return None
    spec, clauses, provenance = case.get("ruleset"), case.get("clauses"), provenance_of(case)
    if not isinstance(spec, Mapping) or not isinstance(spec.get("id"), str):
        return None
    if not isinstance(clauses, list) or provenance is None:
        return None
    return spec["id"], [c for c in clauses if isinstance(c, str)], provenance["source"]


_CLAUSE_ORDER = {clause: index for index, clause in enumerate(CLAUSES)}


def _clause_rows(coverage: Coverage) -> list[str]:
    seen = {c for counter in coverage.counters() for _, c in counter}
    seen |= {c for clauses in coverage.required.values() for c in clauses}
    return sorted(seen, key=lambda c: (_CLAUSE_ORDER.get(c, len(CLAUSES)), c))


def format_table(coverage: Coverage) -> str:
    """Clause rows by ruleset columns; a cell is ``hand-written+generated`` (and
    ``+other`` when some case was recorded by another implementation), ``!`` marks a clause
    the ruleset follows with no hand-written case, ``.`` a clause it does not follow and no
    case exercises."""
    rulesets = coverage.rulesets
    rows = _clause_rows(coverage)
    with_other = bool(coverage.other)
    widths = [max(len(r), 8 if with_other else 6) for r in rulesets]
    header = "clause  " + "  ".join(r.rjust(w) for r, w in zip(rulesets, widths, strict=True))
    lines = [header, "-" * len(header)]
    for clause in rows:
        cells = []
        for ruleset, width in zip(rulesets, widths, strict=True):
            hand, generated, other = (c[(ruleset, clause)] for c in coverage.counters())
            required = clause in coverage.required.get(ruleset, ())
            if not hand and not generated and not other and not required:
                cell = "."
            else:
                cell = f"{hand}+{generated}" + (f"+{other}" if with_other else "")
                cell += "!" if required and not hand else ""
            cells.append(cell.rjust(width))
        lines.append(f"{clause:<8}" + "  ".join(cells))
    lines.append("")
    counted = (
        "hand-written+generated+other implementation" if with_other else ("hand-written+generated")
    )
    lines.append(
        f"cells: {counted} cases; '!' a clause the ruleset follows without a "
        "hand-written case; '.' not followed and not exercised"
    )
    return "\n".join(lines)


def to_json(coverage: Coverage) -> dict[str, Any]:
    rulesets = coverage.rulesets
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for clause in _clause_rows(coverage):
        row: dict[str, dict[str, Any]] = {}
        for ruleset in rulesets:
            hand, generated, other = (c[(ruleset, clause)] for c in coverage.counters())
            required = clause in coverage.required.get(ruleset, ())
            if hand or generated or other or required:
                row[ruleset] = {
                    "hand_written": hand,
                    "generated": generated,
                    "other_implementation": other,
                    "required": required,
                }
        table[clause] = row
    return {
        "rulesets": rulesets,
        "clauses": table,
        "missing": [{"ruleset": r, "clause": c} for r, c in coverage.missing()],
        "unreadable": list(coverage.unreadable),
    }


_CLAUSE_ID = re.compile(
    r"^(C1[0-6]|C[1-9]|P[1-3]|D[1-2]|V[1-5]|B[1-9]|X[1-5]|H[1-9]|H[12][0-9]|H3[01])$"
)


def is_clause(text: str) -> bool:
    return bool(_CLAUSE_ID.match(text))
