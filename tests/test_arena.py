"""``bhabhi arena``: a league on duplicate deals, played through a referee and rated.

One small league (bhabho, three players, ``heuristic,random,random``, four deals: twelve
hands) is played once by the command against a referee on a background thread, and its
JSON document and the referee's exported hands are checked: every (deal, rotation) played
once, the rotations of a deal dealt the same hands, each entrant's hands, rates and
intervals as the hands say, the JSON contract's keys, and the heuristic bot rated above
random play (four deals suffice for the seed ``arena``: measured over repeated runs, the
heuristic bot was never the Bhabhi and was rated at least 8 points above either random
entrant).  The schedule, the places a hand gives and the intervals are checked on their own;
bad input is one line and exit code 2.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from bhabhi_client.arena import HandRecord, Sitting, entrants_of, schedule
from bhabhi_client.arena_report import wilson
from bhabhi_client.client import Client
from bhabhi_client.commands import main
from test_client import BackgroundReferee

DEALS = 4
SEED = "arena"
ENTRANTS = "heuristic,random,random"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """The referee's address and the league's JSON document."""
    referee = BackgroundReferee()
    out = tmp_path_factory.mktemp("arena") / "league.json"
    try:
        code = main(
            [
                "arena",
                "--target",
                referee.target,
                "--rules",
                "bhabho",
                "--players",
                "3",
                "--entrants",
                ENTRANTS,
                "--deals",
                str(DEALS),
                "--seed",
                SEED,
                "--json",
                str(out),
            ]
        )
        assert code == 0
        yield referee.target, json.loads(out.read_text(encoding="utf-8"))
    finally:
        referee.close()


def test_the_schedule_plays_every_deal_in_every_rotation_the_same_way_each_time() -> None:
    entrants = entrants_of(["heuristic", "random", "random"])
    assert [e.name for e in entrants] == ["heuristic", "random", "random#2"]
    sittings = schedule(entrants, 2, "s")
    assert sittings == schedule(entrants_of(["heuristic", "random", "random"]), 2, "s")
    assert sittings == [
        Sitting(0, 0, ("heuristic", "random", "random#2"), "s:0"),
        Sitting(0, 1, ("random#2", "heuristic", "random"), "s:0"),
        Sitting(0, 2, ("random", "random#2", "heuristic"), "s:0"),
        Sitting(1, 0, ("heuristic", "random", "random#2"), "s:1"),
        Sitting(1, 1, ("random#2", "heuristic", "random"), "s:1"),
        Sitting(1, 2, ("random", "random#2", "heuristic"), "s:1"),
    ]
    for deal in range(2):  # every entrant sits at every seat once per deal
        rotations = [s.seats for s in sittings if s.deal == deal]
        for seat in range(3):
            assert sorted(seats[seat] for seats in rotations) == sorted(rotations[0])


def test_a_hand_s_places_are_the_order_out_then_those_still_in_tied_then_the_bhabhi() -> None:
    def record(bhabhi: int | None, out: tuple[int, ...]) -> HandRecord:
        sitting = Sitting(0, 0, ("a", "b", "c", "d"), "s:0")
        return HandRecord(sitting, "t", bhabhi, out, "", "", (0,) * 4, (False,) * 4)

    assert record(1, (2, 0, 3)).places() == [1, 3, 0, 2]
    assert record(None, (3,)).places() == [1, 1, 1, 0]  # a bound ended it: the rest tie
    assert record(2, (0,)).places() == [0, 1, 2, 1]


def test_wilson_s_interval_has_its_textbook_values() -> None:
    def rounded(interval: tuple[float, float]) -> tuple[float, float]:
        return (round(interval[0], 4), round(interval[1], 4))

    assert rounded(wilson(5, 10)) == (0.2366, 0.7634)
    assert rounded(wilson(0, 10)) == (0.0, 0.2775)
    assert rounded(wilson(10, 10)) == (0.7225, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0  # exactly, not nearly
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_league_plays_each_deal_once_in_each_rotation(league: tuple[str, Any]) -> None:
    _, doc = league
    assert (doc["rules"], doc["players"], doc["deals"], doc["seed"]) == ("bhabho", 3, DEALS, SEED)
    assert doc["rotations"] == 3
    hands = doc["hands"]
    assert [(h["deal"], h["rotation"]) for h in hands] == [
        (d, r) for d in range(DEALS) for r in range(3)
    ]
    assert len({h["table_id"] for h in hands}) == len(hands)
    for hand in hands:
        assert hand["seed"] == f"{SEED}:{hand['deal']}"
        assert hand["hand_seed"] == f"{SEED}:{hand['deal']}:0"
        assert sorted(hand["seats"]) == ["heuristic", "random", "random#2"]
        assert hand["bhabhi"] is None or hand["bhabhi"] not in hand["out_order"]


def test_the_rotations_of_a_deal_are_dealt_the_same_hands(league: tuple[str, Any]) -> None:
    target, doc = league

    async def exported() -> list[dict[str, Any]]:
        async with Client(target, timeout=30) as client:
            return [
                yaml.safe_load(await client.export_hand(h["table_id"], 0)) for h in doc["hands"]
            ]

    cases = asyncio.run(exported())
    for hand, case in zip(doc["hands"], cases, strict=True):
        assert case["fair_deal"]["seed"] == hand["hand_seed"]
        result = case["result"]  # the JSON says what the referee recorded
        seats = hand["seats"]
        assert hand["bhabhi"] == (None if result["bhabhi"] is None else seats[result["bhabhi"]])
        assert hand["out_order"] == [seats[s] for s in result["out_order"]]
    for deal in range(DEALS):
        of_deal = [c for h, c in zip(doc["hands"], cases, strict=True) if h["deal"] == deal]
        assert len(of_deal) == 3
        assert all(c["deal"] == of_deal[0]["deal"] for c in of_deal)
        assert all(c["dealer"] == of_deal[0]["dealer"] for c in of_deal)
    assert len({str(c["deal"]) for c in cases}) == DEALS


def test_each_entrant_s_figures_are_those_of_its_hands(league: tuple[str, Any]) -> None:
    _, doc = league
    bhabhis = Counter(h["bhabhi"] for h in doc["hands"] if h["bhabhi"] is not None)
    names = [e["name"] for e in doc["entrants"]]
    assert names == ["heuristic", "random", "random#2"]
    for entrant in doc["entrants"]:
        assert set(entrant) >= {"name", "hands", "bhabhi_rate", "ci95", "rating"}
        assert set(entrant) >= {"bhabhis", "mu", "sigma", "failures"}
        assert entrant["hands"] == DEALS * 3
        assert entrant["bhabhis"] == bhabhis[entrant["name"]]
        assert entrant["bhabhi_rate"] == entrant["bhabhis"] / entrant["hands"]
        lo, hi = entrant["ci95"]
        assert [lo, hi] == list(wilson(entrant["bhabhis"], entrant["hands"]))
        assert 0 <= lo <= entrant["bhabhi_rate"] <= hi <= 1
        assert entrant["rating"] == pytest.approx(entrant["mu"] - 3 * entrant["sigma"])
        assert entrant["failures"] == 0  # built-in bots neither crash nor hang
    # Every entrant sat at every table, so each pair's rate is the entrant's own.
    cross = doc["crosstable"]
    assert set(cross) == set(names)
    for a in names:
        assert set(cross[a]) == set(names) - {a}
        own = next(e for e in doc["entrants"] if e["name"] == a)
        for cell in cross[a].values():
            assert (cell["hands"], cell["bhabhis"], cell["ci95"]) == (
                own["hands"],
                own["bhabhis"],
                own["ci95"],
            )


def test_the_heuristic_bot_is_rated_above_random_play(league: tuple[str, Any]) -> None:
    _, doc = league
    rating = {e["name"]: e["rating"] for e in doc["entrants"]}
    assert rating["heuristic"] > max(rating["random"], rating["random#2"])


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--entrants", "heuristic,nope,random"], "unknown entrant: unknown strategy 'nope'"),
        (["--entrants", "heuristic,random", "--players", "3"], "2 entrants for 3 players"),
        (["--entrants", "heuristic,random"], "bhabho is played by 3 to 8 players, not 2"),
        (["--entrants", "heuristic,random,random", "--deals", "0"], "--deals must be at least 1"),
        (
            ["--entrants", "heuristic,random,random", "--target", "127.0.0.1:1"],
            "cannot reach the referee at 127.0.0.1:1",
        ),
        (["--entrants", "random,random,random", "--rules", "nope"], "unknown ruleset 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "never.json"
    assert main(["arena", *args, "--json", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bhabhi: ") and says in err, err
    assert not out.exists()
