"""The commands that change a table, typed, with the form they are stored in.

A table is event-sourced: every accepted request becomes one of these commands, stored
durably before it is applied, and replaying a table's stored commands rebuilds it exactly.
The typed command is what the referee checks and applies; ``stored`` and ``command_of``
are the only places that know its stored form (a kind and a JSON payload), so the form an
action is kept in is written once and read once, when a table is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import CardSyntaxError
from referee.engine import Action, EngineError


@dataclass(frozen=True, slots=True)
class Join:
    seat: int
    player_name: str
    token_hash: str
    """SHA-256 of the seat credential: the credential itself is never stored."""


@dataclass(frozen=True, slots=True)
class Leave:
    seat: int


@dataclass(frozen=True, slots=True)
class Start:
    next_seed: str | None
    """The first hand's seed: starting and dealing are one durable command (None in older
    logs, which dealt in a ``Deal`` of their own)."""


@dataclass(frozen=True, slots=True)
class Deal:
    seed: str = ""
    test: int | None = None
    """A test table's explicit deal number (0: the first deal), instead of ``seed``."""


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    action: Action
    request_id: str
    next_seed: str | None
    """The next hand's seed, used if this move ends the hand, so that the last move of a
    hand and the next deal are one durable command (None in older logs)."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """The seat the game waited for ran out of time; ``action`` was played for it."""

    seat: int
    action: Action
    next_seed: str | None


@dataclass(frozen=True, slots=True)
class Close:
    """The table closed: ``idle``, an open table nobody came to; ``abandoned``, a table in
    play whose every seat let its clock run out, round after round."""

    why: str


@dataclass(frozen=True, slots=True)
class Resume:
    """H27: the player of a seat the referee played for (``timeout_bot_after``) sent an
    action: its own clock applies again.  Changes no hand and emits no event."""

    seat: int


Command = Join | Leave | Start | Deal | Move | Timeout | Close | Resume


def stored(command: Command) -> tuple[str, dict[str, Any]]:
    """The kind and payload a command is stored as."""
    match command:
        case Join(seat, player_name, token_hash):
            return "join", {"seat": seat, "player_name": player_name, "token_hash": token_hash}
        case Leave(seat):
            return "leave", {"seat": seat}
        case Start(next_seed):
            return "start", {} if next_seed is None else {"next_seed": next_seed}
        case Deal(seed, test):
            return "deal", {"seed": seed} if test is None else {"test": test}
        case Move(seat, action, request_id, next_seed):
            payload = {"seat": seat, "action": str(action), "request_id": request_id}
            return "action", _with_seed(payload, next_seed)
        case Timeout(seat, action, next_seed):
            return "timeout", _with_seed({"seat": seat, "action": str(action)}, next_seed)
        case Close(why):
            return "close", {"why": why}
        case Resume(seat):
            return "resume", {"seat": seat}
    raise AssertionError(f"not a command: {command!r}")  # pragma: no cover


def _with_seed(payload: dict[str, Any], next_seed: str | None) -> dict[str, Any]:
    if next_seed is not None:
        payload["next_seed"] = next_seed
    return payload


def command_of(kind: str, payload: dict[str, Any] | Any) -> Command:
    """The typed command of a stored one; EngineError if it cannot be read (a store written
    by a newer referee, or damaged)."""
    p = payload
    try:
        if kind == "join":
            return Join(int(p["seat"]), str(p["player_name"]), str(p["token_hash"]))
        if kind == "leave":
            return Leave(int(p["seat"]))
        if kind == "start":
            return Start(p.get("next_seed"))
        if kind == "deal":
            test = p.get("test")
            if test is None or test is False:
                return Deal(seed=str(p["seed"]))
            return Deal(test=0 if test is True else int(test))  # older logs: True, the first
        if kind == "action":
            action = Action.parse(p["action"])
            return Move(int(p["seat"]), action, str(p["request_id"]), p.get("next_seed"))
        if kind == "timeout":
            return Timeout(int(p["seat"]), Action.parse(p["action"]), p.get("next_seed"))
        if kind == "close":
            return Close(str(p["why"]))
        if kind == "resume":
            return Resume(int(p["seat"]))
    except (KeyError, TypeError, ValueError, CardSyntaxError) as error:
        raise EngineError(f"stored command {kind!r} cannot be read: {error}") from error
    raise EngineError(f"unknown command {kind!r}")
