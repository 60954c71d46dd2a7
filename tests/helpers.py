"""Small helpers for tests that play hand-made deals: rulesets, variants, scripts, event logs.

``load_rules(id)`` goes through the ruleset loader when it is importable and otherwise resolves
the bundled YAML itself (``extends`` merged onto its base: mappings key by key, lists and
scalars replaced).  ``variant(base, **overrides)`` merges overrides onto a bundled ruleset's
resolved mapping the same way and checks the result against the JSON Schema, so that a test
never plays an option combination the schema would refuse.

A move script is a string of ``seat:action`` words, ``"0:AS 2:KS 1:pickup 2:take"``, applied
in order.  ``log(events)`` renders events as short sentences, so that a test can state the
exact events a rule implies in a form a reader can check against the rule text.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from referee.cards import Card, card_str, cards_in, parse_card
from referee.engine.hand import Hand
from referee.engine.types import (
    Action,
    CardPlayed,
    Event,
    HandOver,
    HandStarted,
    HandTaken,
    IllegalPlayPenalised,
    PickedUp,
    PlayerOut,
    TakeAnswered,
    TakePassed,
    TakeRequested,
    TochooChallenged,
    TrickEnded,
    TrickToWaste,
    TrumpFixed,
    WasteDrawn,
)
from referee.ruleset.model import Direction, Ruleset

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "rules"
SCHEMA_PATH = RULES_DIR / "schema" / "ruleset.schema.json"


# --- rulesets -----------------------------------------------------------------------------


def bundled_ids() -> list[str]:
    """Every bundled ruleset id: rules/*.yaml (but the clause catalogue, rules/catalogue.yaml),
    then rules/house/*.yaml."""
    top = [p for p in sorted(RULES_DIR.glob("*.yaml")) if p.name != "catalogue.yaml"]
    paths = [*top, *sorted((RULES_DIR / "house").glob("*.yaml"))]
    return [p.stem for p in paths]


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Recursive merge as ``extends`` does it: mappings merged, lists and scalars replaced."""
    out = copy.deepcopy(dict(base))
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _yaml_mapping(rule_id: str, depth: int = 0) -> dict[str, Any]:
    if depth > 16:
        raise ValueError(f"extends chain too long at {rule_id!r}")
    for path in (RULES_DIR / f"{rule_id}.yaml", RULES_DIR / "house" / f"{rule_id}.yaml"):
        if path.is_file():
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            break
    else:
        raise FileNotFoundError(f"no bundled ruleset {rule_id!r}")
    base = data.pop("extends", None)
    return merge(_yaml_mapping(base, depth + 1), data) if base else data


@functools.cache
def _load(rule_id: str) -> Ruleset:
    try:
        from referee.ruleset.loader import load_ruleset
    except ImportError:  # the loader is being written; resolve the YAML ourselves
        return Ruleset.from_mapping(_yaml_mapping(rule_id))
    return load_ruleset(rule_id)


def load_rules(rule_id: str) -> Ruleset:
    """A bundled ruleset by id (cached, so the engine's compiled rule book is shared)."""
    return _load(rule_id)


def resolved_mapping(rule_id: str) -> dict[str, Any]:
    """A fresh copy of a bundled ruleset's resolved mapping (``extends`` applied)."""
    return copy.deepcopy(dict(load_rules(rule_id).source))


@functools.cache
def _schema_validator() -> Any:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


@functools.cache
def _variant(base_id: str, overrides_json: str) -> Ruleset:
    overrides = json.loads(overrides_json)
    data = merge(resolved_mapping(base_id), overrides)
    if "id" not in overrides:
        data["id"] = f"{base_id}-test-variant"
    errors = sorted(_schema_validator().iter_errors(data), key=lambda e: [str(p) for p in e.path])
    if errors:
        where = "/".join(str(p) for p in errors[0].path)
        raise ValueError(
            f"variant of {base_id!r} is not schema-valid at {where}: {errors[0].message}"
        )
    return Ruleset.from_mapping(data)


def variant(base_id: str, **overrides: Any) -> Ruleset:
    """A bundled ruleset with ``overrides`` merged onto it (schema-checked, cached).

    ``variant("bhabho", next_leader={"if_waste_empty": "goes_out"})``
    """
    return _variant(base_id, json.dumps(overrides, sort_keys=True))


# --- deals and moves ----------------------------------------------------------------------


def cards(text: str) -> list[Card]:
    """``"AS 10H 2C"`` as card ids, in the order written."""
    return [parse_card(word) for word in text.split()]


def play_order(rules: Ruleset, players: int, leader: int) -> list[int]:
    """Seats in the order they play to a trick led by ``leader`` (C3), everyone in."""
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    return [(leader + step * k) % players for k in range(players)]


def dealer_before(rules: Ruleset, players: int, seat: int) -> int:
    """The dealer whose next player in play direction is ``seat``."""
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    return (seat - step) % players


def deal(
    rules: Ruleset,
    hands: Sequence[str],
    *,
    dealer: int = 0,
    draws: str | None = None,
) -> Hand:
    """A hand from an explicit deal, one string of cards per seat (seat 0 first)."""
    return Hand(
        rules,
        len(hands),
        deal=[cards(h) for h in hands],
        dealer=dealer,
        draws=None if draws is None else cards(draws),
    )


def parse_moves(script: str) -> list[tuple[int, Action]]:
    moves = []
    for word in script.split():
        seat, _, action = word.partition(":")
        moves.append((int(seat), Action.parse(action)))
    return moves


def run(hand: Hand, script: str) -> list[Event]:
    """Apply ``seat:action`` words in order; return every event they caused."""
    events: list[Event] = []
    for seat, action in parse_moves(script):
        events.extend(hand.apply(seat, action))
    return events


def held(hand: Hand, seat: int) -> str:
    """A seat's cards, sorted by id, as compact text (for readable assertions)."""
    return " ".join(card_str(c) for c in hand.view(seat).hand)


def strs(cs: Iterable[Card]) -> str:
    return " ".join(card_str(c) for c in cs)


def sorted_text(text: str) -> str:
    """Card text re-sorted into id order, to compare with ``held``."""
    return strs(sorted(cards(text)))


# --- events as sentences ------------------------------------------------------------------


def describe(event: Event) -> str:
    if isinstance(event, HandStarted):
        sizes = ",".join(str(n) for n in event.hand_sizes)
        return f"start dealer {event.dealer} leader {event.leader} sizes {sizes}"
    if isinstance(event, CardPlayed):
        return f"{event.seat} {event.role} {card_str(event.card)}"
    if isinstance(event, TrickEnded):
        return f"trick {event.trick} {event.how} high {event.high_seat} next {event.next_leader}"
    if isinstance(event, TrickToWaste):
        return f"waste {strs(event.cards)}"
    if isinstance(event, PickedUp):
        extra = f" +{event.from_waste} from waste" if event.from_waste else ""
        penalty = " (penalty)" if event.penalty else ""
        return f"{event.seat} picks up {strs(event.cards)}{extra}{penalty}"
    if isinstance(event, WasteDrawn):
        return f"{event.seat} draws {'?' if event.card is None else card_str(event.card)}"
    if isinstance(event, HandTaken):
        shown = "?" if event.cards is None else strs(event.cards)
        return f"{event.taker} takes {event.seat} ({event.count}: {shown})"
    if isinstance(event, PlayerOut):
        return f"{event.seat} out {event.how}"
    if isinstance(event, TakeRequested):
        return f"{event.taker} asks for {event.seat}"
    if isinstance(event, TakeAnswered):
        return f"{event.seat} {'agrees to' if event.agreed else 'refuses'} {event.taker}"
    if isinstance(event, TakePassed):
        return f"{event.seat} passes before trick {event.trick}"
    if isinstance(event, IllegalPlayPenalised):
        return f"{event.seat} penalised for {card_str(event.card)}"
    if isinstance(event, TochooChallenged):
        if not event.right:
            return f"{event.challenger} challenges trick {event.trick}: wrong"
        who = f"{event.offender} {event.penalty}"
        return f"{event.challenger} challenges trick {event.trick}: {who}"
    if isinstance(event, TrumpFixed):
        return f"{event.seat} fixes trump {event.suit}"
    if isinstance(event, HandOver):
        o = event.outcome
        team = "" if o.losing_team is None else f" team {list(o.losing_team)}"
        order = ",".join(str(s) for s in o.out_order)
        return f"over {o.termination} bhabhi {o.bhabhi}{team} out {order}"
    return repr(event)


def log(events: Iterable[Event]) -> list[str]:
    return [describe(e) for e in events]


def waste_of(hand: Hand) -> str:
    """The face-down waste pile (tests may look; players may not)."""
    return strs(cards_in(hand.waste))
