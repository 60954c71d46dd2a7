"""Conformance results as JUnit XML, the one report format every CI system reads.

One ``<testcase>`` per case, named by the case and classed by its file relative to the
folder searched, so that a CI page lists a failing case where a person will look for it and
its history lines up from runner to runner; a failure (or an error) carries every message
of the case, in its body, and the first one in its ``message`` attribute.  The
XML is written with ``xml.etree`` so that any text in a case (quotes, ``<``, non-ASCII
names) is escaped correctly; characters XML 1.0 cannot hold at all are replaced.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from referee.conformance.runner import CaseResult, Failure, tally

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Control characters that XML 1.0 forbids even escaped: one in a message would make the
whole report unreadable to the CI system."""


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def failure_line(failure: Failure) -> str:
    """One failure as a person reads it: where in the case, then what went wrong."""
    return str(failure)


def _classname(relative: str) -> str:
    """A case's file, relative to the folder searched, as a JUnit class name (CI tools group
    test cases by its dotted parts): ``pickup-family/pickup/01-lead.yaml`` is
    ``pickup-family.pickup.01-lead``, line 12 of ``pickup.jsonl.gz`` is ``pickup``.  Never
    an absolute path: the checkout's folder differs from runner to runner, and a test's
    history is kept by its class and name."""
    file = relative.split(":", 1)[0] if re.search(r"\.jsonl(\.gz)?:\d+$", relative) else relative
    name = Path(file).as_posix()
    for suffix in (".jsonl.gz", ".jsonl", ".yaml", ".yml", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name.replace("/", ".").strip(".") or "conformance"


def junit_xml(results: Sequence[CaseResult], *, suite: str = "bhabhi-conformance") -> bytes:
    """The report of one run, as UTF-8 XML bytes: a case that departs from the
    implementation is a ``<failure>``, one that could not be judged (malformed, unreadable,
    the implementation unusable: ``CaseResult.status``) an ``<error>``."""
    tallied = tally(results)
    total_time = sum(r.seconds for r in results)
    counts = {
        "tests": str(len(results)),
        "failures": str(tallied["fail"]),
        "errors": str(tallied["error"]),
        "time": f"{total_time:.3f}",
    }
    root = ET.Element("testsuites", {"name": suite, **counts})
    node = ET.SubElement(root, "testsuite", {"name": suite, **counts, "skipped": "0"})
    for result in results:
        case = ET.SubElement(
            node,
            "testcase",
            name=_clean(result.name),
            classname=_clean(_classname(result.relative or Path(result.path).name)),
            file=_clean(result.path),
            time=f"{result.seconds:.3f}",
        )
        if result.failures:
            lines = [failure_line(f) for f in result.failures]
            error = result.status == "error"
            element = ET.SubElement(
                case,
                "error" if error else "failure",
                message=_clean(lines[0]),
                type="CaseError" if error else "ConformanceFailure",
            )
            element.text = _clean("\n".join([f"{result.path}: {result.name}", *lines]))
    ET.indent(root)
    text: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return text + b"\n"


def write_junit(
    path: str | Path, results: Sequence[CaseResult], *, suite: str = "bhabhi-conformance"
) -> None:
    Path(path).write_bytes(junit_xml(results, suite=suite))
