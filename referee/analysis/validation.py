"""The analysis warnings of a ruleset at every player count it allows, for
``bhabhi rules validate --analyze``: a house-variant author learns that the file loads *and*
whether the game it describes ends, is fair and rewards play, in one command.

The warnings are those of ``bhabhi analyze`` with the same hands, seed and random bots
(``report.analyze``, skill, lines and confirmation included): nothing is measured here that
the analysis does not measure, so the two commands never disagree on the same arguments.
"""

from __future__ import annotations

from typing import Any

from referee.analysis.report import analyze
from referee.analysis.warnings import clauses_suffix
from referee.engine.shuffle import Seed
from referee.ruleset.model import Ruleset
from referee.sim.runner import allowed_counts

BOTS = ("random",)
"""Random players on every seat, ``bhabhi analyze``'s default: the fast playout where the
rules allow it, and the baseline the skill and lines runs are measured against."""


def analysis_warnings(rules: Ruleset, hands: int, seed: Seed) -> dict[int, list[dict[str, Any]]]:
    """``{players: [warning, ...]}`` for every player count ``rules`` allows, smallest
    first, each warning ``{code, message, clauses}`` (and ``confirmation`` where a suspect
    was re-played) as in the ``--json`` document of ``bhabhi analyze``.  Raises
    ``ValueError`` (one line) for a run that cannot be played, before any hand."""
    document, _ = analyze(rules, allowed_counts(rules), hands, seed, BOTS)
    return {
        int(players): list(data["warnings"]) for players, data in document["player_counts"].items()
    }


def warning_line(players: int, warning: dict[str, Any]) -> str:
    """One warning as ``N players: CODE: MESSAGE [CLAUSES]`` (no brackets when no clause
    can be told), the form ``rules validate`` prints after a file's name."""
    return f"{players} players: {warning['code']}: {warning['message']}{clauses_suffix(warning)}"
