"""Conformance results as one JSON document, for tools that read a run rather than a person.

Every case with its status (``pass``, ``fail``, ``error``), every failure with where it was
found (phase, hand, step index, the case's field that did not hold) and its message, the
files skipped, and the totals.  The format is ``bhabhi-conformance-results/1``, described in
``conformance/schema/results.schema.json`` and in conformance/README.md; fields are only
ever added to it, a change of meaning would be a new version.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.conformance.runner import CaseResult, Failure, tally

FORMAT = "bhabhi-conformance-results/1"
_LINE = re.compile(r"^(.*\.jsonl(?:\.gz)?):(\d+)$")


def _file_and_line(label: str) -> tuple[str, int | None]:
    """``x.jsonl.gz:12`` is line 12 of ``x.jsonl.gz``; any other label is a file."""
    found = _LINE.match(label)
    if found is None:
        return label, None
    return found.group(1), int(found.group(2))


def failure_json(failure: Failure) -> dict[str, Any]:
    return {
        "kind": "error" if failure.error else "failure",
        "phase": failure.phase,
        "hand": failure.hand,
        "step": failure.step,
        "field": failure.field,
        "location": failure.location(),
        "message": failure.what,
    }


def case_json(result: CaseResult) -> dict[str, Any]:
    file, line = _file_and_line(result.path)
    relative, _ = _file_and_line(result.relative) if result.relative else (Path(file).name, None)
    return {
        "name": result.name,
        "file": file,
        "relative": relative,
        "line": line,
        "status": result.status,
        "provenance": result.provenance,
        "seconds": round(result.seconds, 6),
        "failures": [failure_json(f) for f in result.failures],
    }


def results_json(
    results: Sequence[CaseResult],
    *,
    implementation: str,
    skipped: Sequence[tuple[str, str]] = (),
    seconds: float = 0.0,
) -> dict[str, Any]:
    """The document of one run; ``skipped`` is (file, why) for every file skipped."""
    counts = tally(results)
    return {
        "format": FORMAT,
        "implementation": implementation,
        "totals": {
            "cases": len(results),
            "passed": counts["pass"],
            "failed": counts["fail"],
            "errors": counts["error"],
            "skipped_files": len(skipped),
        },
        "seconds": round(seconds, 3),
        "cases": [case_json(r) for r in results],
        "skipped": [{"file": file, "why": why} for file, why in skipped],
    }


def write_json(path: str | Path, document: dict[str, Any]) -> None:
    text = json.dumps(document, indent=1, ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")
