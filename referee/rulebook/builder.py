"""The rulebook of a resolved ruleset: its sections in reading order, and for a house variant
a first section of how it differs from its base.

Sections follow the course of a game (what it is, the cards, the deal, the first trick,
following suit, the lead, getting out, taking a hand, the end of a hand, sessions, the
referee's table), then where the rules come from and the glossary of the game's names.
An option is stated where it has an effect: ``if_waste_empty`` only where the power draws
from the waste pile, the trump suit only with a fixed trump; every option that has an effect
is stated at its value, defaults included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from referee.rulebook import ending, opening, play
from referee.rulebook.clause_ids import options
from referee.rulebook.examples import Case, examples_for
from referee.rulebook.model import CardName, Example, Rulebook, Section, Sentence
from referee.rulebook.sentences import raw_value
from referee.ruleset.clauses import followed
from referee.ruleset.model import Ruleset

SECTIONS: tuple[tuple[str, Callable[[Ruleset], list[Sentence]]], ...] = (
    ("game", opening.game),
    ("cards", opening.cards),
    ("deal", opening.deal),
    ("first-trick", opening.first_trick),
    ("following", play.following),
    ("leading", play.leading),
    ("getting-out", play.getting_out),
    ("taking", play.taking),
    ("end", ending.end_of_hand),
    ("session", ending.session),
    ("table", ending.table),
)
"""Every section's key (its anchor, and its heading's message ``section-KEY``) and builder."""

EXAMPLE_SECTIONS = ("first-trick", "following", "leading", "getting-out", "end")
"""The sections about tricks, where a worked example (a trick of a case) shows a rule."""

GLOSSARY = ("bhabhi", "getaway", "thulla", "tochoo", "bhabho", "laad", "kazhutha", "vettu", "haath")
"""The game's regional names, each the message ``glossary-NAME`` (its ``.term`` the word)."""


def build(ruleset: Ruleset, base: Ruleset | None = None) -> Rulebook:
    """The rulebook of ``ruleset``; with the ruleset it ``extends``, how it differs comes first."""
    follows = followed(ruleset.source)

    def stated(sentence: Sentence) -> Sentence:
        # A sentence states the clauses its option names that the ruleset follows: "no
        # shootout" does not state H17, nor one pack X4 (referee.ruleset.clauses decides).
        kept = tuple(c for c in sentence.clauses if follows.get(c, True))
        return replace(sentence, clauses=kept)

    def own(sentence: Sentence) -> bool:
        # A house variant that keeps its base's description would describe the base
        # ("you may take your neighbour's hand" above a variant that forbids it).
        inherited = base is not None and ruleset.description == base.description
        return not (inherited and sentence.message_id == "ruleset-description")

    sections = [
        Section(
            key,
            Sentence(f"section-{key}"),
            tuple(stated(s) for s in make(ruleset) if own(s)),
        )
        for key, make in SECTIONS
    ]
    sections = with_examples(sections, examples_for(ruleset), ruleset)
    if ruleset.sources:
        sections.append(_sources(ruleset))
    glossary = tuple(Sentence(f"glossary-{word}") for word in GLOSSARY)
    sections.append(Section("glossary", Sentence("section-glossary"), glossary))
    if base is not None:
        sections.insert(0, differences(ruleset, base, sections))
    return Rulebook(
        title=Sentence("rulebook-title", {"title": ruleset.title}),
        sections=tuple(sections),
        ruleset_id=ruleset.id,
        ruleset_hash=ruleset.hash,
        base_id=base.id if base is not None else None,
    )


SECTION_SHOWS = {
    "first-trick": frozenset({"opens-with-the-card"}),
    "following": frozenset({"tochoo", "cannot-follow", "off-suit"}),
    "leading": frozenset({"leads"}),
    "getting-out": frozenset({"out"}),
    "end": frozenset({"bhabhi"}),
}
"""What a trick section's example is best at showing, by the worked example's outcome
messages (``example-tochoo`` …): under "Following suit", a player who cannot follow; under
"The end of a hand", the Bhabhi; under "The first trick", the lead card opening it."""


SECTION_SUBJECT = {
    "first-trick": frozenset({"first_lead.leads"}),
    "following": frozenset({"off_suit.play"}),
    "leading": frozenset({"next_leader.after_complete_trick", "next_leader.after_pickup"}),
}
"""The options of the sentence a section's example goes under first, when a trick fits it:
a tochoo under the tochoo's own rule (B4) rather than under "follow suit" (C7)."""


def with_examples(
    sections: list[Section], cases: tuple[Case, ...], ruleset: Ruleset
) -> list[Section]:
    """One worked example in each trick section, under the sentence it shows.

    Of the pairs of a sentence and a trick that shows what the section is about
    (SECTION_SHOWS), of a case that checks one of the sentence's clauses, shown is the
    trick under the sentence of the section's subject (SECTION_SUBJECT), whose outcome says
    least besides, then the most focused case (fewest clauses,
    then fewest steps, then by name) and its last trick (where a case usually ends up at
    the point it checks); each case once.  "The first trick" shows a first trick only, and
    no other section shows one; a section with no such trick has no example."""
    used: set[str] = set()
    shown = []
    for section in sections:
        if section.key not in EXAMPLE_SECTIONS:
            shown.append(section)
            continue
        wanted = SECTION_SHOWS[section.key]
        candidates = [
            (
                not set(sentence.options) & SECTION_SUBJECT.get(section.key, set()),
                len(example.outcome),
                len(case.clauses),
                case.steps,
                case.name,
                -example.trick,
                index,
                example,
            )
            for index, sentence in enumerate(section.sentences)
            for case in cases
            if case.name not in used and set(sentence.clauses) & set(case.clauses)
            for example in _tricks_of(case, section.key == "first-trick")
            if wanted & _shows(example, ruleset) and _fits(sentence, example)
        ]
        if not candidates:
            shown.append(section)
            continue
        *_, name, _, index, example = min(candidates, key=lambda c: c[:7])
        used.add(name)
        sentences = list(section.sentences)
        sentences[index] = replace(sentences[index], example=example)
        shown.append(replace(section, sentences=tuple(sentences)))
    return shown


ABOUT_CLEAN_TRICKS = frozenset({"next_leader.after_complete_trick"})
ABOUT_PICKUPS = frozenset(
    {"next_leader.after_pickup", "off_suit.tochoo_picked_up_by", "off_suit.pickup_takes"}
)
"""Options whose sentences speak of one kind of trick only: a trick that was picked up is
no example of who leads after a clean trick (C8), nor a clean one of who picks up (P1, B6)."""


def _fits(sentence: Sentence, example: Example) -> bool:
    """The example's trick is of the kind the sentence speaks of, when it speaks of one."""
    shows = {s.message_id for s in example.outcome}
    picked_up = "example-picks-up" in shows
    if set(sentence.options) & ABOUT_CLEAN_TRICKS or sentence.message_id in (
        "rule-trick-clean",
        "rule-trick-complete",
    ):
        return not picked_up
    if set(sentence.options) & ABOUT_PICKUPS:
        return picked_up
    return True


def _shows(example: Example, ruleset: Ruleset) -> frozenset[str]:
    """What the example shows: its outcome messages' names, and ``opens-with-the-card``
    for a first trick led with the ruleset's lead card (C6)."""
    shows = {s.message_id.removeprefix("example-") for s in example.outcome}
    lead = ruleset.first_lead.card
    opened_with = example.plays[0].card if example.plays else None
    if example.trick == 0 and lead is not None and opened_with == CardName.of(lead):
        shows.add("opens-with-the-card")
    return frozenset(shows)


def _tricks_of(case: Case, first: bool) -> tuple[Example, ...]:
    if first:
        return case.tricks[:1] if case.tricks[0].trick == 0 else ()
    # The first trick has rules of its own (B1, X3): it shows only "The first trick".
    return tuple(t for t in case.tricks if t.trick > 0)


def changed_options(ruleset: Ruleset, base: Ruleset) -> list[str]:
    """The options whose values differ, in schema order (left-out ones at their defaults)."""
    return [o.path for o in options() if raw_value(ruleset, o.path) != raw_value(base, o.path)]


def differences(ruleset: Ruleset, base: Ruleset, sections: list[Section]) -> Section:
    """The sentences of the options the variant changes, as the book below states them.

    An option changed where it has no effect (the waste draw of a game without the power
    rule) changes nothing at the table and is not listed."""
    changed = set(changed_options(ruleset, base))
    stated: list[Sentence] = []
    for section in sections:
        for sentence in section.sentences:
            plain = replace(sentence, example=None)  # the example stands in the book below
            if changed & set(sentence.options) and plain not in stated:
                stated.append(plain)
    intro = "differences-intro" if stated else "differences-none"
    return Section(
        "differences",
        Sentence("section-differences", {"base": base.title}),
        (Sentence(intro, {"base": base.title}), *stated),
    )


def _sources(ruleset: Ruleset) -> Section:
    sentences = []
    for source in ruleset.sources:
        if source.follows:
            args = {"name": source.name, "follows": source.follows}
            sentences.append(Sentence("source-follows", dict(args)))
        else:
            sentences.append(Sentence("source-named", {"name": source.name}))
    return Section("sources", Sentence("section-sources"), tuple(sentences))
