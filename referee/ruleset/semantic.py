"""Checks that relate several options, which JSON Schema cannot express.

They run together with the schema, so that a file's problems are all reported at once: each
check runs when every value it reads passed the schema (it is there, and no schema error was
found at it or below it), and is left out otherwise, since its verdict would rest on a value
the schema already refused.  A conflict involves several keys, often from different files
(a house rule shrinks ``deck.ranks`` of a base that sets ``first_lead.card``); each problem
points at the first of its keys that the checked file itself wrote, since that is where the
person will change something, and otherwise at the main key wherever it was written.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from referee.cards import RANKS, CardSyntaxError, pack_of, parse_card, rank_of
from referee.ruleset.problems import Code, Problem
from referee.ruleset.schema import Locate
from referee.ruleset.yamlsafe import KeyPath, dotted

Report = Callable[[tuple[KeyPath, ...], str], None]
"""``report(keys, message)``: a problem across ``keys``, located at the first the file wrote."""


class Values:
    """The values of a resolved ruleset that passed the schema."""

    def __init__(self, ruleset: Mapping[str, Any], invalid: Collection[KeyPath] = ()) -> None:
        self.ruleset = ruleset
        self.invalid = frozenset(invalid)

    def get(self, *paths: KeyPath) -> list[Any] | None:
        """The values at ``paths``, or None when any of them is missing or failed the schema."""
        found = []
        for path in paths:
            if any(bad[: len(path)] == path for bad in self.invalid):
                return None
            value: Any = self.ruleset
            for key in path:
                if not isinstance(value, Mapping) or key not in value:
                    return None
                value = value[key]
            found.append(value)
        return found


def semantic_problems(
    ruleset: Mapping[str, Any],
    locate: Locate,
    own_file: str | None = None,
    invalid: Collection[KeyPath] = (),
) -> list[Problem]:
    """Problems of a resolved ruleset that only show across several keys.

    ``own_file`` is the name of the file being checked (not a base it extends); ``invalid``
    the key paths at which the schema found errors (none: the ruleset passed it).
    """
    problems: list[Problem] = []
    values = Values(ruleset, invalid)

    def report(keys: tuple[KeyPath, ...], message: str) -> None:
        places = [(path, *locate(path, False)) for path in keys]
        path, file, mark = next((p for p in places if p[1] == own_file), places[0])
        problems.append(Problem(file, mark.line, mark.column, dotted(path), message, Code.SEMANTIC))

    low_high = values.get(("players", "min"), ("players", "max"))
    if low_high is not None:
        low, high = low_high
        if low > high:
            report(
                (("players", "min"), ("players", "max")),
                f"players.min ({low}) is greater than players.max ({high})",
            )

    _check_table_size(values, report)

    teams = values.get(("players", "teams"))
    if teams is not None and teams[0] == "partners_opposite":
        for key in ("min", "max"):
            count = values.get(("players", key))
            if count is not None and count[0] % 2:
                report(
                    (("players", key), ("players", "teams")),
                    f"a team variant needs an even number of players, but players.{key} is "
                    f"{count[0]} (teams: partners_opposite seats partners opposite each other)",
                )

    deck = values.get(("players", "max"), ("deck", "ranks"), ("deck", "packs"))
    if deck is not None:
        high, ranks, packs = deck
        size = 4 * len(ranks) * packs
        if size < high:
            report(
                (("players", "max"), ("deck", "ranks"), ("deck", "packs")),
                f"the deck has {size} cards ({_plural(len(ranks), 'rank')} x 4 suits x "
                f"{_plural(packs, 'pack')}), too few for {high} players: "
                "every player must be dealt at least one card",
            )

    lead = values.get(("first_lead", "card"))
    if lead is not None:
        _check_lead_card(lead[0], values, report)

    trump = values.get(("trump",), ("off_suit", "play"))
    if trump is not None and trump[0] != "none" and trump[1] == "pickup":
        report(
            (("trump",), ("off_suit", "play")),
            "trump (X5) is fixed by the first card played by a player who cannot follow, "
            "but with off_suit.play: pickup nobody who cannot follow plays a card; use "
            "discard or tochoo, or trump: none",
        )

    dealer = values.get(("deal", "first_dealer"), ("players", "max"))
    if dealer is not None and dealer[0] >= dealer[1]:
        first, high = dealer
        report(
            (("deal", "first_dealer"), ("players", "max")),
            f"deal.first_dealer is seat {first}, but with at most {high} players the seats "
            f"are 0 to {high - 1}",
        )
    _check_take_hand(values, report)
    return problems


_TAKE_OPTIONS_DEFAULTS = (
    ("consent", False, "H20"),
    ("before_first_trick", True, "H21"),
    ("with_two_left", True, "H21"),
)
"""The optional options of ``take_hand`` (house rules H20, H21) and their defaults."""


def _check_take_hand(values: Values, report: Report) -> None:
    """House rules H20-H24 that say nothing, or can never apply, with the other options."""
    when = values.get(("take_hand", "when"))
    if when is None:
        return
    if when[0] == "never":
        for key, default, clause in _TAKE_OPTIONS_DEFAULTS:
            found = values.get(("take_hand", key))
            if found is not None and found[0] != default:
                report(
                    (("take_hand", key), ("take_hand", "when")),
                    f"{str(found[0]).lower()} ({clause}) changes nothing: take_hand.when is "
                    "never, so no hand is ever taken",
                )
        per = values.get(("take_hand", "per_trick"))
        if per is not None and per[0] == "pass_in_turn":
            report(
                (("take_hand", "per_trick"), ("take_hand", "when")),
                "pass_in_turn (H22) asks every player whether they take a hand, but "
                "take_hand.when is never: nobody may; use one or any",
            )
        side = values.get(("take_hand", "from"))
        if side is not None and side[0] not in ("left", "right"):
            report(
                (("take_hand", "from"), ("take_hand", "when")),
                f"{side[0]} (H23) says whose hand is taken, but take_hand.when is never: no "
                "hand is; use left or right",
            )
        return
    per = values.get(("take_hand", "per_trick"))
    if when[0] == "leader_before_trick" and per is not None and per[0] == "pass_in_turn":
        report(
            (("take_hand", "per_trick"), ("take_hand", "when")),
            "pass_in_turn (H22) would ask only the leader, since with take_hand.when: "
            "leader_before_trick (X1) nobody else may take: use per_trick: one (the leader "
            "takes at most once) or any",
        )
    if when[0] == "after_neighbour_tochoo":
        _check_neighbour_debt(values, report)


def _check_neighbour_debt(values: Values, report: Report) -> None:
    """H24 needs a tochoo that a neighbour of its picker plays."""
    side = values.get(("take_hand", "from"))
    if side is not None and side[0] == "any_player":
        report(
            (("take_hand", "from"), ("take_hand", "when")),
            "take_hand.when: after_neighbour_tochoo (H24) lets a player take the hand of the "
            "neighbour who played a tochoo they had to pick up, but take_hand.from: "
            "any_player names no neighbour: use either_neighbour, left, right or next_in_turn",
        )
    play = values.get(("off_suit", "play"))
    if play is not None and play[0] != "tochoo":
        report(
            (("take_hand", "when"), ("off_suit", "play")),
            f"take_hand.when: after_neighbour_tochoo (H24) follows a tochoo, but with "
            f"off_suit.play: {play[0]} nobody plays one: no hand would ever be taken; use "
            "off_suit.play: tochoo or another take_hand.when",
        )
        return
    picker = values.get(("off_suit", "tochoo_picked_up_by"))
    if picker is not None and picker[0] == "tochoo_player":
        report(
            (("take_hand", "when"), ("off_suit", "tochoo_picked_up_by")),
            "take_hand.when: after_neighbour_tochoo (H24) lets the player who had to pick "
            "up a neighbour's tochoo take that neighbour's hand, but with "
            "off_suit.tochoo_picked_up_by: tochoo_player the tochoo's own player picks it "
            "up: no hand would ever be taken; use highest_of_led",
        )


MIN_PLAYERS = 2
"""H3: the fewest players any ruleset may allow (two play each other)."""
MAX_PLAYERS = {1: 10, 2: 16}
"""H3, X4: the most players a ruleset may allow with so many packs: ten with one pack (H3),
sixteen with two (the X4 ruleset ``two-packs``; H3's sources stop at twelve)."""


def _check_table_size(values: Values, report: Report) -> None:
    """H3: two players at least; at most ten with one pack, sixteen with two (X4)."""
    low = values.get(("players", "min"))
    if low is not None and low[0] < MIN_PLAYERS:
        report(
            (("players", "min"),),
            f"players.min is {low[0]}, but Bhabhi needs at least {MIN_PLAYERS} players (H3)",
        )
    high_packs = values.get(("players", "max"), ("deck", "packs"))
    if high_packs is None:
        return
    high, packs = high_packs
    most = MAX_PLAYERS.get(packs, max(MAX_PLAYERS.values()))
    if high > most:
        report(
            (("players", "max"), ("deck", "packs")),
            f"players.max is {high}, but with {_plural(packs, 'pack')} at most {most} may "
            f"play (H3: up to 10 with one pack; X4: up to 16 with two)",
        )


def _check_lead_card(card_text: str, values: Values, report: Report) -> None:
    """The first lead card must be in the deck: its rank in ``deck.ranks``, its pack within
    ``deck.packs``."""
    try:
        card = parse_card(card_text)
    except CardSyntaxError as exc:  # pragma: no cover - the schema's pattern refuses it first
        report((("first_lead", "card"),), str(exc))
        return
    rank = RANKS[rank_of(card)]
    ranks = values.get(("deck", "ranks"))
    packs = values.get(("deck", "packs"))
    if ranks is not None and rank not in ranks[0]:
        report(
            (("first_lead", "card"), ("deck", "ranks")),
            f"first lead card {card_text!r} is not in the deck: rank {rank} is not in "
            f"deck.ranks ({', '.join(ranks[0])})",
        )
    elif packs is not None and pack_of(card) >= packs[0]:
        report(
            (("first_lead", "card"), ("deck", "packs")),
            f"first lead card {card_text!r} is not in the deck: it names pack "
            f"{pack_of(card) + 1}, but deck.packs is {packs[0]}",
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
