"""The ``bhabhi analyze --html`` page in a real browser: headless Chromium, the system's.

A small analysis (a few hands of pickup with 3 players, of bhabho with 4, of discard against
pickup with 3) is written to HTML and opened at a phone's width (390 px) and as printed on
A4; the page must not overflow sideways, every link of its contents must reach a heading of
the same words, every plot must be an inline ``<svg>`` with a text alternative, drawn at a
non-zero size inside the column, and the page must fetch nothing but itself.  Screenshots
and the PDF go to ``tmp_path``, for a person to look at when a check fails.

Chromium and the skip-or-fail rule are those of ``tests/test_rulebook_browser.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_rulebook_browser import (
    A4_PRINTABLE_PX,
    CONTENTS,
    OVERFLOW,
    PHONE,
    browser,  # noqa: F401 (the fixture)
    open_offline,
)

from referee.cli import main

CASES = {
    "pickup-3": ("pickup", "--players", "3", "--hands", "12"),
    "bhabho-4": ("bhabho", "--players", "4", "--hands", "12"),
    "discard-against-pickup": ("discard", "--players", "3", "--hands", "12", "--against", "pickup"),
}

PLOTS_PER_COUNT = 4
"""The length distribution, the seats, the cards dealt and the decisiveness curve."""

# Every plot: is it an inline <svg> in a <figure>, with a text alternative, and its size.
PLOTS = """() => Array.from(document.querySelectorAll("figure")).map(f => {
  const svg = f.querySelector(":scope > svg");
  const box = svg ? svg.getBoundingClientRect() : null;
  return [svg !== null, svg ? svg.getAttribute("aria-label") || "" : "",
          box ? box.width : 0, box ? box.height : 0, box ? box.right : 0,
          f.querySelector("figcaption") ? f.querySelector("figcaption").textContent : ""];
})"""


def _check_page(page: Any, width: int, plots: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, (scroll, page.evaluate(OVERFLOW, width))
    contents = page.evaluate(CONTENTS)
    assert contents[0][1] == "Warnings"
    for href, label, tag, heading in contents:
        assert tag is not None, f"contents link {href} reaches no heading"
        assert label == heading, (href, label, heading)
    found = page.evaluate(PLOTS)
    assert len(found) == plots, found
    for inline, alternative, plot_width, plot_height, right, caption in found:
        assert inline, "a figure without an inline <svg>"
        assert alternative and caption
        assert plot_width > 0 and plot_height > 0
        assert right <= width + 0.5
    assert page.evaluate("document.querySelectorAll('img, script, link, iframe').length") == 0


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_analysis_page_in_chromium(
    browser: Any,  # noqa: F811 (the fixture)
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / f"{case}.html"
    assert main(["analyze", *CASES[case], "--html", str(path)]) == 0
    capsys.readouterr()
    context, page, fetched = open_offline(browser, path)
    assert fetched == [path.as_uri()], "the page fetched something"
    assert "Analysis of" in page.title()
    assert page.locator("main > section").first.get_attribute("id") == "warnings"
    _check_page(page, PHONE["width"], PLOTS_PER_COUNT)
    page.screenshot(path=tmp_path / f"{case}.phone.png", full_page=True)

    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_PRINTABLE_PX, "height": 1000})
    _check_page(page, A4_PRINTABLE_PX, PLOTS_PER_COUNT)
    pdf = tmp_path / f"{case}.pdf"
    page.pdf(path=pdf, format="A4", prefer_css_page_size=True, print_background=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    assert fetched == [path.as_uri()], "printing fetched something"
    context.close()
