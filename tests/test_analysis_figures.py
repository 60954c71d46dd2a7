"""The analysis's arithmetic on small inputs made by hand, and its records against ``Hand``."""

from __future__ import annotations

import pytest
from scipy.stats import chisquare

from referee.analysis.figures import balance, chi_square_equal, figures, spread, wilson
from referee.analysis.record import HandRecord, course, hand_records, record_of_hand
from referee.engine.components import RuleBook
from referee.engine.hand import Hand
from referee.engine.playout import TRACE_DEAL, TRICK_COMPLETE, action_of, random_playout
from referee.engine.shuffle import hand_seed
from referee.ruleset.loader import load_ruleset
from referee.sim.runner import dealer_of


def record(
    bhabhi: int | None,
    dealer: int = 0,
    *,
    termination: str = "last_player",
    dealt: tuple[int, ...] = (13, 13, 13, 13),
    lead_holder: int = 0,
    decisive: int | None = 5,
    tricks: int = 10,
) -> HandRecord:
    return HandRecord(
        termination, bhabhi, dealer, tricks, 40, 38, 2, 1, 0, 0, lead_holder, dealt, (1,), 4,
        None if bhabhi is None else decisive,
    )  # fmt: skip


# --- the formulas ---------------------------------------------------------------------------


def test_wilson_intervals_match_the_published_values() -> None:
    """Wilson's 95% interval, as tabled by Newcombe (1998): 0/10, 5/10, 10/10."""
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12) and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0, abs=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)


def test_balance_is_one_minus_the_largest_gap() -> None:
    assert balance([0.25, 0.25, 0.25, 0.25]) == 1.0
    assert balance([0.2, 0.3, 0.5]) == pytest.approx(0.7)
    assert balance([1.0, 0.0, 0.0]) == 0.0


@pytest.mark.parametrize("counts", [[10, 10, 10], [5, 12, 9, 14], [0, 30, 0], [1, 2]])
def test_chi_square_is_scipy_stats_chisquare(counts: list[int]) -> None:
    result = chi_square_equal(counts)
    assert result is not None
    expected = chisquare(counts)
    assert result[0] == pytest.approx(float(expected.statistic))
    assert result[1] == pytest.approx(float(expected.pvalue), abs=1e-12)
    assert chi_square_equal([0, 0, 0]) is None


def test_spread_interpolates_between_order_statistics() -> None:
    assert spread([1, 2, 3, 4, 5]) == {"median": 3, "q1": 2, "q3": 4, "p95": 4.8, "max": 5}
    assert spread([7]) == {"median": 7, "q1": 7, "q3": 7, "p95": 7, "max": 7}


# --- figures of hand-made records -------------------------------------------------------------


def test_seat_rates_count_from_the_dealer_and_hands_without_a_bhabhi() -> None:
    """Four hands, 4 players, play clockwise (+1): the seat after the dealer loses twice,
    the dealer once, and one hand has no Bhabhi (it counts as a hand nobody lost)."""
    records = [record(1, 0), record(2, 1), record(3, 3), record(None, 2)]
    data = figures(records, 4, 1)
    seats = data["seats"]
    assert [s["bhabhis"] for s in seats] == [1, 2, 0, 0]
    assert [s["bhabhi_rate"] for s in seats] == [0.25, 0.5, 0.0, 0.0]
    assert data["no_bhabhi"] == {"hands": 1, "rate": 0.25}
    assert data["fairness"]["fair_rate"] == 0.1875
    assert data["fairness"]["balance"] == 0.5
    low, high = seats[1]["ci95"]
    assert (low, high) == (round(wilson(2, 4)[0], 6), round(wilson(2, 4)[1], 6))
    against = figures(records, 4, -1)  # counter-clockwise: "after the dealer" is seat - 1
    assert [s["bhabhis"] for s in against["seats"]] == [1, 0, 0, 2]


def test_splits_by_lead_card_holder_and_by_cards_dealt() -> None:
    uneven = (17, 18, 17)
    records = [
        record(1, dealt=uneven, lead_holder=1),
        record(1, dealt=uneven, lead_holder=0),
        record(0, dealt=uneven, lead_holder=0),
        record(None, dealt=uneven, lead_holder=2),
    ]
    fairness = figures(records, 3, 1)["fairness"]
    holder = fairness["by_lead_card_holder"]
    assert holder["holder"] == {**holder["holder"], "bhabhis": 2, "seat_hands": 4}
    assert holder["others"] == {**holder["others"], "bhabhis": 1, "seat_hands": 8}
    most = fairness["by_most_cards"]
    assert (most["most"]["bhabhis"], most["most"]["seat_hands"]) == (2, 4)
    assert (most["others"]["bhabhis"], most["others"]["seat_hands"]) == (1, 8)
    assert most["even_deals"] == 0
    assert set(fairness["by_cards_dealt"]) == {"17", "18"}
    assert fairness["by_cards_dealt"]["18"]["bhabhi_rate"] == 0.5


def test_decisiveness_after_the_deal_and_its_fraction() -> None:
    records = [record(0, decisive=0), record(1, decisive=5), record(2, decisive=10)]
    decided = figures(records, 4, 1)["decisiveness"]
    assert decided["hands"] == 3
    assert decided["after_deal"] == pytest.approx(1 / 3, abs=1e-6)
    assert decided["fraction"]["median"] == 0.5
    assert decided["curve"][0] == pytest.approx(1 / 3, abs=1e-6)
    assert decided["curve"][5] == pytest.approx(2 / 3, abs=1e-6)
    assert decided["curve"][10] == 1.0


def test_course_reads_outs_lead_changes_and_the_decisive_point() -> None:
    """Three seats; seat 2 leads twice, then seat 0; seat 0 goes out on the last trick."""
    trace = [
        (2, TRACE_DEAL, 0, [0b111, 0b1111, 0b11111]),
        (2, TRICK_COMPLETE, 0, [0b11, 0b111, 0b1111]),
        (2, TRICK_COMPLETE, 0, [0b1, 0b11, 0b111]),
        (0, TRICK_COMPLETE, 0, [0, 0b1, 0b11]),
    ]
    picked, tochoos, taken, outs, changes, decisive = course(trace, 2)
    assert (picked, tochoos, taken) == (0, 0, 0)
    assert outs == (1,)
    assert changes == 1
    assert decisive == 0  # seat 2 held strictly the most cards from the deal on
    assert course(trace, 1)[5] == 3  # seat 1 never did: told only at the end


# --- records: the fast playout and Hand tell the same story -----------------------------------


@pytest.mark.parametrize(
    ("ruleset", "players"), [("bhabho", 4), ("pickup", 3), ("discard", 5), ("whole-pile", 4)]
)
def test_the_playout_trace_and_hand_events_give_the_same_record(ruleset: str, players: int) -> None:
    """The fast path's record of each hand equals the record of the same actions replayed
    through ``Hand`` (checked), read from its events and its hands after each trick."""
    rules = load_ruleset(ruleset)
    book = RuleBook.of(rules)
    fast = hand_records(rules, players, b"t", ("random",) * players)
    for index in range(12):
        dealer = dealer_of(rules, players, index)
        played = random_playout(book, players, hand_seed(b"t", index), dealer)
        hand = Hand(rules, players, seed=hand_seed(b"t", index), dealer=dealer, record=True)
        points = [list(hand.hands)]
        for seat, code in played.actions:
            hand.apply(seat, action_of(code))
            if hand.trick_number == len(points):
                points.append(list(hand.hands))
        assert record_of_hand(hand, points) == fast(index)


def test_the_trace_is_left_alone_without_a_list() -> None:
    """The trace is the caller's list: without one the result is the same hand."""
    book = RuleBook.of(load_ruleset("bhabho"))
    trace: list[tuple[int, int, int, list[int]]] = []
    traced = random_playout(book, 4, b"s", 1, trace=trace)
    assert random_playout(book, 4, b"s", 1) == traced
    assert len(trace) == traced.tricks + 1
    assert trace[0][1] == TRACE_DEAL
    assert sum(hand.bit_count() for hand in trace[0][3]) == 52
