"""How the analysis writes its numbers, in JSON and in words: one place, so that the
summary, the warnings, the comparison and the page say the same figure the same way."""

from __future__ import annotations


def rounded(value: float) -> float:
    """A figure as the JSON keeps it: six decimals, and never -0.0 (``+ 0.0`` turns it
    into 0.0), so that the same hands give byte-identical JSON."""
    return round(float(value), 6) + 0.0


def percent(share: float, digits: int = 1) -> str:
    """A share as a percentage: one decimal in tables, none in a warning's sentence."""
    return f"{100 * share:.{digits}f}%"


def p_text(p_value: float) -> str:
    """A p-value in three figures; one rounded to 0 (6 decimals) as below 1e-6."""
    return f"{p_value:.3g}" if p_value > 0 else "<1e-6"


def p_clause(p_value: float) -> str:
    """A p-value as a sentence says it: ``p = 0.0071``, or ``p < 1e-6``."""
    written = p_text(p_value)
    return f"p < {written[1:]}" if written.startswith("<") else f"p = {written}"


def seat_label(offset: int) -> str:
    """A seat counted from the dealer in the direction of play, as tables label it."""
    return "dealer" if offset == 0 else f"dealer +{offset}"
