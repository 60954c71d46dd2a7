"""Warnings in plain words when a figure crosses a line, each naming the clauses likely
responsible.

A warning is ``{code, message, clauses}``.  ``clauses`` are told from the ruleset alone
(``referee.ruleset.clauses.followed``: the clauses its options follow) and the figures, by
what the catalogue records of each clause (P1's note: the pick-up rules P1-P3 cycle; D1's:
the discard rules are decided by the deal; C4: some hands are dealt a card more); a clause
the ruleset does not follow is never named, and where nothing can be told the list is
empty.

Confirming a suspect by re-running with one option changed: ``warnings_for`` takes a
``confirm`` function, given the warning's code and its suspects, that returns the clauses
to name, what was tried and the words to add to the message (``referee.analysis.confirm``
plays the ruleset again with each suspect's option switched, ``clauses.CONDITIONS``, and
keeps the clauses whose change removes or halves the warning).  Without it the suspects
are named as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.analysis.numbers import p_clause, percent
from referee.ruleset.clauses import catalogue_order, followed

WARNING_MIN_HANDS = 20
"""Warnings about shares of hands (never end, decided by the deal, no Bhabhi) need at least
this many hands: on fewer, a share says little.  "No hand ended" is a fact at any count."""
NEVER_END_SHARE = 0.5
"""``most-hands-never-end``: more than this share of hands stopped at the bound
(``end.max_tricks``) or in a dead position."""
UNFAIR_P_VALUE = 0.01
"""``unfair-seat``: the chi-square test against equal chances must reject at this level..."""
UNFAIR_EXCESS = 0.25
"""...and the seat must lose at least this much more often than fair (0.25: a quarter more
than its share of the hands that had a Bhabhi), so that a large run does not warn of a
real but small bias."""
DECIDED_SHARE = 0.5
"""``decided-by-deal``: in more than this share of the hands with a Bhabhi, the Bhabhi held
strictly the most cards from the deal to the end (decisiveness point 0)."""
NO_BHABHI_SHARE = 0.5
"""``no-bhabhi``: more than this share of hands ended with no Bhabhi."""

NOT_ENDING = ("P1", "P2", "P3", "V1", "V5")
"""The pick-up rules and the variations that play them: a pickup brings cards back and
gives the picker the lead, so that once no suit has a card for each player still in,
nobody can go out (the catalogue's note on P1 and V1)."""
DEAL_DECIDES = ("D1", "D2")
"""The discard rules: no card comes back to a hand, so every player sheds one a trick and
the deal decides (the catalogue's note on D1)."""

Confirm = Callable[[str, list[str]], tuple[list[str], list[dict[str, Any]], str]]
"""``confirm(code, suspects)`` -> (the clauses a warning names, the option changes tried,
words for the message, empty for none); see the module docstring."""


def warnings_for(
    data: Mapping[str, Any],
    source: Mapping[str, Any],
    *,
    confirm: Confirm | None = None,
) -> list[dict[str, Any]]:
    """The warnings of one player count's figures (``figures.figures``), for the ruleset
    whose resolved source (``Ruleset.source``) is ``source``."""
    follows = {clause for clause, on in followed(source).items() if on}
    players = data["players"]
    hands = data["hands"]
    found: list[tuple[str, str, list[str]]] = []

    ending = data["termination"]
    stopped = ending["bound"] + ending["dead_position"]
    if ending["normal"] == 0:
        found.append(
            (
                "no-hand-ended",
                f"no {players}-player hand ended before the bound: every one of {hands} "
                f"stopped at end.max_tricks ({source['end']['max_tricks']} tricks) or in a "
                "dead position",
                _named(NOT_ENDING, follows),
            )
        )
    elif hands >= WARNING_MIN_HANDS and stopped > NEVER_END_SHARE:
        found.append(
            (
                "most-hands-never-end",
                f"most {players}-player hands never end: {percent(stopped, 0)} stopped at the "
                "bound or in a dead position",
                _named(NOT_ENDING, follows),
            )
        )

    no_bhabhi = data["no_bhabhi"]["rate"]
    if hands >= WARNING_MIN_HANDS and no_bhabhi > NO_BHABHI_SHARE:
        found.append(
            (
                "no-bhabhi",
                f"most {players}-player hands have no Bhabhi ({percent(no_bhabhi, 0)}): the last "
                "players go out on the same trick",
                _named(("C11", *DEAL_DECIDES), follows),
            )
        )

    decided = data["decisiveness"]
    if decided["hands"] >= WARNING_MIN_HANDS and decided["after_deal"] > DECIDED_SHARE:
        suspects = _named(DEAL_DECIDES, follows)
        most = data["fairness"]["by_most_cards"]["most"]
        uneven = hands - data["fairness"]["by_most_cards"]["even_deals"]
        if uneven and most["bhabhis"] > DECIDED_SHARE * uneven:
            suspects = sorted([*suspects, "C4"], key=catalogue_order)
        found.append(
            (
                "decided-by-deal",
                f"the Bhabhi is known after the deal in {percent(decided['after_deal'], 0)} of "
                f"{players}-player hands: from the deal on, the Bhabhi holds the most cards",
                suspects,
            )
        )

    found.extend(_unfair(data))
    out = []
    for code, message, suspects in found:
        warning: dict[str, Any] = {"code": code, "message": message, "clauses": suspects}
        if confirm is not None:
            clauses, tried, note = confirm(code, suspects)
            warning["clauses"] = clauses
            if tried:
                warning["confirmation"] = tried
            if note:
                warning["message"] = f"{message}; {note}"
        out.append(warning)
    return out


def _unfair(data: Mapping[str, Any]) -> list[tuple[str, str, list[str]]]:
    """``unfair-seat``: the seat that loses most, when the test rejects equal chances and
    the excess is large.  C4 is named when that seat is dealt more cards than another."""
    fairness = data["fairness"]
    fair = fairness["fair_rate"]
    p_value = fairness["p_value"]
    if p_value is None or p_value >= UNFAIR_P_VALUE or fair <= 0:
        return []
    seats: Sequence[Mapping[str, Any]] = data["seats"]
    worst = max(seats, key=lambda seat: (seat["bhabhi_rate"], -seat["offset"]))
    excess = worst["bhabhi_rate"] / fair - 1
    if excess < UNFAIR_EXCESS:
        return []
    dealt = [seat["dealt"] for seat in seats]
    clauses = ["C4"] if worst["dealt"] > min(dealt) else []
    return [
        (
            "unfair-seat",
            f"{_seat(worst['offset'])} loses {percent(excess, 0)} more often than fair "
            f"({percent(worst['bhabhi_rate'], 0)} of hands against {percent(fair, 0)}; chi-square "
            f"{p_clause(p_value)})",
            clauses,
        )
    ]


def _named(candidates: Sequence[str], follows: set[str]) -> list[str]:
    return [clause for clause in candidates if clause in follows]


def _seat(offset: int) -> str:
    if offset == 0:
        return "the dealer"
    if offset == 1:
        return "the seat after the dealer"
    return f"the seat {offset} after the dealer"


def clauses_suffix(warning: Mapping[str, Any]) -> str:
    """`` [P1, P2]``: how a printed warning ends with the clauses it names (nothing when
    none can be told), in the summary and in ``rules validate --analyze`` alike."""
    return f" [{', '.join(warning['clauses'])}]" if warning["clauses"] else ""
