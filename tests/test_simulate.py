"""``bhabhi simulate``, the bots and the ``play_hand`` driver (no timing is ever asserted)."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from referee.cli import main
from referee.engine.hand import Hand, SeatView
from referee.engine.shuffle import hand_seed
from referee.engine.types import Action, IllegalActionError
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.sim import commands
from referee.sim.bots import Bot, HeuristicBot, RandomBot
from referee.sim.play import bots_rng, play_hand
from referee.sim.runner import dealer_of
from referee.sim.simulate import simulate

TIMING = re.compile(r'"timing": \{[^{}]*\}, ')


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, Any]]:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    assert len(out.splitlines()) == 1
    data = json.loads(out)
    assert set(data["timing"]) == {"seconds", "hands_per_second", "jobs"}
    without_timing = TIMING.sub("", out)
    assert '"timing"' not in without_timing
    return without_timing, data


# --- output is a function of the arguments ---------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("--rules", "pickup", "--players", "4", "--games", "300", "--seed", "s"),
        ("--rules", "bhabho", "--players", "5", "--games", "40", "--seed", "7",
         "--bot", "heuristic"),
        ("--rules", "bhabho-two-left", "--players", "3", "--games", "40", "--seed", "x",
         "--bots", "heuristic,random,random"),
    ],
)  # fmt: skip
def test_json_is_identical_apart_from_timing(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    first, _ = run_json(capsys, *args)
    again, _ = run_json(capsys, *args)
    split, data = run_json(capsys, *args, "--jobs", "2")
    assert again == first
    assert split == first
    assert data["timing"]["jobs"] == 2


def test_json_content(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(
        capsys, "--rules", "bhabho", "--players", "4", "--games", "200", "--seed", "1"
    )
    rules = load_ruleset("bhabho")
    assert data["rules"] == {"id": "bhabho", "hash": rules.hash}
    assert data["engine"] == "playout"
    assert data["hands"] == 200
    assert sum(data["endings"].values()) == 200
    assert data["endings"]["last_player"] == 200  # B1-B9 always end (catalogue)
    assert sum(data["bhabhi_count"]["by_seat"]) == 200 - data["no_bhabhi"]
    assert sum(data["bhabhi_count"]["by_seat_from_dealer"]) == 200 - data["no_bhabhi"]
    for key in ("tricks", "actions", "pickups"):
        d = data[key]
        assert d["min"] <= d["median"] <= d["max"]
        assert d["min"] <= d["mean"] <= d["max"]
    assert data["warnings"] == []


def test_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "--rules", "pickup", "--players", "3", "--games", "50", "--seed", "2"
    )
    assert code == 0
    assert err == ""
    assert out.startswith("pickup: 3 players, 50 hands, seed '2', bots random,random,random")
    for needle in ("in a dead position", "with no Bhabhi", "tricks", "actions", "pickups"):
        assert needle in out
    assert "Bhabhi rate by seat counted from the dealer" in out


# --- warnings ---------------------------------------------------------------------------------


def test_discard_with_four_players_has_no_bhabhi(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(
        capsys, "--rules", "discard", "--players", "4", "--games", "50", "--seed", "d"
    )
    assert data["endings"]["all_out"] == 50
    assert data["no_bhabhi"] == 50
    assert data["warnings"] == ["the result looks fixed by the deal: 100.0% of hands had no Bhabhi"]


def test_discard_with_three_players_the_long_hand_loses(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(
        capsys, "--rules", "discard", "--players", "3", "--games", "50", "--seed", "d"
    )
    # 52 cards to 3 players: the first to receive cards, after the dealer, gets 18.
    assert data["bhabhi_count"]["by_seat_from_dealer"] == [0, 50, 0]
    assert data["warnings"] == [
        "the result looks fixed by the deal: the player 1 after the dealer was the Bhabhi in "
        "100.0% of hands"
    ]


def test_warning_when_hands_fail_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(
        capsys, "--rules", "pickup", "--players", "3", "--games", "200", "--seed", "1"
    )
    bounded = data["endings"]["max_tricks"] + data["endings"]["dead_position"]
    assert bounded > 100
    assert data["warnings"][0].startswith("this ruleset's hands mostly fail to end")


def test_no_deal_warning_from_a_handful_of_hands(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = run_json(
        capsys, "--rules", "discard", "--players", "4", "--games", "5", "--seed", "d"
    )
    assert data["warnings"] == []


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "no-such-rules", "--players", "4"], "no bundled ruleset or file named"),
        (["--rules", "/no/such/file.yaml", "--players", "4"], "/no/such/file.yaml"),
        (["--rules", "bhabho", "--players", "9"], "allows 3 to 8 players, not 9"),
        (["--rules", "team", "--players", "5"], "allows 4, 6 or 8 players, not 5"),
        (["--rules", "bhabho", "--players", "4", "--games", "0"], "--games must be at least 1"),
        (["--rules", "bhabho", "--players", "4", "--jobs", "0"], "--jobs must be at least 1"),
        (["--rules", "bhabho", "--players", "3", "--bots", "random,random"], "2 bots for 3"),
        (["--rules", "bhabho", "--players", "3", "--bots", "random,clever,random"], "'clever'"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    argv = [*args, "--seed", "1"]
    if "--games" not in argv:
        argv += ["--games", "3"]
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("bhabhi simulate: error: ")
    assert message in err
    assert "Traceback" not in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--rules", "bhabho", "--players", "x", "--games", "3", "--seed", "1")
    assert code == 2
    assert "invalid int value" in err
    code, _, _ = run(
        capsys, "--rules", "bhabho", "--players", "3", "--games", "3", "--seed", "1",
        "--bot", "random", "--bots", "random,random,random",
    )  # fmt: skip
    assert code == 2


def test_games_and_seed_have_defaults_shown_in_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Only the ruleset and the player count must be given: the same run as with
    ``--games 1000 --seed 1``, which the help names."""
    _, defaults = run_json(capsys, "--rules", "pickup", "--players", "3")
    _, named = run_json(capsys, "--rules", "pickup", "--players", "3", "--games", "1000",
                        "--seed", "1")  # fmt: skip
    assert defaults["hands"] == 1000
    assert {k: v for k, v in defaults.items() if k != "timing"} == {
        k: v for k, v in named.items() if k != "timing"
    }
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--rules ID|FILE --players N [--games K] [--seed S]" in " ".join(out.split())
    assert "hands to play (default 1000)" in " ".join(out.split())
    assert "(default 1: the same hands every run)" in " ".join(out.split())


def test_the_handler_can_be_called_directly(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    args = argparse.Namespace(
        rules="bhabho", players=3, games=5, seed="1", bot="random", bots=None, jobs=1, json=True
    )
    assert commands.run(args) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == 5


# --- the simulator's hands are the session's hands ----------------------------------------------


def test_hands_use_the_session_seeds_and_dealers() -> None:
    rules = load_ruleset("pickup")
    sim = simulate(rules, 4, 6, "abc", ["heuristic"] * 4)
    for index, stat in enumerate(sim.hands):
        dealer = dealer_of(rules, 4, index)
        assert stat.dealer == dealer
        hand = Hand(rules, 4, seed=hand_seed("abc", index), dealer=dealer, record=False)
        play_hand(hand, [HeuristicBot(rules) for _ in range(4)], bots_rng("abc", index))
        assert hand.outcome is not None
        assert (stat.bhabhi, stat.tricks, stat.actions) == (
            hand.outcome.bhabhi,
            hand.trick_number,
            len(hand.history),
        )
    assert dealer_of(rules, 4, 1) == 3  # pickup: the deal moves counter-clockwise (C5)


# --- bots -------------------------------------------------------------------------------------


class _Watch:
    """Passes views to a bot, checking what it is given and what it returns."""

    def __init__(self, bot: Bot, seat: int) -> None:
        self.bot = bot
        self.seat = seat
        self.calls = 0

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        assert type(view) is SeatView
        assert view.seat == self.seat
        self.calls += 1
        action = self.bot.choose(copy.deepcopy(view), rng)
        if action is not None:
            assert action in view.legal_actions
        return action


@pytest.mark.parametrize("ruleset_id", sorted(bundled_ruleset_paths()))
def test_heuristic_bot_plays_only_legal_actions(ruleset_id: str) -> None:
    rules = load_ruleset(ruleset_id)
    players = rules.players.min + (1 if rules.players.allows(rules.players.min + 1) else 0)
    for index in range(4 if ruleset_id != "whole-pile" else 2):
        hand = Hand(rules, players, seed=hand_seed("legal", index), dealer=index % players)
        bots = [_Watch(HeuristicBot(rules), seat) for seat in range(players)]
        try:
            play_hand(hand, bots, bots_rng("legal", index))
        except IllegalActionError as exc:  # pragma: no cover - the failure report
            pytest.fail(f"{ruleset_id}, hand {index}: {exc}")
        assert hand.is_over
        assert sum(bot.calls for bot in bots) >= len(hand.history)


def test_heuristic_bot_decides_from_the_view_alone() -> None:
    """The bot holds only the rules; the same view gives the same choice."""
    rules = load_ruleset("bhabho")
    bot = HeuristicBot(rules)
    assert all(not isinstance(value, Hand) for value in vars(bot).values())
    hand = Hand(rules, 4, seed=b"view", dealer=0, record=False)
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        view = hand.view(seat)
        action = bot.choose(view, random.Random(0))
        assert bot.choose(copy.deepcopy(view), random.Random(1)) == action
        assert action is not None
        hand.apply(seat, action)


def test_random_bot_declines_or_takes_an_optional_take() -> None:
    rules = load_ruleset("bhabho")
    hand = Hand(rules, 4, seed=b"take", dealer=0, record=False)
    other = next(s for s in hand.seats_to_act() if s != hand.leader)
    view = hand.view(other)
    rng = random.Random(5)
    choices = [RandomBot().choose(view, rng) for _ in range(2000)]
    takes = sum(1 for c in choices if c is not None)
    assert 0 < takes < 2000
    assert all(c is None or c in view.legal_actions for c in choices)


def test_heuristic_beats_random(capsys: pytest.CaptureFixture[str]) -> None:
    """A fixed sample (deterministic, not a statistical test): one heuristic seat, three random."""
    _, data = run_json(
        capsys, "--rules", "pickup", "--players", "4", "--games", "160", "--seed", "duel",
        "--bots", "heuristic,random,random,random",
    )  # fmt: skip
    counts = data["bhabhi_count"]["by_seat"]
    assert counts[0] * 2 < min(counts[1:])
