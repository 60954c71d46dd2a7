"""Bots that play through the referee like any other client.

A strategy sees exactly what its seat's ``SeatView`` shows (its own cards, every hand's
size, the face-up cards known to be in each hand, the trick, its legal actions) plus the
public rules (``RulesProfile``): it cannot peek, because the referee never sends it more.
It answers one of ``view.legal_actions``, or None to let an optional take (B9) pass.

``run_bot`` is the loop around a strategy: it follows the seat's event stream, and
whenever the seat may act it fetches the view, decides, and submits with the view's seq as
``expected_seq``, so a decision taken on a state that has since moved on is refused
(``stale_seq``) rather than applied to a table it was not meant for; it then looks again.

``TakeWindow`` holds the bots of a program back before a trick while a person it seats
may still take a hand (B9): a bot decides in a fraction of a second, and its lead would
close the chance before a person has read the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.cards import Card, pickup, play, take
from bhabhi_client.client import Client, SeatHandle, StreamItem, event_kind
from bhabhi_client.errors import RefereeError
from bhabhi_client.rules import RulesProfile

STRATEGIES = ("random", "heuristic", "strong")

MOVED_ON = frozenset(
    {"not_your_turn", "take_hand_not_allowed", "hand_over", "table_not_playing", "player_out"}
)
"""Refusals that mean the table moved on between the view and the action (another seat's
take came first, the clock played for us): nothing to do but wait for the next event."""


class Strategy(Protocol):
    """Anything that picks a seat's action from that seat's view."""

    def choose(self, view: pb.SeatView, rng: random.Random) -> pb.Action | None:
        """One of ``view.legal_actions``, or None to decline an optional take (B9)."""
        ...


@runtime_checkable
class Watching(Protocol):
    """A strategy that follows its seat's event stream (the strong bot keeps its own copy
    of the position from it): ``run_bot`` hands it every item, from before the deal."""

    seen: int
    """The seq of the last item it was handed: it decides only on a view it has caught up
    with."""

    def observe(self, item: StreamItem, seat: int) -> None: ...


def _cards(view: pb.SeatView) -> list[str]:
    return [a.card for a in view.legal_actions if a.kind == pb.ACTION_KIND_PLAY]


def _has(view: pb.SeatView, kind: pb.ActionKind.ValueType) -> bool:
    return any(a.kind == kind for a in view.legal_actions)


class RandomBot:
    """Uniform over the legal actions: the yardstick a strategy must beat.

    Offered only the optional take (it is not its turn), it takes with probability
    ``1 / (own cards + 1)``, as often as a leader choosing uniformly among its cards and
    the take would, so that random play does not favour a seat for where it sits.  Asked in a
    take pass (H22), it takes at that rate too and passes otherwise.
    """

    def choose(self, view: pb.SeatView, rng: random.Random) -> pb.Action | None:
        legal = list(view.legal_actions)
        if not legal:
            return None
        if view.turn != view.seat:  # only optional actions: a take (B9), a challenge (H25)
            if rng.random() * (len(view.hand) + 1) >= 1.0:
                return None
            return legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))]
        passes = [a for a in legal if a.kind == pb.ACTION_KIND_PASS]
        if passes:  # H22: its turn in the take pass; passing declines, as above
            takes = [a for a in legal if a.kind != pb.ACTION_KIND_PASS]
            if rng.random() * (len(view.hand) + 1) >= 1.0:
                return passes[0]
            return takes[0] if len(takes) == 1 else takes[rng.randrange(len(takes))]
        return legal[rng.randrange(len(legal))]


class HeuristicBot:
    """A rule-aware strategy: never be the one left holding the cards.

    Its estimates use only the view: a rival's known cards and hand size, and for the rest
    the unseen cards spread evenly over the rivals' hidden cards, which gives for each suit
    the chance that every rival still to play can follow (a *clean* trick).

    * **Taking a hand (B9)** only when it cannot hurt: four or more players in, from a
      neighbour holding one known low card (they escape next trick anyway).  Never with two
      left: the taker would be the Bhabhi at once.  Where the taker chooses whose hand
      (H23), the hand that fits best (the lowest such card); in a take pass (H22) it passes
      unless it wants to take; asked for its own hand (H20) it agrees: that gets it out.
    * **Void**: pick up where it must (P1); otherwise throw its highest card, from its
      shortest suit, to become void in more suits.
    * **Following** low, unless the trick will be picked up by someone else: under P1 a
      rival still to play who is probably void will pick the trick up, so its highest card
      goes with it; under the tochoo (B4/B6) a trick everyone follows is clean and its
      highest card is shed safely, while a likely tochoo calls for the highest card that
      still loses, leaving the pickup to another.
    * **The power with one card (B8)**: where a last card that wins a clean trick cannot
      escape, with two cards or fewer it ducks whenever it can and leads low.  Choosing
      whose hand to draw from (H14), it draws from the longest hand: a draw that empties a
      hand lets that rival get away.
    * **Leading**: under P1 the suit most likely to make a rival pick up; under the tochoo
      the suit most likely to be clean, high when it will be (it sheds a high card), low
      otherwise; under discard rules (and a tochoo its own player picks up) its highest.
    * **Naming the trump (H12)** as the dealer: the suit it holds most of, of equal length
      the one with the stronger cards.
    """

    def __init__(self, rules: RulesProfile | None = None) -> None:
        self.rules = rules or RulesProfile()
        self._suit_size = len(self.rules.ranks) * self.rules.packs
        self._deck_size = 4 * self._suit_size

    def choose(self, view: pb.SeatView, rng: random.Random) -> pb.Action | None:
        if not view.legal_actions:
            return None
        if _has(view, pb.ACTION_KIND_AGREE):  # H20: being taken gets it out of the hand
            return pb.Action(kind=pb.ACTION_KIND_AGREE)
        chosen = self.take_to_make(view)
        if chosen is not None:
            return chosen
        if _has(view, pb.ACTION_KIND_CHALLENGE) and self.proves_false(view):
            return pb.Action(kind=pb.ACTION_KIND_CHALLENGE)
        if view.turn != view.seat:
            return None
        if _has(view, pb.ACTION_KIND_PASS):  # H22: its turn in the take pass; no take wanted
            return pb.Action(kind=pb.ACTION_KIND_PASS)
        cards = _cards(view)
        if not cards and _has(view, pb.ACTION_KIND_PICK_UP):
            return pickup()
        if _has(view, pb.ACTION_KIND_CHOOSE_TRUMP):  # H12: the dealer names its longest suit
            return pb.Action(kind=pb.ACTION_KIND_CHOOSE_TRUMP, suit=self._longest_suit(view))
        draws = [a for a in view.legal_actions if a.kind == pb.ACTION_KIND_DRAW_FROM]
        if not cards and draws:  # H14: draw from the longest hand (first in turn on a tie)
            return max(draws, key=lambda a: (view.hand_sizes[a.seat], -draws.index(a)))
        if not cards:  # a house rule's decision it has no opinion on: the first offered
            others = [
                a
                for a in view.legal_actions
                if a.kind not in (pb.ACTION_KIND_TAKE_HAND, pb.ACTION_KIND_CHALLENGE)
            ]
            return others[0] if others else None
        if len(cards) == 1:
            return play(cards[0])
        if not view.trick:
            return play(self._lead(view, cards))
        return play(self._follow(view, cards))

    def _longest_suit(self, view: pb.SeatView) -> str:
        """H12: the suit the dealer holds most of; of equal length the one with the stronger
        cards, then the first of C, D, H, S."""

        def weight(suit: str) -> tuple[int, int, int]:
            held = [c for c in view.hand if _suit(c) == suit]
            return len(held), sum(self.rules.strength(c) for c in held), -"CDHS".index(suit)

        return max("CDHS", key=weight)

    # --- H25 --------------------------------------------------------------------------------

    def proves_false(self, view: pb.SeatView) -> bool:
        """H25: challenge only a sure thing: a player of an off-suit card to the trick just
        ended (``view.last_trick``) still holds a card of its led suit that everyone saw go
        into their hand face up before that trick."""
        if not view.last_trick:
            return False
        led = _suit(view.last_trick[0].card)
        in_trick = {p.card for p in view.last_trick}
        for played in list(view.last_trick)[1:]:
            if _suit(played.card) == led or played.seat >= len(view.known_cards):
                continue
            known = view.known_cards[played.seat].cards
            if any(_suit(k) == led and k not in in_trick for k in known):
                return True
        return False

    # --- B9 ---------------------------------------------------------------------------------

    def take_to_make(self, view: pb.SeatView) -> pb.Action | None:
        """The offered take it wants: the rules' own (B9) or, where the taker chooses
        (H23), the hand whose one known card is lowest; None when it wants none."""
        best: tuple[int, pb.Action] | None = None
        for action in view.legal_actions:
            if action.kind != pb.ACTION_KIND_TAKE_HAND:
                continue
            if action.HasField("seat"):
                target = action.seat
            else:
                target = take_target(view.out, view.seat, self.rules.take_step)
            value = self.take_value(view, target)
            if value is not None and (best is None or value < best[0]):
                best = (value, take(target) if action.HasField("seat") else take())
        return None if best is None else best[1]

    def wants_take(self, view: pb.SeatView) -> bool:
        """Whether it would take the hand the rules name (B9)."""
        target = take_target(view.out, view.seat, self.rules.take_step)
        return self.take_value(view, target) is not None

    def take_value(self, view: pb.SeatView, target: int) -> int | None:
        """How little taking ``target``'s hand costs (its one known card's strength), or
        None when it may hurt."""
        active = [s for s in range(view.players) if not view.out[s]]
        if len(active) < 4:  # with two left taking loses at once; with three it rarely pays
            return None
        if target < 0 or view.hand_sizes[target] != 1:
            return None
        known = list(view.known_cards[target].cards)
        if len(known) != 1:
            return None
        strength = self.rules.strength(known[0])
        return strength if strength <= 4 else None  # a 6 or lower (a 5 with Aces low)

    # --- playing a card ---------------------------------------------------------------------

    @property
    def _power_trap(self) -> bool:
        """B8 (H14): a last card that wins a clean trick draws a card instead of escaping."""
        return self.rules.if_out in ("draws_from_waste", "draws_from_player")

    def _follow(self, view: pb.SeatView, cards: Sequence[str]) -> str:
        rules = self.rules
        led = view.led_suit
        following = sorted((c for c in cards if _suit(c) == led), key=rules.strength)
        if not following:  # void: a tochoo or a discard
            return self._throw(view, cards)
        still = self._still_to_play(view)
        if rules.off_suit == "pickup":
            picked_by_other = bool(still) and self._clean_chance(view, led, still) < 0.5
            if picked_by_other:
                return following[-1]
            low_leads = rules.after_complete_trick == "lowest"  # V1: the lowest card leads
            return following[-1] if low_leads else following[0]
        high = max((rules.strength(p.card) for p in view.trick if _suit(p.card) == led), default=-1)
        ducks = [c for c in following if rules.strength(c) < high]
        if self._power_trap and len(view.hand) <= 2:
            return ducks[-1] if ducks else following[-1]
        if rules.off_suit != "tochoo" or rules.tochoo_picked_up_by != "highest_of_led":
            return following[-1]  # a follower can never be made to pick up
        if not still or self._clean_chance(view, led, still) >= 0.9:
            return following[-1]
        return ducks[-1] if ducks else following[-1]

    def _throw(self, view: pb.SeatView, cards: Sequence[str]) -> str:
        counts = {suit: 0 for suit in "CDHS"}
        for card in view.hand:
            counts[_suit(card)] += 1
        return max(cards, key=lambda c: (self.rules.strength(c), -counts[_suit(c)], c))

    def _lead(self, view: pb.SeatView, cards: Sequence[str]) -> str:
        rules = self.rules
        mine: dict[str, list[str]] = {}
        for card in sorted(cards, key=rules.strength):
            mine.setdefault(_suit(card), []).append(card)
        rivals = self._rivals_in_order(view)
        if rules.off_suit == "discard":
            return max(cards, key=lambda c: (rules.strength(c), c))
        chance = {suit: self._clean_chance(view, suit, rivals) for suit in mine}
        if rules.off_suit == "pickup":
            fewest = min((view.hand_sizes[r] for r in rivals), default=0)
            short = [r for r in rivals if view.hand_sizes[r] == fewest]

            def pickup_value(suit: str) -> tuple[float, float, int, str]:
                hits_short = 1.0 - self._clean_chance(view, suit, short)
                return (1.0 - chance[suit], hits_short, len(mine[suit]), suit)

            suit_cards = mine[max(mine, key=pickup_value)]
            low_leads = rules.after_complete_trick == "lowest"
            return suit_cards[-1] if low_leads else suit_cards[0]
        if rules.tochoo_picked_up_by == "highest_of_led":
            suit = max(mine, key=lambda s: (chance[s], -len(mine[s]), s))
            if self._power_trap and len(view.hand) <= 2:
                return mine[suit][0]
            return mine[suit][-1] if chance[suit] >= 0.8 else mine[suit][0]
        suit = max(mine, key=lambda s: (len(mine[s]), s))
        return mine[suit][-1]

    # --- what the view says about the rivals ------------------------------------------------

    def _rivals_in_order(self, view: pb.SeatView) -> list[int]:
        order = []
        nxt = view.seat
        for _ in range(view.players - 1):
            nxt = (nxt + self.rules.step) % view.players
            if not view.out[nxt]:
                order.append(nxt)
        return order

    def _still_to_play(self, view: pb.SeatView) -> list[int]:
        played = {p.seat for p in view.trick}
        return [s for s in self._rivals_in_order(view) if s not in played]

    def _clean_chance(self, view: pb.SeatView, suit: str, rivals: Sequence[int]) -> float:
        """The chance that each of ``rivals`` holds a card of ``suit``: known cards count
        exactly, each rival's hidden cards are drawn independently from the unseen ones."""
        seen = [*view.hand, *(p.card for p in view.trick)]
        for known in view.known_cards:
            seen.extend(known.cards)
        unseen_total = self._deck_size - len(seen)
        unseen_suit = self._suit_size - sum(1 for c in seen if _suit(c) == suit)
        chance = 1.0
        for rival in rivals:
            known_cards = (
                list(view.known_cards[rival].cards) if rival < len(view.known_cards) else []
            )
            if any(_suit(c) == suit for c in known_cards):
                continue
            size = view.hand_sizes[rival]
            if size < 0:  # H29: not shown; guess an even share of the unseen cards
                size = len(known_cards) + unseen_total // max(1, len(rivals))
            hidden = size - len(known_cards)
            if hidden <= 0 or unseen_suit <= 0 or unseen_total <= 0:
                return 0.0
            chance *= 1.0 - (1.0 - unseen_suit / unseen_total) ** hidden
        return chance


def _suit(card: str) -> str:
    return Card.parse(card).suit


def take_target(out: Sequence[bool], seat: int, step: int) -> int:
    """B9: whose hand ``seat`` would take: the first seat still in going ``step`` round the
    table (+1: the left neighbour), or -1 when nobody else is left."""
    players = len(out)
    target = (seat + step) % players
    while target != seat:
        if not out[target]:
            return target
        target = (target + step) % players
    return -1


Hold = Callable[[pb.SeatView, int], Awaitable[bool]]
"""Awaited by a bot before it decides on the view taken at a seq: True when it waited, so
that the bot looks again (the table may have moved on meanwhile)."""


class TakeWindow:
    """Before a trick, the bots wait for the people who may still take a hand.

    B9 lets seats other than the leader take a neighbour's hand before a trick; the referee
    says so by listing them in ``to_act`` beside the seat to play.  On a view where one of
    ``people`` is listed so, a bot (``hold``) waits until that person let the chance pass
    at that seq (``let_pass``), the table moved past it (``moved``: the take was made, or
    the turn clock played for the leader), or the person left (``close``).  Without a turn
    clock the bots wait as long as the person does, which is the point: the person can
    always take in time.
    """

    def __init__(self, people: Iterable[int]) -> None:
        self.people = frozenset(people)
        self._passed: dict[int, int] = {}
        """The seq of the latest view at which each person let the chance pass."""
        self._latest = -1
        """The seq of the latest event seen at the table."""
        self._closed = False
        self._change = asyncio.Event()

    def waiting_for(self, view: pb.SeatView, seq: int) -> list[int]:
        """The people a bot seeing ``view`` (taken at ``seq``) still waits for."""
        if self._closed or self._latest > seq:
            return []
        return [
            s
            for s in view.to_act
            if s in self.people
            and s != view.turn
            and s != view.seat
            and self._passed.get(s, -1) < seq
        ]

    async def hold(self, view: pb.SeatView, seq: int) -> bool:
        """Wait while a person may still take on this view; True when it waited."""
        waited = False
        while True:
            change = self._change  # taken before the check, so no change slips between
            if not self.waiting_for(view, seq):
                return waited
            waited = True
            await change.wait()

    def let_pass(self, seat: int, seq: int) -> None:
        """``seat`` will not take on the view of ``seq``."""
        self._passed[seat] = max(seq, self._passed.get(seat, -1))
        self._changed()

    def moved(self, seq: int) -> None:
        """An event of ``seq`` happened: every view before it is gone."""
        if seq > self._latest:
            self._latest = seq
            self._changed()

    def close(self) -> None:
        """The people left: nobody waits for them any more."""
        self._closed = True
        self._changed()

    def _changed(self) -> None:
        self._change.set()
        self._change = asyncio.Event()


def make_strategy(
    name: str,
    rules: RulesProfile | None = None,
    *,
    think: float | None = None,
    playouts: int | None = None,
) -> Strategy:
    """The built-in strategy ``name``; ``think`` and ``playouts``: the strong bot's seconds
    a move and worlds a decision (``strong_strategy``)."""
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot(rules)
    if name == "strong":
        from bhabhi_client.strong import strong_strategy  # needs the referee's engine

        return strong_strategy(rules, think, playouts)
    raise ValueError(f"unknown strategy {name!r}: choose from {', '.join(STRATEGIES)}")


@dataclass(slots=True)
class BotResult:
    """How a bot's session went, from its own seat."""

    seat: int
    name: str
    actions: int = 0
    hands: int = 0
    bhabhi: int = 0
    session: pb.SessionOver | None = None


async def run_bot(
    target: str | Client,
    table_id: str,
    name: str,
    strategy: str | Strategy = "heuristic",
    seat: int | None = None,
    *,
    token: str | None = None,
    seed: int | str | None = None,
    auto_start: bool = True,
    delay: float = 0.0,
    on_event: Callable[[StreamItem], None] | None = None,
    on_join: Callable[[SeatHandle], None] | None = None,
    hold: Hold | None = None,
    think: float | None = None,
    playouts: int | None = None,
) -> BotResult:
    """Play a seat until the table's session is over.

    ``target`` is an address or an open ``Client`` (bots of one process share its
    channel).  The bot joins (``seat`` or the first free one), or with ``token`` takes
    back a seat it held.  With ``auto_start`` it deals once every seat is taken.  ``delay``
    (seconds) paces it so that a person at the table can follow; ``hold`` (for example
    ``TakeWindow.hold``) is awaited before each decision; ``think`` and ``playouts``: the
    strong strategy's seconds a move and worlds a decision.
    """
    async with contextlib.AsyncExitStack() as stack:
        client = (
            target
            if isinstance(target, Client)
            else await stack.enter_async_context(Client(target))
        )
        return await _run_bot(
            client,
            table_id,
            name,
            strategy,
            seat,
            token,
            seed,
            auto_start,
            delay,
            on_event,
            on_join,
            hold,
            think,
            playouts,
        )


async def _run_bot(
    client: Client,
    table_id: str,
    name: str,
    strategy: str | Strategy,
    seat: int | None,
    token: str | None,
    seed: int | str | None,
    auto_start: bool,
    delay: float,
    on_event: Callable[[StreamItem], None] | None,
    on_join: Callable[[SeatHandle], None] | None,
    hold: Hold | None,
    think: float | None = None,
    playouts: int | None = None,
) -> BotResult:
    if token:
        handle = await client.resume(table_id, token, name)
    else:
        handle = await client.join(table_id, name, seat)
    if on_join is not None:
        on_join(handle)
    table = await client.get_table(table_id)
    if isinstance(strategy, str):
        rules = RulesProfile.from_yaml((await client.get_ruleset(table.ruleset.id)).yaml)
        strategy = make_strategy(strategy, rules, think=think, playouts=playouts)
    player = _Player(handle, strategy, random.Random(seed), delay, hold)
    result = BotResult(handle.seat, name)
    watching = strategy if isinstance(strategy, Watching) else None
    # A strategy that watches is handed the table's whole stream, from its first event: it
    # catches up with the hand in play (its deal, every action so far) before it decides.
    before = 0
    if auto_start:
        await _start_if_full(handle)
    now = await handle.view()
    if watching is None and now.HasField("view") and handle.seat in now.view.to_act:
        result.actions += await player.decide()
    async for item in handle.events(after_seq=before if watching is not None else now.seq):
        if on_event is not None:
            on_event(item)
        if watching is not None:
            watching.observe(item, handle.seat)
        if isinstance(item, pb.Snapshot):
            to_act = list(item.view.to_act) if item.HasField("view") else []
        else:
            to_act = list(item.to_act)
            kind = event_kind(item)
            if kind == "player_joined" and auto_start:
                await _start_if_full(handle)
            elif kind == "hand_over":
                result.hands += 1
                outcome = item.hand_over.result
                if outcome.HasField("bhabhi") and outcome.bhabhi == handle.seat:
                    result.bhabhi += 1
            elif kind == "session_over":
                result.session = item.session_over
                break
        if handle.seat in to_act and item.seq > player.decided:
            result.actions += await player.decide()
    return result


async def _start_if_full(handle: SeatHandle) -> None:
    """Deal once every seat is taken; another seat may have dealt first, which is fine."""
    table = await handle.client.get_table(handle.table_id)
    if table.status != pb.TABLE_STATUS_OPEN or not all(s.taken for s in table.seats):
        return
    try:
        await handle.start()
    except RefereeError as error:
        if error.reason not in ("table_not_open", "table_not_full"):
            raise


class _Player:
    """One seat's decisions: at most one per seq, refreshed when it turns out stale."""

    def __init__(
        self,
        handle: SeatHandle,
        strategy: Strategy,
        rng: random.Random,
        delay: float,
        hold: Hold | None = None,
    ) -> None:
        self.handle = handle
        self.strategy = strategy
        self.rng = rng
        self.delay = delay
        self.hold = hold
        self.decided = -1
        """The seq of the latest view this seat decided on (declining counts)."""

    async def decide(self, attempts: int = 8) -> int:
        """Act on the current view if the seat may; returns the number of actions applied."""
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        for _ in range(attempts):
            response = await self.handle.view()
            seq, view = response.seq, response.view
            if seq <= self.decided:
                return 0
            may_act = response.HasField("view") and self.handle.seat in view.to_act
            if may_act and self.hold is not None and await self.hold(view, seq):
                continue  # somebody answered, or the table moved on: look again
            watching = self.strategy if isinstance(self.strategy, Watching) else None
            if watching is not None and watching.seen < seq:
                return 0  # the stream brings the events up to this view, and asks again
            self.decided = seq
            if not may_act:
                return 0
            if watching is not None:  # a search takes seconds: off the event loop
                action = await asyncio.to_thread(self.strategy.choose, view, self.rng)
            else:
                action = self.strategy.choose(view, self.rng)
            if action is None:
                return 0
            try:
                await self.handle.act(action, expected_seq=seq)
            except RefereeError as error:
                if error.reason == "stale_seq":
                    continue  # the table moved on: look again and decide anew
                if error.reason in MOVED_ON:
                    return 0
                raise
            return 1
        return 0
