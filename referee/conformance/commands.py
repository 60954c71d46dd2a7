"""``bhabhi conformance``: run the cases, report clause coverage, mutation-test, generate.

* ``run [PATH...]`` replays cases (default ``conformance/cases`` and ``conformance/corpus``)
  on the engine in process, or with ``--target HOST:PORT`` on any referee through its public
  gRPC API.  Each failure names the file, the case, where in it (``action 3 (steps[2])``,
  ``at the deal`` ...), and what was expected and what happened; the last line is ``N
  passed, M failed, K errors``; the exit status is 0 only when every case passed.  A case
  that departs from the implementation failed; one that could not be judged (malformed,
  unreadable, the implementation unusable) is an error, never a traceback; a file in a
  folder that holds no case (by its content: ``runner.is_case_document``) is skipped and
  listed.  A path that does not exist, or a report that cannot be written, is bad usage.
  ``--rules DIR`` adds a folder of rulesets to the bundled ones, as ``$BHABHI_RULES_DIR``
  does; an id that two files give is bad usage, said before any case runs.
* ``coverage`` prints the clause x ruleset table and fails when a clause a bundled ruleset
  follows has no hand-written case.
* ``mutants`` changes each bundled ruleset in one option at a time and replays its cases on
  each change; it fails when a change that could alter a game goes unnoticed.
* ``generate`` writes the regression corpus of generated games.

Exit codes: 0 all good, 1 something failed (a case, a clause, a mutant), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from referee.conformance.runner import (
    CASES,
    CORPUS,
    NOT_A_CASE,
    Adapter,
    CaseFile,
    CaseResult,
    EngineAdapter,
    Failure,
    LoadedCase,
    case_files,
    is_lines_file,
    lines_hold_cases,
    load_cases,
    read_lines,
    relative_path,
    run_loaded,
    tally,
)

if TYPE_CHECKING:
    from referee.cli import Subparsers

DEFAULT_PATHS = (CASES, CORPUS)


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "conformance",
        help="replay conformance cases, report coverage, mutation-test the suite",
        description="The conformance suite: recorded games that any engine or referee must "
        "replay exactly (conformance/README.md).",
    )
    commands = parser.add_subparsers(dest="conformance_command", metavar="COMMAND", required=True)

    run = commands.add_parser(
        "run",
        help="replay cases and report every failure",
        description="Replay conformance cases (.yaml, .yml, .json, or many per .jsonl / "
        ".jsonl.gz file) on the engine, or on a referee with --target. The last line is "
        "'N passed, M failed, K errors' (an error: a case that could not be judged, such as "
        "a malformed one); the exit status is 0 only when every case passed, 2 for bad usage "
        "(a PATH that does not exist, a report that cannot be written).",
    )
    run.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="case files or folders (default: conformance/cases and conformance/corpus)",
    )
    run.add_argument(
        "--target",
        metavar="HOST:PORT",
        help="replay on the referee at HOST:PORT through the public gRPC API (run it with "
        "--test-mode: cases dictate the deal)",
    )
    run.add_argument(
        "--rules",
        action="append",
        default=[],
        type=Path,
        metavar="DIR",
        help="a folder of rulesets (DIR/*.yaml, DIR/house/*.yaml) added to the bundled ones, "
        "by id, as BHABHI_RULES_DIR adds them (repeatable); an id given twice is an error",
    )
    run.add_argument(
        "--junit",
        metavar="FILE",
        help="also write a JUnit XML report to FILE (checked before the run: its folder must "
        "exist)",
    )
    run.add_argument(
        "--json",
        metavar="FILE",
        help="also write the results as JSON to FILE: every case, its status, every failure "
        "with its step and field, the totals (format: conformance/README.md; checked before "
        "the run like --junit)",
    )
    run.add_argument(
        "--quiet", "-q", action="store_true", help="only the failures and the last line"
    )
    run.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (one is drawn only on a terminal, and never when CI is set)",
    )
    run.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="cases replayed at once, in N processes: each its own engine, or with --target "
        "its own connection to the referee (same results, in the same order)",
    )
    run.add_argument(
        "--check-streams",
        type=int,
        default=10,
        metavar="N",
        help="with --target: read every seat's event stream (WatchTable) in the first case "
        "and one case in N after, and check it against the referee's answers (1: every "
        "case; 0: none; default 10)",
    )
    run.set_defaults(func=run_command)

    coverage = commands.add_parser(
        "coverage",
        help="clause x ruleset table of the cases; fails on a clause without a case",
        description="Count, for every clause of the rules catalogue and every ruleset, the "
        "cases that exercise it by provenance: hand-written (hand-reasoned), generated (this "
        "engine's) and, when there are any, recorded by another implementation. Exit 1 when a "
        "clause that a bundled ruleset follows has no hand-written case.",
    )
    coverage.add_argument(
        "paths", nargs="*", metavar="PATH", help="case files or folders (default: as for run)"
    )
    coverage.add_argument("--json", action="store_true", help="one JSON object")
    coverage.set_defaults(func=coverage_command)

    mutants = commands.add_parser(
        "mutants",
        help="mutation-test the suite: does every one-option change of a ruleset fail a case?",
        description="For every bundled ruleset, every mutant (one enumerated option set to "
        "each other value, one boolean flipped, end.max_tricks made small) that validates "
        "replays the ruleset's cases until one fails. Exit 1 when a mutant that is not "
        "listed in conformance/equivalent-mutants.yaml survives.",
    )
    mutants.add_argument(
        "paths", nargs="*", metavar="PATH", help="case files or folders (default: as for run)"
    )
    mutants.add_argument(
        "--ruleset",
        action="append",
        metavar="ID",
        help="only this bundled ruleset (repeatable; default: all)",
    )
    mutants.add_argument("--jobs", type=int, default=1, metavar="N", help="processes to use")
    mutants.add_argument(
        "--equivalents",
        type=Path,
        default=None,
        metavar="FILE",
        help="the list of equivalent mutants (default: conformance/equivalent-mutants.yaml)",
    )
    mutants.add_argument(
        "--check-equivalents",
        action="store_true",
        help="run the listed equivalent mutants too: one that is caught has a wrong reason",
    )
    mutants.add_argument(
        "--verbose", "-v", action="store_true", help="also say which case caught each mutant"
    )
    mutants.add_argument("--json", action="store_true", help="one JSON object")
    code = mutants.add_argument_group(
        "code mutants",
        "--code mutates the engine's source (referee/engine/{hand,components,deadpos,session}"
        ".py: comparisons, and/or, +/-, a removed not, integers +-1) instead of the rulesets, "
        "one change at a time in a process of its own, and replays the hand-written cases and "
        "a sample of the corpus on each; equivalent ones are listed in "
        "conformance/equivalent-code-mutants.yaml",
    )
    code.add_argument("--code", action="store_true", help="mutate the engine's code")
    code.add_argument(
        "--sample", type=int, default=None, metavar="N", help="a sample of N mutants (default: all)"
    )
    code.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    code.add_argument(
        "--corpus-per-file",
        type=int,
        default=None,
        metavar="K",
        help="corpus games replayed per corpus file (default 8)",
    )
    code.add_argument(
        "--timeout", type=float, default=None, metavar="S", help="seconds per mutant (default 120)"
    )
    code.add_argument(
        "--only", metavar="TEXT", default=None, help="only the mutants whose label contains TEXT"
    )
    mutants.set_defaults(func=mutants_command)

    generate = commands.add_parser(
        "generate",
        help="write the regression corpus of generated games",
        description="Play games of every bundled ruleset with the random and heuristic bots "
        "(and the special games: partial deals, rare endings, a game at the bound) and write "
        "them, with legal actions and views at every step, to OUT/<ruleset>.jsonl.gz. "
        "Deterministic: the same code gives the same bytes.",
    )
    generate.add_argument(
        "--out", type=Path, default=CORPUS, metavar="DIR", help="default: conformance/corpus"
    )
    generate.add_argument(
        "--ruleset", action="append", metavar="ID", help="only this ruleset (repeatable)"
    )
    generate.add_argument(
        "--games-per",
        action="append",
        default=[],
        metavar="ID=N",
        help="base games for a ruleset instead of the built-in number (repeatable)",
    )
    generate.add_argument("--jobs", type=int, default=1, metavar="N", help="processes to use")
    generate.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if the files differ from what would be generated",
    )
    generate.set_defaults(func=generate_command)


# --- run ------------------------------------------------------------------------------------


def _paths(raw: Sequence[str]) -> list[Path]:
    """The paths given, or the default folders that exist."""
    if raw:
        return [Path(p) for p in raw]
    return [p for p in DEFAULT_PATHS if p.exists()]


Unit = tuple[int, str, str | None, int, int]
"""(file index, file, the folder it was found in, k, K): the cases of one file whose
position i has i % K == k."""


def _units(files: Sequence[CaseFile], jobs: int) -> list[Unit]:
    units: list[Unit] = []
    for index, found in enumerate(files):
        folder = None if found.folder is None else str(found.folder)
        stride = 2 * jobs if is_lines_file(found.path) else 1
        units.extend((index, str(found.path), folder, k, stride) for k in range(stride))
    return units


def _load_unit(path: Path, folder: Path | None, k: int, stride: int) -> list[LoadedCase]:
    """The cases of one unit; a JSON lines file split among units was found to hold cases
    by ``run_suite`` already."""
    if stride == 1 or not is_lines_file(path):
        return list(load_cases(path, folder=folder))
    rel = relative_path(path, folder)
    loaded: list[LoadedCase] = []
    try:
        for position, (number, line) in enumerate(read_lines(path)):
            if position % stride == k:
                at = f"{path}:{number}", f"{rel}:{number}"
                try:
                    case = json.loads(line)
                    loaded.append(LoadedCase(at[0], case, relative=at[1], file=path))
                except ValueError as error:
                    why = f"not a JSON case: {error}"
                    loaded.append(LoadedCase(at[0], error=why, relative=at[1]))
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as error:  # told once, by k == 0
        if k == 0:
            why = f"cannot read the case file: {error}"
            loaded.append(LoadedCase(str(path), error=why, relative=rel))
    return loaded


def run_one(loaded: LoadedCase, adapter: Adapter) -> CaseResult:
    """One case, timed; an adapter's own reports of API violations (the gRPC adapter's
    ``discrepancies``) made during it are failures of that case."""
    notes = getattr(adapter, "discrepancies", None)
    before = len(notes) if isinstance(notes, list) else 0
    started = time.perf_counter()
    result = run_loaded(loaded, adapter)
    result.seconds = time.perf_counter() - started
    if isinstance(notes, list):
        for note in notes[before:]:
            result.failures.append(Failure(None, f"API discrepancy: {note}"))
    return result


@dataclass
class Skipped:
    """A file found in a folder that holds no case, and why it was not read as one."""

    path: str
    why: str


UnitResults = tuple[list[tuple[int, int, CaseResult]], list[tuple[int, Skipped]]]


_worker_adapter: Adapter | None = None
"""A worker process's adapter for every unit it runs: its own connection to the referee
with ``--target``; None for the engine (a fresh ``EngineAdapter`` per unit)."""


def _start_remote_worker(target: str, check_streams: int) -> None:
    """A worker's one connection to the referee, kept for every unit it is given."""
    global _worker_adapter
    from referee.conformance.remote import RemoteAdapter

    _worker_adapter = RemoteAdapter(target, check_streams=check_streams)


def _run_unit(unit: Unit) -> UnitResults:
    index, path, folder, k, stride = unit
    adapter = _worker_adapter if _worker_adapter is not None else EngineAdapter()
    out: list[tuple[int, int, CaseResult]] = []
    skipped: list[tuple[int, Skipped]] = []
    lines = is_lines_file(Path(path))
    for loaded in _load_unit(Path(path), None if folder is None else Path(folder), k, stride):
        if loaded.skipped:
            skipped.append((index, Skipped(loaded.label, loaded.skipped)))
            continue
        line = loaded.label.rsplit(":", 1)[-1]
        order = int(line) if lines and line.isdigit() else 0
        out.append((index, order, run_one(loaded, adapter)))
    return out, skipped


@dataclass
class SuiteRun:
    """What a run found: every case's result in file order, and the files skipped."""

    results: list[CaseResult] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def run_suite(
    paths: Sequence[str | Path],
    adapter: Adapter | None = None,
    *,
    jobs: int = 1,
    target: str | None = None,
    on_file: Callable[[str, list[CaseResult]], None] | None = None,
    on_cases: Callable[[int], None] | None = None,
    check_streams: int = 10,
) -> SuiteRun:
    """Every case under ``paths``, in file order, on ``adapter`` (default: the engine), or
    with ``jobs`` > 1 in that many processes, each with its own engine or, given a
    ``target``, its own connection to the referee there (a referee spends most of a
    replay waiting on round trips and durable writes, which several connections overlap).

    ``on_file`` is told each file's results once it is done (in file order); ``on_cases``
    how many cases were just replayed, as they are (a progress bar's steps).
    ``check_streams``: with ``target``, the remote adapter's (``RemoteAdapter``)."""
    if adapter is None and target is not None and jobs <= 1:
        from referee.conformance.remote import RemoteAdapter

        with RemoteAdapter(target, check_streams=check_streams) as remote:
            return run_suite(paths, remote, on_file=on_file, on_cases=on_cases)
    files = list(case_files(paths))
    run = SuiteRun()
    if adapter is not None or jobs <= 1:
        engine = adapter if adapter is not None else EngineAdapter()
        for found in files:
            part: list[CaseResult] = []
            for loaded in load_cases(found.path, folder=found.folder):
                if loaded.skipped:
                    run.skipped.append(Skipped(loaded.label, loaded.skipped))
                else:
                    part.append(run_one(loaded, engine))
                    if on_cases:
                        on_cases(1)
            run.results.extend(part)
            if on_file and part:
                on_file(str(found.path), part)
        return run
    # A JSON lines file is split among the workers by line: whether it holds cases at all is
    # decided here, once, by its first line.
    skipped: list[tuple[int, Skipped]] = []
    kept: list[CaseFile] = []
    for found in files:
        searched_lines = found.folder is not None and is_lines_file(found.path)
        if searched_lines and not lines_hold_cases(found.path):
            skipped.append((len(kept), Skipped(str(found.path), NOT_A_CASE)))
        else:
            kept.append(found)
    units = _units(kept, jobs)
    collected: list[tuple[int, int, CaseResult]] = []
    processes = min(jobs, len(units)) or 1
    if target is None:
        pool = multiprocessing.Pool(processes)
    else:  # spawned: a gRPC library that has run in a process does not survive a fork
        spawn = multiprocessing.get_context("spawn")
        pool = spawn.Pool(
            processes, initializer=_start_remote_worker, initargs=(target, check_streams)
        )
    with pool:
        for unit_results, unit_skipped in pool.imap_unordered(_run_unit, units):
            collected.extend(unit_results)
            skipped.extend(unit_skipped)
            if on_cases:
                on_cases(len(unit_results))
    collected.sort(key=lambda item: (item[0], item[1]))
    run.skipped = [s for _, s in sorted(skipped, key=lambda item: (item[0], item[1].path))]
    for index, found in enumerate(kept):
        of_file = [r for i, _, r in collected if i == index]
        run.results.extend(of_file)
        if on_file and of_file:
            on_file(str(found.path), of_file)
    return run


def format_failure(result: CaseResult) -> str:
    word = "ERROR" if result.status == "error" else "FAIL"
    lines = [f"{word} {result.path}: case {result.name!r}"]
    lines.extend(f"    {failure}" for failure in result.failures)
    return "\n".join(lines)


def counts_line(results: Sequence[CaseResult]) -> str:
    """``N passed, M failed, K errors`` (``1 error``), as pytest says it: the last line of
    a run."""
    counts = tally(results)
    errors = counts["error"]
    return (
        f"{counts['pass']} passed, {counts['fail']} failed, "
        f"{errors} {'error' if errors == 1 else 'errors'}"
    )


class _Summary:
    """Prints each failure as its file is done, and one line per file of many cases or per
    folder of single-case files (one line per hand-written YAML file would drown them)."""

    def __init__(self, *, quiet: bool, write: Callable[[str], None]) -> None:
        self.quiet = quiet
        self.write = write
        """Prints a line (above the progress bar, when there is one)."""
        self.group = ""
        self.results: list[CaseResult] = []

    def add(self, path: str, results: list[CaseResult]) -> None:
        group = path if is_lines_file(Path(path)) else str(Path(path).parent) + "/"
        if group != self.group:
            self.flush()
            self.group = group
        for result in results:
            if not result.passed:
                self.write(format_failure(result))
        self.results.extend(results)

    def flush(self) -> None:
        if self.group and not self.quiet:
            self.write(f"{self.group}: {counts_line(self.results)}")
        self.group, self.results = "", []

    def skipped(self, skipped: Sequence[Skipped]) -> None:
        if skipped and not self.quiet:
            files = "file that holds" if len(skipped) == 1 else "files that hold"
            self.write(f"skipped {len(skipped)} {files} no case:")
            for item in skipped:
                self.write(f"    {item.path}: {item.why}")


def _missing(paths: Sequence[Path]) -> str:
    """The usage error for paths that do not exist (a typo must not pass as a failed or an
    empty run), or ''."""
    missing = [str(p) for p in paths if not p.exists()]
    if not missing:
        return ""
    return f"no such file or folder: {', '.join(missing)}"


def _unwritable(option: str, target: str) -> str:
    """Why a report cannot be written at ``target``, told before the run, or ''."""
    path = Path(target)
    folder = path.parent
    if path.is_dir():
        return f"{option} {target}: cannot write the report there: it is a folder"
    if not folder.is_dir():
        return f"{option} {target}: cannot write the report there: no folder {folder}"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"{option} {target}: cannot write the report there: permission denied"
    return ""


def run_command(args: argparse.Namespace) -> int:
    paths = _paths(args.paths)
    if not paths:
        return _usage("no cases: give a PATH (the default folders do not exist)")
    if args.jobs < 1:
        return _usage(f"--jobs must be at least 1, not {args.jobs}")
    if args.check_streams < 0:
        return _usage(f"--check-streams must be 0 or more, not {args.check_streams}")
    problems = [_missing(paths)]
    for option, target in (("--junit", args.junit), ("--json", args.json)):
        if target:
            problems.append(_unwritable(option, target))
    problems.extend(f"--rules {d}: no such folder" for d in args.rules if not d.is_dir())
    for problem in problems:
        if problem:
            return _usage(problem)
    from referee.ruleset.loader import RulesetError, bundled_ruleset_paths, rules_dirs_added

    with rules_dirs_added(args.rules):
        try:
            bundled_ruleset_paths()  # two files of one id: said before any case is run
        except RulesetError as error:
            return _usage(str(error))
        return _run(args, paths)


def _run(args: argparse.Namespace, paths: list[Path]) -> int:
    adapter: Adapter | None = None
    if args.target:
        try:
            from referee.conformance.remote import RemoteAdapter
        except ImportError as error:
            return _usage(f"the gRPC adapter is not available: {error}")
        if args.jobs == 1:
            adapter = RemoteAdapter(args.target, check_streams=args.check_streams)

    from referee.conformance.progress import CaseBar, count_cases, wanted

    started = time.perf_counter()
    shown = not args.quiet and not args.no_progress and wanted()
    total = count_cases(list(case_files(paths))) if shown else None
    with CaseBar(total, shown=shown) as bar:
        summary = _Summary(quiet=args.quiet, write=bar.write)
        try:
            run = run_suite(
                paths,
                adapter,
                jobs=args.jobs,
                target=args.target,
                on_file=summary.add,
                on_cases=bar.advance,
                check_streams=args.check_streams,
            )
        finally:
            disconnect = getattr(adapter, "disconnect", None)  # the referee's connection
            if callable(disconnect):
                disconnect()
        summary.flush()
        summary.skipped(run.skipped)
    seconds = time.perf_counter() - started
    results = run.results
    written = _write_reports(args, run, seconds)
    if not results:
        print("no cases found under " + ", ".join(map(str, paths)), file=sys.stderr)
    elif not args.quiet:
        print(f"({seconds:.1f} s)")
    print(counts_line(results))
    if not written:
        return 2
    return 0 if results and all(r.passed for r in results) else 1


def _write_reports(args: argparse.Namespace, run: SuiteRun, seconds: float) -> bool:
    """The --junit and --json reports asked for; False when one could not be written."""
    written = True
    if args.junit:
        from referee.conformance.junit import write_junit

        try:
            write_junit(args.junit, run.results)
        except OSError as error:
            print(f"bhabhi conformance run: cannot write {args.junit}: {error}", file=sys.stderr)
            written = False
    if args.json:
        from referee.conformance.jsonreport import results_json, write_json

        document = results_json(
            run.results,
            implementation=f"referee at {args.target}" if args.target else "engine",
            skipped=[(s.path, s.why) for s in run.skipped],
            seconds=seconds,
        )
        try:
            write_json(args.json, document)
        except OSError as error:
            print(f"bhabhi conformance run: cannot write {args.json}: {error}", file=sys.stderr)
            written = False
    return written


def _usage(message: str) -> int:
    print(f"bhabhi conformance: error: {message}", file=sys.stderr)
    return 2


# --- coverage -------------------------------------------------------------------------------


def coverage_command(args: argparse.Namespace) -> int:
    from referee.conformance.coverage import count_facts, format_table, scan, to_json
    from referee.ruleset.loader import RulesetError, bundled_ruleset_paths, load_ruleset

    required: dict[str, tuple[str, ...]] = {}
    for ruleset_id in sorted(bundled_ruleset_paths()):
        try:
            required[ruleset_id] = load_ruleset(ruleset_id).clauses
        except RulesetError as error:
            return _usage(f"bundled ruleset {ruleset_id!r} does not load: {error}")
    paths = _paths(args.paths)
    if _missing(paths):
        return _usage(_missing(paths))
    coverage = count_facts(scan(paths), required)
    missing = coverage.missing()
    if args.json:
        print(json.dumps(to_json(coverage), sort_keys=True))
        return 1 if missing else 0
    print(format_table(coverage))
    if coverage.unreadable:
        print(f"\n{len(coverage.unreadable)} cases not counted (unreadable or malformed):")
        for label in coverage.unreadable[:20]:
            print(f"  {label}")
    if missing:
        print(f"\n{len(missing)} clauses of bundled rulesets without a hand-written case:")
        by_ruleset: dict[str, list[str]] = {}
        for ruleset, clause in missing:
            by_ruleset.setdefault(ruleset, []).append(clause)
        for ruleset, clauses in by_ruleset.items():
            print(f"  {ruleset}: {', '.join(clauses)}")
        return 1
    print("\nevery clause of every bundled ruleset has a hand-written case")
    return 0


# --- mutants --------------------------------------------------------------------------------


def mutants_command(args: argparse.Namespace) -> int:
    from referee.conformance import mutants
    from referee.ruleset.loader import bundled_ruleset_paths

    if args.jobs < 1:
        return _usage(f"--jobs must be at least 1, not {args.jobs}")
    if args.code:
        return _code_mutants(args)
    known = bundled_ruleset_paths()
    for ruleset_id in args.ruleset or []:
        if ruleset_id not in known:
            return _usage(f"no bundled ruleset {ruleset_id!r} (known: {', '.join(sorted(known))})")
    paths = _paths(args.paths)
    if _missing(paths):
        return _usage(_missing(paths))
    try:
        report = mutants.run_mutants(
            paths,
            args.ruleset,
            jobs=args.jobs,
            equivalents=args.equivalents or mutants.EQUIVALENTS,
            check_equivalents=args.check_equivalents,
        )
    except ValueError as error:
        return _usage(str(error))
    if args.json:
        print(json.dumps(mutants.report_json(report), sort_keys=True))
    else:
        print(mutants.format_report(report, verbose=args.verbose))
    return 0 if report.ok else 1


def _code_mutants(args: argparse.Namespace) -> int:
    """``mutants --code``: mutation testing of the engine's source."""
    from referee.conformance import code_mutants

    if args.sample is not None and args.sample < 1:
        return _usage(f"--sample must be at least 1, not {args.sample}")
    paths = _paths(args.paths)
    if _missing(paths):
        return _usage(_missing(paths))
    try:
        report = code_mutants.run_code_mutants(
            [str(p.resolve()) for p in paths],
            sample=args.sample,
            seed=args.seed,
            jobs=args.jobs,
            corpus_per_file=(
                code_mutants.DEFAULT_CORPUS_PER_FILE
                if args.corpus_per_file is None
                else args.corpus_per_file
            ),
            timeout=code_mutants.DEFAULT_TIMEOUT if args.timeout is None else args.timeout,
            equivalents=args.equivalents or code_mutants.EQUIVALENTS,
            only=args.only,
        )
    except ValueError as error:
        return _usage(str(error))
    if args.json:
        print(json.dumps(code_mutants.report_json(report), sort_keys=True))
    else:
        print(code_mutants.format_report(report, verbose=args.verbose))
    return 0 if not report.survivors else 1


# --- generate -------------------------------------------------------------------------------


def generate_command(args: argparse.Namespace) -> int:
    from referee.conformance import corpus
    from referee.ruleset.loader import bundled_ruleset_paths

    if args.jobs < 1:
        return _usage(f"--jobs must be at least 1, not {args.jobs}")
    known = bundled_ruleset_paths()
    games: dict[str, int] = {}
    for item in args.games_per:
        ruleset_id, _, number = item.partition("=")
        if ruleset_id not in known or not number.isdigit() or int(number) < 1:
            return _usage(f"--games-per expects ID=N with a bundled ruleset id, not {item!r}")
        games[ruleset_id] = int(number)
    for ruleset_id in args.ruleset or []:
        if ruleset_id not in known:
            return _usage(f"no bundled ruleset {ruleset_id!r} (known: {', '.join(sorted(known))})")

    def show(written: corpus.Written) -> None:
        state = ("differs" if written.changed else "same") if args.check else "written"
        missing = f"; not found: {', '.join(written.missing)}" if written.missing else ""
        print(
            f"{written.ruleset:<20} {written.games:>5} games {written.steps:>7} steps "
            f"{written.size / 1e6:6.2f} MB  {state}{missing}",
            flush=True,
        )

    results = corpus.generate(
        args.out, args.ruleset, games, jobs=args.jobs, check=args.check, progress=show
    )
    total = sum(w.games for w in results)
    size = sum(w.size for w in results)
    print(f"{total} games, {size / 1e6:.1f} MB in {args.out}")
    if args.check and any(w.changed for w in results):
        print("the corpus differs from what the generator writes now", file=sys.stderr)
        return 1
    return 0
