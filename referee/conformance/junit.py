"""Conformance results as JUnit XML, the one report format every CI system reads.

One ``<testcase>`` per case, named by the case and classed by its file, so that a CI page
lists a failing case where a person will look for it; a failure carries every message of
the case, step by step, in its body and the first one in its ``message`` attribute.  The
XML is written with ``xml.etree`` so that any text in a case (quotes, ``<``, non-ASCII
names) is escaped correctly; characters XML 1.0 cannot hold at all are replaced.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from referee.conformance.runner import CaseResult, Failure

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Control characters that XML 1.0 forbids even escaped: one in a message would make the
whole report unreadable to the CI system."""


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def failure_line(failure: Failure) -> str:
    """One failure as a person reads it: where in the case, then what went wrong."""
    return str(failure)


def _classname(path: str) -> str:
    """A file path as a JUnit class name: CI tools group test cases by its dotted parts."""
    file = path.split(":", 1)[0] if re.search(r"\.jsonl(\.gz)?:\d+$", path) else path
    name = Path(file).as_posix()
    for suffix in (".jsonl.gz", ".jsonl", ".yaml", ".yml", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name.replace("/", ".").lstrip(".") or "conformance"


def junit_xml(results: Sequence[CaseResult], *, suite: str = "bhabhi-conformance") -> bytes:
    """The report of one run, as UTF-8 XML bytes."""
    failed = sum(1 for r in results if not r.passed)
    total_time = sum(r.seconds for r in results)
    root = ET.Element(
        "testsuites",
        name=suite,
        tests=str(len(results)),
        failures=str(failed),
        errors="0",
        time=f"{total_time:.3f}",
    )
    node = ET.SubElement(
        root,
        "testsuite",
        name=suite,
        tests=str(len(results)),
        failures=str(failed),
        errors="0",
        skipped="0",
        time=f"{total_time:.3f}",
    )
    for result in results:
        case = ET.SubElement(
            node,
            "testcase",
            name=_clean(result.name),
            classname=_clean(_classname(result.path or result.name)),
            file=_clean(result.path),
            time=f"{result.seconds:.3f}",
        )
        if result.failures:
            lines = [failure_line(f) for f in result.failures]
            element = ET.SubElement(
                case, "failure", message=_clean(lines[0]), type="ConformanceFailure"
            )
            element.text = _clean("\n".join([f"{result.path}: {result.name}", *lines]))
    ET.indent(root)
    text: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return text + b"\n"


def write_junit(
    path: str | Path, results: Sequence[CaseResult], *, suite: str = "bhabhi-conformance"
) -> None:
    Path(path).write_bytes(junit_xml(results, suite=suite))
