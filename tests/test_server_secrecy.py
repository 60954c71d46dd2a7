"""No seat learns another seat's hidden cards, and nobody learns the seed before the hand
is over, over whole games played through the gRPC API.

Every message each seat and a spectator receives is collected: SubmitAction events,
GetView views, WatchTable events (HandStarted with ``your_cards`` among them).  After the
session, each hand is replayed on the engine from the case the referee exports, lined up
with the table's seqs, and every message is checked against the engine's true state at
the moment it reflects:

* it names no card that another seat holds, was never face up, and the viewer never held;
* a view holds exactly the viewer's own cards, legal actions, sizes and face-up knowledge;
* the private parts of events (dealt cards, a B8 draw, a card drawn from a hand under H14,
  a B9 taken hand) reach only the seats entitled to them, and every other part of an event
  is the same for everyone;
* no message before HandOver carries a hand's seed; HandOver reveals it, its SHA-256 is
  the HandStarted commitment, and the published shuffle re-derives the deal from it.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections import defaultdict
from typing import Any

import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    Inbox,
    Seated,
    Truth,
    action_message,
    card_list,
    cards_mentioned,
    collect_stream,
    legal,
    pick_action,
    pick_seat,
    referee,
    run_async,
    seat_table,
    secret_from,
    truth_of,
    without_time_left,
)

from referee.cards import card_str
from referee.engine.components import RuleBook
from referee.engine.shuffle import deal as shuffle_deal
from referee.ruleset.loader import load_ruleset

TAKE_RATE = 0.1


def deal_of(ruleset_id: str, players: int, seed: str) -> list[str]:
    """A whole-deck deal (as CreateTable's test_deal) from the published shuffle."""
    book = RuleBook.of(load_ruleset(ruleset_id))
    hands = shuffle_deal(book.deck, seed, players, 0, book.step)
    return [" ".join(card_str(c) for c in cards) for cards in hands]


async def play_session(seated: Seated, rng: random.Random) -> dict[int | None, Inbox]:
    """Play the table's session to its end with random legal actions, collecting every
    message each seat and a spectator receives."""
    players = seated.players
    inboxes: dict[int | None, Inbox] = {p.seat: Inbox(p.seat) for p in players}
    inboxes[None] = Inbox(None)
    readers = [
        asyncio.ensure_future(collect_stream(p.watch(0), inboxes[p.seat])()) for p in players
    ]
    readers.append(
        asyncio.ensure_future(collect_stream(seated.spectator_watch(0), inboxes[None])())
    )
    await seated.start()
    while True:
        spectator = await seated.spectate()
        inboxes[None].views.append((spectator.seq, spectator.view))
        views = {p.seat: await p.view() for p in players}
        for seat, response in views.items():
            inboxes[seat].views.append((response.seq, response.view))
        if not spectator.view.to_act:
            break
        seat = pick_seat(spectator.view.to_act, spectator.view.turn, rng, TAKE_RATE)
        chosen = views[seat]
        action = action_message(pick_action(legal(chosen.view), rng, TAKE_RATE))
        answer = await players[seat].submit(action, chosen.seq)
        inboxes[seat].events.extend(("submit", e) for e in answer.events)
    await asyncio.wait_for(asyncio.gather(*readers), 10)
    assert (await seated.table()).status == pb.TABLE_STATUS_FINISHED
    return inboxes


async def truths_of(seated: Seated, spectator: Inbox) -> list[Truth]:
    events = [e for _, e in spectator.events]
    hands = 1 + max(e.hand_number for e in events)
    truths = []
    for number in range(hands):
        exported = await seated.ref.play.ExportHand(
            pb.ExportHandRequest(table_id=seated.table_id, hand_number=number)
        )
        truths.append(truth_of(exported.case_yaml, events, number))
    return truths


def check_secrecy(
    truths: list[Truth], inboxes: dict[int | None, Inbox], *, hidden_sizes: bool = False
) -> dict[str, int]:
    """Every check of the module docstring; returns how often each event kind was seen.

    ``hidden_sizes`` (H29): every count that tells another seat's hand size is -1 for the
    viewer, in views and events alike, and those counts are left out of the comparison of
    what every seat is told."""
    seeds = [(t.seed, t.last_seq) for t in truths if t.seed]
    public: dict[int, dict[tuple[int | None, str], pb.Event]] = defaultdict(dict)
    kinds: dict[str, int] = defaultdict(int)

    def no_seed_before_its_hand_ends(message: Any, seq: int) -> None:
        text, data = str(message), message.SerializeToString()
        for seed, over in seeds:
            if seq < over:
                assert seed not in text and seed.encode() not in data, (seq, message)

    for viewer, inbox in inboxes.items():
        for source, event in inbox.events:
            kind = event.WhichOneof("kind")
            assert kind is not None
            kinds[kind] += 1
            seq = event.seq
            if event.hand_number < 0:
                assert kind in ("player_joined", "player_left")
                public[seq][(viewer, source)] = without_time_left(event)
                continue
            truth = truths[event.hand_number]
            state = truth.state_at(seq)
            leaked = cards_mentioned(event) & secret_from(state, viewer)
            assert not leaked, f"seat {viewer} was sent {leaked} in {event}"
            no_seed_before_its_hand_ends(event, seq)
            engine = truth.engine_event(seq)
            redacted = without_time_left(event)
            if kind == "session_over":
                assert engine is None
            else:
                assert engine is not None and engine["kind"] == kind, (engine, event)
            if kind == "hand_started":
                mine = truth.deal[viewer] if viewer is not None else []
                assert list(event.hand_started.your_cards) == mine
                commitment = event.hand_started.seed_commitment
                if truth.seed:
                    digest = hashlib.sha256(truth.seed.encode()).hexdigest()
                    assert commitment == f"sha256:{digest}"
                else:
                    assert commitment == ""
                redacted.hand_started.ClearField("your_cards")
                sizes = [len(cards) for cards in truth.deal]
                if hidden_sizes:
                    sizes = [n if s == viewer else -1 for s, n in enumerate(sizes)]
                assert list(event.hand_started.hand_sizes) == sizes
                redacted.hand_started.ClearField("hand_sizes")
            elif kind == "waste_drawn":
                assert engine is not None
                drawer = engine["seat"] == viewer
                assert event.waste_drawn.card == (engine["card"] if drawer else "")
                redacted.waste_drawn.ClearField("card")
            elif kind == "card_drawn":
                assert engine is not None
                involved = viewer in (engine["seat"], engine["from_seat"])
                assert event.card_drawn.card == (engine["card"] if involved else "")
                redacted.card_drawn.ClearField("card")
            elif kind == "hand_taken":
                assert engine is not None
                involved = viewer in (engine["taker"], engine["seat"])
                assert list(event.hand_taken.cards) == (engine["cards"] if involved else [])
                redacted.hand_taken.ClearField("cards")
                told = engine["count"] if involved or not hidden_sizes else -1
                assert event.hand_taken.count == told
                redacted.hand_taken.ClearField("count")
            elif kind in ("card_played", "illegal_play_penalised"):
                assert engine is not None
                assert getattr(event, kind).card == engine["card"]
            elif kind in ("picked_up", "trick_to_waste"):
                assert engine is not None
                assert list(getattr(event, kind).cards) == engine["cards"]
                if kind == "picked_up":
                    picker = engine["seat"] == viewer
                    told = engine["from_waste"] if picker or not hidden_sizes else -1
                    assert event.picked_up.from_waste == told
                    redacted.picked_up.ClearField("from_waste")
            elif kind == "hand_over":
                assert event.hand_over.seed == truth.seed
            public[seq][(viewer, source)] = redacted
        for seq, view in inbox.views + [(s.seq, s.view) for s in inbox.snapshots]:
            state = truths[view.hand_number].state_at(seq)
            leaked = cards_mentioned(view) & secret_from(state, viewer)
            assert not leaked, f"seat {viewer} saw {leaked} in its view at {seq}"
            no_seed_before_its_hand_ends(view, seq)
            if viewer is None:
                assert view.seat == -1 and not view.hand and not view.legal_actions
            else:
                assert view.seat == viewer
                assert list(view.hand) == state.view_hands[viewer]
                assert legal(view) == state.legal[viewer]
            sizes = [h.bit_count() for h in state.hands]
            if hidden_sizes:
                sizes = [n if s == viewer or view.out[s] else -1 for s, n in enumerate(sizes)]
            assert list(view.hand_sizes) == sizes
            known = [card_list(k & h) for k, h in zip(state.known, state.hands, strict=True)]
            assert [list(k.cards) for k in view.known_cards] == known
    for seq, copies in public.items():
        forms = list(copies.values())
        assert all(form == forms[0] for form in forms), f"event {seq} differs between seats"
    return kinds


def check_fair_deal(truth: Truth, hand_number: int) -> None:
    """The revealed seed re-derives the dealt hands through the published shuffle."""
    case = truth.case
    rules = load_ruleset(case["ruleset"]["id"])
    book = RuleBook.of(rules)
    dealt = shuffle_deal(book.deck, truth.seed, case["players"], case["dealer"], book.step)
    assert [[card_str(c) for c in cards] for cards in dealt] == truth.deal, hand_number
    assert len(truth.seed) == 64 and int(truth.seed, 16) >= 0


@pytest.mark.parametrize(
    ("ruleset_id", "seats", "hands", "rng_seed"),
    [("bhabho", 4, 2, 7), ("pickup", 3, 1, 3), ("team", 4, 1, 5)],
)
@run_async
async def test_shuffled_sessions_leak_nothing_and_deal_fairly(
    ruleset_id: str, seats: int, hands: int, rng_seed: int
) -> None:
    async with referee() as ref:
        seated = await seat_table(ref, ruleset_id, seats, hands=hands, start=False)
        inboxes = await play_session(seated, random.Random(rng_seed))
        truths = await truths_of(seated, inboxes[None])
        assert len(truths) == hands
        check_secrecy(truths, inboxes)
        for number, truth in enumerate(truths):
            assert truth.seed, "a shuffled hand has a seed"
            check_fair_deal(truth, number)
        dealers = [t.case["dealer"] for t in truths]
        assert len(set(dealers)) == len(dealers), "the deal moves on"
        counts = [0] * seats
        for truth in truths:
            if truth.case["result"]["bhabhi"] is not None:
                counts[truth.case["result"]["bhabhi"]] += 1
        table = await seated.table()
        assert [s.bhabhi_count for s in table.seats] == counts
        assert table.hands_dealt == hands
        [over] = [e.session_over for _, e in inboxes[None].events if e.HasField("session_over")]
        assert (over.hands_played, list(over.bhabhi_counts)) == (hands, counts)


@run_async
async def test_bhabho_draws_and_takes_leak_nothing() -> None:
    """B8 draws from the waste pile and B9 taken hands, on a deal where both happen."""
    async with referee(test_mode=True) as ref:
        deal = deal_of("bhabho", 4, "d15")
        seated = await seat_table(ref, "bhabho", 4, hands=1, deal=deal, start=False)
        inboxes = await play_session(seated, random.Random(4))
        truths = await truths_of(seated, inboxes[None])
        kinds = check_secrecy(truths, inboxes)
        # Five viewers see each event: at least one draw and one take happened.
        assert kinds["waste_drawn"] >= 5 and kinds["hand_taken"] >= 5, dict(kinds)
        assert truths[0].deal == [d.split() for d in deal] and not truths[0].seed


TAKING = """
id: bhabho-taking-secrecy
extends: bhabho
clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4,
  B5, B6, B7, B8, H20, H22, H23]
take_hand: {consent: true, per_trick: pass_in_turn, from: any_player}
"""
"""H20 requests and answers, H22 passes, H23 chosen hands: all before a trick, many a hand."""


@run_async
async def test_house_rules_of_taking_leak_nothing() -> None:
    """H20-H23: a request and its answer, and a pass, are the same for every seat and name
    no card; a hand taken on an agreement reaches only the taker and the one taken."""
    async with referee(test_mode=True, allow_register=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=TAKING))
        deal = deal_of("bhabho", 4, "d15")
        seated = await seat_table(ref, "bhabho-taking-secrecy", 4, hands=1, deal=deal, start=False)
        inboxes = await play_session(seated, random.Random(4))
        truths = await truths_of(seated, inboxes[None])
        kinds = check_secrecy(truths, inboxes)
        for kind in ("take_requested", "take_answered", "take_passed", "hand_taken"):
            assert kinds[kind] >= 5, dict(kinds)  # five viewers see each event


@run_async
async def test_whole_pile_pickups_leak_nothing() -> None:
    """V4: the face-down waste pile picked up with a trick stays hidden from the others."""
    async with referee(test_mode=True) as ref:
        deal = deal_of("whole-pile", 4, "d24")
        seated = await seat_table(ref, "whole-pile", 4, hands=1, deal=deal, start=False)
        inboxes = await play_session(seated, random.Random(2))
        truths = await truths_of(seated, inboxes[None])
        check_secrecy(truths, inboxes)
        from_waste = [
            e.picked_up.from_waste
            for _, e in inboxes[None].events
            if e.WhichOneof("kind") == "picked_up"
        ]
        assert sum(1 for n in from_waste if n) >= 3, from_waste


TRICK_HOUSE_RULES = """\
id: house-tricks-secrecy
extends: bhabho
clauses: [C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B8, B9,
  X3, H5, H6, H9, H12]
first_lead: {leads: any_card}
first_trick: {void_plays: highest}
off_suit: {play: tochoo_plays_on}
next_leader: {after_pickup: tochoo_player}
trump: dealer_choice
"""
"""H5, H6, H9 and H12's dealer's trump together, on Bhabho (B8 draws and B9 takes kept)."""


@pytest.mark.parametrize("rng_seed", [1, 8])
@run_async
async def test_trick_house_rules_leak_nothing(rng_seed: int) -> None:
    """The dealer's trump (a public decision and event), a tochoo that does not stop the
    trick and the free first lead, over whole shuffled hands."""
    async with referee(allow_register=True) as ref:
        registered = await ref.rulesets.RegisterRuleset(
            pb.RegisterRulesetRequest(yaml=TRICK_HOUSE_RULES)
        )
        seated = await seat_table(ref, registered.ruleset.id, 4, hands=2, start=False)
        inboxes = await play_session(seated, random.Random(rng_seed))
        truths = await truths_of(seated, inboxes[None])
        kinds = check_secrecy(truths, inboxes)
        assert kinds["trump_fixed"] >= 5 * 2, dict(kinds)  # each hand's trump, to everyone


H14_RULES = """\
id: house-draw-from-a-player
extends: bhabho
clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4, B5,
  B6, B7, B9, H14]
next_leader: {if_out: draws_from_player, draw_from: chosen}
"""
H14_NO_TAKES = """\
id: house-draw-from-the-next-player
extends: bhabho
clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4, B5,
  B6, B7, H14]
next_leader: {if_out: draws_from_player}
take_hand: {when: never}
"""
CHALLENGE_RULES = """\
id: house-secret-{name}
extends: bhabho
title: {{en: Secret, de: Geheim, pl: Sekret}}
description:
  en: Bhabho with challenges and hidden hand sizes.
  de: Bhabho mit Anfechtungen und verborgenen Kartenzahlen.
  pl: Bhabho z wyzwaniami i ukrytą liczbą kart.
illegal_play: challenge
false_tochoo_penalty: {penalty}
hand_sizes: hidden
"""


@pytest.mark.parametrize(
    ("rules", "seats", "deal_seed", "rng_seed"),
    [(H14_RULES, 4, "d15", 4), (H14_NO_TAKES, 3, "d2", 2), (H14_NO_TAKES, 4, "d4", 1)],
)
@run_async
async def test_cards_drawn_from_a_hand_leak_nothing(
    rules: str, seats: int, deal_seed: str, rng_seed: int
) -> None:
    """H14: the card drawn from a player's hand reaches the drawer and that player only;
    every other seat and a spectator see who drew from whom, over whole games."""
    async with referee(test_mode=True, allow_register=True) as ref:
        registered = await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=rules))
        deal = deal_of("bhabho", seats, deal_seed)
        seated = await seat_table(
            ref, registered.ruleset.id, seats, hands=1, deal=deal, start=False
        )
        inboxes = await play_session(seated, random.Random(rng_seed))
        truths = await truths_of(seated, inboxes[None])
        kinds = check_secrecy(truths, inboxes)
        assert kinds["card_drawn"] >= seats + 1, dict(kinds)  # every viewer sees each draw


POWER_RULES = [
    "next_leader: {draw: top, draw_pile: waste_and_trick}\n",
    "end: {shootout: any_last_card, two_left_power_escapes: true}\n",
    "end: {two_left_tochoo_wins: true}\n",
    "next_leader: {if_out: draws_from_player}\nend: {shootout: after_waste_draw}\n"
    "clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, "
    "B4, B5, B6, B7, B9, H14, H17]\n",
]


@pytest.mark.parametrize("options", POWER_RULES)
@run_async
async def test_the_power_rules_play_through_the_referee_and_leak_nothing(options: str) -> None:
    """H14-H19: a whole game of each through the referee, every message checked."""
    text = f"id: house-power-referee\nextends: bhabho\n{options}"
    async with referee(test_mode=True, allow_register=True) as ref:
        registered = await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=text))
        deal = deal_of("bhabho", 4, "d15")
        seated = await seat_table(ref, registered.ruleset.id, 4, hands=1, deal=deal, start=False)
        inboxes = await play_session(seated, random.Random(4))
        truths = await truths_of(seated, inboxes[None])
        kinds = check_secrecy(truths, inboxes)
        assert kinds["hand_over"] >= 5  # every seat and the spectator saw it end


@pytest.mark.parametrize(
    ("penalty", "deal_seed", "rng_seed", "wrong"),
    [("pickup_and_lead", "d9", 1, True), ("bhabhi", "d2", 1, False)],
)
@run_async
async def test_challenges_and_hidden_hand_sizes_leak_nothing(
    penalty: str, deal_seed: str, rng_seed: int, wrong: bool
) -> None:
    """H25, H29: a challenge and its result are public, a right one names the offender but
    no card, a card picked up from wherever it went stays face up; under hidden sizes no
    view or event tells a seat how many cards another holds.  The deal and the moves of
    the one hand are fixed (test mode), chosen so that it holds right challenges (and,
    under ``pickup_and_lead``, a wrong one too) and hands taken."""
    async with referee(test_mode=True, allow_register=True) as ref:
        name = penalty.replace("_", "-")
        rules = CHALLENGE_RULES.format(penalty=penalty, name=name)
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=rules))
        deal = deal_of("bhabho", 4, deal_seed)
        seated = await seat_table(ref, f"house-secret-{name}", 4, hands=1, deal=deal, start=False)
        inboxes = await play_session(seated, random.Random(rng_seed))
        truths = await truths_of(seated, inboxes[None])
        kinds = check_secrecy(truths, inboxes, hidden_sizes=True)
        challenges = [
            e.tochoo_challenged
            for _, e in inboxes[None].events
            if e.WhichOneof("kind") == "tochoo_challenged"
        ]
        assert any(c.right and c.offender >= 0 for c in challenges), challenges
        assert any(not c.right and c.offender == -1 for c in challenges) == wrong, challenges
        assert kinds["tochoo_challenged"] >= 5 * len(challenges), dict(kinds)  # five viewers
        assert kinds["hand_taken"] >= 5, dict(kinds)
