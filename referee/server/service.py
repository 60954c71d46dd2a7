"""The gRPC servicers: protobuf in (``messages``), the referee's use case, protobuf out.

Refusals become gRPC statuses in one place (``_refusals``), each with a
``google.rpc.ErrorInfo`` (the stable reason, domain ``referee.bhabhi``, and for illegal
moves the legal actions) and a ``google.rpc.LocalizedMessage`` per language; the status
message itself is in the language the caller asks for with ``accept-language``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any, TypeVar, cast

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi.referee.v1 import referee_pb2_grpc as rpc
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from referee.rulebook import languages as rulebook_languages
from referee.server import table as tb
from referee.server.errors import LANGUAGES, Refusal, Status
from referee.server.messages import (
    action_of,
    analysis_messages,
    bots_of,
    duration,
    event_message,
    problem_message,
    ruleset_summary,
    table_message,
    view_message,
)

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

T = TypeVar("T")

RULEBOOK_FORMATS = {
    pb.RULEBOOK_FORMAT_UNSPECIFIED: "text",
    pb.RULEBOOK_FORMAT_TEXT: "text",
    pb.RULEBOOK_FORMAT_MARKDOWN: "markdown",
    pb.RULEBOOK_FORMAT_HTML: "html",
}
"""The proto's rulebook formats as the rulebook package names them (unset is text)."""
MEDIA_TYPES = {"text": "text/plain", "markdown": "text/markdown", "html": "text/html"}


def status_of(refusal: Refusal, language: str) -> grpc.Status:
    metadata = {"message": refusal.message("en")}
    if refusal.legal_actions is not None:
        metadata["legal_actions"] = ",".join(refusal.legal_actions)
    for key in ("last_seq", "turn", "seat", "limit", "retry_ms", "field", "value", "choices"):
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
            error_details_pb2.RetryInfo(retry_delay=duration(refusal.params["retry_ms"] / 1000))
        )
    status = status_pb2.Status(code=_CODES[refusal.status], message=refusal.message(language))
    for detail in details:
        status.details.add().Pack(detail)
    return cast(grpc.Status, rpc_status.to_status(status))


def _language(
    context: grpc.aio.ServicerContext[Any, Any], spoken: Collection[str] = LANGUAGES
) -> str:
    """The client's language from ``accept-language``: the first of ``spoken`` (the
    refusals' languages unless told) in its order of preference, else English."""
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
                if lang in spoken:
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


# --- servicers ------------------------------------------------------------------------------

Context = grpc.aio.ServicerContext[Any, Any]


class _Servicer:
    """What the three services share: the referee, and the one way a refusal leaves."""

    def __init__(self, referee: tb.Referee, metrics: Metrics) -> None:
        self.referee = referee
        self.metrics = metrics

    def peer(self, context: Context) -> str:
        """Whom the per-address limits count this call against."""
        return _client(context, self.referee.limits.trusted_proxy_hops)

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
    async def GetRulebook(
        self, request: pb.GetRulebookRequest, context: Context
    ) -> pb.GetRulebookResponse:
        # Unset: the caller's accept-language (a browser's own), as the refusals do.
        language = request.language or _language(context, rulebook_languages())
        format = RULEBOOK_FORMATS.get(request.format, str(request.format))
        hosted, text = await self.referee.rulebook(request.ruleset_id, language, format)
        return pb.GetRulebookResponse(
            ruleset=ruleset_summary(hosted),
            language=language,
            format=request.format or pb.RULEBOOK_FORMAT_TEXT,
            media_type=f"{MEDIA_TYPES[format]}; charset=utf-8",
            text=text,
        )

    @_refusals
    async def AnalyzeRuleset(
        self, request: pb.AnalyzeRulesetRequest, context: Context
    ) -> pb.AnalyzeRulesetResponse:
        hosted, document = await self.referee.analyze_ruleset(
            request.ruleset_id,
            list(request.players),
            request.hands,
            request.seed,
            skill=not request.no_skill,
            confirm=not request.no_confirm,
            client=self.peer(context),
        )
        return pb.AnalyzeRulesetResponse(
            ruleset=ruleset_summary(hosted),
            player_counts=analysis_messages(document),
            json=json.dumps(document, sort_keys=True, ensure_ascii=False),
        )

    @_refusals
    async def ValidateRuleset(
        self, request: pb.ValidateRulesetRequest, context: Context
    ) -> pb.ValidateRulesetResponse:
        rules, problems = await self.referee.validate_ruleset(
            request.yaml,
            request.name,
            client=self.peer(context),
        )
        response = pb.ValidateRulesetResponse(
            valid=rules is not None, problems=[problem_message(p) for p in problems]
        )
        if rules is not None:
            response.ruleset.CopyFrom(ruleset_summary(tb.HostedRuleset(rules, "registered", "")))
        return response

    @_refusals
    async def RegisterRuleset(
        self, request: pb.RegisterRulesetRequest, context: Context
    ) -> pb.RegisterRulesetResponse:
        hosted = await self.referee.register_ruleset(request.yaml, client=self.peer(context))
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
            deal_seed=request.deal_seed,
            bots=bots_of(request.bots),
            bot_delay=(
                request.bot_delay.ToNanoseconds() / 1e9 if request.HasField("bot_delay") else None
            ),
            client=self.peer(context),
            token=_token(context),
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
        page = await self.referee.list_tables(
            open_only=request.open_only,
            ruleset_id=request.ruleset_id,
            page_size=request.page_size,
            page_token=request.page_token,
        )
        return pb.ListTablesResponse(
            tables=[table_message(self.referee, t) for t in page.tables],
            next_page_token=page.next_page_token,
        )

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

    async def AwaitSeats(
        self, request: pb.AwaitSeatsRequest, context: Context
    ) -> AsyncIterator[pb.AwaitSeatsResponse]:
        try:
            async for offer in self.referee.await_seats(request.bot_key, client=self.peer(context)):
                if offer is None:
                    yield pb.AwaitSeatsResponse(waiting=pb.Waiting())
                    continue
                yield pb.AwaitSeatsResponse(
                    seat=pb.SeatOffer(
                        table_id=offer.table_id,
                        seat=offer.seat,
                        seat_token=offer.seat_token,
                        ruleset_id=offer.ruleset_id,
                        player_name=offer.player_name,
                    )
                )
        except Refusal as refusal:
            await self.refuse(context, "AwaitSeats", refusal, "")

    @_refusals
    async def HandSeat(self, request: pb.HandSeatRequest, context: Context) -> pb.HandSeatResponse:
        table = await self.referee.hand_seat(request.table_id, _token(context), request.bot_key)
        return pb.HandSeatResponse(table=table_message(self.referee, table))


class PlayService(_Servicer, rpc.PlayServiceServicer):
    @_refusals
    async def SubmitAction(
        self, request: pb.SubmitActionRequest, context: Context
    ) -> pb.SubmitActionResponse:
        events, seat, last = await self.referee.act(
            request.table_id,
            _token(context),
            action_of(request.action),
            request.request_id,
            request.expected_seq,
        )
        now = self.referee.now()
        response = pb.SubmitActionResponse(last_seq=last)
        for e in events:
            event_message(tb.for_seat(e, seat), now, response.events.add())
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
            async for item in self.referee.watch(
                request.table_id,
                _token(context),
                request.after_seq,
                client=self.peer(context),
            ):
                response = pb.WatchTableResponse()
                event_message(item, self.referee.now(), response.event)
                yield response
        except Refusal as refusal:
            await self.refuse(context, "WatchTable", refusal, request.table_id)

    @_refusals
    async def ReplayTestActions(
        self, request: pb.ReplayTestActionsRequest, context: Context
    ) -> pb.ReplayTestActionsResponse:
        replay = await self.referee.replay_test_actions(
            request.table_id,
            _token(context),
            [(step.seat, action_of(step.action)) for step in request.actions],
            request.expected_seq,
            request.after_seq,
        )
        now = self.referee.now()
        seats = range(len(replay.table.seats))
        response = pb.ReplayTestActionsResponse(last_seq=replay.table.last_seq)
        for seat in seats:
            told = response.history.add()
            for e in replay.history:
                event_message(tb.for_seat(e, seat), now, told.events.add())
        _fill_views(response.views, replay.views)
        for step in replay.steps:
            result = response.results.add(last_seq=step.last_seq)
            if step.refusal is not None:
                result.refused = step.refusal.reason
                result.message = step.refusal.message("en")
            else:
                for seat in seats:
                    told = result.events.add()
                    for e in step.events:
                        event_message(tb.for_seat(e, seat), now, told.events.add())
            _fill_views(result.views, step.views)
        return response

    @_refusals
    async def ExportHand(
        self, request: pb.ExportHandRequest, context: Context
    ) -> pb.ExportHandResponse:
        return pb.ExportHandResponse(
            case_yaml=await self.referee.export(request.table_id, request.hand_number)
        )


def _fill_views(into: Any, views: tuple[int, list[Any]]) -> None:
    """Every seat's view into a repeated SeatView field (an empty one between hands)."""
    hand_number, shown = views
    for view in shown:
        message = into.add()
        if view is not None:
            message.CopyFrom(view_message(view, hand_number))
