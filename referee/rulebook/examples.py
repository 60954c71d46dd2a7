"""Worked examples: one trick of a hand-written conformance case, under the rule it shows.

The conformance suite's hand-written cases (``provenance: {source: hand-reasoned}`` or
``generated: false``) are games reasoned from the rule texts, each naming the clauses it
checks, and the suite replays every one of them on the engine.  An example shown in the
rulebook is read from such a case, so what the book shows is what the suite checks: the
cards of one trick in the order played, then what the case records happening at its end
(who could not follow, who picks up, who goes out, who leads next, who is the Bhabhi).

Only the case's YAML is read, never the engine or the conformance runner: a trick is shown
only where the case itself records where it starts and ends (the ``trick_ended`` event of
the trick before and of this one), so nothing is worked out here that the case does not say.
A case is used only for the ruleset it was written on: the bundled ruleset of its ``ruleset:
{id}``, at the bundled ruleset's hash (a file that reuses a bundled id gets no examples).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from referee.bundled import CONFORMANCE
from referee.cards import CardSyntaxError, parse_card
from referee.rulebook.model import CardName, Example, Play, Sentence
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.ruleset.model import Ruleset

CASES = CONFORMANCE / "cases"
SHOWN_EVENTS = frozenset(
    {"card_played", "trick_ended", "picked_up", "player_out", "trick_to_waste", "hand_over"}
)
"""What a trick's steps may record for the trick to be shown: a trick where a house rule's
decision, a penalty or a draw happens is not a plain example of a trick."""


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML has it: the suite's cases are read in a tenth of the
time (they are the project's own files, so a safe loader's types are all they hold)."""


@dataclass(frozen=True, slots=True)
class Case:
    """A hand-written case, as much of it as an example needs."""

    name: str
    file: Path
    ruleset_id: str
    clauses: tuple[str, ...]
    steps: int
    tricks: tuple[Example, ...]
    """Every trick whose start and end the case records, in the order played."""


def examples_for(ruleset: Ruleset) -> tuple[Case, ...]:
    """The hand-written cases of this ruleset that show a trick, shortest first."""
    paths = bundled_ruleset_paths()
    if ruleset.id not in paths or load_ruleset(ruleset.id).hash != ruleset.hash:
        return ()
    return tuple(c for c in _cases(str(CASES)) if c.ruleset_id == ruleset.id)


@cache
def _cases(folder: str) -> tuple[Case, ...]:
    found = []
    for path in sorted(Path(folder).rglob("*.yaml")):
        case = _read(path)
        if case is not None:
            found.append(case)
    return tuple(sorted(found, key=lambda c: (c.steps, c.name)))


def _read(path: Path) -> Case | None:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("bhabhi-case/"):
        return None
    provenance = data.get("provenance") or {}
    if provenance.get("source") != "hand-reasoned" and data.get("generated") is not False:
        return None
    ruleset = data.get("ruleset") or {}
    if "inline" in ruleset or not isinstance(ruleset.get("id"), str):
        return None
    steps = data.get("steps") or []
    name = str(data.get("name") or path.stem)
    tricks = tuple(
        Example(name, trick, int(data["players"]), plays, tuple(_outcome(plays, ending)))
        for trick, plays, ending in _recorded_tricks(steps)
    )
    if not tricks:
        return None
    clauses = tuple(str(c) for c in data.get("clauses") or ())
    return Case(name, path, ruleset["id"], clauses, len(steps), tricks)


def _recorded_tricks(
    steps: list[Mapping[str, Any]],
) -> Iterator[tuple[int, tuple[Play, ...], list[Mapping[str, Any]]]]:
    """Every trick whose start and end the case records: its number, its plays and the
    events of the step that ended it."""
    plays: list[Play] = []
    plain = True
    known_start = True  # the first trick starts at the first step, the others after one
    next_trick = 0
    for step in steps:
        if step.get("refused"):
            continue
        events = list(step.get("events") or [])
        card = _card(step.get("action"))
        if card is not None:
            plays.append(Play(int(step["seat"]), card))
        plain = plain and all(_plain(e) for e in events)
        ended = [e for e in events if e.get("kind") == "trick_ended"]
        if not ended:
            continue
        trick = int(ended[0]["trick"])
        if known_start and trick == next_trick and plain and plays:
            yield trick, tuple(plays), events
        known_start = True
        next_trick = trick + 1
        plays, plain = [], True


def _plain(event: Mapping[str, Any]) -> bool:
    """An event a plain trick shows; a player out by a house rule's ending (the shootout,
    H17; two left, X2, H18) is not shown, since the example would not say why."""
    if event.get("kind") == "player_out":
        return event.get("how") == "emptied"
    return event.get("kind") in SHOWN_EVENTS


def _card(action: object) -> CardName | None:
    try:
        card = parse_card(str(action))
    except (CardSyntaxError, IndexError):
        return None
    return CardName.of(card)


def _outcome(plays: tuple[Play, ...], events: list[Mapping[str, Any]]) -> Iterator[Sentence]:
    """What the trick's last step records, in the order a player tells it."""
    (ended,) = [e for e in events if e.get("kind") == "trick_ended"][:1]
    how = ended.get("how")
    if how == "complete":
        led = plays[0].card.suit
        off_suit = [p.seat for p in plays if p.card.suit != led]
        if not off_suit:
            yield Sentence("example-clean", {"seat": int(ended["high_seat"])})
        else:  # a complete trick with off-suit cards: a discard, or the first trick's waiver
            for seat in off_suit:
                yield Sentence("example-off-suit", {"seat": seat})
            high = int(ended["high_seat"])
            # Under a trump (X5, H12) the trick's high card may be of another suit.
            trumped = high in off_suit
            yield Sentence(
                "example-trump-highest" if trumped else "example-highest", {"seat": high}
            )
    elif how == "tochoo":
        yield Sentence("example-tochoo", {"seat": plays[-1].seat})
    for event in events:
        if event.get("kind") == "picked_up":
            if how == "pickup":
                yield Sentence("example-cannot-follow", {"seat": int(event["seat"])})
            count = len(event.get("cards") or ())
            yield Sentence("example-picks-up", {"seat": int(event["seat"]), "count": count})
    for event in events:
        if event.get("kind") == "player_out" and event.get("how") == "emptied":
            yield Sentence("example-out", {"seat": int(event["seat"])})
    over = any(e.get("kind") == "hand_over" for e in events)
    if ended.get("next_leader") is not None and not over:
        yield Sentence("example-leads", {"seat": int(ended["next_leader"])})
    for event in events:
        if event.get("kind") == "hand_over":
            bhabhi = (event.get("outcome") or {}).get("bhabhi")
            if bhabhi is not None:
                yield Sentence("example-bhabhi", {"seat": int(bhabhi)})
