"""Loading rulesets: files, bundled ids and uploaded text, with ``extends`` resolved and checked.

A ruleset file may name a base (``extends: bhabho``) and write only what differs.  The base is
``ID.yaml`` beside the file, else a bundled ruleset or one of a folder that
``$BHABHI_RULES_DIR`` adds; mappings merge key by key, lists and scalars are replaced.  Only
the merged result is validated, but every problem is reported against the file and line that
wrote the offending text, so a mistake inherited from a base points at the base.  Loading never
raises for bad input except :class:`RulesetError`, which lists every problem at once, most
useful first.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from referee import bundled
from referee.ruleset.clauses import clause_problems
from referee.ruleset.limits import LIMITS
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Code, Problem, RulesetError, sort_problems
from referee.ruleset.schema import Locate, describe, did_you_mean, schema_problems
from referee.ruleset.semantic import semantic_problems
from referee.ruleset.yamlsafe import KeyPath, Mark, Spot, dotted, load_file, parse_text

__all__ = [
    "DEFAULT_RULES_DIR",
    "RULES_DIR_ENV",
    "Code",
    "Problem",
    "RulesetError",
    "added_rules_dirs",
    "bundled_ruleset_paths",
    "find_ruleset",
    "load_ruleset",
    "load_ruleset_text",
    "resolve_file",
    "resolve_text",
    "rules_dir",
    "rules_dirs",
    "rules_dirs_added",
]

DEFAULT_RULES_DIR = bundled.RULES
RULES_DIR_ENV = "BHABHI_RULES_DIR"
ID_PATTERN = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def rules_dir() -> Path:
    """The bundled rulesets' directory."""
    return DEFAULT_RULES_DIR


def added_rules_dirs() -> list[Path]:
    """The folders ``$BHABHI_RULES_DIR`` adds to the bundled rulesets (several separated by
    ``os.pathsep``), in the order written."""
    return [Path(part) for part in os.environ.get(RULES_DIR_ENV, "").split(os.pathsep) if part]


def rules_dirs() -> list[Path]:
    """Every folder rulesets are found in: the bundled one, then the added ones."""
    return [rules_dir(), *added_rules_dirs()]


@contextlib.contextmanager
def rules_dirs_added(folders: Sequence[Path]) -> Iterator[None]:
    """Within the block, ``folders`` are added to the rulesets (after those of
    ``$BHABHI_RULES_DIR``); the variable is set so that worker processes see them too."""
    before = os.environ.get(RULES_DIR_ENV)
    parts = [str(p) for p in [*added_rules_dirs(), *folders]]
    os.environ[RULES_DIR_ENV] = os.pathsep.join(parts)
    try:
        yield
    finally:
        if before is None:
            del os.environ[RULES_DIR_ENV]
        else:
            os.environ[RULES_DIR_ENV] = before


def bundled_ruleset_paths() -> dict[str, Path]:
    """Every ruleset found by id, id to file: the bundled ones, then those of each added
    folder (``added_rules_dirs``).  In each folder: ``*.yaml`` then ``house/*.yaml``.

    The id is the file name's stem; validation reports a file whose ``id`` differs.  Within
    one folder the top-level file wins over the house rule of the same id.  Across folders
    nothing wins: an added folder adds rulesets and never replaces one, so two files of one
    id raise RulesetError (code ``duplicate_ruleset``) naming both.  ``catalogue.yaml`` at
    a folder's top is a clause catalogue, not a ruleset, so ``catalogue`` is never an id.
    """
    found: dict[str, Path] = {}
    for folder in rules_dirs():
        for ruleset_id, path in _folder_rulesets(folder).items():
            known = found.get(ruleset_id)
            if known is None:
                found[ruleset_id] = path
            elif _real(known) != _real(path):
                message = (
                    f"ruleset id {ruleset_id!r} is given by two files: {display_name(known)} "
                    f"and {display_name(path)}; an added rules folder adds rulesets and never "
                    "replaces one: rename one of them (a variant can extend the other)"
                )
                problem = Problem(display_name(path), 1, 1, "id", message, Code.DUPLICATE_RULESET)
                raise RulesetError([problem])
    return found


def _folder_rulesets(folder: Path) -> dict[str, Path]:
    top = [p for p in sorted(folder.glob("*.yaml")) if p.name != bundled.CATALOGUE.name]
    found: dict[str, Path] = {}
    for path in [*top, *sorted((folder / "house").glob("*.yaml"))]:
        if path.is_file():
            found.setdefault(path.stem, path)
    return found


def resolve_file(path: str | Path) -> tuple[dict[str, Any], list[Problem]]:
    """Load, resolve ``extends`` and check one ruleset file.

    Returns the resolved mapping (empty when the file or a base could not be read) and every
    problem, most useful first; no problems means ``Ruleset.from_mapping`` will accept it.
    """
    return _check(_Source(str(path), Path(path)))


def resolve_text(
    text: str,
    name: str = "<text>",
    registered: Mapping[str, str] | None = None,
    *,
    clauses: bool = False,
) -> tuple[dict[str, Any], list[Problem]]:
    """As :func:`resolve_file` for a ruleset received as text.  Uploaded text has no
    directory of its own: ``extends`` finds the bundled ids, and the ids in ``registered``
    (id -> YAML text), the house variants a referee already hosts.

    Text in, plain data out (a dict of YAML values and :class:`Problem` dataclasses, all of
    which pickle), reading nothing but the bundled rulesets: a server can run it in a worker
    process (``executor.submit(resolve_text, text, name, registered)``) to keep it off its
    event loop.  The limits of :mod:`referee.ruleset.limits` bound its cost.  ``clauses``:
    as for :func:`resolve_file_named`.
    """
    return _check(_Source(name, None, text), registered or {}, clauses=clauses)


def load_ruleset(ref: str | Path) -> Ruleset:
    """The ruleset named by a bundled id (``bhabho``) or a file path; raises RulesetError."""
    if isinstance(ref, str) and ref in bundled_ruleset_paths():
        return _load_bundled(os.pathsep.join(map(str, rules_dirs())), ref)
    path, name = find_ruleset(ref)
    return _build(*resolve_file_named(path, name))


def load_ruleset_text(text: str, name: str = "<text>") -> Ruleset:
    """The ruleset written in ``text`` (as uploaded to the referee); raises RulesetError."""
    return _build(*resolve_text(text, name))


def find_ruleset(ref: str | Path) -> tuple[Path, str]:
    """The file a ruleset reference names, and the name to report it under.

    A string that looks like an id and names a bundled ruleset is that ruleset; anything else
    is a path (a missing file is then reported by loading it).  A string that looks like an id
    but is neither raises RulesetError with code ``unknown_ruleset`` listing the known ids.
    """
    if isinstance(ref, Path):
        return ref, str(ref)
    bundled = bundled_ruleset_paths()
    if ref in bundled:
        return bundled[ref], display_name(bundled[ref])
    if not ID_PATTERN.fullmatch(ref) or Path(ref).exists():
        return Path(ref), ref
    guess = did_you_mean(ref, bundled)
    message = (
        f"no bundled ruleset or file named {ref!r} (known ids: {', '.join(sorted(bundled))})"
        + (f"; did you mean {guess!r}?" if guess else "")
    )
    raise RulesetError([Problem(ref, 1, 1, "", message, Code.UNKNOWN_RULESET)])


def resolve_file_named(
    path: Path, name: str, *, clauses: bool = False
) -> tuple[dict[str, Any], list[Problem]]:
    """As :func:`resolve_file`, reporting the file under ``name`` (for example a bundled id's
    path relative to the working directory).

    ``clauses``: also check the ``clauses`` list against the options
    (:mod:`referee.ruleset.clauses`), as ``bhabhi rules validate`` does; some of those
    findings are warnings (``Problem.warning``), which do not make the ruleset invalid."""
    return _check(_Source(name, path), clauses=clauses)


def display_name(path: Path) -> str:
    """How to show a file in a problem: relative to the working directory when inside it."""
    resolved = _real(path)
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(resolved)


def _real(path: Path) -> Path:
    """The file's real path, to recognise one file reached by two names (cycles, self)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL: reported on reading
        return path.absolute()


@lru_cache(maxsize=128)
def _load_bundled(directories: str, ruleset_id: str) -> Ruleset:
    # Keyed by the folders too, so that changing $BHABHI_RULES_DIR never returns a stale
    # ruleset.
    path = bundled_ruleset_paths()[ruleset_id]
    return _build(*resolve_file_named(path, display_name(path)))


def _build(resolved: dict[str, Any], problems: list[Problem]) -> Ruleset:
    if problems:
        raise RulesetError(problems)
    return Ruleset.from_mapping(resolved)


@dataclass(frozen=True, slots=True)
class _Source:
    name: str
    """How problems name this source: the path as the user wrote it, or an upload's name."""
    path: Path | None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class _Origin:
    file: str
    spot: Spot


_Origins = dict[KeyPath, _Origin]


def _check(
    source: _Source, registered: Mapping[str, str] | None = None, *, clauses: bool = False
) -> tuple[dict[str, Any], list[Problem]]:
    resolver = _Resolver(bundled_ruleset_paths(), registered or {})
    chain: tuple[Path | str, ...] = (_real(source.path),) if source.path is not None else ()
    result = resolver.resolve(source, chain, (source.name,))
    if result is None:
        return {}, sort_problems(resolver.problems, resolver.files)
    resolved, origins = result
    locate = _locator(origins)
    found, invalid = schema_problems(resolved, locate)
    problems = [*resolver.problems, *found]
    problems.extend(_id_mismatch(source, resolved, locate, resolver.bundled))
    # With the schema's problems, so that a reader sees every problem at once: each check
    # across keys runs when the values it reads passed the schema.
    problems.extend(semantic_problems(resolved, locate, source.name, invalid))
    if clauses:
        problems.extend(clause_problems(resolved, locate, source.name, invalid))
    return resolved, sort_problems(problems, resolver.files)


class _Resolver:
    """Follows one ``extends`` chain, collecting the files read and the problems found."""

    def __init__(self, bundled: dict[str, Path], registered: Mapping[str, str]) -> None:
        self.bundled = bundled
        self.registered = registered
        self.files: list[str] = []
        self.problems: list[Problem] = []

    def resolve(
        self, source: _Source, chain: tuple[Path | str, ...], names: tuple[str, ...]
    ) -> tuple[dict[str, Any], _Origins] | None:
        self.files.append(source.name)
        if source.path is None:
            doc, problems = parse_text(source.text or "", source.name)
        else:
            doc, problems = load_file(source.path, source.name)
        if doc is None:
            self.problems.extend(problems)
            return None
        origins = {path: _Origin(doc.file, spot) for path, spot in doc.spots.items()}
        if "extends" not in doc.data:
            return doc.data, origins

        base_id = doc.data["extends"]
        where = doc.spots[("extends",)].value

        def fail(message: str, code: Code) -> None:
            self.problems.append(
                Problem(doc.file, where.line, where.column, "extends", message, code)
            )

        if not isinstance(base_id, str):
            fail(f"expected a ruleset id, got {describe(base_id)}", Code.WRONG_TYPE)
            return None
        if not ID_PATTERN.fullmatch(base_id):
            fail(
                f"{base_id!r} is not a ruleset id: lower-case letters and digits in words "
                "joined by hyphens, for example bhabho",
                Code.BAD_FORMAT,
            )
            return None
        most = LIMITS.max_extends_depth
        if len(chain) > most:
            fail(f"extends chain longer than {most} rulesets", Code.TOO_DEEP)
            return None
        base = self._find_base(base_id, source)
        if base is None:
            fail(self._missing_message(base_id, source), Code.MISSING_BASE)
            return None
        key = _real(base.path) if base.path is not None else base.name
        if key in chain:
            cycle = " -> ".join((*names[names.index(base.name) :], base.name))
            if base.name not in names:  # reached under another name (a symlink, say)
                cycle = " -> ".join((*names, base.name))
            fail(f"extends cycle: {cycle}", Code.EXTENDS_CYCLE)
            return None
        resolved_base = self.resolve(base, (*chain, key), (*names, base.name))
        if resolved_base is None:
            return None
        base_data, base_origins = resolved_base
        if "id" not in doc.data:
            # Inheriting the base's id would let a variant pass itself off as its base.
            self.problems.append(
                Problem(
                    doc.file,
                    where.line,
                    where.column,
                    "id",
                    f"missing required key 'id': a ruleset that extends {base_id!r} "
                    "must name itself",
                    Code.MISSING_KEY,
                )
            )

        own = {k: v for k, v in doc.data.items() if k != "extends"}
        own_origins = {p: o for p, o in origins.items() if p[:1] != ("extends",)}
        return _merge(base_data, own), _overlay(base_origins, base_data, own_origins, own)

    def _find_base(self, base_id: str, source: _Source) -> _Source | None:
        if source.path is not None:
            beside = source.path.parent / f"{base_id}.yaml"
            # A file may extend the bundled ruleset it is named after; it cannot extend itself.
            if beside.is_file() and _real(beside) != _real(source.path):
                return _Source(str(Path(source.name).parent / f"{base_id}.yaml"), beside)
        bundled = self.bundled.get(base_id)
        if bundled is not None:
            return _Source(display_name(bundled), bundled)
        text = self.registered.get(base_id)
        if text is not None:
            return _Source(f"registered:{base_id}", None, text)
        return None

    def _missing_message(self, base_id: str, source: _Source) -> str:
        looked = "the bundled rulesets"
        nearby: set[str] = set()
        if source.path is not None:
            looked = f"{Path(source.name).parent / f'{base_id}.yaml'} and the bundled rulesets"
            with contextlib.suppress(OSError):  # the directory was just read; unlikely
                nearby = {p.stem for p in source.path.parent.glob("*.yaml") if p.is_file()}
                nearby.discard(source.path.stem)
        if self.registered:
            looked += " and the registered rulesets"
        known = sorted({*self.bundled, *self.registered})
        guess = did_you_mean(base_id, [*known, *sorted(nearby)])
        hint = f"; did you mean {guess!r}?" if guess else ""
        return f"base ruleset {base_id!r} not found (looked for {looked}: {', '.join(known)}){hint}"


def _merge(base: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Mappings merge key by key; anything else in ``child`` replaces the base's value."""
    merged = dict(base)
    for key, value in child.items():
        old = merged.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            merged[key] = _merge(old, value)
        else:
            merged[key] = value
    return merged


_MISSING = object()


def _value_at(data: Any, path: KeyPath) -> Any:
    for part in path:
        in_dict = isinstance(data, dict) and isinstance(part, str) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if not (in_dict or in_list):
            return _MISSING
        data = data[part]
    return data


def _overlay(
    base: _Origins, base_data: Mapping[str, Any], own: _Origins, own_data: Mapping[str, Any]
) -> _Origins:
    """Where each key path of ``_merge(base_data, own_data)`` was written."""
    merged = dict(base)
    for path in sorted(own, key=len):  # a parent before its children
        merges = isinstance(_value_at(own_data, path), dict) and isinstance(
            _value_at(base_data, path), dict
        )
        if not merges:  # replaced: nothing below it comes from the base any more
            depth = len(path)
            for old in [p for p in merged if len(p) > depth and p[:depth] == path]:
                del merged[old]
        merged[path] = own[path]
    return merged


def _locator(origins: _Origins) -> Locate:
    def locate(path: KeyPath, at_key: bool) -> tuple[str, Mark]:
        while path and path not in origins:
            path = path[:-1]
        origin = origins[path]
        return origin.file, origin.spot.key if at_key else origin.spot.value

    return locate


def _id_mismatch(
    source: _Source, resolved: Mapping[str, Any], locate: Locate, bundled: dict[str, Path]
) -> list[Problem]:
    """A bundled ruleset is found by its file name, so the id inside must be the same."""
    ruleset_id = resolved.get("id")
    if source.path is None or not isinstance(ruleset_id, str):
        return []
    real = _real(source.path)
    if not any(real == _real(p) for p in bundled.values()) or ruleset_id == real.stem:
        return []
    file, mark = locate(("id",), False)
    message = (
        f"id {ruleset_id!r} does not match the file name {real.name!r}: bundled rulesets are "
        f"found by file name, so rename the file or set id: {real.stem}"
    )
    return [Problem(file, mark.line, mark.column, dotted(("id",)), message, Code.ID_MISMATCH)]
