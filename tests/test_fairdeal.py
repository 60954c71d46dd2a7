"""A fair deal anyone can check: the export's ``fair_deal``, the client's second
implementation of docs/shuffle.md (held to the same vectors as the engine), and
``bhabhi verify-deal`` on exports from the engine and from a running referee."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client import DealCheck, FairDealError, verify_deal
from bhabhi_client.cards import RANKS, Card
from bhabhi_client.fairdeal import SHUFFLE_LABEL, deal, seed_commitment, shuffle, stream
from server_helpers import Inbox, collect_stream, random_step, referee, run_async, seat_table

from referee.cards import parse_card
from referee.cli import main
from referee.conformance.runner import validate_case
from referee.engine import Hand
from referee.engine.record import export_hand
from referee.ruleset.loader import load_ruleset, load_ruleset_text
from referee.ruleset.model import Ruleset
from referee.sim.bots import RandomBot
from referee.sim.play import play_hand

ROOT = Path(__file__).resolve().parents[1]
VECTORS: dict[str, Any] = json.loads((ROOT / "docs" / "shuffle-vectors.json").read_text())
FULL_PACK = [Card.parse(rank + suit) for suit in "CDHS" for rank in RANKS]
SEED = hashlib.sha256(b"test_fairdeal").hexdigest()
"""A seed as the referee makes them: 64 lowercase hex digits."""
OTHER_SEED = hashlib.sha256(b"test_fairdeal other").hexdigest()
HOUSE = """\
id: my-house
extends: pickup
title: {en: My house, de: Mein Haus, pl: Mój dom}
direction: clockwise
"""


def texts(hands: list[list[Card]]) -> list[list[str]]:
    return [[str(c) for c in h] for h in hands]


def played(ruleset: str = "pickup", players: int = 3, dealer: int = 2, **export: Any) -> str:
    """A hand dealt from ``SEED`` on the engine, played out by random bots, exported."""
    rules = load_rules_or_house(ruleset)
    hand = Hand(rules, players, seed=SEED, dealer=dealer)
    play_hand(hand, [RandomBot()] * players, random.Random(7))
    return yaml.safe_dump(export_hand(hand, name="fair", **export), sort_keys=False)


def load_rules_or_house(ruleset: str) -> Ruleset:
    return load_ruleset_text(HOUSE, "house") if ruleset == "my-house" else load_ruleset(ruleset)


def check_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    path = tmp_path / "export.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["verify-deal", str(path)])
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert len(output.strip().splitlines()) == 1, output  # one line, whatever the result
    return code, output.strip()


def edited(text: str, change: Any) -> str:
    case = yaml.safe_load(text)
    change(case)
    return yaml.safe_dump(case, sort_keys=False)


def redealt(case: dict[str, Any]) -> None:
    """Record the deal the case's fair_deal gives (after a change to it), consistently."""
    fair = case["fair_deal"]
    deck = [Card.parse(c) for c in fair["deck"]]
    hands = deal(deck, fair["seed"], fair["players"], fair["dealer"], fair["direction"])
    case["deal"] = [" ".join(h) for h in texts(hands)]


# --- the client against the vectors ---------------------------------------------------------


def test_the_client_reproduces_every_vector() -> None:
    for entry in VECTORS["shuffles"]:
        assert [str(c) for c in shuffle(FULL_PACK, str(entry["seed"]))] == entry["order"]
    for entry in VECTORS["deals"]:
        hands = deal(
            FULL_PACK, str(entry["seed"]), entry["players"], entry["dealer"], entry["direction"]
        )
        assert texts(hands) == entry["hands"]
    for entry in VECTORS["streams"]:
        if "first_u64" in entry:
            values = stream(str(entry["seed"]).encode(), entry["label"].encode())
            assert [str(next(values)) for _ in range(4)] == entry["first_u64"]
    for entry in VECTORS["fair_deals"]:
        seed = entry["seed"]
        assert seed_commitment(seed) == entry["commitment"]
        deck = [Card.parse(c) for c in entry["deck"]]
        assert [c.id for c in deck] == sorted(c.id for c in deck)
        assert [str(c) for c in shuffle(deck, seed)] == entry["order"]
        hands = deal(deck, seed, entry["players"], entry["dealer"], entry["direction"])
        assert texts(hands) == entry["hands"]
        for label, key in (
            (SHUFFLE_LABEL, "shuffle_first_u64"),
            (b"bhabhi/draw/v1", "draw_first_u64"),
        ):
            values = stream(seed.encode("ascii"), label)
            assert [str(next(values)) for _ in range(4)] == entry[key]
        assert verify_deal(yaml.safe_dump(vector_case(entry))).fair


def vector_case(entry: dict[str, Any]) -> dict[str, Any]:
    """The least a case needs for the check: a vector as an export would carry it."""
    return {
        "players": entry["players"],
        "dealer": entry["dealer"],
        "deal": [" ".join(h) for h in entry["hands"]],
        "fair_deal": {
            key: entry[key]
            for key in ("seed", "commitment", "players", "dealer", "direction", "deck")
        },
    }


def test_the_client_checks_a_deal_without_the_referee_package() -> None:
    """Only bhabhi-client: importing ``referee`` at all is refused, and the check still runs."""
    program = (
        "import sys\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'referee' or name.startswith('referee.'):\n"
        "            raise ImportError('no referee here: ' + name)\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "import bhabhi_client\n"
        "print(bhabhi_client.verify_deal(sys.stdin.read()).line())\n"
    )
    case = vector_case(VECTORS["fair_deals"][1])
    result = subprocess.run(
        [sys.executable, "-c", program],
        input=yaml.safe_dump(case),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "fair: the seed matches the commitment " + case["fair_deal"]["commitment"]
    )


# --- the export --------------------------------------------------------------------------------


def test_the_export_carries_what_the_check_needs() -> None:
    case = yaml.safe_load(played())
    assert validate_case(case) == []
    assert case["fair_deal"] == {
        "seed": SEED,
        "commitment": "sha256:" + hashlib.sha256(SEED.encode("ascii")).hexdigest(),
        "players": 3,
        "dealer": 2,
        "direction": "counterclockwise",
        "deck": [str(c) for c in sorted(FULL_PACK, key=lambda c: c.id)],
    }
    check = verify_deal(played())
    assert isinstance(check, DealCheck) and check.fair and check.failed is None
    assert check.recorded == check.derived  # the engine deals in the order the spec says


def test_the_export_writes_the_commitment_it_is_given() -> None:
    published = "sha256:" + "0" * 64
    case = yaml.safe_load(played(seed_commitment=published))
    assert case["fair_deal"]["commitment"] == published
    assert verify_deal(played(seed_commitment=published)).failed == "commitment"


def test_no_fair_deal_without_a_seed_or_when_not_asked_for() -> None:
    assert "fair_deal" not in yaml.safe_load(played(fair_deal=False))
    rules = load_ruleset("pickup")
    hand = Hand(rules, 3, deal=[[parse_card(c)] for c in ("AS", "KS", "QS")], dealer=0)
    case = export_hand(hand, name="explicit")
    assert "fair_deal" not in case and "seed" not in case
    with pytest.raises(FairDealError, match="no fair_deal: the hand was not dealt from a seed"):
        verify_deal(yaml.safe_dump(case))


# --- bhabhi verify-deal -------------------------------------------------------------------------


def test_a_fair_export_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, line = check_file(tmp_path, capsys, played())
    assert code == 0
    commitment = yaml.safe_load(played())["fair_deal"]["commitment"]
    assert line == (
        f"fair: the seed matches the commitment {commitment} and deals every seat its recorded "
        "cards (3 seats, dealer 2, counterclockwise, 52 cards); the deck, direction and "
        "players are ruleset pickup's"
    )


def test_a_tampered_seed_fails_the_commitment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def change(case: dict[str, Any]) -> None:
        case["fair_deal"]["seed"] = case["seed"] = OTHER_SEED

    code, line = check_file(tmp_path, capsys, edited(played(), change))
    assert code == 1
    assert line.startswith(f"unfair: commitment: the seed hashes to {seed_commitment(OTHER_SEED)}")


def test_a_tampered_commitment_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(case: dict[str, Any]) -> None:
        case["fair_deal"]["commitment"] = seed_commitment(OTHER_SEED)

    code, line = check_file(tmp_path, capsys, edited(played(), change))
    assert code == 1
    assert line == (
        f"unfair: commitment: the seed hashes to {seed_commitment(SEED)}, but the commitment "
        f"is {seed_commitment(OTHER_SEED)}"
    )


def test_a_tampered_deal_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(case: dict[str, Any]) -> None:
        first, second = case["deal"][0].split(), case["deal"][1].split()
        first[0], second[0] = second[0], first[0]
        case["deal"][0], case["deal"][1] = " ".join(first), " ".join(second)

    original = yaml.safe_load(played())
    given, taken = original["deal"][1].split()[0], original["deal"][0].split()[0]
    code, line = check_file(tmp_path, capsys, edited(played(), change))
    assert code == 1
    assert line == (
        f"unfair: deal: seat 0 is recorded with {given}, which the seed does not deal it and "
        f"without {taken}, which the seed deals it"
    )


def test_a_card_recorded_twice_fails_the_deal() -> None:
    def twice(case: dict[str, Any]) -> None:
        cards = case["deal"][0].split()
        case["deal"][0] = " ".join([*cards, cards[0]])

    check = verify_deal(edited(played(), twice))
    assert check.failed == "deal"
    assert check.detail == "seat 0 is recorded with 18 cards, a card twice, where the seed deals 17"


def test_another_seed_with_its_own_commitment_fails_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A referee that reveals a seed other than the one that dealt the cards."""

    def change(case: dict[str, Any]) -> None:
        case["fair_deal"]["seed"] = case["seed"] = OTHER_SEED
        case["fair_deal"]["commitment"] = seed_commitment(OTHER_SEED)

    code, line = check_file(tmp_path, capsys, edited(played(), change))
    assert code == 1 and line.startswith("unfair: deal: seat 0 is recorded with ")


def test_a_fair_deal_that_disagrees_with_the_case_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def change(case: dict[str, Any]) -> None:
        case["fair_deal"]["dealer"] = 0

    code, line = check_file(tmp_path, capsys, edited(played(), change))
    assert (code, line) == (1, "unfair: case: fair_deal.dealer is 0, but the case's dealer is 2")


def test_a_deck_or_direction_not_the_rulesets_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Consistent in itself (the client alone calls it fair), but not the ruleset's deal."""

    def turned(case: dict[str, Any]) -> None:
        case["fair_deal"]["direction"] = "clockwise"
        redealt(case)

    def short(case: dict[str, Any]) -> None:
        case["fair_deal"]["deck"].remove("2C")
        redealt(case)

    for change, expected in (
        (turned, "the export deals clockwise, but ruleset pickup plays counterclockwise"),
        (short, "the export's deck (51 cards) is not ruleset pickup's (52 cards): it lacks 2C"),
    ):
        text = edited(played(), change)
        assert verify_deal(text).fair
        code, line = check_file(tmp_path, capsys, text)
        assert (code, line) == (1, f"unfair: ruleset: {expected}")


def test_a_ruleset_carried_in_the_export_is_checked_against(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = load_rules_or_house("my-house")
    text = played("my-house", ruleset_source=dict(rules.source))
    code, line = check_file(tmp_path, capsys, text)
    assert code == 0 and line.endswith(
        "clockwise, 52 cards); the deck, direction and players are ruleset my-house's"
    )

    def turned(case: dict[str, Any]) -> None:
        case["fair_deal"]["direction"] = "counterclockwise"
        redealt(case)

    code, line = check_file(tmp_path, capsys, edited(text, turned))
    assert (code, line) == (
        1,
        "unfair: ruleset: the export deals counterclockwise, but ruleset my-house plays clockwise",
    )


def test_an_unknown_ruleset_is_said_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, line = check_file(tmp_path, capsys, played("my-house"))
    assert code == 0 and line.startswith("fair: the seed matches the commitment")
    assert line.endswith(
        "; ruleset my-house is not bundled here and not carried in the export: the deck and "
        "direction were not checked against it"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("deal: [AS\nplayers: 3\n", "not YAML (or JSON): "),
        ("- a list\n", "not an exported hand: the document is not a mapping"),
        (
            "format: bhabhi-case/1\n",
            "not a conformance case: (root): 'name' is a required property",
        ),
    ],
)
def test_a_bad_file_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    code, line = check_file(tmp_path, capsys, text)
    assert code == 2 and line.startswith(
        f"bhabhi verify-deal: {tmp_path / 'export.yaml'}: {message}"
    )


def test_an_export_that_cannot_be_checked_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def sideways(case: dict[str, Any]) -> None:
        case["fair_deal"]["direction"] = "sideways"

    code, line = check_file(tmp_path, capsys, edited(played(), sideways))
    assert (
        code == 2
        and "not a conformance case: fair_deal.direction: 'sideways' is not one of" in line
    )
    code, line = check_file(tmp_path, capsys, played(fair_deal=False))
    assert code == 2 and line.endswith(
        "the export has no fair_deal: the hand was not dealt from a seed (a test deal), or "
        "the referee that exported it does not write one"
    )
    assert main(["verify-deal", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_the_client_refuses_what_it_cannot_check() -> None:
    good = yaml.safe_load(played())
    cases = [
        ("deal: [AS\n", "not YAML"),
        ("just text\n", "not a mapping"),
    ]
    for field, value, message in (
        ("seed", 7, "fair_deal.seed must be text, not 7"),
        ("players", True, "fair_deal.players must be an integer, not True"),
        ("dealer", 3, "fair_deal.dealer must be a seat, 0 to 2"),
        ("direction", "up", "fair_deal.direction must be clockwise or counterclockwise"),
        ("deck", ["2C", "XX"], "fair_deal.deck: 'XX' is not a card"),
        ("deck", ["2C", "2c"], "fair_deal.deck names a card twice"),
    ):
        case = copy.deepcopy(good)
        case["fair_deal"][field] = value
        cases.append((yaml.safe_dump(case), message))
    for text, message in cases:
        with pytest.raises(FairDealError, match=message):
            verify_deal(text)


# --- a running referee ----------------------------------------------------------------------


@run_async
async def test_hands_exported_by_a_referee_are_fair(tmp_path: Path) -> None:
    """Two hands on a referee (not in test mode): each export's fair_deal holds the seed
    HandOver revealed and the commitment and dealer HandStarted announced, and passes."""
    async with referee() as ref:
        seated = await seat_table(ref, "pickup", 3, hands=2, start=False)
        spectator = Inbox(None)
        reader = asyncio.ensure_future(collect_stream(seated.spectator_watch(0), spectator)())
        await seated.start()
        rng = random.Random(3)
        while await random_step(seated, rng) is not None:
            pass
        await asyncio.wait_for(reader, 10)
        events = [e for _, e in spectator.events]
        started = {e.hand_number: e.hand_started for e in events if e.HasField("hand_started")}
        over = {e.hand_number: e.hand_over for e in events if e.HasField("hand_over")}
        assert sorted(started) == sorted(over) == [0, 1]
        for number in (0, 1):
            exported = await ref.play.ExportHand(
                pb.ExportHandRequest(table_id=seated.table_id, hand_number=number)
            )
            fair = yaml.safe_load(exported.case_yaml)["fair_deal"]
            assert fair["seed"] == over[number].seed and len(fair["seed"]) == 64
            assert fair["commitment"] == started[number].seed_commitment
            assert fair["dealer"] == started[number].dealer == [0, 2][number]  # C5
            assert verify_deal(exported.case_yaml).fair
            path = tmp_path / f"hand-{number}.yaml"
            path.write_text(exported.case_yaml, encoding="utf-8")
            assert main(["verify-deal", str(path)]) == 0
