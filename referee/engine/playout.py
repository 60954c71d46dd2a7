"""A whole hand of random play in one function over bitmasks: the simulator's fast path.

``Hand`` checks every action, logs events and answers questions about any seat; a simulator
that plays millions of random hands needs none of that, only the rules.  ``random_playout``
reads the same compiled rule components (``RuleBook``) as ``Hand``, deals with the published
shuffle, draws from the waste pile (B8) from the same draw stream, and uses the same dead
position detector, so it plays exactly the game ``Hand`` would: ``tests/test_playout.py``
replays the actions it returns through ``Hand.apply`` (checked) for every bundled ruleset and
compares the result.

``random_playout_from`` plays on the same way from any position of a ``Hand`` (before a
trick or in the middle of one), reading only the hand's state, for a search that samples
the hidden cards (a determinization) and plays each sample out many times; its B8 draws
come from the generator it is given, not from the hand's seed.  Both run the same loop
(``_play``), started from the deal or from the hand's position (``_Start``);
``tests/test_playout_from.py`` replays what it returns through a copy of the hand.

Random choices (this module's own protocol; it need not follow ``RandomBot`` step by step):
one ``random.Random`` seeded with ``b"bhabhi/playout/v1" || 0x00 || seed`` (or the ``rng``
passed in), read only through ``random()``; a choice among ``n`` options takes option
``int(random() * n)`` (options in ascending card id order).

* A player about to lead chooses uniformly among their legal cards and, where B9 allows it,
  taking their neighbour's hand (``n + 1`` options, taking being the last).
* Before each trick, in play order after the leader, every other player allowed to take
  a hand takes it with probability ``1 / (own cards + 1)`` (one ``random()`` each), so that
  they take as often as a leader choosing uniformly would; then the leader chooses.  A take
  by the leader starts this round again.
* A follower chooses uniformly among the cards they may play; one who must pick up does.
* ``random_playout_from(..., greedy=True)`` only: followers and players who cannot follow
  choose by a fixed rule of thumb (``_play``'s ``greedy``), drawing no random number.
* ``random_playout_from`` only: a B8 draw from the waste pile takes a card by the same
  rule (``random_playout`` draws from the deal's draw stream, as ``Hand`` does).  From a
  position before a trick, the take round starts again from the leader's neighbour.

Action codes in ``PlayoutResult.actions``: a card id for playing that card,
``PICK_UP_CODE`` and ``TAKE_HAND_CODE``; ``action_of`` turns one into an ``Action``.

The trace (``trace=``, for analyses that need the course of a hand, not only its end): a
list the caller passes, to which the playout appends one ``TraceEntry`` for the deal and
then one per finished trick, ``(leader, ended, takes, hands)``: the seat that led (for the
deal, the first leader by C6), how the trick ended (``TRICK_COMPLETE``, ``TRICK_PICKUP``,
``TRICK_TOCHOO``; ``TRACE_DEAL`` for the deal), how many hands were taken (B9) before it,
and a copy of every seat's hand as a bitmask once the trick is settled (after any pickup and
B8 draw).  Without a list (the default) nothing is built.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from referee.engine import components as rule
from referee.engine.components import RuleBook
from referee.engine.deadpos import detects_dead_positions, pickup_is_dead
from referee.engine.hand import Hand, take_target
from referee.engine.shuffle import DRAW_LABEL, Seed, Stream, deal_masks, seed_bytes
from referee.engine.types import PICK_UP, TAKE_HAND, Action, EngineError, Outcome, Termination
from referee.ruleset.model import Ruleset

PLAYOUT_LABEL = b"bhabhi/playout/v1"
PICK_UP_CODE = -1
TAKE_HAND_CODE = -2

_COMPLETE, _PICKUP, _TOCHOO = 0, 1, 2
TRICK_COMPLETE, TRICK_PICKUP, TRICK_TOCHOO = _COMPLETE, _PICKUP, _TOCHOO
"""How a trick ended, in a ``TraceEntry``: everyone played (C8, B5, D2), a pickup (P1), a
tochoo (B4)."""
TRACE_DEAL = -1
"""The ``ended`` of the trace's first entry, the position after the deal."""

TraceEntry = tuple[int, int, int, list[int]]
"""``(leader, ended, takes, hands)``: see the module's docstring."""


@dataclass(frozen=True, slots=True)
class PlayoutResult:
    """One hand of random play: how it ended, how long it took, and how to replay it."""

    outcome: Outcome
    tricks: int
    """Tricks started and finished (``Hand.trick_number`` at the end), the tricks before
    the position included for ``random_playout_from``."""
    pickups: int
    """Tricks that ended with somebody picking the cards up (P1, B6) instead of wasting them
    (those of the playout only, as the two fields below)."""
    actions: tuple[tuple[int, int], ...]
    """Every action in order as (seat, code): a card id, PICK_UP_CODE or TAKE_HAND_CODE."""
    draws: tuple[int, ...]
    """B8: the cards drawn from the waste pile, in order (``Hand.draws_made``; for
    ``random_playout_from``, give them to a replay with ``Hand.set_draws``)."""

    @property
    def bhabhi(self) -> int | None:
        return self.outcome.bhabhi

    @property
    def termination(self) -> Termination:
        return self.outcome.termination

    @property
    def action_count(self) -> int:
        return len(self.actions)


def action_of(code: int) -> Action:
    """The ``Action`` an action code stands for."""
    if code == PICK_UP_CODE:
        return PICK_UP
    if code == TAKE_HAND_CODE:
        return TAKE_HAND
    return Action.play(code)


def playout_rng(seed: Seed) -> random.Random:
    """The generator ``random_playout`` uses for ``seed`` unless it is given one."""
    return random.Random(PLAYOUT_LABEL + b"\x00" + seed_bytes(seed))


def random_playout(
    rules: Ruleset | RuleBook,
    players: int,
    seed: Seed,
    dealer: int,
    *,
    rng: random.Random | None = None,
    trace: list[TraceEntry] | None = None,
) -> PlayoutResult:
    """Play one hand with random legal play, dealt from ``seed`` as ``Hand`` deals it.

    ``trace``, when given, receives the deal and every finished trick (module docstring).
    """
    if isinstance(rules, Ruleset):
        if not rules.players.allows(players):
            raise EngineError(f"ruleset {rules.id!r} does not allow {players} players")
        book = RuleBook.of(rules)
    else:
        book = rules
    _check_fast(book)
    dealer %= players
    raw_seed = seed_bytes(seed)
    hands = deal_masks(book.deck, raw_seed, players, dealer, book.step)
    rnd = (rng if rng is not None else playout_rng(raw_seed)).random
    leader, forced = _first_leader(book, hands, players, dealer)
    if trace is not None:
        trace.append((leader, TRACE_DEAL, 0, hands[:]))
    out = [False] * players
    out_order: list[int] = []
    for seat in range(players):
        if not hands[seat]:
            out[seat] = True
            out_order.append(seat)
    start = _Start(hands, out, out_order, leader, forced, leader, 0, 0, 0, -1, None)
    return _play(book, players, dealer, start, rnd, raw_seed, trace)


def random_playout_from(
    hand: Hand, rng: random.Random, *, taking: bool = True, greedy: bool = False
) -> PlayoutResult:
    """Play ``hand`` on from its current position to its end with random legal play, by
    the module's choice protocol, without changing it.

    For a search under hidden information: ``hand`` may be a determinization (a copy
    whose hidden cards were dealt again), so only its state is read, every seat's cards
    in ``hand.hands`` (never its deal or its seed).  The B8 draws from the waste pile are
    made with ``rng`` too (a choice among the pile's cards by the protocol), not from the
    hand's draw stream or its explicit draws: a sample's draws are random, not the real
    hand's future ones.  ``PlayoutResult.draws`` lists them, so a replay gives them to a
    copy with ``Hand.set_draws``.  The result's ``actions``, ``draws`` and ``pickups``
    are those of the playout alone; ``tricks`` and the outcome are the whole hand's.

    The position may be before a trick (a forced lead pending, C6 or B8; hands taken this
    trick, B9) or in the middle of one (``Hand.trick_in_play``).  In the first case the
    take round (B9) starts from the leader's neighbour whatever was taken already, as
    after a leader's take.  A position the fast loop cannot play on from is refused: a
    hand that is over, and (possible only with rules ``RuleBook.fast_playout`` refuses
    anyway) a house rule's decision pending or the position right after a trick that a
    house rule keeps open (H12, H14, H20, H22, H25, H26).

    ``taking=False``: nobody takes a hand (B9) during the playout.  A search's playouts are
    its model of how the others play on, and random players who take a neighbour's hand as
    often as they lead a card (which people do not) would teach it that taking a large
    hand is safe, since somebody soon takes it back.

    ``greedy=True``: the players follow and throw by a fixed rule of thumb instead of at
    random (``_play``'s ``greedy``); leads stay random.  A search's model of players who
    try not to be the Bhabhi: random followers shed their high cards no sooner than their
    low ones, which teaches a search that a high card kept is no danger.
    """
    book = hand.book
    _check_fast(book)
    if hand.is_over:
        raise EngineError("the hand is over: there is nothing to play on from it")
    if (
        hand.trump_chooser >= 0
        or hand.choosing_draw
        or hand.take_request is not None
        or hand.take_pass_from >= 0
        or hand.after_trick is not None
    ):
        raise EngineError(
            "a house rule's decision is pending: the fast playout cannot play on from here"
        )
    in_trick = hand.trick_in_play()
    if in_trick is None:
        trick = None
        leader = hand.leader
    else:
        trick = _Trick(
            in_trick.order,
            in_trick.played,
            book.suit_masks[hand.led_suit],
            hand.trick_mask,
            in_trick.high,
            in_trick.high_seat,
            in_trick.low,
            in_trick.low_seat,
        )
        leader = in_trick.order[0]
    start = _Start(
        hand.hands.copy(),
        hand.out.copy(),
        hand.out_order.copy(),
        leader,
        hand.forced_lead,
        hand.first_leader,
        hand.trick_number,
        hand.takes_this_trick,
        hand.waste,
        hand.trump,
        trick,
    )
    return _play(
        book, hand.players, hand.dealer, start, rng.random, None, None, taking=taking, greedy=greedy
    )


def _check_fast(book: RuleBook) -> None:
    if not book.fast_playout:
        raise EngineError(
            "these rules use house rules the fast playout does not play: play them with Hand"
        )


@dataclass(slots=True)
class _Trick:
    """A trick in play to go on with: its play order, how many have played, the led suit's
    mask, its cards so far, and the high and low cards so far (as ``Hand`` keeps them)."""

    order: tuple[int, ...]
    played: int
    led_mask: int
    cards: int
    high: int
    high_seat: int
    low: int
    low_seat: int


@dataclass(slots=True)
class _Start:
    """The position a playout starts from: the deal, or any position of a ``Hand``.  Its
    lists become the playout's own (the caller gives copies).  Not frozen: one is built a
    playout, and a frozen one's ``__init__`` costs a microsecond, over 1 % of a hand."""

    hands: list[int]
    out: list[bool]
    out_order: list[int]
    leader: int
    forced: int
    first_leader: int
    trick_no: int
    takes: int
    waste: int
    trump: int
    trick: _Trick | None
    """The trick in play, or None before a trick."""


def _play(
    book: RuleBook,
    n_seats: int,
    dealer: int,
    start: _Start,
    rnd: Callable[[], float],
    draw_seed: bytes | None,
    trace: list[TraceEntry] | None,
    *,
    taking: bool = True,
    greedy: bool = False,
) -> PlayoutResult:
    """The one loop of both playouts: from ``start`` to the end of the hand.

    ``greedy``: a follower with a choice plays by ``_follow_greedily`` and a player who
    cannot follow (discard, tochoo) throws their highest card, as ``HeuristicBot`` does,
    instead of choosing at random; no random number is drawn for those choices.

    B8 draws come from ``Stream(draw_seed, DRAW_LABEL)`` as ``Hand`` draws them, or, with
    no ``draw_seed``, from ``rnd`` by the choice protocol.

    Written as one loop over local variables (a call or an attribute lookup per card would
    cost more than the rules themselves); the rare steps (taking a hand, the end of the
    hand) are helpers.  The comments name the clause each step implements; ``Hand`` is the
    readable statement of the same rules.
    """
    step = book.step
    suit_of = book.suit
    strength = book.strength
    suit_masks = book.suit_masks
    later_wins = book.later_identical_wins
    first_discards = book.first_trick_discards
    first_leader_leads = book.first_trick_first_leader_leads
    pickup_when_void = book.pickup_when_void
    tochoo_ends = book.tochoo_ends_trick
    tochoo_by_high = book.tochoo_picked_up_by_high
    trump_from_first_off_suit = book.trump_from_first_off_suit
    takes_waste = book.pickup_takes_waste
    complete_high = book.complete_next_high
    after_pickup = book.after_pickup
    leader_draws = book.leader_draws
    draw_from_trick = book.draw_from_trick_when_waste_empty
    take_hand = book.take_hand and taking
    leader_only = book.take_hand_leader_only
    once = book.take_hand_once_per_trick
    two_left_loses = book.two_left_pickup_loses
    max_tricks = book.max_tricks
    dead_check = detects_dead_positions(book)  # as Hand's deadpos.dead_position_check
    # greedy: under P1 the follower keeps out of the next lead (its lowest card where the
    # highest leads next, C8); under B6 it ducks below the high card unless it plays last.
    follow_low = pickup_when_void and complete_high
    ducking = tochoo_ends and tochoo_by_high and not pickup_when_void

    hands = start.hands
    out = start.out
    out_order = start.out_order
    actions: list[tuple[int, int]] = []
    act = actions.append
    draws: list[int] = []
    stream: Stream | None = None
    waste = start.waste
    trick_no = start.trick_no
    takes = start.takes
    pickups = 0
    trump = start.trump  # X5: the trump suit once fixed
    leader = start.leader
    forced = start.forced
    first_leader = start.first_leader
    resume = start.trick  # a trick in play to go on with, before anything else

    ring = _ring(out, step)  # the active seats in play order (some rotation of it)
    orders, followers = _orders(ring)
    result = (
        None
        if resume is not None
        else _end_between_tricks(book, ring, hands, leader, waste, trick_no)
    )

    while result is None:
        if resume is None:
            # --- B9: before the trick, the others may take a hand, then the leader decides.
            choice = -1
            if take_hand:
                if not leader_only and not (once and takes):
                    start_seat = leader
                    for i in range(1, n_seats):
                        seat = (start_seat + step * i) % n_seats
                        if out[seat] or seat == leader or (once and takes):
                            continue
                        if rnd() * (hands[seat].bit_count() + 1) < 1.0:
                            act((seat, TAKE_HAND_CODE))
                            takes += 1
                            leader, forced, first_leader = _take(
                                book, hands, out, out_order, seat, leader, forced, first_leader,
                                trick_no, dealer,
                            )  # fmt: skip
                            ring = _ring(out, step)
                            orders, followers = _orders(ring)
                            result = _end_between_tricks(book, ring, hands, leader, waste, trick_no)
                            if result is not None:
                                break
                    if result is not None:
                        break
                if not (once and takes):
                    options = 1 if forced >= 0 else hands[leader].bit_count()
                    choice = int(rnd() * (options + 1))
                    if choice == options:
                        act((leader, TAKE_HAND_CODE))
                        takes += 1
                        leader, forced, first_leader = _take(
                            book, hands, out, out_order, leader, leader, forced, first_leader,
                            trick_no, dealer,
                        )  # fmt: skip
                        ring = _ring(out, step)
                        orders, followers = _orders(ring)
                        result = _end_between_tricks(book, ring, hands, leader, waste, trick_no)
                        continue

            # --- the lead (C6 / B8 forced cards, else C7: any card).
            hand = hands[leader]
            if forced >= 0:
                card = forced
                forced = -1
            else:
                if choice < 0:
                    choice = int(rnd() * hand.bit_count())
                rest = hand
                while choice:
                    rest &= rest - 1
                    choice -= 1
                card = (rest & -rest).bit_length() - 1
            hand ^= 1 << card
            hands[leader] = hand
            emptied = not hand
            act((leader, card))
            order = orders[leader]
            to_play = followers[leader]
            led_mask = suit_masks[suit_of[card]]
            high = low = strength[card]
            high_seat = low_seat = leader
            trick = 1 << card
        else:
            # --- the middle of a trick (random_playout_from): as it stands.
            order = resume.order
            to_play = order[resume.played :]
            led_mask = resume.led_mask
            high, high_seat = resume.high, resume.high_seat
            low, low_seat = resume.low, resume.low_seat
            trick = resume.cards
            emptied = any(not hands[seat] for seat in order[: resume.played])
            resume = None
        first_trick = trick_no == 0 and first_discards  # B1 / X3
        how = _COMPLETE
        picker = -1

        # --- the others play in turn (C7), pick up (P1), discard (D1) or tochoo (B4).
        for seat in to_play:
            hand = hands[seat]
            following = hand & led_mask
            if following:
                count = following.bit_count()
                if count > 1:
                    if greedy:
                        following = _follow_greedily(
                            following, strength, high, follow_low, ducking and seat != to_play[-1]
                        )
                    else:
                        choice = int(rnd() * count)
                        while choice:
                            following &= following - 1
                            choice -= 1
                bit = following & -following
                card = bit.bit_length() - 1
                hand ^= bit
                hands[seat] = hand
                if not hand:
                    emptied = True
                trick |= bit
                act((seat, card))
                power = strength[card]
                if power > high or (power == high and later_wins):
                    high, high_seat = power, seat
                if power < low or (power == low and not later_wins):
                    low, low_seat = power, seat
            elif pickup_when_void and not first_trick:
                act((seat, PICK_UP_CODE))
                how = _PICKUP
                picker = seat
                break
            else:
                if greedy:
                    bit = _highest(hand, strength)
                else:
                    choice = int(rnd() * hand.bit_count())
                    rest = hand
                    while choice:
                        rest &= rest - 1
                        choice -= 1
                    bit = rest & -rest
                card = bit.bit_length() - 1
                hand ^= bit
                hands[seat] = hand
                if not hand:
                    emptied = True
                trick |= bit
                act((seat, card))
                if suit_of[card] == trump:  # X5: an off-suit trump goes on and can win
                    power = strength[card] + rule.TRUMP_BONUS
                    if power > high or (power == high and later_wins):
                        high, high_seat = power, seat
                    continue
                if trump < 0 and trump_from_first_off_suit:
                    trump = suit_of[card]
                if tochoo_ends and not first_trick:
                    how = _TOCHOO
                    picker = high_seat if tochoo_by_high else seat  # B6
                    break

        # --- the end of the trick: who picks up and leads (C8, P2, B7, V1, V4, B2).
        number = trick_no
        trick_no += 1
        taken, takes = takes, 0
        if how == _COMPLETE:
            next_leader = high_seat if complete_high else low_seat
        else:
            pickups += 1
            hands[picker] |= trick
            if takes_waste and waste:  # V4
                hands[picker] |= waste
                waste = 0
            if after_pickup == rule.PICKER:
                next_leader = picker
            elif after_pickup == rule.HIGHEST:
                next_leader = high_seat
            else:
                next_leader = low_seat
        if number == 0 and first_leader_leads:
            next_leader = first_leader
        if how != _COMPLETE and two_left_loses and len(order) == 2:  # X2
            if trace is not None:
                trace.append((order[0], how, taken, hands[:]))
            other = order[1] if order[0] == picker else order[0]
            out[other] = True
            out_order.append(other)
            result = (Termination.TWO_LEFT_PICKUP, picker)
            break

        # B8: the player due to lead with no card cannot escape: they will draw.
        drawer = next_leader if leader_draws and not hands[next_leader] else -1
        if drawer >= 0 and not waste and not (how == _COMPLETE and draw_from_trick):
            drawer = -1  # empty waste pile: they go out after all
        # Only a player who played a card this trick can have emptied their hand.
        leaving = [seat for seat in order if not hands[seat] and seat != drawer] if emptied else ()
        if leaving:  # C9, C11
            if len(ring) - len(leaving) <= 1:
                if trace is not None:
                    trace.append((order[0], how, taken, hands[:]))
                staying = [seat for seat in ring if seat not in leaving]
                if staying:
                    result = (Termination.LAST_PLAYER, staying[0])
                else:
                    result = (Termination.ALL_OUT, _all_out_loser(book, leaving[-1], high_seat))
                # C11: the Bhabhi of an all-out trick has not got away.
                out_order.extend(seat for seat in leaving if seat != result[1])
                break
            for seat in leaving:
                out[seat] = True
            out_order.extend(leaving)
            ring = [seat for seat in ring if not out[seat]]
            orders, followers = _orders(ring)
            while out[next_leader]:  # P3: the next player in turn who still has cards
                next_leader = (next_leader + step) % n_seats
        leader = next_leader
        if drawer >= 0:
            if not waste:
                waste = trick
                trick = 0
            rest = waste
            if draw_seed is None:  # random_playout_from: the sample's own draws
                choice = int(rnd() * rest.bit_count())
            else:
                if stream is None:
                    stream = Stream(draw_seed, DRAW_LABEL)
                choice = stream.uniform(rest.bit_count())
            while choice:
                rest &= rest - 1
                choice -= 1
            card = (rest & -rest).bit_length() - 1
            waste ^= 1 << card
            hands[drawer] = 1 << card
            forced = card
            draws.append(card)
        if how == _COMPLETE:
            waste |= trick
        if trace is not None:
            trace.append((order[0], how, taken, hands[:]))
        if trick_no >= max_tricks or dead_check:
            result = _end_between_tricks(book, ring, hands, leader, waste, trick_no)

    assert result is not None
    termination, bhabhi = result
    team: tuple[int, ...] | None = None
    if bhabhi is not None and book.teams:  # V2
        partner = (bhabhi + n_seats // 2) % n_seats
        team = (min(bhabhi, partner), max(bhabhi, partner))
    return PlayoutResult(
        outcome=Outcome(termination, bhabhi, tuple(out_order), team),
        tricks=trick_no,
        pickups=pickups,
        actions=tuple(actions),
        draws=tuple(draws),
    )


def _highest(cards: int, strength: tuple[int, ...]) -> int:
    """The bit of the strongest card of a non-empty bitmask (the lowest id on a tie)."""
    best, best_power = 0, -1
    while cards:
        bit = cards & -cards
        power = strength[bit.bit_length() - 1]
        if power > best_power:
            best, best_power = bit, power
        cards ^= bit
    return best


def _lowest(cards: int, strength: tuple[int, ...]) -> int:
    """The bit of the weakest card of a non-empty bitmask (the lowest id on a tie)."""
    best, best_power = 0, 1 << 30
    while cards:
        bit = cards & -cards
        power = strength[bit.bit_length() - 1]
        if power < best_power:
            best, best_power = bit, power
        cards ^= bit
    return best


def _follow_greedily(
    following: int, strength: tuple[int, ...], high: int, lowest: bool, duck: bool
) -> int:
    """The bit of the card a greedy follower plays of the led suit (``following``, two
    cards or more): its lowest when ``lowest``; with ``duck``, its highest card below the
    trick's ``high``, or its highest if every card is above; else its highest.  As
    ``HeuristicBot`` follows, without its estimates of who else follows."""
    if lowest:
        return _lowest(following, strength)
    if duck:
        below = 0
        rest = following
        while rest:
            bit = rest & -rest
            if strength[bit.bit_length() - 1] < high:
                below |= bit
            rest ^= bit
        if below:
            return _highest(below, strength)
    return _highest(following, strength)


def _ring(out: list[bool], step: int) -> list[int]:
    seats = range(len(out)) if step > 0 else range(len(out) - 1, -1, -1)
    return [seat for seat in seats if not out[seat]]


def _orders(ring: list[int]) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Each active seat's trick order (from them round the table) and the same without them."""
    orders = {seat: tuple(ring[at:] + ring[:at]) for at, seat in enumerate(ring)}
    return orders, {seat: order[1:] for seat, order in orders.items()}


def _first_leader(book: RuleBook, hands: list[int], players: int, dealer: int) -> tuple[int, int]:
    """C6 as ``Hand._first_leader``: the lead card's holder, else what the ruleset says."""
    card = book.first_lead_card
    for seat in range(players):
        if hands[seat] >> card & 1:
            return seat, card
    if book.first_lead_if_absent_highest:
        held = 0
        for hand in hands:
            held |= hand
        held &= book.suit_masks[book.suit[card]]
        if held:
            best = _highest(held, book.strength).bit_length() - 1
            seat = next(s for s in range(players) if hands[s] >> best & 1)
            return seat, best
    seat = (dealer + book.step) % players
    for _ in range(players):
        if hands[seat]:
            break
        seat = (seat + book.step) % players
    return seat, -1


def _take(
    book: RuleBook,
    hands: list[int],
    out: list[bool],
    out_order: list[int],
    taker: int,
    leader: int,
    forced: int,
    first_leader: int,
    trick_no: int,
    dealer: int,
) -> tuple[int, int, int]:
    """B9 as ``Hand._take_hand``; returns the new (leader, forced lead, first leader)."""
    players = len(hands)
    target = take_target(out, taker, book.take_step)
    hands[taker] |= hands[target]
    hands[target] = 0
    out[target] = True
    out_order.append(target)
    if target == leader:
        if trick_no == 0:
            leader, forced = _first_leader(book, hands, players, dealer)
            first_leader = leader
        else:
            forced = -1
            if book.lead_passes_to_taker:
                leader = taker
            else:
                leader = target
                while out[leader]:
                    leader = (leader + book.step) % players
    return leader, forced, first_leader


def _end_between_tricks(
    book: RuleBook, ring: list[int], hands: list[int], leader: int, waste: int, trick_no: int
) -> tuple[Termination, int | None] | None:
    """``Hand._check_end_between_tricks``: the last player (C10), the bound, a dead position."""
    if len(ring) <= 1:
        if ring:
            return Termination.LAST_PLAYER, ring[0]
        return Termination.ALL_OUT, None
    if trick_no >= book.max_tricks:
        return Termination.MAX_TRICKS, _forced_loser(ring, hands, book.at_max_most_cards)
    if detects_dead_positions(book) and trick_no > 0:
        at = ring.index(leader)
        if pickup_is_dead(book, ring[at:] + ring[:at], hands, waste):
            return Termination.DEAD_POSITION, _forced_loser(ring, hands, book.at_dead_most_cards)
    return None


def _forced_loser(ring: list[int], hands: list[int], most_cards: bool) -> int | None:
    if not most_cards:
        return None
    top = max(hands[seat].bit_count() for seat in ring)
    holders = [seat for seat in ring if hands[seat].bit_count() == top]
    return holders[0] if len(holders) == 1 else None


def _all_out_loser(book: RuleBook, last_to_play: int, high: int) -> int | None:
    if book.all_out_together == rule.NOBODY:
        return None
    return last_to_play if book.all_out_together == rule.LAST_TO_PLAY else high
