"""The referee's tables: each file one job.

- ``events``: the table's own events and the numbered log (``TableEvent``)
- ``commands``: the typed commands that change a table, and their stored form
- ``state``: a table's state (``Table``) and its stored settings
- ``apply``: ``apply(table, number, command, at)``, the one way state changes, pure
- ``rulesets``: the rulesets a referee hosts; ``validation``: checking uploads off the loop
- ``access``: seat credentials and the per-client limits; ``names``: player names
- ``ledger``: the tables held, and commit (store, then apply) and catch-up
- ``clocks``: turn clocks; ``replicas``: following other replicas of a shared store
- ``listing``: the lobby, a page at a time
- ``referee``: the façade the gRPC layer calls
"""

from referee.server.table.events import (
    HandDealt,
    HandEnded,
    PlayerJoined,
    PlayerLeft,
    SessionEnded,
    TableClosed,
    TableEvent,
    TurnTimedOut,
    for_seat,
)
from referee.server.table.referee import KEEP_FINISHED, Referee, parse_play
from referee.server.table.rulesets import HostedRuleset, Rulesets
from referee.server.table.state import FINISHED, OPEN, PLAYING, Table, TableStatus

__all__ = [
    "FINISHED",
    "KEEP_FINISHED",
    "OPEN",
    "PLAYING",
    "HandDealt",
    "HandEnded",
    "HostedRuleset",
    "PlayerJoined",
    "PlayerLeft",
    "Referee",
    "Rulesets",
    "SessionEnded",
    "Table",
    "TableClosed",
    "TableEvent",
    "TableStatus",
    "TurnTimedOut",
    "for_seat",
    "parse_play",
]
