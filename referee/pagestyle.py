"""The house style of the project's self-contained HTML pages, in one place.

Every page the project writes (the rulebook, the analysis report, later the web table) is
one project's page, and should look it: the same type, colours, headings, contents list and
footer.  Each page is self-contained (inline CSS, no font or sheet fetched, so a page saved
or mailed reads the same offline), readable on a phone (one column no wider than the
viewport, long words broken rather than scrolled sideways) and printable on A4 (page
margins, no heading left alone at the foot of a page, links as plain text).  A page adds
only what is its own (the rulebook's examples and clause references, the analysis's tables
and figures) and the width of its column: prose reads best narrower than a table.
"""

from __future__ import annotations

_SCREEN = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: #1a1a1a;
  font: 1.05rem/1.55 Georgia, "Times New Roman", serif; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 0.6rem; padding-bottom: 0.2rem;
  border-bottom: 1px solid #ccc; }
p { margin: 0 0 0.7rem; }
nav ol { padding-left: 1.6rem; margin: 0; }
nav li { margin: 0.15rem 0; }
a { color: #1d4f91; }
footer { margin-top: 2.5rem; padding-top: 0.6rem; border-top: 1px solid #ccc;
  font: 0.8rem/1.4 system-ui, sans-serif; color: #555; overflow-wrap: anywhere; }
body, p, dd, li { overflow-wrap: break-word; }
"""

_PRINT = """
  @page { size: A4; margin: 18mm 16mm; }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  a { color: inherit; text-decoration: none; }
"""


def page_style(own: str, *, own_print: str = "", width: str) -> str:
    """The CSS of one page: the house rules, then the page's own (``own`` on screen,
    ``own_print`` when printed), so that a page's rule can refine a house rule by coming
    later; ``width`` is the ``max-width`` of the page's one column on a screen (printed, the
    column is the page's).  The print rules stand last, in one ``@media print`` block, so
    that no screen rule of the same weight overrides them."""
    column = f"main {{ max-width: {width}; margin: 0 auto; padding: 1.25rem 1rem 2rem; }}\n"
    return (
        _SCREEN
        + column
        + own.strip("\n")
        + "\n@media print {"
        + _PRINT
        + own_print.strip("\n")
        + "\n}\n"
    )
