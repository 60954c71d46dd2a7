"""The HTML rulebook in a real browser: headless Chromium, the distribution's own.

For a few rulesets (a pick-up game, a tochoo game, a house variant with its "How this
differs" section) in every language with a file in ``referee/rulebook/locales/``, the page is
opened at a phone's width (390 px) and as printed on A4, and must: not overflow sideways, have
a table of contents whose every link reaches a heading, show every suit symbol in its colour
(hearts and diamonds red, spades and clubs black), and carry the ruleset's hash at its foot.
A screenshot and the PDF go to ``tmp_path``, for a person to look at when a check fails.

Chromium comes from the system (``apt-get install chromium``), found on the PATH; Playwright
only drives it (no ``playwright install``).  Where it is missing the tests are skipped,
unless ``BHABHI_REQUIRE_BROWSER=1`` (CI: ``.ci/run``), which turns the skip into a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.rulebook import build, languages, render
from referee.rulebook.loading import with_base

REQUIRE_VARIABLE = "BHABHI_REQUIRE_BROWSER"
RULESETS = ("pickup", "bhabho", "bhabho-two-left")
PHONE = {"width": 390, "height": 844}
A4_PRINTABLE_PX = round((210 - 2 * 16) / 25.4 * 96)
"""The width of A4 inside the page's print margins (``@page { margin: 18mm 16mm }``), in
CSS pixels (96 to the inch): what the page's lines must fit in when printed."""
RED = "rgb(200, 16, 46)"
BLACK = "rgb(0, 0, 0)"


def _unavailable(why: str) -> None:
    if os.environ.get(REQUIRE_VARIABLE, "") == "1":
        pytest.fail(f"{why} ({REQUIRE_VARIABLE}=1: the browser check is required here)")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_chromium()


def launched_chromium() -> Iterator[Any]:
    """The system's Chromium, launched headless by Playwright, for as long as the caller
    holds it; skipped (or, where required, failed) with the reason when either is missing."""
    chromium = shutil.which("chromium")
    if chromium is None:
        _unavailable("no chromium on the PATH (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


# Every suit symbol in the page's text, with the colour it is drawn in.
SUIT_COLOURS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const ch of node.textContent) {
      if ("♥♦♠♣".includes(ch)) {
        found.push([ch, getComputedStyle(node.parentElement).color]);
      }
    }
  }
  return found;
}"""

# Every link of the table of contents, and the tag of the heading its target starts with.
CONTENTS = """() => Array.from(document.querySelectorAll("nav a")).map(a => {
  const id = decodeURIComponent(a.getAttribute("href").slice(1));
  const target = document.getElementById(id);
  const heading = target && (target.matches("h1,h2,h3") ? target
                                                         : target.querySelector("h1,h2,h3"));
  return [a.getAttribute("href"), a.textContent.trim(),
          heading ? heading.tagName : null, heading ? heading.textContent.trim() : null];
})"""

# The elements wider than the page, by tag and start of text: what overflows, if anything.
OVERFLOW = """(width) => Array.from(document.querySelectorAll("body *"))
  .filter(e => e.getBoundingClientRect().right > width + 0.5)
  .slice(0, 5).map(e => e.tagName + ": " + e.textContent.slice(0, 60))"""


def open_offline(browser: Any, path: Path) -> tuple[Any, Any, list[str]]:
    """A phone-sized page showing ``path``, with every URL it requests recorded, so that a
    test can hold that a self-contained page fetched nothing but itself."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(path.as_uri())
    return context, page, fetched


def _check_page(page: Any, width: int, ruleset_hash: str) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, (scroll, page.evaluate(OVERFLOW, width))
    contents = page.evaluate(CONTENTS)
    assert len(contents) >= 10, contents
    for href, label, tag, heading in contents:
        assert tag is not None, f"contents link {href} reaches no heading"
        assert label == heading, (href, label, heading)
    suits = page.evaluate(SUIT_COLOURS)
    assert suits, "no suit symbol on the page"
    for symbol, colour in suits:
        assert colour == (RED if symbol in "♥♦" else BLACK), (symbol, colour)
    footer = page.locator("main > footer")
    assert ruleset_hash in footer.inner_text()
    assert page.evaluate("document.querySelector('main').lastElementChild.tagName") == "FOOTER"


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_html_rulebook_in_chromium(
    browser: Any, ruleset_id: str, language: str, tmp_path: Path
) -> None:
    ruleset, base = with_base(ruleset_id)
    html = render(build(ruleset, base), language, "html")
    path = tmp_path / f"{ruleset_id}.{language}.html"
    path.write_text(html, encoding="utf-8")
    context, page, fetched = open_offline(browser, path)
    assert fetched == [path.as_uri()], "the page fetched something"
    assert page.title(), "no title"
    _check_page(page, PHONE["width"], ruleset.hash)
    page.screenshot(path=tmp_path / f"{ruleset_id}.{language}.phone.png", full_page=True)

    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_PRINTABLE_PX, "height": 1000})
    _check_page(page, A4_PRINTABLE_PX, ruleset.hash)
    pdf = tmp_path / f"{ruleset_id}.{language}.pdf"
    page.pdf(path=pdf, format="A4", prefer_css_page_size=True, print_background=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    context.close()
