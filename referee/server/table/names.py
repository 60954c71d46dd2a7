"""Player names: what a seat may be called.

A name is shown to every player and spectator, in terminals and pages, so it must be text a
person reads, not a way to move another client's cursor or turn the text around it: control
and format characters (newlines, escape codes, direction overrides; Unicode categories Cc,
Cf, Zl, Zp) and over-long names are refused with the reason, never silently cut or shown
raw. The two joiners are written as part of words and emoji (the zero-width non-joiner in
Persian, Urdu and Indic spellings, the zero-width joiner there and in emoji sequences) and
move nothing: they are accepted.
"""

from __future__ import annotations

import unicodedata

from referee.reasons import Reason
from referee.server.errors import Refusal

MAX_NAME = 40
"""The longest player name accepted (characters, after surrounding spaces are removed)."""

_FORBIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
JOINERS = frozenset({"\u200c", "\u200d"})
"""Zero-width non-joiner and joiner: format characters (Cf) that belong to the text."""


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
        if char not in JOINERS and unicodedata.category(char) in _FORBIDDEN:
            raise Refusal(
                Reason.BAD_PLAYER_NAME,
                detail=f"character {position + 1} is a control or format character "
                f"(U+{ord(char):04X}); names are plain text",
            )
    return name
