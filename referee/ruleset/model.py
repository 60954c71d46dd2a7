"""The resolved ruleset as typed, frozen values.

The YAML file is the source of truth and the JSON Schema its reference documentation; this
module only gives the engine typed access to a ruleset that has already been resolved
(``extends`` applied) and validated.  Every enum mirrors a schema ``enum`` one to one, so a
new option value is added in both places (tests/test_schema_model.py checks they agree).
An optional option that a ruleset leaves out has the schema's ``default`` (written here as
well, and checked against it there): leaving it out keeps a ruleset's hash as it was.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee.cards import RANKS, Card, parse_card, suit_mask


class AceRank(StrEnum):
    HIGH = "high"
    LOW = "low"


class IdenticalCards(StrEnum):
    FIRST_PLAYED = "first_played"
    LAST_PLAYED = "last_played"


class Teams(StrEnum):
    NONE = "none"
    PARTNERS_OPPOSITE = "partners_opposite"


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class DealerMoves(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"
    WITH_PLAY = "with_play"
    BHABHI_DEALS = "bhabhi_deals"
    """H2: the previous hand's Bhabhi deals (with none, the deal moves on with play)."""
    LAST_PICKER_DEALS = "last_picker_deals"
    """H2, H11: whoever last picked up cards in the previous hand deals (else with play)."""

    @property
    def follows_outcome(self) -> bool:
        """H2: the next dealer depends on how the previous hand went, not only on its number."""
        return self in (DealerMoves.BHABHI_DEALS, DealerMoves.LAST_PICKER_DEALS)


class DealRemainder(StrEnum):
    """H1: what happens to the cards that cannot be dealt evenly."""

    DEAL_OUT = "deal_out"
    REMOVE_LOWEST = "remove_lowest"


class DealOrder(StrEnum):
    """H4: which way round the cards are dealt."""

    WITH_PLAY = "with_play"
    SEAT_ORDER = "seat_order"


class IfLeadCardAbsent(StrEnum):
    HIGHEST_OF_SUIT = "highest_of_suit"
    PLAYER_AFTER_DEALER = "player_after_dealer"


class FirstTrickOffSuit(StrEnum):
    AS_OTHER_TRICKS = "as_other_tricks"
    DISCARD = "discard"


class FirstTrickNextLeader(StrEnum):
    AS_OTHER_TRICKS = "as_other_tricks"
    FIRST_LEADER = "first_leader"


class FirstTrickVoidPlays(StrEnum):
    """H5: the card a player who cannot follow plays to the first trick."""

    ANY = "any"
    HIGHEST = "highest"


class FirstLeadLeads(StrEnum):
    """H6: whether the first leader must lead the lead card or may lead any card."""

    THE_CARD = "the_card"
    ANY_CARD = "any_card"


class OffSuitPlay(StrEnum):
    PICKUP = "pickup"
    DISCARD = "discard"
    TOCHOO = "tochoo"
    TOCHOO_PLAYS_ON = "tochoo_plays_on"
    """H9: a tochoo does not stop the trick; a trick with one is picked up at its end."""


class TochooPickedUpBy(StrEnum):
    HIGHEST_OF_LED = "highest_of_led"
    TOCHOO_PLAYER = "tochoo_player"


class PickupTakes(StrEnum):
    TRICK = "trick"
    TRICK_AND_WASTE = "trick_and_waste"


class Trump(StrEnum):
    NONE = "none"
    FIRST_OFF_SUIT_CARD = "first_off_suit_card"
    FIXED = "fixed"
    """H12: ``trump_suit`` is trump from the start."""
    DEALER_CHOICE = "dealer_choice"
    """H12: the dealer names the trump suit before the first lead."""


class TrumpSuit(StrEnum):
    """H12: the suit of ``trump: fixed``."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"


class AfterCompleteTrick(StrEnum):
    HIGHEST = "highest"
    LOWEST = "lowest"


class AfterPickup(StrEnum):
    PICKER = "picker"
    HIGHEST = "highest"
    LOWEST = "lowest"
    TOCHOO_PLAYER = "tochoo_player"
    """H9: the (first) player of a tochoo in the trick leads after the pickup."""


class IfLeaderOut(StrEnum):
    NEXT_IN_TURN = "next_in_turn"
    DRAWS_FROM_WASTE = "draws_from_waste"
    NEXT_HIGHEST = "next_highest"
    """H10: after a clean trick, the next-highest card of the led suit still in leads."""
    DRAWS_FROM_PLAYER = "draws_from_player"
    """H14: instead of the waste pile, a card at random from another player's hand."""


class IfWasteEmpty(StrEnum):
    GOES_OUT = "goes_out"
    DRAWS_FROM_TRICK = "draws_from_trick"


class TakeHandWhen(StrEnum):
    NEVER = "never"
    BEFORE_ANY_TRICK = "before_any_trick"
    LEADER_BEFORE_TRICK = "leader_before_trick"
    AFTER_NEIGHBOUR_TOCHOO = "after_neighbour_tochoo"
    """H24: a player who had to pick up a neighbour's tochoo may take that neighbour's hand."""


class TakeHandFrom(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    NEXT_IN_TURN = "next_in_turn"
    """H23: the next player still in, in the direction of play."""
    EITHER_NEIGHBOUR = "either_neighbour"
    """H23: the taker chooses the next player still in on the left or on the right."""
    ANY_PLAYER = "any_player"
    """H23: the taker chooses any player still in."""

    @property
    def chosen(self) -> bool:
        """H23: the taker names whose hand (``take:3``) rather than the rules naming it."""
        return self in (TakeHandFrom.EITHER_NEIGHBOUR, TakeHandFrom.ANY_PLAYER)


class TakesPerTrick(StrEnum):
    ONE = "one"
    ANY = "any"
    PASS_IN_TURN = "pass_in_turn"
    """H22: one take pass before each trick, in play order from the leader."""


class LeadPassesTo(StrEnum):
    TAKER = "taker"
    NEXT_IN_TURN = "next_in_turn"


class AllOutTogether(StrEnum):
    NO_BHABHI = "no_bhabhi"
    LAST_TO_PLAY = "last_to_play"
    TRICK_WINNER = "trick_winner"


class ForcedEnd(StrEnum):
    NO_BHABHI = "no_bhabhi"
    MOST_CARDS = "most_cards"


class DeadPositionEnd(StrEnum):
    """``end.at_dead_position``: a forced end (as ``ForcedEnd``), or H31's playing on."""

    NO_BHABHI = "no_bhabhi"
    MOST_CARDS = "most_cards"
    PLAY_ON = "play_on"


class IllegalPlay(StrEnum):
    REJECT = "reject"
    PICKUP_PENALTY = "pickup_penalty"
    CHALLENGE = "challenge"


class TimeoutMove(StrEnum):
    LOWEST_CARD = "lowest_card"
    HIGHEST_CARD = "highest_card"


DEFAULT_TIMEOUT_MOVE = TimeoutMove.LOWEST_CARD
"""``timeout_move`` of a ruleset that leaves it out (the schema's ``default``)."""
DEFAULT_FIRST_TRICK_VOID_PLAYS = FirstTrickVoidPlays.ANY
"""``first_trick.void_plays`` of a ruleset that leaves it out (H5 off)."""
DEFAULT_FIRST_LEAD_LEADS = FirstLeadLeads.THE_CARD
"""``first_lead.leads`` of a ruleset that leaves it out (H6 off)."""


class ChipsBy(StrEnum):
    """C15 or H28: what a Bhabhi pays into the pot."""

    BHABHI = "bhabhi"
    CARD_POINTS = "card_points"


DEFAULT_DEAL_REMAINDER = DealRemainder.DEAL_OUT
"""``deal.remainder`` left out: the whole pack is dealt, as evenly as it goes (C4)."""
DEFAULT_DEAL_ORDER = DealOrder.WITH_PLAY
"""``deal.order`` left out: the cards go round in the direction of play (C4)."""
DEFAULT_CHIPS_BY = ChipsBy.BHABHI
"""``session.chips_by`` left out: each Bhabhi pays ``chips`` (C15)."""


# --- Getting out with the power (H14-H16) and two players left (H17-H19) ------------------


class DrawFrom(StrEnum):
    """H14: whose hand the player with the power and no card draws from."""

    NEXT_ACTIVE = "next_active"
    CHOSEN = "chosen"


class DrawPile(StrEnum):
    """H15: what the B8 draw is made from."""

    WASTE = "waste"
    WASTE_AND_TRICK = "waste_and_trick"


class WasteDraw(StrEnum):
    """H16: which card of the waste pile the B8 draw takes."""

    RANDOM = "random"
    TOP = "top"


class Shootout(StrEnum):
    """H17: with two left, which leads end the hand when the other player cannot follow."""

    NONE = "none"
    AFTER_WASTE_DRAW = "after_waste_draw"
    ANY_LAST_CARD = "any_last_card"


DEFAULT_DRAW_FROM = DrawFrom.NEXT_ACTIVE
"""``next_leader.draw_from`` left out: H14 draws from the next player still in."""
DEFAULT_DRAW_PILE = DrawPile.WASTE
"""``next_leader.draw_pile`` left out: B8 draws before the trick joins the pile."""
DEFAULT_WASTE_DRAW = WasteDraw.RANDOM
"""``next_leader.draw`` left out: B8 draws a random card."""
DEFAULT_SHOOTOUT = Shootout.NONE
"""``end.shootout`` left out: no shootout (H17 off)."""
DEFAULT_TWO_LEFT_TOCHOO_WINS = False
"""``end.two_left_tochoo_wins`` left out: H18 off."""
DEFAULT_TWO_LEFT_POWER_ESCAPES = False
"""``end.two_left_power_escapes`` left out: H19 off."""


# --- house rules H25-H27, H29: illegal play, penalties, clocks, information ---------------


class FalseTochooPenalty(StrEnum):
    """H25: what a right challenge costs the player of a false card."""

    BHABHI = "bhabhi"
    PICKUP_AND_LEAD = "pickup_and_lead"


class OutOfTurn(StrEnum):
    """H26: a card played out of turn is refused, or punished with a pickup."""

    REFUSE = "refuse"
    PICKUP_PENALTY = "pickup_penalty"


class HandSizes(StrEnum):
    """H29: whether the players see how many cards the others hold."""

    PUBLIC = "public"
    HIDDEN = "hidden"


DEFAULT_FALSE_TOCHOO_PENALTY = FalseTochooPenalty.BHABHI
DEFAULT_OUT_OF_TURN = OutOfTurn.REFUSE
DEFAULT_TIMEOUT_BOT_AFTER: int | None = None
DEFAULT_HAND_SIZES = HandSizes.PUBLIC

DEFAULT_TAKE_CONSENT = False
"""``take_hand.consent`` left out: a take needs nobody's agreement (B9)."""
DEFAULT_TAKE_BEFORE_FIRST_TRICK = True
"""``take_hand.before_first_trick`` left out: hands may be taken before the first trick (B9)."""
DEFAULT_TAKE_WITH_TWO_LEFT = True
"""``take_hand.with_two_left`` left out: hands may be taken with two players left (B9)."""


@dataclass(frozen=True, slots=True)
class Localized:
    en: str
    de: str
    pl: str


@dataclass(frozen=True, slots=True)
class Source:
    """A published description or implementation a ruleset follows."""

    name: str
    url: str | None
    follows: str | Localized | None
    """What the ruleset takes from the source: one text, or one per language."""


@dataclass(frozen=True, slots=True)
class Deck:
    packs: int
    ranks: tuple[str, ...]
    ace: AceRank
    identical_cards: IdenticalCards

    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck in ascending id order (the order the shuffle starts from)."""
        rank_ids = sorted(RANKS.index(r) for r in self.ranks)
        return tuple(
            pack * 52 + suit * 13 + rank
            for pack in range(self.packs)
            for suit in range(4)
            for rank in rank_ids
        )

    def strength(self, card: Card) -> int:
        """Rank strength within a suit: higher wins. Aces low move below the 2."""
        rank = card % 13
        if self.ace is AceRank.LOW:
            return 0 if rank == 12 else rank + 1
        return rank

    def suit_masks(self) -> tuple[int, int, int, int]:
        m = tuple(suit_mask(s, self.packs) for s in range(4))
        return (m[0], m[1], m[2], m[3])


@dataclass(frozen=True, slots=True)
class Players:
    min: int
    max: int
    teams: Teams

    def allows(self, count: int) -> bool:
        if not self.min <= count <= self.max:
            return False
        return self.teams is Teams.NONE or count % 2 == 0

    @property
    def counts(self) -> list[int]:
        """Every player count the ruleset allows, smallest first."""
        return [n for n in range(self.min, self.max + 1) if self.allows(n)]


@dataclass(frozen=True, slots=True)
class Deal:
    first_dealer: int
    dealer_moves: DealerMoves
    remainder: DealRemainder = DEFAULT_DEAL_REMAINDER
    """H1: deal out every card (C4), or first take out the lowest that would not go round."""
    order: DealOrder = DEFAULT_DEAL_ORDER
    """H4: deal in the direction of play (C4), or clockwise in seat order whatever it is."""


@dataclass(frozen=True, slots=True)
class FirstLead:
    card: Card
    if_absent: IfLeadCardAbsent
    leads: FirstLeadLeads = DEFAULT_FIRST_LEAD_LEADS
    """H6: the lead card itself, or any card of the first leader's hand."""


@dataclass(frozen=True, slots=True)
class FirstTrick:
    off_suit: FirstTrickOffSuit
    next_leader: FirstTrickNextLeader
    void_plays: FirstTrickVoidPlays = DEFAULT_FIRST_TRICK_VOID_PLAYS
    """H5: any card, or one of the highest-ranked, from a player who cannot follow."""


@dataclass(frozen=True, slots=True)
class OffSuit:
    play: OffSuitPlay
    tochoo_picked_up_by: TochooPickedUpBy
    pickup_takes: PickupTakes


@dataclass(frozen=True, slots=True)
class NextLeader:
    after_complete_trick: AfterCompleteTrick
    after_pickup: AfterPickup
    if_out: IfLeaderOut
    if_waste_empty: IfWasteEmpty
    draw_from: DrawFrom = DEFAULT_DRAW_FROM
    """H14: the next player still in, or one the drawer chooses."""
    draw_pile: DrawPile = DEFAULT_DRAW_PILE
    """B8 or H15 (the trick just played joins the pile before the draw)."""
    draw: WasteDraw = DEFAULT_WASTE_DRAW
    """B8 (a random card) or H16 (the top card of the waste pile)."""


@dataclass(frozen=True, slots=True)
class TakeHand:
    when: TakeHandWhen
    from_: TakeHandFrom
    per_trick: TakesPerTrick
    lead_passes_to: LeadPassesTo
    consent: bool = DEFAULT_TAKE_CONSENT
    """H20: a take is a request that the player whose hand is asked for agrees to or refuses."""
    before_first_trick: bool = DEFAULT_TAKE_BEFORE_FIRST_TRICK
    """H21: false, no hand may be taken before the first trick."""
    with_two_left: bool = DEFAULT_TAKE_WITH_TWO_LEFT
    """H21: false, no hand may be taken once only two players are left."""


@dataclass(frozen=True, slots=True)
class End:
    all_out_together: AllOutTogether
    two_left_pickup_loses: bool
    max_tricks: int
    at_max_tricks: ForcedEnd
    at_dead_position: DeadPositionEnd
    shootout: Shootout = DEFAULT_SHOOTOUT
    """H17: with two left, a lead the other cannot follow ends the hand (the leader loses)."""
    two_left_tochoo_wins: bool = DEFAULT_TWO_LEFT_TOCHOO_WINS
    """H18: with two left, a tochoo ends the hand and its player is safe."""
    two_left_power_escapes: bool = DEFAULT_TWO_LEFT_POWER_ESCAPES
    """H19: with two left, a last card that wins a clean trick gets away even under B8."""


@dataclass(frozen=True, slots=True)
class Session:
    hands: int | None
    bhabhi_limit: int | None
    chips: int
    chips_by: ChipsBy = DEFAULT_CHIPS_BY
    """C15 (a Bhabhi pays ``chips``) or H28 (``chips`` times the points left in hand)."""


@dataclass(frozen=True, slots=True, eq=False)
class Ruleset:
    """A resolved ruleset. Compared by identity; compare ``hash`` for 'the same rules'."""

    id: str
    title: Localized
    description: Localized
    clauses: tuple[str, ...]
    sources: tuple[Source, ...]
    """Where the rules come from (optional; none for a ruleset that names none)."""
    deck: Deck
    players: Players
    direction: Direction
    deal: Deal
    first_lead: FirstLead
    first_trick: FirstTrick
    off_suit: OffSuit
    trump: Trump
    trump_suit: TrumpSuit | None
    """H12: the suit of ``trump: fixed``; None otherwise (the key is then left out)."""
    next_leader: NextLeader
    take_hand: TakeHand
    end: End
    illegal_play: IllegalPlay
    timeout_move: TimeoutMove
    """What the referee plays for a seat whose turn clock ran out (house rule H27)."""
    session: Session
    source: Mapping[str, Any]
    """The resolved mapping this ruleset was built from (``extends`` applied and removed)."""
    false_tochoo_penalty: FalseTochooPenalty = DEFAULT_FALSE_TOCHOO_PENALTY
    """H25: the cost of a right challenge (with ``illegal_play: challenge``)."""
    out_of_turn: OutOfTurn = DEFAULT_OUT_OF_TURN
    """H26: a card played out of turn is refused or punished."""
    timeout_bot_after: int | None = DEFAULT_TIMEOUT_BOT_AFTER
    """H27: after this many timeouts in a row the referee plays a seat at once."""
    hand_sizes: HandSizes = DEFAULT_HAND_SIZES
    """H29: whether the others' hand sizes are shown."""

    @property
    def hash(self) -> str:
        """SHA-256 of the resolved ruleset as canonical JSON: names the exact rules played."""
        return ruleset_hash(self.source)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Ruleset:
        """Build from a resolved mapping that has already passed schema validation."""
        deck, players, deal = data["deck"], data["players"], data["deal"]
        first_lead, first_trick = data["first_lead"], data["first_trick"]
        off_suit, leader, take, end = (
            data["off_suit"],
            data["next_leader"],
            data["take_hand"],
            data["end"],
        )
        session = data["session"]
        source = {k: v for k, v in data.items() if k != "extends"}
        return cls(
            id=data["id"],
            title=Localized(**data["title"]),
            description=Localized(**data["description"]),
            clauses=tuple(data["clauses"]),
            sources=tuple(
                Source(name=s["name"], url=s.get("url"), follows=_follows(s.get("follows")))
                for s in data.get("sources", ())
            ),
            deck=Deck(
                packs=deck["packs"],
                ranks=tuple(deck["ranks"]),
                ace=AceRank(deck["ace"]),
                identical_cards=IdenticalCards(deck["identical_cards"]),
            ),
            players=Players(min=players["min"], max=players["max"], teams=Teams(players["teams"])),
            direction=Direction(data["direction"]),
            deal=Deal(
                first_dealer=deal["first_dealer"],
                dealer_moves=DealerMoves(deal["dealer_moves"]),
                remainder=DealRemainder(deal.get("remainder", DEFAULT_DEAL_REMAINDER)),
                order=DealOrder(deal.get("order", DEFAULT_DEAL_ORDER)),
            ),
            first_lead=FirstLead(
                card=parse_card(first_lead["card"]),
                if_absent=IfLeadCardAbsent(first_lead["if_absent"]),
                leads=FirstLeadLeads(first_lead.get("leads", DEFAULT_FIRST_LEAD_LEADS)),
            ),
            first_trick=FirstTrick(
                off_suit=FirstTrickOffSuit(first_trick["off_suit"]),
                next_leader=FirstTrickNextLeader(first_trick["next_leader"]),
                void_plays=FirstTrickVoidPlays(
                    first_trick.get("void_plays", DEFAULT_FIRST_TRICK_VOID_PLAYS)
                ),
            ),
            off_suit=OffSuit(
                play=OffSuitPlay(off_suit["play"]),
                tochoo_picked_up_by=TochooPickedUpBy(off_suit["tochoo_picked_up_by"]),
                pickup_takes=PickupTakes(off_suit["pickup_takes"]),
            ),
            trump=Trump(data["trump"]),
            trump_suit=TrumpSuit(data["trump_suit"]) if "trump_suit" in data else None,
            next_leader=NextLeader(
                after_complete_trick=AfterCompleteTrick(leader["after_complete_trick"]),
                after_pickup=AfterPickup(leader["after_pickup"]),
                if_out=IfLeaderOut(leader["if_out"]),
                if_waste_empty=IfWasteEmpty(leader["if_waste_empty"]),
                draw_from=DrawFrom(leader.get("draw_from", DEFAULT_DRAW_FROM)),
                draw_pile=DrawPile(leader.get("draw_pile", DEFAULT_DRAW_PILE)),
                draw=WasteDraw(leader.get("draw", DEFAULT_WASTE_DRAW)),
            ),
            take_hand=TakeHand(
                when=TakeHandWhen(take["when"]),
                from_=TakeHandFrom(take["from"]),
                per_trick=TakesPerTrick(take["per_trick"]),
                lead_passes_to=LeadPassesTo(take["lead_passes_to"]),
                consent=bool(take.get("consent", DEFAULT_TAKE_CONSENT)),
                before_first_trick=bool(
                    take.get("before_first_trick", DEFAULT_TAKE_BEFORE_FIRST_TRICK)
                ),
                with_two_left=bool(take.get("with_two_left", DEFAULT_TAKE_WITH_TWO_LEFT)),
            ),
            end=End(
                all_out_together=AllOutTogether(end["all_out_together"]),
                two_left_pickup_loses=bool(end["two_left_pickup_loses"]),
                max_tricks=end["max_tricks"],
                at_max_tricks=ForcedEnd(end["at_max_tricks"]),
                at_dead_position=DeadPositionEnd(end["at_dead_position"]),
                shootout=Shootout(end.get("shootout", DEFAULT_SHOOTOUT)),
                two_left_tochoo_wins=bool(
                    end.get("two_left_tochoo_wins", DEFAULT_TWO_LEFT_TOCHOO_WINS)
                ),
                two_left_power_escapes=bool(
                    end.get("two_left_power_escapes", DEFAULT_TWO_LEFT_POWER_ESCAPES)
                ),
            ),
            illegal_play=IllegalPlay(data["illegal_play"]),
            timeout_move=TimeoutMove(data.get("timeout_move", DEFAULT_TIMEOUT_MOVE)),
            session=Session(
                hands=session["hands"],
                bhabhi_limit=session["bhabhi_limit"],
                chips=session["chips"],
                chips_by=ChipsBy(session.get("chips_by", DEFAULT_CHIPS_BY)),
            ),
            source=source,
            false_tochoo_penalty=FalseTochooPenalty(
                data.get("false_tochoo_penalty", DEFAULT_FALSE_TOCHOO_PENALTY)
            ),
            out_of_turn=OutOfTurn(data.get("out_of_turn", DEFAULT_OUT_OF_TURN)),
            timeout_bot_after=data.get("timeout_bot_after", DEFAULT_TIMEOUT_BOT_AFTER),
            hand_sizes=HandSizes(data.get("hand_sizes", DEFAULT_HAND_SIZES)),
        )


def ruleset_hash(resolved: Mapping[str, Any]) -> str:
    canonical = json.dumps(
        {k: v for k, v in resolved.items() if k != "extends"},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _follows(value: str | Mapping[str, str] | None) -> str | Localized | None:
    return Localized(**value) if isinstance(value, Mapping) else value
