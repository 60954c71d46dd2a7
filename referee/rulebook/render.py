"""A rulebook in one language and one format: ``text``, ``markdown`` or ``html``.

First every sentence is put into words (:class:`Written`), so that a message that is missing
fails before anything is printed; then a format lays the words out.  The final "Clauses"
section gives the text of every clause the book cites, in the book's language
(:meth:`Localizer.clause`).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata

from referee.rulebook.locale import Localizer
from referee.rulebook.model import Rulebook
from referee.ruleset.catalogue import load_catalogue

FORMATS = ("text", "markdown", "html")


@dataclass(frozen=True, slots=True)
class WrittenSentence:
    text: str
    clauses: tuple[str, ...]
    term: str | None = None
    """A glossary entry's word (the message's ``.term``)."""
    example: tuple[str, str] | None = None
    """A worked example shown under the sentence: the trick, and what happens."""


@dataclass(frozen=True, slots=True)
class WrittenSection:
    key: str
    heading: str
    sentences: tuple[WrittenSentence, ...]


@dataclass(frozen=True, slots=True)
class WrittenClause:
    id: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Written:
    """The book in words: what every format lays out."""

    language: str
    title: str
    sections: tuple[WrittenSection, ...]
    clauses: tuple[WrittenClause, ...]
    """Every clause the book states, in catalogue order."""
    words: dict[str, str]
    """The renderers' own words: ``contents``, ``section-clauses``, ``clauses-intro``,
    ``footer``."""


def write(book: Rulebook, language: str) -> Written:
    """Every sentence of the book in ``language``; raises RulebookTextError on any gap."""
    words = Localizer(language)
    sections = []
    for section in book.sections:
        glossary = section.key == "glossary"
        sentences = tuple(
            WrittenSentence(
                words.sentence(sentence),
                sentence.clauses,
                words.attribute(sentence.message_id, "term") if glossary else None,
                words.example(sentence.example) if sentence.example is not None else None,
            )
            for sentence in section.sentences
        )
        heading = words.sentence(section.heading)
        sections.append(WrittenSection(section.key, heading, sentences))
    catalogue = load_catalogue()
    stated = set(book.clauses())
    footer = words.message(
        "footer", {"id": book.ruleset_id, "hash": book.ruleset_hash, "version": _version()}
    )
    return Written(
        language=language,
        title=words.sentence(book.title),
        sections=tuple(sections),
        clauses=tuple(
            WrittenClause(c.id, *words.clause(c)) for c in catalogue.values() if c.id in stated
        ),
        words={
            "contents": words.message("contents"),
            "section-clauses": words.message("section-clauses"),
            "clauses-intro": words.message("clauses-intro"),
            "footer": footer,
        },
    )


def render(book: Rulebook, language: str = "en", format: str = "text") -> str:
    """The book as text, Markdown or HTML; an unknown format is a ValueError."""
    from referee.rulebook import html, markdown, text

    renderers = {"text": text.render, "markdown": markdown.render, "html": html.render}
    if format not in renderers:
        raise ValueError(f"no rulebook format {format!r} (there are: {', '.join(FORMATS)})")
    return renderers[format](write(book, language))


def _version() -> str:
    try:
        return metadata.version("bhabhi-as-data")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        return "(not installed)"
