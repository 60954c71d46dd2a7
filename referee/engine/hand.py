"""One hand of Bhabhi: the state, the legal actions of every seat, and what each action causes.

The engine is pure: a hand is fully determined by the resolved ruleset, the number of
players, the dealer, and either a seed (the published shuffle, see ``shuffle.py``) or an
explicit deal.  Random draws from the waste pile (B8), or from a player's hand (house rule
H14), come from the seed too, or from an explicit list, so a recorded game replays exactly.

Variant behaviour comes from the ruleset through the small rule components of
``components.py``; nothing here looks at a ruleset's id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from referee.cards import Card, card_str, cards_in, cards_str, mask_of
from referee.engine import components as rule
from referee.engine.deadpos import dead_position_check
from referee.engine.shuffle import DRAW_LABEL, Seed, Stream, seed_bytes
from referee.engine.shuffle import deal as shuffle_deal
from referee.engine.types import (
    AGREE,
    CHALLENGE,
    LEGAL,
    PASS,
    PICK_UP,
    REFUSE,
    TAKE_HAND,
    Action,
    ActionKind,
    CardDrawn,
    CardPlayed,
    EngineError,
    Event,
    HandOver,
    HandStarted,
    HandTaken,
    IllegalPlayPenalised,
    Judgement,
    Outcome,
    PickedUp,
    PlayerOut,
    Reason,
    TakeAnswered,
    TakePassed,
    TakeRequested,
    Termination,
    TochooChallenged,
    TrickEnded,
    TrickToWaste,
    TrumpFixed,
    Verdict,
    WasteDrawn,
)
from referee.ruleset.model import Ruleset, Teams

BEFORE_TRICK = 0
IN_TRICK = 1
OVER = 2

CAN_PICK_UP = 1
CAN_TAKE_HAND = 2


@dataclass(frozen=True, slots=True)
class AfterTrick:
    """H25, H26: the trick just ended, for as long as the position right after it lasts
    (the next action of any seat, whatever it is, ends it).  A challenge (H25) is of this
    trick's off-suit cards; a card played out of turn now (H26) picks this trick up."""

    number: int
    cards: tuple[tuple[int, Card], ...]
    """The trick's cards in play order, as (seat, card)."""
    picker: int
    """Who picked the trick up (-1: it went to the waste pile)."""
    off_suit: tuple[int, ...]
    """H25: the seats that played a card off the led suit to it, in play order."""
    false: tuple[int, ...]
    """H25: those of them that held the led suit when they played it (never shown)."""


@dataclass(frozen=True, slots=True)
class TrickInPlay:
    """How far the trick in play has gone: what a playout needs to go on from the middle of
    it (``playout.random_playout_from``).  A snapshot rather than ``Hand``'s own fields, so
    that a reader outside this class depends on this small record, not on how ``Hand``
    keeps its turn; the cards so far are ``Hand.trick`` and ``Hand.trick_mask``."""

    order: tuple[int, ...]
    """The seats of the trick in play order, the leader first (the seats still in at the
    lead)."""
    played: int
    """How many of them have played: ``order[played:]`` are still to play, in turn."""
    high_seat: int
    """Who plays the highest card so far (a trump above the led suit, X5)."""
    high: int
    """Its strength (``RuleBook.strength``, plus ``TRUMP_BONUS`` for a trump)."""
    low_seat: int
    """Who plays the lowest card of the led suit so far."""
    low: int
    """Its strength."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know (or a spectator, with ``seat`` None): no other hidden card."""

    seat: int | None
    players: int
    dealer: int
    hand: tuple[Card, ...]
    """The seat's own cards (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """Every seat's number of cards; under H29 (``hand_sizes: hidden``) -1 for every seat
    but the viewer's own and those that are out (0)."""
    known_cards: tuple[tuple[Card, ...], ...]
    """Per seat, the cards every player saw go into that hand (picked up face up) and not yet
    played. Face-down cards (waste draws, V4 waste, taken hands) are never in it."""
    out: tuple[bool, ...]
    out_order: tuple[int, ...]
    trick_number: int
    trick: tuple[tuple[int, Card], ...]
    """The current trick's cards in play order, as (seat, card)."""
    led_suit: int | None
    trump: int | None
    """X5: the trump suit once fixed."""
    waste_size: int
    leader: int | None
    turn: int | None
    """The seat the game waits for (the leader before a trick), None when the hand is over."""
    to_act: tuple[int, ...]
    """Every seat that may act now (B9 lets others take a hand before a trick)."""
    legal_actions: tuple[Action, ...]
    outcome: Outcome | None
    last_trick: tuple[tuple[int, Card], ...] = ()
    """H25: the trick just ended, as (seat, card) in play order, while it may be
    challenged (the position right after it, when it has an off-suit card); else empty."""
    voids: tuple[tuple[int, ...], ...] = ()
    """Per seat, the suits (0-3, C D H S) it has shown it holds no unseen card of: it could
    not follow them where the rules would have refused an off-suit card (see
    ``Hand.voids``).  Suits rather than a bitmask, so that it reads like ``known_cards``
    and a client needs no bit convention; a face-up card of such a suit picked up later is
    in ``known_cards``."""

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "hand": [card_str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "known_cards": [[card_str(c) for c in cards] for cards in self.known_cards],
            "out": list(self.out),
            "out_order": list(self.out_order),
            "trick_number": self.trick_number,
            "trick": [[s, card_str(c)] for s, c in self.trick],
            "led_suit": None if self.led_suit is None else "CDHS"[self.led_suit],
            "trump": None if self.trump is None else "CDHS"[self.trump],
            "waste_size": self.waste_size,
            "leader": self.leader,
            "turn": self.turn,
            "to_act": list(self.to_act),
            "legal_actions": [str(a) for a in self.legal_actions],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "last_trick": [[s, card_str(c)] for s, c in self.last_trick],
        }


class LegalActions:
    """The legal actions of one seat, as a lazy re-iterable view (like python-chess).

    The common actions are bits (cards in ``card_mask``, a pickup or the rules' take in
    ``flags``), so that checking a move costs a shift; the rare decisions of house rules
    (a take pass, a challenge, a consent, a chosen target or trump) come as ``others``."""

    __slots__ = ("_flags", "_mask", "_others")

    def __init__(self, mask: int, flags: int, others: tuple[Action, ...] = ()) -> None:
        self._mask = mask
        self._flags = flags
        self._others = others

    def __iter__(self) -> Iterator[Action]:
        for card in cards_in(self._mask):
            yield Action.play(card)
        if self._flags & CAN_PICK_UP:
            yield PICK_UP
        if self._flags & CAN_TAKE_HAND:
            yield TAKE_HAND
        yield from self._others

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        if action.kind is ActionKind.PLAY:
            return action.card is not None and bool(self._mask >> action.card & 1)
        if action == PICK_UP:
            return bool(self._flags & CAN_PICK_UP)
        if action == TAKE_HAND and self._flags & CAN_TAKE_HAND:
            return True
        return action in self._others

    def count(self) -> int:
        return (
            self._mask.bit_count() + (self._flags & 1) + (self._flags >> 1 & 1) + len(self._others)
        )

    __len__ = count

    def __bool__(self) -> bool:
        return bool(self._mask or self._flags or self._others)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(str(a) for a in self)})>"

    @property
    def card_mask(self) -> int:
        return self._mask

    @property
    def flags(self) -> int:
        return self._flags

    @property
    def others(self) -> tuple[Action, ...]:
        """The house rules' decisions beside cards, the pickup and the rules' take."""
        return self._others


class Hand:
    """The state of one hand, changed only by ``apply``; every change is logged as events."""

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        *,
        seed: Seed | None = None,
        deal: Sequence[Sequence[Card]] | None = None,
        dealer: int | None = None,
        draws: Sequence[Card] | None = None,
        record: bool = True,
    ) -> None:
        if not rules.players.allows(players):
            raise EngineError(_players_refused(rules, players))
        if seed is None and deal is None:
            raise EngineError("a hand starts from a seed or an explicit deal")
        self.rules = rules
        self.players = players
        self.book = rule.RuleBook.of(rules)
        self.dealer = (rules.deal.first_dealer if dealer is None else dealer) % players
        self._step = self.book.step
        deck = self.book.deck
        self._deck_mask = mask_of(deck)
        self.removed: tuple[Card, ...] = rule.removed_cards(self.book, players)
        """H1: the cards taken out of play, face up, before the shuffle (none without it)."""
        if deal is None:
            assert seed is not None
            dealt = shuffle_deal(
                rule.dealt_deck(self.book, players), seed, players, self.dealer, self.book.deal_step
            )
        else:
            dealt = self._check_deal(deal)
        self.seed = None if seed is None else seed_bytes(seed)
        draw_seed: bytes = (
            self.seed
            if self.seed is not None
            else ("deal:" + "|".join(",".join(card_str(c) for c in h) for h in dealt)).encode()
        )
        self._draw_stream = Stream(draw_seed, DRAW_LABEL)
        self._draws = tuple(draws) if draws is not None else None
        self.draws_made: list[Card] = []
        self.deal: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in dealt)

        self.hands = [mask_of(h) for h in dealt]
        self.known = [0] * players
        self.voids = [0] * players
        """Per seat, a bitmask of suits (bit s for suit s) that the seat has shown, from
        public play alone, it holds no card of beyond its ``known`` ones: set where the
        rules refuse an off-suit card to a seat holding the led suit (``_shown_void``) and
        narrowed whenever the seat gains cards nobody saw (``_voids_lost``)."""
        self.unseen_draws: dict[Card, int] = {}
        """B8, H14: each drawn card nobody else has seen played since, with the one other
        seat that saw it (the hand it was drawn from under H14; -1 for a waste draw)."""
        self.out = [False] * players
        self.out_order: list[int] = []
        self.waste = 0
        self.out_of_play = self._deck_mask & ~sum(self.hands)
        self.phase = BEFORE_TRICK
        self.trick_number = 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_mask = 0
        self.led_suit = -1
        self.trump = self.book.trump_from_start
        """X5, H12: the trump suit once fixed (H12 ``fixed``: from the start), else -1."""
        self._tochoo_seat = -1
        """B4, H9: the (first) player of a tochoo in the current trick, else -1."""
        self._order: list[int] = []
        self._pos = 0
        self._high_seat = -1
        self._high = -1
        self._low_seat = -1
        self._low = 99
        self.turn = -1
        self.takes_this_trick = 0
        self._open_take_window(None)
        self.last_picker = -1
        """H2: the seat that last picked up cards (a pickup, a tochoo, a C12 penalty), or -1."""
        # Getting out with the power (H14-H16) and two players left (H17):
        self.choosing_draw = False
        """H14 with ``draw_from: chosen``: the leader, who has no card, must name whose hand
        to draw from (``draw:SEAT``) before anything else happens."""
        self._waste_order: list[Card] = []
        """H16: the cards as they went to the waste pile, the top last (a card that has left
        the pile since is skipped when the top is looked for)."""
        self._trick_played: list[tuple[int, Card]] = []
        """H16: the cards of the trick in play order (the list ``trick`` was while it lasted)."""
        self._drawn_lead: tuple[int, Card] = (-1, -1)
        """H17: (drawer, card) of the last draw, until the next lead."""
        self._shootout_armed = False
        """H17: this trick's lead ends the hand if the other of the last two cannot follow."""
        self.off_suit_seats: tuple[int, ...] = ()
        """H25: the seats that played off the led suit in the trick in play, in order."""
        self.false_seats: tuple[int, ...] = ()
        """H25: those of them that held the led suit (a false tochoo or discard)."""
        self.after_trick: AfterTrick | None = None
        """H25, H26: the trick just ended, while the position right after it lasts."""
        self.outcome: Outcome | None = None
        self.history: list[tuple[int, Action]] = []
        self.events: list[Event] | None = [] if record else None
        # H26: anyone may pick up out of turn, which the dead-position proof does not know
        self._dead_check = None if self.book.out_of_turn_penalty else dead_position_check(self.book)
        self.leader, self.forced_lead = self._first_leader()
        self.first_leader = self.leader
        self._log(
            HandStarted(self.dealer, self.hand_sizes(), self.leader, self.book.hand_sizes_hidden)
        )
        for seat in range(players):
            if not self.hands[seat]:
                self._go_out(seat, "emptied")
        self.trump_chooser = self._dealer_naming_trump()
        """H12 ``dealer_choice``: the seat that must name the trump suit before anything else
        happens, else -1 (also once it has)."""
        self._check_end_between_tricks()

    # --- set-up -------------------------------------------------------------------------

    def _check_deal(self, deal: Sequence[Sequence[Card]]) -> list[list[Card]]:
        if len(deal) != self.players:
            raise EngineError(f"the deal has {len(deal)} hands for {self.players} players")
        seen = 0
        for seat, cards in enumerate(deal):
            for card in cards:
                if not (0 <= card < 1024 and self._deck_mask >> card & 1):
                    raise EngineError(
                        f"seat {seat} is dealt {card_str(card) if card >= 0 else card}, "
                        f"which is not in this ruleset's deck"
                    )
                if seen >> card & 1:
                    raise EngineError(f"{card_str(card)} is dealt twice")
                seen |= 1 << card
        removed = seen & mask_of(self.removed)
        if removed:
            raise EngineError(
                f"{cards_str(removed)} is dealt, but with {self.players} players the deal "
                f"takes {cards_str(mask_of(self.removed))} out of play "
                "(deal.remainder: remove_lowest, H1)"
            )
        return [list(h) for h in deal]

    def _first_leader(self) -> tuple[int, int]:
        """C6: the holder of the lead card leads it; if it is not in play, say what leads."""
        card = self.book.first_lead_card
        for seat in range(self.players):
            if self.hands[seat] >> card & 1:
                return seat, self._opening_card(card)
        if self.book.first_lead_if_absent_highest:
            best = -1
            for held in cards_in(sum(self.hands) & self.book.suit_masks[self.book.suit[card]]):
                if best < 0 or self.book.strength[held] > self.book.strength[best]:
                    best = held
            if best >= 0:
                seat = next(s for s in range(self.players) if self.hands[s] >> best & 1)
                return seat, self._opening_card(best)
        seat = (self.dealer + self._step) % self.players
        for _ in range(self.players):
            if self.hands[seat]:
                break
            seat = (seat + self._step) % self.players
        return seat, -1

    def _opening_card(self, card: Card) -> Card:
        """C6: the card the first leader must lead; H6: none (-1), any card will do."""
        return -1 if self.book.first_lead_free else card

    def _dealer_naming_trump(self) -> int:
        """H12 ``dealer_choice``: the dealer names the trump suit (a dealer dealt no card,
        possible only in an explicit deal, leaves it to the next player still in)."""
        if not self.book.trump_named_by_dealer or len(self.active_seats()) < 2:
            return -1
        return self.dealer if not self.out[self.dealer] else self.next_active(self.dealer)

    # --- queries ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(h.bit_count() for h in self.hands)

    def active_seats(self) -> list[int]:
        return [s for s in range(self.players) if not self.out[s]]

    @property
    def to_move(self) -> int | None:
        """The seat the game waits for; None when the hand is over."""
        if self.phase == OVER:
            return None
        if self.trump_chooser >= 0:  # H12: the dealer names the trump first
            return self.trump_chooser
        if self.choosing_draw:  # H14: the drawer names whose hand, before any take pass
            return self.leader
        if self.phase == BEFORE_TRICK:
            return self._waiting_before_trick()
        return self.turn

    def trick_in_play(self) -> TrickInPlay | None:
        """The standing of the trick in play (who is still to play, the high and low
        cards so far), or None between tricks and once the hand is over."""
        if self.phase != IN_TRICK:
            return None
        return TrickInPlay(
            tuple(self._order), self._pos, self._high_seat, self._high, self._low_seat, self._low
        )

    def seats_to_act(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.phase == IN_TRICK:
            return (self.turn,)
        return tuple(
            s for s in range(self.players) if self._legal(s) != (0, 0) or self._decisions(s)
        )

    def legal_actions(self, seat: int) -> LegalActions:
        mask, flags = self._legal(seat)
        return LegalActions(mask, flags, self._decisions(seat))

    def _decisions(self, seat: int) -> tuple[Action, ...]:
        """The house rules' decisions open to ``seat`` now, beside cards, the pickup and
        the rules' own take (``_legal``): each rule that adds a decision adds it here, and
        ``_decide`` applies it."""
        if self.trump_chooser >= 0:  # H12: only the dealer's naming of the trump
            return TRUMP_CHOICES if seat == self.trump_chooser else ()
        if self.choosing_draw:
            return self._draw_choices(seat)
        decisions: tuple[Action, ...] = self._challenge_decisions(seat)  # H25
        decisions += self._take_decisions(seat)  # H20, H22, H23
        return decisions

    def _legal(self, seat: int) -> tuple[int, int]:
        """(playable card mask, CAN_PICK_UP | CAN_TAKE_HAND flags) of one seat."""
        if self.phase == IN_TRICK:
            if seat != self.turn:
                return 0, 0
            hand = self.hands[seat]
            following = hand & self.book.suit_masks[self.led_suit]
            if following:
                if self.book.challenge:  # H25: a false card is played at its player's risk
                    return hand, 0
                return following, 0
            if self.book.pickup_when_void and not (
                self.trick_number == 0 and self.book.first_trick_discards
            ):
                return 0, CAN_PICK_UP
            if self.trick_number == 0 and self.book.first_trick_void_highest:
                return self._highest_cards(hand), 0
            return hand, 0
        if self.phase == OVER or not 0 <= seat < self.players or self.out[seat]:
            return 0, 0
        if self.trump_chooser >= 0 or self.choosing_draw:  # H12, H14: only that choice
            return 0, 0
        flags = CAN_TAKE_HAND if self._may_take_hand(seat) else 0
        if seat != self.leader or self._lead_waits():
            return 0, flags
        if self.forced_lead >= 0:
            return 1 << self.forced_lead, flags
        return self.hands[seat], flags

    def _highest_cards(self, hand: int) -> int:
        """H5: the cards of ``hand`` of its highest rank (strength), whatever their suit."""
        strength = self.book.strength
        top = max(strength[c] for c in cards_in(hand))
        return mask_of(c for c in cards_in(hand) if strength[c] == top)

    def _may_take_hand(self, seat: int) -> bool:
        """The rules' bare take (B9): open when the rules name whose hand (not H23's
        choice) and somebody's may be taken now."""
        if not self.book.take_hand or self.book.take_choice != rule.NAMED:
            return False
        return bool(self._take_targets(seat))

    def _take_target(self, seat: int) -> int:
        """The hand a bare take takes: the one the rules name (B9, H23 next in turn; H24:
        the debtor), or -1."""
        found = self._take_candidates(seat)
        return found[0] if found else -1

    # --- taking a hand: who may take whose, and when (B9, X1, H20-H24) -------------------

    def _open_take_window(self, debt: tuple[int, int] | None) -> None:
        """A new trick's window for taking hands: no request waiting (H20), nobody refused
        (H20), no take pass begun (H22); ``debt`` is H24's (creditor, debtor) or None."""
        self.take_request: tuple[int, int] | None = None
        """H20: (taker, seat) of the request the game waits for ``seat`` to answer."""
        self.take_refusals: frozenset[tuple[int, int]] = frozenset()
        """H20: (taker, seat) pairs refused before this trick: that taker may not ask again."""
        self.take_pass_from = -1
        """H22: the leader when the pass began (-1: no seat has acted in it yet)."""
        self.take_pass_next = 0
        """H22: how many seats of the round from ``take_pass_from`` have had their turn."""
        self.take_debt: tuple[int, int] | None = debt
        """H24: (creditor, debtor) until the next trick is led."""

    def _waiting_before_trick(self) -> int:
        """The seat the game waits for before a trick: H20's asked player, the seat whose
        turn it is in H22's pass, else the leader."""
        if self.take_request is not None:
            return self.take_request[1]
        if self.book.take_pass_in_turn:
            asked = self._asked_in_pass()
            if asked >= 0:
                return asked
        return self.leader

    def _lead_waits(self) -> bool:
        """The leader may not lead yet: a request waits for its answer (H20) or the take
        pass (H22) is not round."""
        return self.take_request is not None or (
            self.book.take_pass_in_turn and self._asked_in_pass() >= 0
        )

    def _asked_in_pass(self) -> int:
        """H22: the seat whose turn it is in the take pass, or -1 when the pass is round.

        The pass goes once round the table from the leader in the direction of play; a
        seat that is out or may not take at its turn (nobody it may take from, H21, H24)
        is skipped."""
        start = self.leader if self.take_pass_from < 0 else self.take_pass_from
        for offset in range(self.take_pass_next, self.players):
            seat = (start + self._step * offset) % self.players
            if not self.out[seat] and self._open_targets(seat):
                return seat
        return -1

    def _take_targets(self, seat: int) -> tuple[int, ...]:
        """Every seat whose hand ``seat`` may take (or ask for, H20) now."""
        if self.book.take_pass_in_turn and self._asked_in_pass() != seat:
            return ()
        return self._open_targets(seat)

    def _open_targets(self, seat: int) -> tuple[int, ...]:
        """Whose hand ``seat`` may take now, H22's turn in the pass aside."""
        book = self.book
        if (
            not book.take_hand
            or self.phase != BEFORE_TRICK
            or self.out[seat]
            or self.take_request is not None
        ):
            return ()
        if book.take_hand_leader_only and seat != self.leader:
            return ()
        if book.take_hand_once_per_trick and self.takes_this_trick:
            return ()
        if not book.take_before_first_trick and self.trick_number == 0:
            return ()
        if not book.take_with_two_left and self.out.count(False) <= 2:
            return ()
        found = self._take_candidates(seat)
        if book.take_consent and self.take_refusals:
            found = tuple(t for t in found if (seat, t) not in self.take_refusals)
        return found

    def _take_candidates(self, seat: int) -> tuple[int, ...]:
        """Whose hand ``seat``'s side of the table offers (``take_hand.from``); under H24
        only the hand of the neighbour who owes it."""
        if self.book.take_owed_by_tochoo:
            debt = self.take_debt
            if debt is None or debt[0] != seat or self.out[debt[1]]:
                return ()
            return (debt[1],)
        return self._side_candidates(seat)

    def _side_candidates(self, seat: int) -> tuple[int, ...]:
        """B9/H23: the players still in that ``take_hand.from`` lets ``seat`` take from."""
        choice = self.book.take_choice
        if choice == rule.ANYONE:
            return tuple(s for s in range(self.players) if s != seat and not self.out[s])
        if choice == rule.NEIGHBOURS:
            found = {take_target(self.out, seat, 1), take_target(self.out, seat, -1)}
            return tuple(sorted(s for s in found if s >= 0))
        target = take_target(self.out, seat, self.book.take_step)
        return (target,) if target >= 0 else ()

    def _take_decisions(self, seat: int) -> tuple[Action, ...]:
        """H20's answer, H23's chosen takes and H22's pass, where the rules offer them."""
        book = self.book
        if self.phase != BEFORE_TRICK or not book.take_hand:
            return ()
        if not (book.take_consent or book.take_pass_in_turn or book.take_choice != rule.NAMED):
            return ()
        if self.take_request is not None:
            return (AGREE, REFUSE) if self.take_request[1] == seat else ()
        targets = self._take_targets(seat)
        if not targets:
            return ()
        found = [Action.take(t) for t in targets] if book.take_choice != rule.NAMED else []
        if book.take_pass_in_turn:
            found.append(PASS)
        return tuple(found)

    def _tochoo_debt(self, how: str, picker: int) -> tuple[int, int] | None:
        """H24: (picker, tochoo player) when the trick just ended by a tochoo of the
        picker's neighbour on the side ``take_hand.from`` names; else None.  Called before
        the trick is settled, so that the neighbours are those who played it."""
        if not self.book.take_owed_by_tochoo or how != "tochoo" or not self.trick:
            return None
        player = self.trick[-1][0]
        if player == picker or player not in self._side_candidates(picker):
            return None
        return picker, player

    def _take_default(self, seat: int) -> Action | None:
        """What the turn clock does for a seat the game waits for with a take decision:
        H20 refuses (nothing changes), H22 passes; the clock never takes a hand."""
        if self.take_request is not None and self.take_request[1] == seat:
            return REFUSE
        if (
            self.book.take_pass_in_turn
            and self.phase == BEFORE_TRICK
            and (self._asked_in_pass() == seat)
        ):
            return PASS
        return None

    def next_active(self, seat: int) -> int:
        """The next player in turn after ``seat`` who is still in the hand."""
        step = self._step
        nxt = (seat + step) % self.players
        while self.out[nxt] and nxt != seat:
            nxt = (nxt + step) % self.players
        return nxt

    # --- checking -----------------------------------------------------------------------

    def judge(self, seat: int, action: Action) -> Judgement:
        """Whether ``seat`` may do ``action`` now: legal, penalised (C12) or refused, and why.

        ``verify``, ``can`` and ``apply`` all decide by this one answer."""
        reason, message = self._why_not(seat, action)
        if reason is None:
            return LEGAL
        verdict = Verdict.REFUSED
        if reason is Reason.MUST_FOLLOW_SUIT and self.book.illegal_play_penalty:
            verdict = Verdict.PENALISED
            message += f"; the penalty (C12): seat {seat} picks up the trick"
        elif reason is Reason.NOT_YOUR_TURN and self._out_of_turn_punished(seat, action):
            verdict = Verdict.PENALISED
            message += (
                f"; the penalty (H26): seat {seat} keeps the card, picks up the "
                f"{'trick' if self.phase == IN_TRICK else 'trick just picked up'} and leads"
            )
        known = reason is not Reason.UNKNOWN_SEAT
        return Judgement(
            verdict,
            reason,
            message,
            to_move=self.to_move,
            led_suit=self.led_suit if self.phase == IN_TRICK else None,
            forced_lead=self.forced_lead if self.forced_lead >= 0 else None,
            legal_actions=tuple(self.legal_actions(seat)) if known else (),
        )

    def verify(self, seat: int, action: Action) -> None:
        """Raise IllegalActionError with the reason unless ``seat`` may play ``action`` as it
        stands (a penalised card raises too: it is not a legal play)."""
        judgement = self.judge(seat, action)
        if judgement is not LEGAL:
            raise judgement.error(seat, action)

    def can(self, seat: int, action: Action) -> bool:
        return self.judge(seat, action) is LEGAL

    def _why_not(self, seat: int, action: Action) -> tuple[Reason | None, str]:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return Reason.UNKNOWN_SEAT, f"there is no seat {seat} at a table of {self.players}"
        if self.phase == OVER:
            return Reason.HAND_OVER, "the hand is over"
        if self.out[seat]:
            return Reason.PLAYER_OUT, f"seat {seat} is out of this hand"
        mask, flags = self._legal(seat)
        kind = action.kind
        if kind is not ActionKind.PLAY and action in self._decisions(seat):
            return None, ""
        if kind is ActionKind.TAKE_HAND:
            if action == TAKE_HAND and flags & CAN_TAKE_HAND:
                return None, ""
            return Reason.TAKE_HAND_NOT_ALLOWED, self._why_no_take(seat, action)
        if kind not in (ActionKind.PLAY, ActionKind.PICK_UP):
            return Reason.ACTION_NOT_ALLOWED, (
                f"seat {seat} may not {action} now: its legal actions are "
                f"{', '.join(str(a) for a in self.legal_actions(seat)) or 'none'}"
            )
        if self.to_move != seat:
            return Reason.NOT_YOUR_TURN, f"it is seat {self.to_move}'s turn, not seat {seat}'s"
        if self.trump_chooser >= 0:
            return Reason.ACTION_NOT_ALLOWED, (
                f"seat {seat} must first name the trump suit (H12): "
                f"{', '.join(str(a) for a in TRUMP_CHOICES)}"
            )
        if self.phase == BEFORE_TRICK and self._lead_waits():
            return Reason.ACTION_NOT_ALLOWED, self._why_lead_waits(seat)
        if kind is ActionKind.PICK_UP:
            if flags & CAN_PICK_UP:
                return None, ""
            if (
                mask
                and self.phase == IN_TRICK
                and self.hands[seat] & self.book.suit_masks[self.led_suit]
            ):
                return (
                    Reason.PICKUP_NOT_ALLOWED,
                    f"seat {seat} can follow {_suit_name(self.led_suit)}, so must not pick up",
                )
            return Reason.PICKUP_NOT_ALLOWED, "these rules have no pickup here"
        card = action.card
        if card is None or not 0 <= card < 1024 or not self._deck_mask >> card & 1:
            return Reason.CARD_NOT_IN_DECK, f"{action} is not a card of this ruleset's deck"
        if not self.hands[seat] >> card & 1:
            return Reason.CARD_NOT_IN_HAND, f"seat {seat} does not hold {card_str(card)}"
        if mask >> card & 1:
            return None, ""
        if self.phase == BEFORE_TRICK:
            return (
                Reason.MUST_LEAD_CARD,
                f"seat {seat} must lead {card_str(self.forced_lead)}, not {card_str(card)}",
            )
        if flags & CAN_PICK_UP:
            return (
                Reason.MUST_PICK_UP,
                f"seat {seat} cannot follow {_suit_name(self.led_suit)} and must pick up",
            )
        if not self.hands[seat] & self.book.suit_masks[self.led_suit]:  # H5
            return (
                Reason.ACTION_NOT_ALLOWED,
                f"seat {seat} cannot follow {_suit_name(self.led_suit)} on the first trick "
                f"and must play one of its highest cards (H5: {cards_str(mask)}), "
                f"not {card_str(card)}",
            )
        return (
            Reason.MUST_FOLLOW_SUIT,
            f"seat {seat} holds {_suit_name(self.led_suit)} and must follow suit "
            f"({cards_str(mask)}), not play {card_str(card)}",
        )

    def _why_no_take(self, seat: int, action: Action = TAKE_HAND) -> str:
        book = self.book
        if not book.take_hand:
            return "these rules do not allow taking a hand"
        if self.choosing_draw:
            return f"no hand may be taken while seat {self.leader} chooses whom to draw from"
        if self.phase != BEFORE_TRICK:
            return "a hand may be taken only before a trick"
        if self.trump_chooser >= 0:
            return f"seat {self.trump_chooser} must first name the trump suit (H12)"
        if self.take_request is not None:
            taker, asked = self.take_request
            return (
                f"seat {taker} has asked for seat {asked}'s hand (H20): the game waits for "
                f"seat {asked} to agree or refuse"
            )
        if book.take_hand_leader_only and seat != self.leader:
            return "a hand may be taken only by the player about to lead"
        if book.take_hand_once_per_trick and self.takes_this_trick:
            return "a hand was already taken before this trick"
        if not book.take_before_first_trick and self.trick_number == 0:
            return "no hand may be taken before the first trick (H21)"
        if not book.take_with_two_left and self.out.count(False) <= 2:
            return "no hand may be taken with only two players left (H21)"
        if book.take_pass_in_turn:
            asked = self._asked_in_pass()
            if asked != seat:
                return (
                    f"in the take pass (H22) it is seat {asked}'s turn to take or pass"
                    if asked >= 0
                    else "the take pass before this trick (H22) is over"
                )
        if book.take_owed_by_tochoo and not self._take_candidates(seat):
            return (
                "only a player who had to pick up a neighbour's tochoo may take, that "
                "neighbour's hand, before the next trick (H24)"
            )
        targets = self._open_targets(seat)
        named = ", ".join(f"take:{t}" for t in targets)
        if book.take_choice != rule.NAMED:
            if action.seat is None:
                return f"name whose hand to take (H23): {named or 'nobody may be chosen'}"
            if targets:
                return f"seat {seat} may not take seat {action.seat}'s hand: it may {named}"
        elif action.seat is not None and targets:
            return f"these rules name whose hand is taken (seat {targets[0]}'s): write take"
        if book.take_consent and self._take_candidates(seat):
            return f"everyone seat {seat} may ask has refused it before this trick (H20)"
        return "there is nobody left whose hand could be taken"

    def _why_lead_waits(self, seat: int) -> str:
        if self.take_request is not None:
            taker = self.take_request[0]
            return f"seat {seat} must first agree to or refuse seat {taker}'s request (H20)"
        return f"seat {seat} must first take a hand or pass in the take pass (H22)"

    def default_action(self, seat: int) -> Action:
        """What the referee plays for ``seat`` when its turn clock runs out: the legal card
        the ruleset's ``timeout_move`` names (lowest or highest in strength, ties to the
        first in card order; never a false card, H25), else a pickup, else the first
        decision a house rule offers it (H27: a consent, a pass, a trump, a target);
        never taking a hand or challenging.  Only the seat the game waits for has one."""
        if self.phase == OVER:
            raise EngineError("the hand is over: no seat has a move to make")
        if seat != self.to_move:
            raise EngineError(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
        if self.trump_chooser >= 0:  # H12: the suit the dealer holds most of
            return Action.choose_trump(longest_suit(self.book, self.hands[seat]))
        if self.choosing_draw:  # H14: the clock draws from the next player still in
            return Action.draw_from(self.next_active(seat))
        decision = self._take_default(seat)
        if decision is not None:
            return decision
        mask, flags = self._legal(seat)
        if self.book.challenge and self.phase == IN_TRICK:  # H25: the clock does not cheat
            mask = mask & self.book.suit_masks[self.led_suit] or mask
        if mask:
            strength = self.book.strength
            if self.book.timeout_card == rule.HIGHEST:
                card = max(cards_in(mask), key=lambda c: (strength[c], -c))
            else:
                card = min(cards_in(mask), key=lambda c: (strength[c], c))
            return Action.play(card)
        if flags & CAN_PICK_UP:
            return PICK_UP
        for decision in self._decisions(seat):
            if decision.kind not in (ActionKind.TAKE_HAND, ActionKind.CHALLENGE):
                return decision
        raise AssertionError("the seat to move always has a card, a pickup or a decision")

    # --- applying -----------------------------------------------------------------------

    def apply(self, seat: int, action: Action, *, verified: bool = False) -> list[Event]:
        """Check and apply one action; return the events it caused.  Refused: nothing changes.

        A penalised card (``judge`` says PENALISED) is applied as its penalty.

        ``verified``: the caller has just had ``judge(seat, action)`` find it LEGAL on this
        very state (a referee checks before it stores), so the check is not made twice."""
        if not verified:
            judgement = self.judge(seat, action)
            if judgement is not LEGAL:
                if judgement.verdict is Verdict.PENALISED and action.card is not None:
                    if judgement.reason is Reason.NOT_YOUR_TURN:  # H26
                        return self._run(seat, action, Hand._penalise_out_of_turn, action.card)
                    return self._run(seat, action, Hand._penalise, action.card)
                raise judgement.error(seat, action)
        if action is TAKE_HAND or action == TAKE_HAND:
            return self._run(seat, action, Hand._take_hand, -1)
        if action.kind not in (ActionKind.PLAY, ActionKind.PICK_UP):
            return self._run(seat, action, lambda hand, s, _c: hand._decide(s, action), -1)
        if action.kind is ActionKind.PICK_UP:
            return self._run(seat, action, Hand._pick_up, -1)
        assert action.card is not None
        return self._run(seat, action, Hand._play, action.card)

    def _run(
        self, seat: int, action: Action, step: Callable[[Hand, int, int], None], card: int
    ) -> list[Event]:
        if self._draws is not None and len(self.draws_made) < len(self._draws):
            # An explicit B8 draw may name a card that is not in the waste pile when the draw
            # comes, which shows only part-way through the action: make it on a copy first,
            # so that an impossible draw raises with this hand unchanged.  (Only while an
            # explicit draw is still to come: the seeded draws cannot fail.)
            step(self.copy(record=False), seat, card)
        start = len(self.events) if self.events is not None else 0
        if (
            self.after_trick is not None
            and action.kind is not ActionKind.CHALLENGE
            and step is not Hand._penalise_out_of_turn
        ):
            self.after_trick = None  # H25, H26: the table moved on from the trick just ended
        step(self, seat, card)
        self.history.append((seat, action))
        return self.events[start:] if self.events is not None else []

    def _decide(self, seat: int, action: Action) -> None:
        """Apply a house rule's decision that ``_decisions`` offered (H12, H14, H20, H22,
        H23, H25)."""
        if action.kind is ActionKind.CHOOSE_TRUMP and action.suit is not None:
            self._name_trump(seat, action.suit)
            return
        if action.kind is ActionKind.DRAW_FROM and action.seat is not None:
            self._draw_chosen(seat, action.seat)
            return
        if action.kind is ActionKind.CHALLENGE:
            self._challenge(seat)
            return
        if action.kind in _TAKE_DECISIONS:
            self._decide_take(seat, action)
            return
        raise AssertionError(f"no rule applies {action}, yet it was offered as legal")

    def _name_trump(self, seat: int, suit: int) -> None:
        """H12 ``dealer_choice``: the dealer's suit is trump for the hand; the lead may go."""
        self.trump = suit
        self.trump_chooser = -1
        self._log(TrumpFixed(seat, "CDHS"[suit], self.trick_number))

    def _log(self, event: Event) -> None:
        if self.events is not None:
            self.events.append(event)

    def _play(self, seat: int, card: Card) -> None:
        book = self.book
        if self.phase == IN_TRICK and book.suit[card] != self.led_suit:
            if book.challenge:
                self._note_off_suit(seat, card)
            else:
                self._shown_void(seat)
        self.hands[seat] ^= 1 << card
        self.known[seat] &= ~(1 << card)
        self.unseen_draws.pop(card, None)
        if self.phase == BEFORE_TRICK:
            self._lead(seat, card)
            return
        self.trick.append((seat, card))
        self.trick_mask |= 1 << card
        self._pos += 1
        if book.suit[card] == self.led_suit:
            strength = book.strength[card]
            if strength > self._high or (strength == self._high and book.later_identical_wins):
                self._high, self._high_seat = strength, seat
            if strength < self._low or (strength == self._low and not book.later_identical_wins):
                self._low, self._low_seat = strength, seat
            self._log(CardPlayed(seat, card, self.trick_number, "follow"))
        elif book.suit[card] == self.trump:
            strength = book.strength[card] + rule.TRUMP_BONUS
            if strength > self._high or (strength == self._high and book.later_identical_wins):
                self._high, self._high_seat = strength, seat
            self._log(CardPlayed(seat, card, self.trick_number, "trump"))
        else:
            if book.trump_from_first_off_suit and self.trump < 0:
                self.trump = book.suit[card]
                self._log(TrumpFixed(seat, "CDHS"[self.trump], self.trick_number))
            if book.tochoo_ends_trick and not (
                self.trick_number == 0 and book.first_trick_discards
            ):
                self._log(CardPlayed(seat, card, self.trick_number, "tochoo"))
                self._tochoo_seat = seat
                picker = self._high_seat if book.tochoo_picked_up_by_high else seat
                self._end_trick("tochoo", picker)
                return
            if book.tochoo_plays_on and not (self.trick_number == 0 and book.first_trick_discards):
                # H9: a tochoo that does not stop the trick; the first one's player is noted
                self._log(CardPlayed(seat, card, self.trick_number, "tochoo"))
                if self._tochoo_seat < 0:
                    self._tochoo_seat = seat
            else:
                self._log(CardPlayed(seat, card, self.trick_number, "discard"))
        if self._pos == len(self._order):
            if self._tochoo_seat >= 0:  # H9: a trick with a tochoo is picked up at its end
                high = book.tochoo_picked_up_by_high
                self._end_trick("tochoo", self._high_seat if high else self._tochoo_seat)
            else:
                self._end_trick("complete", -1)
        else:
            self.turn = self._order[self._pos]

    def _lead(self, seat: int, card: Card) -> None:
        order = [seat]
        nxt = self.next_active(seat)
        while nxt != seat:
            order.append(nxt)
            nxt = self.next_active(nxt)
        self._order = order
        self._pos = 1
        self.trick = [(seat, card)]
        self.trick_mask = 1 << card
        self.led_suit = self.book.suit[card]
        self._high = self._low = self.book.strength[card]
        self._high_seat = self._low_seat = seat
        self.forced_lead = -1
        self._tochoo_seat = -1
        self.phase = IN_TRICK
        self.off_suit_seats = self.false_seats = ()
        self.turn = order[1]
        if self.book.power_rules:
            self._note_lead(seat, card, order)
        self._log(CardPlayed(seat, card, self.trick_number, "lead"))

    def _pick_up(self, seat: int, _card: int) -> None:
        self._shown_void(seat)  # P1: only a seat that cannot follow may pick up
        self._end_trick("pickup", seat)

    def _shown_void(self, seat: int) -> None:
        """``seat`` could not follow the led suit, and the rules prove it: every off-suit
        card that reaches ``_play`` in a trick, and every pickup (P1), was legal only to a
        seat without the led suit (on the first trick too: B1's discards and H5's highest
        cards are for a seat that cannot follow).  Not called where a seat holding the led
        suit may play off it: H25's false cards (``book.challenge``); a C12 or H26 penalty
        never plays its card, and a C12 one proves the seat holds the suit."""
        self.voids[seat] |= 1 << self.led_suit

    def _voids_lost(self, seat: int, cards: int) -> None:
        """``seat`` takes in cards nobody saw, ``cards`` a mask that every player could
        name as holding them all (so that its suits are public): no suit of them is shown
        void any more."""
        suits = self.book.suit
        for card in cards_in(cards):
            self.voids[seat] &= ~(1 << suits[card])

    def _penalise(self, seat: int, card: int) -> None:
        self._log(IllegalPlayPenalised(seat, card))
        self._end_trick("pickup", seat, penalty=True)

    def _end_trick(
        self, how: str, picker: int, *, penalty: bool = False, picker_leads: bool = False
    ) -> None:
        """Settle a finished trick: pickup, next leader, who goes out, B8 draws, the end.

        ``picker_leads``: the picker leads next whatever the rules say (H26's penalty)."""
        book = self.book
        trick_mask = self.trick_mask
        number = self.trick_number
        order = self._order
        high = self._high_seat
        played = self.trick
        debt = self._tochoo_debt(how, picker)
        if how == "complete":
            next_leader = high if book.complete_next_high else self._low_seat
        else:
            self.hands[picker] |= trick_mask
            self.known[picker] |= trick_mask
            self.last_picker = picker
            from_waste = 0
            if book.pickup_takes_waste and self.waste:
                from_waste = self.waste.bit_count()
                # V4: face down, but the pile is the tricks every player saw go to it (and
                # the cards drawn from it and not seen since, which may be in it)
                self._voids_lost(picker, self.waste | self._waste_drawn())
                self.hands[picker] |= self.waste
                self.waste = 0
            self._log(
                PickedUp(
                    picker,
                    tuple(c for _, c in self.trick),
                    from_waste,
                    penalty=penalty,
                    sizes_hidden=book.hand_sizes_hidden,
                )
            )
            if book.after_pickup == rule.PICKER:
                next_leader = picker
            elif book.after_pickup == rule.HIGHEST:
                next_leader = high
            elif book.after_pickup == rule.TOCHOO_PLAYER:  # H9 (P2 after a penalty pickup)
                next_leader = self._tochoo_seat if self._tochoo_seat >= 0 else picker
            else:
                next_leader = self._low_seat
        if number == 0 and book.first_trick_first_leader_leads:
            next_leader = self.first_leader
        if picker_leads:
            next_leader = picker
        trick_cards = tuple(self.trick)
        self.trick = []
        self.trick_mask = 0
        self.phase = BEFORE_TRICK
        self.trick_number = number + 1
        self.takes_this_trick = 0
        self._open_take_window(debt)
        self.forced_lead = -1

        if book.power_rules and self._two_left_ends(how, order, number, high, penalty):
            return
        if how != "complete" and book.two_left_pickup_loses and len(order) == 2:
            self._log(TrickEnded(number, how, high, None))
            self._go_out(order[1] if order[0] == picker else order[0], "two_left_pickup")
            self._finish(Termination.TWO_LEFT_PICKUP, picker)
            return

        # B8: the player due to lead with no card cannot escape; they will draw.
        drawer, escaped = self._power_drawer(next_leader, how, order, high)
        leaving = [s for s in order if not self.hands[s] and s != drawer]
        remaining = [s for s in range(self.players) if not self.out[s] and s not in leaving]
        if len(remaining) <= 1:
            # C10/C11: the loser is decided before anyone is declared safe, so that the
            # Bhabhi of an all-out trick is never listed as having got away.
            loser = remaining[0] if remaining else self._all_out_loser(leaving[-1], high)
            self._log(TrickEnded(number, how, high, None))
            for seat in leaving:
                if seat != loser:
                    self._go_out(seat, "waste_empty" if seat == escaped else "emptied")
            if how == "complete":
                self._discard_trick(number, trick_mask)
            self._finish(Termination.LAST_PLAYER if remaining else Termination.ALL_OUT, loser)
            return
        for seat in leaving:
            self.out[seat] = True
        if book.lead_passes_down and how == "complete" and next_leader == high:
            # H10: the winner of a clean trick is out; the next-highest card still in leads
            next_leader = self._next_highest_in(played, next_leader)
        if self.out[next_leader]:
            next_leader = self.next_active(next_leader)
        for seat in leaving:
            self.out[seat] = False
        self._log(TrickEnded(number, how, high, next_leader))
        for seat in leaving:
            self._go_out(seat, "waste_empty" if seat == escaped else "emptied")
        self.leader = next_leader
        if drawer >= 0:
            trick_mask = self._draw_for(drawer, how, number, trick_mask)
        if how == "complete" and trick_mask:
            self._discard_trick(number, trick_mask)
        self._keep_after_trick(number, trick_cards, -1 if how == "complete" else picker)
        self._check_end_between_tricks()

    def _next_highest_in(self, played: Sequence[tuple[int, Card]], winner: int) -> int:
        """H10: the player of the highest card of the led suit (a trump above it) in
        ``played`` who is still in (the winner, if in); ``winner`` when none is (P3 then
        passes the lead on)."""
        book = self.book
        ranked: list[tuple[int, int, int]] = []
        for position, (seat, card) in enumerate(played):
            if book.suit[card] == self.led_suit:
                strength = book.strength[card]
            elif book.suit[card] == self.trump:
                strength = book.strength[card] + rule.TRUMP_BONUS
            else:
                continue  # a discard or a tochoo does not rank
            later = position if book.later_identical_wins else -position
            ranked.append((strength, later, seat))
        for _, _, seat in sorted(ranked, reverse=True):
            if not self.out[seat]:
                return seat
        return winner

    def _discard_trick(self, number: int, trick_mask: int) -> None:
        self.waste |= trick_mask
        if self.book.draw_top:  # H16: the pile keeps its order, a trick's cards as played
            self._waste_order.extend(c for _, c in self._trick_played if trick_mask >> c & 1)
        self._log(TrickToWaste(number, tuple(cards_in(trick_mask))))

    def _draw(self) -> Card:
        if self.book.draw_top:
            return self._draw_top()
        waste = list(cards_in(self.waste))
        index = len(self.draws_made)
        if self._draws is not None and index < len(self._draws):
            card = self._draws[index]
            if not self.waste >> card & 1:
                raise EngineError(
                    f"draw {index + 1} is given as {card_str(card)}, which is not in the "
                    f"waste pile ({cards_str(self.waste)})"
                )
        else:
            card = waste[self._draw_stream.uniform(len(waste))]
        self.draws_made.append(card)
        return card

    def _waste_drawn(self) -> int:
        """B8: the cards drawn from the waste pile and not seen since (a mask): to every
        other player the pile may still hold any of them."""
        return _drawn(self.unseen_draws, -1)

    def _all_out_loser(self, last_to_play: int, high: int) -> int | None:
        choice = self.book.all_out_together
        if choice == rule.NOBODY:
            return None
        return last_to_play if choice == rule.LAST_TO_PLAY else high

    def _take_hand(self, seat: int, _card: int) -> None:
        """The rules' bare take (B9): of the hand they name, or H20's request for it."""
        self._ask_or_take(seat, self._take_target(seat))

    def _decide_take(self, seat: int, action: Action) -> None:
        """H20's answer, H22's pass, H23's take of a chosen hand."""
        kind = action.kind
        if kind is ActionKind.TAKE_HAND:
            assert action.seat is not None
            self._ask_or_take(seat, action.seat)
        elif kind is ActionKind.PASS:
            self._pass_turn_taken(seat)
            self._log(TakePassed(seat, self.trick_number))
        else:
            assert self.take_request is not None
            taker, asked = self.take_request
            self.take_request = None
            agreed = kind is ActionKind.AGREE
            self._log(TakeAnswered(asked, taker, agreed))
            if agreed:
                self._pass_turn_taken(taker)
                self._hand_over_to(taker, asked)
            else:
                self.take_refusals |= {(taker, asked)}

    def _ask_or_take(self, seat: int, target: int) -> None:
        if self.book.take_consent:  # H20: ask; the take waits for the answer
            if self.book.take_pass_in_turn and self.take_pass_from < 0:
                self.take_pass_from = self.leader
            self.take_request = (seat, target)
            self._log(TakeRequested(seat, target))
            return
        self._pass_turn_taken(seat)
        self._hand_over_to(seat, target)

    def _pass_turn_taken(self, seat: int) -> None:
        """H22: ``seat`` has had its turn in the take pass (before the take it made, which
        may change the leader the pass started from)."""
        if not self.book.take_pass_in_turn:
            return
        if self.take_pass_from < 0:
            self.take_pass_from = self.leader
        offset = (seat - self.take_pass_from) * self._step % self.players
        self.take_pass_next = max(self.take_pass_next, offset + 1)

    def _hand_over_to(self, seat: int, target: int) -> None:
        """B9: ``seat`` takes every card of ``target``, who has got away."""
        taken = self.hands[target]
        self.hands[seat] |= taken
        self.known[seat] |= self.known[target]
        self.voids[seat] &= self.voids[target]  # void now only where both hands were
        self.hands[target] = 0
        self.known[target] = 0
        self.takes_this_trick += 1
        self._log(
            HandTaken(
                seat,
                target,
                taken.bit_count(),
                tuple(cards_in(taken)),
                sizes_hidden=self.book.hand_sizes_hidden,
            )
        )
        self._go_out(target, "hand_taken")
        if target == self.leader:
            if self.trick_number == 0:
                self.leader, self.forced_lead = self._first_leader()
                self.first_leader = self.leader
            else:
                self.forced_lead = -1
                self.leader = seat if self.book.lead_passes_to_taker else self.next_active(target)
        self._check_end_between_tricks()

    def _go_out(self, seat: int, how: str) -> None:
        self.out[seat] = True
        self.out_order.append(seat)
        self._log(PlayerOut(seat, how))

    def _check_end_between_tricks(self) -> None:
        if self.phase == OVER or self.choosing_draw:  # H14: after the draw, not before
            return
        active = self.active_seats()
        if len(active) <= 1:
            self._finish(
                Termination.LAST_PLAYER if active else Termination.ALL_OUT,
                active[0] if active else None,
            )
            return
        if self.trick_number >= self.book.max_tricks:
            self._finish(Termination.MAX_TRICKS, self._forced_loser(self.book.at_max_most_cards))
            return
        if self._dead_check is not None and self.trick_number > 0 and self._dead_check(self):
            self._finish(
                Termination.DEAD_POSITION, self._forced_loser(self.book.at_dead_most_cards)
            )

    def _forced_loser(self, most_cards: bool) -> int | None:
        if not most_cards:
            return None
        sizes = [(self.hands[s].bit_count(), s) for s in self.active_seats()]
        top = max(n for n, _ in sizes)
        holders = [s for n, s in sizes if n == top]
        return holders[0] if len(holders) == 1 else None

    def _finish(self, termination: Termination, bhabhi: int | None) -> None:
        team: tuple[int, ...] | None = None
        if bhabhi is not None and self.book.teams:
            partner = (bhabhi + self.players // 2) % self.players
            team = (min(bhabhi, partner), max(bhabhi, partner))
        self.outcome = Outcome(termination, bhabhi, tuple(self.out_order), team)
        self.phase = OVER
        self.turn = -1
        self._log(HandOver(self.outcome))

    # --- getting out with the power (B8, H14-H16) and two players left (H17-H19) ---------

    def _power_drawer(
        self, next_leader: int, how: str, order: list[int], high: int
    ) -> tuple[int, int]:
        """Whether the player due to lead, with no card, must draw (B8, H14): (the drawer or
        -1, the player who got away because the waste pile was empty or -1)."""
        book = self.book
        if not book.leader_draws or self.hands[next_leader]:
            return -1, -1
        if (
            book.two_left_power_escapes
            and how == "complete"
            and len(order) == 2
            and next_leader == high
        ):
            return -1, -1  # H19: with two left the winning last card gets away at once
        if book.draws_from_player:
            return next_leader, -1  # H14: every other player still in holds cards
        with_trick = how == "complete" and (
            book.draw_from_trick_when_waste_empty or book.draw_pile_with_trick
        )
        if not self.waste and not with_trick:
            return -1, next_leader
        return next_leader, -1

    def _draw_for(self, drawer: int, how: str, number: int, trick_mask: int) -> int:
        """Make the draw of ``drawer`` (B8, H14-H16); return the trick's cards still to go
        to the waste pile (0 when they went before the draw)."""
        book = self.book
        if book.draws_from_player:
            # H14: the draw is not from the pile, so the trick goes to it first.
            if how == "complete" and trick_mask:
                self._discard_trick(number, trick_mask)
            if book.draw_from_chosen and len(self._draw_targets(drawer)) > 1:
                self.choosing_draw = True
            else:
                self._draw_from_hand(drawer, self.next_active(drawer))
            return 0
        if how == "complete" and trick_mask and (not self.waste or book.draw_pile_with_trick):
            self._discard_trick(number, trick_mask)  # if_waste_empty: draws_from_trick, H15
            trick_mask = 0
        # The drawer had no card: it holds none but of the suits that may be drawn.
        self.voids[drawer] = 0b1111
        self._voids_lost(drawer, self.waste | self._waste_drawn())
        card = self._draw()
        self.waste &= ~(1 << card)
        self.hands[drawer] = 1 << card
        self.unseen_draws[card] = -1
        self.forced_lead = card
        self._drawn_lead = (drawer, card)
        self._log(WasteDrawn(drawer, card))
        return trick_mask

    def _draw_top(self) -> Card:
        """H16: the card on top of the waste pile, the one that went to it last."""
        order = self._waste_order
        while order and not self.waste >> order[-1] & 1:
            order.pop()  # it left the pile since (drawn, or picked up with it under V4)
        card = order.pop() if order else max(cards_in(self.waste))
        index = len(self.draws_made)
        if self._draws is not None and index < len(self._draws) and self._draws[index] != card:
            raise EngineError(
                f"draw {index + 1} is given as {card_str(self._draws[index])}, but the draw "
                f"takes the top card of the waste pile (H16), {card_str(card)}"
            )
        self.draws_made.append(card)
        return card

    def _draw_targets(self, drawer: int) -> list[int]:
        """H14: every other player still in, in turn from the drawer."""
        targets = []
        seat = self.next_active(drawer)
        while seat != drawer:
            targets.append(seat)
            seat = self.next_active(seat)
        return targets

    def _draw_choices(self, seat: int) -> tuple[Action, ...]:
        if seat != self.leader:
            return ()
        return tuple(Action.draw_from(target) for target in self._draw_targets(seat))

    def _draw_chosen(self, seat: int, target: int) -> None:
        """H14: the drawer named whose hand; draw, then the hand goes on as after a trick."""
        self.choosing_draw = False
        self._draw_from_hand(seat, target)
        self._check_end_between_tricks()

    def _draw_from_hand(self, drawer: int, target: int) -> None:
        """H14: a card at random from ``target``'s hand to ``drawer``, who must lead it.
        Whose last card it was has got away."""
        hand = self.hands[target]
        index = len(self.draws_made)
        if self._draws is not None and index < len(self._draws):
            card = self._draws[index]
            if not hand >> card & 1:
                raise EngineError(
                    f"draw {index + 1} is given as {card_str(card)}, which seat {target} "
                    f"does not hold when seat {drawer} draws from its hand"
                )
        else:
            held = list(cards_in(hand))
            card = held[self._draw_stream.uniform(len(held))]
        self.draws_made.append(card)
        self.hands[target] = hand & ~(1 << card)
        # Any of the target's face-up cards may be the one drawn, so none is known any more,
        # and their suits are not void; the drawer's card came from that hand.
        self._voids_lost(target, self.known[target] & hand)
        self.known[target] = 0
        self.hands[drawer] = 1 << card
        self.voids[drawer] = self.voids[target]
        self.unseen_draws[card] = target
        self.forced_lead = card
        self._drawn_lead = (drawer, card)
        self._log(CardDrawn(drawer, target, card))
        if not self.hands[target]:
            self._go_out(target, "drawn_from")

    def _note_lead(self, seat: int, card: Card, order: list[int]) -> None:
        """At a lead: keep the trick's play order (H16) and arm the shootout (H17)."""
        self._trick_played = self.trick
        drawn = self._drawn_lead == (seat, card)
        self._drawn_lead = (-1, -1)
        shootout = self.book.shootout
        if shootout == rule.NO_SHOOTOUT or len(order) != 2:
            self._shootout_armed = False
        elif shootout == rule.SHOOTOUT_AFTER_DRAW:
            self._shootout_armed = drawn
        else:
            self._shootout_armed = not self.hands[seat]

    def _two_left_ends(
        self, how: str, order: list[int], number: int, high: int, penalty: bool
    ) -> bool:
        """H17, H18: with two left, a trick the other player could not follow (a tochoo or
        a pickup) ends the hand, the leader the Bhabhi; True when it did."""
        if how == "complete" or len(order) != 2 or penalty:
            return False
        leader, other = order
        if self._shootout_armed:
            termination, out_how = Termination.SHOOTOUT, "shootout"
        elif self.book.two_left_tochoo_wins and how == "tochoo":
            termination, out_how = Termination.TWO_LEFT_TOCHOO, "two_left_tochoo"
        else:
            return False
        self._log(TrickEnded(number, how, high, None))
        self._go_out(other, out_how)
        self._finish(termination, leader)
        return True

    # --- house rules H25, H26: false cards, challenges, play out of turn -----------------

    def _note_off_suit(self, seat: int, card: Card) -> None:
        """H25: ``seat`` plays ``card`` off the led suit (called before it leaves the hand);
        false when the seat holds the led suit."""
        self.off_suit_seats += (seat,)
        if self.hands[seat] & self.book.suit_masks[self.led_suit]:
            self.false_seats += (seat,)

    def _keep_after_trick(
        self, number: int, cards: tuple[tuple[int, Card], ...], picker: int
    ) -> None:
        """H25, H26: remember the trick just ended while the position after it lasts: when
        it may be challenged (it has an off-suit card) or picked up out of turn (it was
        picked up).  Nothing is kept when neither rule is on."""
        book = self.book
        challengeable = book.challenge and bool(self.off_suit_seats)
        if challengeable or (book.out_of_turn_penalty and picker >= 0):
            self.after_trick = AfterTrick(
                number, cards, picker, self.off_suit_seats, self.false_seats
            )
        self.off_suit_seats = self.false_seats = ()

    def _challengeable(self) -> AfterTrick | None:
        """H25: the trick that may be challenged now, if any."""
        after = self.after_trick
        if after is None or not after.off_suit or self.phase != BEFORE_TRICK:
            return None
        return after

    def _challenge_decisions(self, seat: int) -> tuple[Action, ...]:
        """H25: right after a trick with an off-suit card, every active player who played
        none to it may challenge it, once for the table."""
        after = self._challengeable()
        if after is None or self.out[seat] or seat in after.off_suit:
            return ()
        return (CHALLENGE,)

    def _challenge(self, seat: int) -> None:
        """H25: ``seat`` calls the off-suit cards of the trick just ended false.  Right when
        one of their players held the led suit (the first such, in play order, pays);
        a wrong challenge costs nothing.  Either way the trick cannot be challenged again."""
        after = self.after_trick
        assert after is not None
        self.after_trick = None
        offender = after.false[0] if after.false else None
        penalty = (
            ""
            if offender is None
            else ("bhabhi" if self.book.false_tochoo_bhabhi else "pickup_and_lead")
        )
        self._log(TochooChallenged(seat, after.number, offender is not None, offender, penalty))
        self._shown_by_challenge(after, offender)
        if offender is None:
            return
        if self.book.false_tochoo_bhabhi:
            self._finish(Termination.FALSE_TOCHOO, offender)
            return
        self._take_up_trick(offender, after)

    def _shown_by_challenge(self, after: AfterTrick, offender: int | None) -> None:
        """H25: a challenge shows that the off-suit cards before the first false one (all
        of them when it is wrong) were played by seats without the led suit.  Since then
        a seat may have taken in unseen cards of that suit only as a B8 or H14 draw just
        made (its drawer must lead it) or with the pile it picked up (V4): those seats
        show nothing."""
        shown = (
            after.off_suit if offender is None else after.off_suit[: after.off_suit.index(offender)]
        )
        drawer = self.leader if self.forced_lead in self.unseen_draws else -1
        picker = after.picker if self.book.pickup_takes_waste else -1
        led = self.book.suit[after.cards[0][1]]
        for seat in shown:
            if seat not in (drawer, picker):
                self.voids[seat] |= 1 << led

    def _out_of_turn_punished(self, seat: int, action: Action) -> bool:
        """H26: ``seat`` plays a card it holds when it is not its turn, in a trick or right
        after one that was picked up (a lead out of turn with no trick to pick up, and
        every other action out of turn, stay refused)."""
        if not self.book.out_of_turn_penalty or action.kind is not ActionKind.PLAY:
            return False
        card = action.card
        if card is None or not 0 <= card < 1024 or not self.hands[seat] >> card & 1:
            return False
        if self.phase == IN_TRICK:
            return True
        return self.after_trick is not None and self.after_trick.picker >= 0

    def _penalise_out_of_turn(self, seat: int, card: int) -> None:
        """H26: the card stays in the offender's hand; they pick up the trick in play (or
        the trick just picked up) and lead the next."""
        self._log(IllegalPlayPenalised(seat, card, "not_your_turn"))
        if self.phase == IN_TRICK:
            self._end_trick("pickup", seat, penalty=True, picker_leads=True)
            return
        after = self.after_trick
        assert after is not None
        self.after_trick = None
        self._take_up_trick(seat, after)

    def _take_up_trick(self, seat: int, after: AfterTrick) -> None:
        """H25 (pickup_and_lead), H26: ``seat`` picks up the cards of the trick just ended,
        from whoever holds them now or from the waste pile, and leads the next trick.  A
        player whose last cards they were (say a B8 drawer who drew one) goes out (C9)."""
        gained = 0
        for _, card in after.cards:
            bit = 1 << card
            if self.waste & bit:
                self.waste ^= bit
            else:
                for holder in range(self.players):
                    if self.hands[holder] & bit:
                        self.hands[holder] ^= bit
                        self.known[holder] &= ~bit
                        break
            gained |= bit
            self.unseen_draws.pop(card, None)
        self.hands[seat] |= gained
        self.known[seat] |= gained
        cards = tuple(c for _, c in after.cards)
        self._log(PickedUp(seat, cards, 0, True, self.book.hand_sizes_hidden))
        self.leader = seat
        self.forced_lead = -1
        for other in range(self.players):
            if not self.out[other] and not self.hands[other]:
                self._go_out(other, "emptied")
        self._check_end_between_tricks()

    def set_draws(self, cards: Sequence[Card]) -> None:
        """From now on the draws (B8, H14) are ``cards`` in order, then the draw stream as
        with ``draws=`` at the start.  For replaying a playout that went on from this
        position with draws of its own (``playout.random_playout_from`` draws at random, not
        from this hand's seed): the replay must draw the cards the playout drew."""
        self._draws = (*self.draws_made, *cards)

    # --- copies -------------------------------------------------------------------------

    def copy(self, *, record: bool = True) -> Hand:
        """An independent copy that plays on exactly as this hand would.

        The ruleset, its rule book, the deal and the explicit draws never change and are
        shared; the state (a few lists of ints, the draw stream's position) is copied, so
        a copy costs a few microseconds where ``copy.deepcopy`` costs a millisecond.
        ``record=False`` leaves the event log out of the copy (a look-ahead has no use for
        it); otherwise the copy keeps one if this hand does, starting with its events."""
        twin = object.__new__(Hand)
        twin.__dict__.update(self.__dict__)
        twin.hands = self.hands.copy()
        twin.known = self.known.copy()
        twin.voids = self.voids.copy()
        twin.unseen_draws = self.unseen_draws.copy()
        twin.out = self.out.copy()
        twin.out_order = self.out_order.copy()
        twin.trick = self.trick.copy()
        twin._order = self._order.copy()
        twin.history = self.history.copy()
        twin.draws_made = self.draws_made.copy()
        twin._waste_order = self._waste_order.copy()
        played = self._trick_played  # H16: the trick in play is the twin's own
        twin._trick_played = twin.trick if played is self.trick else played.copy()
        twin._draw_stream = self._draw_stream.copy()
        twin.events = self.events.copy() if record and self.events is not None else None
        return twin

    def with_hands(
        self,
        hands: Sequence[int],
        *,
        waste: int | None = None,
        unseen_draws: Mapping[Card, int] | None = None,
        forced_lead: Card | None = None,
        draw_seed: Seed | None = None,
    ) -> Hand:
        """A copy (``record=False``) of this hand with its hidden cards placed otherwise: a
        determinization (``determinize.py``), which plays on as a hand of its own.

        ``hands`` are card masks, one per seat.  B8's waste draws nobody else saw may be
        placed otherwise too: ``waste`` is then the pile, ``unseen_draws`` the drawn cards
        (with who saw each, as in ``unseen_draws``) and ``forced_lead`` the card the leader
        must lead if it is one of them.  Every public fact must hold, else EngineError: each
        seat keeps its size and its face-up (known) cards and holds no unseen card of a
        suit it has shown void in; the hands and the pile hold the same cards together, and
        so do the pile and the unseen waste draws; each seat holds as many unseen draws of
        each kind; the leader holds its forced lead.

        The copy draws from ``draw_seed`` (else as this hand would) and never from explicit
        draws, which name cards of this hand's pile; H25's false cards are those its
        hands make false (a seat of the trick that holds the led suit, less what it took in
        since).  ``deal``, ``seed``, ``draws_made`` and ``history`` stay this hand's: the
        record of how it began and went, which play does not consult."""
        players = self.players
        if len(hands) != players:
            raise EngineError(f"{len(hands)} hands given for {players} players")
        new_waste = self.waste if waste is None else waste
        draws = dict(self.unseen_draws) if unseen_draws is None else dict(unseen_draws)
        lead = self.forced_lead if forced_lead is None else forced_lead
        masks = self.book.suit_masks
        held = 0
        for seat, cards in enumerate(hands):
            if cards.bit_count() != self.hands[seat].bit_count():
                raise EngineError(
                    f"seat {seat} would hold {cards.bit_count()} cards, not "
                    f"{self.hands[seat].bit_count()}"
                )
            face_up = self.known[seat] & self.hands[seat]
            if face_up & ~cards:
                raise EngineError(
                    f"seat {seat} would lose its face-up {cards_str(face_up & ~cards)}"
                )
            unseen = cards & ~self.known[seat]
            for suit in range(4) if self.voids[seat] else ():
                if self.voids[seat] >> suit & 1 and unseen & masks[suit]:
                    raise EngineError(
                        f"seat {seat} has shown no {_suit_name(suit)} but would hold "
                        f"{cards_str(unseen & masks[suit])}"
                    )
            if held & cards:
                raise EngineError(f"{cards_str(held & cards)} would be in two hands")
            held |= cards
        if held & new_waste or held | new_waste != sum(self.hands) | self.waste:
            raise EngineError("the hands and the waste pile would not hold the same cards")
        if new_waste | _drawn(draws, -1) != self.waste | self._waste_drawn():
            raise EngineError("the waste pile and its unseen draws would not be the same cards")
        if (draws or self.unseen_draws) and _draw_counts(draws, hands) != _draw_counts(
            self.unseen_draws, self.hands
        ):
            raise EngineError("the seats would not hold as many unseen draws as they do")
        if lead >= 0 and not hands[self.leader] >> lead & 1:
            raise EngineError(
                f"seat {self.leader} must lead {card_str(lead)}, which it would not hold"
            )
        twin = self.copy(record=False)
        twin.hands = list(hands)
        twin.waste = new_waste
        twin.unseen_draws = draws
        if self._drawn_lead == (self.leader, self.forced_lead):  # H17: the drawn card is led
            twin._drawn_lead = (self.leader, lead)
        twin.forced_lead = lead
        twin._draws = None
        if draw_seed is not None:
            twin._draw_stream = Stream(draw_seed, DRAW_LABEL)
        if self.book.challenge:
            twin._refalse()
        return twin

    def _refalse(self) -> None:
        """H25: which off-suit cards of the trick in play, and of the trick just ended, are
        false in these hands: their seat holds the led suit (for the trick just ended, less
        what it took in since: the trick it picked up, or the B8 draw it must lead).  Not
        exact after an H14 draw from a seat of that trick, which may have taken its last
        card of the led suit."""
        masks = self.book.suit_masks
        if self.phase == IN_TRICK:
            led = masks[self.led_suit]
            self.false_seats = tuple(s for s in self.off_suit_seats if self.hands[s] & led)
        after = self.after_trick
        if after is not None and after.off_suit:
            led = masks[self.book.suit[after.cards[0][1]]]
            since = mask_of(c for _, c in after.cards)
            drawn = 1 << self.forced_lead if self.forced_lead in self.unseen_draws else 0
            false = tuple(
                s
                for s in after.off_suit
                if self.hands[s] & ~since & ~(drawn if s == self.leader else 0) & led
            )
            self.after_trick = replace(after, false=false)

    # --- views --------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """The observation of one seat, or of a spectator (``seat`` None)."""
        if seat is not None and not 0 <= seat < self.players:
            raise EngineError(f"there is no seat {seat} at a table of {self.players}")
        own = tuple(cards_in(self.hands[seat])) if seat is not None else ()
        legal = tuple(self.legal_actions(seat)) if seat is not None else ()
        return SeatView(
            seat=seat,
            players=self.players,
            dealer=self.dealer,
            hand=own,
            hand_sizes=self._sizes_seen_by(seat),
            known_cards=tuple(
                tuple(cards_in(k & h)) for k, h in zip(self.known, self.hands, strict=True)
            ),
            out=tuple(self.out),
            out_order=tuple(self.out_order),
            trick_number=self.trick_number,
            trick=tuple(self.trick),
            led_suit=self.led_suit if self.phase == IN_TRICK else None,
            trump=self.trump if self.trump >= 0 else None,
            waste_size=self.waste.bit_count(),
            leader=self.leader if self.phase != OVER else None,
            turn=self.to_move,
            to_act=self.seats_to_act(),
            legal_actions=legal,
            outcome=self.outcome,
            last_trick=() if (after := self._challengeable()) is None else after.cards,
            voids=tuple(tuple(u for u in range(4) if v >> u & 1) for v in self.voids),
        )

    def _sizes_seen_by(self, seat: int | None) -> tuple[int, ...]:
        """H29: every hand's size, or under ``hand_sizes: hidden`` only the viewer's own
        (-1 for the others; 0 for a seat that is out, which everyone knows)."""
        sizes = self.hand_sizes()
        if not self.book.hand_sizes_hidden:
            return sizes
        return tuple(n if s == seat or self.out[s] else -1 for s, n in enumerate(sizes))

    def card_total(self) -> int:
        """Cards in hands, trick, waste and out of play: always the whole deck (a check)."""
        total = self.out_of_play | self.waste | self.trick_mask
        count = self.out_of_play.bit_count() + self.waste.bit_count() + self.trick_mask.bit_count()
        for hand in self.hands:
            total |= hand
            count += hand.bit_count()
        if total != self._deck_mask:
            raise AssertionError("cards lost or invented")
        return count


_TAKE_DECISIONS = frozenset(
    {ActionKind.TAKE_HAND, ActionKind.PASS, ActionKind.AGREE, ActionKind.REFUSE}
)
"""The kinds ``Hand._decide_take`` applies: H20's answers, H22's pass, H23's chosen take."""


def take_target(out: Sequence[bool], seat: int, step: int) -> int:
    """B9: whose hand ``seat`` would take: the first seat still in, going ``step`` round the
    table (+1 the left neighbour, -1 the right), or -1 when nobody else is left."""
    players = len(out)
    target = (seat + step) % players
    while target != seat:
        if not out[target]:
            return target
        target = (target + step) % players
    return -1


TRUMP_CHOICES = tuple(Action.choose_trump(suit) for suit in range(4))
"""H12 ``dealer_choice``: the dealer's decisions, ``trump:C`` to ``trump:S``."""


def longest_suit(book: rule.RuleBook, cards: int) -> int:
    """The suit ``cards`` (a mask) hold most of; of equal length the stronger cards, then
    the first in suit order: the trump a dealer names by default (H12) and the bots'."""

    def weight(suit: int) -> tuple[int, int, int]:
        held = list(cards_in(cards & book.suit_masks[suit]))
        return len(held), sum(book.strength[c] for c in held), -suit

    return max(range(4), key=weight)


def _players_refused(rules: Ruleset, players: int) -> str:
    """Why a hand of ``players`` cannot be dealt under ``rules`` (C2)."""
    teams = rules.players.teams is Teams.PARTNERS_OPPOSITE
    return (
        f"ruleset {rules.id!r} allows {rules.players.min} to {rules.players.max} "
        f"players{' (an even number, for teams)' if teams else ''}, not {players}"
    )


def _drawn(draws: Mapping[Card, int], seen_by: int) -> int:
    """The mask of the unseen draws that ``seen_by`` saw (-1: B8's, from the waste)."""
    return mask_of(card for card, seat in draws.items() if seat == seen_by)


def _draw_counts(draws: Mapping[Card, int], hands: Sequence[int]) -> list[tuple[int, int]]:
    """(holder, who else saw it) of every unseen draw, sorted: what every player knows."""
    found = []
    for card, seen_by in draws.items():
        holder = next((s for s, h in enumerate(hands) if h >> card & 1), -1)
        found.append((holder, seen_by))
    return sorted(found)


def _suit_name(suit: int) -> str:
    return ("clubs", "diamonds", "hearts", "spades")[suit]
