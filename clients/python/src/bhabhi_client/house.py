"""Playing a house variant from its file: the referee is given the file's ruleset first.

``bhabhi play --rules`` (and ``demo-hand``) takes what ``bhabhi simulate`` and ``bhabhi rules
validate`` take: a ruleset id, or the path of a ruleset file.  A table is created for a
ruleset the referee hosts, so a file's ruleset is uploaded first (``ValidateRuleset``, then
``RegisterRuleset``); the referee resolves its ``extends`` among what it hosts.  A base the
file finds beside itself (``ID.yaml`` in its folder, which the referee cannot see) is
uploaded before it, as the referee's loader would have read it there
(``referee.ruleset.loader`` looks beside the file first, then among the bundled rulesets).

Only the file's text is read here, never resolved: the client package works without the
referee package, and the referee is the one judge of what its rulesets mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from bhabhi_client.client import Client
from bhabhi_client.errors import RefereeError
from bhabhi_client.transcript import printable

ID_PATTERN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
"""A ruleset id, as the referee's loader recognises one."""


class RulesetFileError(Exception):
    """A ruleset file the referee was not given: unreadable, invalid, or refused.

    ``lines`` are the problems, one ``FILE:LINE:COL: key.path: message`` each (as ``bhabhi
    rules validate`` prints them), shown before the message."""

    def __init__(self, message: str, lines: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.lines = lines


@dataclass(frozen=True, slots=True)
class Hosted:
    """A ruleset file's ruleset as the referee hosts it."""

    ruleset_id: str
    registered: tuple[str, ...]
    """The ids registered by this call (empty when the referee hosted them all already)."""


def names_a_file(ref: str) -> bool:
    """Whether ``--rules ref`` names a file: anything but an id, or a file that exists.

    The same reading as the referee's loader, except that it cannot know the bundled ids: a
    file named exactly like a bundled id (no ``.yaml``) is read as the file here."""
    return Path(ref).is_file() or not ID_PATTERN.fullmatch(ref)


async def host_ruleset_file(client: Client, path: Path) -> Hosted:
    """Make the referee host the ruleset of ``path`` (and of the bases beside it).

    A ruleset the referee hosts already with the same hash is used as it is; one it hosts
    under the same id with other rules is an error (the file must name itself otherwise).
    Raises :class:`RulesetFileError`, and ``RefereeError`` for a referee that fails."""
    registered: list[str] = []
    ruleset_id = ""
    for file in _chain(path):
        text = _read(file)
        verdict = await client.validate_ruleset(text, name=str(file))
        if not verdict.valid:
            lines = tuple(
                printable(f"{p.file}:{p.line}:{p.column}: {p.path or '(root)'}: {p.message}")
                for p in verdict.problems
            )
            count = len(lines)
            raise RulesetFileError(
                f"{printable(str(file))} is not a valid ruleset "
                f"({count} problem{'' if count == 1 else 's'})",
                lines,
            )
        ruleset_id = verdict.ruleset.id
        if await _hosted_alike(client, file, ruleset_id, verdict.ruleset.hash):
            continue
        try:
            await client.register_ruleset(text)
        except RefereeError as error:
            if error.reason == "register_not_allowed":
                raise RulesetFileError(
                    f"this referee hosts no ruleset {ruleset_id!r} and does not let clients "
                    f"register one, so it cannot play {printable(str(file))}: start it with "
                    "`bhabhi serve --allow-register`, or play a ruleset it hosts"
                ) from error
            if error.reason == "ruleset_exists" and await _hosted_alike(
                client, file, ruleset_id, verdict.ruleset.hash
            ):
                continue  # registered meanwhile by another client, with the same rules
            raise
        registered.append(ruleset_id)
    return Hosted(ruleset_id, tuple(registered))


async def _hosted_alike(client: Client, file: Path, ruleset_id: str, wanted: str) -> bool:
    """True when the referee hosts ``ruleset_id`` with the hash ``wanted``; False when it
    hosts no such ruleset; an error when it hosts other rules under that id."""
    try:
        hosted = (await client.get_ruleset(ruleset_id)).ruleset
    except RefereeError as error:
        if error.reason == "ruleset_not_found":
            return False
        raise
    if hosted.hash != wanted:
        raise RulesetFileError(
            f"the referee hosts another ruleset with the id {ruleset_id!r} than "
            f"{printable(str(file))} ({hosted.hash}, not {wanted}): give the file an id of "
            "its own (`id:`)"
        )
    return True


def _chain(path: Path) -> list[Path]:
    """``path`` and the bases it finds beside itself, the deepest base first."""
    chain = [path]
    while (base := _base_beside(chain[-1])) is not None:
        if any(base.resolve() == seen.resolve() for seen in chain):
            names = " -> ".join(printable(p.stem) for p in [*chain, base])
            raise RulesetFileError(f"extends cycle: {names}")
        chain.append(base)
    return chain[::-1]


def _base_beside(file: Path) -> Path | None:
    """The ``ID.yaml`` beside ``file`` that its ``extends: ID`` names, if there is one.

    A file that cannot be read or parsed has none: the referee reports what is wrong."""
    try:
        data = yaml.safe_load(_read(file))
    except (RulesetFileError, yaml.YAMLError):
        return None
    base_id = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(base_id, str) or not ID_PATTERN.fullmatch(base_id):
        return None
    beside = file.parent / f"{base_id}.yaml"
    # A file may extend the bundled ruleset it is named after; it cannot extend itself.
    if beside.is_file() and beside.resolve() != file.resolve():
        return beside
    return None


def _read(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesetFileError(f"no ruleset file {printable(str(file))}") from None
    except UnicodeDecodeError:
        raise RulesetFileError(f"{printable(str(file))} is not UTF-8 text") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise RulesetFileError(f"cannot read {printable(str(file))}: {reason}") from None
