"""The dependency rules of docs/architecture.md, held against the code's own imports.

Every ``import`` and ``from … import`` of every module is read (at any depth, under
``TYPE_CHECKING`` too: a type-only import is still a dependency a reader must follow), and
each rule names the layer that may not reach another.  A new module inherits the rules of
its package, so the tree stays what the document says without anyone remembering to
extend the test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

IO_MODULES = {
    "asyncio",
    "datetime",
    "grpc",
    "io",
    "logging",
    "os",
    "pathlib",
    "psycopg",
    "shutil",
    "socket",
    "sqlite3",
    "subprocess",
    "sys",
    "threading",
    "time",
}
"""What a pure module may not import: files, clocks, sockets, processes, logs."""


def modules(folder: str) -> Iterator[tuple[str, Path]]:
    base = ROOT / folder
    for path in sorted(base.rglob("*.py")):
        relative = path.relative_to(ROOT).with_suffix("")
        parts = list(relative.parts)
        if folder.startswith("clients/python/src"):
            parts = parts[3:]
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every import in the file; ``from a import b`` gives ``a.b`` too,
    since ``b`` may be a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def breaches(
    folder: str,
    package: str,
    forbidden: set[str],
    *,
    except_modules: frozenset[str] | set[str] = frozenset(),
) -> list[str]:
    found = []
    for module, path in modules(folder):
        if not within(module, package) or module in except_modules:
            continue
        for line, name in imports(path):
            for banned in forbidden:
                if within(name, banned):
                    found.append(f"{path.relative_to(ROOT)}:{line}: {module} imports {name}")
    return sorted(set(found))


RULES = [
    # (what, folder, package, forbidden, exceptions)
    (
        "the engine is pure: no I/O, no clock, and nothing above it",
        "referee",
        "referee.engine",
        IO_MODULES
        | {
            "referee.server",
            "referee.sim",
            "referee.analysis",
            "referee.conformance",
            "referee.ops",
            "referee.cli",
        },
        set(),
    ),
    (
        "ruleset loading knows nothing of play, serving or testing",
        "referee",
        "referee.ruleset",
        {
            "referee.engine",
            "referee.server",
            "referee.sim",
            "referee.conformance",
            "referee.ops",
        },
        set(),
    ),
    (
        "ruleset loading does not reach up to the analysis (only `bhabhi rules validate "
        "--analyze` does)",
        "referee",
        "referee.ruleset",
        {"referee.analysis"},
        {"referee.ruleset.commands"},
    ),
    (
        "ruleset loading does not reach up to the rulebook (only `bhabhi rules explain` does)",
        "referee",
        "referee.ruleset",
        {"referee.rulebook"},
        {"referee.ruleset.commands"},
    ),
    (
        "the rulebook reads rulesets, the catalogue and the case files, nothing of play or serving",
        "referee",
        "referee.rulebook",
        {
            "referee.engine",
            "referee.server",
            "referee.sim",
            "referee.analysis",
            "referee.conformance",
            "referee.ops",
            "referee.cli",
            "grpc",
        },
        set(),
    ),
    (
        "the server imports neither the conformance suite, the simulator nor operations",
        "referee",
        "referee.server",
        {"referee.conformance", "referee.ops", "bhabhi_client"},
        set(),
    ),
    (
        "the server seats the simulator's bots only in its seat bots, never to decide the game",
        "referee",
        "referee.server",
        {"referee.sim"},
        {"referee.server.table.seatbots"},
    ),
    (
        "the server runs an analysis only in its analysis worker, never on its own",
        "referee",
        "referee.server",
        {"referee.analysis"},
        {"referee.server.table.analysis"},
    ),
    (
        "the table's use cases speak no protobuf and no gRPC",
        "referee",
        "referee.server.table",
        {"grpc", "google.protobuf", "bhabhi", "referee.server.service", "referee.server.app"},
        set(),
    ),
    (
        "the web port translates HTTP only: it calls the gRPC layer's handlers, never the use "
        "cases, the engine or the store",
        "referee",
        "referee.server.web",
        {
            "referee.server.table",
            "referee.server.store",
            "referee.engine",
            "referee.ruleset",
            "referee.server.service",
            "referee.server.messages",
        },
        set(),
    ),
    (
        "the use cases know nothing of HTTP or of the web port",
        "referee",
        "referee.server.table",
        {"referee.server.web", "connectrpc", "uvicorn"},
        set(),
    ),
    (
        "storage knows records, not tables, games or gRPC",
        "referee",
        "referee.server.store",
        {"referee.server.table", "referee.engine", "grpc", "bhabhi", "referee.server.service"},
        set(),
    ),
    (
        "the remote conformance adapter is a black-box client: nothing of the engine",
        "referee",
        "referee.conformance.remote",
        {
            "referee.engine",
            "referee.ruleset",
            "referee.server",
            "referee.sim",
            "referee.conformance.runner",
        },
        set(),
    ),
    (
        "the adapter protocol needs nothing of the engine",
        "referee",
        "referee.conformance.adapter",
        {"referee.engine", "referee.ruleset", "referee.server"},
        set(),
    ),
    (
        "the simulator plays the engine, and serves nothing",
        "referee",
        "referee.sim",
        {"referee.server", "referee.conformance", "referee.ops", "referee.analysis", "grpc"},
        set(),
    ),
    (
        "the analysis plays through the simulator and serves nothing",
        "referee",
        "referee.analysis",
        {"referee.server", "referee.conformance", "referee.ops", "bhabhi_client", "grpc"},
        set(),
    ),
    (
        "a page's house style is text at the bottom layer: nothing of the project, no I/O",
        "referee",
        "referee.pagestyle",
        IO_MODULES | {"referee"},
        set(),
    ),
    (
        "the Python client stands alone: installed without the referee",
        "clients/python/src/bhabhi_client",
        "bhabhi_client",
        {"referee"},
        # `bhabhi play`, `demo-hand` and `arena` without --target start a referee in their
        # own process, and so need it installed (they say so when it is not); the strong
        # strategy searches with the referee's engine; everything else is over gRPC.
        {"bhabhi_client.commands", "bhabhi_client.strong"},
    ),
]


@pytest.mark.parametrize(("what", "folder", "package", "forbidden", "exceptions"), RULES)
def test_dependency_rule(
    what: str, folder: str, package: str, forbidden: set[str], exceptions: set[str]
) -> None:
    found = breaches(folder, package, forbidden, except_modules=exceptions)
    assert not found, what + ":\n" + "\n".join(found)


def test_the_engine_draws_randomness_only_from_seeded_generators() -> None:
    """``random.Random(seed)`` is an injected, seeded generator; ``random.random()`` and the
    other module functions are the global one, which a pure engine never uses."""
    found = []
    for module, path in modules("referee"):
        if not within(module, "referee.engine"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: random.{node.attr}")
    assert not found, "\n".join(found)


def test_the_rules_catch_a_breach(tmp_path: Path) -> None:
    """The reader finds imports at any depth, so a rule cannot pass by reading nothing."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from referee.server.table import Referee\n"
        "def f():\n    from referee.sim import bots\n",
        encoding="utf-8",
    )
    assert {name for _, name in imports(sample)} >= {
        "os",
        "referee.server.table",
        "referee.server.table.Referee",
        "referee.sim",
        "referee.sim.bots",
    }
