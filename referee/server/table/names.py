"""Player names: what a seat may be called.

A name is shown to every player and spectator, in terminals and pages, so it must be text a
person reads, not a way to move another client's cursor: control characters (newlines,
escape codes; Unicode categories Cc, Cf, Zl, Zp) and over-long names are refused with the
reason, never silently cut or shown raw.
"""

from __future__ import annotations

import unicodedata

from referee.reasons import Reason
from referee.server.errors import Refusal

MAX_NAME = 40
"""The longest player name accepted (characters, after surrounding spaces are removed)."""

_FORBIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def player_name(text: str) -> str:
    """``text`` without surrounding spaces, or a refusal saying what is wrong with it;
    "" when no name was given (the referee names the seat)."""
    name = text.strip()
    if len(name) > MAX_NAME:  # first: a long text is refused without reading all of it
        raise Refusal(
            Reason.BAD_PLAYER_NAME,
            detail=f"{len(name)} characters; at most {MAX_NAME}",
        )
    for position, char in enumerate(name):
        if unicodedata.category(char) in _FORBIDDEN:
            raise Refusal(
                Reason.BAD_PLAYER_NAME,
                detail=f"character {position + 1} is a control character "
                f"(U+{ord(char):04X}); names are plain text",
            )
    return name
