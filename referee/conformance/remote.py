"""Replaying conformance cases against a running referee, through its public gRPC API only.

``RemoteAdapter`` is the runner's ``Adapter`` for a referee anywhere on the network: it
imports nothing of this project's engine or server (only the generated stubs and the card
notation), so another team's referee is checked exactly as ours is.  The referee must run in
test mode (``--test-mode``), because a case dictates the deal, the B8 draws and the dealer.

Every seat watches the table.  A seat's stream carries every seq but redacts what that seat
may not see (the card another seat drew under B8, the cards of a hand taken under B9), so
the events the runner compares are assembled per seq from the seat entitled to the full
version.  Whatever the referee does that the API forbids but that the engine-shaped output
cannot show (a gap in a stream, seats told different public facts, a hidden card sent to the
wrong seat, an answer that disagrees with the stream) is written to ``discrepancies``.

The API has no way to hand the referee a seed: a case that relies on its ``seed`` for B8
draws instead of listing ``draws`` is drawn from the deal on the referee (docs/shuffle.md),
so it should list them (exported cases always do).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import grpc
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from bhabhi_client.cards import CardSyntaxError as ClientCardSyntaxError
from bhabhi_client.cards import format_action, parse_action
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from referee.cards import CardSyntaxError, card_str, parse_card
from referee.conformance.adapter import CaseError, Refused

Metadata = tuple[tuple[str, str], ...]
T = TypeVar("T")

REFEREE_ONLY = frozenset(
    {"player_joined", "player_left", "hand_started", "session_over", "turn_timed_out"}
)
"""Event kinds that belong to the table, not to the hand: the engine has no such events."""

TERMINATIONS = {
    pb.TERMINATION_LAST_PLAYER: "last_player",
    pb.TERMINATION_ALL_OUT: "all_out",
    pb.TERMINATION_TWO_LEFT_PICKUP: "two_left_pickup",
    pb.TERMINATION_MAX_TRICKS: "max_tricks",
    pb.TERMINATION_DEAD_POSITION: "dead_position",
    pb.TERMINATION_SHOOTOUT: "shootout",
    pb.TERMINATION_TWO_LEFT_TOCHOO: "two_left_tochoo",
    pb.TERMINATION_FALSE_TOCHOO: "false_tochoo",
}


STREAMS_EVERY = 10
"""By default every seat's stream is checked in the first case and one in ten after: each
check streams every event to every seat, which costs the referee about as much as the whole
batched replay (the secrecy of every seat's events is checked in every case all the same,
on the batch's answers)."""


class RemoteError(CaseError):
    """The referee could not be used (unreachable, a stream broke, no rich status).

    A ``CaseError`` so that the runner reports it as the case's failure instead of crashing
    the whole run: one broken case must not hide the verdicts on the others.
    """


# --- translation: protobuf to the engine's shapes -----------------------------------------


def _none_if(value: int, sentinel: int = -1) -> int | None:
    """The proto writes the engine's None as -1 (seats) or "" (suits, cards)."""
    return None if value == sentinel else value


def _suit(text: str) -> str | None:
    return text or None


def action_text(action: pb.Action) -> str:
    """The case notation of an action: a card, ``pickup``, ``take`` ... (the client's)."""
    return format_action(action)


def action_message(text: str) -> pb.Action:
    """A case's action as the API's message; bad notation is the case's fault."""
    try:
        action = parse_action(text)
    except ClientCardSyntaxError as error:
        raise CaseError(str(error)) from error
    if action.kind == pb.ACTION_KIND_PLAY:
        try:
            action.card = card_str(parse_card(action.card))
        except CardSyntaxError as error:
            raise CaseError(f"{text!r} is not an action: {error}") from error
    return action


def outcome_dict(result: pb.HandResult) -> dict[str, Any]:
    """``Outcome.to_dict``: no Bhabhi and no losing team are None, not absent or empty."""
    return {
        "termination": TERMINATIONS.get(result.termination, str(result.termination)),
        "bhabhi": result.bhabhi if result.HasField("bhabhi") else None,
        "losing_team": list(result.losing_team) or None,
        "out_order": list(result.out_order),
    }


def view_dict(view: pb.SeatView) -> dict[str, Any]:
    """``SeatView.to_dict`` of the engine, from the API's SeatView."""
    return {
        "seat": _none_if(view.seat),
        "players": view.players,
        "dealer": view.dealer,
        "hand": list(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "known_cards": [list(k.cards) for k in view.known_cards],
        "out": list(view.out),
        "out_order": list(view.out_order),
        "trick_number": view.trick_number,
        "trick": [[p.seat, p.card] for p in view.trick],
        "led_suit": _suit(view.led_suit),
        "trump": _suit(view.trump),
        "waste_size": view.waste_size,
        "leader": _none_if(view.leader),
        "turn": _none_if(view.turn),
        "to_act": list(view.to_act),
        "legal_actions": [action_text(a) for a in view.legal_actions],
        "outcome": outcome_dict(view.result) if view.HasField("result") else None,
        "last_trick": [[p.seat, p.card] for p in view.last_trick],
    }


def event_dict(event: pb.Event) -> dict[str, Any] | None:
    """``Event.to_dict`` of the engine; None for the table's own events."""
    kind = event.WhichOneof("kind")
    if kind is None or kind in REFEREE_ONLY:
        return None
    if kind == "card_played":
        c = event.card_played
        return {"kind": kind, "seat": c.seat, "card": c.card, "trick": c.trick, "role": c.role}
    if kind == "trick_ended":
        t = event.trick_ended
        return {
            "kind": kind,
            "trick": t.trick,
            "how": t.how,
            "high_seat": _none_if(t.high_seat),
            "next_leader": _none_if(t.next_leader),
        }
    if kind == "trick_to_waste":
        w = event.trick_to_waste
        return {"kind": kind, "trick": w.trick, "cards": list(w.cards)}
    if kind == "picked_up":
        p = event.picked_up
        return {
            "kind": kind,
            "seat": p.seat,
            "cards": list(p.cards),
            "from_waste": p.from_waste,
            "penalty": p.penalty,
        }
    if kind == "waste_drawn":
        d = event.waste_drawn
        return {"kind": kind, "seat": d.seat, "card": d.card or None}
    if kind == "card_drawn":
        drawn = event.card_drawn
        return {
            "kind": kind,
            "seat": drawn.seat,
            "from_seat": drawn.from_seat,
            "card": drawn.card or None,
        }
    if kind == "hand_taken":
        h = event.hand_taken
        return {
            "kind": kind,
            "taker": h.taker,
            "seat": h.seat,
            "count": h.count,
            "cards": list(h.cards) or None,
        }
    if kind == "take_requested":
        r = event.take_requested
        return {"kind": kind, "taker": r.taker, "seat": r.seat}
    if kind == "take_answered":
        a = event.take_answered
        return {"kind": kind, "seat": a.seat, "taker": a.taker, "agreed": a.agreed}
    if kind == "take_passed":
        passed = event.take_passed
        return {"kind": kind, "seat": passed.seat, "trick": passed.trick}
    if kind == "player_out":
        o = event.player_out
        return {"kind": kind, "seat": o.seat, "how": o.how}
    if kind == "trump_fixed":
        f = event.trump_fixed
        return {"kind": kind, "seat": f.seat, "suit": f.suit, "trick": f.trick}
    if kind == "illegal_play_penalised":
        i = event.illegal_play_penalised
        offence = i.offence or "must_follow_suit"
        return {"kind": kind, "seat": i.seat, "card": i.card, "offence": offence}
    if kind == "tochoo_challenged":
        ch = event.tochoo_challenged
        return {
            "kind": kind,
            "challenger": ch.challenger,
            "trick": ch.trick,
            "right": ch.right,
            "offender": _none_if(ch.offender),
            "penalty": ch.penalty,
        }
    if kind == "hand_over":
        return {"kind": kind, "outcome": outcome_dict(event.hand_over.result)}
    raise RemoteError(f"the referee sent an event of unknown kind {kind!r} (seq {event.seq})")


def _hidden_field(event: pb.Event) -> tuple[Message, str] | None:
    """The part of an event only some seats may see, as (sub-message, field)."""
    kind = event.WhichOneof("kind")
    if kind == "waste_drawn":
        return event.waste_drawn, "card"
    if kind == "card_drawn":
        return event.card_drawn, "card"
    if kind == "hand_taken":
        return event.hand_taken, "cards"
    if kind == "hand_started":
        return event.hand_started, "your_cards"
    return None


def _public_part(event: pb.Event) -> pb.Event:
    """What every seat must be told alike: the event without its hidden part and clock."""
    copy = pb.Event()
    copy.CopyFrom(event)
    copy.ClearField("time_left")
    hidden = _hidden_field(copy)
    if hidden is not None:
        hidden[0].ClearField(hidden[1])
    kind = copy.WhichOneof("kind")  # H29: counts each seat may be told differently
    if kind == "hand_started":
        copy.hand_started.ClearField("hand_sizes")
    elif kind == "picked_up":
        copy.picked_up.ClearField("from_waste")
    elif kind == "hand_taken":
        copy.hand_taken.ClearField("count")
    return copy


def _entitled(event: pb.Event) -> set[int] | None:
    """Seats that must see the hidden part; None when the event has none."""
    kind = event.WhichOneof("kind")
    if kind == "waste_drawn":
        return {event.waste_drawn.seat}
    if kind == "card_drawn":
        return {event.card_drawn.seat, event.card_drawn.from_seat}
    if kind == "hand_taken":
        return {event.hand_taken.taker, event.hand_taken.seat}
    return None


def refusal_of(error: grpc.RpcError) -> tuple[str, str] | None:
    """(reason, message) of a refusal, from the ErrorInfo of ``grpc-status-details-bin``;
    None when the status carries none (a transport failure, not a verdict)."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:  # the trailer contradicts the status: not a verdict we can trust
        return None
    if status is None:
        return None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return str(info.reason), str(status.message)
    return None


# --- the seats' event streams -------------------------------------------------------------


class _Streams:
    """One WatchTable stream per seat of one table, each read in its own thread.

    Everything a reader thread touches lives here, not on the adapter, so that a thread
    that outlives ``close`` can only ever write into its own, abandoned, object.
    """

    def __init__(self, players: int, note: Callable[[str], None]) -> None:
        self.note = note
        self.changed = threading.Condition()
        self.reached = [0] * players
        """Per seat, the highest seq its stream delivered."""
        self.versions: dict[int, dict[int, pb.Event]] = {}
        """seq -> seat -> that seat's version of the event."""
        self.errors: dict[int, str] = {}
        self.closing = False
        self.calls: list[Any] = []
        self.threads: list[threading.Thread] = []

    def watch(self, play: rpc.PlayServiceStub, table_id: str, tokens: Sequence[str]) -> None:
        for seat, token in enumerate(tokens):
            call = play.WatchTable(
                pb.WatchTableRequest(table_id=table_id, after_seq=0),
                metadata=_bearer(token),
            )
            self.calls.append(call)
            thread = threading.Thread(
                target=self._read, args=(seat, call), name=f"watch seat {seat}", daemon=True
            )
            self.threads.append(thread)
            thread.start()

    def _read(self, seat: int, call: Any) -> None:
        try:
            for item in call:
                with self.changed:
                    if item.WhichOneof("item") == "snapshot":
                        self.note(f"seat {seat}'s stream began with a snapshot")
                        self.reached[seat] = max(self.reached[seat], item.snapshot.seq)
                    else:
                        event = item.event
                        if event.seq != self.reached[seat] + 1:
                            self.note(
                                f"seat {seat}'s stream went from seq {self.reached[seat]} "
                                f"to {event.seq}"
                            )
                        self.versions.setdefault(event.seq, {})[seat] = event
                        self.reached[seat] = max(self.reached[seat], event.seq)
                    self.changed.notify_all()
            ended = "the stream ended"
        except grpc.RpcError as error:
            ended = _describe(error, refusal_of(error))
        with self.changed:
            if not self.closing:
                self.errors[seat] = ended
            self.changed.notify_all()

    def wait_for(self, seq: int, timeout: float) -> None:
        """Until every seat's stream has reached ``seq``: the answer to an action may come
        before the streams carry it, and merging needs every seat's version."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                behind = [s for s, reached in enumerate(self.reached) if reached < seq]
                if not behind:
                    return
                broken = {s: self.errors[s] for s in behind if s in self.errors}
                if broken:
                    raise RemoteError(
                        f"the event streams of seats {sorted(broken)} stopped before seq {seq}: "
                        + "; ".join(broken.values())
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RemoteError(
                        f"the event streams of seats {behind} did not reach seq {seq} "
                        f"within {timeout} s"
                    )
                self.changed.wait(left)

    def at(self, seq: int) -> dict[int, pb.Event]:
        with self.changed:
            return dict(self.versions.get(seq, {}))

    def close(self, timeout: float) -> None:
        with self.changed:
            self.closing = True
        for call in self.calls:
            call.cancel()
        for thread in self.threads:
            thread.join(timeout)


# --- the adapter --------------------------------------------------------------------------


class RemoteAdapter:
    """A referee at ``target`` (``host:port``), driven through its public API only."""

    def __init__(
        self,
        target: str,
        *,
        timeout: float = 10.0,
        credentials: grpc.ChannelCredentials | None = None,
        batch: bool = True,
        check_streams: int = STREAMS_EVERY,
    ) -> None:
        self.target = target
        self.timeout = timeout
        self.credentials = credentials
        self.batch: bool | None = None if batch else False
        """Replay each case's actions with ``ReplayTestActions`` (None: not yet known whether
        the referee has it; False: one ``SubmitAction`` and every seat's ``GetView`` a step)."""
        self.check_streams = check_streams
        """With ``batch``: in one case of every ``check_streams`` (the first, then every
        N-th; 1: every case; 0: none), also read every seat's stream at the case's end and
        check it against the events the batch answered for that seat.  Without ``batch``
        every step is checked against the streams."""
        self._cases = 0
        self.discrepancies: list[str] = []
        """API violations the engine-shaped answers cannot show, over every case run."""
        self._channel: grpc.Channel | None = None
        self._streams: _Streams | None = None
        self.table_id = ""
        self.players = 0
        self.last_seq = 0
        """The seq of the table's latest event: every action is decided on it."""
        self._hand_number = 0
        self._hand_started_seq = 0
        self._case = ""
        self._deal: list[list[str]] = []
        self._tokens: list[str] = []
        self._outcome: dict[str, Any] | None = None
        self._replayed = False
        """This case is replayed with ``ReplayTestActions``."""
        self._planned: list[tuple[int, str]] = []
        """The case's actions (every hand's) not yet sent to the referee."""
        self._results: list[pb.TestActionResult] = []
        """Answers of the referee to actions sent, not yet asked for by the runner."""
        self._sent: list[tuple[int, str]] = []
        """The actions of those answers."""
        self._versions: dict[int, dict[int, pb.Event]] = {}
        """seq -> seat -> that seat's version of the event, as the batch answered it."""
        self._seat_views: list[pb.SeatView] = []
        """Every seat's view after the latest action the runner asked for."""
        self._hosted: dict[str, pb.RulesetSummary] = {}
        """Rulesets the referee hosts, by id, as asked for by an earlier case of the run."""
        self._inline: dict[str, pb.RulesetSummary] = {}
        """Inline rulesets (as YAML) checked and hosted for an earlier case of the run."""

    # --- plumbing -------------------------------------------------------------------------

    def _connect(self) -> grpc.Channel:
        if self._channel is None:
            channel = (
                grpc.secure_channel(self.target, self.credentials, options=CHANNEL_OPTIONS)
                if self.credentials is not None
                else grpc.insecure_channel(self.target, options=CHANNEL_OPTIONS)
            )
            try:
                grpc.channel_ready_future(channel).result(timeout=self.timeout)
            except grpc.FutureTimeoutError as error:
                channel.close()
                raise RemoteError(
                    f"cannot reach the referee at {self.target} within {self.timeout} s"
                ) from error
            self._channel = channel
        return self._channel

    def _md(self, seat: int | None) -> Metadata | None:
        return None if seat is None else _bearer(self._tokens[seat])

    def _call(
        self,
        method: grpc.UnaryUnaryMultiCallable[Any, T],
        request: Message,
        what: str,
        *,
        seat: int | None = None,
        refusals: Mapping[str, str] | None = None,
    ) -> T:
        """Make a unary call; a refusal named in ``refusals`` becomes a CaseError with that
        text (``{message}`` filled in), any other failure a RemoteError naming the call."""
        try:
            return method(request, metadata=self._md(seat), timeout=self.timeout)
        except grpc.RpcError as error:
            refusal = refusal_of(error)
            if refusal is not None and refusals and refusal[0] in refusals:
                raise CaseError(refusals[refusal[0]].format(message=refusal[1])) from error
            raise RemoteError(f"{what} failed: {_describe(error, refusal)}") from error

    def _note(self, text: str) -> None:
        self.discrepancies.append(f"{self._case}: {text}")

    # --- start ----------------------------------------------------------------------------

    def start(self, case: Mapping[str, Any]) -> None:
        self.close()
        self._cases += 1
        self._case = str(case.get("name", "?"))
        try:
            self._start(case)
        except BaseException:
            self.disconnect()  # the runner closes only after a successful start
            raise

    def _start(self, case: Mapping[str, Any]) -> None:
        channel = self._connect()
        tables = rpc.TableServiceStub(channel)
        ruleset_id = self._host_ruleset(rpc.RulesetServiceStub(channel), case["ruleset"])
        self.players = int(case["players"])
        self._deal = _deal_of(case)
        try:
            draws = [card_str(parse_card(c)) for c in case.get("draws", [])]
        except CardSyntaxError as error:
            raise CaseError(f"draws: {error}") from error
        later = []
        for spec in case.get("next_hands", []):
            try:
                later_draws = [card_str(parse_card(c)) for c in spec.get("draws", [])]
            except CardSyntaxError as error:
                raise CaseError(f"draws: {error}") from error
            later.append(
                pb.TestHand(
                    deal=[pb.SeatCards(cards=cards) for cards in _deal_of(spec)],
                    draws=later_draws,
                )
            )
        request = pb.CreateTableRequest(
            ruleset_id=ruleset_id,
            seat_count=self.players,
            hands=1 + len(later),
            test_deal=[pb.SeatCards(cards=cards) for cards in self._deal],
            test_draws=draws,
            test_dealer=int(case["dealer"]),
            test_hands=later,
        )
        created = self._call(
            tables.CreateTable,
            request,
            "CreateTable",
            refusals={
                "test_mode_required": (
                    f"the referee at {self.target} refuses explicit deals "
                    "(test_mode_required): start the referee with --test-mode"
                ),
                "players_not_allowed": "cannot start the hand: {message}",
                "bad_table_settings": "cannot start the hand: {message}",
                "ruleset_not_found": "the referee does not host the case's ruleset: {message}",
            },
        )
        self.table_id = created.table.table_id
        joins = [  # every seat at once: the round trips overlap
            tables.JoinTable.future(
                pb.JoinTableRequest(
                    table_id=self.table_id, player_name=f"conformance {seat}", seat=seat
                ),
                timeout=self.timeout,
            )
            for seat in range(self.players)
        ]
        for seat, future in enumerate(joins):
            try:
                joined = future.result()
            except grpc.RpcError as error:
                refusal = refusal_of(error)
                raise RemoteError(
                    f"JoinTable (seat {seat}) failed: {_describe(error, refusal)}"
                ) from error
            if joined.seat != seat:
                raise RemoteError(f"asked for seat {seat}, the referee gave seat {joined.seat}")
            self._tokens.append(joined.seat_token)
        started = self._call(
            tables.StartTable, pb.StartTableRequest(table_id=self.table_id), "StartTable", seat=0
        )
        self.last_seq = started.table.last_seq
        if self.batch is not False:
            self._planned = _planned_actions(case)
            self._replayed = self._send_batch(after_seq=0)
        if not self._replayed:
            self._streams = _Streams(self.players, self._note)
            self._streams.watch(rpc.PlayServiceStub(channel), self.table_id, self._tokens)
            self._streams.wait_for(self.last_seq, self.timeout)
        self._check_deal_events()
        self._engine_events(1, self.last_seq)  # a hand can end at the deal

    def _send_batch(self, after_seq: int) -> bool:
        """Send the next planned actions in one ``ReplayTestActions``; False when the
        referee does not have it (then every action is submitted on its own)."""
        assert self._channel is not None
        chunk: list[pb.TestAction] = []
        for seat, text in self._planned[:BATCH]:
            try:
                message = action_message(text)
            except CaseError:
                break  # ``act`` reports it, at its step
            chunk.append(pb.TestAction(seat=seat, action=message))
        request = pb.ReplayTestActionsRequest(
            table_id=self.table_id,
            actions=chunk,
            expected_seq=self.last_seq,
            after_seq=after_seq,
        )
        try:
            response = rpc.PlayServiceStub(self._channel).ReplayTestActions(
                request, metadata=self._md(0), timeout=self.timeout + len(chunk) * 0.05
            )
        except grpc.RpcError as error:
            if isinstance(error, grpc.Call) and error.code() == grpc.StatusCode.UNIMPLEMENTED:
                self.batch = False  # another referee, without the test-mode batch
                return False
            raise RemoteError(
                f"ReplayTestActions failed: {_describe(error, refusal_of(error))}"
            ) from error
        self.batch = True
        self._sent.extend(self._planned[: len(chunk)])
        del self._planned[: len(chunk)]
        if len(response.results) != len(chunk):
            raise RemoteError(
                f"ReplayTestActions answered {len(response.results)} of {len(chunk)} actions"
            )
        if len(response.history) != self.players or len(response.views) != self.players:
            raise RemoteError("ReplayTestActions did not answer for every seat")
        for seat, told in enumerate(response.history):
            self._keep(seat, told.events, after_seq + 1)
        self._seat_views = list(response.views)
        self._results.extend(response.results)
        return True

    def _keep(self, seat: int, events: Sequence[pb.Event], first: int) -> None:
        """A seat's events as the batch answered them, seq after seq from ``first``."""
        for expected, event in enumerate(events, start=first):
            if event.seq != expected:
                self._note(f"seat {seat} was answered seq {event.seq}, not {expected}")
            self._versions.setdefault(event.seq, {})[seat] = event

    def _at(self, seq: int) -> dict[int, pb.Event]:
        """Every seat's version of one event: from the batch's answers, or the streams."""
        if self._replayed:
            return self._versions.get(seq, {})
        assert self._streams is not None
        return self._streams.at(seq)

    def _host_ruleset(self, rulesets: rpc.RulesetServiceStub, spec: Mapping[str, Any]) -> str:
        """The id under which the referee hosts the case's ruleset, its hash checked."""
        if "inline" not in spec:
            hosted = self._hosted.get(str(spec["id"])) or self._ruleset(rulesets, str(spec["id"]))
            if hosted is None:
                raise CaseError(
                    f"the referee at {self.target} does not host ruleset {spec['id']!r}"
                )
            self._hosted[hosted.id] = hosted  # a hosted ruleset never changes
            if "hash" in spec and spec["hash"] != hosted.hash:
                raise CaseError(
                    f"ruleset {hosted.id!r} has hash {hosted.hash} on the referee, but the case "
                    f"was recorded on {spec['hash']}: the rules differ"
                )
            return hosted.id
        text = yaml.safe_dump(dict(spec["inline"]), sort_keys=False)
        known = self._inline.get(text)
        if known is not None and str(spec.get("hash") or known.hash) == known.hash:
            return known.id  # checked and hosted for an earlier case
        checked = self._call(
            rulesets.ValidateRuleset,
            pb.ValidateRulesetRequest(yaml=text, name=f"{self._case} (inline)"),
            "ValidateRuleset",
        )
        if not checked.valid:
            problems = "; ".join(f"{p.path}: {p.message}" for p in list(checked.problems)[:5])
            raise CaseError(f"ruleset: the referee finds the inline ruleset invalid: {problems}")
        wanted = str(spec.get("hash") or checked.ruleset.hash)
        if checked.ruleset.hash != wanted:
            raise CaseError(
                f"ruleset {checked.ruleset.id!r} has hash {checked.ruleset.hash}, but the case "
                f"was recorded on {wanted}: the rules differ"
            )
        hosted = self._ruleset(rulesets, checked.ruleset.id)
        if hosted is None:
            hosted = self._register(rulesets, text, checked.ruleset.id)
        if hosted.hash != wanted:
            raise CaseError(
                f"the referee already hosts another ruleset with id {hosted.id!r} (hash "
                f"{hosted.hash}, the case's is {wanted}): rename the inline ruleset"
            )
        self._inline[text] = hosted
        return hosted.id

    def _ruleset(
        self, rulesets: rpc.RulesetServiceStub, ruleset_id: str
    ) -> pb.RulesetSummary | None:
        try:
            return rulesets.GetRuleset(
                pb.GetRulesetRequest(id=ruleset_id), timeout=self.timeout
            ).ruleset
        except grpc.RpcError as error:
            refusal = refusal_of(error)
            if refusal is not None and refusal[0] == "ruleset_not_found":
                return None
            raise RemoteError(f"GetRuleset failed: {_describe(error, refusal)}") from error

    def _register(
        self, rulesets: rpc.RulesetServiceStub, text: str, ruleset_id: str
    ) -> pb.RulesetSummary:
        try:
            return rulesets.RegisterRuleset(
                pb.RegisterRulesetRequest(yaml=text), timeout=self.timeout
            ).ruleset
        except grpc.RpcError as error:
            refusal = refusal_of(error)
            reason = refusal[0] if refusal else ""
            if reason == "register_not_allowed":
                raise CaseError(
                    f"the case's inline ruleset {ruleset_id!r} is not hosted by the referee at "
                    f"{self.target}, which does not let clients register rulesets: start it "
                    "with --allow-register"
                ) from error
            if reason == "ruleset_exists":  # registered meanwhile by another client
                hosted = self._ruleset(rulesets, ruleset_id)
                if hosted is not None:
                    return hosted
            raise RemoteError(f"RegisterRuleset failed: {_describe(error, refusal)}") from error

    # --- events ---------------------------------------------------------------------------

    def _merged(self, seq: int) -> pb.Event:
        """The most informative version of one event, the full one from a seat entitled to
        it; on the way, checks that every seat was told the same public facts and no
        secret."""
        versions = self._at(seq)
        if not versions:
            raise RemoteError(f"no seat received the event with seq {seq}")
        first = versions[min(versions)]
        public = _public_part(first)
        for seat, version in sorted(versions.items()):
            if _public_part(version) != public:
                self._note(
                    f"seq {seq}: seat {seat} was told {_short(version)}, "
                    f"seat {min(versions)} {_short(first)}"
                )
        entitled = _entitled(first)
        if entitled is None:
            if first.WhichOneof("kind") == "picked_up":  # H29: the picker knows from_waste
                return versions.get(first.picked_up.seat, first)
            return first
        full = first
        for seat, version in sorted(versions.items()):
            hidden = _hidden_field(version)
            assert hidden is not None
            shown = bool(getattr(hidden[0], hidden[1]))
            if seat in entitled and shown:
                full = version
            elif seat in entitled:
                self._note(
                    f"seq {seq}: seat {seat} was not shown the {hidden[1]} of its {_short(version)}"
                )
            elif shown:
                self._note(f"seq {seq}: seat {seat} was shown the secret {_short(version)}")
        return full

    def _engine_events(self, first: int, last: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for seq in range(first, last + 1):
            event = self._merged(seq)
            if event.WhichOneof("kind") == "hand_started" and seq > self._hand_started_seq:
                if out or first > self._hand_started_seq + 1:
                    break  # a session's next hand, dealt with the move that ended this one
                self._hand_started_seq = seq
            if event.WhichOneof("kind") == "turn_timed_out":
                self._note(f"seq {seq}: a turn timed out at a table without a clock")
            mapped = event_dict(event)
            if mapped is None:
                continue
            if mapped["kind"] == "hand_over":
                self._outcome = mapped["outcome"]
            out.append(mapped)
        return out

    def _check_deal_events(self, first: int = 1) -> None:
        """Each seat was dealt the case's cards, and saw no other seat's."""
        for seq in range(first, self.last_seq + 1):
            for seat, event in self._at(seq).items():
                if event.WhichOneof("kind") != "hand_started":
                    continue
                mine = sorted(event.hand_started.your_cards)
                if mine != sorted(self._deal[seat]):
                    self._note(f"seq {seq}: seat {seat} was dealt {mine}, not {self._deal[seat]}")

    # --- the adapter's questions ----------------------------------------------------------

    def act(self, seat: int, action: str) -> list[dict[str, Any]]:
        message = action_message(action)
        if not 0 <= seat < self.players:
            # The table hands out no credential for a seat it does not have, so the API
            # cannot even ask: the engine's refusal is the only answer there is.
            if self._replayed:
                self._next_result(seat, action)  # the referee refused it too
            raise Refused("unknown_seat", f"there is no seat {seat} at a table of {self.players}")
        if self._replayed:
            return self._act_replayed(seat, action)
        streams = self._streams
        assert streams is not None and self._channel is not None, "start() first"
        before = self.last_seq
        try:
            response = rpc.PlayServiceStub(self._channel).SubmitAction(
                pb.SubmitActionRequest(
                    table_id=self.table_id,
                    action=message,
                    request_id=uuid.uuid4().hex,
                    expected_seq=before,
                ),
                metadata=self._md(seat),
                timeout=self.timeout,
            )
        except grpc.RpcError as error:
            refusal = refusal_of(error)
            if refusal is None:
                raise RemoteError(f"SubmitAction failed: {_describe(error, None)}") from error
            raise Refused(*refusal) from error
        last = response.last_seq
        seqs = [e.seq for e in response.events]
        if seqs != list(range(before + 1, last + 1)):
            self._note(f"seat {seat} {action}: answered seqs {seqs}, not {before + 1}..{last}")
        streams.wait_for(last, self.timeout)
        for answered in response.events:
            streamed = streams.at(answered.seq).get(seat)
            if streamed is None or _without_clock(streamed) != _without_clock(answered):
                told = "nothing" if streamed is None else _short(streamed)
                self._note(
                    f"seq {answered.seq}: the answer to seat {seat} says {_short(answered)}, "
                    f"its stream {told}"
                )
        self.last_seq = last
        return self._engine_events(before + 1, last)

    def _next_result(self, seat: int, action: str) -> pb.TestActionResult:
        """The referee's answer to the case's next action, sent with the batch."""
        if not self._results and self._planned:
            self._send_batch(after_seq=self.last_seq)
        if not self._results or self._sent[0] != (seat, action):
            raise RemoteError(
                f"seat {seat} {action}: not the case's next action (the adapter replays the "
                "steps of the case it started, in order)"
            )
        self._sent.pop(0)
        return self._results.pop(0)

    def _act_replayed(self, seat: int, action: str) -> list[dict[str, Any]]:
        result = self._next_result(seat, action)
        if len(result.views) != self.players:
            raise RemoteError("ReplayTestActions did not answer every seat's view")
        self._seat_views = list(result.views)
        if result.refused:
            raise Refused(result.refused, result.message)
        before = self.last_seq
        if len(result.events) != self.players:
            raise RemoteError("ReplayTestActions did not answer every seat's events")
        for told, events in enumerate(result.events):
            self._keep(told, events.events, before + 1)
        last = result.last_seq
        seqs = [e.seq for e in result.events[seat].events]
        if seqs != list(range(before + 1, last + 1)):
            self._note(f"seat {seat} {action}: answered seqs {seqs}, not {before + 1}..{last}")
        self.last_seq = last
        return self._engine_events(before + 1, last)

    def _check_streams(self) -> None:
        """Every seat's stream, up to the case's last event, told what the batch answered
        for that seat: read once the case is over, all of them at once, so that no step
        waits for a stream and no thread reads one."""
        assert self._channel is not None
        play = rpc.PlayServiceStub(self._channel)
        request = pb.WatchTableRequest(table_id=self.table_id, after_seq=0)
        calls = [
            play.WatchTable(request, metadata=self._md(seat), timeout=self.timeout)
            for seat in range(self.players)
        ]
        try:
            for seat, call in enumerate(calls):
                self._check_stream(seat, call)
        finally:
            for call in calls:
                call.cancel()

    def _check_stream(self, seat: int, call: Any) -> None:
        reached = 0
        try:
            for item in call:
                if item.WhichOneof("item") != "event":
                    self._note(f"seat {seat}'s stream sent a snapshot")
                    continue
                event = item.event
                if event.seq != reached + 1:
                    self._note(f"seat {seat}'s stream went from seq {reached} to {event.seq}")
                reached = max(reached, event.seq)
                answered = self._versions.get(event.seq, {}).get(seat)
                if answered is not None and _without_clock(event) != _without_clock(answered):
                    self._note(
                        f"seq {event.seq}: the batch told seat {seat} {_short(answered)}, "
                        f"its stream {_short(event)}"
                    )
                if reached >= self.last_seq:
                    return
        except grpc.RpcError as error:
            raise RemoteError(
                f"the event stream of seat {seat} stopped before seq {self.last_seq}: "
                f"{_describe(error, refusal_of(error))}"
            ) from error
        self._note(f"seat {seat}'s stream ended at seq {reached}, before {self.last_seq}")

    def _catch_up(self) -> int:
        """Wait until every stream has the table's latest event (a deal, SessionOver)."""
        if self._replayed:
            return self.last_seq  # the batch answered every event of every action
        assert self._channel is not None and self._streams is not None, "start() first"
        table = self._call(
            rpc.TableServiceStub(self._channel).GetTable,
            pb.GetTableRequest(table_id=self.table_id),
            "GetTable",
        ).table
        self._streams.wait_for(table.last_seq, self.timeout)
        return int(table.last_seq)

    def next_hand(self, spec: Mapping[str, Any]) -> int:
        """The referee deals the next test hand itself once the previous hand is over (the
        case gives it only the cards); its dealer is the one HandStarted announces."""
        self.last_seq = self._catch_up()
        self._deal = _deal_of(spec)
        self._outcome = None
        self._hand_number += 1
        dealt = [
            seq
            for seq in range(self._hand_started_seq + 1, self.last_seq + 1)
            if self._merged(seq).WhichOneof("kind") == "hand_started"
        ]
        if not dealt:
            raise CaseError("the referee dealt no further hand (is the session over?)")
        self._hand_started_seq = dealt[-1]
        self._check_deal_events(dealt[-1])
        self._engine_events(dealt[-1] + 1, self.last_seq)  # a hand can end at the deal
        return int(self._merged(dealt[-1]).hand_started.dealer)

    def session_result(self) -> dict[str, Any]:
        self.last_seq = self._catch_up()
        for seq in range(self.last_seq, 0, -1):
            event = self._merged(seq)
            if event.WhichOneof("kind") == "session_over":
                over = event.session_over
                return {
                    "over": True,
                    "hands_played": over.hands_played,
                    "bhabhi_counts": list(over.bhabhi_counts),
                    "losers": list(over.losers),
                    "chips": list(over.chips),
                    "pot_left": over.pot_left,
                }
        return {"over": False}

    def _views(self) -> list[pb.SeatView]:
        """Every seat's view, asked for all at once: the calls overlap instead of each
        waiting out the round trip of the one before (most of a replay's time)."""
        if self._replayed:
            views = self._seat_views
            for seat, view in enumerate(views):
                if not view.ByteSize():
                    raise RemoteError(f"the referee has no view for seat {seat}")
            self._check_public(views)
            return views
        assert self._channel is not None, "start() first"
        play = rpc.PlayServiceStub(self._channel)
        request = pb.GetViewRequest(table_id=self.table_id)
        pending = [
            play.GetView.future(request, metadata=self._md(seat), timeout=self.timeout)
            for seat in range(self.players)
        ]
        views = []
        for seat, future in enumerate(pending):
            try:
                response = future.result()
            except grpc.RpcError as error:
                for rest in pending[seat + 1 :]:
                    rest.cancel()
                raise RemoteError(
                    f"GetView (seat {seat}) failed: {_describe(error, refusal_of(error))}"
                ) from error
            moved_on = self._outcome is not None and response.seq > self.last_seq
            if response.seq != self.last_seq and not moved_on:  # (a session deals on)
                self._note(f"seat {seat}'s view is at seq {response.seq}, not {self.last_seq}")
            if not response.HasField("view"):
                raise RemoteError(f"the referee has no view for seat {seat}")
            views.append(response.view)
        self._check_public(views)
        return views

    def _check_public(self, views: Sequence[pb.SeatView]) -> None:
        public = _public_view(views[0])
        for seat, view in enumerate(views[1:], start=1):
            if _public_view(view) != public:
                self._note(f"seat {seat}'s view disagrees with seat 0's on public facts")

    def state(self) -> dict[str, Any]:
        views = self._views()
        first = views[0]
        return {
            "hand_sizes": list(first.hand_sizes),
            "turn": _none_if(first.turn),
            "to_act": list(first.to_act),
            "legal": {
                str(s): [action_text(a) for a in v.legal_actions] for s, v in enumerate(views)
            },
            "hands": {str(s): list(v.hand) for s, v in enumerate(views)},
            "views": {str(s): view_dict(v) for s, v in enumerate(views)},
            "waste_size": first.waste_size,
            "out": [s for s, out in enumerate(first.out) if out],
        }

    def result(self) -> dict[str, Any] | None:
        view = self._views()[0]
        shown = outcome_dict(view.result) if view.HasField("result") else None
        if self._outcome is not None and view.hand_number != self._hand_number:
            return self._outcome  # the next hand of a session case is dealt already
        if self._outcome is not None and shown != self._outcome:
            self._note(f"HandOver said {self._outcome}, the view says {shown}")
        return self._outcome if self._outcome is not None else shown

    def close(self) -> None:
        """Ends the case: its streams are cancelled and their threads joined.  The
        connection stays open for the next case (``disconnect`` closes it): closing a
        gRPC channel and opening another took longer than a short case's replay."""
        try:
            every = self.check_streams
            sampled = every > 0 and (self._cases - 1) % every == 0
            if self._replayed and sampled and self.table_id:
                self._check_streams()
        finally:
            self._end_case()

    def _end_case(self) -> None:
        if self._streams is not None:
            self._streams.close(self.timeout)
            self._streams = None
        self.table_id = ""
        self.players = 0
        self.last_seq = 0
        self._hand_number = 0
        self._hand_started_seq = 0
        self._deal = []
        self._tokens = []
        self._outcome = None
        self._replayed = False
        self._planned = []
        self._results = []
        self._sent = []
        self._versions = {}
        self._seat_views = []

    def disconnect(self) -> None:
        """Ends the case and closes the connection to the referee (the next ``start``
        opens another)."""
        self._end_case()
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def __enter__(self) -> RemoteAdapter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.disconnect()


# --- small helpers ------------------------------------------------------------------------

BATCH = 250
"""Actions sent in one ``ReplayTestActions`` (its answer holds every seat's view after each;
the referee takes at most 1,000)."""

CHANNEL_OPTIONS = [("grpc.max_receive_message_length", 64 * 1024 * 1024)]
"""A batch's answer may pass gRPC's default limit of 4 MiB for a long hand of six seats."""


def _planned_actions(case: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Every action of the case, each hand's in turn (a session deals its next hand itself
    with the action that ends a hand)."""
    hands = [case, *case.get("next_hands", [])]
    return [(int(step["seat"]), str(step["action"])) for hand in hands for step in hand["steps"]]


def _bearer(token: str) -> Metadata:
    return (("authorization", f"Bearer {token}"),)


def _deal_of(case: Mapping[str, Any]) -> list[list[str]]:
    hands = []
    for entry in case["deal"]:
        words: Sequence[str] = entry.split() if isinstance(entry, str) else list(entry)
        try:
            hands.append([card_str(parse_card(w)) for w in words])
        except CardSyntaxError as error:
            raise CaseError(f"deal: {error}") from error
    return hands


def _without_clock(event: pb.Event) -> pb.Event:
    copy = pb.Event()
    copy.CopyFrom(event)
    copy.ClearField("time_left")
    return copy


def _public_view(view: pb.SeatView) -> pb.SeatView:
    copy = pb.SeatView()
    copy.CopyFrom(view)
    for name in ("seat", "hand", "legal_actions"):
        copy.ClearField(name)
    return copy


def _short(event: pb.Event) -> str:
    kind = event.WhichOneof("kind")
    body = getattr(event, kind) if kind else event
    return f"{kind} {{{' '.join(str(body).split())}}}"


def _describe(error: grpc.RpcError, refusal: tuple[str, str] | None) -> str:
    if refusal is not None:
        return f"refused with {refusal[0]!r}: {refusal[1]}"
    code = error.code() if isinstance(error, grpc.Call) else None
    details = error.details() if isinstance(error, grpc.Call) else str(error)
    return f"{code.name if code else 'error'}: {details}"


__all__ = ["RemoteAdapter", "RemoteError", "action_text", "event_dict", "view_dict"]
