"""A progress bar for long conformance runs, shown only to a person at a terminal.

The corpus alone is over a thousand games and takes a minute on one core; a person at a
terminal wants to see that it moves, how far it is and how fast (cases per second).  A CI
log or a file wants none of it: the bar is drawn only when standard error is a terminal and
the ``CI`` variable (set by every common CI service) is unset or empty.  ``tqdm`` draws it
(and obeys its own ``TQDM_DISABLE=1`` too); failures printed meanwhile go through
``CaseBar.write`` so that they are not torn by the bar.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Sequence
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm

from referee.conformance.runner import CaseFile, is_lines_file, lines_hold_cases, read_lines


def wanted(stream: TextIO | None = None) -> bool:
    """Whether a bar belongs on ``stream`` (default: standard error): a terminal, not CI."""
    target = sys.stderr if stream is None else stream
    isatty = getattr(target, "isatty", None)
    return bool(callable(isatty) and isatty()) and not os.environ.get("CI")


def count_cases(files: Sequence[CaseFile]) -> int:
    """How many cases ``files`` hold, for the bar's total: a line per case in a JSON lines
    file (about a second for the whole corpus, paid only when the bar is shown), one case
    per other file (a file skipped as no case makes the total one too high until the end)."""
    total = 0
    for found in files:
        if not is_lines_file(found.path):
            total += 1
            continue
        if found.folder is not None and not lines_hold_cases(found.path):
            continue
        try:
            total += sum(1 for _ in read_lines(found.path))
        except (OSError, EOFError, UnicodeDecodeError, zlib.error):
            total += 1  # reported as one error
    return total


class CaseBar:
    """The bar of one run, or nothing at all when ``shown`` is False."""

    def __init__(self, total: int | None, *, shown: bool) -> None:
        self._bar: tqdm[Any] | None = None
        if shown:
            self._bar = tqdm(
                total=total, unit="case", desc="conformance", leave=False, dynamic_ncols=True
            )

    def advance(self, cases: int) -> None:
        if self._bar is not None:
            self._bar.update(cases)

    def write(self, text: str) -> None:
        """Print ``text`` to standard output above the bar."""
        if self._bar is None:
            print(text, flush=True)
        else:
            self._bar.write(text, file=sys.stdout)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.total = self._bar.n  # the files skipped as no case
            self._bar.refresh()
            self._bar.close()
            self._bar = None

    def __enter__(self) -> CaseBar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
