"""The rulebook as one self-contained HTML page: inline CSS, no script, nothing fetched.

Readable on a phone (one column, the viewport's width) and printable on A4 (``@media
print``: page margins, no heading left alone at the foot of a page, links shown as plain
text).  Suit symbols are coloured (hearts and diamonds red); clause IDs link to the final
"Clauses" section; the ruleset's id, hash and the program's version stand at the foot.
"""

from __future__ import annotations

import html as _html

from referee.pagestyle import page_style
from referee.rulebook.render import Written

STYLE = page_style(
    """
a.ref { font: 0.7rem/1 system-ui, sans-serif; text-decoration: none; color: #666;
  vertical-align: super; margin-left: 0.15rem; }
dl { margin: 0; }
dt { font-weight: bold; margin-top: 0.6rem; }
dd { margin: 0 0 0.4rem 1.2rem; }
aside.example { margin: 0 0 0.9rem; padding: 0.45rem 0.8rem; border-left: 3px solid #9bb3d4;
  background: #f3f6fa; font-size: 0.95rem; }
aside.example p { margin: 0.15rem 0; }
aside.example .trick { font-weight: bold; }
.red { color: #c8102e; }
.black { color: #000; }
#clauses dd, #clauses dt { font-size: 0.9rem; }
""",
    own_print="""
  p, dd, dt, li, aside { break-inside: avoid; page-break-inside: avoid; }
  aside.example { background: none; border-left-color: #888; }
  a.ref { color: #666; }
  .red { color: #c8102e; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
""",
    width="42rem",
)
"""The house style (``referee.pagestyle``) in a column measured for prose, with the book's
own: clause references, the glossary's and the clauses' lists, the worked examples, and
suits in colour (kept in colour when printed)."""

_SUITS = {"♥": "red", "♦": "red", "♠": "black", "♣": "black"}


def words(text: str) -> str:
    """Text escaped for HTML, with every suit symbol in its colour."""
    escaped = _html.escape(text, quote=True)
    for symbol, colour in _SUITS.items():
        escaped = escaped.replace(symbol, f'<span class="{colour}">{symbol}</span>')
    return escaped


def refs(clauses: tuple[str, ...]) -> str:
    return "".join(f'<a class="ref" href="#clause-{c}">{c}</a>' for c in clauses)


def render(book: Written) -> str:
    toc = [(s.key, s.heading) for s in book.sections]
    if book.clauses:
        toc.append(("clauses", book.words["section-clauses"]))
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{_html.escape(book.language)}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{words(book.title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{words(book.title)}</h1>",
        f'<nav aria-label="{words(book.words["contents"])}">',
        f"<h2>{words(book.words['contents'])}</h2>",
        "<ol>",
        *(f'<li><a href="#{key}">{words(heading)}</a></li>' for key, heading in toc),
        "</ol>",
        "</nav>",
    ]
    for section in book.sections:
        out += [f'<section id="{section.key}">', f"<h2>{words(section.heading)}</h2>"]
        if section.key == "glossary":
            out.append("<dl>")
            for entry in section.sentences:
                out += [f"<dt>{words(entry.term or '')}</dt>", f"<dd>{words(entry.text)}</dd>"]
            out.append("</dl>")
        else:
            for sentence in section.sentences:
                out.append(f"<p>{words(sentence.text)}{refs(sentence.clauses)}</p>")
                if sentence.example:
                    trick, outcome = sentence.example
                    out.append(
                        f'<aside class="example"><p class="trick">{words(trick)}</p>'
                        f"<p>{words(outcome)}</p></aside>"
                    )
        out.append("</section>")
    if book.clauses:
        out += [
            '<section id="clauses">',
            f"<h2>{words(book.words['section-clauses'])}</h2>",
            f"<p>{words(book.words['clauses-intro'])}</p>",
            "<dl>",
        ]
        for clause in book.clauses:
            out += [
                f'<dt id="clause-{clause.id}">{clause.id} {words(clause.title)}</dt>',
                f"<dd>{words(clause.text)}</dd>",
            ]
        out += ["</dl>", "</section>"]
    out += [f"<footer>{words(book.words['footer'])}</footer>", "</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
