"""The rulebook (``bhabhi rules explain``): complete, in every language file, faithful to the
clauses each ruleset declares, and changed by every option it states.

The completeness test walks the ruleset schema, not a list kept here: a new option or value
without a sentence fails it, and a new ``locales/LANG.ftl`` is covered by adding the file.
"""

from __future__ import annotations

import copy
import itertools
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from fluent.syntax import FluentParser
from fluent.syntax.ast import Junk

from referee.engine.components import RuleBook, removed_cards
from referee.engine.deadpos import detects_dead_positions
from referee.rulebook import build, languages, render
from referee.rulebook.clause_ids import Option, Value, clauses_of, options
from referee.rulebook.examples import _outcome
from referee.rulebook.loading import with_base
from referee.rulebook.locale import LOCALES, RANK_KEYS, SUIT_SYMBOLS, Localizer
from referee.rulebook.model import Arg, CardName, Play, Rulebook, Sentence, SuitName
from referee.ruleset.catalogue import load_catalogue
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.ruleset.model import Ruleset

BASE = "bhabho"
"""The ruleset every option value is set on: it has the tochoo, the power rule and taking
hands, so most options have an effect; CONTEXT sets what the others need."""

CONTEXT: dict[str, dict[str, Any]] = {
    "deck.identical_cards": {"deck.packs": 2},
    "trump": {"trump_suit": "S"},
    "trump_suit": {"trump": "fixed"},
    "next_leader.draw_from": {"next_leader.if_out": "draws_from_player"},
    "false_tochoo_penalty": {"illegal_play": "challenge"},
    "session.chips_by": {"session.chips": 3},
}
"""Options that have an effect only beside other values (the waste draw needs the power
rule, the trump suit a fixed trump), and those values."""

FREE_VALUES: dict[str, tuple[Any, ...]] = {
    "deck.ranks": (
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
        ["7", "8", "9", "10", "J", "Q", "K", "A"],
        ["A"],
    ),
    "first_lead.card": ("AS", "2S", "AC", "10H"),
}
"""Values of the options that are neither enums, booleans nor numbers."""

RANKS = tuple(RANK_KEYS)

PLURAL_PROBES = (0, 1, 2, 3, 5, 12, 22, 25, 101, 1000)
"""Numbers that meet every plural form of English, German and Polish (one, few, many, other)."""


def _values(found: Option) -> list[Any]:
    if found.values:
        return list(found.values)
    if found.path in FREE_VALUES:
        return list(FREE_VALUES[found.path])
    assert found.kind == "integer", f"{found.path}: no test values for a {found.kind} option"
    low = found.minimum if found.minimum is not None else 0
    high = found.maximum if found.maximum is not None else 10**6
    numbers = [n for n in (low, *PLURAL_PROBES, high) if low <= n <= high]
    return [*dict.fromkeys(numbers), *([None] if found.nullable else [])]


CASES = [(o.path, value) for o in options() for value in _values(o)]


def _set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        data = data.setdefault(key, {})
    data[last] = value


def ruleset_with(settings: dict[str, Any], base: str = BASE) -> Ruleset:
    """``base`` with some options set: built, not validated (the sentences of a value must
    exist whatever else the ruleset says)."""
    data = copy.deepcopy(dict(load_ruleset(base).source))
    for path, value in settings.items():
        _set(data, path, value)
    return Ruleset.from_mapping(data)


def sentences_of(book: Rulebook, path: str) -> list[Sentence]:
    return [s for s in book.sentences() if path in s.options]


def test_every_option_value_is_stated_in_every_language() -> None:
    """Every option path and value of the schema (numbers at their plural forms, null) has a
    sentence, and it is written in every language with no Fluent error, no missing
    message or variable, and no key name or ``{`` in its text."""
    assert "en" in languages()
    words = {language: Localizer(language) for language in languages()}
    faults = []
    for path, value in CASES:
        settings = {**CONTEXT.get(path, {}), path: value}
        book = build(ruleset_with(settings))
        found = sentences_of(book, path)
        if not found:
            faults.append(f"{path}: {value!r}: no sentence states it")
        for sentence in found:
            for language, localizer in words.items():
                try:
                    text = localizer.sentence(sentence)
                except ValueError as exc:
                    faults.append(f"{path}: {value!r}: {language}: {exc}")
                    continue
                if "{" in text or "}" in text or sentence.message_id in text or not text:
                    faults.append(f"{path}: {value!r}: {language}: {text!r}")
    assert not faults, "\n".join(faults)


def test_every_value_says_something_else() -> None:
    """Two values of one option never read the same: each value's sentences differ."""
    words = Localizer("en")
    for found in options():
        texts = set()
        for value in _values(found):
            settings = {**CONTEXT.get(found.path, {}), found.path: value}
            book = build(ruleset_with(settings))
            texts.add(" ".join(words.sentence(s) for s in sentences_of(book, found.path)))
        assert len(texts) == len(_values(found)), (found.path, texts)


@pytest.mark.parametrize("language", languages())
def test_language_files_parse_cleanly_and_have_every_message_of_english(language: str) -> None:
    """A syntax error in a .ftl file drops the message silently at run time: fail here."""
    parsed = FluentParser().parse((LOCALES / f"{language}.ftl").read_text(encoding="utf-8"))
    junk = [entry.content for entry in parsed.body if isinstance(entry, Junk)]
    assert not junk, junk
    english = FluentParser().parse((LOCALES / "en.ftl").read_text(encoding="utf-8"))
    ids = {e.id.name for e in parsed.body if hasattr(e, "id")}
    english_ids = {e.id.name for e in english.body if hasattr(e, "id")}
    assert english_ids - ids == set()


@pytest.mark.parametrize("language", languages())
def test_every_clause_of_the_catalogue_is_written_in_every_language(language: str) -> None:
    """The book ends with the text of each clause it cites; in a language other than the
    catalogue's own, each clause is a message ``clause-ID`` with a ``.title``, so a German
    book never ends in English."""
    words = Localizer(language)
    faults = []
    for clause in load_catalogue().values():
        try:
            title, text = words.clause(clause)
        except ValueError as exc:
            faults.append(str(exc))
            continue
        if not title or not text or "{" in text:
            faults.append(f"{clause.id}: {title!r}: {text!r}")
    assert not faults, "\n".join(faults)


CARD_MESSAGES = tuple(
    f"first-lead-{name}"
    for name in (
        "leads-the-card",
        "leads-any-card",
        "if-absent-highest-of-suit",
        "if-absent-player-after-dealer",
    )
)


@pytest.mark.parametrize("language", languages())
def test_every_card_is_written_in_every_form_a_sentence_asks_for(language: str) -> None:
    """C6/H7: the first lead can be any card of the deck, so every card must be written by
    each sentence that names one, in whatever case (``$card-genitive`` …) the language file
    declines it; a form missing for one rank would reach the table only with that rank."""
    words = Localizer(language)
    faults = []
    for rank in RANKS:
        for suit in "CDHS":
            for message_id, dealt in itertools.product(CARD_MESSAGES, ("yes", "no")):
                args: dict[str, Arg] = {
                    "card": CardName(rank, suit),
                    "suit": SuitName(suit),
                    "dealt": dealt,
                }
                try:
                    text = words.message(message_id, args)
                except ValueError as exc:
                    faults.append(f"{rank}{suit}: {exc}")
                    continue
                if "{" in text or f"{SUIT_SYMBOLS[suit]})" not in text:
                    faults.append(f"{rank}{suit}: {message_id}: {text!r}")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("ruleset_id", sorted(bundled_ruleset_paths()))
def test_every_declared_clause_is_stated(ruleset_id: str) -> None:
    """Each bundled ruleset's book states every clause its ``clauses`` list declares, and
    names no clause the catalogue does not have."""
    ruleset, base = with_base(ruleset_id)
    book = build(ruleset, base)
    stated = set(book.clauses())
    assert set(ruleset.clauses) - stated == set()
    assert stated <= set(load_catalogue())


@pytest.mark.parametrize("ruleset_id", sorted(bundled_ruleset_paths()))
@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("shape", ["text", "markdown", "html"])
def test_every_bundled_book_renders(ruleset_id: str, language: str, shape: str) -> None:
    book = build(*with_base(ruleset_id))
    written = render(book, language, shape)
    assert book.ruleset_hash in written.replace("\n", "")
    if shape != "html":  # HTML has its CSS braces
        assert "{" not in written


@pytest.mark.parametrize(
    ("path", "before", "after"),
    [
        ("off_suit.play", "tochoo", "pickup"),  # B4 against P1
        ("direction", "clockwise", "counterclockwise"),  # C3
        ("end.shootout", "none", "after_waste_draw"),  # H17
        ("session.hands", 10, 3),  # C14
        ("take_hand.consent", False, True),  # H20
        ("end.max_tricks", 1000, 200),
    ],
)
def test_changing_an_option_changes_its_sentence(path: str, before: Any, after: Any) -> None:
    words = Localizer("en")

    def texts(value: Any) -> list[str]:
        book = build(ruleset_with({path: value}))
        return [words.sentence(s) for s in sentences_of(book, path)]

    assert texts(before) and texts(after)
    assert texts(before) != texts(after)
    if isinstance(after, int) and not isinstance(after, bool):
        assert any(str(after) in text for text in texts(after))


def test_a_sentence_states_the_clauses_its_value_names_that_the_ruleset_follows() -> None:
    """B8's draw carries B8; 'no shootout' carries no H17; the tochoo pickup of Bhabho B6,
    not H9 (which only tochoo_plays_on follows)."""
    book = build(load_ruleset("bhabho"))
    by_message = {s.message_id: s.clauses for s in book.sentences()}
    assert by_message["next-leader-if-out-draws-from-waste"] == ("B8",)
    assert by_message["end-shootout-none"] == ()
    assert by_message["off-suit-tochoo-picked-up-by-highest-of-led"] == ("B6",)
    assert clauses_of("off_suit.play", "pickup") == ("P1",)


def test_a_house_variant_starts_with_the_sentences_of_what_it_changes() -> None:
    """pagat-getaway changes illegal play, its penalty, out of turn and the shootout (H25,
    H26, H17) of Bhabho; its first section says exactly those, and names the base."""
    ruleset, base = with_base("pagat-getaway")
    assert base is not None and base.id == "bhabho"
    book = build(ruleset, base)
    first = book.sections[0]
    assert first.key == "differences"
    assert first.sentences[0].message_id == "differences-intro"
    changed = {o for s in first.sentences[1:] for o in s.options}
    assert changed == {"illegal_play", "false_tochoo_penalty", "out_of_turn", "end.shootout"}
    assert {c for s in first.sentences for c in s.clauses} == {"C12", "H17", "H25", "H26"}
    text = render(book, "en", "text")
    assert "How this differs from Bhabho / Laad" in text
    assert build(load_ruleset("bhabho")).sections[0].key == "game"


def test_a_variant_file_beside_its_base_file_is_compared_with_that_file(tmp_path: Path) -> None:
    """``extends: my-base`` finds my-base.yaml beside the file, as the loader does."""
    (tmp_path / "my-base.yaml").write_text("id: my-base\nextends: pickup\n", encoding="utf-8")
    (tmp_path / "mine.yaml").write_text(
        "id: mine\nextends: my-base\nsession: {hands: 3}\n", encoding="utf-8"
    )
    ruleset, base = with_base(str(tmp_path / "mine.yaml"))
    assert base is not None and base.id == "my-base"
    first = build(ruleset, base).sections[0]
    assert [s.message_id for s in first.sentences] == ["differences-intro", "session-hands"]


def test_a_variant_that_keeps_its_base_description_does_not_print_it(tmp_path: Path) -> None:
    """Bhabho's description says you may take your neighbour's hand (B9): a variant that
    forbids it and says nothing of its own must not be described by it."""
    path = tmp_path / "no-taking.yaml"
    path.write_text("id: no-taking\nextends: bhabho\ntake_hand: {when: never}\n", "utf-8")
    book = build(*with_base(str(path)))
    assert "ruleset-description" not in {s.message_id for s in book.sentences()}
    assert "ruleset-description" in {
        s.message_id for s in build(*with_base("kazhutha")).sentences()
    }


def test_with_x2_nothing_more_is_said_of_two_left() -> None:
    """X2 ends the hand at the pickup with two left: no "a tochoo counts as at any other
    time" nor "there is no shootout" beside it."""
    book = build(ruleset_with({"end.two_left_pickup_loses": True}))
    said = {s.message_id for s in book.sentences()}
    assert "end-two-left-pickup-loses-true" in said
    assert not said & {"end-two-left-tochoo-wins-false", "end-shootout-none"}


def test_a_trick_ended_by_a_house_rule_is_no_worked_example() -> None:
    """The shootout (H17) and X2 end a hand on a trick the example could not explain."""
    for section in build(*with_base("pagat-getaway")).sections:
        for sentence in section.sentences:
            if sentence.example is not None:
                assert "shootout" not in sentence.example.case


def test_donkey_differs_from_bhabho_by_its_trump() -> None:
    """X5: the sentence of a trump beating the suit led is among the differences."""
    first = build(*with_base("donkey")).sections[0]
    assert "rule-trump-beats" in {s.message_id for s in first.sentences}


def test_under_x1_nothing_is_said_of_the_leader_s_hand_being_taken() -> None:
    """X1: only the player about to lead takes, so whose lead it is after the leader's hand
    is taken cannot arise."""
    said = {s.message_id for s in build(*with_base("zymbiotic")).sentences()}
    assert "take-hand-when-leader-before-trick" in said
    assert not any(m.startswith("take-hand-lead-passes-to") for m in said)


def test_a_complete_trick_won_by_a_trump_says_so() -> None:
    """X5/H12: in a played-out trick the high card may be a trump of another suit."""
    plays = (Play(0, CardName("K", "H")), Play(1, CardName("2", "S")), Play(2, CardName("A", "H")))

    def said(high_seat: int) -> list[str]:
        events: list[Mapping[str, Any]] = [
            {"kind": "trick_ended", "how": "complete", "high_seat": high_seat}
        ]
        return [s.message_id for s in _outcome(plays, events)]

    assert said(1) == ["example-off-suit", "example-trump-highest"]
    assert said(2) == ["example-off-suit", "example-highest"]


def test_html_is_one_self_contained_page_for_phone_and_print() -> None:
    book = build(*with_base("pagat-getaway"))
    page = render(book, "en", "html")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert 'name="viewport"' in page and "@media print" in page and "size: A4" in page
    assert "http://" not in page.replace("https://www.pagat.com", "")
    assert "<script" not in page and "<link" not in page and "src=" not in page
    assert '<span class="black">♠</span>' in page and ".red {" in page
    assert page.count('<a class="ref" href="#clause-B8">') >= 1
    assert 'id="clause-B8"' in page and 'href="#glossary"' in page
    assert book.ruleset_hash in page and "Ruleset pagat-getaway" in page


def test_markdown_links_every_clause_reference_to_its_text() -> None:
    book = build(load_ruleset("bhabho"))
    page = render(book, "en", "markdown")
    for clause in book.clauses():
        assert f"[{clause}](#clause-{clause})" in page
        assert f'<a id="clause-{clause}"></a>' in page


def _explain(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "referee", "rules", "explain", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["no-such-ruleset"], "no bundled ruleset or file named 'no-such-ruleset'"),
        (["bhabho", "--lang", "xx"], "no rulebook language 'xx'"),
        (["bhabho", "--format", "pdf"], "no rulebook format 'pdf'"),
        (["missing/file.yaml"], "no such file"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], says: str) -> None:
    done = _explain(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr
    assert "Traceback" not in done.stderr


def test_explain_writes_the_file_named_by_o(tmp_path: Path) -> None:
    target = tmp_path / "book.md"
    done = _explain("rules/house/bhabho-own-turn.yaml", "--format", "markdown", "-o", str(target))
    assert done.returncode == 0, done.stderr
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# How to play Bhabho, take a hand on your own turn")
    assert '## <a id="differences"></a>How this differs from Bhabho / Laad' in text
    assert "[X1](#clause-X1)" in text


def test_values_of_clause_ids_come_from_the_schema() -> None:
    """Per-value IDs are read from the descriptions; a value naming none states the option's
    clauses that no other value names (C5 for the fixed rotations of the deal)."""
    assert clauses_of("deal.dealer_moves", "clockwise") == ("C5",)
    assert clauses_of("deal.dealer_moves", "bhabhi_deals") == ("H2",)
    assert clauses_of("first_trick.off_suit", "as_other_tricks") == ("H8",)
    assert clauses_of("take_hand.when", "never") == ()
    value: Value = True
    assert clauses_of("take_hand.consent", value) == ("H20",)


def _english(ruleset: Ruleset, message_id: str) -> str:
    words = Localizer("en")
    found = [words.sentence(s) for s in build(ruleset).sentences() if s.message_id == message_id]
    assert len(found) == 1, (message_id, found)
    return found[0]


@pytest.mark.parametrize(
    ("base", "settings", "message_id", "says", "never_says"),
    [
        # "the power" is Bhabho's word (B3): a pick-up trick winner just wins and leads (C8).
        ("bhabho", {}, "next-leader-after-complete-trick-highest", "has the power", "wins it"),
        ("pickup", {}, "next-leader-after-complete-trick-highest", "wins it", "power"),
        # A clean trick leaves the hand for good unless a waste pile matters (B5, V4).
        ("pickup", {}, "rule-trick-clean", "out of play", "waste pile"),
        ("bhabho", {}, "rule-trick-clean", "waste pile", "out of play"),
        (
            "pickup",
            {"off_suit.pickup_takes": "trick_and_waste"},
            "rule-trick-clean",
            "waste pile",
            "out of play",
        ),
        ("discard", {}, "rule-trick-complete", "out of play", "waste pile"),
        # The clock picks up only where a void player picks up (P1), and says it never
        # takes a hand only where hands can be taken (B9).
        ("bhabho", {}, "timeout-move-lowest-card", "never takes a hand", "picks up"),
        ("pickup", {}, "timeout-move-lowest-card", "picks up", "takes a hand"),
        # C6's fallback is stated as what would happen: a full deal always holds the card...
        ("bhabho", {}, "first-lead-if-absent-highest-of-suit", "Every deal includes", "If the"),
        # ... unless H1 can take it out (2S, the lowest card, with 8 players: 52 mod 8 = 4).
        (
            "pickup",
            {"deal.remainder": "remove_lowest", "first_lead.card": "2S"},
            "first-lead-if-absent-highest-of-suit",
            "is not in play",
            "Every deal",
        ),
        # D1 plays every trick out: the lead after it is not "after a clean trick" (D2).
        ("discard", {}, "next-leader-after-complete-trick-highest", "After every trick", "clean"),
        # A first trick played out with other suits in it counts as clean for the lead (B1).
        (
            "pickup",
            {"first_trick.off_suit": "discard"},
            "first-trick-next-leader-as-other-tricks",
            "counts as a clean trick",
            "any other trick",
        ),
        # B8: the winner of the last trick cannot get away, so the last players never all
        # go out together (C11); where the waste pile being empty lets them out, they can.
        ("bhabho", {}, "end-all-out-together-no-bhabhi", "cannot all go out", "If the last"),
        (
            "bhabho",
            {"next_leader.if_waste_empty": "goes_out"},
            "end-all-out-together-no-bhabhi",
            "If the last players all go out",
            "cannot",
        ),
        # Two left, play goes on, except where the shootout (H17) ends the hand.
        (
            "bhabho",
            {"end.shootout": "after_waste_draw"},
            "end-two-left-tochoo-wins-false",
            "except in the shootout",
            "{",
        ),
        ("bhabho", {}, "end-two-left-tochoo-wins-false", "at any other time.", "shootout"),
        # X1: only the leader takes, and the power starts at the second trick (B3).
        (
            "bhabho",
            {"take_hand.when": "leader_before_trick"},
            "take-hand-when-leader-before-trick",
            "Only the player about to lead",
            "power",
        ),
        # X5: a trump outranks the highest card of the suit led wherever that decides.
        ("bhabho", {"trump": "first_off_suit_card"}, "rule-trump-high", "highest trump", "{"),
        # H26 punishes a card out of turn on B1's first trick too: it can be picked up.
        (
            "bhabho",
            {"out_of_turn": "pickup_penalty"},
            "first-trick-off-suit-discard",
            "Unless a penalty below applies",
            "{",
        ),
        # Where the first trick is like the others (H8), a void player's card is a tochoo.
        (
            "bhabho",
            {"first_trick.off_suit": "as_other_tricks"},
            "first-trick-void-plays-any",
            "as a tochoo",
            "may play",
        ),
        # X4: with two packs the lead card is there twice; the first pack's copy leads.
        ("bhabho", {"deck.packs": 2}, "rule-lead-card-first-pack", "first pack", "{"),
        ("bhabho", {"deck.packs": 2}, "deck-packs", "in the game 2 times", "{"),
        # B1: nobody need wait for their turn on the first trick; the referee takes turns.
        ("bhabho", {}, "first-trick-off-suit-discard", "without waiting for their turn", "{"),
    ],
)
def test_a_sentence_reads_as_the_rest_of_the_rules_make_it(
    base: str, settings: dict[str, Any], message_id: str, says: str, never_says: str
) -> None:
    text = _english(ruleset_with(settings, base), message_id)
    assert says in text
    assert never_says not in text


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"off_suit.play": "pickup"},
        {"off_suit.play": "pickup", "take_hand.when": "never"},
        {"off_suit.play": "pickup", "take_hand.when": "never", "end.at_dead_position": "play_on"},
        {
            "off_suit.play": "pickup",
            "take_hand.when": "never",
            "next_leader.if_out": "next_highest",
        },
        {"off_suit.play": "discard", "take_hand.when": "never"},
    ],
)
def test_the_book_says_a_dead_position_is_looked_for_where_the_engine_looks(
    settings: dict[str, Any],
) -> None:
    """H31: the book's "the referee sees this" must hold exactly where the engine's dead
    position detector runs (the rulebook may not import the engine, so it states the
    condition itself; this test keeps the two together)."""
    ruleset = ruleset_with(settings)
    detects = detects_dead_positions(RuleBook.of(ruleset))
    [sentence] = [s for s in build(ruleset).sentences() if "end.at_dead_position" in s.options]
    assert sentence.args["detected"] == ("yes" if detects else "no")


@pytest.mark.parametrize("players", [3, 5, 7, 8])
@pytest.mark.parametrize(("card", "ace"), [("2S", "high"), ("AS", "low"), ("2C", "high")])
def test_the_book_says_the_lead_card_can_be_out_where_the_deal_takes_it_out(
    players: int, card: str, ace: str
) -> None:
    """C6 with H1: the fallback is a rule where some player count's deal takes the lead card
    out (the engine's removed_cards), and what would happen everywhere else."""
    settings: dict[str, Any] = {
        "deal.remainder": "remove_lowest",
        "first_lead.card": card,
        "deck.ace": ace,
    }
    settings |= {"players.min": 3, "players.max": players}
    ruleset = ruleset_with(settings, "pickup")
    book = RuleBook.of(ruleset)
    lead = book.first_lead_card
    out = any(lead in removed_cards(book, n) for n in range(3, players + 1))
    [sentence] = [s for s in build(ruleset).sentences() if "first_lead.if_absent" in s.options]
    assert sentence.args["dealt"] == ("no" if out else "yes")
