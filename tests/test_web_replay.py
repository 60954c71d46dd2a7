"""The web table's replay of a finished hand (``#replay=TABLE_ID:HAND``), in a real browser,
with the same skip rule as ``test_web_browser.py`` (whose fixtures it uses).

A hand of bhabho for three is played to its end over Connect JSON on a referee that deals
from its own seeds (not test mode): seat 0 plays its first legal action, seats 1 and 2 are
the referee's heuristic bots. Then the table's page links to the replay, which checks the
deal in the browser (the seed against the commitment, the deal the seed gives against the
recorded one), shows the deal at the first step and the export's Bhabhi at the last, in
English, German and Polish; an export altered on its way to the page (the seed, a card of
the deal) fails the check, a test deal's cannot be checked, a hand not over is refused in
words, and the page's shuffle deals what the Python client's deals for a few seeds and what
docs/shuffle-vectors.json gives, with WebCrypto and (a page that is not a secure context)
with the page's own SHA-256.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from bhabhi_client.cards import Card
from bhabhi_client.fairdeal import deal, seed_commitment
from test_web_browser import _new_page, browser, site  # noqa: F401  (fixtures)

EXPORT = "**/bhabhi.referee.v1.PlayService/ExportHand"


def _call(address: str, method: str, body: dict[str, Any], token: str = "") -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = httpx.post(
        f"{address}bhabhi.referee.v1.{method}", json=body, headers=headers, timeout=20
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


@pytest.fixture(scope="module")
def finished(site: str) -> Iterator[dict[str, Any]]:  # noqa: F811
    """A hand of bhabho played to its end against two bots: its table id and its export."""
    created = _call(
        site,
        "TableService/CreateTable",
        {
            "rulesetId": "bhabho",
            "seatCount": 3,
            "hands": 1,
            "bots": [
                {"seat": 1, "strategy": "BOT_STRATEGY_HEURISTIC"},
                {"seat": 2, "strategy": "BOT_STRATEGY_HEURISTIC"},
            ],
            "botDelay": "0s",
        },
    )
    table_id = created["table"]["tableId"]
    token = _call(site, "TableService/JoinTable", {"tableId": table_id, "playerName": "Asha"})[
        "seatToken"
    ]
    _call(site, "TableService/StartTable", {"tableId": table_id}, token)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        got = _call(site, "PlayService/GetView", {"tableId": table_id}, token)
        view = got["view"]
        if view.get("result"):
            break
        if view.get("turn", 0) == 0 and view.get("legalActions"):
            httpx.post(  # refused when a bot moved first (stale_seq): the view is asked again
                f"{site}bhabhi.referee.v1.PlayService/SubmitAction",
                json={
                    "tableId": table_id,
                    "action": view["legalActions"][0],
                    "requestId": uuid.uuid4().hex,
                    "expectedSeq": got["seq"],
                },
                headers={"authorization": f"Bearer {token}"},
                timeout=20,
            )
        else:
            time.sleep(0.02)
    else:
        raise AssertionError("the hand did not end in a minute")
    case_yaml = _call(site, "PlayService/ExportHand", {"tableId": table_id, "handNumber": 0})[
        "caseYaml"
    ]
    yield {"table_id": table_id, "yaml": case_yaml, "case": yaml.safe_load(case_yaml)}


def _seat_cards(page: Any, selector: str) -> list[list[str]]:
    cards: list[str] = page.eval_on_selector_all(
        selector, "seats => seats.map(s => s.dataset.cards)"
    )
    return [entry.split() for entry in cards]


def _open_replay(browser: Any, site: str, table_id: str, locale: str) -> Any:  # noqa: F811
    page = _new_page(browser, locale)
    page.goto(f"{site}#replay={table_id}:0")
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    return page


def _name(seat: int) -> str:
    """A seat as the replay names it: the two bots' shared name with the seat's number."""
    return "Asha" if seat == 0 else f"Heuristic bot (Seat {seat + 1})"


def test_the_replay_checks_the_deal_and_steps_to_the_bhabhi(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """The table's page links to the replay; the deal is verified in the browser, the first
    step shows the deal's cards, the arrow keys and buttons step, and the last step names
    the export's Bhabhi."""
    case = finished["case"]
    page = _new_page(browser, "en-GB")
    page.goto(f"{site}#table={finished['table_id']}")
    assert page.inner_text("a.replay-link[data-hand='0']") == "Replay this hand"
    page.click("a.replay-link[data-hand='0']")
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    assert page.get_attribute("#fairdeal", "data-fair") == "verified"
    assert page.inner_text("#fair-line").startswith("Verified:")
    assert page.inner_text("#commitment") == case["fair_deal"]["commitment"]
    assert page.inner_text("#seed") == case["fair_deal"]["seed"]
    assert page.get_attribute("#step-number", "data-index") == "0"
    assert _seat_cards(page, ".replay-seat") == [hand.split() for hand in case["deal"]]
    page.keyboard.press("ArrowRight")
    first = case["steps"][0]
    assert page.get_attribute("#step-number", "data-index") == "1"
    if first["events"][0]["kind"] == "card_played":
        rank = first["action"][:-1]
        assert page.inner_text("#step-line").startswith(f"{_name(first['seat'])} played {rank}")
        assert page.query_selector(f"#trick li[data-seat='{first['seat']}']") is not None
    page.click("#step-last")
    steps = len(case["steps"])
    assert page.get_attribute("#step-number", "data-index") == str(steps)
    bhabhi = case["result"]["bhabhi"]
    assert page.get_attribute(".replay-seat.bhabhi", "data-seat") == str(bhabhi)
    assert f"{_name(bhabhi)} is the Bhabhi." in page.inner_text("#step-line")
    page.keyboard.press("Home")
    assert page.get_attribute("#step-number", "data-index") == "0"
    page.click("#step-next")
    page.click("#step-previous")
    assert page.get_attribute("#step-number", "data-index") == "0"
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#step-number", "data-index") == str(steps - 1)
    assert page.errors == []


@pytest.mark.parametrize(
    ("locale", "verified", "bhabhi"),
    [("de-DE", "Bestätigt:", "ist die Bhabhi."), ("pl-PL", "Potwierdzone:", "zostaje Bhabhi.")],
)
def test_the_replay_speaks_german_and_polish(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
    locale: str,
    verified: str,
    bhabhi: str,
) -> None:
    page = _open_replay(browser, site, finished["table_id"], locale)
    assert page.inner_text("#fair-line").startswith(verified)
    page.click("#step-last")
    assert bhabhi in page.inner_text("#step-line")
    assert page.errors == []


def _tampered(page: Any, change: Any) -> None:
    """ExportHand's answer, changed by ``change`` (the case as a mapping) on its way."""

    def handle(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        case = yaml.safe_load(body["caseYaml"])
        change(case)
        body["caseYaml"] = yaml.safe_dump(case, sort_keys=False)
        route.fulfill(response=answer, body=json.dumps(body))

    page.route(EXPORT, handle)


def _swap_a_card(case: dict[str, Any]) -> None:
    zero, one = case["deal"][0].split(), case["deal"][1].split()
    zero[0], one[0] = one[0], zero[0]
    case["deal"][0], case["deal"][1] = " ".join(zero), " ".join(one)


def _change_the_seed(case: dict[str, Any]) -> None:
    seed = case["fair_deal"]["seed"]
    case["fair_deal"]["seed"] = case["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]


@pytest.mark.parametrize(
    ("change", "says"),
    [(_change_the_seed, "the seed hashes to sha256:"), (_swap_a_card, "Asha is recorded with")],
)
def test_a_tampered_export_fails_the_check(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
    change: Any,
    says: str,
) -> None:
    page = _new_page(browser, "en-GB")
    _tampered(page, change)
    page.goto(f"{site}#replay={finished['table_id']}:0")
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    assert page.get_attribute("#fairdeal", "data-fair") == "failed"
    line = page.inner_text("#fair-line")
    assert line.startswith("Check failed:") and says in line, line
    assert page.errors == []


def test_a_hand_without_a_seed_cannot_be_checked(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    def drop(case: dict[str, Any]) -> None:
        del case["fair_deal"]
        del case["seed"]

    page = _new_page(browser, "en-GB")
    _tampered(page, drop)
    page.goto(f"{site}#replay={finished['table_id']}:0")
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    assert page.get_attribute("#fairdeal", "data-fair") == "unchecked"
    assert "cannot be checked" in page.inner_text("#fair-line")
    assert page.errors == []


SEEDS = [
    ("0", 4, 0, "clockwise"),
    ("42:3", 3, 2, "counterclockwise"),
    ("e47f22442881b3df83817c819839d5fa938fc1f63c080f3fb2092123d6ef4f53", 5, 1, "clockwise"),
]


def test_the_page_s_shuffle_deals_what_the_python_client_deals(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """For a few seeds, seat counts, dealers and directions, an export made up from the
    Python client's deal: the page verifies it and re-derives every seat's cards in the
    order Python deals them."""
    deck_texts = finished["case"]["fair_deal"]["deck"]
    deck = [Card.parse(text) for text in deck_texts]
    for seed, players, dealer, direction in SEEDS:
        hands = [
            [str(card) for card in cards] for cards in deal(deck, seed, players, dealer, direction)
        ]

        def made_up(
            case: dict[str, Any],
            seed: str = seed,
            players: int = players,
            dealer: int = dealer,
            direction: str = direction,
            hands: list[list[str]] = hands,
        ) -> None:
            case.update(players=players, dealer=dealer, seed=seed, steps=[])
            case["deal"] = [" ".join(cards) for cards in hands]
            case["fair_deal"].update(
                seed=seed,
                commitment=seed_commitment(seed),
                players=players,
                dealer=dealer,
                direction=direction,
            )

        page = _new_page(browser, "en-GB")
        _tampered(page, made_up)
        page.goto(f"{site}#replay={finished['table_id']}:0")
        page.wait_for_selector("#fairdeal:not([data-fair=pending])")
        assert page.get_attribute("#fairdeal", "data-fair") == "verified", page.inner_text(
            "#fair-line"
        )
        assert _seat_cards(page, "#derived li") == hands, seed
        assert page.errors == []
        page.context.close()


NO_WEB_CRYPTO = "Object.defineProperty(window.crypto, 'subtle', { value: undefined });"
"""A page as a browser opens it from a plain-HTTP address of another host: no crypto.subtle
(WebCrypto is only for secure contexts)."""


def test_without_web_crypto_the_page_hashes_the_seed_itself(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """The page's own SHA-256 (sha256.ts) gives the commitment and the deal as WebCrypto
    does: the same hand is verified, and a changed seed still fails."""
    page = _new_page(browser, "en-GB")
    page.add_init_script(NO_WEB_CRYPTO)
    page.goto(f"{site}#replay={finished['table_id']}:0")
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    assert page.evaluate("window.crypto.subtle") is None
    assert page.get_attribute("#fairdeal", "data-fair") == "verified"
    assert _seat_cards(page, "#derived li") == [hand.split() for hand in finished["case"]["deal"]]
    _tampered(page, _change_the_seed)
    page.reload()
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    assert page.get_attribute("#fairdeal", "data-fair") == "failed"
    assert page.errors == []


VECTORS = Path(__file__).resolve().parent.parent / "docs" / "shuffle-vectors.json"


def test_the_page_deals_the_published_vectors(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """docs/shuffle-vectors.json's ``fair_deals`` (bhabho, pickup with a seat of 18 cards,
    get-away, two packs of 104 cards), each as an export: the page hashes each seed to its
    commitment and deals every seat the hand the vectors give."""
    for vector in json.loads(VECTORS.read_text(encoding="utf-8"))["fair_deals"]:

        def made_up(case: dict[str, Any], vector: dict[str, Any] = vector) -> None:
            case.update(
                players=vector["players"], dealer=vector["dealer"], seed=vector["seed"], steps=[]
            )
            case["deal"] = [" ".join(cards) for cards in vector["hands"]]
            case["fair_deal"] = {
                key: vector[key]
                for key in ("seed", "commitment", "players", "dealer", "direction", "deck")
            }

        page = _new_page(browser, "en-GB")
        _tampered(page, made_up)
        page.goto(f"{site}#replay={finished['table_id']}:0")
        page.wait_for_selector("#fairdeal:not([data-fair=pending])")
        assert page.get_attribute("#fairdeal", "data-fair") == "verified", vector["ruleset"]
        assert page.inner_text("#commitment") == vector["commitment"]
        assert _seat_cards(page, "#derived li") == vector["hands"], vector["ruleset"]
        assert page.errors == []
        page.context.close()


def test_a_hand_not_over_is_refused_in_words(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """The table played one hand: its second cannot be replayed, and the page says why."""
    page = _new_page(browser, "en-GB")
    page.goto(f"{site}#replay={finished['table_id']}:1")
    page.wait_for_selector(".message[role=alert]")
    assert page.inner_text(".message").startswith("Failed:")
    assert page.query_selector("#fairdeal") is None
