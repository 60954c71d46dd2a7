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
with the page's own SHA-256. The export is held to what the table's events published (the
commitment at the deal, the seed at the end) and to the table's ruleset and direction: a
deal forged whole, consistent in itself, fails. The house rules' decisions are told in
words, and a penalty pickup (H26) takes its cards from the hand that held them.
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
from test_web_browser import _call, _new_page, browser, site  # noqa: F401  (fixtures)

from referee.cards import parse_card
from referee.conformance.runner import case_ruleset
from referee.engine.hand import Hand
from referee.engine.record import export_hand
from referee.engine.types import Action

CASES = Path(__file__).resolve().parent.parent / "conformance" / "cases"
EXPORT = "**/bhabhi.referee.v1.PlayService/ExportHand"
WATCH = "**/bhabhi.referee.v1.PlayService/WatchTable"
GET_TABLE = "**/bhabhi.referee.v1.TableService/GetTable"


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


def _open_replay(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    table_id: str,
    locale: str = "en-GB",
    *,
    change: Any = None,
    alone: bool = False,
) -> Any:
    """The replay of the table's first hand, once its fair-deal check is done; ``change``
    alters the export on its way (``_tampered``), ``alone`` keeps the table from the page
    (``_alone``)."""
    page = _new_page(browser, locale)
    if change is not None:
        _tampered(page, change)
    if alone:
        _alone(page)
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
    assert page.inner_text("#published") == case["fair_deal"]["commitment"]
    assert page.inner_text("#seed") == case["fair_deal"]["seed"]
    dealt = {"clockwise": "dealt clockwise", "counterclockwise": "dealt anticlockwise"}
    who = f"{dealt[case['fair_deal']['direction']]} by {_name(case['dealer'])}"
    assert who in page.inner_text("#fair-line")
    assert page.query_selector("#unpublished") is None
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


def _alone(page: Any) -> None:
    """Neither the table nor its events reach the page (GetTable, WatchTable): an export made
    up for another ruleset, direction or deal is checked on its own."""
    page.route(WATCH, lambda route: route.abort())
    page.route(GET_TABLE, lambda route: route.abort())


def _swap_a_card(case: dict[str, Any]) -> None:
    zero, one = case["deal"][0].split(), case["deal"][1].split()
    zero[0], one[0] = one[0], zero[0]
    case["deal"][0], case["deal"][1] = " ".join(zero), " ".join(one)


def _turn_the_direction(case: dict[str, Any]) -> None:
    fair = case["fair_deal"]
    fair["direction"] = "counterclockwise" if fair["direction"] == "clockwise" else "clockwise"


def _change_the_ruleset(case: dict[str, Any]) -> None:
    case["ruleset"]["hash"] = "sha256:" + "0" * 64


def _change_the_seed(case: dict[str, Any]) -> None:
    seed = case["fair_deal"]["seed"]
    case["fair_deal"]["seed"] = case["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (_change_the_seed, "the seed revealed at the end of the hand was"),
        (_swap_a_card, "Asha is recorded with"),
        (_turn_the_direction, "the export's fair_deal.direction is"),
        (_change_the_ruleset, "the export's ruleset.hash is sha256:000"),
    ],
)
def test_a_tampered_export_fails_the_check(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
    change: Any,
    says: str,
) -> None:
    page = _open_replay(browser, site, finished["table_id"], change=change)
    assert page.get_attribute("#fairdeal", "data-fair") == "failed"
    line = page.inner_text("#fair-line")
    assert line.startswith("Check failed:") and says in line, line
    assert page.errors == []


def _forge_the_deal(case: dict[str, Any]) -> None:
    """Another deal with a seed and commitment of its own: consistent in itself, but not
    the deal the table committed to."""
    fair = case["fair_deal"]
    seed = "forged"
    deck = [Card.parse(text) for text in fair["deck"]]
    hands = deal(deck, seed, fair["players"], fair["dealer"], fair["direction"])
    case["deal"] = [" ".join(str(card) for card in cards) for cards in hands]
    case["steps"] = []
    case["seed"] = fair["seed"] = seed
    fair["commitment"] = seed_commitment(seed)


def test_a_deal_forged_whole_fails_against_the_published_commitment(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """An export whose seed, commitment and deal agree with each other but not with the
    commitment the table published at the deal fails; with no event stream to compare it
    with, the same export verifies, and the page says it was checked on its own."""
    page = _open_replay(browser, site, finished["table_id"], change=_forge_the_deal)
    assert page.get_attribute("#fairdeal", "data-fair") == "failed"
    line = page.inner_text("#fair-line")
    assert line.startswith("Check failed: the commitment published at the deal was "), line
    assert finished["case"]["fair_deal"]["commitment"] in line
    page.context.close()
    page = _open_replay(browser, site, finished["table_id"], change=_forge_the_deal, alone=True)
    assert page.get_attribute("#fairdeal", "data-fair") == "verified"
    assert page.query_selector("#unpublished") is not None
    assert page.query_selector("#published") is None
    assert page.errors == []


def _house_rule_steps(case: dict[str, Any]) -> None:
    """Steps of the house rules' decisions (H20 a take asked for and refused, H22 a take
    pass, H25 a right and a wrong challenge), each an event the engine writes."""
    case["steps"] = [
        {
            "seat": 1,
            "action": "take 0",
            "events": [{"kind": "take_requested", "taker": 1, "seat": 0}],
        },
        {
            "seat": 0,
            "action": "refuse",
            "events": [{"kind": "take_answered", "seat": 0, "taker": 1, "agreed": False}],
        },
        {"seat": 2, "action": "pass", "events": [{"kind": "take_passed", "seat": 2, "trick": 0}]},
        {
            "seat": 2,
            "action": "challenge",
            "events": [
                {
                    "kind": "tochoo_challenged",
                    "challenger": 2,
                    "trick": 0,
                    "right": True,
                    "offender": 0,
                    "penalty": "pickup_and_lead",
                }
            ],
        },
        {
            "seat": 1,
            "action": "challenge",
            "events": [
                {
                    "kind": "tochoo_challenged",
                    "challenger": 1,
                    "trick": 1,
                    "right": False,
                    "offender": None,
                    "penalty": "",
                }
            ],
        },
    ]


def test_the_house_rules_decisions_are_told_in_words(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """A take asked for and refused, a take pass and two challenges each get their own line,
    naming the seats as the table does."""
    page = _open_replay(browser, site, finished["table_id"], change=_house_rule_steps)
    lines = []
    for _ in range(5):
        page.click("#step-next")
        lines.append(page.inner_text("#step-line"))
    bot_2, bot_3 = _name(1), _name(2)
    assert lines == [
        f"{bot_2} asks to take Asha's hand.",
        f"Asha keeps the hand: {bot_2} may not take it.",
        f"{bot_3} takes no hand.",
        f"{bot_3} challenged the tochoo and was right: Asha held the led suit.",
        f"{bot_2} challenged the tochoo and was wrong.",
    ]
    assert page.errors == []


H26 = CASES / "house-rules" / "penalties" / "h26-after-a-tochoo.yaml"


def _h26_export() -> str:
    """The H26 case played by the engine and exported as the referee exports a hand (every
    step's events): a penalty pickup moves two cards from the hand that picked them up."""
    case = yaml.safe_load(H26.read_text(encoding="utf-8"))
    hand = Hand(
        case_ruleset(case),
        case["players"],
        deal=[[parse_card(text) for text in cards.split()] for cards in case["deal"]],
        dealer=case["dealer"],
    )
    for step in case["steps"]:
        if "refused" in step:
            break
        hand.apply(step["seat"], Action.parse(step["action"]))
    return yaml.safe_dump(export_hand(hand, name=case["name"]), sort_keys=False)


def test_a_penalty_pickup_moves_the_cards_from_the_hand_that_held_them(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    """H26: seat 0 picks up a tochoo's trick, then seat 2 plays out of turn and picks the
    same two cards up as a penalty: they leave seat 0's hand (each card in one hand only)."""
    exported = _h26_export()

    def handle(route: Any) -> None:
        route.fulfill(json={"caseYaml": exported})

    page = _new_page(browser, "en-GB")
    page.route(EXPORT, handle)
    _alone(page)
    page.goto(f"{site}#replay={finished['table_id']}:0")
    page.wait_for_selector("#fairdeal:not([data-fair=pending])")
    for _ in range(6):
        page.click("#step-next")
    hands = [sorted(cards) for cards in _seat_cards(page, ".replay-seat")]
    assert hands == [["4C", "KD"], ["10C", "QC"], ["4H", "5H", "7D", "8D", "9C"]]
    assert page.errors == []


def test_a_hand_without_a_seed_cannot_be_checked(
    browser: Any,  # noqa: F811
    site: str,  # noqa: F811
    finished: dict[str, Any],
) -> None:
    def drop(case: dict[str, Any]) -> None:
        del case["fair_deal"]
        del case["seed"]

    page = _open_replay(browser, site, finished["table_id"], change=drop)
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

        page = _open_replay(browser, site, finished["table_id"], change=made_up, alone=True)
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

        page = _open_replay(browser, site, finished["table_id"], change=made_up, alone=True)
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
    """The table played one hand: its second cannot be replayed, and the page says why,
    counting hands as its titles do (from 1, where the address counts from 0)."""
    page = _new_page(browser, "en-GB")
    page.goto(f"{site}#replay={finished['table_id']}:1")
    page.wait_for_selector(".message[role=alert]")
    assert page.inner_text(".message") == "Failed: Hand 2 has not been played at this table."
    assert page.query_selector("#fairdeal") is None
    # An address that names no page (no hand number) is said so, atop the lobby.
    page.goto(f"{site}#replay={finished['table_id']}:abc")
    page.wait_for_selector("#unknown-address")
    assert "names no page of the web table" in page.inner_text("#unknown-address")
    page.goto(site)
    page.wait_for_selector("#tables")
    assert page.query_selector("#unknown-address") is None
