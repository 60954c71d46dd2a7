"""Protobuf in, typed values out, and back: the one translation between the referee's values
and the messages of ``bhabhi.referee.v1``.

Nothing here decides anything: a table's counts come from its session, an action's kind
from one table (``ACTION_OF_KIND``), an event's message from one table (``_FILL``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bhabhi.referee.v1 import referee_pb2 as pb
from google.protobuf import duration_pb2, timestamp_pb2

from referee.cards import card_str
from referee.engine import types as ev
from referee.engine.hand import SeatView
from referee.engine.types import Outcome
from referee.reasons import Reason
from referee.server import table as tb
from referee.server.errors import Refusal

_TERMINATIONS = {
    "last_player": pb.TERMINATION_LAST_PLAYER,
    "all_out": pb.TERMINATION_ALL_OUT,
    "two_left_pickup": pb.TERMINATION_TWO_LEFT_PICKUP,
    "max_tricks": pb.TERMINATION_MAX_TRICKS,
    "dead_position": pb.TERMINATION_DEAD_POSITION,
    "shootout": pb.TERMINATION_SHOOTOUT,
    "two_left_tochoo": pb.TERMINATION_TWO_LEFT_TOCHOO,
    "false_tochoo": pb.TERMINATION_FALSE_TOCHOO,
}


_KIND_OF_MESSAGE: dict[pb.ActionKind.ValueType, ev.ActionKind] = {
    pb.ACTION_KIND_PLAY: ev.ActionKind.PLAY,
    pb.ACTION_KIND_PICK_UP: ev.ActionKind.PICK_UP,
    pb.ACTION_KIND_TAKE_HAND: ev.ActionKind.TAKE_HAND,
    pb.ACTION_KIND_PASS: ev.ActionKind.PASS,
    pb.ACTION_KIND_CHALLENGE: ev.ActionKind.CHALLENGE,
    pb.ACTION_KIND_AGREE: ev.ActionKind.AGREE,
    pb.ACTION_KIND_REFUSE: ev.ActionKind.REFUSE,
    pb.ACTION_KIND_CHOOSE_TRUMP: ev.ActionKind.CHOOSE_TRUMP,
    pb.ACTION_KIND_DRAW_FROM: ev.ActionKind.DRAW_FROM,
}
"""The one table between the API's action kinds and the engine's."""
_MESSAGE_OF_KIND = {kind: number for number, kind in _KIND_OF_MESSAGE.items()}


def action_of(message: pb.Action) -> ev.Action | Refusal:
    """The action a message names, or the refusal it earns (raised by the referee only
    after the credential is checked, so that a bad request learns nothing about a table it
    may not play at)."""
    kind = _KIND_OF_MESSAGE.get(message.kind)
    if kind is None:
        if message.kind == pb.ACTION_KIND_UNSPECIFIED:
            return Refusal(Reason.BAD_ACTION, detail="action.kind is not set")
        return Refusal(
            Reason.BAD_ACTION, detail=f"action.kind {message.kind} is not a kind of action"
        )
    if kind is ev.ActionKind.PLAY:
        try:
            return tb.parse_play(message.card)
        except Refusal as refusal:
            return refusal
    seat = message.seat if message.HasField("seat") else None
    if kind is ev.ActionKind.CHOOSE_TRUMP:
        suit = message.suit.strip().upper()
        if len(suit) != 1 or suit not in ev.SUIT_LETTERS:
            return Refusal(Reason.BAD_ACTION, detail="action.suit must be C, D, H or S")
        return ev.Action.choose_trump(ev.SUIT_LETTERS.index(suit))
    if kind is ev.ActionKind.DRAW_FROM and seat is None:
        return Refusal(Reason.BAD_ACTION, detail="action.seat names whose hand to draw from")
    if seat is not None and kind not in (ev.ActionKind.TAKE_HAND, ev.ActionKind.DRAW_FROM):
        return Refusal(Reason.BAD_ACTION, detail=f"action.seat has no meaning for {kind}")
    if seat is not None and not 0 <= seat < 64:
        return Refusal(Reason.BAD_ACTION, detail=f"action.seat {seat} is no seat")
    if kind is ev.ActionKind.TAKE_HAND:
        return ev.Action.take(seat)
    if kind is ev.ActionKind.DRAW_FROM:
        assert seat is not None
        return ev.Action.draw_from(seat)
    return ev.Action.of_kind(kind)


def timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


def duration(seconds: float) -> duration_pb2.Duration:
    duration = duration_pb2.Duration()
    duration.FromNanoseconds(int(max(0.0, seconds) * 1e9))
    return duration


def analysis_messages(document: Mapping[str, Any]) -> list[pb.PlayerCountAnalysis]:
    """The main figures of an analysis document (``bhabhi analyze --json``'s, whose keys
    docs/analysis.md fixes), one message a player count, smallest count first."""
    found = []
    for data in sorted(document["player_counts"].values(), key=lambda d: d["players"]):
        ending = data["termination"]
        fairness = data["fairness"]
        found.append(
            pb.PlayerCountAnalysis(
                players=data["players"],
                hands=data["hands"],
                termination=pb.AnalysisTermination(
                    normal=ending["normal"],
                    dead_position=ending["dead_position"],
                    bound=ending["bound"],
                ),
                seats=[
                    pb.SeatAnalysis(
                        offset=seat["offset"],
                        bhabhi_rate=seat["bhabhi_rate"],
                        ci95_low=seat["ci95"][0],
                        ci95_high=seat["ci95"][1],
                    )
                    for seat in data["seats"]
                ],
                balance=fairness["balance"],
                fairness_p_value=fairness["p_value"],
                tricks=_spread(data["length"]["tricks"]),
                actions=_spread(data["length"]["actions"]),
                warnings=[
                    pb.AnalysisWarning(
                        code=warning["code"],
                        message=warning["message"],
                        clauses=warning["clauses"],
                    )
                    for warning in data["warnings"]
                ],
            )
        )
    return found


def _spread(spread: Mapping[str, float]) -> pb.AnalysisSpread:
    return pb.AnalysisSpread(
        median=spread["median"],
        q1=spread["q1"],
        q3=spread["q3"],
        p95=spread["p95"],
        max=spread["max"],
    )


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
        direction=(
            pb.PLAY_DIRECTION_CLOCKWISE
            if rules.direction == "clockwise"
            else pb.PLAY_DIRECTION_COUNTERCLOCKWISE
        ),
    )


BOT_STRATEGIES = {
    "random": pb.BOT_STRATEGY_RANDOM,
    "heuristic": pb.BOT_STRATEGY_HEURISTIC,
    "strong": pb.BOT_STRATEGY_STRONG,
}
"""The referee's bots (``seatbots.STRATEGIES``) as the proto names them."""


def bots_of(bots: Iterable[pb.SeatBot]) -> dict[int, str]:
    """``CreateTableRequest.bots`` as the referee takes them: seat to strategy (an
    unspecified or unknown strategy as "", which the referee refuses), one bot a seat."""
    names = {number: name for name, number in BOT_STRATEGIES.items()}
    found: dict[int, str] = {}
    for bot in bots:
        if bot.seat in found:
            raise Refusal(Reason.BAD_TABLE_SETTINGS, detail=f"seat {bot.seat} is given two bots")
        found[bot.seat] = names.get(bot.strategy, "")
    return found


def table_message(referee: tb.Referee, table: tb.Table) -> pb.Table:
    session = table.session
    counts = [0] * table.seat_count if session is None else session.standings().bhabhi_counts
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
                seat=s,
                player_name=state.player_name,
                taken=state.taken,
                bhabhi_count=counts[s],
                bot=BOT_STRATEGIES.get(table.bots.get(s, ""), pb.BOT_STRATEGY_UNSPECIFIED),
            )
            for s, state in enumerate(table.seats)
        ],
        status=status,
        turn_time=duration(table.turn_time),
        hands=table.hands,
        hands_dealt=len(table.hand_seeds),
        last_seq=table.last_seq,
        test_deal=table.test_deal is not None,
        created_at=timestamp(table.created_at),
        seeded=bool(table.deal_seed),
    )


def action_message(action: ev.Action) -> pb.Action:
    return _fill_action(pb.Action(), action)


def _fill_action(message: pb.Action, action: ev.Action) -> pb.Action:
    """Fill an empty ``message`` (a new one, or one just added to a list) with ``action``."""
    message.kind = _MESSAGE_OF_KIND[action.kind]
    if action.card is not None:
        message.card = str(action)
    if action.seat is not None:
        message.seat = action.seat
    if action.suit is not None:
        message.suit = ev.SUIT_LETTERS[action.suit]
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
    for seat, card in view.last_trick:  # H25: the trick that may be challenged
        message.last_trick.add(seat=seat, card=card_str(card))
    for suits in view.voids:
        message.voids.add(suits=["CDHS"[suit] for suit in suits])
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
        message.time_left.CopyFrom(duration(item.deadline - now))
    if item.acted is not None:
        seat, action = item.acted
        message.acted.seat = seat
        message.acted.action.CopyFrom(action_message(action))
    e = item.event
    _FILL[type(e)](message, e)
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


# Each event fills its part of the message in place (cheaper than building a message and
# copying it in).


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


def _player_joined(message: pb.Event, e: Any) -> None:
    message.player_joined.CopyFrom(pb.PlayerJoined(seat=e.seat, player_name=e.player_name))


def _player_left(message: pb.Event, e: Any) -> None:
    message.player_left.CopyFrom(pb.PlayerLeft(seat=e.seat))


def _hand_dealt(message: pb.Event, e: Any) -> None:
    mine = next((c for c in e.cards if c), ())  # the viewer's own cards, if any
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


def _waste_drawn(message: pb.Event, e: Any) -> None:
    message.waste_drawn.CopyFrom(
        pb.WasteDrawn(seat=e.seat, card="" if e.card is None else card_str(e.card))
    )


def _card_drawn(message: pb.Event, e: Any) -> None:
    message.card_drawn.CopyFrom(
        pb.CardDrawn(
            seat=e.seat, from_seat=e.from_seat, card="" if e.card is None else card_str(e.card)
        )
    )


def _hand_taken(message: pb.Event, e: Any) -> None:
    message.hand_taken.CopyFrom(
        pb.HandTaken(taker=e.taker, seat=e.seat, count=e.count, cards=cards(e.cards or ()))
    )


def _take_requested(message: pb.Event, e: Any) -> None:
    message.take_requested.CopyFrom(pb.TakeRequested(taker=e.taker, seat=e.seat))


def _take_answered(message: pb.Event, e: Any) -> None:
    message.take_answered.CopyFrom(pb.TakeAnswered(seat=e.seat, taker=e.taker, agreed=e.agreed))


def _take_passed(message: pb.Event, e: Any) -> None:
    message.take_passed.CopyFrom(pb.TakePassed(seat=e.seat, trick=e.trick))


def _player_out(message: pb.Event, e: Any) -> None:
    message.player_out.CopyFrom(pb.PlayerOut(seat=e.seat, how=e.how))


def _trump_fixed(message: pb.Event, e: Any) -> None:
    message.trump_fixed.CopyFrom(pb.TrumpFixed(seat=e.seat, suit=e.suit, trick=e.trick))


def _illegal_play_penalised(message: pb.Event, e: Any) -> None:
    message.illegal_play_penalised.CopyFrom(
        pb.IllegalPlayPenalised(seat=e.seat, card=card_str(e.card), offence=e.offence)
    )


def _tochoo_challenged(message: pb.Event, e: Any) -> None:
    message.tochoo_challenged.CopyFrom(
        pb.TochooChallenged(
            challenger=e.challenger,
            trick=e.trick,
            right=e.right,
            offender=-1 if e.offender is None else e.offender,
            penalty=e.penalty,
        )
    )


def _hand_ended(message: pb.Event, e: Any) -> None:
    message.hand_over.CopyFrom(pb.HandOver(result=result_message(e.outcome), seed=e.seed))


def _turn_timed_out(message: pb.Event, e: Any) -> None:
    message.turn_timed_out.CopyFrom(pb.TurnTimedOut(seat=e.seat, action=action_message(e.action)))


def _session_ended(message: pb.Event, e: Any) -> None:
    message.session_over.CopyFrom(
        pb.SessionOver(
            hands_played=e.hands_played,
            bhabhi_counts=list(e.bhabhi_counts),
            losers=list(e.losers),
            chips=list(e.chips),
            pot_left=e.pot_left,
        )
    )


def _table_closed(message: pb.Event, e: Any) -> None:
    message.table_closed.CopyFrom(pb.TableClosed(why=e.why))


_FILL: dict[type[ev.Event], Callable[[pb.Event, Any], None]] = {
    ev.CardPlayed: _card_played,
    ev.TrickEnded: _trick_ended,
    ev.TrickToWaste: _trick_to_waste,
    ev.PickedUp: _picked_up,
    tb.PlayerJoined: _player_joined,
    tb.PlayerLeft: _player_left,
    tb.HandDealt: _hand_dealt,
    ev.WasteDrawn: _waste_drawn,
    ev.HandTaken: _hand_taken,
    ev.CardDrawn: _card_drawn,
    ev.PlayerOut: _player_out,
    ev.TakeRequested: _take_requested,
    ev.TakeAnswered: _take_answered,
    ev.TakePassed: _take_passed,
    ev.TrumpFixed: _trump_fixed,
    ev.IllegalPlayPenalised: _illegal_play_penalised,
    ev.TochooChallenged: _tochoo_challenged,
    tb.HandEnded: _hand_ended,
    tb.TurnTimedOut: _turn_timed_out,
    tb.SessionEnded: _session_ended,
    tb.TableClosed: _table_closed,
}
"""The one table from an event's type to the message it becomes: every event the referee
logs has its line (a test holds that), and nothing else encodes events."""


def cards(held: tuple[int, ...] | list[int]) -> list[str]:
    return [card_str(c) for c in held]


def problem_message(problem: Any) -> pb.RulesetProblem:
    return pb.RulesetProblem(
        file=problem.file,
        line=problem.line,
        column=problem.column,
        path=problem.path or "(root)",
        message=problem.message,
        code=str(problem.code),
        warning=problem.warning,
    )
