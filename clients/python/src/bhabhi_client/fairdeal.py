"""Check that a referee dealt a hand fairly, from its export alone (docs/shuffle.md).

The referee commits to each hand's seed when it deals (``HandStarted.seed_commitment``) and
reveals the seed when the hand is over (``HandOver.seed``); ``ExportHand`` returns the hand
as a conformance case whose ``fair_deal`` mapping carries the seed, the commitment, the
players, the dealer, the direction of play and the deck.  This module implements the
published shuffle again from the page, without the referee's engine, so that a player with
only this package can check a referee they do not run: the seed hashes to the commitment,
and the seed deals every seat exactly the cards the case says it held.

The checks use the export's own data and nothing else: that its deck and direction are the
ruleset's is for a checker that knows the ruleset (``bhabhi verify-deal`` does both).
``docs/shuffle-vectors.json`` holds the values this module and the engine are both tested
against.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from bhabhi_client.cards import Card, CardSyntaxError

SHUFFLE_LABEL = b"bhabhi/shuffle/v1"
STEPS = {"clockwise": 1, "counterclockwise": -1}
"""Play direction to seat step: seats are numbered clockwise."""
_TWO_64 = 1 << 64
_SHOWN = 6
"""Cards named in a failed deal check before "and N more"."""


class FairDealError(ValueError):
    """The text is not an export a deal can be checked from: not YAML, no ``fair_deal``
    (a test deal has no seed), or a field of the wrong kind.  The message names the field."""


def seed_commitment(seed: str) -> str:
    """``sha256:`` + hex SHA-256 of the seed's UTF-8 bytes: for a referee seed, the ASCII of
    its 64 hex digits (not the 32 bytes they spell)."""
    return "sha256:" + hashlib.sha256(seed.encode("utf-8")).hexdigest()


def stream(seed: bytes, label: bytes) -> Iterator[int]:
    """The 8-byte big-endian values of ``SHA-256(label || 0x00 || seed || counter)``,
    counter 0, 1, 2 … as 8 bytes big-endian."""
    prefix = label + b"\x00" + seed
    counter = 0
    while True:
        block = hashlib.sha256(prefix + counter.to_bytes(8, "big")).digest()
        counter += 1
        for start in range(0, 32, 8):
            yield int.from_bytes(block[start : start + 8], "big")


def uniform(values: Iterator[int], m: int) -> int:
    """A value below ``m``: the first one under ``2**64 - (2**64 mod m)``, modulo ``m``."""
    limit = _TWO_64 - _TWO_64 % m
    while True:
        u = next(values)
        if u < limit:
            return u % m


def shuffle(deck: Sequence[Card], seed: str) -> list[Card]:
    """The deck in ascending card id, then Fisher-Yates from the top: for ``i`` from
    ``n - 1`` down to 1, swap positions ``i`` and ``uniform(i + 1)``."""
    cards = sorted(deck, key=lambda card: card.id)
    values = stream(seed.encode("utf-8"), SHUFFLE_LABEL)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(values, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal(
    deck: Sequence[Card], seed: str, players: int, dealer: int, direction: str
) -> list[list[Card]]:
    """Every seat's cards (seat 0 first), in the order dealt: position ``k`` of the shuffled
    deck goes to the seat ``k % players + 1`` places after the dealer in play direction."""
    step = STEPS[direction]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for k, card in enumerate(shuffle(deck, seed)):
        hands[(dealer + step * (k % players + 1)) % players].append(card)
    return hands


@dataclass(frozen=True, slots=True)
class FairDeal:
    """The ``fair_deal`` mapping of an export: what re-deriving the deal needs."""

    seed: str
    commitment: str
    players: int
    dealer: int
    direction: str
    deck: tuple[Card, ...]

    @classmethod
    def of_case(cls, case: Mapping[str, Any]) -> FairDeal:
        raw = case.get("fair_deal")
        if raw is None:
            raise FairDealError(
                "the export has no fair_deal: the hand was not dealt from a seed (a test "
                "deal), or the referee that exported it does not write one"
            )
        if not isinstance(raw, Mapping):
            raise FairDealError("fair_deal must be a mapping")
        seed = _field(raw, "seed", str, "fair_deal.")
        if not seed:
            raise FairDealError("fair_deal.seed is empty")
        players = _field(raw, "players", int, "fair_deal.")
        if players < 1:
            raise FairDealError(f"fair_deal.players must be at least 1, not {players}")
        dealer = _field(raw, "dealer", int, "fair_deal.")
        if not 0 <= dealer < players:
            raise FairDealError(f"fair_deal.dealer must be a seat, 0 to {players - 1}")
        direction = _field(raw, "direction", str, "fair_deal.")
        if direction not in STEPS:
            raise FairDealError(
                f"fair_deal.direction must be clockwise or counterclockwise, not {direction!r}"
            )
        deck = tuple(_cards(_field(raw, "deck", list, "fair_deal."), "fair_deal.deck"))
        if len(set(_ids(deck))) != len(deck):
            raise FairDealError("fair_deal.deck names a card twice")
        commitment = _field(raw, "commitment", str, "fair_deal.")
        return cls(seed, commitment, players, dealer, direction, deck)


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The outcome of checking an export: ``fair``, or which check ``failed`` and why."""

    fair_deal: FairDeal
    recorded: tuple[tuple[Card, ...], ...]
    """Every seat's cards as the case records them."""
    derived: tuple[tuple[Card, ...], ...]
    """Every seat's cards as the seed deals them."""
    failed: str | None
    """None when fair; else ``commitment`` (the seed does not hash to it), ``case`` (the
    fair_deal disagrees with the case's own players, dealer or seed) or ``deal``."""
    detail: str

    @property
    def fair(self) -> bool:
        return self.failed is None

    def line(self) -> str:
        """One line: ``fair: …`` or ``unfair: <check>: …``."""
        return f"fair: {self.detail}" if self.fair else f"unfair: {self.failed}: {self.detail}"


def verify_deal(case_yaml: str) -> DealCheck:
    """Check an exported hand (``ExportHand``'s ``case_yaml``): the seed against the
    commitment, and the deal the seed gives against the deal the case records.

    Raises FairDealError when the text cannot be checked (not YAML, no ``fair_deal``).
    """
    try:
        case = yaml.safe_load(case_yaml)
    except yaml.YAMLError as error:
        raise FairDealError(f"not YAML: {' '.join(str(error).split())}") from error
    if not isinstance(case, Mapping):
        raise FairDealError("not an exported hand: the document is not a mapping")
    return check_case(case)


def check_case(case: Mapping[str, Any]) -> DealCheck:
    """``verify_deal`` on a case already read."""
    fair = FairDeal.of_case(case)
    recorded = tuple(tuple(cards) for cards in _recorded_deal(case))
    derived = tuple(
        tuple(h) for h in deal(fair.deck, fair.seed, fair.players, fair.dealer, fair.direction)
    )

    def result(failed: str | None, detail: str) -> DealCheck:
        return DealCheck(fair, recorded, derived, failed, detail)

    hashed = seed_commitment(fair.seed)
    if hashed != fair.commitment:
        return result(
            "commitment", f"the seed hashes to {hashed}, but the commitment is {fair.commitment}"
        )
    disagreement = _disagreement(case, fair, len(recorded))
    if disagreement:
        return result("case", disagreement)
    for seat, (held, dealt) in enumerate(zip(recorded, derived, strict=True)):
        extra = set(_ids(held)) - set(_ids(dealt))
        missing = set(_ids(dealt)) - set(_ids(held))
        parts = []
        if extra:
            parts.append(f"with {_named(held, extra)}, which the seed does not deal it")
        if missing:
            parts.append(f"without {_named(dealt, missing)}, which the seed deals it")
        if not parts and sorted(_ids(held)) != sorted(_ids(dealt)):
            parts.append(f"with {len(held)} cards, a card twice, where the seed deals {len(dealt)}")
        if parts:
            return result("deal", f"seat {seat} is recorded " + " and ".join(parts))
    return result(
        None,
        f"the seed matches the commitment {fair.commitment} and deals every seat its "
        f"recorded cards ({fair.players} seats, dealer {fair.dealer}, {fair.direction}, "
        f"{len(fair.deck)} cards)",
    )


def _disagreement(case: Mapping[str, Any], fair: FairDeal, seats: int) -> str:
    if case.get("players") != fair.players:
        return f"fair_deal.players is {fair.players}, but the case has {case.get('players')}"
    if case.get("dealer") != fair.dealer:
        return f"fair_deal.dealer is {fair.dealer}, but the case's dealer is {case.get('dealer')}"
    if "seed" in case and case["seed"] != fair.seed:
        return f"fair_deal.seed is {fair.seed!r}, but the case's seed is {case['seed']!r}"
    if seats != fair.players:
        return f"the case's deal has {seats} seats, but fair_deal.players is {fair.players}"
    return ""


def _recorded_deal(case: Mapping[str, Any]) -> list[list[Card]]:
    raw = _field(case, "deal", list)
    hands = []
    for seat, entry in enumerate(raw):
        if isinstance(entry, str):
            words: list[Any] = entry.split()
        elif isinstance(entry, list):
            words = entry
        else:
            raise FairDealError(f"deal.{seat} must be a string of cards or a list of cards")
        hands.append(_cards(words, f"deal.{seat}"))
    return hands


_KINDS = {str: "text", int: "an integer", list: "a list"}


def _field(mapping: Mapping[str, Any], key: str, kind: type[Any], prefix: str = "") -> Any:
    value = mapping.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise FairDealError(f"{prefix}{key} must be {_KINDS[kind]}, not {value!r}")
    return value


def _cards(words: Sequence[Any], where: str) -> list[Card]:
    cards = []
    for word in words:
        if not isinstance(word, str):
            raise FairDealError(f"{where}: {word!r} is not a card")
        try:
            cards.append(Card.parse(word))
        except CardSyntaxError as error:
            raise FairDealError(f"{where}: {error}") from error
    return cards


def _ids(cards: Sequence[Card]) -> list[int]:
    return [card.id for card in cards]


def _named(cards: Sequence[Card], ids: set[int]) -> str:
    chosen = [str(card) for card in sorted(cards, key=lambda c: c.id) if card.id in ids]
    more = len(chosen) - _SHOWN
    return " ".join(chosen[:_SHOWN]) + (f" and {more} more" if more > 0 else "")
