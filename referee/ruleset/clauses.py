"""Whether a ruleset's ``clauses`` list says what its options do.

``clauses`` names the rules-catalogue clauses a ruleset follows; the documentation and the
conformance coverage report read it, the engine does not.  A house variant replaces options
of its base but inherits the base's list unless it writes its own, so the list easily
claims a clause the options switch off (``take_hand: {when: never}`` under Bhabho still
"follows" B9).  This module knows, for every clause of the catalogue, which option values
follow it, and reports two things, each at the key the checked file wrote:

* a declared clause the options switch off (``clause_switched_off``): the list is false,
  and the coverage report would count the ruleset for a rule it does not play;
* a clause the options follow that is not declared (``clause_not_declared``), a warning
  only: the catalogue's clauses overlap (X3 is "the same as B1"; C8's clean trick is B3 and
  B5 in the Bhabho game and D2 in the discard game), so a ruleset may rightly name only
  the clause of its own game, and leaving one out misleads nobody about how it plays.

Clauses are checked by ``bhabhi rules validate`` (``resolve_file_named(..., clauses=True)``),
not when a ruleset is loaded: the list does not change play, and a ruleset registered
before this check existed must still load.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import RANKS, CardSyntaxError, parse_card
from referee.ruleset.problems import Code, Problem
from referee.ruleset.schema import Locate
from referee.ruleset.semantic import Values
from referee.ruleset.yamlsafe import KeyPath, dotted


@dataclass(frozen=True, slots=True)
class Condition:
    """Options a clause needs: ``holds(*values at paths)``, described as ``says``."""

    paths: tuple[KeyPath, ...]
    holds: Callable[..., bool]
    says: str
    defaults: tuple[Any, ...] | None = None
    """Per path, the value of an optional option that a ruleset leaves out (its schema
    ``default``); None when every path is required."""


def _show(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _is(path: str, *allowed: object) -> Condition:
    """``path`` (dotted) has one of the ``allowed`` values."""
    shown = " or ".join(_show(v) for v in allowed)
    return Condition((tuple(path.split(".")),), lambda v: v in allowed, f"{path}: {shown}")


def _optional(path: str, default: object, *allowed: object) -> Condition:
    """``path`` (dotted, an optional option whose schema default is ``default``) has one of
    the ``allowed`` values; left out, it has its default."""
    shown = " or ".join(_show(v) for v in allowed)
    keys = tuple(path.split("."))
    return Condition((keys,), lambda v: v in allowed, f"{path}: {shown}", (default,))


def _lead_card(card: str, ace: str) -> bool:
    """C6's lead, the Ace of spades, or with Aces low V3's other convention, the 2."""
    try:
        lead = parse_card(card)
    except CardSyntaxError:  # pragma: no cover - the schema's pattern refuses it first
        return False
    return lead == parse_card("AS") or (ace == "low" and lead == parse_card("2S"))


_PICKUP, _DISCARD, _TOCHOO = "pickup", "discard", "tochoo"
_TAKES = _is("take_hand.when", "before_any_trick", "leader_before_trick", "after_neighbour_tochoo")
"""Hands are taken at all: the house rules of taking (H20-H23) need it."""


def _picker_leads_or_deals(play: str, picked_up_by: str, after: str, moves: str) -> bool:
    """H11 beside the tochoo (B6, B7): the thulla reversal, or the picker leads; or, in any
    game, the picker deals the next hand.  (Under P1 the picker leads by P2 itself.)"""
    tochoo = play in (_TOCHOO, "tochoo_plays_on")
    reversed_or_picker = picked_up_by == "tochoo_player" or after == "picker"
    return (tochoo and reversed_or_picker) or moves == "last_picker_deals"


CONDITIONS: dict[str, tuple[Condition, ...]] = {
    "C1": (
        _is("deck.packs", 1),
        Condition((("deck", "ranks"),), lambda r: set(r) == set(RANKS), "all 13 deck.ranks"),
        _is("deck.ace", "high"),
        _is("trump", "none"),
    ),
    "C2": (
        _is("players.teams", "none"),
        Condition((("players", "min"),), lambda n: n >= 3, "players.min: 3 or more"),
        Condition((("players", "max"),), lambda n: n <= 8, "players.max: 8 or fewer"),
    ),
    "C6": (
        _is("first_lead.if_absent", "highest_of_suit"),
        Condition(
            (("first_lead", "card"), ("deck", "ace")),
            _lead_card,
            "first_lead.card: AS (or 2S with deck.ace: low, V3)",
        ),
    ),
    "C8": (_is("next_leader.after_complete_trick", "highest"),),
    "P1": (_is("off_suit.play", _PICKUP),),
    "P2": (_is("off_suit.play", _PICKUP), _is("next_leader.after_pickup", "picker")),
    "P3": (_is("next_leader.if_out", "next_in_turn"),),
    "D1": (_is("off_suit.play", _DISCARD),),
    "D2": (_is("off_suit.play", _DISCARD), _is("next_leader.after_complete_trick", "highest")),
    "V1": (_is("next_leader.after_complete_trick", "lowest"),),
    "V2": (_is("players.teams", "partners_opposite"),),
    "V3": (_is("deck.ace", "low"),),
    "V4": (
        _is("off_suit.pickup_takes", "trick_and_waste"),
        _is("off_suit.play", _PICKUP, _TOCHOO),
    ),
    "V5": (_is("off_suit.play", _PICKUP), _is("next_leader.after_pickup", "highest")),
    "B1": (_is("first_trick.off_suit", "discard"),),
    "B2": (_is("first_trick.next_leader", "first_leader"),),
    "B3": (_is("off_suit.play", _TOCHOO), _is("next_leader.after_complete_trick", "highest")),
    "B4": (_is("off_suit.play", _TOCHOO),),
    "B5": (_is("off_suit.play", _TOCHOO),),
    "B6": (_is("off_suit.play", _TOCHOO), _is("off_suit.tochoo_picked_up_by", "highest_of_led")),
    "B7": (
        _is("off_suit.play", _TOCHOO),
        _is("next_leader.after_pickup", "highest"),
        _is("next_leader.after_complete_trick", "highest"),
    ),
    "B8": (_is("next_leader.if_out", "draws_from_waste"),),
    "B9": (_is("take_hand.when", "before_any_trick"), _is("take_hand.from", "left")),
    "X1": (_is("take_hand.when", "leader_before_trick"), _is("take_hand.from", "left")),
    "X2": (_is("end.two_left_pickup_loses", True),),
    "X3": (_is("first_trick.off_suit", "discard"),),
    "X4": (_is("deck.packs", 2),),
    "X5": (_is("trump", "first_off_suit_card"),),
    # House rules of taking a hand (optional options: their defaults are B9's).
    "H20": (_TAKES, _optional("take_hand.consent", False, True)),
    "H21": (
        _TAKES,
        Condition(
            (("take_hand", "before_first_trick"), ("take_hand", "with_two_left")),
            lambda first, two: not (first and two),
            "take_hand.before_first_trick: false or take_hand.with_two_left: false",
            (True, True),
        ),
    ),
    "H22": (_TAKES, _is("take_hand.per_trick", "pass_in_turn")),
    "H23": (_TAKES, _is("take_hand.from", "next_in_turn", "either_neighbour", "any_player")),
    "H24": (_is("take_hand.when", "after_neighbour_tochoo"),),
    # H31: a dead hand is played on to the bound (the engine's exact detection settles the
    # other reading, an outcome that does not depend on when the position is noticed, for
    # every ruleset; only playing on is an option a ruleset can switch off).
    "H31": (_is("end.at_dead_position", "play_on"),),
    # House rules of deal, seating and scoring (optional options: their defaults are C4, C15).
    "H1": (_optional("deal.remainder", "deal_out", "remove_lowest"),),
    "H2": (_is("deal.dealer_moves", "bhabhi_deals", "last_picker_deals"),),
    "H3": (
        Condition(
            (("players", "min"), ("players", "max"), ("deck", "packs")),
            lambda low, high, packs: low < 3 or (packs == 1 and high > 8),
            "players.min: 2, or players.max: 9 or 10 with deck.packs: 1",
        ),
    ),
    "H4": (_optional("deal.order", "with_play", "seat_order"),),
    "H28": (_optional("session.chips_by", "bhabhi", "card_points"),),
    # House rules of the first trick, the trick and the lead.
    "H5": (_optional("first_trick.void_plays", "any", "highest"),),
    "H6": (_optional("first_lead.leads", "the_card", "any_card"),),
    "H9": (
        Condition(
            (("off_suit", "play"), ("next_leader", "after_pickup")),
            lambda play, after: play == "tochoo_plays_on" or after == "tochoo_player",
            "off_suit.play: tochoo_plays_on or next_leader.after_pickup: tochoo_player",
        ),
    ),
    "H10": (_is("next_leader.if_out", "next_highest"),),
    "H11": (
        Condition(
            (
                ("off_suit", "play"),
                ("off_suit", "tochoo_picked_up_by"),
                ("next_leader", "after_pickup"),
                ("deal", "dealer_moves"),
            ),
            _picker_leads_or_deals,
            "off_suit.play: tochoo or tochoo_plays_on with off_suit.tochoo_picked_up_by: "
            "tochoo_player (the thulla reversal) or next_leader.after_pickup: picker (the "
            "picker leads); or deal.dealer_moves: last_picker_deals (the picker deals)",
        ),
    ),
    "H12": (_is("trump", "fixed", "dealer_choice"),),
    # House rules of getting out with the power (B8's alternatives) and of two players left.
    "H13": (_is("next_leader.if_out", "next_in_turn"),),
    "H14": (_is("next_leader.if_out", "draws_from_player"),),
    "H15": (_optional("next_leader.draw_pile", "waste", "waste_and_trick"),),
    "H16": (_optional("next_leader.draw", "random", "top"),),
    "H17": (_optional("end.shootout", "none", "after_waste_draw", "any_last_card"),),
    "H18": (_optional("end.two_left_tochoo_wins", False, True),),
    "H19": (_optional("end.two_left_power_escapes", False, True),),
    # House rules of illegal play, penalties, clocks and information (optional options).
    "H25": (_is("illegal_play", "challenge"),),
    "H26": (_optional("out_of_turn", "refuse", "pickup_penalty"),),
    "H27": (
        Condition(
            (("timeout_bot_after",),),
            lambda after: after is not None,
            "timeout_bot_after: a number of timeouts",
            (None,),
        ),
    ),
    "H29": (_optional("hand_sizes", "public", "hidden"),),
}
"""The options under which a ruleset follows each clause that an option can switch off."""

ALWAYS = frozenset(["C3", "C4", "C5", "C7", "C9", "C10", "C11", "C12", "C13", "C14", "C15", "C16"])
"""Clauses every ruleset follows, whatever its options: the engine's own rules, and those
whose options are all ways of following them (C3's direction, C11's open point, C12's
penalty, C14's limits, C15's chips)."""

SAME_AS: dict[str, frozenset[str]] = {
    "B1": frozenset({"X3"}),
    "X3": frozenset({"B1"}),
    "C8": frozenset({"B3", "B5", "D2"}),
    "B3": frozenset({"C8"}),
    "B5": frozenset({"C8"}),
    "D2": frozenset({"C8"}),
    "P3": frozenset({"H13"}),
    "H13": frozenset({"P3"}),
}
"""Clauses that state a rule another one states too: declaring either is enough."""

_FAMILIES = "CPDVBXH"


def catalogue_order(clause: str) -> tuple[int, int]:
    """C1 … C16, P, D, V, B, X, H: the catalogue's order, in which the bundled lists are kept."""
    return _FAMILIES.index(clause[0]), int(clause[1:])


def followed(ruleset: Mapping[str, Any], invalid: Collection[KeyPath] = ()) -> dict[str, bool]:
    """Every clause whose options could be read (they passed the schema): True when the
    ruleset follows it, False when its options switch it off."""
    values = Values(ruleset, invalid)
    states = dict.fromkeys(sorted(ALWAYS, key=catalogue_order), True)  # (a set's order
    # changes from process to process: the problems must come in one order everywhere)
    for clause, conditions in CONDITIONS.items():
        known = [_holds(condition, values) for condition in conditions]
        if False in known:
            states[clause] = False
        elif None not in known:
            states[clause] = True
    return states


def _holds(condition: Condition, values: Values) -> bool | None:
    found = _found(condition, values)
    return None if found is None else bool(condition.holds(*found))


def _found(condition: Condition, values: Values) -> list[Any] | None:
    """The values at the condition's paths, an optional option left out at its default."""
    found = values.get(*condition.paths)
    if found is not None or condition.defaults is None:
        return found
    filled = []
    for path, default in zip(condition.paths, condition.defaults, strict=True):
        if any(bad[: len(path)] == path for bad in values.invalid):
            return None
        value = values.get(path)
        filled.append(default if value is None else value[0])
    return filled


def clause_problems(
    ruleset: Mapping[str, Any],
    locate: Locate,
    own_file: str | None = None,
    invalid: Collection[KeyPath] = (),
) -> list[Problem]:
    """Declared clauses the options switch off, and undeclared ones they follow (warnings)."""
    values = Values(ruleset, invalid)
    declared_list = values.get(("clauses",))
    if declared_list is None:
        return []
    declared: list[str] = declared_list[0]
    states = followed(ruleset, invalid)
    missing = sorted(
        (
            clause
            for clause, on in states.items()
            if on
            and clause not in declared
            and not SAME_AS.get(clause, frozenset()) & set(declared)
        ),
        key=catalogue_order,
    )
    # A house rule that restates a document's clause (H13 is P3) is asked for only where
    # that clause is declared in its place, never beside it.
    missing = [
        c for c in missing if not (c.startswith("H") and SAME_AS.get(c, frozenset()) & {*missing})
    ]
    off = [clause for clause in declared if states.get(clause) is False]
    if not off and not missing:
        return []
    kept = [c for c in declared if c not in off]
    should = ", ".join(sorted([*kept, *missing], key=catalogue_order))
    problems: list[Problem] = []

    def report(keys: tuple[KeyPath, ...], message: str, code: Code) -> None:
        places = [(path, *locate(path, False)) for path in keys]
        path, file, mark = next((p for p in places if p[1] == own_file), places[0])
        problems.append(Problem(file, mark.line, mark.column, dotted(path), message, code))

    for clause in off:
        failing = [c for c in CONDITIONS[clause] if _holds(c, values) is False]
        needs = " and ".join(c.says for c in CONDITIONS[clause])
        actual = ", ".join(_actual(c, values) for c in failing)
        report(
            (("clauses", declared.index(clause)), *(p for c in failing for p in c.paths)),
            f"clause {clause} is declared, but the options switch it off: it needs {needs}, "
            f"and {actual}; for these options write clauses: [{should}]",
            Code.CLAUSE_SWITCHED_OFF,
        )
    for clause in missing:
        conditions = CONDITIONS.get(clause, ())
        why = (
            f"the options follow it ({' and '.join(c.says for c in conditions)})"
            if conditions
            else "every ruleset follows it"
        )
        report(
            (*(p for c in conditions for p in c.paths), ("clauses",)),
            f"clause {clause} is not declared, but {why}; for these options write clauses: "
            f"[{should}]",
            Code.CLAUSE_NOT_DECLARED,
        )
    return problems


def _actual(condition: Condition, values: Values) -> str:
    found = _found(condition, values) or []
    pairs = zip(condition.paths, found, strict=True)
    return ", ".join(f"{dotted(path)} is {_show(value)}" for path, value in pairs)
