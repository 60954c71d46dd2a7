"""``bhabhi rules …``: validate, list and show rulesets, locate the schema, print the clauses.

Problem lines use the ``FILE:LINE:COL: key.path: message`` form that editors and CI logs turn
into links; exit codes are 0 (all good), 1 (problems found) and 2 (usage error).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from referee.ruleset.loader import (
    RulesetError,
    bundled_ruleset_paths,
    display_name,
    find_ruleset,
    resolve_file_named,
    rules_dir,
)
from referee.ruleset.model import Ruleset, ruleset_hash
from referee.ruleset.schema import SCHEMA_PATH, ordered_like_schema
from referee.ruleset.variant import VARIANT_SCHEMA_PATH
from referee.ruleset.yamlsafe import load_file

if TYPE_CHECKING:
    from referee.cli import Subparsers

ANALYZE_HANDS = 64
"""``rules validate --analyze``'s hands per player count: the fewest at which every warning
can be told at every count from 3 to 8 players (the skill and lines warnings need 60
seat-hands, ``hands // players * players``; the warnings on shares of hands need 20).
Measured on seeds 1-5: pickup's 3-player most-hands-never-end, discard's 3-player
decided-by-deal, unfair-seat and skill-does-not-matter, its no-bhabhi at 4 to 8 and
bhabho's dominant-line at 3 to 8 on every seed; the share warnings alone appear from 20 hands
on, the skill warnings not below 64.  One ruleset validated and analysed (whole process,
seed 1): pickup 5.3 s, bhabho 2.8 s, discard 2.1 s (docs/analysis.md, In validation)."""
ANALYZE_SEED = "1"
"""As ``bhabhi analyze``'s default seed (``referee.analysis.report.DEFAULT_SEED``, not
imported: plain validation must not load the simulator), so both commands warn alike."""


def register(subparsers: Subparsers) -> None:
    rules = subparsers.add_parser(
        "rules",
        help="validate, list and show rulesets; print the rule clauses they cite",
        description="Work with ruleset files (rules/*.yaml), the bundled rulesets and the "
        "catalogue of rule clauses they cite (rules/catalogue.yaml).",
    )
    commands = rules.add_subparsers(dest="rules_command", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate",
        help="check ruleset files; print every problem as FILE:LINE:COL: key.path: message",
        description="Check ruleset files against the schema and the rules the schema cannot "
        "express, with `extends` resolved, and their `clauses` against their options: a "
        "declared clause the options switch off is a problem, one they follow but the list "
        "leaves out a warning. A bundled id may stand for its file.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument(
        "--analyze",
        action="store_true",
        help="also play every valid file's hands at each player count it allows and print "
        "the warnings of `bhabhi analyze` after its ok line (docs/analysis.md, In validation)",
    )
    validate.add_argument(
        "--analyze-hands",
        default=str(ANALYZE_HANDS),
        metavar="K",
        help=f"hands per player count for --analyze (default {ANALYZE_HANDS}: the fewest at "
        "which every warning can be told at 3 to 8 players; measured: pickup 5 s, bhabho "
        "3 s, discard 2 s)",
    )
    validate.add_argument(
        "--seed",
        default=ANALYZE_SEED,
        metavar="S",
        help=f"the seed of --analyze's hands, any text (default {ANALYZE_SEED}, as bhabhi analyze)",
    )
    validate.set_defaults(func=_validate)

    listing = commands.add_parser(
        "list",
        help="list the bundled rulesets",
        description="List the bundled rulesets: id, base, file, the clauses each follows (as "
        "ranges: C1-C16 P1-P3) and title. `bhabhi rules clauses ID ...` says what a clause is.",
    )
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    listing.set_defaults(func=_list)

    show = commands.add_parser(
        "show",
        help="print a ruleset with `extends` resolved",
        description="Print the resolved ruleset (bases merged in, keys in the schema's order) "
        "as YAML with its hash in a leading comment, or as JSON.",
    )
    show.add_argument("ruleset", metavar="ID|FILE")
    show.add_argument("--json", action="store_true", help="print JSON instead of YAML")
    show.set_defaults(func=_show)

    clauses = commands.add_parser(
        "clauses",
        help="print the rule clauses (C1, B8, H17 ...): title, rule, source",
        description="Print clauses of the catalogue (rules/catalogue.yaml; docs/catalogue.md): "
        "every clause, or the ones named. An ID the catalogue does not have is an error (exit 2).",
    )
    clauses.add_argument("ids", nargs="*", metavar="ID", help="clause IDs, e.g. C1 B8 H17")
    shape = clauses.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="print a JSON array")
    shape.add_argument(
        "--markdown",
        action="store_true",
        help="print the whole catalogue as the page docs/catalogue.md (no IDs)",
    )
    clauses.set_defaults(func=_clauses)

    schema = commands.add_parser(
        "schema",
        help="print the path of the ruleset JSON Schema (or, with --print, the schema)",
        description="Print where the installed ruleset JSON Schema is. --resolved (the "
        "default): the schema of a resolved ruleset, which `rules validate` checks. "
        "--variant: the schema of a file as written, in which only `id` and `extends` are "
        "required, for an editor: put `# yaml-language-server: $schema=PATH` (PATH "
        "relative to the file, or absolute) on the file's first line.",
    )
    which = schema.add_mutually_exclusive_group()
    which.add_argument(
        "--resolved",
        dest="variant",
        action="store_false",
        help="the schema of a resolved ruleset (the default)",
    )
    which.add_argument(
        "--variant",
        dest="variant",
        action="store_true",
        help="the schema of a house-variant file as written (only id and extends required)",
    )
    schema.add_argument("--print", action="store_true", help="print the schema, not its path")
    schema.set_defaults(func=_schema, variant=False)

    explain = commands.add_parser(
        "explain",
        help="write the rulebook of a ruleset (text, Markdown or HTML), made from its options",
        description="Write the complete rulebook of a ruleset, a bundled id or a YAML file "
        "(house variants start with how they differ from their base): every option as the "
        "sentences players read at the table, each naming the clauses it states. Languages "
        "are the files of referee/rulebook/locales/ (docs/rulebook.md).",
    )
    explain.add_argument("ruleset", metavar="ID|FILE")
    explain.add_argument("--lang", default="en", metavar="LANG", help="en (the default), de, pl")
    explain.add_argument(
        "--format", default="text", metavar="FORMAT", help="text (the default), markdown, html"
    )
    explain.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    explain.set_defaults(func=_explain)

    reference = commands.add_parser(
        "reference", help="print the format's reference (Markdown), generated from the schema"
    )
    reference.set_defaults(func=_reference)


def _explain(args: argparse.Namespace) -> int:
    # The rulebook sits above the ruleset layer (it reads rulesets and the catalogue); only
    # this command reaches up to it, and only when it runs.
    from referee.rulebook.commands import explain

    return explain(args)


def _reference(args: argparse.Namespace) -> int:
    from referee.ruleset.reference import render

    sys.stdout.write(render())
    return 0


def _clauses(args: argparse.Namespace) -> int:
    from referee.ruleset.catalogue import load_catalogue

    catalogue = load_catalogue()
    if args.markdown:
        if args.ids:
            print(
                "bhabhi rules clauses: --markdown prints the whole page; name no IDs",
                file=sys.stderr,
            )
            return 2
        from referee.ruleset.catalogue_page import render

        sys.stdout.write(render())
        return 0
    wanted = list(dict.fromkeys(ref.upper() for ref in args.ids)) or list(catalogue)
    unknown = [ref for ref in wanted if ref not in catalogue]
    if unknown:
        print(
            f"bhabhi rules clauses: unknown clause {_plural_word(len(unknown), 'ID')} "
            f"{', '.join(unknown)} (the catalogue has {_ranges(list(catalogue))})",
            file=sys.stderr,
        )
        return 2
    chosen = [catalogue[ref] for ref in wanted]
    if args.json:
        print(json.dumps([c.as_json() for c in chosen], ensure_ascii=False, indent=2))
        return 0
    blocks = []
    for clause in chosen:
        lines = [f"{clause.id}  {clause.title}", _indented(clause.text)]
        lines += [_indented(f"source: {source}") for source in clause.sources]
        if clause.disagreement:
            lines.append(_indented(f"where sources differ: {clause.disagreement}"))
        if clause.note:
            lines.append(_indented(f"note: {clause.note}"))
        blocks.append("\n".join(lines))
    print("\n\n".join(blocks))
    return 0


def _indented(text: str) -> str:
    return textwrap.fill(text, width=92, initial_indent="    ", subsequent_indent="    ")


def _validate(args: argparse.Namespace) -> int:
    hands = _hands(args.analyze_hands)
    if hands is None:
        return _usage_error(
            f"--analyze-hands must be a whole number of at least 1, not {args.analyze_hands!r}"
        )
    bundled = bundled_ruleset_paths()
    printed: set[str] = set()  # a broken base shared by several files is reported once
    invalid = problem_count = 0
    for ref in args.files:
        path = Path(ref)
        if not path.exists() and ref in bundled:
            path = bundled[ref]
        resolved, found = resolve_file_named(path, ref, clauses=True)
        for problem in found:
            line = str(problem)
            if line not in printed:
                printed.add(line)
                print(line)
        problems = [p for p in found if not p.warning]
        if not problems:
            print(f"{ref}: ok (id {resolved['id']}, hash {ruleset_hash(resolved)})")
            if args.analyze:
                failed = _analyze(ref, resolved, hands, args.seed)
                if failed:
                    return _usage_error(f"{ref}: cannot analyze: {failed}")
            continue
        invalid += 1
        problem_count += len(problems)
    if invalid:
        print(
            f"bhabhi rules validate: {_plural(problem_count, 'problem')} in "
            f"{invalid} of {_plural(len(args.files), 'file')}",
            file=sys.stderr,
        )
        return 1
    return 0


def _usage_error(message: str) -> int:
    """A bad argument to ``rules validate``: one line on stderr, exit code 2, as argparse."""
    print(f"bhabhi rules validate: error: {message}", file=sys.stderr)
    return 2


def _analyze(ref: str, resolved: dict[str, Any], hands: int, seed: str) -> str | None:
    """Print the analysis warnings of a valid file as ``FILE: warning: analysis: ...`` lines;
    the one-line reason when its hands cannot be played."""
    # The analysis plays through the simulator, above the ruleset layer: loaded here only,
    # so that plain validation stays as light as loading a ruleset.
    from referee.analysis.validation import analysis_warnings, warning_line

    try:
        by_count = analysis_warnings(Ruleset.from_mapping(resolved), hands, seed)
    except ValueError as exc:
        return str(exc)
    for players, warnings in by_count.items():
        for warning in warnings:
            print(f"{ref}: warning: analysis: {warning_line(players, warning)}")
    return None


def _hands(text: str) -> int | None:
    """``--analyze-hands``: a whole number, at least 1; None for anything else."""
    try:
        hands = int(text)
    except ValueError:
        return None
    return hands if hands >= 1 else None


def _list(args: argparse.Namespace) -> int:
    entries = [_entry(ruleset_id, path) for ruleset_id, path in bundled_ruleset_paths().items()]
    if args.json:
        print(json.dumps(entries, ensure_ascii=False, indent=2))
    else:
        rows = [
            (
                e["id"],
                e["extends"] or "-",
                e["file"],
                _ranges(e["clauses"]),
                e["title"] if e["valid"] else f"INVALID ({_plural(e['problems'], 'problem')})",
            )
            for e in entries
        ]
        header = ("ID", "BASE", "FILE", "CLAUSES", "TITLE")
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
        for row in [header, *rows]:
            cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
            print("  ".join([*cells, row[-1]]))
    invalid = [e["id"] for e in entries if not e["valid"]]
    if invalid:
        print(
            f"bhabhi rules list: invalid: {', '.join(invalid)} (see bhabhi rules validate FILE)",
            file=sys.stderr,
        )
        return 1
    return 0


def _entry(ruleset_id: str, path: Path) -> dict[str, Any]:
    resolved, problems = resolve_file_named(path, display_name(path))
    document, _ = load_file(path, str(path))
    base = document.data.get("extends") if document is not None else None
    title = resolved.get("title")
    clauses = resolved.get("clauses")
    try:
        shown = path.resolve().relative_to(rules_dir().resolve().parent).as_posix()
    except ValueError:  # a ruleset of a folder that $BHABHI_RULES_DIR adds
        shown = str(path)
    return {
        "id": ruleset_id,
        "title": title.get("en", "") if isinstance(title, dict) else "",
        "clauses": clauses if isinstance(clauses, list) else [],
        "file": shown,
        "extends": base if isinstance(base, str) else None,
        "hash": ruleset_hash(resolved) if not problems else None,
        "valid": not problems,
        "problems": len(problems),
    }


def _show(args: argparse.Namespace) -> int:
    try:
        path, name = find_ruleset(args.ruleset)
    except RulesetError as exc:
        for problem in exc.problems:
            print(f"bhabhi rules show: {problem.message}", file=sys.stderr)
        return 1
    resolved, problems = resolve_file_named(path, name)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        print(
            f"bhabhi rules show: {name} is not a valid ruleset "
            f"({_plural(len(problems), 'problem')})",
            file=sys.stderr,
        )
        return 1
    ordered = ordered_like_schema(resolved)
    if args.json:
        print(json.dumps(ordered, ensure_ascii=False, indent=2))
    else:
        print(f"# hash: {ruleset_hash(resolved)}")
        print(dump_yaml(ordered), end="")
    return 0


def _schema(args: argparse.Namespace) -> int:
    path = VARIANT_SCHEMA_PATH if args.variant else SCHEMA_PATH
    if args.print:
        sys.stdout.write(path.read_text(encoding="utf-8"))
    else:
        print(path)
    return 0


class _Dumper(yaml.SafeDumper):
    """Block mappings, but lists of plain values on one line, as the ruleset files write them."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(not isinstance(item, dict | list) for item in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def dump_yaml(data: Any) -> str:
    """YAML text that reads back (with the safe loader) to exactly ``data``."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, indent=2)


def _ranges(clauses: list[str]) -> str:
    """``C1 C2 C3 P1`` as ``C1-C3 P1``: the clause lists are long and mostly runs."""
    parts: list[str] = []
    run: list[tuple[str, int]] = []

    def flush() -> None:
        if run:
            (letter, first), (_, last) = run[0], run[-1]
            parts.append(f"{letter}{first}" if first == last else f"{letter}{first}-{letter}{last}")
            run.clear()

    for clause in clauses:
        match = re.fullmatch(r"([A-Z])(\d+)", clause)
        if match is None:
            flush()
            parts.append(clause)
            continue
        letter, number = match.group(1), int(match.group(2))
        if run and (run[-1][0] != letter or run[-1][1] + 1 != number):
            flush()
        run.append((letter, number))
    flush()
    return " ".join(parts)


def _plural(count: int, noun: str) -> str:
    return f"{count} {_plural_word(count, noun)}"


def _plural_word(count: int, noun: str) -> str:
    return f"{noun}{'' if count == 1 else 's'}"
