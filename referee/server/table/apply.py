"""``apply(table, command, at)``: the one way a table's state changes.

Deterministic and without I/O: replaying a table's stored commands through ``apply``
rebuilds it exactly, events, sessions and idempotency records included.  The referee
checks a command before storing it and applies it after, and applying a checked command
cannot fail, so the stored log and the state never disagree.
"""

from __future__ import annotations

from referee.engine import Action, Session
from referee.engine.shuffle import hand_seed, seed_commitment
from referee.engine.types import Event, HandOver, HandStarted
from referee.server.table.commands import (
    Close,
    Command,
    Deal,
    Join,
    Leave,
    Move,
    Resume,
    Start,
    Timeout,
)
from referee.server.table.events import (
    HandDealt,
    HandEnded,
    PlayerJoined,
    PlayerLeft,
    SessionEnded,
    TableClosed,
    TableEvent,
    TurnTimedOut,
)
from referee.server.table.state import FINISHED, PLAYING, Answer, SeatState, Table


def apply(
    table: Table, number: int, command: Command, at: float, *, verified: bool = False
) -> None:
    """Apply stored command ``number`` (made at ``at``, unix seconds) to ``table``.

    ``verified``: a move was checked against this very state a moment ago (under the
    table's lock, before it was stored), so the engine need not check it again."""
    table.commands = number
    if table.status == FINISHED and isinstance(command, Join | Leave | Start):
        return  # stored after a Close by a replica that could not read it: nothing to do
    match command:
        case Join(seat, player_name, token_hash):
            table.seats[seat] = SeatState(player_name, token_hash)
            table.seat_of_token.clear()
            _emit(table, at, PlayerJoined(seat, player_name))
        case Leave(seat):
            table.seats[seat] = SeatState()
            table.seat_of_token.clear()
            _emit(table, at, PlayerLeft(seat))
        case Start(next_seed):
            table.status = PLAYING
            table.session = Session(
                table.rules,
                table.seat_count,
                seed="unused",  # every hand is dealt from its own committed seed
                hands=table.hands or None,
                first_dealer=table.test_dealer,  # C5: the deal moves on from a test dealer too
                record=True,
            )
            if next_seed is not None:
                _deal_next(table, at, next_seed)
        case Deal():
            _deal(table, at, command)
        case Resume(seat):  # H27: the seat's player is back
            table.idle_timeouts = 0
            table.missed.pop(seat, None)
        case Close(why):
            table.status = FINISHED
            _emit(table, at, TableClosed(why))
            table.to_act_key, table.to_act = None, ()
        case Move(seat, action, request_id, next_seed):
            if seat not in table.bots:  # a bot's move: nobody came back to the table
                table.idle_timeouts = 0
            table.missed.pop(seat, None)
            first = table.last_seq + 1
            _move(table, at, seat, command.action, next_seed, verified)
            # After the hand's end is applied: a retry gets SessionEnded too.
            table.answers[(seat, request_id)] = Answer(str(action), first, table.last_seq)
        case Timeout(seat, action, next_seed):
            table.idle_timeouts += 1
            table.missed[seat] = table.missed.get(seat, 0) + 1
            _emit(table, at, TurnTimedOut(seat, action))
            _move(table, at, seat, action, next_seed, verified)


def _move(
    table: Table, at: float, seat: int, action: Action, next_seed: str | None, verified: bool
) -> None:
    hand = table.hand
    assert hand is not None
    for index, event in enumerate(hand.apply(seat, action, verified=verified)):
        _emit(table, at, event, (seat, action) if index == 0 else None)
    if hand.is_over:
        _hand_over(table, at)
        if next_seed is not None:
            _deal_next(table, at, next_seed)


def next_deal(table: Table, seed: str) -> Deal:
    """The next deal: a test table's explicit hands first, then from ``seed``, the fresh
    secret seed the command carries, or at a seeded table from its own deal seed."""
    number = len(table.hand_seeds)
    if number == 0 and table.test_deal is not None:
        return Deal(test=0)
    if 0 < number <= len(table.test_hands):
        return Deal(test=number)
    if table.deal_seed:
        return Deal(seed=seeded_hand_seed(table.deal_seed, number))
    return Deal(seed=seed)


def seeded_hand_seed(deal_seed: str, number: int) -> str:
    """The seed of hand ``number`` of a seeded table: the engine's own derivation of a
    session's hand seeds (``deal_seed:number``), so that the same deal seed deals the same
    hands at every table and in ``bhabhi simulate``, and the text revealed at the hand's
    end hashes to the commitment published at its deal as any referee seed does."""
    return hand_seed(deal_seed, number).decode("utf-8")


def deal_due(table: Table) -> bool:
    """The table is playing and no hand is in progress."""
    session = table.session
    if table.status != PLAYING or session is None or session.is_over:
        return False
    return session.current is None or session.current.is_over


def _deal_next(table: Table, at: float, seed: str) -> None:
    if deal_due(table):
        _deal(table, at, next_deal(table, seed))


def _deal(table: Table, at: float, deal: Deal) -> None:
    session = table.session
    assert session is not None
    # The session chooses each hand's dealer (C5); a test table may choose the first one's.
    if deal.test == 0:
        hand = session.next_hand(
            deal=table.test_deal, draws=table.test_draws, dealer=table.test_dealer
        )
        seed = ""
    elif deal.test is not None:
        cards, draws = table.test_hands[deal.test - 1]
        hand = session.next_hand(deal=cards, draws=draws)
        seed = ""
    else:
        seed = deal.seed
        hand = session.next_hand(seed=seed)
    table.hand_seeds.append(seed)
    events = hand.events or []
    started = events[0] if events else None
    assert isinstance(started, HandStarted)
    dealt = HandDealt(
        started.dealer,
        started.hand_sizes,
        started.leader,
        hand.deal,
        seed_commitment(seed) if seed else "",
        table.rules.hash,
        started.sizes_hidden,
    )
    _emit(table, at, dealt)
    for event in events[1:]:
        _emit(table, at, event)
    if hand.is_over:
        _hand_over(table, at)


def _hand_over(table: Table, at: float) -> None:
    hand = table.hand
    assert hand is not None and hand.outcome is not None
    table.finished_hands.append(hand)
    if table.log and isinstance(table.log[-1].event, HandOver):
        last = table.log.pop()
        ended = HandEnded(hand.outcome, table.hand_seeds[-1])
        table.log.append(last._replace(event=ended, to_act=(), deadline=None))
    session = table.session
    assert session is not None
    if session.is_over:
        result = session.finish()
        table.status = FINISHED
        _emit(
            table,
            at,
            SessionEnded(
                result.hands_played,
                result.bhabhi_counts,
                result.losers,
                result.chips,
                result.pot_left,
            ),
        )


def _emit(table: Table, at: float, event: Event, acted: tuple[int, Action] | None = None) -> None:
    hand = table.hand
    to_act: tuple[int, ...] = ()
    if hand is not None:
        # Events are emitted after the command was applied, so they share the state:
        # compute who may act once per command, not once per event.
        key = (id(hand), len(hand.history), hand.phase)
        if table.to_act_key != key:
            table.to_act_key, table.to_act = key, hand.seats_to_act()
        to_act = table.to_act
    item = TableEvent(table.last_seq + 1, at, len(table.hand_seeds) - 1, event, to_act, None, acted)
    table.log.append(item)
    deadline = table.deadline()  # the clock this event starts, if the table has one
    if deadline is not None:
        table.log[-1] = item._replace(deadline=deadline)
