"""Confirming a warning's suspect clauses by playing again with one option changed.

A warning such as "most hands never end" may have several suspects (P1, P2, P3 under the
pick-up rules).  For each suspect, one option it depends on (``clauses.CONDITIONS``) is
switched to another value the schema allows that switches the clause off; the switched
ruleset must validate as a whole (``resolve_text``, as ``bhabhi rules validate`` checks a
file), else that value is skipped.  ``CONFIRM_HANDS`` hands of the switched ruleset are
played with random players on the same deals, and the suspect is kept when the warning is
gone or its figure has fallen to at most ``CONFIRM_WEAKEN`` of what it was.  A suspect no
single option switches off (C4: the deal itself) is kept, untested; where no suspect is
confirmed, the suspects stay as they were (nothing was told apart).

Of a suspect's options, one that switches off no other suspect comes first (it tells the
suspects apart: P2's ``next_leader.after_pickup`` before the ``off_suit.play`` it shares
with P1); one re-run per option value, shared between suspects.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from referee.analysis.figures import figures
from referee.analysis.record import hand_records
from referee.analysis.warnings import Confirm, warnings_for
from referee.engine.components import RuleBook
from referee.ruleset.clauses import CONDITIONS, followed
from referee.ruleset.loader import resolve_text
from referee.ruleset.model import Ruleset
from referee.ruleset.schema import schema
from referee.ruleset.yamlsafe import KeyPath
from referee.sim.runner import play_hands

CONFIRM_HANDS = 100
"""Hands played per switched option: enough to see a share of hands move by half (a
figure of 60% against 30% is about six standard errors apart on 100 hands), few enough to
cost less than the run (random players, the fast playout where the rules allow)."""
CONFIRM_WEAKEN = 0.5
"""A suspect is kept when, with its option switched, the warning is gone or its figure is
at most this share of what it was (halved or more): "clearly weakens"."""

Switch = tuple[KeyPath, Any]
"""An option (key path) and the value it is switched to."""

_FIGURES: dict[str, tuple[Callable[[Mapping[str, Any]], float], Callable[[float], str]]] = {
    "no-hand-ended": (
        lambda d: d["termination"]["bound"] + d["termination"]["dead_position"],
        lambda share: f"{100 * (1 - share):.0f}% of hands end",
    ),
    "most-hands-never-end": (
        lambda d: d["termination"]["bound"] + d["termination"]["dead_position"],
        lambda share: f"{100 * (1 - share):.0f}% of hands end",
    ),
    "no-bhabhi": (
        lambda d: d["no_bhabhi"]["rate"],
        lambda share: f"{100 * share:.0f}% of hands have no Bhabhi",
    ),
    "decided-by-deal": (
        lambda d: d["decisiveness"]["after_deal"],
        lambda share: f"the Bhabhi is known after the deal in {100 * share:.0f}% of hands",
    ),
}
"""The warnings that can be confirmed: the figure each is about (larger: worse), and that
figure in words for the message."""


def switches(source: Mapping[str, Any], clause: str, others: Sequence[str]) -> list[Switch]:
    """The option changes that switch ``clause`` off in ``source``, those that leave the
    ``others`` (the other suspects) as they are first; each validated."""
    found: list[tuple[int, Switch]] = []
    for condition in CONDITIONS.get(clause, ()):
        if len(condition.paths) != 1:
            continue
        path = condition.paths[0]
        for value in _allowed(path):
            if _value_at(source, path) == value:
                continue
            switched = _with(source, path, value)
            states = followed(switched)
            if states.get(clause) is not False:
                continue
            shared = sum(1 for other in others if states.get(other) is False)
            found.append((shared, (path, value)))
    found.sort(key=lambda item: item[0])  # stable: the schema's order within a rank
    return [switch for _, switch in found]


def confirmer(rules: Ruleset, players: int, seed: bytes, original: Mapping[str, Any]) -> Confirm:
    """The ``confirm`` of ``warnings_for`` for one player count whose figures are
    ``original``: ``confirm(code, suspects)`` -> (the clauses to name, what was tried,
    the words for the message)."""
    runs: dict[Switch, dict[str, Any] | None] = {}

    def run(switch: Switch) -> dict[str, Any] | None:
        if switch not in runs:
            runs[switch] = _play(rules, players, seed, switch)
        return runs[switch]

    def confirm(code: str, suspects: list[str]) -> tuple[list[str], list[dict[str, Any]], str]:
        if code not in _FIGURES or len(suspects) < 2:
            return suspects, [], ""
        measure, _ = _FIGURES[code]
        before = measure(original)
        kept: list[str] = []
        tried: list[dict[str, Any]] = []
        for clause in suspects:
            others = [s for s in suspects if s != clause]
            options = switches(rules.source, clause, others)
            if not options:
                kept.append(clause)  # no option switches it off alone: not told apart
            for path, value in options:
                data = run((path, value))
                if data is None:
                    continue  # the switched ruleset is not valid: the next value
                after = measure(data)
                gone = code not in {w["code"] for w in data["warnings"]}
                confirmed = gone or after <= CONFIRM_WEAKEN * before
                tried.append(
                    {
                        "clause": clause,
                        "option": ".".join(map(str, path)),
                        "value": value,
                        "figure": round(after, 6) + 0.0,
                        "removed": gone,
                        "confirmed": confirmed,
                    }
                )
                if confirmed:
                    kept.append(clause)
                break  # one option change per suspect
        return (kept or suspects), tried, describe(code, tried)

    return confirm


def describe(code: str, tried: Sequence[Mapping[str, Any]]) -> str:
    """The words a confirmed warning's message ends with: which option change removed or
    weakened it, and the figure then."""
    _, words = _FIGURES[code]
    parts = [
        f"with {t['option']}: {_show(t['value'])} instead, {words(t['figure'])}"
        for t in tried
        if t["confirmed"]
    ]
    return "; ".join(parts)


def _play(rules: Ruleset, players: int, seed: bytes, switch: Switch) -> dict[str, Any] | None:
    """The figures and warnings of ``CONFIRM_HANDS`` random hands of the switched ruleset;
    None when it does not validate or does not allow ``players``."""
    path, value = switch
    source = _with(rules.source, path, value)
    resolved, problems = resolve_text(yaml.safe_dump(source, sort_keys=False), "<switched>")
    if problems:
        return None
    switched = Ruleset.from_mapping(resolved)
    if not switched.players.allows(players):
        return None
    seats = ("random",) * players
    records, _ = play_hands(switched, players, CONFIRM_HANDS, seed, seats, hand_records)
    data = figures(records, players, RuleBook.of(switched).step)
    data["warnings"] = warnings_for(data, switched.source)
    return data


def _allowed(path: KeyPath) -> list[Any]:
    node: Any = schema()
    for key in path:
        node = node.get("properties", {}).get(key)
        if node is None:
            return []
    enum = node.get("enum")
    if enum is not None:
        return list(enum)
    return [False, True] if node.get("type") == "boolean" else []


def _value_at(source: Mapping[str, Any], path: KeyPath) -> Any:
    node: Any = source
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def _with(source: Mapping[str, Any], path: KeyPath, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(dict(source))
    node: Any = changed
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    return changed


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
