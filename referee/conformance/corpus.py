"""The generated regression corpus: games played on this engine, written down as cases.

Hand-written cases are the evidence that the engine follows the rules; these are not.  They
are the engine's own answers, exported with every seat's legal actions and view at every
step and marked ``generated: true``, so that a change of behaviour anywhere in a game shows
as a failing case (and so that another implementation can compare itself with ours step by
step).  Nobody should read them as independent evidence: a bug of the engine is recorded
here as faithfully as a rule.

What is in it, per bundled ruleset (one ``<ruleset>.jsonl.gz`` each, one case per line):

* **Base games**, half with a random bot and half with the heuristic bot on every seat,
  cycling through every player count the ruleset allows (3 to 8; 6 to 16 with two packs),
  the dealer moving from cycle to cycle.  A game longer than a cap is dealt again; under the
  pick-up rules a heuristic game that keeps cycling to the bound is played at a *mixed*
  table (heuristic and random seats alternating) instead.  Every third game also carries
  *probes*: refused steps (an off-suit card when the seat could follow, a card out of turn,
  a card it does not hold …) with the engine's reason, which a ruleset that penalises
  instead of refusing (``illegal_play: pickup_penalty``) fails.
* **Partial deals** (at the fewest, a middling and the most players): the first lead card
  left out of the deal, its holder dealt that card alone, and its whole suit left out, so
  that ``first_lead.if_absent``, B8's empty waste pile and a first trick the first leader
  does not win are played.
* **Rare endings**: random games searched for each way a hand can end (all out together, a
  dead position with a Bhabhi, two left under X2) that the other games happen to miss.
* **A game at the bound**, with one player holding the most cards: a cooperative *staller*
  that sees every hand makes the hand last until ``end.max_tricks`` (or, where it cannot,
  heuristic games are searched for one that does), the only way ``end.at_max_tricks`` can
  show.  The staller is not a fair player and does not pretend to be: it only chooses legal
  actions that keep everyone in.

The states keep, of each seat's view, only what the rest of the state does not already say
(``export.VIEW_OWN_KEYS``): the corpus is a third smaller and quicker to replay for it.

Everything is deterministic from fixed seeds: regenerating gives the same bytes (gzip
without a time stamp), and ``bhabhi conformance generate --check`` says whether it does.
Games are counted per ruleset in ``GAMES``; rulesets whose games run long (whole-pile
pickup) get fewer games, short ones more, to keep the corpus small and quick to replay.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import multiprocessing
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.cards import Card, suit_of
from referee.conformance.runner import CORPUS
from referee.engine.components import RuleBook
from referee.engine.deadpos import dead_position_check
from referee.engine.hand import IN_TRICK, Hand
from referee.engine.playout import action_of, random_playout
from referee.engine.record import VIEW_OWN_KEYS, export_hand
from referee.engine.shuffle import hand_seed
from referee.engine.types import (
    PICK_UP,
    TAKE_HAND,
    Action,
    ActionKind,
    Termination,
    Verdict,
)
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.ruleset.model import OffSuitPlay, Ruleset, TakeHandWhen
from referee.sim.play import play_hand
from referee.sim.runner import make_bot

SEED = "bhabhi/conformance-corpus/v1"
"""Prefix of every seed the corpus uses: change it and every game changes."""

GAMES: dict[str, int] = {
    "bhabho": 125,
    "bhabho-own-turn": 125,
    "bhabho-two-left": 125,
    "donkey": 125,
    "zymbiotic": 125,
    "kazhutha": 125,
    "two-packs": 80,
    "discard": 90,
    "pickup": 55,
    "ace-low": 55,
    "ace-low-ace-leads": 55,
    "get-away": 55,
    "high-card-lead": 55,
    "team": 55,
    "whole-pile": 12,
}
"""Base games per ruleset (1,262 in all): more of the short Bhabho games, fewer of the
pick-up games that run to hundreds of actions with eight players, few of whole-pile's
(about a thousand actions each)."""
DEFAULT_GAMES = 60
"""For a bundled ruleset that ``GAMES`` does not know yet."""
STEP_CAP: dict[str, int] = {"whole-pile": 1500}
"""Longest base game kept, in steps; a longer one is dealt again from the next seed."""
DEFAULT_STEP_CAP = 600
"""The heuristic bot stays out of the lead under the pick-up rules, and most of its games
with five or more players cycle to ``max_tricks`` (2,000 to 4,000 actions): one such game
per ruleset (the game at the bound) is worth keeping, dozens are not.  Random pick-up games
with eight players take about 350 actions."""
REDEALS = 40
"""Deals tried for one base game before keeping the shortest."""
PURE_REDEALS = 15
"""Deals a heuristic game is tried with a heuristic bot on every seat before a mixed table."""

BOTS = ("random", "heuristic")
PROBE_EVERY = 3
"""Every third base game (random and heuristic alike) carries refused steps."""
PROBES_PER_GAME = 6
SEARCH_TRIES = 3000
"""Random games tried per rare ending before giving up on it."""
STALL_TRIES = 8
"""Deals the staller tries per ruleset and way of ranking positions before giving up."""
STALL_MAX_PLAYERS = 6
"""The staller searches every line of play through a trick: exponential in the players."""
BOUND_SEARCH = 600
"""Heuristic games tried for one at the bound when the staller found none."""


@dataclass
class RulesetCorpus:
    """What was generated for one ruleset, for the summary."""

    ruleset: str
    cases: list[dict[str, Any]] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    """Special games looked for and not found (a rare ending, a game at the bound)."""

    def add(self, kind: str, case: dict[str, Any]) -> None:
        self.cases.append(case)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


def player_counts(rules: Ruleset) -> list[int]:
    """The player counts to cycle through: every count from 3 to 16 the ruleset allows (3 to
    8 for one pack, 6 to 16 for two), or every count it allows when that is none of them."""
    allowed = [n for n in range(2, 17) if rules.players.allows(n)]
    usual = [n for n in allowed if n >= 3]
    return usual if usual else allowed


def _describe(rules: Ruleset, how: str) -> str:
    return (
        f"Generated by `bhabhi conformance generate` on this project's engine ({how}; "
        f"ruleset {rules.id}). Regression evidence only: it records what the engine did, "
        "not what the rule texts say, so it is not independent evidence of the rules."
    )


def _export(hand: Hand, name: str, how: str) -> dict[str, Any]:
    return export_hand(
        hand,
        name=name,
        description=_describe(hand.rules, how),
        generated=True,
        full_state=True,
        view_keys=VIEW_OWN_KEYS,
        fair_deal=False,  # regression evidence of the engine: no referee committed to a seed
    )


# --- base games ---------------------------------------------------------------------------


def _table(bot: str, players: int) -> list[str]:
    """The bot on each seat: one kind everywhere, or ``mixed``, heuristic and random seats
    alternating."""
    if bot == "mixed":
        return [BOTS[1] if seat % 2 == 0 else BOTS[0] for seat in range(players)]
    return [bot] * players


def base_game(rules: Ruleset, index: int, counts: Sequence[int]) -> tuple[str, dict[str, Any]]:
    """Game ``index`` of a ruleset: its player count, bots, dealer and seeds follow from it.

    A game longer than the ruleset's step cap is dealt again (``REDEALS`` times at most,
    then the shortest is kept).  Under the pick-up rules most heuristic games with many
    players cycle to the bound, so a heuristic game that keeps doing so is replayed at a
    *mixed* table (heuristic and random seats alternating), which usually ends.  Both bias
    the corpus towards games that end, and the description of each game says how it was
    chosen.
    """
    players = counts[(index // len(BOTS)) % len(counts)]
    bot = BOTS[index % len(BOTS)]
    dealer = (index // (len(BOTS) * len(counts))) % players
    cap = STEP_CAP.get(rules.id, DEFAULT_STEP_CAP)
    tables = [bot] * REDEALS if bot == "random" else [bot] * PURE_REDEALS + ["mixed"] * REDEALS
    best: tuple[Hand, bytes, str] | None = None
    for redeal, table in enumerate(tables):
        label = f"{SEED}/{rules.id}" if redeal == 0 else f"{SEED}/{rules.id}/redeal{redeal}"
        seed = hand_seed(label, index)
        hand = Hand(rules, players, seed=seed, dealer=dealer)
        bots = [make_bot(name, rules) for name in _table(table, players)]
        play_hand(hand, bots, random.Random(f"{label}/{index}/bots"))
        if best is None or len(hand.history) < len(best[0].history):
            best = (hand, seed, table)
        if len(hand.history) <= cap:
            break
    assert best is not None
    hand, seed, table = best
    name = f"{rules.id}/{index:04d}-{players}p-{table}"
    how = f"{players} players, {table} bots, seed {seed.decode()}"
    if seed != hand_seed(f"{SEED}/{rules.id}", index):
        how += f", dealt again until the game took at most {cap} steps"
    case = _export(hand, name, how)
    if index % PROBE_EVERY == PROBE_EVERY - 1:
        add_probes(case, hand, random.Random(f"{SEED}/{rules.id}/{index}/probes"))
    return table, case


# --- probes: refused steps ----------------------------------------------------------------


def add_probes(case: dict[str, Any], played: Hand, rng: random.Random) -> None:
    """Insert refused steps before some steps of ``case`` (the export of ``played``).

    Each probe is an illegal action at that point, with the reason the engine gives, found
    with ``Hand.judge`` (never ``apply``: under a penalty rule ``apply`` would act on it).
    A probe changes nothing, so the steps around it stay as exported.
    """
    replay = Hand(
        played.rules,
        played.players,
        deal=[list(cards) for cards in played.deal],
        dealer=played.dealer,
        draws=list(played.draws_made),
    )
    steps: list[dict[str, Any]] = []
    chance = min(1.0, 2.0 * PROBES_PER_GAME / max(1, len(case["steps"])))
    made = 0
    for step, (seat, action) in zip(case["steps"], played.history, strict=True):
        if made < PROBES_PER_GAME and rng.random() < chance:
            probe = _probe(replay, rng)
            if probe is not None:
                steps.append(probe)
                made += 1
        steps.append(step)
        replay.apply(seat, action)
    probe = _probe(replay, rng)  # after the end: hand_over
    if probe is not None:
        steps.append(probe)
    case["steps"] = steps


def _probe(hand: Hand, rng: random.Random) -> dict[str, Any] | None:
    options = _illegal_actions(hand)
    rng.shuffle(options)
    for seat, action, note in options:
        judgement = hand.judge(seat, action)
        if judgement.verdict is Verdict.REFUSED:  # a penalised card is no refusal: skip it
            assert judgement.reason is not None
            return {
                "seat": seat,
                "action": str(action),
                "refused": judgement.reason.value,
                "note": note,
            }
    return None


def _illegal_actions(hand: Hand) -> list[tuple[int, Action, str]]:
    """Candidate illegal actions now, each with why a referee must refuse it."""
    book = hand.book
    found: list[tuple[int, Action, str]] = []
    players = range(hand.players)
    hands = {s: list(hand.view(s).hand) for s in players}
    if hand.is_over:
        cards = [c for s in players for c in hands[s]] or [book.first_lead_card]
        return [(0, Action.play(cards[0]), "probe: the hand is over")]
    mover = hand.to_move
    assert mover is not None
    mine = hands[mover]
    for seat in players:
        if seat != mover and not hand.out[seat] and hands[seat]:
            found.append((seat, Action.play(hands[seat][0]), "probe: not this seat's turn"))
        if hand.out[seat]:
            found.append((seat, PICK_UP, "probe: a seat that is out acts"))
    others = [c for s in players if s != mover for c in hands[s]]
    if others:
        found.append((mover, Action.play(others[0]), "probe: a card the seat does not hold"))
    if TAKE_HAND not in hand.legal_actions(mover):
        found.append((mover, TAKE_HAND, "probe: taking a hand where it is not allowed"))
    if hand.phase == IN_TRICK:
        led = hand.led_suit
        following = [c for c in mine if book.suit[c] == led]
        off = [c for c in mine if book.suit[c] != led]
        if following and off:
            found.append((mover, Action.play(off[0]), "probe: not following suit (C7, C12)"))
        if following:
            found.append((mover, PICK_UP, "probe: picking up while able to follow"))
        elif book.pickup_when_void and off:
            found.append((mover, Action.play(off[0]), "probe: a card where P1 says pick up"))
    else:
        legal = hand.legal_actions(mover)
        if PICK_UP not in legal:
            found.append((mover, PICK_UP, "probe: picking up before a trick"))
        other_leads = [c for c in mine if Action.play(c) not in legal]
        if other_leads:
            found.append((mover, Action.play(other_leads[0]), "probe: leading another card"))
    return found


# --- partial deals ------------------------------------------------------------------------


def partial_deal_games(rules: Ruleset, counts: Sequence[int]) -> Iterator[tuple[str, str, Hand]]:
    """Games from deals without the first lead card, with its holder dealt it alone, and
    without its whole suit.

    A full deal always holds the lead card (C6), so without these ``first_lead.if_absent``
    would never be played; the lone card makes its holder lead the first trick with nothing
    left, which under B8 is a draw from a still empty waste pile; without the suit the player
    after the dealer leads any card, which need not win the first trick (B2 then differs from
    the usual next leader).  Random bots play them, except where B9 lets a random bot take
    the very hand the deal was made for before the first trick: there the heuristic bot,
    which never takes an unknown hand.
    """
    lead = rules.first_lead.card
    choices = sorted({counts[0], counts[len(counts) // 2], counts[-1]})
    bot = "random" if rules.take_hand.when is TakeHandWhen.NEVER else "heuristic"
    for kind in ("lead-card-absent", "lead-card-alone", "lead-suit-absent"):
        for number, players in enumerate(choices):
            seed = hand_seed(f"{SEED}/{rules.id}/{kind}", number)
            dealt = Hand(rules, players, seed=seed, dealer=0).deal
            if kind == "lead-card-absent":
                deal = [[c for c in cards if c != lead] for cards in dealt]
            elif kind == "lead-card-alone":
                deal = [[lead] if lead in cards else list(cards) for cards in dealt]
            else:
                deal = [[c for c in cards if suit_of(c) != suit_of(lead)] for cards in dealt]
            if any(not cards for cards in deal):
                continue
            hand = Hand(rules, players, deal=deal, dealer=number % players)
            bots = [make_bot(bot, rules) for _ in range(players)]
            play_hand(hand, bots, random.Random(f"{SEED}/{rules.id}/{kind}/{number}/bots"))
            yield kind, f"{kind}-{players}p-{bot}", hand


# --- rare endings -------------------------------------------------------------------------

RARE_ENDINGS = (Termination.ALL_OUT, Termination.DEAD_POSITION, Termination.TWO_LEFT_PICKUP)


def _shows(outcome: Mapping[str, Any], ending: Termination) -> bool:
    """Whether a result shows ``ending`` in a way its options can change: a dead position
    or an all-out trick with a Bhabhi tells ``most_cards`` from ``no_bhabhi`` apart only
    when somebody is the Bhabhi under one of them (a tie for most cards is nobody)."""
    if outcome.get("termination") != str(ending):
        return False
    return ending is not Termination.DEAD_POSITION or outcome.get("bhabhi") is not None


def rare_ending_games(
    rules: Ruleset, counts: Sequence[int], seen: Sequence[Mapping[str, Any]]
) -> Iterator[tuple[str, Hand | None]]:
    """For each rare ending the rules allow and the games so far do not show, a random game
    that does (or ``None`` when ``SEARCH_TRIES`` games found none: it may be impossible).

    Found with the fast random playout, then replayed through ``Hand`` to be exported.
    """
    book = RuleBook.of(rules)
    possible = {
        Termination.ALL_OUT: True,
        Termination.DEAD_POSITION: dead_position_check(book) is not None,
        Termination.TWO_LEFT_PICKUP: rules.end.two_left_pickup_loses,
    }
    for ending in RARE_ENDINGS:
        if not possible[ending] or any(_shows(result, ending) for result in seen):
            continue
        if not book.fast_playout:  # the search needs the fast playout's speed
            yield f"ending-{ending}", None
            continue
        found: Hand | None = None
        for tries in range(SEARCH_TRIES):
            players = counts[tries % len(counts)]
            seed = hand_seed(f"{SEED}/{rules.id}/search/{ending}", tries)
            dealer = tries % players
            result = random_playout(rules, players, seed, dealer)
            if not _shows(result.outcome.to_dict(), ending):
                continue
            found = Hand(rules, players, seed=seed, dealer=dealer)
            for seat, code in result.actions:
                found.apply(seat, action_of(code))
            assert found.outcome == result.outcome, "playout and Hand disagree"
            break
        yield f"ending-{ending}", found


# --- the staller: a game at the bound -----------------------------------------------------


Score = tuple[float, ...]


def _sizes(hand: Hand) -> list[int]:
    return [hand.hands[s].bit_count() for s in hand.active_seats()]


def keep_cards(hand: Hand) -> Score:
    """Nobody out, nobody down to one card, as many cards as possible still in the hands
    (a clean trick throws some away), and those spread evenly.  Stalls the pick-up family,
    where a pickup keeps every card in play."""
    if hand.is_over:
        return (0.0,)
    sizes = _sizes(hand)
    return (
        1.0,
        float(len(sizes)),
        float(min(sizes) > 1),
        float(sum(sizes)),
        sum(math.sqrt(n) for n in sizes),
    )


def no_hoard(hand: Hand) -> Score:
    """Nobody out, the shortest hand as long as possible, then the longest as short as
    possible.  Under B6 the player who picks up a tochoo takes the lead too, and a hand that
    hoards the cards leaves the others to run out."""
    if hand.is_over:
        return (0.0,)
    sizes = _sizes(hand)
    return (1.0, float(len(sizes)), float(min(min(sizes), 6)), -float(max(sizes)), sum(sizes))


def hoard_last(hand: Hand) -> Score:
    """As ``no_hoard``, the longest hand before the shortest."""
    if hand.is_over:
        return (0.0,)
    sizes = _sizes(hand)
    return (1.0, float(len(sizes)), -float(max(sizes)), float(min(sizes)), sum(sizes))


STALL_SCORES: tuple[Callable[[Hand], Score], ...] = (keep_cards, no_hoard, hoard_last)
"""How the staller ranks positions at the end of a trick, tried in turn: no one rule keeps
every family of rules going (measured on the bundled rulesets)."""


def _stall_choices(hand: Hand, seat: int) -> list[Action]:
    """The actions worth trying: every lead, but of the cards that follow only the lowest
    and highest, and of off-suit cards the lowest of each suit (the rest play alike)."""
    legal = [a for a in hand.legal_actions(seat) if a != TAKE_HAND]
    if hand.phase != IN_TRICK:
        return legal
    cards = [a.card for a in legal if a.kind is ActionKind.PLAY and a.card is not None]
    if not cards:
        return legal
    book = hand.book
    ranked = sorted(cards, key=lambda c: (book.strength[c], c))
    if all(book.suit[c] == hand.led_suit for c in cards):
        return [Action.play(c) for c in dict.fromkeys((ranked[0], ranked[-1]))]
    lowest: dict[int, Card] = {}
    for card in ranked:
        lowest.setdefault(book.suit[card], card)
    return [Action.play(c) for c in lowest.values()]


def _stall_line(hand: Hand, rank: Callable[[Hand], Score]) -> tuple[Score, Action]:
    """The best end-of-trick score every seat can reach together, and the first action."""
    seat = hand.to_move
    assert seat is not None
    best: tuple[Score, Action] | None = None
    for action in _stall_choices(hand, seat):
        twin = hand.copy(record=False)
        twin.apply(seat, action)
        if twin.phase == IN_TRICK and not twin.is_over:
            score = _stall_line(twin, rank)[0]
        else:
            score = rank(twin)
        if best is None or score > best[0]:
            best = (score, action)
    assert best is not None
    return best


def stall(
    rules: Ruleset,
    players: int,
    seed: bytes,
    dealer: int,
    rank: Callable[[Hand], Score] = keep_cards,
) -> Hand:
    """Play a hand with every seat cooperating to keep it going (and never taking a hand
    under B9, which would put somebody out)."""
    hand = Hand(rules, players, seed=seed, dealer=dealer)
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        hand.apply(seat, _stall_line(hand, rank)[1])
    return hand


def shows_bound(hand: Hand) -> bool:
    """Whether the hand ended at ``max_tricks`` with one player holding the most cards: only
    then do ``at_max_tricks: most_cards`` and ``no_bhabhi`` give different results."""
    if hand.outcome is None or hand.outcome.termination is not Termination.MAX_TRICKS:
        return False
    sizes = [hand.hands[s].bit_count() for s in hand.active_seats()]
    return sizes.count(max(sizes)) == 1


def bound_game(rules: Ruleset, counts: Sequence[int]) -> tuple[Hand, str] | None:
    """A hand that reaches ``end.max_tricks``: the staller's, if it finds one in a few
    deals, else a heuristic game's (its pick-up strategy cycles under some rules where the
    staller's does not)."""
    small = [n for n in counts if n <= STALL_MAX_PLAYERS][:2]
    for rank in STALL_SCORES:
        for tries in range(STALL_TRIES):
            for players in small:
                seed = hand_seed(f"{SEED}/{rules.id}/stall/{players}", tries)
                hand = stall(rules, players, seed, tries % players, rank)
                if shows_bound(hand):
                    how = f"{players} players, every seat stalling ({rank.__name__}) to the end"
                    return hand, how
    for tries in range(BOUND_SEARCH):
        players = counts[tries % len(counts)]
        seed = hand_seed(f"{SEED}/{rules.id}/bound", tries)
        hand = Hand(rules, players, seed=seed, dealer=tries % players)
        bots = [make_bot("heuristic", rules) for _ in range(players)]
        play_hand(hand, bots, random.Random(f"{SEED}/{rules.id}/bound/{tries}/bots"))
        if shows_bound(hand):
            return hand, f"{players} players, heuristic bots, a game that ran to max_tricks"
    return None


# --- one ruleset, and the whole corpus ----------------------------------------------------


def generate_ruleset(ruleset_id: str, games: int | None = None) -> RulesetCorpus:
    """Every case of one ruleset's corpus file, cheapest (fewest steps) first."""
    rules = load_ruleset(ruleset_id)
    counts = player_counts(rules)
    corpus = RulesetCorpus(ruleset_id)
    for index in range(GAMES.get(ruleset_id, DEFAULT_GAMES) if games is None else games):
        bot, case = base_game(rules, index, counts)
        corpus.add(bot, case)
    for kind, name, hand in partial_deal_games(rules, counts):
        corpus.add(kind, _export(hand, f"{rules.id}/{name}", f"a partial deal: {kind}"))
    seen = [case["result"] for case in corpus.cases if "result" in case]
    for kind, found in rare_ending_games(rules, counts, seen):
        if found is None:
            corpus.missing.append(kind)
            continue
        corpus.add(kind, _export(found, f"{rules.id}/{kind}-{found.players}p", kind))
    if rules.end.max_tricks < _longest_possible(rules):
        at_bound = bound_game(rules, counts)
        if at_bound is None:
            corpus.missing.append("bound")
        else:
            hand, how = at_bound
            corpus.add("bound", _export(hand, f"{rules.id}/bound-{hand.players}p", how))
    corpus.cases.sort(key=lambda c: (len(c["steps"]), c["name"]))
    return corpus


def _longest_possible(rules: Ruleset) -> float:
    """An upper bound on the tricks of any hand, where the rules give one: under D1 no card
    returns to a hand and every trick takes one from each of at least two players."""
    if rules.off_suit.play is OffSuitPlay.DISCARD and rules.take_hand.when is TakeHandWhen.NEVER:
        return rules.deck.packs * 52 / 2
    return math.inf


def encode(cases: Iterable[Mapping[str, Any]]) -> bytes:
    """A corpus file's bytes: compact JSON lines, gzip'd without a time stamp or a file
    name, so that the same cases always give the same bytes."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as out:
        for case in cases:
            line = json.dumps(case, separators=(",", ":"), ensure_ascii=False)
            out.write(line.encode("utf-8") + b"\n")
    return buffer.getvalue()


def corpus_path(out: Path, ruleset_id: str) -> Path:
    return out / f"{ruleset_id}.jsonl.gz"


@dataclass(frozen=True)
class Written:
    """The summary of one ruleset's corpus file."""

    ruleset: str
    path: str
    games: int
    steps: int
    size: int
    kinds: dict[str, int]
    missing: list[str]
    changed: bool
    """The file's bytes differ from what was there (with ``check``: would differ)."""


def write_ruleset(
    ruleset_id: str, out: Path, games: int | None = None, *, check: bool = False
) -> Written:
    """Generate one ruleset's corpus file; with ``check`` only compare it with the file."""
    corpus = generate_ruleset(ruleset_id, games)
    data = encode(corpus.cases)
    path = corpus_path(out, ruleset_id)
    changed = not path.is_file() or path.read_bytes() != data
    if changed and not check:
        out.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return Written(
        ruleset_id,
        str(path),
        len(corpus.cases),
        sum(len(c["steps"]) for c in corpus.cases),
        len(data),
        dict(corpus.kinds),
        list(corpus.missing),
        changed,
    )


def _write_task(task: tuple[str, str, int | None, bool]) -> Written:
    ruleset_id, out, games, check = task
    return write_ruleset(ruleset_id, Path(out), games, check=check)


def generate(
    out: Path = CORPUS,
    rulesets: Sequence[str] | None = None,
    games: Mapping[str, int] | None = None,
    *,
    jobs: int = 1,
    check: bool = False,
    progress: Callable[[Written], None] | None = None,
) -> list[Written]:
    """Write (or check) the corpus files of ``rulesets`` (default: every bundled one)."""
    ids = list(rulesets) if rulesets else sorted(bundled_ruleset_paths())
    games = games or {}
    tasks = [(rid, str(out), games.get(rid), check) for rid in ids]
    # Whole-pile's game at the bound takes longest: start it first, not last.
    tasks.sort(key=lambda t: (t[0] != "whole-pile", t[0]))
    results: list[Written] = []
    if jobs <= 1:
        for task in tasks:
            results.append(_write_task(task))
            if progress:
                progress(results[-1])
    else:
        with multiprocessing.Pool(min(jobs, len(tasks))) as pool:
            for written in pool.imap_unordered(_write_task, tasks):
                results.append(written)
                if progress:
                    progress(written)
    results.sort(key=lambda w: w.ruleset)
    return results
