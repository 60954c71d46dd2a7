"""The clause catalogue (rules/catalogue.yaml): nothing the project cites is left unexplained.

Every clause ID written in a ruleset, in the ruleset schema, in a conformance case's
``clauses`` or description, or in a test's name or docstring must be a clause of the
catalogue; the catalogue's IDs are unique; its page (docs/catalogue.md) is current.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import ROOT, RULES_DIR, bundled_ids
from jsonschema import Draft202012Validator

from referee.conformance.coverage import CLAUSES as COVERAGE_CLAUSES
from referee.conformance.runner import case_files, load_cases
from referee.ruleset.catalogue import (
    CATALOGUE_PATH,
    CATALOGUE_SCHEMA_PATH,
    FAMILIES,
    CatalogueError,
    cited_ids,
    family_of,
    load_catalogue,
)
from referee.ruleset.catalogue_page import anchor, render
from referee.ruleset.loader import bundled_ruleset_paths
from referee.ruleset.schema import schema

CATALOGUE = load_catalogue()
HOW_TO_PLAY = "How to Play (English; German translation)"
BHABHO = "Bhabho / Laad / Get Away (German; Polish translation)"


def test_the_catalogue_checks_against_its_own_schema() -> None:
    catalogue_schema = json.loads(CATALOGUE_SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(catalogue_schema)
    data = yaml.safe_load(CATALOGUE_PATH.read_text(encoding="utf-8"))
    assert list(Draft202012Validator(catalogue_schema).iter_errors(data)) == []
    assert [entry["id"] for entry in data] == list(CATALOGUE)
    assert CATALOGUE["B8"].title == "No escape with the power"
    assert CATALOGUE["B8"].sources == (BHABHO,)


def test_clause_ids_are_unique() -> None:
    data = yaml.safe_load(CATALOGUE_PATH.read_text(encoding="utf-8"))
    repeated = [i for i, n in Counter(entry["id"] for entry in data).items() if n > 1]
    assert repeated == []


def test_the_loader_refuses_a_repeated_id_and_a_clause_without_sources(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.yaml"
    path.write_text(
        "- {id: C1, title: Deck, text: One pack., sources: [a]}\n"
        "- {id: C1, title: Deck again, text: Two packs., sources: [b]}\n",
        encoding="utf-8",
    )
    with pytest.raises(CatalogueError, match="C1 is written more than once"):
        load_catalogue(path)
    path.write_text("- {id: C1, title: Deck, text: One pack.}\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match="'sources' is a required property"):
        load_catalogue(path)


def test_every_house_rule_H1_to_H31_is_present() -> None:
    assert [f"H{n}" for n in range(1, 32)] == [i for i in CATALOGUE if family_of(i) == "H"]


def test_each_family_is_numbered_from_one_without_gaps_in_catalogue_order() -> None:
    letters = list(dict.fromkeys(family_of(i) for i in CATALOGUE))
    assert letters == list(FAMILIES)
    for letter in letters:
        numbers = [int(i[1:]) for i in CATALOGUE if family_of(i) == letter]
        assert numbers == list(range(1, len(numbers) + 1)), letter


def test_the_rule_documents_are_named_by_title_and_language() -> None:
    for clause in CATALOGUE.values():
        if family_of(clause.id) in "CPDV":
            assert HOW_TO_PLAY in clause.sources, clause.id
        if family_of(clause.id) in "CPDVB":
            assert set(clause.sources) <= {HOW_TO_PLAY, BHABHO}, clause.id
        if family_of(clause.id) == "B":
            assert clause.sources == (BHABHO,), clause.id


def test_a_clause_refers_only_to_clauses_of_the_catalogue() -> None:
    unknown = [
        (clause.id, cited)
        for clause in CATALOGUE.values()
        for text in (clause.title, clause.text, clause.disagreement or "", clause.note or "")
        for cited in cited_ids(text)
        if cited not in CATALOGUE
    ]
    assert unknown == []


# --- everything cited is explained ------------------------------------------------------------


def _ruleset_citations() -> Iterator[tuple[str, str]]:
    """The whole text of every bundled ruleset file: keys, values and comments."""
    for path in sorted(bundled_ruleset_paths().values()):
        for cited in cited_ids(path.read_text(encoding="utf-8")):
            yield str(path.relative_to(ROOT)), cited


def _schema_citations() -> Iterator[tuple[str, str]]:
    """Every description and ``x-clauses`` list of the ruleset schema."""

    def strings(node: object, where: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("description", "x-clauses", "title"):
                    for text in value if isinstance(value, list) else [value]:
                        yield from ((where, cited) for cited in cited_ids(str(text)))
                else:
                    yield from strings(value, f"{where}.{key}")
        elif isinstance(node, list):
            for item in node:
                yield from strings(item, where)

    yield from strings(schema(), "ruleset.schema.json")


def _case_citations() -> Iterator[tuple[str, str]]:
    """The ``clauses`` of every conformance case, and the clauses its description names."""
    for found in case_files([ROOT / "conformance" / "cases"]):
        for loaded in load_cases(found.path, folder=found.folder):
            assert not loaded.error, loaded.label
            for cited in loaded.case["clauses"]:
                yield loaded.label, cited
            for cited in cited_ids(loaded.case.get("description", "")):
                yield loaded.label, cited


def _test_citations() -> Iterator[tuple[str, str]]:
    """The names and docstrings of the tests: modules, classes and functions."""
    for path in sorted((ROOT / "tests").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = [tree, *ast.walk(tree)]
        for node in nodes:
            texts = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                texts.append(node.name)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                texts.append(ast.get_docstring(node) or "")
            for text in texts:
                yield from (
                    (f"{path.name}:{getattr(node, 'lineno', 1)}", c) for c in cited_ids(text)
                )


CITATIONS = {
    "rulesets": _ruleset_citations,
    "schema": _schema_citations,
    "cases": _case_citations,
    "tests": _test_citations,
}


@pytest.mark.parametrize("where", list(CITATIONS))
def test_every_cited_clause_is_in_the_catalogue(where: str) -> None:
    cited = list(CITATIONS[where]())
    assert cited, f"no clause cited in the {where}: the scan finds nothing"
    unknown = sorted({(label, clause) for label, clause in cited if clause not in CATALOGUE})
    assert unknown == []


def test_the_ruleset_and_case_patterns_allow_exactly_the_catalogues_clauses() -> None:
    """A ruleset and a case may follow any clause of the catalogue, the house rules (H)
    included (an option implements them, and clauses.py checks the claim), and the coverage
    report counts them all."""
    followable = list(CATALOGUE)
    case_schema = json.loads((ROOT / "conformance/schema/case.schema.json").read_text("utf-8"))
    patterns = {
        "ruleset": schema()["properties"]["clauses"]["items"]["pattern"],
        "case": case_schema["properties"]["clauses"]["items"]["pattern"],
    }
    candidates = [f"{letter}{n}" for letter in FAMILIES for n in range(0, 40)]
    for name, pattern in patterns.items():
        allowed = [c for c in candidates if re.search(pattern, c)]
        assert sorted(allowed) == sorted(followable), name
    assert list(COVERAGE_CLAUSES) == followable


# --- the page and the rulesets ------------------------------------------------------------------


def test_the_catalogue_page_is_up_to_date() -> None:
    page = ROOT / "docs" / "catalogue.md"
    assert page.read_text(encoding="utf-8") == render(), (
        "docs/catalogue.md is stale: run `bhabhi rules clauses --markdown > docs/catalogue.md`"
    )


def test_every_clause_has_its_anchor_and_every_link_lands() -> None:
    page = render()
    anchors = re.findall(r'<a id="([a-z0-9]+)"></a>', page)
    assert anchors == [anchor(i) for i in CATALOGUE]
    assert anchor("H17") == "h17"
    targets = set(re.findall(r"\]\(#([a-z0-9-]+)\)", page))
    assert targets <= set(anchors)
    assert "[B8](#b8)" in page.split('<a id="h17"></a>')[1].split("###")[0]
    assert "`next_leader.if_waste_empty`" in page.split('<a id="b8"></a>')[1].split("###")[0]


def test_the_catalogue_is_not_a_ruleset() -> None:
    assert (RULES_DIR / "catalogue.yaml").is_file()
    assert "catalogue" not in bundled_ruleset_paths()
    assert "catalogue" not in bundled_ids()
    assert sorted(bundled_ids()) == sorted(bundled_ruleset_paths())


def test_every_house_rule_is_written_by_an_option() -> None:
    """H1-H31 can each be written in YAML: some option implements it (its ``x-clauses``
    names it), or is it already (its description names it: H7 a first lead card, H8 the
    first trick's tochoo, H30 all out together)."""
    nodes = [sub for _, sub in _schema_nodes(schema())]
    named = {c for sub in nodes for c in sub.get("x-clauses", [])}
    described = {
        c for sub in nodes for c in cited_ids(str(sub.get("description", ""))) if c[0] == "H"
    }
    house = [i for i in CATALOGUE if family_of(i) == "H"]
    assert [h for h in house if h not in named | described] == []


def _schema_nodes(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        found.append((path, node))
        for key, value in node.items():
            found += _schema_nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _schema_nodes(value, f"{path}/{index}")
    return found
