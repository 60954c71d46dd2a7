"""The rulebook of a ruleset: every option's value as sentences people read at the table.

``build(ruleset, base)`` makes a :class:`Rulebook` (sections of sentences, no words yet, see
:mod:`referee.rulebook.model`); ``render(book, language, format)`` puts it into the words of
``locales/LANGUAGE.ftl`` as text, Markdown or one self-contained HTML page.  The book is made
from the same resolved ruleset the referee plays, so it says what the referee enforces.  This
package reads rulesets and the clause catalogue and nothing of play or serving: the referee
serves it, the engine never needs it.  docs/rulebook.md says how it is made and how to add a
language.
"""

from __future__ import annotations

from referee.rulebook.builder import build
from referee.rulebook.locale import Localizer, RulebookTextError, languages
from referee.rulebook.model import Rulebook, Section, Sentence
from referee.rulebook.render import FORMATS, render

__all__ = [
    "FORMATS",
    "Localizer",
    "Rulebook",
    "RulebookTextError",
    "Section",
    "Sentence",
    "build",
    "languages",
    "render",
]
