"""The schema is the format's reference documentation; the typed model must agree with it."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator

from referee.ruleset import model as m
from referee.ruleset.yamlsafe import dotted

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "rules" / "schema" / "ruleset.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
CATALOGUE_IDS = re.compile(
    r"^(C1[0-6]|C[1-9]|P[1-3]|D[1-2]|V[1-5]|B[1-9]|X[1-5]|H[12][0-9]|H3[01]|H[1-9])$"
)

ENUMS: dict[str, type[StrEnum]] = {
    "deck.ace": m.AceRank,
    "deck.identical_cards": m.IdenticalCards,
    "players.teams": m.Teams,
    "direction": m.Direction,
    "deal.dealer_moves": m.DealerMoves,
    "deal.remainder": m.DealRemainder,
    "deal.order": m.DealOrder,
    "first_lead.if_absent": m.IfLeadCardAbsent,
    "first_trick.off_suit": m.FirstTrickOffSuit,
    "first_trick.next_leader": m.FirstTrickNextLeader,
    "off_suit.play": m.OffSuitPlay,
    "off_suit.tochoo_picked_up_by": m.TochooPickedUpBy,
    "off_suit.pickup_takes": m.PickupTakes,
    "trump": m.Trump,
    "next_leader.after_complete_trick": m.AfterCompleteTrick,
    "next_leader.after_pickup": m.AfterPickup,
    "next_leader.if_out": m.IfLeaderOut,
    "next_leader.if_waste_empty": m.IfWasteEmpty,
    "next_leader.draw_from": m.DrawFrom,
    "next_leader.draw_pile": m.DrawPile,
    "next_leader.draw": m.WasteDraw,
    "take_hand.when": m.TakeHandWhen,
    "take_hand.from": m.TakeHandFrom,
    "take_hand.per_trick": m.TakesPerTrick,
    "take_hand.lead_passes_to": m.LeadPassesTo,
    "end.all_out_together": m.AllOutTogether,
    "end.at_max_tricks": m.ForcedEnd,
    "end.at_dead_position": m.DeadPositionEnd,
    "end.shootout": m.Shootout,
    "illegal_play": m.IllegalPlay,
    "timeout_move": m.TimeoutMove,
    "session.chips_by": m.ChipsBy,
    "first_lead.leads": m.FirstLeadLeads,
    "first_trick.void_plays": m.FirstTrickVoidPlays,
    "trump_suit": m.TrumpSuit,
    "false_tochoo_penalty": m.FalseTochooPenalty,
    "out_of_turn": m.OutOfTurn,
    "hand_sizes": m.HandSizes,
}

DEFAULTS: dict[str, StrEnum | bool | int | None] = {
    "deal.remainder": m.DEFAULT_DEAL_REMAINDER,
    "deal.order": m.DEFAULT_DEAL_ORDER,
    "first_lead.leads": m.DEFAULT_FIRST_LEAD_LEADS,
    "first_trick.void_plays": m.DEFAULT_FIRST_TRICK_VOID_PLAYS,
    "next_leader.draw_from": m.DEFAULT_DRAW_FROM,
    "next_leader.draw_pile": m.DEFAULT_DRAW_PILE,
    "next_leader.draw": m.DEFAULT_WASTE_DRAW,
    "take_hand.consent": m.DEFAULT_TAKE_CONSENT,
    "take_hand.before_first_trick": m.DEFAULT_TAKE_BEFORE_FIRST_TRICK,
    "take_hand.with_two_left": m.DEFAULT_TAKE_WITH_TWO_LEFT,
    "end.shootout": m.DEFAULT_SHOOTOUT,
    "end.two_left_tochoo_wins": m.DEFAULT_TWO_LEFT_TOCHOO_WINS,
    "end.two_left_power_escapes": m.DEFAULT_TWO_LEFT_POWER_ESCAPES,
    "false_tochoo_penalty": m.DEFAULT_FALSE_TOCHOO_PENALTY,
    "out_of_turn": m.DEFAULT_OUT_OF_TURN,
    "timeout_move": m.DEFAULT_TIMEOUT_MOVE,
    "timeout_bot_after": m.DEFAULT_TIMEOUT_BOT_AFTER,
    "hand_sizes": m.DEFAULT_HAND_SIZES,
    "session.chips_by": m.DEFAULT_CHIPS_BY,
}
"""The model's value of every optional option a ruleset leaves out, in schema order."""
WITHOUT_DEFAULT = {"trump_suit"}
"""Optional options with no default: another option's value requires them (H12's
``trump: fixed`` its ``trump_suit``), and ``bhabhi rules validate`` refuses them otherwise."""


def _walk(schema: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    found = []
    for name, sub in schema.get("properties", {}).items():
        here = f"{path}.{name}" if path else name
        found.append((here, sub))
        found.extend(_walk(sub, here))
    return found


def test_schema_is_valid_draft_2020_12_with_an_id() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"]


def test_every_property_has_a_description() -> None:
    missing = [p for p, sub in _walk(SCHEMA) if not sub.get("description")]
    assert missing == []


def test_clause_ids_named_by_options_are_catalogue_ids() -> None:
    for path, sub in _walk(SCHEMA):
        for clause in sub.get("x-clauses", []):
            assert CATALOGUE_IDS.match(clause), (path, clause)


def test_model_enums_match_schema_enums() -> None:
    props = dict(_walk(SCHEMA))
    for path, enum in ENUMS.items():
        assert sorted(props[path]["enum"]) == sorted(e.value for e in enum), path
    enum_paths = {p for p, sub in props.items() if "enum" in sub and p != "deck.ranks"}
    assert enum_paths == set(ENUMS)


def test_optional_options_default_as_the_schema_says() -> None:
    props = dict(_walk(SCHEMA))

    def required(path: str) -> bool:
        parent, _, name = path.rpartition(".")
        return name in (props[parent] if parent else SCHEMA).get("required", [])

    optional = {p for p in props if not required(p) and not p.startswith("title.")}
    optional = {p for p in optional if not p.startswith("description.")}
    assert optional - {"$schema", "extends", "sources"} == set(DEFAULTS) | WITHOUT_DEFAULT
    assert all("default" not in props[path] for path in WITHOUT_DEFAULT)
    for path, value in DEFAULTS.items():
        assert props[path]["default"] == getattr(value, "value", value), path
    assert [p for p, sub in props.items() if "default" in sub] == list(DEFAULTS)


def test_a_ruleset_that_leaves_an_optional_option_out_gets_its_default() -> None:
    from referee.ruleset.loader import load_ruleset

    rules = load_ruleset("pickup")
    assert "timeout_move" not in rules.source  # so its hash is what it was
    assert rules.timeout_move is m.DEFAULT_TIMEOUT_MOVE
    assert "remainder" not in rules.source["deal"] and "order" not in rules.source["deal"]
    assert rules.deal.remainder is m.DEFAULT_DEAL_REMAINDER
    assert rules.deal.order is m.DEFAULT_DEAL_ORDER
    assert "chips_by" not in rules.source["session"]
    assert rules.session.chips_by is m.DEFAULT_CHIPS_BY
    assert "leads" not in rules.source["first_lead"]
    assert rules.first_lead.leads is m.DEFAULT_FIRST_LEAD_LEADS
    assert "void_plays" not in rules.source["first_trick"]
    assert rules.first_trick.void_plays is m.DEFAULT_FIRST_TRICK_VOID_PLAYS
    assert "trump_suit" not in rules.source and rules.trump_suit is None
    assert not {"draw_from", "draw_pile", "draw"} & set(rules.source["next_leader"])
    assert rules.next_leader.draw_from is m.DEFAULT_DRAW_FROM
    assert rules.next_leader.draw_pile is m.DEFAULT_DRAW_PILE
    assert rules.next_leader.draw is m.DEFAULT_WASTE_DRAW
    end = rules.source["end"]
    assert not {"shootout", "two_left_tochoo_wins", "two_left_power_escapes"} & set(end)
    assert rules.end.shootout is m.DEFAULT_SHOOTOUT
    assert rules.end.two_left_tochoo_wins is m.DEFAULT_TWO_LEFT_TOCHOO_WINS
    assert rules.end.two_left_power_escapes is m.DEFAULT_TWO_LEFT_POWER_ESCAPES
    for key in ("false_tochoo_penalty", "out_of_turn", "timeout_bot_after", "hand_sizes"):
        assert key not in rules.source, key
    assert rules.false_tochoo_penalty is m.DEFAULT_FALSE_TOCHOO_PENALTY
    assert rules.out_of_turn is m.DEFAULT_OUT_OF_TURN
    assert rules.timeout_bot_after is m.DEFAULT_TIMEOUT_BOT_AFTER
    assert rules.hand_sizes is m.DEFAULT_HAND_SIZES
    bhabho = load_ruleset("bhabho")
    assert set(bhabho.source["take_hand"]) == {"when", "from", "per_trick", "lead_passes_to"}
    assert bhabho.take_hand.consent is m.DEFAULT_TAKE_CONSENT
    assert bhabho.take_hand.before_first_trick is m.DEFAULT_TAKE_BEFORE_FIRST_TRICK
    assert bhabho.take_hand.with_two_left is m.DEFAULT_TAKE_WITH_TWO_LEFT


def test_reference_page_is_up_to_date() -> None:
    from referee.ruleset.reference import render

    page = SCHEMA_PATH.parents[2] / "docs" / "ruleset-reference.md"
    assert page.read_text(encoding="utf-8") == render(), (
        "docs/ruleset-reference.md is stale: run `bhabhi rules reference > "
        "docs/ruleset-reference.md`"
    )


# --- the schema of a file as written (house variants, in an editor) -----------------------------

VARIANT_PATH = SCHEMA_PATH.parent / "ruleset-variant.schema.json"
MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")


def _variant() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(VARIANT_PATH.read_text(encoding="utf-8"))
    return loaded


def _strict(schema: dict[str, Any]) -> Validator:
    """A validator of ``schema`` that counts only ints as integers, as the loader's does."""
    from referee.ruleset.schema import validator

    return type(validator())(schema)


def test_variant_schema_file_is_derived_from_the_full_schema() -> None:
    from referee.ruleset.variant import variant_schema_text

    assert VARIANT_PATH.read_text(encoding="utf-8") == variant_schema_text(), (
        "rules/schema/ruleset-variant.schema.json is stale: run `python -m "
        "referee.ruleset.variant > rules/schema/ruleset-variant.schema.json`"
    )


def test_variant_schema_has_every_key_type_enum_and_description_of_the_full_one() -> None:
    variant = _variant()
    Draft202012Validator.check_schema(variant)
    assert variant["$id"] != SCHEMA["$id"]
    assert variant["required"] == ["id", "extends"]

    def without_required(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: without_required(v) for k, v in node.items() if k != "required"}
        return node

    assert [p for p, _ in _walk(variant)] == [p for p, _ in _walk(SCHEMA)]
    for (path, sub), (_, full) in zip(_walk(variant), _walk(SCHEMA), strict=True):
        assert sub == without_required(full), path
    assert variant["$defs"] == without_required(SCHEMA["$defs"])


def test_variant_schema_checks_a_house_variant_as_written() -> None:
    check = _strict(_variant())
    two_options: dict[str, Any] = {"id": "family-thulla", "extends": "bhabho", "trump": "none"}
    assert list(check.iter_errors({**two_options, "title": {"en": "Ours"}})) == []
    assert list(_strict(SCHEMA).iter_errors(two_options))  # the full schema refuses it

    def messages(instance: dict[str, Any]) -> list[str]:
        return sorted(e.message for e in check.iter_errors(instance))

    assert messages({"id": "x"}) == ["'extends' is a required property"]
    assert messages({**two_options, "take_hand": {"wehn": "never"}}) == [
        "Additional properties are not allowed ('wehn' was unexpected)"
    ]
    assert messages({**two_options, "direction": "sideways"}) == [
        "'sideways' is not one of ['clockwise', 'counterclockwise']"
    ]
    assert messages({**two_options, "end": {"max_tricks": 10.0}}) == [
        "10.0 is not of type 'integer'"
    ]


def _editor_schema(path: Path) -> Path:
    """The schema the file's first line points an editor at, resolved from the file."""
    text = path.read_text(encoding="utf-8")
    first = MODELINE.match(text)
    assert first is not None, f"{path}: the first line is not a yaml-language-server line"
    return (path.parent / first.group(1)).resolve()


def test_every_bundled_file_names_the_schema_that_checks_it_as_written() -> None:
    import yaml

    from referee.ruleset.loader import bundled_ruleset_paths

    for path in bundled_ruleset_paths().values():
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        expected = VARIANT_PATH if "extends" in data else SCHEMA_PATH
        assert _editor_schema(path) == expected.resolve(), path
        schema = _variant() if "extends" in data else SCHEMA
        assert list(_strict(schema).iter_errors(data)) == [], path


def test_the_readme_house_variant_names_the_variant_schema_and_passes_it() -> None:
    import yaml

    readme = (SCHEMA_PATH.parents[2] / "README.md").read_text(encoding="utf-8")
    example_block = r"```yaml\n(# yaml-language-server: [^\n]*\n# my-house.yaml\n.*?)```"
    match = re.search(example_block, readme, re.S)
    assert match is not None, "README: the house-variant example"
    example = SCHEMA_PATH.parents[2] / "my-house.yaml"  # where the README's commands run
    line = MODELINE.match(match.group(1))
    assert line is not None and (example.parent / line.group(1)).resolve() == VARIANT_PATH.resolve()
    assert list(_strict(_variant()).iter_errors(yaml.safe_load(match.group(1)))) == []


# --- which options follow which clause ------------------------------------------------------------


def _catalogue_ids() -> set[str]:
    families = {"C": 16, "P": 3, "D": 2, "V": 5, "B": 9, "X": 5}
    return {f"{letter}{n}" for letter, count in families.items() for n in range(1, count + 1)}


def test_every_catalogue_clause_is_known_to_follow_from_options_or_always() -> None:
    from referee.ruleset.clauses import ALWAYS, CONDITIONS, SAME_AS

    assert all(CATALOGUE_IDS.match(c) for c in _catalogue_ids())
    house = {c for c in CONDITIONS if c.startswith("H")}  # the house rules options implement
    assert house <= {f"H{n}" for n in range(1, 32)}
    assert set(CONDITIONS) | ALWAYS == _catalogue_ids() | house
    assert set(CONDITIONS) & ALWAYS == set()
    same_as = {c for same in SAME_AS.values() for c in same} | set(SAME_AS)
    assert same_as <= _catalogue_ids() | house
    props = dict(_walk(SCHEMA))
    for clause, conditions in CONDITIONS.items():
        for condition in conditions:
            for path in condition.paths:
                assert dotted(path) in props, (clause, path)
    # An option that names a clause in x-clauses is one its conditions read (B5, the clean
    # trick of the tochoo game, is named by no option).
    named = {c for _, sub in props.items() for c in sub.get("x-clauses", [])}
    assert named - ALWAYS <= set(CONDITIONS)
    for clause in set(CONDITIONS) - {"B5"}:
        read = {dotted(p) for c in CONDITIONS[clause] for p in c.paths}
        assert any(clause in props[p].get("x-clauses", []) for p in read), clause
