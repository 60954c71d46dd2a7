"""The rulebook as plain text for a terminal: wrapped, numbered headings, clause IDs in
brackets after each rule, the clauses' titles at the end."""

from __future__ import annotations

import textwrap

from referee.rulebook.render import Written

WIDTH = 78


def render(book: Written) -> str:
    lines = [book.title, "=" * len(book.title), ""]
    for number, section in enumerate(book.sections, 1):
        heading = f"{number}. {section.heading}"
        lines += [heading, "-" * len(heading), ""]
        for sentence in section.sentences:
            text = f"{sentence.term}: {sentence.text}" if sentence.term else sentence.text
            if sentence.clauses:
                text += f" [{', '.join(sentence.clauses)}]"
            lines += textwrap.wrap(text, WIDTH, initial_indent="* ", subsequent_indent="  ")
            if sentence.example:
                trick, outcome = sentence.example
                lines += textwrap.wrap(
                    f"{trick} {outcome}", WIDTH, initial_indent="  > ", subsequent_indent="  > "
                )
        lines.append("")
    if book.clauses:
        heading = book.words["section-clauses"]
        lines += [heading, "-" * len(heading), ""]
        lines += textwrap.wrap(book.words["clauses-intro"], WIDTH)
        lines.append("")
        for clause in book.clauses:
            # The intro promises each clause's text, as Markdown and HTML give it.
            lines += textwrap.wrap(f"{clause.id}  {clause.title}", WIDTH, subsequent_indent="     ")
            lines += textwrap.wrap(
                clause.text, WIDTH, initial_indent="     ", subsequent_indent="     "
            )
            lines.append("")
    lines += textwrap.wrap(book.words["footer"], WIDTH, break_long_words=True)
    return "\n".join(lines) + "\n"
