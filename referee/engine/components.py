"""Rule components: the ruleset's options compiled into the few facts the engine consults.

Each field is one small rule, named for what it decides and the clause it implements.  The
engine reads only these, so a new variant is new data, never a new branch on a ruleset's
name; and because they are plain ints and bools, a playout is fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from referee.cards import CARDS_PER_PACK, suit_mask, suit_of
from referee.ruleset import model as m

PICKER, HIGHEST, LOWEST = 0, 1, 2
TOCHOO_PLAYER = 3
"""H9: ``after_pickup``: the (first) player of a tochoo in the trick leads."""
TRUMP_BONUS = 100
"""X5: added to a trump's strength, so that any trump beats any card of the led suit."""
NOBODY, LAST_TO_PLAY, TRICK_WINNER = 0, 1, 2
NO_SHOOTOUT, SHOOTOUT_AFTER_DRAW, SHOOTOUT_LAST_CARD = 0, 1, 2
"""H17: no shootout, one after a lead of a card just drawn, one after any lead of a last card."""
NAMED, NEIGHBOURS, ANYONE = 0, 1, 2
"""H23: whose hand a take takes: the one the rules name (B9's left or right, H23's next in
turn), a neighbour the taker chooses, or anyone the taker chooses."""


@dataclass(frozen=True, slots=True)
class RuleBook:
    step: int
    """C3: +1 when play goes clockwise (seats are numbered clockwise), -1 otherwise."""
    take_step: int
    """B9: +1 to take from the left neighbour, -1 from the right (H23 next in turn: the
    play step)."""
    suit: tuple[int, ...]
    """Suit of each card id."""
    strength: tuple[int, ...]
    """C1/V3: strength of each card id within its suit (higher wins)."""
    suit_masks: tuple[int, int, int, int]
    deck: tuple[int, ...]
    """C1/X4: the ruleset's cards in ascending id order, where the shuffle starts."""
    later_identical_wins: bool
    """X4: of two identical cards in a trick, the later one ranks higher."""
    first_lead_card: int
    """C6/V3: the card that opens the first trick."""
    first_lead_if_absent_highest: bool
    """C6: when the lead card is not in play, the highest card of its suit leads."""
    first_trick_discards: bool
    """B1/X3: nothing ends the first trick early; off-suit cards are discards."""
    first_trick_first_leader_leads: bool
    """B2: the first leader leads the second trick."""
    pickup_when_void: bool
    """P1: a player who cannot follow picks up the trick instead of playing."""
    tochoo_ends_trick: bool
    """B4: an off-suit card ends the trick (else D1: it is a discard)."""
    tochoo_picked_up_by_high: bool
    """B6: the player of the highest card of the led suit picks up after a tochoo."""
    pickup_takes_waste: bool
    """V4: the picker also takes the whole waste pile."""
    trump_from_first_off_suit: bool
    """X5: the first off-suit card fixes a trump suit; later off-suit trumps win the trick."""
    complete_next_high: bool
    """C8/D2/B3: after a complete trick the highest card leads (else V1: the lowest)."""
    after_pickup: int
    """P2 (PICKER), B7/V5 (HIGHEST), LOWEST or H9 (TOCHOO_PLAYER): who leads after a pickup
    or tochoo."""
    leader_draws: bool
    """B8 (or H14): a player due to lead with no card cannot go out; they draw a card (from
    the waste pile, or under H14 from a player)."""
    draw_from_trick_when_waste_empty: bool
    """B8 open point: with an empty waste pile the trick's cards join it before the draw."""
    take_hand: bool
    """B9: a player may take a neighbour's hand before a trick."""
    take_hand_leader_only: bool
    """X1: only the player about to lead may take."""
    take_hand_once_per_trick: bool
    """B9 open point: one take closes the window until the next trick."""
    lead_passes_to_taker: bool
    """B9 open point: the taker leads when the leader's hand is taken."""
    all_out_together: int
    """C11: NOBODY, LAST_TO_PLAY or TRICK_WINNER is the Bhabhi when nobody is left."""
    two_left_pickup_loses: bool
    """X2: with two left, the player who must pick up is the Bhabhi."""
    max_tricks: int
    at_max_most_cards: bool
    at_dead_most_cards: bool
    at_dead_plays_on: bool
    """H31: a dead position does not end the hand; it is played on to ``max_tricks``."""
    teams: bool
    """V2: partners sit opposite."""
    illegal_play_penalty: bool
    """C12: not following when able makes the offender pick up the trick."""
    timeout_card: int
    """LOWEST (house rule H27) or HIGHEST: the legal card the referee's turn clock plays
    for a seat out of time (no rule document speaks of a clock)."""
    take_choice: int
    """H23: NAMED (the rules name whose hand), NEIGHBOURS or ANYONE (the taker chooses)."""
    take_consent: bool
    """H20: a take is a request the player asked agrees to or refuses."""
    take_before_first_trick: bool
    """H21: false, no take before the first trick."""
    take_with_two_left: bool
    """H21: false, no take once only two players are left."""
    take_pass_in_turn: bool
    """H22: one take pass before each trick, in play order from the leader."""
    take_owed_by_tochoo: bool
    """H24: only a player who picked up a neighbour's tochoo takes, that neighbour's hand."""
    remove_lowest: bool
    """H1: before the shuffle the lowest cards that would make hands unequal leave play."""
    deal_step: int
    """C4 (the play step) or H4 (+1, clockwise in seat order): the way the cards go round."""
    # --- getting out with the power (H14-H16) and two players left (H17-H19) ----------------
    draws_from_player: bool
    """H14: the draw of a player with the power and no card is from another player's hand."""
    draw_from_chosen: bool
    """H14: the drawer chooses whose hand (``draw:SEAT``); else the next player still in."""
    draw_pile_with_trick: bool
    """H15: a complete trick joins the waste pile before the B8 draw."""
    draw_top: bool
    """H16: the B8 draw takes the top card of the waste pile, not a random one."""
    shootout: int
    """H17: NO_SHOOTOUT, SHOOTOUT_AFTER_DRAW or SHOOTOUT_LAST_CARD."""
    two_left_tochoo_wins: bool
    """H18: with two left, a tochoo ends the hand and its player is safe."""
    two_left_power_escapes: bool
    """H19: with two left, a last card that wins a complete trick gets away even under B8."""
    power_rules: bool
    """Whether any of H14-H19 is on (the engine's hot paths look at this one flag first)."""
    challenge: bool
    """H25: a card off the led suit from a player who holds it is accepted; right after
    the trick any other active player may challenge it."""
    false_tochoo_bhabhi: bool
    """H25: a right challenge makes the offender the Bhabhi (else: they pick up and lead)."""
    out_of_turn_penalty: bool
    """H26: a card played out of turn is punished (the offender picks up and leads)."""
    hand_sizes_hidden: bool
    """H29: views and events show a seat only its own hand's size."""
    fast_playout: bool
    """Whether ``playout.random_playout`` knows every rule that is on.  The fast playout
    repeats the rules for speed and leaves the house rules to ``Hand``: with any of them on,
    the simulator plays random hands through ``Hand`` instead."""
    # --- house rules of the first trick, the trick and the lead (H5, H6, H9, H10, H12) ---
    first_trick_void_highest: bool
    """H5: on the first trick a player who cannot follow plays one of their highest cards."""
    first_lead_free: bool
    """H6: the first leader may lead any card (the lead card only says who leads)."""
    tochoo_plays_on: bool
    """H9: a tochoo does not end the trick; a trick with a tochoo is picked up at its end."""
    lead_passes_down: bool
    """H10: when a clean trick's winner is out, the next-highest card still in leads."""
    trump_from_start: int
    """H12: the suit that is trump from the start (``trump: fixed``), else -1."""
    trump_named_by_dealer: bool
    """H12: before the first lead the dealer names the trump suit."""

    @staticmethod
    def of(rules: m.Ruleset) -> RuleBook:
        return _compile(rules)


@lru_cache(maxsize=256)
def _compile(rules: m.Ruleset) -> RuleBook:
    deck = rules.deck
    ids = range(deck.packs * CARDS_PER_PACK)
    first_trick, off, lead = rules.first_trick, rules.off_suit, rules.next_leader
    take, end = rules.take_hand, rules.end
    after_pickup = {
        m.AfterPickup.PICKER: PICKER,
        m.AfterPickup.HIGHEST: HIGHEST,
        m.AfterPickup.LOWEST: LOWEST,
        m.AfterPickup.TOCHOO_PLAYER: TOCHOO_PLAYER,
    }[lead.after_pickup]
    all_out = {
        m.AllOutTogether.NO_BHABHI: NOBODY,
        m.AllOutTogether.LAST_TO_PLAY: LAST_TO_PLAY,
        m.AllOutTogether.TRICK_WINNER: TRICK_WINNER,
    }[end.all_out_together]
    masks = tuple(suit_mask(s, deck.packs) for s in range(4))
    return RuleBook(
        step=1 if rules.direction is m.Direction.CLOCKWISE else -1,
        take_step=_take_step(rules),
        suit=tuple(suit_of(c) for c in ids),
        strength=tuple(deck.strength(c) for c in ids),
        suit_masks=(masks[0], masks[1], masks[2], masks[3]),
        deck=deck.cards(),
        later_identical_wins=deck.identical_cards is m.IdenticalCards.LAST_PLAYED,
        first_lead_card=rules.first_lead.card,
        first_lead_if_absent_highest=(
            rules.first_lead.if_absent is m.IfLeadCardAbsent.HIGHEST_OF_SUIT
        ),
        first_trick_discards=first_trick.off_suit is m.FirstTrickOffSuit.DISCARD,
        first_trick_first_leader_leads=(
            first_trick.next_leader is m.FirstTrickNextLeader.FIRST_LEADER
        ),
        pickup_when_void=off.play is m.OffSuitPlay.PICKUP,
        tochoo_ends_trick=off.play is m.OffSuitPlay.TOCHOO,  # H9's tochoo_plays_on: False
        tochoo_picked_up_by_high=off.tochoo_picked_up_by is m.TochooPickedUpBy.HIGHEST_OF_LED,
        pickup_takes_waste=off.pickup_takes is m.PickupTakes.TRICK_AND_WASTE,
        trump_from_first_off_suit=rules.trump is m.Trump.FIRST_OFF_SUIT_CARD,
        complete_next_high=lead.after_complete_trick is m.AfterCompleteTrick.HIGHEST,
        after_pickup=after_pickup,
        leader_draws=lead.if_out
        in (m.IfLeaderOut.DRAWS_FROM_WASTE, m.IfLeaderOut.DRAWS_FROM_PLAYER),
        draw_from_trick_when_waste_empty=lead.if_waste_empty is m.IfWasteEmpty.DRAWS_FROM_TRICK,
        take_hand=take.when is not m.TakeHandWhen.NEVER,
        take_hand_leader_only=take.when is m.TakeHandWhen.LEADER_BEFORE_TRICK,
        take_hand_once_per_trick=take.per_trick is m.TakesPerTrick.ONE,
        lead_passes_to_taker=take.lead_passes_to is m.LeadPassesTo.TAKER,
        all_out_together=all_out,
        two_left_pickup_loses=end.two_left_pickup_loses,
        max_tricks=end.max_tricks,
        at_max_most_cards=end.at_max_tricks is m.ForcedEnd.MOST_CARDS,
        at_dead_most_cards=end.at_dead_position is m.DeadPositionEnd.MOST_CARDS,
        at_dead_plays_on=end.at_dead_position is m.DeadPositionEnd.PLAY_ON,
        teams=rules.players.teams is m.Teams.PARTNERS_OPPOSITE,
        illegal_play_penalty=rules.illegal_play is m.IllegalPlay.PICKUP_PENALTY,
        timeout_card=HIGHEST if rules.timeout_move is m.TimeoutMove.HIGHEST_CARD else LOWEST,
        take_choice=_take_choice(take.from_),
        take_consent=take.consent,
        take_before_first_trick=take.before_first_trick,
        take_with_two_left=take.with_two_left,
        take_pass_in_turn=take.per_trick is m.TakesPerTrick.PASS_IN_TURN,
        take_owed_by_tochoo=take.when is m.TakeHandWhen.AFTER_NEIGHBOUR_TOCHOO,
        remove_lowest=rules.deal.remainder is m.DealRemainder.REMOVE_LOWEST,
        deal_step=1 if rules.deal.order is m.DealOrder.SEAT_ORDER else _step(rules),
        draws_from_player=lead.if_out is m.IfLeaderOut.DRAWS_FROM_PLAYER,
        draw_from_chosen=lead.draw_from is m.DrawFrom.CHOSEN,
        draw_pile_with_trick=lead.draw_pile is m.DrawPile.WASTE_AND_TRICK,
        draw_top=lead.draw is m.WasteDraw.TOP,
        shootout=_shootout(rules),
        two_left_tochoo_wins=end.two_left_tochoo_wins,
        two_left_power_escapes=end.two_left_power_escapes,
        power_rules=_power_rules_on(rules),
        challenge=rules.illegal_play is m.IllegalPlay.CHALLENGE,
        false_tochoo_bhabhi=rules.false_tochoo_penalty is m.FalseTochooPenalty.BHABHI,
        out_of_turn_penalty=rules.out_of_turn is m.OutOfTurn.PICKUP_PENALTY,
        hand_sizes_hidden=rules.hand_sizes is m.HandSizes.HIDDEN,
        fast_playout=_fast_playout(rules),
        first_trick_void_highest=first_trick.void_plays is m.FirstTrickVoidPlays.HIGHEST,
        first_lead_free=rules.first_lead.leads is m.FirstLeadLeads.ANY_CARD,
        tochoo_plays_on=off.play is m.OffSuitPlay.TOCHOO_PLAYS_ON,
        lead_passes_down=lead.if_out is m.IfLeaderOut.NEXT_HIGHEST,
        trump_from_start=(
            "CDHS".index(rules.trump_suit.value)
            if rules.trump is m.Trump.FIXED and rules.trump_suit is not None
            else -1
        ),
        trump_named_by_dealer=rules.trump is m.Trump.DEALER_CHOICE,
    )


def _take_step(rules: m.Ruleset) -> int:
    """B9's side (+1 left, -1 right); H23's next in turn goes the way play goes."""
    side = rules.take_hand.from_
    if side is m.TakeHandFrom.NEXT_IN_TURN:
        return 1 if rules.direction is m.Direction.CLOCKWISE else -1
    return -1 if side is m.TakeHandFrom.RIGHT else 1


def _take_choice(side: m.TakeHandFrom) -> int:
    if side is m.TakeHandFrom.EITHER_NEIGHBOUR:
        return NEIGHBOURS
    return ANYONE if side is m.TakeHandFrom.ANY_PLAYER else NAMED


def _taking_rules_on(take: m.TakeHand) -> bool:
    """H20-H24 (taking a hand): any on.  H23's ``next_in_turn`` is not among them: it is a
    fixed side (``take_step``), which the fast playout reads like B9's."""
    return (
        take.consent != m.DEFAULT_TAKE_CONSENT
        or take.before_first_trick != m.DEFAULT_TAKE_BEFORE_FIRST_TRICK
        or take.with_two_left != m.DEFAULT_TAKE_WITH_TWO_LEFT
        or take.per_trick is m.TakesPerTrick.PASS_IN_TURN
        or take.from_.chosen
        or take.when is m.TakeHandWhen.AFTER_NEIGHBOUR_TOCHOO
    )


def _step(rules: m.Ruleset) -> int:
    return 1 if rules.direction is m.Direction.CLOCKWISE else -1


def _shootout(rules: m.Ruleset) -> int:
    return {
        m.Shootout.NONE: NO_SHOOTOUT,
        m.Shootout.AFTER_WASTE_DRAW: SHOOTOUT_AFTER_DRAW,
        m.Shootout.ANY_LAST_CARD: SHOOTOUT_LAST_CARD,
    }[rules.end.shootout]


def _power_rules_on(rules: m.Ruleset) -> bool:
    """H14-H19: any rule of getting out with the power or of two players left is on."""
    lead, end = rules.next_leader, rules.end
    return (
        lead.if_out is m.IfLeaderOut.DRAWS_FROM_PLAYER
        or lead.draw_from is not m.DEFAULT_DRAW_FROM
        or lead.draw_pile is not m.DEFAULT_DRAW_PILE
        or lead.draw is not m.DEFAULT_WASTE_DRAW
        or end.shootout is not m.DEFAULT_SHOOTOUT
        or end.two_left_tochoo_wins
        or end.two_left_power_escapes
    )


def _fast_playout(rules: m.Ruleset) -> bool:
    """True when no rule that only ``Hand`` plays is on (one condition per house rule)."""
    deal_rules = (
        rules.deal.remainder is not m.DealRemainder.DEAL_OUT,  # H1: a smaller deck
        # H4: seat order is another deal order only when play goes counterclockwise
        rules.deal.order is m.DealOrder.SEAT_ORDER
        and rules.direction is m.Direction.COUNTERCLOCKWISE,
    )
    return (
        not any(deal_rules)
        and not _trick_house_rules_on(rules)
        and not _power_rules_on(rules)  # H14-H19
        and rules.illegal_play is not m.IllegalPlay.CHALLENGE  # H25
        and rules.out_of_turn is not m.OutOfTurn.PICKUP_PENALTY  # H26
        and not _taking_rules_on(rules.take_hand)  # H20-H24
    )


def removed_cards(book: RuleBook, players: int) -> tuple[int, ...]:
    """H1: the cards taken out of play before the shuffle, in ascending id order.

    As many as the pack has cards beyond an equal share each (cards mod players), the lowest
    in strength first (the ruleset's rank order, so with aces low the aces), of equal
    strength in suit order clubs, diamonds, hearts, spades, the first pack first.  None
    without ``deal.remainder: remove_lowest``."""
    extra = len(book.deck) % players if book.remove_lowest else 0
    if not extra:
        return ()
    lowest = sorted(
        book.deck,
        key=lambda c: (book.strength[c], book.suit[c], c // CARDS_PER_PACK),
    )
    return tuple(sorted(lowest[:extra]))


def dealt_deck(book: RuleBook, players: int) -> tuple[int, ...]:
    """The cards shuffled and dealt (C4): the deck, less what H1 takes out of play."""
    removed = removed_cards(book, players)
    if not removed:
        return book.deck
    gone = set(removed)
    return tuple(c for c in book.deck if c not in gone)


def _trick_house_rules_on(rules: m.Ruleset) -> bool:
    """H5, H6, H9, H10, H12 (and H9's leader after a pickup, also under B4): rules of the
    first trick, the trick and the lead that only ``Hand`` plays."""
    return (
        rules.first_trick.void_plays is not m.FirstTrickVoidPlays.ANY
        or rules.first_lead.leads is not m.FirstLeadLeads.THE_CARD
        or rules.off_suit.play is m.OffSuitPlay.TOCHOO_PLAYS_ON
        or rules.next_leader.after_pickup is m.AfterPickup.TOCHOO_PLAYER
        or rules.next_leader.if_out is m.IfLeaderOut.NEXT_HIGHEST
        or rules.trump in (m.Trump.FIXED, m.Trump.DEALER_CHOICE)
    )
