"""The gRPC servicers: a thin translation between protobuf messages and ``tables.Referee``.

Refusals become gRPC statuses in one place (``_refusals``), each with a
``google.rpc.ErrorInfo`` (the stable reason, domain ``referee.bhabhi``, and for illegal
moves the legal actions) and a ``google.rpc.LocalizedMessage`` per language; the status
message itself is in the language the caller asks for with ``accept-language``.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from google.protobuf import duration_pb2, timestamp_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from referee.cards import card_str
from referee.engine import types as ev
from referee.engine.hand import SeatView
from referee.engine.types import Outcome
from referee.server import tables as tb
from referee.server.errors import LANGUAGES, Refusal, Status

if TYPE_CHECKING:
    from referee.server.observe import Metrics

DOMAIN = "referee.bhabhi"

_CODES = {
    Status.INVALID_ARGUMENT: code_pb2.INVALID_ARGUMENT,
    Status.NOT_FOUND: code_pb2.NOT_FOUND,
    Status.ALREADY_EXISTS: code_pb2.ALREADY_EXISTS,
    Status.FAILED_PRECONDITION: code_pb2.FAILED_PRECONDITION,
    Status.ABORTED: code_pb2.ABORTED,
    Status.UNAUTHENTICATED: code_pb2.UNAUTHENTICATED,
    Status.PERMISSION_DENIED: code_pb2.PERMISSION_DENIED,
    Status.UNAVAILABLE: code_pb2.UNAVAILABLE,
    Status.RESOURCE_EXHAUSTED: code_pb2.RESOURCE_EXHAUSTED,
}

_TERMINATIONS = {
    "last_player": pb.TERMINATION_LAST_PLAYER,
    "all_out": pb.TERMINATION_ALL_OUT,
    "two_left_pickup": pb.TERMINATION_TWO_LEFT_PICKUP,
    "max_tricks": pb.TERMINATION_MAX_TRICKS,
    "dead_position": pb.TERMINATION_DEAD_POSITION,
}
_ACTION_KINDS = {
    pb.ACTION_KIND_PLAY: "play",
    pb.ACTION_KIND_PICK_UP: "pick_up",
    pb.ACTION_KIND_TAKE_HAND: "take_hand",
}

T = TypeVar("T")


def status_of(refusal: Refusal, language: str) -> grpc.Status:
    metadata = {"message": refusal.message("en")}
    if refusal.legal_actions is not None:
        metadata["legal_actions"] = ",".join(refusal.legal_actions)
    for key in ("last_seq", "turn", "seat", "limit", "retry_ms"):
        if key in refusal.params and refusal.params[key] is not None:
            metadata[key] = str(refusal.params[key])
    info = error_details_pb2.ErrorInfo(reason=refusal.reason, domain=DOMAIN, metadata=metadata)
    details: list[Message] = [info]
    details += [
        error_details_pb2.LocalizedMessage(locale=lang, message=refusal.message(lang))
        for lang in LANGUAGES
    ]
    if refusal.params.get("retry_ms") is not None:  # waiting helps: say how long (AIP-194)
        details.append(
            error_details_pb2.RetryInfo(retry_delay=_duration(refusal.params["retry_ms"] / 1000))
        )
    status = status_pb2.Status(code=_CODES[refusal.status], message=refusal.message(language))
    for detail in details:
        status.details.add().Pack(detail)
    return cast(grpc.Status, rpc_status.to_status(status))


def _language(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "accept-language" and isinstance(value, str):
            # "fr, de;q=0.8": the first language we speak, in the client's order of preference
            ranked = []
            for position, part in enumerate(value.split(",")):
                tag, _, params = part.strip().lower().partition(";")
                weight = 1.0
                if params.strip().startswith("q="):
                    try:
                        weight = float(params.strip()[2:])
                    except ValueError:
                        weight = 0.0
                ranked.append((-weight, position, tag[:2]))
            for _, _, lang in sorted(ranked):
                if lang in LANGUAGES:
                    return lang
    return "en"


def _token(context: grpc.aio.ServicerContext[Any, Any]) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, token = value.partition(" ")
            return token.strip() if scheme.lower() == "bearer" else value.strip()
    return None


def _client(context: grpc.aio.ServicerContext[Any, Any], trusted_hops: int) -> str:
    """The caller's address without its port ("ipv4:127.0.0.1"): a spectator's identity
    for the stream limit, since it has no credential.  Behind ``trusted_hops`` proxies,
    the address the outermost of them saw, from ``x-forwarded-for``."""
    if trusted_hops:
        seen = [
            address.strip()
            for key, value in context.invocation_metadata() or ()
            if key == "x-forwarded-for" and isinstance(value, str)
            for address in value.split(",")
            if address.strip()
        ]
        if len(seen) >= trusted_hops:
            return f"forwarded:{seen[-trusted_hops]}"
    peer = context.peer() or ""
    return peer.rsplit(":", 1)[0] if peer.count(":") > 1 else peer


async def refuse(context: grpc.aio.ServicerContext[Any, Any], refusal: Refusal) -> None:
    """End the call with the refusal's status, in the caller's language (raises)."""
    await context.abort_with_status(status_of(refusal, _language(context)))


def _refusals(
    method: Callable[..., Awaitable[T]],
) -> Callable[..., Awaitable[T]]:
    name = method.__name__

    @functools.wraps(method)
    async def wrapper(
        self: _Servicer, request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> T:
        try:
            return await method(self, request, context)
        except Refusal as refusal:
            await self.refuse(context, name, refusal, getattr(request, "table_id", ""))
            raise  # pragma: no cover - refuse raises

    return wrapper


# --- translation ----------------------------------------------------------------------------


def _timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


def _duration(seconds: float) -> duration_pb2.Duration:
    duration = duration_pb2.Duration()
    duration.FromNanoseconds(int(max(0.0, seconds) * 1e9))
    return duration


def ruleset_summary(hosted: tb.HostedRuleset) -> pb.RulesetSummary:
    rules = hosted.rules
    return pb.RulesetSummary(
        id=rules.id,
        hash=rules.hash,
        title={"en": rules.title.en, "de": rules.title.de, "pl": rules.title.pl},
        description={
            "en": rules.description.en,
            "de": rules.description.de,
            "pl": rules.description.pl,
        },
        clauses=list(rules.clauses),
        min_players=rules.players.min,
        max_players=rules.players.max,
        teams=rules.players.teams.value != "none",
        origin=(
            pb.RULESET_ORIGIN_BUNDLED
            if hosted.origin == "bundled"
            else pb.RULESET_ORIGIN_REGISTERED
        ),
    )


def table_message(referee: tb.Referee, table: tb.Table) -> pb.Table:
    counts = [0] * table.seat_count
    if table.session is not None:
        counts = list(table.session.bhabhi_counts)
        for hand in table.finished_hands[table.session.hands_played :]:
            if hand.outcome is not None and hand.outcome.bhabhi is not None:
                counts[hand.outcome.bhabhi] += 1
    status = {
        tb.OPEN: pb.TABLE_STATUS_OPEN,
        tb.PLAYING: pb.TABLE_STATUS_PLAYING,
        tb.FINISHED: pb.TABLE_STATUS_FINISHED,
    }[table.status]
    return pb.Table(
        table_id=table.table_id,
        ruleset=ruleset_summary(referee.rulesets.get(table.rules.id)),
        seat_count=table.seat_count,
        seats=[
            pb.Seat(
                seat=s, player_name=state.player_name, taken=state.taken, bhabhi_count=counts[s]
            )
            for s, state in enumerate(table.seats)
        ],
        status=status,
        turn_time=_duration(table.turn_time),
        hands=table.hands,
        hands_dealt=len(table.hand_seeds),
        last_seq=table.last_seq,
        test_deal=table.test_deal is not None,
        created_at=_timestamp(table.created_at),
    )


def action_message(action: ev.Action) -> pb.Action:
    return _fill_action(pb.Action(), action)


def _fill_action(message: pb.Action, action: ev.Action) -> pb.Action:
    """Fill an empty ``message`` (a new one, or one just added to a list) with ``action``."""
    if action.kind is ev.ActionKind.PLAY:
        message.kind = pb.ACTION_KIND_PLAY
        message.card = str(action)
    elif action.kind is ev.ActionKind.PICK_UP:
        message.kind = pb.ACTION_KIND_PICK_UP
    else:
        message.kind = pb.ACTION_KIND_TAKE_HAND
    return message


def result_message(outcome: Outcome) -> pb.HandResult:
    result = pb.HandResult(
        termination=_TERMINATIONS[outcome.termination.value],
        losing_team=list(outcome.losing_team or ()),
        out_order=list(outcome.out_order),
    )
    if outcome.bhabhi is not None:
        result.bhabhi = outcome.bhabhi
    return result


def view_message(view: SeatView, hand_number: int) -> pb.SeatView:
    message = pb.SeatView(
        seat=-1 if view.seat is None else view.seat,
        players=view.players,
        dealer=view.dealer,
        hand=[card_str(c) for c in view.hand],
        hand_sizes=list(view.hand_sizes),
        out=list(view.out),
        out_order=list(view.out_order),
        trick_number=view.trick_number,
        led_suit="" if view.led_suit is None else "CDHS"[view.led_suit],
        trump="" if view.trump is None else "CDHS"[view.trump],
        waste_size=view.waste_size,
        leader=-1 if view.leader is None else view.leader,
        turn=-1 if view.turn is None else view.turn,
        to_act=list(view.to_act),
        hand_number=hand_number,
    )
    # Repeated messages are added in place: a message built apart is copied when it goes
    # into the list (serialised and parsed again), which cost a third of a view's message.
    for known in view.known_cards:
        message.known_cards.add(cards=[card_str(c) for c in known])
    for seat, card in view.trick:
        message.trick.add(seat=seat, card=card_str(card))
    for action in view.legal_actions:
        _fill_action(message.legal_actions.add(), action)
    if view.outcome is not None:
        message.result.CopyFrom(result_message(view.outcome))
    return message


def event_message(item: tb.TableEvent, now: float, into: pb.Event | None = None) -> pb.Event:
    """The protobuf of one logged event as one seat (or a spectator) sees it.

    The same ``TableEvent`` goes to the acting seat's answer and to every watcher of the
    table, so a message without a clock (``time_left`` depends on ``now``) is built once and
    kept for the next caller: callers copy it into their answer and never change it.

    ``into``: an empty event inside the caller's answer (``answer.events.add()``), filled
    in place and returned, rather than a message built apart and copied into the answer
    (a copy is serialised and parsed again, a third of the cost of building it); the answer
    itself is never changed after it is sent, so its event can be kept for the others."""
    if item.deadline is None:
        kept = _KEPT.get(id(item))
        if kept is not None and kept[0] is item:  # the reference kept pins the id
            if into is None:
                return kept[1]
            into.CopyFrom(kept[1])
            return into
    message = pb.Event() if into is None else into
    message.seq = item.seq
    message.hand_number = item.hand_number
    message.to_act.extend(item.to_act)
    _set_time(message.time, item.at)
    if item.deadline is not None:
        _set_time(message.turn_deadline, item.deadline)
        message.time_left.CopyFrom(_duration(item.deadline - now))
    e = item.event
    fill = _FILL.get(type(e))
    if fill is not None:
        fill(message, e)
    else:
        _fill_other(message, e)
    if item.deadline is None:
        if len(_KEPT) >= _KEEP:
            _KEPT.popitem(last=False)  # the oldest
        _KEPT[id(item)] = (item, message)
    return message


_KEEP = 4096
"""Event messages kept for the table's other readers: a few moves of every busy table."""
_KEPT: OrderedDict[int, tuple[tb.TableEvent, pb.Event]] = OrderedDict()
"""An OrderedDict, not a dict: a dict's oldest key, once many were deleted before it, is
found only by stepping over every deleted slot (about 20,000 instructions an event when
the cache is full, more than building the message); ``popitem(last=False)`` is O(1)."""


def _set_time(stamp: timestamp_pb2.Timestamp, seconds: float) -> None:
    """``stamp.FromNanoseconds(int(seconds * 1e9))``, without the Python call chain."""
    stamp.seconds, stamp.nanos = divmod(int(seconds * 1e9), 1_000_000_000)


# The commonest events, filled in place (cheaper than building a message and copying it).


def _card_played(message: pb.Event, e: Any) -> None:
    played = message.card_played
    played.seat = e.seat
    played.card = card_str(e.card)
    played.trick = e.trick
    played.role = e.role


def _trick_ended(message: pb.Event, e: Any) -> None:
    ended = message.trick_ended
    ended.SetInParent()  # trick 0 of seat 0 would otherwise leave every field unset
    ended.trick = e.trick
    ended.how = e.how
    ended.high_seat = -1 if e.high_seat is None else e.high_seat
    ended.next_leader = -1 if e.next_leader is None else e.next_leader


def _trick_to_waste(message: pb.Event, e: Any) -> None:
    waste = message.trick_to_waste
    waste.SetInParent()
    waste.trick = e.trick
    waste.cards.extend([card_str(c) for c in e.cards])


def _picked_up(message: pb.Event, e: Any) -> None:
    picked = message.picked_up
    picked.SetInParent()
    picked.seat = e.seat
    picked.cards.extend([card_str(c) for c in e.cards])
    picked.from_waste = e.from_waste
    picked.penalty = e.penalty


_FILL: dict[type, Callable[[pb.Event, Any], None]] = {
    ev.CardPlayed: _card_played,
    ev.TrickEnded: _trick_ended,
    ev.TrickToWaste: _trick_to_waste,
    ev.PickedUp: _picked_up,
}


def _fill_other(message: pb.Event, e: ev.Event) -> None:
    if isinstance(e, tb.PlayerJoined):
        message.player_joined.CopyFrom(pb.PlayerJoined(seat=e.seat, player_name=e.player_name))
    elif isinstance(e, tb.PlayerLeft):
        message.player_left.CopyFrom(pb.PlayerLeft(seat=e.seat))
    elif isinstance(e, tb.HandDealt):
        mine = next((c for c in e.cards if c), ())
        message.hand_started.CopyFrom(
            pb.HandStarted(
                dealer=e.dealer,
                hand_sizes=list(e.hand_sizes),
                leader=e.leader,
                your_cards=cards(mine),
                seed_commitment=e.seed_commitment,
                ruleset_hash=e.ruleset_hash,
            )
        )
    elif isinstance(e, ev.CardPlayed):
        _card_played(message, e)
    elif isinstance(e, ev.TrickEnded):
        _trick_ended(message, e)
    elif isinstance(e, ev.TrickToWaste):
        _trick_to_waste(message, e)
    elif isinstance(e, ev.PickedUp):
        _picked_up(message, e)
    elif isinstance(e, ev.WasteDrawn):
        message.waste_drawn.CopyFrom(
            pb.WasteDrawn(seat=e.seat, card="" if e.card is None else card_str(e.card))
        )
    elif isinstance(e, ev.HandTaken):
        message.hand_taken.CopyFrom(
            pb.HandTaken(taker=e.taker, seat=e.seat, count=e.count, cards=cards(e.cards or ()))
        )
    elif isinstance(e, ev.PlayerOut):
        message.player_out.CopyFrom(pb.PlayerOut(seat=e.seat, how=e.how))
    elif isinstance(e, ev.TrumpFixed):
        message.trump_fixed.CopyFrom(pb.TrumpFixed(seat=e.seat, suit=e.suit, trick=e.trick))
    elif isinstance(e, ev.IllegalPlayPenalised):
        message.illegal_play_penalised.CopyFrom(
            pb.IllegalPlayPenalised(seat=e.seat, card=card_str(e.card))
        )
    elif isinstance(e, tb.HandEnded):
        message.hand_over.CopyFrom(pb.HandOver(result=result_message(e.outcome), seed=e.seed))
    elif isinstance(e, ev.HandOver):  # pragma: no cover - the referee logs HandEnded instead
        message.hand_over.CopyFrom(pb.HandOver(result=result_message(e.outcome)))
    elif isinstance(e, tb.TurnTimedOut):
        message.turn_timed_out.CopyFrom(
            pb.TurnTimedOut(seat=e.seat, action=action_message(e.action))
        )
    elif isinstance(e, tb.SessionEnded):
        message.session_over.CopyFrom(
            pb.SessionOver(
                hands_played=e.hands_played,
                bhabhi_counts=list(e.bhabhi_counts),
                losers=list(e.losers),
                chips=list(e.chips),
                pot_left=e.pot_left,
            )
        )


def cards(held: tuple[int, ...] | list[int]) -> list[str]:
    return [card_str(c) for c in held]


def _problem(problem: Any) -> pb.RulesetProblem:
    return pb.RulesetProblem(
        file=problem.file,
        line=problem.line,
        column=problem.column,
        path=problem.path or "(root)",
        message=problem.message,
        code=str(problem.code),
    )


# --- servicers ------------------------------------------------------------------------------

Context = grpc.aio.ServicerContext[Any, Any]


class _Servicer:
    """What the three services share: the referee, and the one way a refusal leaves."""

    def __init__(self, referee: tb.Referee, metrics: Metrics) -> None:
        self.referee = referee
        self.metrics = metrics

    async def refuse(self, context: Context, method: str, refusal: Refusal, table_id: str) -> None:
        """Count the refusal, then end the call with it (raises)."""
        self.metrics.refused(method, refusal.reason, table_id)
        await refuse(context, refusal)


class RulesetService(_Servicer, rpc.RulesetServiceServicer):
    @_refusals
    async def ListRulesets(
        self, request: pb.ListRulesetsRequest, context: Context
    ) -> pb.ListRulesetsResponse:
        return pb.ListRulesetsResponse(
            rulesets=[ruleset_summary(h) for h in self.referee.rulesets.all()]
        )

    @_refusals
    async def GetRuleset(
        self, request: pb.GetRulesetRequest, context: Context
    ) -> pb.GetRulesetResponse:
        hosted = self.referee.rulesets.get(request.id)
        return pb.GetRulesetResponse(ruleset=ruleset_summary(hosted), yaml=hosted.yaml)

    @_refusals
    async def ValidateRuleset(
        self, request: pb.ValidateRulesetRequest, context: Context
    ) -> pb.ValidateRulesetResponse:
        rules, problems = self.referee.rulesets.validate(request.yaml, request.name)
        response = pb.ValidateRulesetResponse(
            valid=rules is not None, problems=[_problem(p) for p in problems]
        )
        if rules is not None:
            response.ruleset.CopyFrom(ruleset_summary(tb.HostedRuleset(rules, "registered", "")))
        return response

    @_refusals
    async def RegisterRuleset(
        self, request: pb.RegisterRulesetRequest, context: Context
    ) -> pb.RegisterRulesetResponse:
        hosted = await self.referee.register_ruleset(request.yaml)
        return pb.RegisterRulesetResponse(ruleset=ruleset_summary(hosted))


class TableService(_Servicer, rpc.TableServiceServicer):
    @_refusals
    async def CreateTable(
        self, request: pb.CreateTableRequest, context: Context
    ) -> pb.CreateTableResponse:
        table = await self.referee.create_table(
            request.ruleset_id,
            request.seat_count,
            turn_time=request.turn_time.ToNanoseconds() / 1e9,
            hands=request.hands,
            test_deal=[list(seat.cards) for seat in request.test_deal] or None,
            test_draws=list(request.test_draws) or None,
            test_dealer=request.test_dealer if request.HasField("test_dealer") else None,
            test_hands=[
                ([list(seat.cards) for seat in hand.deal], list(hand.draws))
                for hand in request.test_hands
            ]
            or None,
        )
        return pb.CreateTableResponse(table=table_message(self.referee, table))

    @_refusals
    async def GetTable(self, request: pb.GetTableRequest, context: Context) -> pb.GetTableResponse:
        table = await self.referee.get_table(request.table_id, fresh=True)
        return pb.GetTableResponse(table=table_message(self.referee, table))

    @_refusals
    async def ListTables(
        self, request: pb.ListTablesRequest, context: Context
    ) -> pb.ListTablesResponse:
        found = await self.referee.list_tables(open_only=request.open_only)
        return pb.ListTablesResponse(tables=[table_message(self.referee, t) for t in found])

    @_refusals
    async def JoinTable(
        self, request: pb.JoinTableRequest, context: Context
    ) -> pb.JoinTableResponse:
        table, seat, token = await self.referee.join(
            request.table_id,
            request.player_name,
            request.seat if request.HasField("seat") else None,
        )
        return pb.JoinTableResponse(
            seat=seat, seat_token=token, table=table_message(self.referee, table)
        )

    @_refusals
    async def LeaveTable(
        self, request: pb.LeaveTableRequest, context: Context
    ) -> pb.LeaveTableResponse:
        table = await self.referee.leave(request.table_id, _token(context))
        return pb.LeaveTableResponse(table=table_message(self.referee, table))

    @_refusals
    async def StartTable(
        self, request: pb.StartTableRequest, context: Context
    ) -> pb.StartTableResponse:
        table = await self.referee.start_table(request.table_id, _token(context))
        return pb.StartTableResponse(table=table_message(self.referee, table))


class PlayService(_Servicer, rpc.PlayServiceServicer):
    @_refusals
    async def SubmitAction(
        self, request: pb.SubmitActionRequest, context: Context
    ) -> pb.SubmitActionResponse:
        # An unset kind is refused by the referee after the credential and the table are
        # checked, so that a bad request learns nothing about a table it may not play at.
        kind = _ACTION_KINDS.get(request.action.kind, "")
        events, seat, last = await self.referee.act(
            request.table_id,
            _token(context),
            (kind, request.action.card),
            request.request_id,
            request.expected_seq,
        )
        now = self.referee.now()
        response = pb.SubmitActionResponse(last_seq=last)
        for e in events:
            event_message(tb._for_seat(e, seat), now, response.events.add())
        return response

    @_refusals
    async def GetView(self, request: pb.GetViewRequest, context: Context) -> pb.GetViewResponse:
        view, seq, table = await self.referee.view(request.table_id, _token(context))
        response = pb.GetViewResponse(seq=seq)
        if view is not None:
            response.view.CopyFrom(view_message(view, len(table.hand_seeds) - 1))
        return response

    async def WatchTable(
        self, request: pb.WatchTableRequest, context: Context
    ) -> AsyncIterator[pb.WatchTableResponse]:
        try:
            async for kind, item in self.referee.watch(
                request.table_id,
                _token(context),
                request.after_seq,
                client=_client(context, self.referee.limits.trusted_proxy_hops),
            ):
                if kind == "snapshot":
                    seq, view, table = item
                    snapshot = pb.Snapshot(seq=seq, table=table_message(self.referee, table))
                    if view is not None:
                        snapshot.view.CopyFrom(view_message(view, len(table.hand_seeds) - 1))
                    yield pb.WatchTableResponse(snapshot=snapshot)
                else:
                    response = pb.WatchTableResponse()
                    event_message(item, self.referee.now(), response.event)
                    yield response
        except Refusal as refusal:
            await self.refuse(context, "WatchTable", refusal, request.table_id)

    @_refusals
    async def ExportHand(
        self, request: pb.ExportHandRequest, context: Context
    ) -> pb.ExportHandResponse:
        return pb.ExportHandResponse(
            case_yaml=await self.referee.export(request.table_id, request.hand_number)
        )
