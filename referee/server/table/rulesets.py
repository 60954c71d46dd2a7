"""The rulesets a referee hosts: the bundled ones and the house variants registered on it."""

from __future__ import annotations

from dataclasses import dataclass

import yaml

from referee import rulebook
from referee.reasons import Reason
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset, resolve_text
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Problem
from referee.ruleset.schema import ordered_like_schema
from referee.ruleset.yamlsafe import parse_text
from referee.server.errors import Refusal


@dataclass(frozen=True, slots=True)
class HostedRuleset:
    rules: Ruleset
    origin: str
    """``bundled`` or ``registered``."""
    yaml: str
    """The resolved ruleset (after ``extends``), as the referee shows it."""
    base: str | None = None
    """The id of the hosted ruleset a registered variant ``extends``: its rulebook starts
    with how the two differ."""


class Rulesets:
    """Bundled rulesets plus the house variants registered on this referee."""

    def __init__(self) -> None:
        self._hosted: dict[str, HostedRuleset] = {}
        paths = bundled_ruleset_paths()
        for ruleset_id in sorted(paths):
            rules = load_ruleset(ruleset_id)
            base = _extends(paths[ruleset_id].read_text(encoding="utf-8"), ruleset_id)
            self._hosted[ruleset_id] = HostedRuleset(rules, "bundled", dump(rules), base)

    def all(self) -> list[HostedRuleset]:
        return [self._hosted[k] for k in sorted(self._hosted)]

    def get(self, ruleset_id: str) -> HostedRuleset:
        hosted = self._hosted.get(ruleset_id)
        if hosted is None:
            raise Refusal(Reason.RULESET_NOT_FOUND, ruleset_id=ruleset_id)
        return hosted

    def hosts(self, ruleset_id: str) -> bool:
        return ruleset_id in self._hosted

    def registered(self) -> dict[str, str]:
        """The registered rulesets' YAML by id: what an upload may ``extends`` besides the
        bundled ones."""
        return {
            ruleset_id: hosted.yaml
            for ruleset_id, hosted in self._hosted.items()
            if hosted.origin == "registered"
        }

    def validate(self, text: str, name: str) -> tuple[Ruleset | None, list[Problem]]:
        """Check uploaded YAML; it may extend a bundled ruleset or a registered one."""
        resolved, problems = resolve_text(text, name or "upload.yaml", self.registered())
        if problems:
            return None, problems
        return Ruleset.from_mapping(resolved), []

    def check_new(self, rules: Ruleset | None, problems: list[Problem]) -> Ruleset:
        """Refuse a validated upload that cannot be registered (problems, or a taken id)."""
        if rules is None:
            errors = [p for p in problems if not p.warning]
            raise Refusal(Reason.INVALID_RULESET, detail="; ".join(str(p) for p in errors[:5]))
        if self.hosts(rules.id):
            raise Refusal(Reason.RULESET_EXISTS, ruleset_id=rules.id)
        return rules

    def add(self, rules: Ruleset, text: str) -> HostedRuleset:
        """Host ``rules``, validated from the uploaded ``text`` (which names its base)."""
        base = _extends(text, rules.id)
        hosted = HostedRuleset(rules, "registered", dump(rules), base)
        self._hosted[rules.id] = hosted
        return hosted

    def rulebook(self, ruleset_id: str, language: str, format: str) -> tuple[HostedRuleset, str]:
        """The rulebook of a hosted ruleset, a variant's with how it differs from its base;
        refuses an unknown ruleset, language or format."""
        for field, value, choices in (
            ("language", language, rulebook.languages()),
            ("format", format, rulebook.FORMATS),
        ):
            if value not in choices:
                raise Refusal(
                    Reason.BAD_RULEBOOK_REQUEST,
                    field=field,
                    value=repr(value),
                    choices=", ".join(choices),
                )
        hosted = self.get(ruleset_id)
        base = self.get(hosted.base).rules if hosted.base and self.hosts(hosted.base) else None
        return hosted, rulebook.render(rulebook.build(hosted.rules, base), language, format)


def players_refusal(rules: Ruleset, players: int) -> Refusal:
    """``players_not_allowed``: what a table or an analysis of ``players`` is told."""
    allowed = ", ".join(str(n) for n in rules.players.counts)
    return Refusal(
        Reason.PLAYERS_NOT_ALLOWED,
        detail=f"ruleset {rules.id!r} allows {allowed} players, not {players}",
    )


def _extends(text: str, name: str) -> str | None:
    """The id a ruleset's text ``extends`` (the resolved ruleset no longer says)."""
    document, _ = parse_text(text, name)
    extends = document.data.get("extends") if document is not None else None
    return extends if isinstance(extends, str) else None


def dump(rules: Ruleset) -> str:
    """A resolved ruleset as YAML, its keys in the schema's order."""
    return yaml.safe_dump(
        ordered_like_schema(dict(rules.source)), sort_keys=False, allow_unicode=True
    )
