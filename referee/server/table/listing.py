"""The lobby: tables listed a page at a time, with filters (AIP-158 pagination).

A page token is opaque to clients: it names the last table of the page before, by its place
in the listing's order (open tables first, oldest first), and the filters it was made for,
so that a token is refused with ``bad_page_token`` when used with other filters, and a
listing stays in order while tables come and go between pages.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from referee.reasons import Reason
from referee.server.errors import Refusal
from referee.server.table.state import OPEN, Table, TableStatus

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
"""A larger ``page_size`` is read as this one."""

_RANK = {TableStatus.OPEN: 0, TableStatus.PLAYING: 1, TableStatus.FINISHED: 1}
"""Open tables first (people look for a seat), then the others, each oldest first."""


@dataclass(frozen=True, slots=True)
class Page:
    tables: list[Table]
    next_page_token: str
    """"" on the last page."""


def _key(table: Table) -> tuple[int, float, str]:
    return (_RANK[table.status], table.created_at, table.table_id)


def page_of(
    tables: list[Table], *, open_only: bool, ruleset_id: str, page_size: int, page_token: str
) -> Page:
    if page_size < 0:
        raise Refusal(Reason.BAD_PAGE_TOKEN, detail="page_size must not be negative")
    size = min(page_size or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
    filters = [open_only, ruleset_id]
    found = sorted(
        (
            t
            for t in tables
            if (not open_only or t.status == OPEN) and (not ruleset_id or t.rules.id == ruleset_id)
        ),
        key=_key,
    )
    if page_token:
        after = _read_token(page_token, filters)
        found = [t for t in found if _key(t) > after]
    page = found[:size]
    more = len(found) > size
    return Page(page, _token(_key(page[-1]), filters) if more else "")


def _token(key: tuple[int, float, str], filters: list[object]) -> str:
    data = json.dumps([list(key), filters], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


MAX_TOKEN = 200
"""The longest page token this referee makes is far shorter: a longer one is not its own."""


def _read_token(token: str, filters: list[object]) -> tuple[int, float, str]:
    if len(token) > MAX_TOKEN:
        raise Refusal(Reason.BAD_PAGE_TOKEN, detail="the page_token is not one this referee made")
    try:
        data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        (rank, created_at, table_id), made_for = data
        key = (int(rank), float(created_at), str(table_id))
    except (ValueError, TypeError, OverflowError, RecursionError) as error:
        raise Refusal(
            Reason.BAD_PAGE_TOKEN, detail="the page_token is not one this referee made"
        ) from error
    if made_for != filters:
        raise Refusal(Reason.BAD_PAGE_TOKEN, detail="the page_token was made for other filters")
    return key
