"""``bhabhi verify-deal EXPORT.yaml``: was this exported hand dealt fairly?

The checks of the deal itself are the client's (``bhabhi_client.fairdeal``): the published
shuffle written again from docs/shuffle.md, using nothing but the export.  That is what a
player who runs only the client gets, and it is a second implementation of the page, so a
deal the engine got wrong is not checked by the same code that made it.  What the client
cannot know is the ruleset; where it is known here (bundled, or carried in the case as
``ruleset.inline``, checked against ``ruleset.hash``) this command also checks that the
export's deck, direction and player count are the ruleset's, so that a deal from a doctored
deck does not pass.

One line of result on stdout: ``fair: …`` (exit 0) or ``unfair: <check>: …`` (exit 1); a file
that cannot be checked (unreadable, not YAML, not a case, no ``fair_deal``) is one line on
stderr, exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from bhabhi_client.fairdeal import DealCheck, FairDealError, check_case

from referee.cards import card_str
from referee.conformance.runner import CaseError, case_ruleset, load_case, one_line, validate_case
from referee.engine.components import RuleBook, dealt_deck
from referee.engine.record import deal_direction
from referee.ruleset.loader import bundled_ruleset_paths
from referee.ruleset.model import Ruleset

if TYPE_CHECKING:
    from referee.cli import Subparsers

PROG = "bhabhi verify-deal"


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "verify-deal",
        help="check that an exported hand was dealt fairly from its committed seed",
        description="Check an exported hand (ExportHand's case YAML): its seed hashes to the "
        "commitment published at the deal, and the published shuffle (docs/shuffle.md) of its "
        "deck from that seed deals every seat exactly the cards the case records; where the "
        "ruleset is known (bundled, or carried in the case), that the deck, direction and "
        "player count are the ruleset's. Exit 0 fair, 1 a check failed, 2 a bad file.",
    )
    parser.add_argument("export", type=Path, metavar="EXPORT.yaml", help="the exported hand")
    parser.set_defaults(func=verify_deal_command)


def verify_deal_command(args: argparse.Namespace) -> int:
    path: Path = args.export
    try:
        case = load_case(path)
    except (OSError, UnicodeDecodeError) as error:
        return _bad(f"{path}: cannot read it: {one_line(error)}")
    except (ValueError, yaml.YAMLError) as error:
        return _bad(f"{path}: not YAML (or JSON): {one_line(error)}")
    if not isinstance(case, Mapping):
        return _bad(f"{path}: not an exported hand: the document is not a mapping")
    problems = validate_case(case)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return _bad(f"{path}: not a conformance case: {problems[0]}{more}")
    try:
        check = check_case(case)
    except FairDealError as error:
        return _bad(f"{path}: {error}")
    if not check.fair:
        print(check.line())
        return 1
    rules, unknown = _ruleset(case)
    if rules is None:
        print(f"{check.line()}; {unknown}")
        return 0
    mismatch = ruleset_mismatch(check, rules)
    if mismatch:
        print(f"unfair: ruleset: {mismatch}")
        return 1
    print(f"{check.line()}; the deck, direction and players are ruleset {rules.id}'s")
    return 0


def ruleset_mismatch(check: DealCheck, rules: Ruleset) -> str:
    """Where the export's deck, direction or player count is not the ruleset's ("" if
    nowhere): a fair shuffle of the wrong deck is not a fair deal."""
    fair = check.fair_deal
    book = RuleBook.of(rules)
    deck = [card_str(c) for c in dealt_deck(book, fair.players)]
    exported = {str(card) for card in fair.deck}
    if exported != set(deck):
        extra = [str(card) for card in fair.deck if str(card) not in deck]
        missing = [card for card in deck if card not in exported]
        what = [f"it adds {' '.join(extra)}"] if extra else []
        what += [f"it lacks {' '.join(missing)}"] if missing else []
        return (
            f"the export's deck ({len(exported)} cards) is not ruleset {rules.id}'s "
            f"({len(deck)} cards): {' and '.join(what)}"
        )
    if fair.direction != deal_direction(book):
        how = "plays" if book.deal_step == book.step else "deals (deal.order: seat_order, H4)"
        return f"the export deals {fair.direction}, but ruleset {rules.id} {how} " + (
            deal_direction(book)
        )
    if not rules.players.allows(fair.players):
        return f"ruleset {rules.id} is not played by {fair.players} players"
    return ""


def _ruleset(case: Mapping[str, Any]) -> tuple[Ruleset | None, str]:
    """The case's ruleset where it is known here, else None and why not (said in the line:
    the deal may still be fair, but its deck was not checked against any rules)."""
    spec = case["ruleset"]
    if "inline" not in spec and spec["id"] not in bundled_ruleset_paths():
        return None, (
            f"ruleset {spec['id']} is not bundled here and not carried in the export: the "
            "deck and direction were not checked against it"
        )
    try:
        return case_ruleset(case), ""
    except CaseError as error:
        return None, f"the deck and direction were not checked against the ruleset: {error}"


def _bad(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2
