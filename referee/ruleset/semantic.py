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
    if trump is not None and trump[0] == "first_off_suit_card" and trump[1] == "pickup":
        report(
            (("trump",), ("off_suit", "play")),
            "trump (X5) is fixed by the first card played by a player who cannot follow, "
            "but with off_suit.play: pickup nobody who cannot follow plays a card; use "
            "discard or tochoo, or trump: none",
        )

    _check_trick_house_rules(values, report)

    dealer = values.get(("deal", "first_dealer"), ("players", "max"))
    if dealer is not None and dealer[0] >= dealer[1]:
        first, high = dealer
        report(
            (("deal", "first_dealer"), ("players", "max")),
            f"deal.first_dealer is seat {first}, but with at most {high} players the seats "
            f"are 0 to {high - 1}",
        )
    _check_power_rules(values, report)
    _check_challenge(values, report)
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


def _check_trick_house_rules(values: Values, report: Report) -> None:
    """H5, H9, H10, H12: house rules of the first trick, the trick and the lead that need
    other options to have any effect, or that contradict them."""

    def value(*path: str) -> Any:
        found = values.get(path)
        return None if found is None else found[0]

    trump, suit, play = value("trump"), value("trump_suit"), value("off_suit", "play")
    if trump in ("fixed", "dealer_choice") and play == "pickup":
        report(
            (("trump",), ("off_suit", "play")),
            f"trump: {trump} (H12) makes an off-suit trump beat the led suit, but with "
            "off_suit.play: pickup a player who cannot follow plays no card, so no trump "
            "is ever played off-suit; use discard, tochoo or tochoo_plays_on, or trump: none",
        )
    if trump == "fixed" and suit is None and ("trump_suit",) not in values.invalid:
        report(
            (("trump",),),
            "trump: fixed (H12) needs trump_suit, the suit that is trump (C, D, H or S)",
        )
    if trump is not None and trump != "fixed" and suit is not None:
        report(
            (("trump_suit",), ("trump",)),
            f"trump_suit ({suit}) names the suit of trump: fixed (H12), but trump is "
            f"{trump}; leave trump_suit out, or write trump: fixed",
        )

    if (
        value("first_trick", "void_plays") == "highest"
        and play == "pickup"
        and value("first_trick", "off_suit") == "as_other_tricks"
    ):
        report(
            (("first_trick", "void_plays"), ("off_suit", "play"), ("first_trick", "off_suit")),
            "first_trick.void_plays: highest (H5) says which card a player who cannot follow "
            "plays to the first trick, but with off_suit.play: pickup and "
            "first_trick.off_suit: as_other_tricks they pick up instead and play no card; "
            "use first_trick.off_suit: discard (B1, X3), or void_plays: any",
        )

    if value("next_leader", "after_pickup") == "tochoo_player" and play in ("pickup", "discard"):
        instead = "picks up instead" if play == "pickup" else "discards"
        report(
            (("next_leader", "after_pickup"), ("off_suit", "play")),
            "next_leader.after_pickup: tochoo_player (H9) gives the lead to the player of the "
            f"tochoo, but with off_suit.play: {play} no off-suit card is ever picked up (a "
            f"player who cannot follow {instead}); use tochoo or tochoo_plays_on, or another "
            "after_pickup",
        )

    complete = value("next_leader", "after_complete_trick")
    if value("next_leader", "if_out") == "next_highest" and complete not in (None, "highest"):
        report(
            (("next_leader", "if_out"), ("next_leader", "after_complete_trick")),
            "next_leader.if_out: next_highest (H10) passes the lead down from the highest card "
            f"of a clean trick, but after_complete_trick is {complete}, so the trick's highest "
            "card does not lead; use after_complete_trick: highest, or another if_out",
        )


# --- getting out with the power (H14-H16) and two players left (H17-H19) ------------------

_IF_OUT: KeyPath = ("next_leader", "if_out")
_PLAY: KeyPath = ("off_suit", "play")
_PICKED_BY: KeyPath = ("off_suit", "tochoo_picked_up_by")
_X2: KeyPath = ("end", "two_left_pickup_loses")


def _check_power_rules(values: Values, report: Report) -> None:
    """H14-H19 need the rules they change: a draw from a player, a waste pile to draw from,
    a tochoo to win with; and H17/H18 must not contradict X2 about who is the Bhabhi."""
    found = values.get(_IF_OUT)
    if found is not None:
        _check_draw_options(found[0], values, report)
    shootout = values.get(("end", "shootout"))
    if shootout is not None and shootout[0] != "none":
        _check_shootout(shootout[0], values, report)
    tochoo_wins = values.get(("end", "two_left_tochoo_wins"))
    if tochoo_wins is not None and tochoo_wins[0]:
        _check_two_left_tochoo_wins(values, report)
    escapes = values.get(("end", "two_left_power_escapes"), _IF_OUT)
    if escapes is not None and escapes[0] and escapes[1] in ("next_in_turn", "next_highest"):
        report(
            (("end", "two_left_power_escapes"), _IF_OUT),
            "end.two_left_power_escapes (H19) lets a last card that wins a clean trick get "
            f"away even under B8, but with next_leader.if_out: {escapes[1]} such a card "
            "always gets away; use if_out draws_from_waste or draws_from_player, or leave "
            "two_left_power_escapes out",
        )


def _check_draw_options(if_out: str, values: Values, report: Report) -> None:
    """An option of the draw set (to other than its default) where nobody makes that draw."""
    needs = {
        "draw_from": ("next_active", "draws_from_player", "H14", "whose hand is drawn from"),
        "draw_pile": ("waste", "draws_from_waste", "H15", "what the waste draw (B8) is made from"),
        "draw": ("random", "draws_from_waste", "H16", "which card of the waste pile B8 draws"),
    }
    for key, (default, wanted, clause, says) in needs.items():
        path: KeyPath = ("next_leader", key)
        written = values.get(path)
        if written is None or written[0] == default or if_out == wanted:
            continue
        nobody = (
            "nobody draws"
            if if_out in ("next_in_turn", "next_highest")
            else "the draw is from "
            + ("the waste pile" if if_out == "draws_from_waste" else "a player's hand")
        )
        report(
            (path, _IF_OUT),
            f"next_leader.{key}: {written[0]} ({clause}) says {says}, but with "
            f"next_leader.if_out: {if_out} {nobody}; remove {key} or write if_out: {wanted}",
        )


def _check_shootout(shootout: str, values: Values, report: Report) -> None:
    found = values.get(_IF_OUT)
    if found is not None and found[0] in ("next_in_turn", "next_highest"):
        report(
            (("end", "shootout"), _IF_OUT),
            f"end.shootout: {shootout} (H17) ends a hand on a card led after a draw (B8, H14)"
            + (" or as a last card" if shootout == "any_last_card" else "")
            + f", but with next_leader.if_out: {found[0]} a player with the power and no "
            "card gets away and nobody draws; write if_out: draws_from_waste or "
            "draws_from_player, or shootout: none",
        )
    play = values.get(_PLAY)
    if play is not None and play[0] == "discard":
        report(
            (("end", "shootout"), _PLAY),
            "end.shootout (H17) ends a hand when the other of the last two cannot follow, but "
            "with off_suit.play: discard (D1) that player discards and the trick goes on; use "
            "off_suit.play tochoo or pickup, or shootout: none",
        )
        return
    x2 = values.get(_X2, _PLAY, _PICKED_BY)
    if x2 is None or not x2[0]:
        return
    picker = _other_picks_up(x2[1], x2[2])
    if picker:
        report(
            (("end", "shootout"), _X2, _PLAY, _PICKED_BY),
            "end.shootout (H17) names the leader the Bhabhi when the other of the last two "
            f"cannot follow, but end.two_left_pickup_loses (X2) names the player who picks up, "
            f"and {picker}: the two contradict each other; leave one of them off",
        )


def _check_two_left_tochoo_wins(values: Values, report: Report) -> None:
    play = values.get(_PLAY)
    if play is not None and play[0] != "tochoo":
        report(
            (("end", "two_left_tochoo_wins"), _PLAY),
            "end.two_left_tochoo_wins (H18) ends a hand with two left on a tochoo, but with "
            f"off_suit.play: {play[0]} nobody plays a tochoo (an off-suit card that ends the "
            "trick, B4); use off_suit.play: tochoo, or leave two_left_tochoo_wins out",
        )
        return
    x2 = values.get(_X2, _PICKED_BY)
    if x2 is not None and x2[0] and x2[1] == "tochoo_player":
        report(
            (("end", "two_left_tochoo_wins"), _X2, _PICKED_BY),
            "end.two_left_tochoo_wins (H18) makes the tochoo player safe, but "
            "end.two_left_pickup_loses (X2) names the player who picks up the Bhabhi, and with "
            "off_suit.tochoo_picked_up_by: tochoo_player that is the tochoo player: the two "
            "contradict each other; leave one of them off (with highest_of_led, B6, they agree)",
        )


def _other_picks_up(play: str, picked_by: str) -> str:
    """Why the player who cannot follow, not the leader, picks up (empty when the leader
    does: B6)."""
    if play == "pickup":
        return "with off_suit.play: pickup (P1) that is the player who cannot follow"
    if play == "tochoo" and picked_by == "tochoo_player":
        return "with off_suit.tochoo_picked_up_by: tochoo_player that is the tochoo player"
    return ""


def _check_challenge(values: Values, report: Report) -> None:
    """H25: a challenge needs an off-suit card to challenge, and its penalty an
    ``illegal_play: challenge`` to belong to."""
    penalty = values.get(("false_tochoo_penalty",), ("illegal_play",))
    if penalty is not None and penalty[1] != "challenge":
        report(
            (("false_tochoo_penalty",), ("illegal_play",)),
            f"false_tochoo_penalty ({penalty[0]}) is the cost of a right challenge (H25), "
            f"but with illegal_play: {penalty[1]} nobody may challenge: write illegal_play: "
            "challenge, or leave false_tochoo_penalty out",
        )
    play = values.get(("illegal_play",), ("off_suit", "play"))
    if play is not None and play[0] == "challenge" and play[1] == "pickup":
        report(
            (("illegal_play",), ("off_suit", "play")),
            "illegal_play: challenge (H25) lets a player who holds the led suit play off "
            "it as a tochoo or a discard would, but with off_suit.play: pickup nobody plays "
            "off the led suit; use tochoo or discard, or another illegal_play",
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
