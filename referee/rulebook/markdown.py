"""The rulebook as Markdown: a table of contents, one heading per section, each rule a
paragraph ending in its clause IDs as small links (``[B8](#clause-B8)``) to the final
"Clauses" section, which quotes the catalogue."""

from __future__ import annotations

import re

from referee.rulebook.render import Written

_MARKUP = re.compile(r"([\\*_`<>\[\]#|])")


def escape(text: str) -> str:
    return _MARKUP.sub(r"\\\1", text)


def refs(clauses: tuple[str, ...]) -> str:
    return " ".join(f"[{c}](#clause-{c})" for c in clauses)


def render(book: Written) -> str:
    lines = [f"# {escape(book.title)}", "", f"**{escape(book.words['contents'])}**", ""]
    for section in book.sections:
        lines.append(f"- [{escape(section.heading)}](#{section.key})")
    if book.clauses:
        lines.append(f"- [{escape(book.words['section-clauses'])}](#clauses)")
    for section in book.sections:
        lines += ["", f'## <a id="{section.key}"></a>{escape(section.heading)}', ""]
        for sentence in section.sentences:
            text = escape(sentence.text)
            if sentence.term:
                text = f"**{escape(sentence.term)}**: {text}"
            if sentence.clauses:
                text += f" <sub>{refs(sentence.clauses)}</sub>"
            lines += [text, ""]
            if sentence.example:
                trick, outcome = sentence.example
                lines += [f"> *{escape(trick)}* {escape(outcome)}", ""]
        lines.pop()
    if book.clauses:
        lines += ["", f'## <a id="clauses"></a>{escape(book.words["section-clauses"])}', ""]
        lines += [escape(book.words["clauses-intro"]), ""]
        for clause in book.clauses:
            lines += [
                f'<a id="clause-{clause.id}"></a>**{clause.id} {escape(clause.title)}** '
                f"{escape(clause.text)}",
                "",
            ]
        lines.pop()
    lines += ["", "---", "", escape(book.words["footer"])]
    return "\n".join(lines) + "\n"
