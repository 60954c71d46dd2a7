"""The web table in a real browser: headless Chromium, the distribution's own, on a referee
started as ``bhabhi serve --web-port`` serves it (the page built into the package).

Three players in three browser contexts (English, German, and Polish on a phone's width)
and a spectator in a fourth: the lobby lists the rulesets and the new table and shows a
rulebook, one player creates the table and the others join by its link, they start and
play by clicking legal cards (the first by Tab and Enter), a card that is not legal
(pressed anyway) is refused in words in the player's language, a reload in the middle of a
trick keeps the seat and the hand, and no page (the spectator's included) holds a card of
another seat's hidden hand, in its DOM or in any API response it receives. Then a referee
that restarts under three pages, which reconnect, and a whole hand on a test deal with a
turn clock counting down; a person against the referee's bots, whose names and log follow
the page's language, a tab whose kept credential the referee refuses, which watches on as
a spectator, and house variants' decisions (H20 a take asked for, H25 a challenge) made by
buttons. Screenshots go to ``tmp_path`` only.

Chromium comes from the system (``apt-get install chromium``); where it or Playwright is
missing the tests are skipped, unless ``BHABHI_REQUIRE_BROWSER=1`` (CI), as in
``test_rulebook_browser.py``.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from server_helpers import bhabhi_command
from test_rulebook_browser import _unavailable, launched_chromium

from referee.server import web
from referee.server.errors import MESSAGES

RULESET = "pickup"
SEATS = 3
MOVES = 14
"""Moves played by clicking (cards or a pickup), at most: enough for tricks, pickups and a
reload in the middle of one, without the minutes a whole hand of three would take."""
WAIT_MS = 15_000
PERSON, HEURISTIC = 0, 2
"""``BotStrategy``: a person's seat, and the referee's heuristic bot."""

# A page's fetches, kept whole (a WatchTable stream too, while it is open): the spectator's
# every API response, read as it arrives, beside what page.on("response") sees.
TEE_FETCH = """(() => {
  const fetched = [];
  window.__fetched = fetched;
  const original = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await original(...args);
    const entry = { url: response.url, body: "" };
    fetched.push(entry);
    const reader = response.clone().body?.getReader();
    if (reader) {
      const decoder = new TextDecoder();
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          entry.body += decoder.decode(value, { stream: true });
        }
      })().catch(() => {});
    }
    return response;
  };
})();"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (web.PAGE_DIRECTORY / "index.html").is_file():
        _unavailable("the web table is not built (make page)")
    yield from launched_chromium()


class Served:
    """``bhabhi serve`` as ``make run`` starts it, its gRPC and web ports and its store
    given (so that it can be stopped and started again on the same ones)."""

    def __init__(self, *flags: str) -> None:
        self.flags = flags
        self.process: subprocess.Popen[str] | None = None
        self.address = ""

    def start(self) -> str:
        self.process = subprocess.Popen(
            [*bhabhi_command(), "serve", *self.flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            found = re.search(r"web API .* on (http://\S+/)", line)
            if found:
                self.address = found.group(1)
                return self.address
        raise AssertionError("the referee printed no web address")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """A referee with its store in memory on free ports: the page's address."""
    served = Served("--port", "0", "--web-port", "0", "--db", ":memory:")
    try:
        yield served.start()
    finally:
        served.stop()


PHONE = {"width": 390, "height": 844}


def _new_page(
    browser: Any, locale: str, *, tee: bool = False, viewport: dict[str, int] | None = None
) -> Any:
    context = browser.new_context(
        locale=locale, viewport=viewport or {"width": 1100, "height": 900}
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    if tee:
        page.add_init_script(TEE_FETCH)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A fetch, script or style the page's Content-Security-Policy refused is an error too.
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.errors = errors
    return page


NOT_YOUR_TURN = {
    1: "It is not your turn: {name} is to play.",
    2: "Du bist nicht am Zug: {name} ist dran.",
    3: "To nie twój ruch: teraz gra {name}.",
}
"""The page's own words for ``not_your_turn`` (web/src/strings.ts), which name the seat."""


def _worded(language: int) -> list[re.Pattern[str]]:
    """Every refusal's words in one language (1 en, 2 de, 3 pl), as patterns."""
    patterns = []
    for texts in MESSAGES.values():
        pattern = re.sub(r"\\\{\w+\\\}", ".+", re.escape(texts[language]))
        patterns.append(re.compile(pattern))
    return patterns


def _call(site: str, method: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
    """One call of the referee's API as the page makes it (Connect, JSON), asserted to be
    answered."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = httpx.post(f"{site}bhabhi.referee.v1.{method}", json=body, headers=headers, timeout=20)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _log_lines(page: Any) -> list[str]:
    lines: list[str] = page.eval_on_selector_all(
        "#log li", "lines => lines.map(l => l.textContent)"
    )
    return lines


def _hand(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        ".hand button.card", "cards => cards.map(c => c.dataset.card)"
    )
    return cards


def _log_size(page: Any) -> int:
    size: int = page.eval_on_selector_all("#log li", "items => items.length")
    return size


TAKE = "3::"
"""The ``data-action`` of taking a hand (B9): a chance out of turn, gone once the seat whose
turn it is has moved."""


def _mover(pages: list[Any], *, chances: bool = True) -> tuple[Any, str, str] | None:
    """The page whose seat is to move now, the selector of the control it would press (a
    legal card, or else another legal action, a pickup) and the card ("" for an action);
    without ``chances``, never a take (which the referee's bots, moving at once, would
    close before the click). A selector, not the element: a redraw replaces the elements."""
    for page in pages:
        card = page.query_selector(".hand button.card.legal")
        if card is not None:
            name = card.get_attribute("data-card")
            return page, f'.hand button.card.legal[data-card="{name}"]', name
        skip = "" if chances else f':not([data-action="{TAKE}"])'
        action = page.query_selector(f".hand button.action{skip}")
        if action is not None:
            key = action.get_attribute("data-action")
            return page, f'.hand button.action[data-action="{key}"]', ""
    return None


def _wait_for_mover(pages: list[Any], *, chances: bool = True) -> tuple[Any, str, str] | None:
    for _ in range(WAIT_MS // 100):
        found = _mover(pages, chances=chances)
        if found is not None:
            return found
        if any(page.query_selector("#turn[data-over]") is not None for page in pages):
            return None  # the hand is over
        pages[0].wait_for_timeout(100)
    return None


FOCUSED = """() => {
  const e = document.activeElement;
  return e ? [e.tagName, e.className, e.dataset.card || "", Boolean(e.disabled)] : null;
}"""


def _play_by_keyboard(page: Any) -> str:
    """Tab from the top of the page to the first legal card (never stopping on a card that
    is not legal) and press Enter: the card."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(200):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        assert focused is not None
        tag, classes, card, disabled = focused
        assert not disabled
        if tag == "BUTTON" and "card" in classes.split():
            assert "legal" in classes.split(), focused
            page.keyboard.press("Enter")
            return str(card)
    raise AssertionError("Tab never reached a legal card")


def _seat_three(site: str, ann: Any, bea: Any, cem: Any) -> str:
    """Ann creates a table of three and joins it; Bea and Cem join by the link she sends;
    Ann starts it. The link."""
    ann.goto(site)
    ann.wait_for_selector("form.create")
    ann.select_option("#new-ruleset", RULESET)
    ann.select_option("#new-seats", str(SEATS))
    for seat in range(SEATS):  # every seat a person's (the form offers bots in the others)
        ann.select_option(f'select[data-seat="{seat}"]', str(PERSON))
    ann.fill("#new-hands", "1")
    ann.click("form.create button[type=submit]")
    ann.fill("#player-name", "   ")  # a name of spaces is no name
    ann.click("form.join button[type=submit]")
    ann.wait_for_function("() => document.getElementById('message').textContent !== ''")
    assert ann.inner_text("#message") == "Your name, please: the other players see it."
    ann.fill("#player-name", "Ann")
    ann.click("form.join button[type=submit]")
    link: str = ann.input_value("#join-link")
    assert "#table=" in link
    for page, name in ((bea, "Bea"), (cem, "Cem")):
        page.goto(link)
        page.fill("#player-name", name)
        page.click("form.join button[type=submit]")
    ann.click("#start")  # there once every seat is taken
    return link


def _trick_started(page: Any) -> bool:
    return page.query_selector(".seat .played") is not None


def test_the_lobby_lists_rulesets_and_tables_and_shows_a_rulebook(
    browser: Any, site: str, tmp_path: Path
) -> None:
    page = _new_page(browser, "en-GB", viewport=PHONE)
    page.goto(site)
    page.wait_for_selector(f'li[data-ruleset="{RULESET}"]')
    assert page.query_selector(f'li[data-ruleset="{RULESET}"] a.rulebook') is not None
    page.select_option("#new-ruleset", RULESET)
    seats = page.eval_on_selector_all("#new-seats option", "os => os.map(o => o.value)")
    assert seats == [str(n) for n in range(3, 9)]  # what the ruleset allows
    page.select_option("#new-seats", "4")
    page.select_option('select[data-seat="3"]', str(PERSON))  # seats 1 and 2: bots
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"#table="))
    table_id = page.url.split("#table=")[1]
    page.goto(site)
    row = page.wait_for_selector(f'tr[data-table="{table_id}"]')
    assert "2 of 4 taken" in row.inner_text() and "waiting for players" in row.inner_text()
    assert row.inner_text().count("Heuristic bot") == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Join, see it in the lobby, give the seat up again.
    page.click(f'tr[data-table="{table_id}"] a')
    page.fill("#player-name", "Dee")
    page.click("form.join button[type=submit]")
    page.wait_for_selector("#leave")
    assert page.evaluate(f"sessionStorage.getItem('bhabhi.seat.{table_id}')") is not None
    page.click("a[href='#']")
    row = page.wait_for_selector(f'tr[data-table="{table_id}"]')
    assert "3 of 4 taken" in row.inner_text() and "Dee" in row.inner_text()
    page.click(f'tr[data-table="{table_id}"] a')
    page.click("#leave")
    page.wait_for_selector("#player-name")
    assert page.evaluate(f"sessionStorage.getItem('bhabhi.seat.{table_id}')") is None
    page.click("a[href='#']")
    page.click(f'li[data-ruleset="{RULESET}"] a.rulebook')
    frame = page.wait_for_selector("iframe.rulebook")
    assert frame.get_attribute("lang") == "en"
    book = frame.content_frame()
    assert book is not None
    book.wait_for_selector("h1")
    assert "Pick-up" in book.inner_text("h1")
    page.screenshot(path=str(tmp_path / "rulebook.png"))
    assert page.errors == []


def test_a_table_played_by_three_browsers_and_watched_by_a_fourth(
    browser: Any, site: str, tmp_path: Path
) -> None:
    ann = _new_page(browser, "en-GB", tee=True)
    bea = _new_page(browser, "de-DE", tee=True)
    cem = _new_page(browser, "pl-PL", tee=True, viewport=PHONE)  # on a phone
    link = _seat_three(site, ann, bea, cem)
    table_id = link.split("#table=")[1]
    # The languages: each page in its browser's language.
    players = [ann, bea, cem]
    for page in players:
        page.wait_for_selector(".hand button.card")
    assert bea.inner_text("h1") == "Bhabhi — der Tisch im Browser"
    assert cem.inner_text("h1") == "Bhabhi — stół w przeglądarce"
    assert "Deine Hand" in bea.inner_text(".hand h3")
    assert "Twoja ręka" in cem.inner_text(".hand h3")
    assert cem.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    spectator = _new_page(browser, "en-GB", tee=True)
    bodies: list[tuple[str, bytes]] = []

    def keep(response: Any) -> None:
        if "/bhabhi.referee.v1." in response.url:
            # A body that cannot be read (a stream cut off) is read by the fetch tee.
            with contextlib.suppress(Exception):
                bodies.append((response.url, response.body()))

    spectator.on("requestfinished", lambda request: keep(request.response()))
    spectator.goto(link)
    spectator.wait_for_selector(".seat .count")
    assert spectator.query_selector(".hand") is None
    assert "You are watching" in spectator.inner_text("main")
    assert len(spectator.query_selector_all(".seat .leads")) == 1  # the power, before a lead

    # A hand of three, kept for the checks below: a suit per card, coloured.
    colours = ann.eval_on_selector_all(
        ".hand .face .suit", "ss => ss.map(s => [s.textContent, getComputedStyle(s).color])"
    )
    for symbol, colour in colours:
        assert colour == ("rgb(200, 16, 46)" if symbol in "♥♦" else "rgb(0, 0, 0)"), symbol

    refused = reloaded = keyboard = False
    moves = 0
    while moves < MOVES:
        found = _wait_for_mover(players)
        if found is None:
            break  # the hand is over
        page, control, played = found
        if not refused:
            # Another player presses a card the page does not offer: refused in words.
            other = next(p for p in players if p is not page)
            pressed = other.eval_on_selector(
                ".hand button.card[disabled]",
                "c => { c.removeAttribute('disabled'); c.click(); return c.dataset.card; }",
            )
            assert pressed
            other.wait_for_function("() => document.getElementById('message').textContent !== ''")
            message = other.inner_text("#message")
            language = {ann: 1, bea: 2, cem: 3}[other]
            prefix = {1: "Refused: ", 2: "Abgelehnt: ", 3: "Odrzucono: "}[language]
            assert message.startswith(prefix), message
            words = message.removeprefix(prefix)
            mover = {ann: "Ann", bea: "Bea", cem: "Cem"}[page]
            if words.startswith(NOT_YOUR_TURN[language].partition("{")[0]):
                # not_your_turn: the page names the seat to play as it names it elsewhere
                assert words == NOT_YOUR_TURN[language].format(name=mover), message
            else:
                assert any(p.fullmatch(words) for p in _worded(language)), message
            other.screenshot(path=str(tmp_path / "refused.png"))
            refused = True
        if not reloaded and _trick_started(page):
            # A reload in the middle of a trick: the same seat, the same hand, still to move.
            hand = _hand(page)
            log = _log_lines(page)
            page.reload()
            page.wait_for_selector(".hand button.card")
            assert _hand(page) == hand
            assert "(" in page.inner_text(".seat.mine .name")
            assert _log_lines(page)[: len(log)] == log  # the log kept, no line twice
            reloaded = True
            continue
        before = _log_size(page)
        if moves == 0 and played:
            played = _play_by_keyboard(page)  # the first card by Tab and Enter
            keyboard = True
        else:
            page.click(control)
        page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=before)
        if played:
            assert page.query_selector(f'.hand [data-card="{played}"]') is None, played
        moves += 1
    assert refused and reloaded and keyboard and moves > 0
    ann.screenshot(path=str(tmp_path / "ann.png"), full_page=True)
    spectator.screenshot(path=str(tmp_path / "spectator.png"), full_page=True)

    # No page holds a card of another seat's hidden hand, nor the spectator's any: nothing
    # in its DOM, nothing in any API response it received (streams too).
    spectator.wait_for_timeout(500)
    known = spectator.eval_on_selector_all(
        ".seat",
        "seats => seats.map(s => Array.from(s.querySelectorAll('.known [data-card]'),"
        " c => c.dataset.card))",
    )
    hidden: dict[int, set[str]] = {}
    for page in players:
        mine = page.eval_on_selector(".seat.mine", "s => Number(s.dataset.seat)")
        hidden[mine] = set(_hand(page)) - set(known[mine])
        assert page.errors == [], mine
    assert all(hidden.values())
    for viewer in [*players, spectator]:
        mine = (
            -1
            if viewer is spectator
            else viewer.eval_on_selector(".seat.mine", "s => Number(s.dataset.seat)")
        )
        secret = set().union(*(cards for seat, cards in hidden.items() if seat != mine))
        dom = viewer.content()
        api = [e for e in viewer.evaluate("window.__fetched") if "/bhabhi.referee.v1." in e["url"]]
        assert any("WatchTable" in entry["url"] for entry in api)
        assert any("GetView" in entry["url"] for entry in api)
        for card in sorted(secret):
            assert f'data-card="{card}"' not in dom, (mine, card)
            for entry in api:
                assert f'"{card}"' not in entry["body"], (mine, card, entry["url"])
    for card in sorted(set().union(*hidden.values())):
        for url, body in bodies:
            assert f'"{card}"'.encode() not in body, (card, url)
    assert spectator.errors == []
    assert table_id in spectator.url


def test_the_language_is_chosen_by_hand_and_kept(browser: Any, site: str) -> None:
    page = _new_page(browser, "en-US")
    page.goto(site)
    page.wait_for_selector("#language")
    assert page.inner_text("main h2") == "Tables"
    page.select_option("#language", "pl")
    page.wait_for_function("() => document.querySelector('main h2').textContent === 'Stoły'")
    assert page.evaluate("document.documentElement.lang") == "pl"
    page.reload()
    page.wait_for_selector("main h2")
    assert page.inner_text("main h2") == "Stoły"
    page.select_option("#language", "de")
    page.wait_for_function("() => document.querySelector('main h2').textContent === 'Tische'")
    page.click(f'li[data-ruleset="{RULESET}"] a.rulebook')
    frame = page.wait_for_selector("iframe.rulebook")
    assert frame.get_attribute("lang") == "de"


def test_the_pages_reconnect_when_the_referee_restarts(browser: Any, tmp_path: Path) -> None:
    """The referee stops (its streams end UNAVAILABLE) and starts again on the same ports
    and store: every page says it is reconnecting, subscribes again from the last event it
    saw, and play goes on where it was. A page that opens the table while nobody answers
    waits, saying so, and shows it once the referee is back."""
    served = Served(
        "--port", str(_free_port()), "--web-port", str(_free_port()),
        "--db", str(tmp_path / "referee.sqlite3"),
    )  # fmt: skip
    try:
        site = served.start()
        players = [_new_page(browser, "en-GB") for _ in range(SEATS)]
        fragment = "#" + _seat_three(site, *players).split("#", 1)[1]
        for page in players:
            page.wait_for_selector(".hand button.card")
        found = _wait_for_mover(players)
        assert found is not None
        mover, control, _ = found
        watcher = next(p for p in players if p is not mover)
        before = _log_size(watcher)
        third = next(p for p in players if p is not mover and p is not watcher)
        served.stop()
        for page in players:
            page.wait_for_selector(".reconnecting")
        # One page leaves the table for the lobby and comes back while nobody answers.
        third.evaluate("location.hash = ''")
        third.wait_for_selector("#tables")
        third.evaluate(f"location.hash = {fragment!r}")
        third.wait_for_selector(".reconnecting")
        served.start()
        for page in players:
            page.wait_for_selector(".reconnecting", state="detached", timeout=30_000)
            page.wait_for_selector(".hand button.card")
        mover.click(control)
        watcher.wait_for_function(
            "n => document.querySelectorAll('#log li').length > n", arg=before
        )
        assert watcher.inner_text("#log li:last-child").startswith(
            mover.inner_text(".seat.mine .name").removesuffix(" (you)")
        )
        assert all(page.errors == [] for page in players)
    finally:
        served.stop()


SEE_PICKUPS = """(() => {
  window.__pickers = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (!(node instanceof Element)) continue;
        for (const seat of [node, ...node.querySelectorAll(".seat")]) {
          const name = seat.matches(".seat.picked") ? seat.querySelector(".name") : null;
          const shown = name ? name.textContent.split(" (")[0] : null;
          if (shown && window.__pickers[window.__pickers.length - 1] !== shown) {
            window.__pickers.push(shown);
          }
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
})()"""
"""A page that notes, in order, the name of each seat the board marks as having picked a
trick up (once for each mark: a redraw while it lasts marks the same seat again)."""

SMALL_DEAL = ["AS 2H 3H 9C", "KS 4H 5D 10C", "QS 6H 7D JC"]
"""Pick-up Bhabhi, three seats of four cards (a test deal): a hand of a few tricks."""


def test_a_whole_hand_to_its_end(browser: Any, tmp_path: Path) -> None:
    """On a test deal (a referee in test mode, the table made over Connect, a turn clock of
    a minute) three pages count the clock down and play by clicking until the hand is over:
    each page says who is the Bhabhi, the log says the session is over, and the lobby no
    longer lists the table."""
    served = Served("--port", "0", "--web-port", "0", "--db", ":memory:", "--test-mode")
    try:
        site = served.start()
        created = httpx.post(
            f"{site}bhabhi.referee.v1.TableService/CreateTable",
            json={
                "rulesetId": RULESET,
                "seatCount": SEATS,
                "hands": 1,
                "turnTime": "60s",
                "testDeal": [{"cards": cards.split()} for cards in SMALL_DEAL],
            },
            timeout=20,
        )
        assert created.status_code == 200, created.text
        link = f"{site}#table={created.json()['table']['tableId']}"
        players = [_new_page(browser, "en-GB") for _ in range(SEATS)]
        players[1].add_init_script(SEE_PICKUPS)
        for page, name in zip(players, ("Ann", "Bea", "Cem"), strict=True):
            page.goto(link)
            page.fill("#player-name", name)
            page.click("form.join button[type=submit]")
        players[0].click("#start")
        for page in players:
            page.wait_for_selector(".hand button.card")
        # Pick-up Bhabhi plays anticlockwise (C3), and the board says so.
        assert players[0].get_attribute(".centre .direction", "data-direction") == "2"
        assert "anticlockwise" in players[0].inner_text(".centre .direction")
        # The turn clock counts down on every page, from the referee's time left.
        clock = re.compile(r"[01]:\d\d")
        first = players[1].inner_text("#clock")
        assert clock.fullmatch(first), first
        players[1].wait_for_function(
            "first => document.getElementById('clock').textContent !== first", arg=first
        )
        assert players[1].inner_text("#clock") < first
        for _ in range(40):
            found = _wait_for_mover(players)
            if found is None:
                break
            page, control, _ = found
            before = _log_size(page)
            page.click(control)
            page.wait_for_function(
                "n => document.querySelectorAll('#log li').length > n", arg=before
            )
        else:
            raise AssertionError("the hand did not end in 40 moves")
        for page in players:
            page.wait_for_function(
                "() => document.getElementById('log').textContent.includes('The session is over.')"
            )
            assert "The hand is over." in page.inner_text("#turn")
            assert "is the Bhabhi" in page.inner_text("#turn")
            assert page.query_selector(".hand button.card.legal") is None
            assert page.errors == []
        # Whoever picked a trick up was marked on the board as it happened.
        picked_up = re.findall(r"(\w+) picked up ", players[1].inner_text("#log"))
        assert players[1].evaluate("window.__pickers") == picked_up
        players[0].screenshot(path=str(tmp_path / "over.png"), full_page=True)
        players[0].goto(site)
        players[0].wait_for_selector("#tables .empty, #tables table")
        row = f'tr[data-table="{link.split("=")[1]}"]'
        assert players[0].query_selector(f"#tables {row}") is None
        players[0].click(f"#finished {row} a")  # the finished table, and its hand's replay
        players[0].wait_for_selector("a.replay-link[data-hand='0']")
    finally:
        served.stop()


HAND_NOW = "() => Array.from(document.querySelectorAll('.hand button.card'), c => c.dataset.card)"
HAND_CHANGED = f"before => JSON.stringify(({HAND_NOW})()) !== JSON.stringify(before)"


def _click_until_moved(page: Any, control: str, tries: int = 5) -> None:
    """Click ``control`` until the seat's hand changes (a card played, a trick picked up:
    every move of a seat changes its hand). With bots that move at once the seat's turn
    can come back before the answer to its last move has: a click then is ignored (one
    move at a time), and is made again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    before = page.evaluate(HAND_NOW)
    for _ in range(tries):
        page.click(control)
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(HAND_CHANGED, arg=before, timeout=3000)
            return
    raise AssertionError(f"{control}: the hand did not change after {tries} clicks")


def test_a_person_plays_a_whole_hand_against_the_referee_s_bots(
    browser: Any, site: str, tmp_path: Path
) -> None:
    """From the lobby, in German: a table of bhabho for three whose other two seats are the
    referee's heuristic bots (the form's default), with no pause before their moves; the
    bots are named in the page's language, and the person plays by clicking until the hand
    is over."""
    page = _new_page(browser, "de-DE")
    page.goto(site)
    page.wait_for_selector("form.create")
    page.select_option("#new-ruleset", "bhabho")
    page.select_option("#new-seats", "3")
    assert [page.input_value(f'select[data-seat="{seat}"]') for seat in range(3)] == [
        str(PERSON),
        str(HEURISTIC),
        str(HEURISTIC),
    ]
    page.fill("#new-hands", "1")
    page.fill("#new-bot-delay", "0")
    page.click("form.create button[type=submit]")
    page.fill("#player-name", "Asha")
    page.click("form.join button[type=submit]")
    page.click("#start")
    page.wait_for_selector(".hand button.card")
    names = page.eval_on_selector_all(".seat .name", "names => names.map(n => n.textContent)")
    assert sum("Faustregel-Bot" in name for name in names) == 2, names
    numbers = page.eval_on_selector_all(".seat .number", "ns => ns.map(n => n.textContent)")
    assert numbers == ["Platz 1", "Platz 2", "Platz 3"], numbers  # two of one kind told apart
    for _ in range(60):
        found = _wait_for_mover([page], chances=False)
        if found is None:
            break
        _, control, _ = found
        _click_until_moved(page, control)
    else:
        raise AssertionError("the hand did not end in 60 moves of the person")
    page.wait_for_selector("#turn[data-over]")
    assert "Die Hand ist vorbei." in page.inner_text("#turn"), page.inner_text("#turn")
    body = page.inner_text("body")
    assert "Heuristic" not in body and "Seat " not in body, body  # every name in German
    # Another language words the same log anew.
    lines = _log_lines(page)
    page.select_option("#language", "en")
    page.wait_for_selector("#turn[data-over]")
    english = _log_lines(page)
    assert len(english) == len(lines) and english[-1] != lines[-1], (lines, english)
    assert "The hand is over." in page.inner_text("#turn")
    assert any(line.endswith("is the Bhabhi.") for line in english), english
    assert page.errors == []
    page.screenshot(path=str(tmp_path / "bots.png"), full_page=True)


def test_a_credential_the_referee_refuses_is_forgotten(browser: Any, site: str) -> None:
    """A tab whose kept credential the referee refuses (bad_credential) forgets it and
    watches the table as a spectator: no hand, the spectator's line, nothing kept."""

    created = _call(
        site,
        "TableService/CreateTable",
        {
            "rulesetId": "bhabho",
            "seatCount": 3,
            "bots": [
                {"seat": 1, "strategy": "BOT_STRATEGY_HEURISTIC"},
                {"seat": 2, "strategy": "BOT_STRATEGY_HEURISTIC"},
            ],
        },
    )
    table_id = created["table"]["tableId"]
    joined = _call(site, "TableService/JoinTable", {"tableId": table_id, "playerName": "Asha"})
    _call(site, "TableService/StartTable", {"tableId": table_id}, joined["seatToken"])
    page = _new_page(browser, "en-GB")
    kept = f"bhabhi.seat.{table_id}"
    planted = json.dumps({"seat": 0, "token": "not-a-credential"})
    # Planted once (the script runs at every load): a credential this tab did not get.
    page.add_init_script(
        "if (!sessionStorage.getItem('planted')) {"
        " sessionStorage.setItem('planted', '1');"
        f" sessionStorage.setItem({json.dumps(kept)}, {json.dumps(planted)}); }}"
    )
    page.goto(f"{site}#table={table_id}")
    page.wait_for_selector(".spectator")
    assert page.query_selector(".hand") is None
    assert page.evaluate(f"sessionStorage.getItem({kept!r})") is None
    assert page.errors == []


CASES = Path(__file__).resolve().parent.parent / "conformance" / "cases" / "house-rules"


def _move(site: str, table_id: str, token: str, action: dict[str, Any]) -> None:
    """A seat's move over the API, decided on the latest view."""
    seq = _call(site, "PlayService/GetView", {"tableId": table_id}, token)["seq"]
    body = {"tableId": table_id, "action": action, "requestId": uuid.uuid4().hex}
    _call(site, "PlayService/SubmitAction", {**body, "expectedSeq": seq}, token)


def _play(card: str) -> dict[str, Any]:
    return {"kind": "ACTION_KIND_PLAY", "card": card}


NAMES = ("Ann", "Bea", "Cem", "Dee")


@contextlib.contextmanager
def _house_table(browser: Any, case_path: Path, seat: int) -> Iterator[tuple[Any, Any]]:
    """A table of a case's house variant (registered over the API) on its test deal, started:
    the browser's page holds ``seat``, the API the others (named Ann, Bea, … by seat). Yields
    the page and a function making a seat's move over the API."""
    case = yaml.safe_load(case_path.read_text(encoding="utf-8"))
    served = Served(
        "--port", "0", "--web-port", "0", "--db", ":memory:", "--test-mode", "--allow-register",
    )  # fmt: skip
    try:
        site = served.start()
        variant = yaml.safe_dump(case["ruleset"]["inline"], sort_keys=False)
        _call(site, "RulesetService/RegisterRuleset", {"yaml": variant})
        created = _call(
            site,
            "TableService/CreateTable",
            {
                "rulesetId": case["ruleset"]["id"],
                "seatCount": case["players"],
                "hands": 1,
                "testDeal": [{"cards": cards.split()} for cards in case["deal"]],
                "testDealer": case["dealer"],
            },
        )
        table_id = created["table"]["tableId"]
        join = {"tableId": table_id}
        tokens: dict[int, str] = {}
        page = _new_page(browser, "en-GB")
        for at in range(case["players"]):  # seats are given in the order of joining
            if at == seat:
                page.goto(f"{site}#table={table_id}")
                page.fill("#player-name", NAMES[at])
                page.click("form.join button[type=submit]")
                page.wait_for_selector("#leave")
            else:
                joined = _call(site, "TableService/JoinTable", {**join, "playerName": NAMES[at]})
                tokens[at] = joined["seatToken"]
        _call(site, "TableService/StartTable", join, next(iter(tokens.values())))
        page.wait_for_selector(".hand button.card")

        def move(at: int, action: dict[str, Any]) -> None:
            _move(site, table_id, tokens[at], action)

        yield page, move
    finally:
        served.stop()


def _click_card(page: Any, card: str) -> None:
    page.click(f'.hand button.card[data-card="{card}"]:not([disabled])')
    page.wait_for_selector(f'.hand button.card[data-card="{card}"]', state="detached")


def _logged(page: Any, line: str) -> None:
    page.wait_for_function(
        "line => [...document.querySelectorAll('#log li')].some(l => l.textContent === line)",
        arg=line,
    )


def test_a_take_asked_for_is_answered_by_buttons(browser: Any) -> None:
    """H20 (h20-consent-refuse's variant and deal): the page of the seat whose hand is asked
    for offers the answer as two buttons and no card, the log says who asked and who
    refused, and after the refusal the seat may ask itself."""
    with _house_table(browser, CASES / "taking" / "h20-consent-refuse.yaml", 2) as (page, move):
        move(0, _play("AS"))
        move(1, _play("2S"))
        _click_card(page, "3S")
        move(3, _play("4S"))
        move(1, {"kind": "ACTION_KIND_TAKE_HAND"})
        page.wait_for_selector("button.action >> text=Keep my hand")
        labels = page.eval_on_selector_all("button.action", "bs => bs.map(b => b.textContent)")
        assert sorted(labels) == ["Keep my hand", "Let it be taken"], labels
        assert page.query_selector(".hand button.card.legal") is None  # an answer first
        _logged(page, "Bea asks to take Cem's hand.")
        page.click("button.action >> text=Keep my hand")
        _logged(page, "Cem keeps the hand: Bea may not take it.")
        page.wait_for_selector("button.action >> text=Take a hand")
        assert page.errors == []


def test_a_false_tochoo_is_challenged_by_a_button(browser: Any) -> None:
    """H25 (h25-right-challenge-pickup-and-lead's variant and deal): the seat that picked up
    a tochoo gets a button to challenge it; the challenge is right, the log says so, and the
    offender is seen picking the trick's two cards up."""
    case = CASES / "penalties" / "h25-right-challenge-pickup-and-lead.yaml"
    with _house_table(browser, case, 0) as (page, move):
        _click_card(page, "AS")
        move(1, _play("2S"))
        move(2, _play("3S"))
        _click_card(page, "5H")
        move(1, _play("9C"))
        page.click("button.action >> text=Challenge the tochoo")
        _logged(page, "Ann challenged the tochoo and was right: Bea held the led suit.")
        _logged(page, "Bea picked up 5♥ 9♣.")  # the trick, seen by all
        page.wait_for_selector('.seat[data-seat="1"] .known [data-card="9C"]')
        assert page.query_selector("button.action >> text=Challenge the tochoo") is None
        assert page.errors == []


GERMAN_WARNINGS = {
    "no-hand-ended": "Keine Hand endete nach den Regeln.",
    "most-hands-never-end": "Die meisten Hände enden nie nach den Regeln.",
    "no-bhabhi": "Die meisten Hände haben keine Bhabhi.",
    "decided-by-deal": "Das Geben entscheidet die meisten Hände",
    "unfair-seat": "Ein Platz verliert viel öfter als sein fairer Anteil.",
}
"""The page's German headlines of the analysis's warnings (web/src/strings.ts), in part."""


def test_a_ruleset_s_analysis_is_shown(browser: Any, site: str) -> None:
    """The lobby links each ruleset's analysis; the page shows AnalyzeRuleset's answer for
    every player count (how the hands ended, a row a seat with its Bhabhi rate and
    interval, the test of equal chances, the warnings with their clauses), in English and
    in German, and its form asks for another analysis by the address."""
    page = _new_page(browser, "en-GB")
    page.goto(site)
    assert page.get_attribute("li[data-ruleset=bhabho] a.analysis", "href") == "#analysis=bhabho"
    request = {"rulesetId": "bhabho", "hands": 20, "noSkill": True}
    answer = _call(site, "RulesetService/AnalyzeRuleset", request)
    page.click("li[data-ruleset=bhabho] a.analysis")  # the form, nothing asked for yet
    page.wait_for_selector("form.analyse")
    assert page.query_selector("#analysis[data-done], #analysis .pending") is None
    assert "from a few seconds to a minute" in page.inner_text("#analysis")
    page.goto(f"{site}#analysis=bhabho&hands=20&skill=0")
    page.wait_for_selector("#analysis[data-done]", timeout=120_000)
    sections = page.query_selector_all("section.playercount")
    assert [s.get_attribute("data-players") for s in sections] == [
        str(count["players"]) for count in answer["playerCounts"]
    ]
    for section, count in zip(sections, answer["playerCounts"], strict=True):
        rows = section.query_selector_all("table.seatrates tbody tr")
        assert len(rows) == count["players"]
        for row, seat in zip(rows, count["seats"], strict=True):
            rate = f"{round(seat.get('bhabhiRate', 0) * 100, 1):g}%"
            assert row.query_selector_all("td")[1].inner_text() == rate, (rate, count["players"])
        ended = section.query_selector("ul.ended").inner_text()
        assert ended.startswith("Ended by the rules: "), ended
        fairness = section.query_selector("p[data-fair]").inner_text()
        assert "chi-square test of equal chances: p = " in fairness
        codes = [w.get_attribute("data-code") for w in section.query_selector_all("li[data-code]")]
        assert codes == [warning["code"] for warning in count.get("warnings", [])]
    assert page.query_selector("form.analyse") is not None
    page.fill("#analysis-hands", "30")
    page.click("form.analyse button[type=submit]")
    page.wait_for_function("() => location.hash === '#analysis=bhabho&hands=30&skill=0'")
    page.wait_for_selector("#analysis[data-done]", timeout=120_000)
    assert "30 hands for each player count" in page.inner_text("#analysis")
    assert page.errors == []

    german = _new_page(browser, "de-DE")
    answer = _call(site, "RulesetService/AnalyzeRuleset", {**request, "rulesetId": "pickup"})
    german.goto(f"{site}#analysis=pickup&hands=20&skill=0")
    german.wait_for_selector("#analysis[data-done]", timeout=120_000)
    assert german.inner_text("section.playercount ul.ended").startswith("Nach den Regeln beendet")
    shown = german.query_selector_all("li[data-code]")
    expected = [w["code"] for count in answer["playerCounts"] for w in count.get("warnings", [])]
    assert [w.get_attribute("data-code") for w in shown] == expected
    for item in shown:
        code = item.get_attribute("data-code")
        if code in GERMAN_WARNINGS:
            assert GERMAN_WARNINGS[code] in item.inner_text(), item.inner_text()
    assert german.errors == []
    german.goto(f"{site}#analysis=nope&hands=5")  # no such ruleset: nothing to ask for again
    german.wait_for_selector(".message[role=alert]")
    assert german.query_selector("form.analyse") is None
