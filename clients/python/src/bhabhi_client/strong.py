"""The strong bot over gRPC: the referee package's search (``referee.sim.strong``), fed
with what this seat's event stream shows, like any other client.

The search needs the rules as a program (to deal possible worlds and play them out), and
the engine is that program: so this strategy, alone in the client package, needs the
referee package installed beside it (``pip install bhabhi-referee``); it reads nothing of
a table but its public event stream and its seat's view.

From the stream: each hand's start (``HandStarted``: the dealer, the first leader and this
seat's cards), every action in order (``Event.acted``, on the first event an action
caused), and a card this seat drew (``WasteDrawn``, ``CardDrawn``: only the drawer is told
which).  An action is handed to the search once the events it caused are in (the next
action's first event, or the moment this seat must decide), so that a draw it made is
known before it is applied.  Before each decision the guess is checked against the seat's
view: its own cards are taken as they are (a hand it took), and where the guess shows
another table than the view does (an outcome that hung on hidden cards, such as whether a
challenged tochoo was false, H25), the guess is drawn afresh from the last one the view
agreed with and the actions since are applied to it again, until one shows what the view
shows; if none does, the search gives up for that hand and the heuristic bot plays on.

The time per move is ``think`` seconds, and never more than the table's clock leaves
(less a margin for the network): the best move found by then is played.
"""

from __future__ import annotations

import random
import time

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.bots import HeuristicBot
from bhabhi_client.cards import format_action, parse_action
from bhabhi_client.client import StreamItem, event_kind
from bhabhi_client.rules import RulesProfile

try:
    from referee.cards import Card, mask_of, parse_card
    from referee.engine.determinize import determinize
    from referee.engine.hand import Hand
    from referee.engine.types import Action, EngineError
    from referee.ruleset.model import Ruleset
    from referee.sim.strong import Shadow, ShadowLost, StrongBot
except ImportError:  # pragma: no cover - the client installed alone
    StrongBot = None  # type: ignore[assignment,misc]

DEFAULT_THINK = 1.0
"""Seconds a move, unless told: the issue's budget on this machine."""
CLOCK_MARGIN = 0.3
"""Seconds kept back from the table's clock for the network and the answer."""
REDRAWS = 64
"""Guesses drawn afresh for a view the guess does not agree with, before giving up."""
MANY = 1 << 30
"""No bound on the worlds a decision plays but its time."""


def available() -> bool:
    """True when the referee package, whose engine the search plays, is installed."""
    return StrongBot is not None


class StrongStrategy:
    """``bhabhi_client.bots.Strategy`` that searches (module docstring); it watches the
    stream (``observe``), which ``run_bot`` feeds it."""

    def __init__(
        self, rules: RulesProfile, *, think: float | None = DEFAULT_THINK, playouts: int = MANY
    ) -> None:
        if StrongBot is None:
            raise ValueError(
                "the strong strategy searches with the referee's engine: install the referee "
                "package (pip install -e .) beside the client"
            )
        self.think = think
        # Without the ruleset's text (a strategy made only to check its name) it has no
        # rules to search with, and plays as the heuristic bot.
        self.core = (
            StrongBot(Ruleset.from_mapping(rules.raw), playouts=playouts, think=think)
            if rules.raw
            else None
        )
        self.fallback = HeuristicBot(rules)
        self.seat: int | None = None
        self._pending: tuple[int, Action] | None = None
        self._drawn: list[Card] = []
        self._deadline: float | None = None
        """When the table's clock for this seat runs out (this process's monotonic time)."""
        self.seen = -1
        """The seq of the last stream item observed."""
        self.redrawn = 0
        """Decisions whose guess was drawn afresh to agree with the view (for the tests)."""
        self._agreed: Hand | None = None
        """A copy of the guess when the seat's view last agreed with it (or the deal)."""
        self._since: list[tuple[int, Action, tuple[Card, ...]]] = []
        """The actions handed to the search since ``_agreed``, to apply again."""
        self.searched = 0
        """Decisions made by searching (with more than one choice)."""
        self.fell_back = 0
        """Decisions left to the heuristic bot, the guess being lost (for the tests)."""

    # --- the stream ---------------------------------------------------------------------

    def observe(self, item: StreamItem, seat: int) -> None:
        """One item of this seat's event stream."""
        self.seat = seat
        self.seen = item.seq
        if self.core is None:
            return
        if isinstance(item, pb.Snapshot):  # a gap or a resumed stream: the past is unknown
            self._pending = None
            self.core.shadow = None
            return
        self._deadline = (
            time.monotonic() + item.time_left.ToTimedelta().total_seconds()
            if item.HasField("time_left") and seat in item.to_act
            else None
        )
        kind = event_kind(item)
        if item.HasField("acted"):
            self._flush()
            acted = item.acted
            self._pending = (acted.seat, Action.parse(format_action(acted.action)))
        if kind == "hand_started":
            self._flush()
            started = item.hand_started
            try:
                self.core.shadow = Shadow.dealt(
                    self.core.rules,
                    len(started.hand_sizes),
                    seat,
                    started.dealer,
                    [parse_card(c) for c in started.your_cards],
                    started.leader,
                    random.Random(item.seq),
                )
            except ShadowLost:
                self.core.shadow = None
            self._checkpoint()
        elif kind == "waste_drawn" and item.waste_drawn.card:
            self._drawn.append(parse_card(item.waste_drawn.card))
        elif kind == "card_drawn" and item.card_drawn.card:
            self._drawn.append(parse_card(item.card_drawn.card))
        elif kind == "hand_over":
            self._flush()

    def _flush(self) -> None:
        """Hand the action waiting for its events to the search."""
        if self._pending is None or self.core is None:
            return
        seat, action = self._pending
        drawn, self._pending, self._drawn = tuple(self._drawn), None, []
        self.core.observe(seat, action, drawn)
        self._since.append((seat, action, drawn))

    def _checkpoint(self) -> None:
        """The guess as it stands is one the view agreed with: the point to draw it afresh
        from."""
        shadow = None if self.core is None else self.core.shadow
        self._agreed = None if shadow is None else shadow.hand.copy(record=False)
        self._since = []

    # --- deciding -----------------------------------------------------------------------

    def choose(self, view: pb.SeatView, rng: random.Random) -> pb.Action | None:
        if self.core is None:
            return self.fallback.choose(view, rng)
        self._flush()
        if self.core.shadow is not None and not (self._agrees(view) or self._redrawn(view)):
            self.core.shadow = None
        shadow = self.core.shadow
        if shadow is None:
            self.fell_back += 1
            return self.fallback.choose(view, rng)
        self._checkpoint()
        self.searched += 1
        budget = self.think
        if self._deadline is not None:
            clock = max(0.05, self._deadline - time.monotonic() - CLOCK_MARGIN)
            budget = clock if budget is None else min(budget, clock)
        action = self.core.search(shadow.hand.view(view.seat), rng, budget)
        return None if action is None else parse_action(str(action))

    def _redrawn(self, view: pb.SeatView) -> bool:
        """Draw the guess afresh from the last one the view agreed with, and apply the
        actions since to it again, until one agrees with ``view`` (False if none does
        in ``REDRAWS``): the shadow is then that guess."""
        assert self.core is not None and self.core.shadow is not None
        if self._agreed is None:
            return False
        seat, rng = self.core.shadow.seat, self.core.shadow.rng
        for _ in range(REDRAWS):
            try:
                trial = Shadow(determinize(self._agreed, seat, rng), seat, rng)
                for actor, action, drawn in self._since:
                    trial.observe(actor, action, drawn)
            except (ShadowLost, EngineError):
                continue
            self.core.shadow = trial
            if self._agrees(view):
                self.redrawn += 1
                return True
        return False

    def _agrees(self, view: pb.SeatView) -> bool:
        """Put the guess's own cards right, then: does it show the table the view shows?"""
        assert self.core is not None
        shadow = self.core.shadow
        assert shadow is not None
        own = mask_of(parse_card(c) for c in view.hand)
        if own != shadow.hand.hands[view.seat]:
            try:
                shadow.hand = determinize(shadow.hand, view.seat, shadow.rng, own=own)
            except EngineError:
                return False
        mine = shadow.hand.view(view.seat)
        legal = sorted(str(a) for a in mine.legal_actions)
        return (
            legal == sorted(format_action(a) for a in view.legal_actions)
            and list(mine.hand_sizes) == list(view.hand_sizes)
            and mine.trick_number == view.trick_number
            and [card for _, card in mine.trick] == [parse_card(p.card) for p in view.trick]
        )


def strong_strategy(
    rules: RulesProfile | None, think: float | None = None, playouts: int | None = None
) -> StrongStrategy:
    """The strategy ``make_strategy("strong")`` makes: ``think`` seconds a move (unless told,
    ``DEFAULT_THINK``, or with ``playouts`` alone no time bound), and at most ``playouts``
    worlds a decision (unless told, no bound but the time).  The table's clock bounds it
    always."""
    profile = rules if rules is not None else RulesProfile()
    if think is None and playouts is None:
        think = DEFAULT_THINK
    return StrongStrategy(profile, think=think, playouts=MANY if playouts is None else playouts)


__all__ = ["DEFAULT_THINK", "StrongStrategy", "available", "strong_strategy"]
