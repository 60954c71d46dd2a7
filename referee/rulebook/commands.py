"""``bhabhi rules explain RULESET [--lang L] [--format F] [-o FILE]``: write the rulebook.

Registered by ``referee.ruleset.commands`` beside the other ``rules`` commands.  Bad input
(an unknown ruleset, language or format, a file that cannot be read or written) is one line
on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.rulebook.builder import build
from referee.rulebook.loading import with_base
from referee.rulebook.locale import languages
from referee.rulebook.render import FORMATS, render
from referee.ruleset.problems import RulesetError

PROG = "bhabhi rules explain"


def explain(args: argparse.Namespace) -> int:
    if args.lang not in languages():
        return _usage(f"no rulebook language {args.lang!r} (there are: {', '.join(languages())})")
    if args.format not in FORMATS:
        return _usage(f"no rulebook format {args.format!r} (there are: {', '.join(FORMATS)})")
    try:
        ruleset, base = with_base(args.ruleset)
    except RulesetError as exc:
        first = exc.problems[0]
        more = len(exc.problems) - 1
        extra = f" (and {more} more: bhabhi rules validate {args.ruleset})" if more else ""
        known = first.message.startswith("no bundled ruleset")
        return _usage(f"{first.message if known else first}{extra}")
    except OSError as exc:
        return _usage(f"cannot read {args.ruleset}: {exc.strerror or exc}")
    text = render(build(ruleset, base), args.lang, args.format)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        return _usage(f"cannot write {args.output}: {exc.strerror or exc}")
    return 0


def _usage(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2
