"""What a player (or a bot) must know about a ruleset, read from ``GetRuleset``'s YAML.

A seat's view says what is on the table but not what the rules make of it: whether a void
player picks up or plays a tochoo, whether Aces are low, which way play goes, whether the
power can escape.  The referee publishes the resolved ruleset as YAML, so the client reads
those few options from it (with the bundled Bhabho's values for anything missing, so that
an older or newer referee never breaks a bot) instead of depending on the server package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from bhabhi_client.cards import RANKS, SUIT_NAMES, Card, rank_order


@dataclass(frozen=True, slots=True)
class RulesProfile:
    """The options that change how to play well or how to show a table."""

    id: str = "bhabho"
    title: Mapping[str, str] = field(default_factory=dict)
    description: Mapping[str, str] = field(default_factory=dict)
    ranks: tuple[str, ...] = RANKS
    ace_low: bool = False
    packs: int = 1
    clockwise: bool = True
    off_suit: str = "tochoo"
    """``pickup`` (P1), ``discard`` (D1) or ``tochoo`` (B4)."""
    tochoo_picked_up_by: str = "highest_of_led"
    pickup_takes: str = "trick"
    after_complete_trick: str = "highest"
    after_pickup: str = "highest"
    if_out: str = "draws_from_waste"
    """``draws_from_waste`` is B8: a last card that wins a clean trick cannot escape."""
    take_hand_when: str = "before_any_trick"
    """``never``, ``before_any_trick`` (B9), ``leader_before_trick`` (X1) or
    ``after_neighbour_tochoo`` (H24)."""
    take_hand_from: str = "left"
    """``left``, ``right`` (B9); ``next_in_turn``, ``either_neighbour``, ``any_player`` (H23)."""
    take_hand_per_trick: str = "any"
    """``one``, ``any`` (B9) or ``pass_in_turn`` (H22)."""
    take_hand_consent: bool = False
    """H20: a take is a request the player asked agrees to or refuses."""
    take_hand_before_first_trick: bool = True
    """H21: false, no take before the first trick."""
    take_hand_with_two_left: bool = True
    """H21: false, no take once only two players are left."""
    two_left_pickup_loses: bool = False
    trump: str = "none"
    """``none``, ``first_off_suit_card`` (X5), ``fixed`` or ``dealer_choice`` (H12)."""
    trump_suit: str = ""
    """H12 ``fixed``: the suit letter (C, D, H, S)."""
    session_hands: int | None = 10
    session_chips: int = 0
    """C15: chips each Bhabhi puts in the pot (0: no chips)."""
    chips_by_card_points: bool = False
    """H28: a Bhabhi pays ``session_chips`` times the points of the cards left in hand."""
    raw: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_yaml(cls, text: str) -> RulesProfile:
        data = yaml.safe_load(text)
        return cls.from_mapping(data if isinstance(data, Mapping) else {})

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> RulesProfile:
        def section(name: str) -> Mapping[str, Any]:
            value = data.get(name)
            return value if isinstance(value, Mapping) else {}

        def text(mapping: Mapping[str, Any], key: str, default: str) -> str:
            value = mapping.get(key, default)
            return str(value) if value is not None else default

        deck, off, nxt = section("deck"), section("off_suit"), section("next_leader")
        take, end, session = section("take_hand"), section("end"), section("session")
        base = cls()
        ranks = deck.get("ranks")
        hands = session.get("hands", base.session_hands)
        chips = session.get("chips", base.session_chips)
        return cls(
            id=text(data, "id", "?"),
            title=_texts(data.get("title")),
            description=_texts(data.get("description")),
            ranks=tuple(str(r) for r in ranks) if isinstance(ranks, list) and ranks else RANKS,
            ace_low=text(deck, "ace", "high") == "low",
            packs=int(deck.get("packs", 1) or 1),
            clockwise=text(data, "direction", "clockwise") != "counterclockwise",
            off_suit=text(off, "play", base.off_suit),
            tochoo_picked_up_by=text(off, "tochoo_picked_up_by", base.tochoo_picked_up_by),
            pickup_takes=text(off, "pickup_takes", base.pickup_takes),
            after_complete_trick=text(nxt, "after_complete_trick", base.after_complete_trick),
            after_pickup=text(nxt, "after_pickup", base.after_pickup),
            if_out=text(nxt, "if_out", base.if_out),
            take_hand_when=text(take, "when", base.take_hand_when),
            take_hand_from=text(take, "from", base.take_hand_from),
            take_hand_per_trick=text(take, "per_trick", base.take_hand_per_trick),
            take_hand_consent=take.get("consent", base.take_hand_consent) is True,
            take_hand_before_first_trick=take.get("before_first_trick", True) is not False,
            take_hand_with_two_left=take.get("with_two_left", True) is not False,
            two_left_pickup_loses=bool(end.get("two_left_pickup_loses", False)),
            trump=text(data, "trump", base.trump),
            trump_suit=text(data, "trump_suit", ""),
            session_hands=int(hands) if isinstance(hands, int) else None,
            session_chips=chips if isinstance(chips, int) and chips > 0 else 0,
            chips_by_card_points=text(session, "chips_by", "bhabhi") == "card_points",
            raw=dict(data),
        )

    @property
    def step(self) -> int:
        """+1 when play goes 0, 1, 2 … (seats are numbered clockwise), else -1."""
        return 1 if self.clockwise else -1

    @property
    def take_step(self) -> int:
        """+1 when B9 takes from the left neighbour (seat + 1), -1 from the right; H23's
        ``next_in_turn`` goes the way play goes.  (Where the taker chooses, H23's
        ``either_neighbour`` and ``any_player``, the legal actions name each hand.)"""
        if self.take_hand_from == "next_in_turn":
            return self.step
        return -1 if self.take_hand_from == "right" else 1

    @property
    def take_chosen(self) -> bool:
        """H23: the taker names whose hand (``take 3``), not the rules."""
        return self.take_hand_from in ("either_neighbour", "any_player")

    @property
    def order(self) -> dict[str, int]:
        return rank_order(self.ranks, ace_low=self.ace_low)

    def strength(self, card: str) -> int:
        """Rank within its suit, weakest 0; unknown ranks count as weakest."""
        return self.order.get(Card.parse(card).rank, -1)

    def sort_key(self, card: str) -> tuple[int, int, int]:
        """Clubs, diamonds, hearts, spades, each weakest first: how a hand is held."""
        parsed = Card.parse(card)
        return ("CDHS".index(parsed.suit), self.strength(card), parsed.pack)

    def title_in(self, language: str) -> str:
        return _pick(self.title, language) or self.id

    def description_in(self, language: str) -> str:
        return _pick(self.description, language)

    def summary_lines(self) -> list[str]:
        """The key options in a sentence each, for the ``rules`` command of the game."""
        lines = []
        aces = "low (below the 2)" if self.ace_low else "high"
        packs = f"{self.packs} packs" if self.packs > 1 else "one pack"
        lines.append(f"Cards: {packs}, ranks {' '.join(self.ranks)}; Aces {aces}.")
        lines.append(f"Play goes {'clockwise' if self.clockwise else 'counter-clockwise'}.")
        if self.off_suit == "pickup":
            takes = "the trick and the whole waste pile" if self.whole_pile else "the trick"
            lines.append(f"Cannot follow suit: you play no card and pick up {takes}.")
        elif self.off_suit == "discard":
            lines.append("Cannot follow suit: discard any card; it cannot win the trick.")
        else:
            who = (
                "the player of the highest card of the led suit"
                if self.tochoo_picked_up_by == "highest_of_led"
                else "the player of the tochoo"
            )
            lines.append(
                f"Cannot follow suit: play any card (a tochoo); it ends the trick and {who} "
                "picks it up."
            )
        leads = {
            "highest": "the highest card of the led suit",
            "lowest": "the lowest card of the led suit",
            "picker": "the player who picked up",
        }
        lines.append(
            f"Next lead: after a full trick {leads.get(self.after_complete_trick, '?')}; "
            f"after a pickup {leads.get(self.after_pickup, '?')}."
        )
        if self.if_out == "draws_from_waste":
            lines.append(
                "No escape with the power: if your last card wins a full trick you draw from "
                "the waste pile and lead again."
            )
        elif self.if_out == "draws_from_player":
            lines.append(
                "No escape with the power: if your last card wins a full trick you draw a "
                "card from another player's hand and lead it."
            )
        if self.take_hand_when != "never":
            lines.extend(self._take_lines())
        if self.two_left_pickup_loses:
            lines.append("With two players left, whoever must pick up is the Bhabhi.")
        trump = {
            "first_off_suit_card": "the suit of the first card played by a player who cannot "
            "follow (X5)",
            "fixed": f"{SUIT_NAMES.get(self.trump_suit, self.trump_suit)}, all hand (H12)",
            "dealer_choice": "the dealer names it before the first lead (H12)",
        }.get(self.trump)
        if trump:
            lines.append(f"Trump: {trump}; a trump played off-suit beats the led suit.")
        if self.session_hands:
            lines.append(f"A session is {self.session_hands} hands (unless the table says less).")
        if self.session_chips and self.chips_by_card_points:
            lines.append(
                f"Chips: each Bhabhi puts {self.session_chips} per point of the cards left in "
                "hand (2-10 as marked, J Q K 10, A 1) in the pot; whoever was the Bhabhi the "
                "fewest times takes it at the end."
            )
        elif self.session_chips:
            lines.append(
                f"Chips: each Bhabhi puts {self.session_chips} in the pot; whoever was the "
                "Bhabhi the fewest times takes it at the end."
            )
        return lines

    def _take_lines(self) -> list[str]:
        """Taking a hand (B9, X1, H20-H24) in a sentence or two."""
        when = {
            "before_any_trick": "before any trick",
            "leader_before_trick": "before a trick you lead",
            "after_neighbour_tochoo": (
                "before the next trick, when their tochoo made you pick up: they owe it"
            ),
        }.get(self.take_hand_when, "before a trick")
        whose = {
            "left": "your left neighbour's",
            "right": "your right neighbour's",
            "next_in_turn": "the next player's (in the direction of play)",
            "either_neighbour": "either neighbour's (you choose)",
            "any_player": "any player's (you choose)",
        }.get(self.take_hand_from, "a neighbour's")
        if self.take_hand_when == "after_neighbour_tochoo":
            whose = "a neighbour's" if self.take_hand_from != "either_neighbour" else whose
        how = "type 'take 3' for seat 3's" if self.take_chosen else "type 't'"
        lines = [f"You may take {whose} whole hand ({when}): {how}."]
        limits = []
        if not self.take_hand_before_first_trick:
            limits.append("not before the first trick")
        if not self.take_hand_with_two_left:
            limits.append("not with only two players left")
        if limits:
            lines.append(f"No taking {' and '.join(limits)}.")
        if self.take_hand_per_trick == "pass_in_turn":
            lines.append(
                "Before each trick one take pass goes round from the leader: when asked, "
                "take or 'pass'."
            )
        if self.take_hand_consent:
            lines.append(
                "A take is a request: the player asked must 'agree' or 'refuse'; refused, "
                "you may not ask them again before this trick."
            )
        return lines

    @property
    def whole_pile(self) -> bool:
        return self.pickup_takes == "trick_and_waste"


def _texts(value: object) -> dict[str, str]:
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, str):
        return {"en": value}
    return {}


def _pick(texts: Mapping[str, str], language: str) -> str:
    return texts.get(language) or texts.get("en") or ""
