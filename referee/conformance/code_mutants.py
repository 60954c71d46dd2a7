"""How strong the conformance suite is against wrong *code*: mutation testing of the engine.

``bhabhi conformance mutants`` changes a ruleset's options; this changes the engine's
source.  A *code mutant* is ``referee/engine/{hand,components,deadpos,session}.py`` with
one small change, the kind a slip of the pen makes:

* a comparison turned round (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``is``
  and ``is not``, ``in`` and ``not in``);
* ``and`` for ``or`` and back;
* ``+`` for ``-`` and back (``+=`` and ``-=`` too);
* a ``not`` removed;
* an integer constant one more or one less.

Docstrings, f-strings and functions that return ``str`` are left alone: a message's
wording is not a rule of the game (the cases check refusal reasons, the unit tests the
text).

Each mutant runs in a fresh Python process of its own (``python -m
referee.conformance.code_mutants --worker``), in which an import hook compiles the mutated
source in place of the module's file, so every module that imports it, by name or by
``from ... import``, gets the mutant.  The process replays the hand-written cases and a
sample of the corpus in process, stopping at the first failure, and then replays random
playouts of every ruleset those cases played through ``Hand`` (the fast playout is the
engine's second statement of the rules): a failure of either kills the mutant; a
mutant whose replay takes longer than ``timeout`` seconds (an endless loop) is killed as
well.  One that passes everything *survives*.

There are thousands of sites, so a run draws a deterministic sample (``sample``, ``seed``).
Some mutants cannot change any game (``min(a, b)`` written as a comparison that agrees at
the tie, a bound never reached); they are listed, with the reason, in
``conformance/equivalent-code-mutants.yaml`` by file, source line and mutation (never by
line number, so that an edit elsewhere in the file does not stale the list), and are not
counted.  The target: no other mutant of the sample survives.
"""

from __future__ import annotations

import argparse
import ast
import importlib.abc
import importlib.machinery
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The folder holding the ``referee`` package."""
TARGETS = (
    "referee.engine.hand",
    "referee.engine.components",
    "referee.engine.deadpos",
    "referee.engine.session",
)
EQUIVALENTS = PACKAGE_ROOT / "conformance" / "equivalent-code-mutants.yaml"
DEFAULT_CORPUS_PER_FILE = 8
"""Corpus games replayed per corpus file (the first ones: a corpus is written cheapest first)."""
DEFAULT_TIMEOUT = 120.0

_COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_SYMBOL: dict[type[ast.AST], str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.And: "and",
    ast.Or: "or",
    ast.Add: "+",
    ast.Sub: "-",
}


@dataclass(frozen=True, order=True)
class CodeMutant:
    module: str
    line: int
    column: int
    mutation: str
    """What changes, as written in the equivalents file: ``< to <=``, ``remove not``,
    ``3 to 4``."""
    site: int
    """Index of the change among the module's changes (``sites`` order)."""
    code: str
    """The source line, stripped."""

    @property
    def file(self) -> str:
        return self.module.replace(".", "/") + ".py"

    @property
    def label(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.mutation}   ({self.code})"


# --- the mutations --------------------------------------------------------------------------


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def _in_messages(tree: ast.AST) -> set[int]:
    """Every node inside an f-string or a function that returns ``str`` (``__repr__``,
    ``_why_no_take``): what a message says, not what the game does.  The wording of the
    engine's messages is the unit tests' to check; the cases check the refusal reasons,
    never the text."""
    found: set[int] = set()
    for node in ast.walk(tree):
        words = isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.FunctionDef)
            and isinstance(node.returns, ast.Name)
            and node.returns.id == "str"
        )
        if words:
            found.update(id(inner) for inner in ast.walk(node))
    return found


def _changes(tree: ast.AST) -> Iterator[tuple[ast.AST, str, Any]]:
    """Every (node, mutation, how) of ``tree``, in one fixed order (``ast.walk``), but
    those in docstrings and messages."""
    skip = _docstrings(tree) | _in_messages(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                swap = _COMPARE_SWAP.get(type(op))
                if swap is not None:
                    yield node, f"{_SYMBOL[type(op)]} to {_SYMBOL[swap]}", ("compare", index)
        elif isinstance(node, ast.BoolOp):
            other = "or" if isinstance(node.op, ast.And) else "and"
            yield node, f"{_SYMBOL[type(node.op)]} to {other}", ("boolop",)
        elif isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
            other = "-" if isinstance(node.op, ast.Add) else "+"
            augmented = "=" if isinstance(node, ast.AugAssign) else ""
            shown = f"{_SYMBOL[type(node.op)]}{augmented} to {other}{augmented}"
            yield node, shown, ("arith",)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "remove not", ("not",)
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            for delta in (1, -1):
                yield node, f"{node.value} to {node.value + delta}", ("int", delta)


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST, how: Any) -> None:
        self.target, self.how = target, how

    def visit(self, node: ast.AST) -> Any:
        if node is not self.target:
            return self.generic_visit(node)
        kind = self.how[0]
        if kind == "compare":
            assert isinstance(node, ast.Compare)
            ops = list(node.ops)
            ops[self.how[1]] = _COMPARE_SWAP[type(ops[self.how[1]])]()
            node.ops = ops
        elif kind == "boolop":
            assert isinstance(node, ast.BoolOp)
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif kind == "arith":
            assert isinstance(node, ast.BinOp | ast.AugAssign)
            node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        elif kind == "not":
            assert isinstance(node, ast.UnaryOp)
            return node.operand
        else:
            assert isinstance(node, ast.Constant)
            return ast.copy_location(ast.Constant(node.value + self.how[1]), node)
        return node


def _source(module: str) -> tuple[Path, str]:
    path = PACKAGE_ROOT / (module.replace(".", "/") + ".py")
    return path, path.read_text(encoding="utf-8")


def sites(module: str) -> list[CodeMutant]:
    """Every mutant of one module."""
    _, text = _source(module)
    lines = text.splitlines()
    found = []
    for site, (node, mutation, _) in enumerate(_changes(ast.parse(text))):
        line, column = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
        found.append(CodeMutant(module, line, column, mutation, site, lines[line - 1].strip()))
    return found


def mutated_code(mutant: CodeMutant) -> Any:
    """The mutant's module, compiled (under the real file name, so tracebacks point there)."""
    path, text = _source(mutant.module)
    tree = ast.parse(text)
    for site, (node, _, how) in enumerate(_changes(tree)):
        if site == mutant.site:
            tree = _Apply(node, how).visit(tree)
            break
    else:
        raise ValueError(f"{mutant.module} has no mutation site {mutant.site}")
    ast.fix_missing_locations(tree)
    return compile(tree, str(path), "exec")


# --- the equivalent mutants -----------------------------------------------------------------


@dataclass(frozen=True)
class Equivalent:
    file: str
    code: str
    mutation: str
    reason: str

    def matches(self, mutant: CodeMutant) -> bool:
        return (self.file, self.code, self.mutation) == (mutant.file, mutant.code, mutant.mutation)


def load_equivalents(path: Path = EQUIVALENTS) -> list[Equivalent]:
    """The listed equivalent code mutants: each entry names ``file``, ``code`` (the source
    line, stripped), ``mutation`` (as the report prints it) and ``reason``."""
    if not path.is_file():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of equivalent code mutants")
    found = []
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, dict) or not {"file", "code", "mutation", "reason"} <= set(entry):
            raise ValueError(f"{path}: entry {number} needs file, code, mutation and reason")
        found.append(
            Equivalent(
                str(entry["file"]),
                " ".join(str(entry["code"]).split()),
                str(entry["mutation"]),
                " ".join(str(entry["reason"]).split()),
            )
        )
    return found


# --- running one mutant (in its own process) ------------------------------------------------


class _Mutated(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The import hook of a worker: the target module is the mutant's code."""

    def __init__(self, mutant: CodeMutant) -> None:
        self.mutant = mutant
        self.code = mutated_code(mutant)

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != self.mutant.module:
            return None
        origin = str(_source(name)[0])
        return importlib.machinery.ModuleSpec(name, self, origin=origin)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        module.__file__ = str(_source(self.mutant.module)[0])
        exec(self.code, module.__dict__)


def _replay(paths: Sequence[str], corpus_per_file: int) -> tuple[str | None, str, int]:
    """Replay the cases under ``paths`` until one fails: (its label, why, cases run); then
    check the fast playout against ``Hand`` on every ruleset the cases played."""
    from referee.conformance.runner import (
        CaseError,
        EngineAdapter,
        LoadedCase,
        carry_ruleset_file,
        case_files,
        case_ruleset,
        is_lines_file,
        load_cases,
        run_loaded,
    )

    run = 0
    rulesets: dict[str, Any] = {}
    for case_file in case_files(paths):
        taken = 0
        for loaded in load_cases(case_file.path, folder=case_file.folder):
            if loaded.skipped:
                continue
            if is_lines_file(case_file.path):
                if taken >= corpus_per_file:
                    break
                taken += 1
            run += 1
            result = run_loaded(loaded, EngineAdapter(), check_schema=False)
            if not result.passed:
                why = str(result.failures[0]) if result.failures else "failed"
                return f"{_label(loaded)}: {result.name}", why, run
            assert isinstance(loaded, LoadedCase)
            folder = None if loaded.file is None else loaded.file.parent
            try:
                rules = case_ruleset(carry_ruleset_file(loaded.case, folder), check_hash=False)
            except CaseError:
                continue
            rulesets.setdefault(rules.id, rules)
    for rules in rulesets.values():
        why = _playout_disagrees(rules)
        if why:
            return f"fast playout of {rules.id}", why, run
    return None, "", run


PLAYOUT_HANDS = 4
"""Random playouts per ruleset and player count that ``_playout_disagrees`` replays."""


def _playout_disagrees(rules: Any) -> str:
    """Why the fast playout does not play ``rules`` as ``Hand`` does, or "".

    The playout is the engine's second statement of the rules (``simulate`` and the corpus
    search use it wherever ``RuleBook.fast_playout`` lets them), so a mutant that lets it
    play rules it does not know, or changes a rule in one of the two only, changes games
    even where every case still passes.  Each playout's actions are replayed through
    ``Hand``, which checks every one, and the outcomes must agree."""
    from referee.engine import EngineError, Hand
    from referee.engine.components import RuleBook
    from referee.engine.playout import action_of, random_playout
    from referee.engine.shuffle import hand_seed

    if not RuleBook.of(rules).fast_playout:
        return ""
    for players in range(rules.players.min, rules.players.max + 1):
        if not rules.players.allows(players):
            continue
        for index in range(PLAYOUT_HANDS):
            seed, dealer = hand_seed(f"code-mutants-{rules.id}", index), index % players
            where = f"{players} players, hand {index}"
            try:
                played = random_playout(rules, players, seed, dealer)
                hand = Hand(rules, players, seed=seed, dealer=dealer)
                for seat, code in played.actions:
                    hand.apply(seat, action_of(code))
            except EngineError as error:
                return f"{where}: {error}"
            if not hand.is_over or hand.outcome != played.outcome:
                return f"{where}: Hand ends {hand.outcome}, the playout {played.outcome}"
    return ""


def _label(loaded: Any) -> str:
    return str(loaded.relative or loaded.label)


def worker(argv: Sequence[str]) -> int:
    """``--worker MODULE SITE CORPUS_PER_FILE PATH...``: one mutant, a JSON verdict on stdout."""
    module, site, corpus_per_file, *paths = argv
    mutant = next(m for m in sites(module) if m.site == int(site))
    sys.meta_path.insert(0, _Mutated(mutant))
    for name in [n for n in sys.modules if n == "referee" or n.startswith("referee.")]:
        if name not in ("referee.conformance.code_mutants", "referee", "referee.conformance"):
            del sys.modules[name]
    try:
        killer, why, run = _replay(paths, int(corpus_per_file))
    except Exception as error:
        killer, why, run = "import", f"{type(error).__name__}: {error}", 0
    print(json.dumps({"killed_by": killer, "why": why[:500], "cases_run": run}))
    return 0


# --- running many ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    mutant: CodeMutant
    killed_by: str | None
    why: str
    cases_run: int
    seconds: float
    equivalent: str | None = None

    @property
    def killed(self) -> bool:
        return self.killed_by is not None


def run_one(
    mutant: CodeMutant, paths: Sequence[str], corpus_per_file: int, timeout: float
) -> Verdict:
    started = time.perf_counter()
    command = [
        sys.executable,
        "-m",
        "referee.conformance.code_mutants",
        "--worker",
        mutant.module,
        str(mutant.site),
        str(corpus_per_file),
        *paths,
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=PACKAGE_ROOT, check=False
        )
    except subprocess.TimeoutExpired:
        return Verdict(
            mutant, "timeout", f"no verdict in {timeout:.0f} s", 0, time.perf_counter() - started
        )
    seconds = time.perf_counter() - started
    try:
        found = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Verdict(mutant, "crash", tail, 0, seconds)
    return Verdict(mutant, found["killed_by"], found["why"], found["cases_run"], seconds)


@dataclass
class Report:
    verdicts: list[Verdict]
    equivalent: list[tuple[CodeMutant, str]]
    population: int
    seconds: float

    @property
    def survivors(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.killed]

    @property
    def score(self) -> float:
        return sum(v.killed for v in self.verdicts) / len(self.verdicts) if self.verdicts else 1.0


def choose(sample: int | None, seed: int, only: str | None = None) -> list[CodeMutant]:
    """The mutants of a run: a deterministic sample of every target's mutants (``sample``
    None: all), or those whose label contains ``only``."""
    every = [m for module in TARGETS for m in sites(module)]
    if only is not None:
        return [m for m in every if only in m.label]
    if sample is None or sample >= len(every):
        return every
    return sorted(random.Random(seed).sample(every, sample))


def run_code_mutants(
    paths: Sequence[str],
    *,
    sample: int | None,
    seed: int,
    jobs: int = 1,
    corpus_per_file: int = DEFAULT_CORPUS_PER_FILE,
    timeout: float = DEFAULT_TIMEOUT,
    equivalents: Path = EQUIVALENTS,
    only: str | None = None,
) -> Report:
    started = time.perf_counter()
    listed = load_equivalents(equivalents)
    chosen = choose(sample, seed, only)
    equivalent: list[tuple[CodeMutant, str]] = []
    tasks = []
    for mutant in chosen:
        reason = next((e.reason for e in listed if e.matches(mutant)), None)
        if reason is not None:
            equivalent.append((mutant, reason))
        else:
            tasks.append(mutant)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        verdicts = list(
            pool.map(lambda m: run_one(m, list(paths), corpus_per_file, timeout), tasks)
        )
    population = sum(len(sites(module)) for module in TARGETS)
    seconds = time.perf_counter() - started
    return Report(sorted(verdicts, key=lambda v: v.mutant), equivalent, population, seconds)


def format_report(report: Report, *, verbose: bool = False) -> str:
    lines = []
    for verdict in report.verdicts:
        if verdict.killed:
            if verbose:
                lines.append(f"killed    {verdict.mutant.label}\n          by {verdict.killed_by}")
        else:
            lines.append(f"SURVIVED  {verdict.mutant.label}  ({verdict.cases_run} cases passed)")
    if report.equivalent:
        lines.append("")
        lines.append("equivalent (conformance/equivalent-code-mutants.yaml), not counted:")
        for mutant, reason in report.equivalent:
            lines.append(f"  {mutant.label}\n      {reason}")
    killed = sum(v.killed for v in report.verdicts)
    lines.append("")
    lines.append(
        f"code mutants: {killed}/{len(report.verdicts)} killed, score {100 * report.score:.1f} % "
        f"({len(report.survivors)} survived, {len(report.equivalent)} equivalent; a sample of "
        f"{len(report.verdicts) + len(report.equivalent)} of {report.population}; "
        f"{report.seconds:.0f} s)"
    )
    return "\n".join(lines)


def report_json(report: Report) -> dict[str, Any]:
    def mutant(m: CodeMutant) -> dict[str, Any]:
        return {
            "file": m.file,
            "line": m.line,
            "column": m.column,
            "mutation": m.mutation,
            "code": m.code,
        }

    return {
        "killed": sum(v.killed for v in report.verdicts),
        "total": len(report.verdicts),
        "score": round(report.score, 4),
        "population": report.population,
        "verdicts": [
            {
                **mutant(v.mutant),
                "killed_by": v.killed_by,
                "why": v.why,
                "cases_run": v.cases_run,
                "seconds": round(v.seconds, 2),
            }
            for v in report.verdicts
        ],
        "survivors": [mutant(v.mutant) for v in report.survivors],
        "equivalent": [{**mutant(m), "reason": r} for m, r in report.equivalent],
        "seconds": round(report.seconds, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--worker"]:
        return worker(args[1:])
    parser = argparse.ArgumentParser(prog="python -m referee.conformance.code_mutants")
    parser.add_argument("--list", action="store_true", help="print every mutant and stop")
    if parser.parse_args(args).list:
        for module in TARGETS:
            for m in sites(module):
                print(m.label)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
