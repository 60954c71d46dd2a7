"""``bhabhi arena``: a league on duplicate deals, played through a referee and rated.

One small league (bhabho, three players, ``heuristic,random,random``, four deals: twelve
hands) is played once by the command against a referee on a background thread, and its
JSON document and the referee's exported hands are checked: every (deal, rotation) played
once, the rotations of a deal dealt the same hands, each entrant's hands, rates and
intervals as the hands say, the JSON contract's keys, and the heuristic bot rated above
random play (four deals suffice for the seed ``arena``: measured over repeated runs, the
heuristic bot was never the Bhabhi and was rated at least 8 points above either random
entrant).  The schedule, the places a hand gives and the intervals are checked on their own;
bad input is one line and exit code 2.  External entrants play a seat with the credential
they are given; a bot that crashes or hangs is played on by the clock and counted; a league
killed in the middle continues from its journal and the referee's records.  With more
entrants than players, every group of them plays every deal in every rotation (checked on
the schedule, and on a small league of four entrants on three seats, played and continued
from its journal); a league too long is refused before it starts.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.arena import (
    ArenaUsageError,
    Entrant,
    HandRecord,
    Journal,
    Sitting,
    entrants_of,
    league_hands,
    play_sitting,
    schedule,
)
from bhabhi_client.arena_report import wilson
from bhabhi_client.bots import Strategy
from bhabhi_client.client import Client
from bhabhi_client.commands import main
from server_helpers import referee, run_async
from test_client import BackgroundReferee

DEALS = 4
SEED = "arena"
ENTRANTS = "heuristic,random,random"


@dataclass(frozen=True)
class League:
    target: str
    """The referee's address."""
    doc: dict[str, Any]
    """The ``--json`` document."""
    page: str
    """The ``--html`` page."""


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[League]:
    """The league, played by the command."""
    referee = BackgroundReferee()
    folder = tmp_path_factory.mktemp("arena")
    out = folder / "league.json"
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
                "--html",
                str(folder / "league.html"),
            ]
        )
        assert code == 0
        page = (folder / "league.html").read_text(encoding="utf-8")
        yield League(referee.target, json.loads(out.read_text(encoding="utf-8")), page)
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
    assert sittings == schedule(entrants, 2, "s", players=3)
    assert all(s.group == 0 for s in sittings)
    # The bots' seeds are those of leagues before groups, so their results do not change.
    assert sittings[4].bot_seed("s", 2) == "s:1:1:2"


def test_more_entrants_than_players_play_every_group_in_every_rotation() -> None:
    entrants = [Entrant(name, "random") for name in "abcd"]
    sittings = schedule(entrants, 2, "s", players=3)
    assert len(sittings) == league_hands(4, 3, 2) == 2 * 4 * 3
    groups = list(itertools.combinations("abcd", 3))
    assert [(s.deal, s.group, s.rotation) for s in sittings] == [
        (d, g, r) for d in range(2) for g in range(4) for r in range(3)
    ]
    for s in sittings:  # the group's entrant i at seat (i + r) mod 3, dealt the deal's seed
        assert s.deal_seed == f"s:{s.deal}"
        assert all(s.seats[(i + s.rotation) % 3] == name for i, name in enumerate(groups[s.group]))
    for deal in range(2):
        of_deal = [s for s in sittings if s.deal == deal]
        in_groups = Counter(
            name for g in {s.group: s.seats for s in of_deal}.values() for name in g
        )
        assert in_groups == {name: 3 for name in "abcd"}  # each entrant in 3 groups of 4
        for a, b in itertools.combinations("abcd", 2):  # each pair together in 2 of them
            assert len({s.group for s in of_deal if a in s.seats and b in s.seats}) == 2
        held = Counter((name, seat) for s in of_deal for seat, name in enumerate(s.seats))
        assert held == {(name, seat): 3 for name in "abcd" for seat in range(3)}
    bot_seeds = {s.bot_seed("s", seat) for s in sittings for seat in range(3)}
    assert len(bot_seeds) == len(sittings) * 3  # no two seats of the league play alike
    assert sittings[0].bot_seed("s", 1) == "s:0:0:1"  # group 0 as before groups


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


def test_the_league_plays_each_deal_once_in_each_rotation(league: League) -> None:
    doc = league.doc
    assert (doc["rules"], doc["players"], doc["deals"], doc["seed"]) == ("bhabho", 3, DEALS, SEED)
    assert doc["rotations"] == 3 and doc["groups"] == 1
    assert list(doc) == [
        "rules",
        "players",
        "deals",
        "seed",
        "rotations",
        "groups",
        "rating_model",
        "entrants",
        "crosstable",
        "hands",
    ]
    hands = doc["hands"]
    for hand in hands:
        assert set(hand) >= {"deal", "rotation", "table_id", "seats", "bhabhi", "out_order"}
        assert hand["group"] == 0
        assert set(hand) >= {"seed", "hand_seed", "timeouts", "crashes", "termination"}
    assert [(h["deal"], h["rotation"]) for h in hands] == [
        (d, r) for d in range(DEALS) for r in range(3)
    ]
    assert len({h["table_id"] for h in hands}) == len(hands)
    for hand in hands:
        assert hand["seed"] == f"{SEED}:{hand['deal']}"
        assert hand["hand_seed"] == f"{SEED}:{hand['deal']}:0"
        assert sorted(hand["seats"]) == ["heuristic", "random", "random#2"]
        assert hand["bhabhi"] is None or hand["bhabhi"] not in hand["out_order"]


def test_the_rotations_of_a_deal_are_dealt_the_same_hands(league: League) -> None:
    target, doc = league.target, league.doc

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


def test_each_entrant_s_figures_are_those_of_its_hands(league: League) -> None:
    doc = league.doc
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


def test_the_heuristic_bot_is_rated_above_random_play(league: League) -> None:
    doc = league.doc
    rating = {e["name"]: e["rating"] for e in doc["entrants"]}
    assert rating["heuristic"] > max(rating["random"], rating["random#2"])


def test_the_html_page_plots_every_entrant_and_fetches_nothing(league: League) -> None:
    doc, page = league.doc, league.page
    assert page.count("<svg") == 2
    lines = re.findall(r'<polyline [^>]*points="([^"]*)"><title>([^<]*)</title>', page)
    assert sorted(name for _, name in lines) == ["heuristic", "random", "random#2"]
    for points, _ in lines:  # before the first hand, then after each of the twelve
        assert len(points.split()) == len(doc["hands"]) + 1
    dots = re.findall(r"<circle [^>]*><title>([^:<]*): ", page)
    assert sorted(dots) == ["heuristic", "random", "random#2"]
    for hand in doc["hands"]:  # every hand can be found at the referee and checked
        assert hand["table_id"] in page and hand["hand_seed"] in page
    assert "<script" not in page and "<link" not in page and " src=" not in page
    assert "https://" not in page and page.count("http://") == 2  # the SVG namespace


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--entrants", "heuristic,nope,random"], "unknown entrant: unknown strategy 'nope'"),
        (
            ["--entrants", "heuristic,random", "--players", "3"],
            "2 entrants for 3 players: every seat needs an entrant, so give at least 3",
        ),
        (
            ["--entrants", ",".join(["random"] * 12), "--players", "6", "--deals", "2"],
            "would be 11088 hands, more than the arena plays in one league (10000)",
        ),
        (["--entrants", "random,random,random", "--players", "0"], "--players must be"),
        (["--entrants", "heuristic,random"], "bhabho is played by 3 to 8 players, not 2"),
        (["--entrants", "heuristic,random,random", "--deals", "0"], "--deals must be at least 1"),
        (
            ["--entrants", "heuristic,random,random", "--target", "127.0.0.1:1"],
            "cannot reach the referee at 127.0.0.1:1",
        ),
        (["--entrants", "random,random,random", "--rules", "nope"], "unknown ruleset 'nope'"),
        (
            ["--entrants", "random,random,random", "--journal", "j.jsonl"],
            "--journal needs --target",
        ),
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


def test_a_league_too_long_is_refused_before_anything_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "j.jsonl"
    many = ",".join(["random"] * 12)
    # No referee answers at the target: the refusal comes before the arena looks for one.
    args = ["arena", "--target", "127.0.0.1:1", "--entrants", many, "--players", "6"]
    assert main([*args, "--deals", "2", "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "12 entrants on 6 seats for 2 deal(s) would be 11088" in err
    assert not journal.exists()


# --- more entrants than players ---------------------------------------------------------------

GROUPED = "heuristic,random,random,random"
"""Four entrants on three seats: four groups a deal, each in three rotations."""


def test_a_league_of_four_entrants_on_three_seats_plays_every_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    referee = BackgroundReferee()
    out = tmp_path / "league.json"
    args = ["arena", "--target", referee.target, "--players", "3", "--entrants", GROUPED]
    try:
        args += ["--deals", "1", "--seed", "groups", "--html", str(tmp_path / "p.html")]
        code = main([*args, "--json", str(out)])
    finally:
        referee.close()
    assert code == 0
    heading = capsys.readouterr().out.splitlines()[0]
    assert heading == (
        "bhabho, 3 players, 4 entrants: 1 deal(s), 4 groups of 3 in 3 rotations, 12 hands, "
        "seed groups"
    )
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert (doc["players"], doc["rotations"], doc["groups"]) == (3, 3, 4)
    hands = doc["hands"]
    assert [(h["deal"], h["group"], h["rotation"]) for h in hands] == [
        (0, g, r) for g in range(4) for r in range(3)
    ]
    assert len({h["table_id"] for h in hands}) == 12
    assert all(h["seed"] == "groups:0" and h["hand_seed"] == "groups:0:0" for h in hands)
    names = ["heuristic", "random", "random#2", "random#3"]
    assert [e["name"] for e in doc["entrants"]] == names
    bhabhis = Counter(h["bhabhi"] for h in hands if h["bhabhi"] is not None)
    for entrant in doc["entrants"]:  # three groups of four, three rotations each
        assert entrant["hands"] == 9
        assert entrant["bhabhis"] == bhabhis[entrant["name"]]
        assert entrant["ci95"] == list(wilson(entrant["bhabhis"], 9))
    cross = doc["crosstable"]
    assert set(cross) == set(names)
    for a in names:
        assert set(cross[a]) == set(names) - {a}
        for b, cell in cross[a].items():  # together in two groups, three rotations each
            together = [h for h in hands if a in h["seats"] and b in h["seats"]]
            assert cell["hands"] == len(together) == 6
            assert cell["bhabhis"] == sum(h["bhabhi"] == a for h in together)
    page = (tmp_path / "p.html").read_text(encoding="utf-8")
    assert "each of the 4 groups of 3 of the 4 entrants" in page
    assert "<h1>Arena: bhabho, 3 players, 4 entrants, 1 deals, seed groups</h1>" in page
    assert "<th>group</th>" in page


def test_a_grouped_league_continues_from_its_journal(tmp_path: Path) -> None:
    referee = BackgroundReferee()
    journal = tmp_path / "league.jsonl"
    league = ["arena", "--target", referee.target, "--players", "3", "--entrants", GROUPED]
    league += ["--deals", "1", "--seed", "resumed", "--journal", str(journal)]
    out = tmp_path / "league.json"
    try:
        assert main(league) == 0
        full = journal.read_text().splitlines()
        assert len(full) == 1 + 12
        # Keep the header and five hands, as a league stopped in the middle leaves it; the
        # lines of group 0 without their group, as a journal written before groups has them.
        kept = [json.loads(line) for line in full[1:]]
        kept = [
            e
            for e in kept
            if (e["group"], e["rotation"]) in {(0, 0), (0, 2), (1, 1), (2, 0), (3, 2)}
        ]
        for entry in kept:
            if entry["group"] == 0:
                del entry["group"]
        journal.write_text("\n".join([full[0], *(json.dumps(e) for e in kept)]) + "\n")
        assert main([*league, "--json", str(out)]) == 0
        after = journal.read_text().splitlines()
    finally:
        referee.close()
    assert len(after) == 1 + 5 + 7  # only the seven hands missing were played
    doc = json.loads(out.read_text())
    assert [(h["deal"], h["group"], h["rotation"]) for h in doc["hands"]] == [
        (0, g, r) for g in range(4) for r in range(3)
    ]
    table_of = {(h["group"], h["rotation"]): h["table_id"] for h in doc["hands"]}
    for entry in kept:  # read back from the referee's records, not played again
        assert table_of[(entry.get("group", 0), entry["rotation"])] == entry["table_id"]
    played = [json.loads(line) for line in after[1 + 5 :]]
    assert sorted((e["group"], e["rotation"]) for e in played) == sorted(
        set(table_of) - {(e.get("group", 0), e["rotation"]) for e in kept}
    )
    assert len(set(table_of.values())) == 12
    assert all(e["hands"] == 9 for e in doc["entrants"])


# --- external entrants and failing bots -----------------------------------------------------

PYTHON = shlex.quote(sys.executable)


def test_external_entrants_are_named_by_their_program_or_their_label() -> None:
    entrants = entrants_of(
        [f"cmd:{PYTHON} -m bhabhi_client bot", "mine=cmd:sleep 1", "cmd:sleep 2", "random"]
    )
    assert [e.name for e in entrants] == [Path(sys.executable).name, "mine", "sleep", "random"]
    assert entrants[1].command == ("sleep", "1") and entrants[1].strategy == "cmd:sleep 1"
    assert entrants[3].command == ()
    for bad, says in [
        ("cmd:", "names no program"),
        ("cmd:no-such-program-here --x", "no program 'no-such-program-here' found"),
        ("cmd:sleep 'unclosed", "No closing quotation"),
        ("", "an empty entrant"),
    ]:
        with pytest.raises(ArenaUsageError, match=says):
            entrants_of([bad])


@run_async
async def test_an_external_entrant_plays_its_seat_with_the_credential_it_is_given() -> None:
    bot = (
        f"cmd:{PYTHON} -m bhabhi_client bot --target {{target}} --table {{table}} "
        "--token {token} --strategy random --name seat-{seat}"
    )
    [heuristic, external, rand] = entrants_of(["heuristic", bot, "random"])
    entrants = {e.name: e for e in (heuristic, external, rand)}
    sitting = Sitting(0, 0, (heuristic.name, external.name, rand.name), "ext:0")
    async with referee() as ref, Client(ref.target, timeout=30) as client:
        # A clock the program's start-up cannot run out (it is no test of speed).
        hand = await play_sitting(client, "bhabho", sitting, entrants, seed="e", turn_time=60)
        assert hand.crashes == (False, False, False), hand.notes
        assert hand.timeouts == (0, 0, 0)
        assert hand.termination != "ABANDONED" and hand.hand_seed == "ext:0:0"
        case = yaml.safe_load(await client.export_hand(hand.table_id, 0))
        assert any(step["seat"] == 1 for step in case["steps"])  # the program played seat 1


CONNECTED_KEY = "connected-bot-key-0001"


def test_connected_entrants_are_named_by_their_label_and_their_key_is_written_nowhere() -> None:
    entrants = entrants_of([f"mine=bot:{CONNECTED_KEY}", f"bot:{CONNECTED_KEY}x", "random"])
    assert [(e.name, e.strategy) for e in entrants] == [
        ("mine", "bot"),
        ("bot", "bot"),
        ("random", "random"),
    ]
    assert [e.bot_key for e in entrants] == [CONNECTED_KEY, CONNECTED_KEY + "x", ""]
    for bad in ("bot:short", "x=bot:", f"bot:{CONNECTED_KEY} spaced"):
        with pytest.raises(ArenaUsageError, match="a bot key is 16 to 128"):
            entrants_of([bad])


def test_a_bot_waits_only_under_a_good_key_and_counts_seats_only_then(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, says in [
        (["--await-key", "short"], "a bot key is 16 to 128"),
        (["--await-key", CONNECTED_KEY, "--max-seats", "0"], "at least 1"),
        (["--table", "T", "--max-seats", "2"], "--max-seats goes with --await-key"),
    ]:
        assert main(["bot", "--target", "127.0.0.1:1", *argv]) == 2
        assert says in capsys.readouterr().err


@run_async
async def test_a_connected_bot_is_handed_its_seat_and_plays_it() -> None:
    [heuristic, connected, rand] = entrants_of(["heuristic", f"far=bot:{CONNECTED_KEY}", "random"])
    entrants = {e.name: e for e in (heuristic, connected, rand)}
    sitting = Sitting(0, 0, (heuristic.name, connected.name, rand.name), "far:0")
    async with referee() as ref, Client(ref.target, timeout=30) as client:
        # The bot, started on its own as its author would, waits for one seat.
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bhabhi_client",
            "bot",
            "--target",
            ref.target,
            "--await-key",
            CONNECTED_KEY,
            "--max-seats",
            "1",
            "--strategy",
            "random",
            stdout=asyncio.subprocess.PIPE,
        )
        assert bot.stdout is not None
        assert (await bot.stdout.readline()).decode().startswith("waiting for seats at")
        # A clock the bot's start-up cannot run out (it is no test of speed).
        hand = await play_sitting(client, "bhabho", sitting, entrants, seed="c", turn_time=60)
        out, _ = await bot.communicate()
        assert bot.returncode == 0
        assert hand.crashes == (False, False, False), hand.notes
        assert hand.timeouts == (0, 0, 0)
        assert hand.termination != "ABANDONED" and hand.hand_seed == "far:0:0"
        case = yaml.safe_load(await client.export_hand(hand.table_id, 0))
        assert any(step["seat"] == 1 for step in case["steps"])  # the bot played seat 1
    lines = out.decode().splitlines()
    assert lines[0] == f"far: seat 1 of table {hand.table_id}"
    assert lines[1].startswith(f"table {hand.table_id}: far (seat 1): 1 hand(s)")


@run_async
async def test_a_connected_bot_that_is_not_waiting_is_played_on_by_the_clock_and_counted() -> None:
    [connected] = entrants_of([f"bot:{CONNECTED_KEY}"])
    entrants: dict[str, Entrant | Strategy] = {
        "heuristic": Entrant("heuristic", "heuristic"),
        "random": Entrant("random", "random"),
        connected.name: connected,
    }
    sitting = Sitting(0, 0, ("heuristic", connected.name, "random"), "gone:0")
    async with referee() as ref, Client(ref.target, timeout=30) as client:
        hand = await play_sitting(
            client, "bhabho", sitting, entrants, seed="g", turn_time=0.1, stop_grace=0.5
        )
    assert hand.crashes == (False, True, False)
    assert hand.notes[1] == "not connected: no bot waits under its key"
    assert hand.timeouts[1] > 0


class Crashing:
    """A strategy that fails the first time it is asked."""

    def choose(self, view: pb.SeatView, rng: random.Random) -> pb.Action | None:
        raise RuntimeError("the bot broke")


@run_async
async def test_a_crashed_or_hung_bot_is_played_on_by_the_clock_and_counted(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "hung.pid"
    hang = f"cmd:sh -c {shlex.quote(f'echo $$ > {pid_file}; exec sleep 600')}"
    [hung] = entrants_of([hang])
    crashing: Strategy = Crashing()
    entrants: dict[str, Entrant | Strategy] = {
        "heuristic": Entrant("heuristic", "heuristic"),
        "crashing": crashing,
        hung.name: hung,
    }
    sitting = Sitting(0, 0, ("heuristic", "crashing", hung.name), "fail:0")
    async with referee() as ref, Client(ref.target, timeout=30) as client:
        hand = await play_sitting(
            client, "bhabho", sitting, entrants, seed="f", turn_time=0.1, stop_grace=0.5
        )
    assert hand.crashes == (False, True, True)
    assert hand.notes[1] == "the bot broke"
    assert hand.notes[2] == "still running after the session was over"
    # (The heuristic bot may miss so short a clock too on a busy machine: not asserted.)
    assert hand.timeouts[1] > 0 and hand.timeouts[2] > 0
    # The hand went on to its end, or the referee closed the table once only the failing
    # seats were left in it: either way it is a hand of the league.
    assert hand.termination == "ABANDONED" or hand.hand_seed == "fail:0:0"
    with pytest.raises(ProcessLookupError):  # the hung program was stopped
        os.kill(int(pid_file.read_text()), 0)


# --- an interrupted league -------------------------------------------------------------------


def test_a_killed_league_continues_from_the_referee_s_records(tmp_path: Path) -> None:
    referee = BackgroundReferee()
    journal = tmp_path / "league.jsonl"
    league = [
        "arena",
        "--target",
        referee.target,
        "--entrants",
        ENTRANTS,
        "--deals",
        "8",
        "--seed",
        "resumed",
        "--parallel",
        "1",
        "--journal",
        str(journal),
    ]
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "bhabhi_client", *league],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        lines: list[str] = []
        while len(lines) < 5 and process.poll() is None:  # the header and four hands
            time.sleep(0.01)
            lines = journal.read_text().splitlines() if journal.exists() else []
        process.kill()
        process.wait()
        before = journal.read_text().splitlines()
        assert 5 <= len(before) < 1 + 24, "the league was not interrupted"
        out = tmp_path / "league.json"
        assert main([*league, "--json", str(out)]) == 0
        doc = json.loads(out.read_text())
        after = journal.read_text().splitlines()
    finally:
        referee.close()
    assert len(after) == 1 + 24 and after[: len(before) - 1] == before[:-1]
    assert [(h["deal"], h["rotation"]) for h in doc["hands"]] == [
        (d, r) for d in range(8) for r in range(3)
    ]
    table_of = {(h["deal"], h["rotation"]): h["table_id"] for h in doc["hands"]}
    for line in before[1:-1]:  # (the last may have been cut short by the kill)
        entry = json.loads(line)
        assert table_of[(entry["deal"], entry["rotation"])] == entry["table_id"]
    assert all(e["hands"] == 24 for e in doc["entrants"])


def test_a_journal_is_checked_before_a_league_goes_on(tmp_path: Path) -> None:
    league = {"rules": "bhabho", "players": 3, "entrants": ["random"] * 3}
    path = tmp_path / "j.jsonl"
    new = Journal.open(path, league, seed_if_new="s1")
    assert new.league["seed"] == "s1" and new.done == {}
    entry = {"deal": 0, "rotation": 1, "table_id": "t", "notes": ["", "", ""]}
    path.write_text(path.read_text() + json.dumps(entry) + "\n" + '{"deal": 1, "rot')
    again = Journal.open(path, league, seed_if_new="s2")  # a line cut short is let go
    assert again.league["seed"] == "s1" and list(again.done) == [(0, 0, 1)]
    with pytest.raises(ArenaUsageError, match=r"another league \(not the same seed\)"):
        Journal.open(path, {**league, "seed": "s3"}, seed_if_new="s3")
    with pytest.raises(ArenaUsageError, match=r"another league \(not the same entrants\)"):
        Journal.open(path, {**league, "entrants": ["heuristic"] * 3}, seed_if_new="x")
    path.write_text(path.read_text() + "\n" + json.dumps(entry) + "\n")
    with pytest.raises(ArenaUsageError, match=r"j.jsonl:3: not a line of an arena journal"):
        Journal.open(path, league, seed_if_new="x")
    (tmp_path / "other.txt").write_text("hello\n")
    with pytest.raises(ArenaUsageError, match="is not an arena journal"):
        Journal.open(tmp_path / "other.txt", league, seed_if_new="x")
