"""The one JSON encoding every store uses, so that backends agree on what comes back.

A mapping goes in as JSON text and comes out as a fresh ``dict`` from that text, in every
backend, the in-memory one included: a test against ``MemoryStore`` then sees exactly what
the referee would see after a restart on SQLite (tuples back as lists, integer keys back as
strings, no shared objects), and a value JSON cannot hold fails at the call, not at replay.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.server.store import StoreError


def encode(value: Mapping[str, Any], what: str) -> str:
    """Strict JSON (no NaN or infinities: PostgreSQL's ``jsonb`` would refuse them later)."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise StoreError(f"{what} is not JSON-serialisable: {error}") from error


def decode(text: str) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise StoreError(f"stored JSON is not an object: {text[:80]!r}")
    return value
