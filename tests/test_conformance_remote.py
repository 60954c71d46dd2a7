"""The gRPC adapter replays conformance cases on a running referee exactly as the engine does.

Every case runs twice, through ``EngineAdapter`` in process and through ``RemoteAdapter``
against a referee on a loopback port, each behind a recorder: the two recordings (every
action's events or refusal reason, every state, the result) must be equal, not merely both
pass, so that a difference the case does not pin down still shows.  The adapter's own
``discrepancies`` (stream gaps, secrets sent to the wrong seat, seats told different things)
must stay empty.

The cases are hands played at random on the engine and exported with every state (chosen so
that B8 draws, B9 takes, pickups, a trump, teams and a second pack all occur), and a few
small hand-made ones with refused steps.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb

from referee.conformance.commands import run_suite
from referee.conformance.remote import RemoteAdapter, _Streams
from referee.conformance.runner import (
    Adapter,
    CaseError,
    EngineAdapter,
    Refused,
    run_case,
)
from referee.engine import Hand
from referee.engine.record import export_hand
from referee.engine.types import PickedUp
from referee.ruleset.loader import load_ruleset, load_ruleset_text
from referee.server.app import RefereeServer, create_server
from referee.server.store.memory import MemoryStore

T = TypeVar("T")


# --- a referee in a background thread -----------------------------------------------------


class BackgroundReferee:
    """An in-process referee with its own event loop, so that the adapter under test can use
    the plain synchronous gRPC API from the test's thread, as any outside checker would."""

    def __init__(self, *, test_mode: bool, allow_register: bool) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="referee", daemon=True)
        self.thread.start()
        self.server: RefereeServer
        self.server, port = self._run(
            create_server(
                "127.0.0.1:0",
                store=MemoryStore(),
                test_mode=test_mode,
                allow_register=allow_register,
            )
        )
        self.target = f"127.0.0.1:{port}"

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(20)

    def stop(self) -> None:
        self._run(self.server.stop(0))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="module")
def referee() -> Iterator[BackgroundReferee]:
    """In test mode, letting clients register house variants (for inline rulesets)."""
    running = BackgroundReferee(test_mode=True, allow_register=True)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def plain_referee() -> Iterator[BackgroundReferee]:
    """As deployed: no explicit deals, no registering."""
    running = BackgroundReferee(test_mode=False, allow_register=False)
    yield running
    running.stop()


# --- running a case both ways -------------------------------------------------------------


class Recorder:
    """An adapter that writes down every answer of the adapter it wraps."""

    def __init__(self, inner: Adapter) -> None:
        self.inner = inner
        self.log: list[tuple[Any, ...]] = []

    def start(self, case: Mapping[str, Any]) -> None:
        self.inner.start(case)

    def act(self, seat: int, action: str) -> list[dict[str, Any]]:
        try:
            events = self.inner.act(seat, action)
        except Refused as refusal:
            self.log.append(("refused", seat, action, refusal.reason))
            raise
        self.log.append(("act", seat, action, events))
        return events

    def state(self) -> dict[str, Any]:
        state = self.inner.state()
        self.log.append(("state", state))
        return state

    def result(self) -> dict[str, Any] | None:
        result = self.inner.result()
        self.log.append(("result", result))
        return result

    def next_hand(self, spec: Mapping[str, Any]) -> int:
        dealer = self.inner.next_hand(spec)
        self.log.append(("next_hand", dealer))
        return dealer

    def session_result(self) -> dict[str, Any]:
        result = self.inner.session_result()
        self.log.append(("session", result))
        return result

    def close(self) -> None:
        self.inner.close()


def first_difference(engine: list[tuple[Any, ...]], remote: list[tuple[Any, ...]]) -> str:
    for index, (e, r) in enumerate(zip(engine, remote, strict=False)):
        if e != r:
            return f"answer {index}: engine {e!r}\n  remote {r!r}"
    return f"engine gave {len(engine)} answers, remote {len(remote)}"


def replay_both(case: Mapping[str, Any], target: str) -> RemoteAdapter:
    """Run ``case`` on the engine and on the referee, both ways (the whole case in
    ``ReplayTestActions`` calls, every stream checked; and one ``SubmitAction`` a step, as
    for a referee without that call); all pass, with equal answers."""
    engine = Recorder(EngineAdapter())
    verdict = run_case(case, engine)
    assert verdict.passed, f"the case fails on the engine: {verdict.failures}"
    for batch in (True, False):
        adapter = RemoteAdapter(target, batch=batch, check_streams=1)
        remote = Recorder(adapter)
        verdict = run_case(case, remote)
        assert verdict.passed, f"{case['name']} fails remotely: {verdict.failures}"
        assert remote.log == engine.log, first_difference(engine.log, remote.log)
        assert adapter.discrepancies == []
        assert adapter.batch is batch
        assert adapter._streams is None, "close() left the case's streams open"
        adapter.disconnect()
        assert adapter._channel is None, "disconnect() left the connection open"
    return adapter


# --- generated games ----------------------------------------------------------------------


def random_hand(ruleset_id: str, players: int, seed: int, take_rate: float = 0.15) -> Hand:
    """A hand played to its end by random legal actions (takes at ``take_rate``)."""
    hand = Hand(load_ruleset(ruleset_id), players, seed=f"remote-{seed}")
    rng = random.Random(seed)
    while not hand.is_over:
        seats = hand.seats_to_act()
        turn = hand.to_move
        others = [s for s in seats if s != turn]
        seat = rng.choice(others) if others and rng.random() < take_rate else turn
        if seat not in seats:
            seat = rng.choice(seats)
        assert seat is not None
        hand.apply(seat, rng.choice(list(hand.legal_actions(seat))))
    return hand


def generated_case(
    ruleset_id: str, players: int, wanted: set[str], accept: Callable[[Hand], bool]
) -> dict[str, Any]:
    """The first random hand (by seed) whose events include every kind in ``wanted`` and
    that ``accept`` likes, exported with every state."""
    for seed in range(400):
        hand = random_hand(ruleset_id, players, seed)
        if wanted <= {event.kind for event in hand.events or ()} and accept(hand):
            return export_hand(
                hand, name=f"{ruleset_id}, {players} players, seed {seed}", full_state=True
            )
    raise AssertionError(f"no random {ruleset_id} hand with {sorted(wanted)}")


def _any(hand: Hand) -> bool:
    return True


def _drew_twice(hand: Hand) -> bool:
    return len(hand.draws_made) >= 2


def _team_lost(hand: Hand) -> bool:
    return hand.outcome is not None and hand.outcome.losing_team is not None


def _short_and_from_waste(hand: Hand) -> bool:
    return len(hand.history) <= 150 and any(
        isinstance(e, PickedUp) and e.from_waste > 0 for e in hand.events or ()
    )


GENERATED = [
    ("bhabho", 4, {"waste_drawn", "hand_taken", "trick_to_waste"}, _drew_twice),
    ("pickup", 4, {"picked_up", "trick_to_waste"}, _any),
    ("donkey", 4, {"trump_fixed", "waste_drawn"}, _any),
    ("team", 4, {"picked_up"}, _team_lost),
    ("whole-pile", 3, {"picked_up"}, _short_and_from_waste),
    ("two-packs", 6, {"hand_taken"}, _any),
    ("discard", 5, {"trick_to_waste"}, _any),
]


@pytest.mark.parametrize(
    ("ruleset_id", "players", "wanted", "accept"),
    GENERATED,
    ids=[g[0] for g in GENERATED],
)
def test_generated_games_replay_remotely_as_on_the_engine(
    referee: BackgroundReferee,
    ruleset_id: str,
    players: int,
    wanted: set[str],
    accept: Callable[[Hand], bool],
) -> None:
    case = generated_case(ruleset_id, players, wanted, accept)
    # Through JSON, as a case file would come: nothing may depend on Python objects.
    replay_both(json.loads(json.dumps(case)), referee.target)


# --- hand-made cases ----------------------------------------------------------------------


def hand_made(
    name: str, ruleset: dict[str, Any], deal: list[str], steps: list[Any]
) -> dict[str, Any]:
    return {
        "format": "bhabhi-case/1",
        "name": name,
        "generated": False,
        "clauses": [],
        "ruleset": ruleset,
        "players": len(deal),
        "dealer": 0,
        "deal": deal,
        "steps": steps,
    }


PICKUP_REFUSALS = hand_made(
    "pickup: refusals around a first trick",
    {"id": "pickup"},
    ["AS 2S 3H", "6D 7C 8C", "KS 4H 5D"],  # play goes 0, 2, 1 (counterclockwise)
    [
        {"seat": 1, "action": "6D", "refused": "not_your_turn"},
        {"seat": 0, "action": "2S", "refused": "must_lead_card"},
        {"seat": 0, "action": "KS", "refused": "card_not_in_hand"},
        {"seat": 0, "action": "AS/2", "refused": "card_not_in_deck"},
        {"seat": 0, "action": "pickup", "refused": "pickup_not_allowed"},
        {"seat": 0, "action": "take", "refused": "take_hand_not_allowed"},
        {
            "seat": 0,
            "action": "AS",
            "events": [{"kind": "card_played", "seat": 0, "card": "AS", "role": "lead"}],
            "state": {"turn": 2, "to_act": [2], "legal": {"0": [], "1": [], "2": ["KS"]}},
        },
        {"seat": 2, "action": "4H", "refused": "must_follow_suit"},
        {"seat": 2, "action": "pickup", "refused": "pickup_not_allowed"},
        {"seat": 2, "action": "ks", "events": [{"kind": "card_played", "role": "follow"}]},
        {"seat": 1, "action": "6D", "refused": "must_pick_up"},
        {
            "seat": 1,
            "action": "pickup",
            "events": [
                {"kind": "picked_up", "seat": 1, "cards": ["KS", "AS"], "from_waste": 0},
                {"kind": "trick_ended", "how": "pickup", "high_seat": 0, "next_leader": 1},
            ],
            "state": {
                "hand_sizes": [2, 5, 2],
                "turn": 1,
                "hands": {"1": ["7C", "8C", "6D", "KS", "AS"]},
            },
        },
        {"seat": 1, "action": "take", "refused": "take_hand_not_allowed"},
        {"seat": 1, "action": "7C"},
    ],
)

PICKUP_PLAYER_OUT = hand_made(
    "pickup: a seat that went out is refused, the last one left is the Bhabhi",
    {"id": "pickup"},
    ["AS 3D", "QS", "KS 2H 4D"],
    [
        {"seat": 0, "action": "AS"},
        {"seat": 2, "action": "KS"},
        {
            "seat": 1,
            "action": "QS",
            "events": [
                {"kind": "card_played", "seat": 1, "card": "QS"},
                {"kind": "trick_ended", "how": "complete", "high_seat": 0, "next_leader": 0},
                {"kind": "player_out", "seat": 1, "how": "emptied"},
                {"kind": "trick_to_waste", "cards": ["AS", "KS", "QS"]},
            ],
            "state": {"out": [1], "waste_size": 3},
        },
        {"seat": 1, "action": "QS", "refused": "player_out"},
        {"seat": 0, "action": "3D"},
        {"seat": 2, "action": "4D"},
    ],
)
PICKUP_PLAYER_OUT["result"] = {"termination": "last_player", "bhabhi": 2, "out_order": [1, 0]}

BHABHO_TAKES = hand_made(
    "bhabho: taking hands before a trick, and not during one",
    {"id": "bhabho", "hash": load_ruleset("bhabho").hash},
    ["AS 2H", "KS 3H 4H", "QS 5D"],  # play goes 0, 1, 2 (clockwise)
    [
        {
            "seat": 1,
            "action": "take",
            "events": [
                {"kind": "hand_taken", "taker": 1, "seat": 2, "count": 2, "cards": ["QS", "5D"]},
                {"kind": "player_out", "seat": 2, "how": "hand_taken"},
            ],
            "state": {"to_act": [0, 1], "legal": {"0": ["AS", "take"], "1": ["take"], "2": []}},
        },
        {"seat": 0, "action": "AS"},
        {"seat": 1, "action": "take", "refused": "take_hand_not_allowed"},
        {"seat": 1, "action": "KS"},
        {"seat": 2, "action": "QS", "refused": "player_out"},
        {
            "seat": 0,
            "action": "take",
            "events": [
                {"kind": "hand_taken", "taker": 0, "seat": 1, "count": 4},
                {"kind": "player_out", "seat": 1, "how": "hand_taken"},
                {"kind": "hand_over", "outcome": {"termination": "last_player", "bhabhi": 0}},
            ],
        },
    ],
)
BHABHO_TAKES["result"] = {"bhabhi": 0, "out_order": [2, 1], "losing_team": None}

PENALTY_RULES = {
    "id": "pickup-penalty-remote",
    "extends": "pickup",
    "illegal_play": "pickup_penalty",
}
PICKUP_PENALTY = hand_made(
    "an inline ruleset: C12 as a pickup penalty",
    {
        "id": "pickup-penalty-remote",
        "hash": load_ruleset_text(yaml.safe_dump(PENALTY_RULES), "inline").hash,
        "inline": PENALTY_RULES,
    },
    ["AS 2S 3H", "6D 7C 8C", "KS 4H 5D"],
    [
        {"seat": 0, "action": "AS"},
        {
            "seat": 2,
            "action": "4H",
            "events": [
                {"kind": "illegal_play_penalised", "seat": 2, "card": "4H"},
                {"kind": "picked_up", "seat": 2, "cards": ["AS"], "penalty": True},
                {"kind": "trick_ended", "how": "pickup", "next_leader": 2},
            ],
            "state": {"hands": {"2": ["5D", "4H", "KS", "AS"]}},
        },
        {"seat": 2, "action": "3H", "refused": "card_not_in_hand"},
        {"seat": 2, "action": "AS"},
    ],
)

HAND_MADE = [PICKUP_REFUSALS, PICKUP_PLAYER_OUT, BHABHO_TAKES, PICKUP_PENALTY]


@pytest.mark.parametrize("case", HAND_MADE, ids=[c["name"].split(":")[0] for c in HAND_MADE])
def test_hand_made_cases_replay_remotely_as_on_the_engine(
    referee: BackgroundReferee, case: dict[str, Any]
) -> None:
    replay_both(case, referee.target)


def test_a_registered_inline_ruleset_is_reused(referee: BackgroundReferee) -> None:
    replay_both(PICKUP_PENALTY, referee.target)
    replay_both(PICKUP_PENALTY, referee.target)


def test_one_adapter_runs_case_after_case_on_one_connection(
    referee: BackgroundReferee,
) -> None:
    with RemoteAdapter(referee.target) as adapter:
        channels = []
        for case in (PICKUP_PLAYER_OUT, BHABHO_TAKES, PICKUP_PLAYER_OUT):
            verdict = run_case(case, adapter)
            assert verdict.passed, verdict.failures
            channels.append(adapter._channel)
        assert adapter.discrepancies == []
        assert not [t for t in threading.enumerate() if t.name.startswith("watch seat")]
        assert channels[0] is not None and channels == [channels[0]] * 3
    assert adapter._channel is None


def test_jobs_replay_on_several_connections_with_the_same_results(
    referee: BackgroundReferee, tmp_path: Path
) -> None:
    cases = [PICKUP_PLAYER_OUT, BHABHO_TAKES, PICKUP_PENALTY]
    for number, case in enumerate(cases):
        (tmp_path / f"{number}.yaml").write_text(yaml.safe_dump(case), encoding="utf-8")
    broken = {**BHABHO_TAKES, "name": "broken", "deal": ["AS", "QS", "KX"]}
    (tmp_path / "3.yaml").write_text(yaml.safe_dump(broken), encoding="utf-8")
    serial = run_suite([tmp_path], target=referee.target)
    parallel = run_suite([tmp_path], jobs=2, target=referee.target)
    verdicts = [(r.name, r.status, [f.what for f in r.failures]) for r in serial.results]
    assert [(r.name, r.status, [f.what for f in r.failures]) for r in parallel.results] == verdicts
    assert [status for _, status, _ in verdicts] == ["pass", "pass", "pass", "error"]


def test_acting_after_the_hand_is_refused_with_hand_over(referee: BackgroundReferee) -> None:
    # The adapter is driven as the runner drives it: with the steps of the case it started.
    played = [step for step in PICKUP_PLAYER_OUT["steps"] if "refused" not in step]
    case = {**PICKUP_PLAYER_OUT, "steps": [*played, {"seat": 2, "action": "2H"}]}
    reasons = []
    for adapter in (
        EngineAdapter(),
        RemoteAdapter(referee.target),
        RemoteAdapter(referee.target, batch=False),
    ):
        adapter.start(case)
        for step in played:
            adapter.act(step["seat"], step["action"])
        with pytest.raises(Refused) as refused:
            adapter.act(2, "2H")
        reasons.append(refused.value.reason)
        adapter.close()
    assert reasons == ["hand_over", "hand_over", "hand_over"]


# --- cases the referee cannot host --------------------------------------------------------


def test_a_referee_without_test_mode_is_named_as_the_problem(
    plain_referee: BackgroundReferee,
) -> None:
    adapter = RemoteAdapter(plain_referee.target)
    with pytest.raises(CaseError, match="--test-mode"):
        adapter.start(PICKUP_PLAYER_OUT)
    verdict = run_case(PICKUP_PLAYER_OUT, adapter)
    assert [f.what for f in verdict.failures if "--test-mode" in f.what], verdict.failures
    assert adapter._channel is None, "a failed start must close what it opened"


def test_an_inline_ruleset_needs_a_referee_that_registers(
    plain_referee: BackgroundReferee,
) -> None:
    with pytest.raises(CaseError, match="--allow-register"):
        RemoteAdapter(plain_referee.target).start(PICKUP_PENALTY)


def test_a_ruleset_pinned_to_another_hash_is_refused(referee: BackgroundReferee) -> None:
    case = copy.deepcopy(PICKUP_PLAYER_OUT)
    case["ruleset"]["hash"] = "sha256:" + "0" * 64
    with pytest.raises(CaseError, match="the rules differ"):
        RemoteAdapter(referee.target).start(case)
    case["ruleset"] = {"id": "no-such-rules"}
    with pytest.raises(CaseError, match="does not host"):
        RemoteAdapter(referee.target).start(case)


def test_a_deal_the_rules_forbid_is_the_cases_fault(referee: BackgroundReferee) -> None:
    case = copy.deepcopy(PICKUP_PLAYER_OUT)
    case["deal"] = ["AS AS", "QS", "KS"]
    with pytest.raises(CaseError, match="cannot start the hand"):
        RemoteAdapter(referee.target).start(case)
    case["deal"] = ["AS", "QS", "KX"]
    with pytest.raises(CaseError, match="deal"):
        RemoteAdapter(referee.target).start(case)


# --- what the engine-shaped answers cannot show -------------------------------------------


def test_merging_takes_the_full_version_and_notes_leaks_and_disagreements() -> None:
    adapter = RemoteAdapter("127.0.0.1:1")
    streams = _Streams(3, adapter._note)
    adapter._streams = streams

    def drawn(seq: int, card: str, seat: int = 1) -> pb.Event:
        return pb.Event(seq=seq, waste_drawn=pb.WasteDrawn(seat=seat, card=card))

    streams.versions[1] = {0: drawn(1, ""), 1: drawn(1, "KC"), 2: drawn(1, "")}
    assert adapter._engine_events(1, 1) == [{"kind": "waste_drawn", "seat": 1, "card": "KC"}]
    assert adapter.discrepancies == []

    streams.versions[2] = {0: drawn(2, "KC"), 1: drawn(2, "KC"), 2: drawn(2, "", seat=2)}
    adapter._engine_events(2, 2)
    assert any("seat 0 was shown the secret" in d for d in adapter.discrepancies)
    assert any("seat 2 was told" in d for d in adapter.discrepancies)


def test_a_stream_that_differs_from_the_batch_is_noted() -> None:
    """Read at a case's end, a seat's stream must carry every seq up to the case's last, each
    as the batch answered it for that seat."""
    adapter = RemoteAdapter("127.0.0.1:1")
    adapter.last_seq = 4

    def played(seq: int, card: str) -> pb.Event:
        return pb.Event(seq=seq, card_played=pb.CardPlayed(seat=0, card=card))

    adapter._versions = {seq: {0: played(seq, card)} for seq, card in enumerate("ABCD", 1)}
    items = [pb.WatchTableResponse(event=played(seq, c)) for seq, c in ((1, "A"), (2, "X"))]
    items.append(pb.WatchTableResponse(event=played(4, "D")))
    adapter._check_stream(0, iter(items))
    assert len(adapter.discrepancies) == 2, adapter.discrepancies
    assert "the batch told seat 0" in adapter.discrepancies[0]
    assert "went from seq 2 to 4" in adapter.discrepancies[1]
    adapter.discrepancies.clear()
    adapter._check_stream(0, iter(items[:1]))
    assert adapter.discrepancies and "ended at seq 1, before 4" in adapter.discrepancies[0]


@pytest.mark.parametrize("ruleset_id", ["pickup", "bhabho-two-left", "team"])
def test_session_cases_replay_remotely_as_on_the_engine(
    referee: BackgroundReferee, ruleset_id: str
) -> None:
    """C5 and C14-C16: ten hands dealt from explicit deals, the dealer moving on."""
    path = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "sessions"
    case = yaml.safe_load((path / f"{ruleset_id}.yaml").read_text(encoding="utf-8"))
    replay_both(case, referee.target)
