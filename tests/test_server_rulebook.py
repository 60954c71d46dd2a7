"""GetRulebook over gRPC: the referee writes the same rulebook as ``bhabhi rules explain``
for every hosted ruleset, a registered house variant's starting with how it differs from
its base.  The refusals are in test_server_refusals.py."""

from __future__ import annotations

from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import referee, run_async

from referee import rulebook
from referee.rulebook.loading import with_base
from referee.ruleset.loader import load_ruleset, load_ruleset_text

HOUSE = """\
id: house-tochoo-pickup
extends: bhabho
title: {en: Our Bhabho, de: Unser Bhabho, pl: Nasze Bhabho}
description: {en: Ours., de: Unsere., pl: Nasze.}
end: {two_left_pickup_loses: true}
"""


@run_async
async def test_every_bundled_ruleset_s_rulebook_is_the_cli_s() -> None:
    async with referee() as ref:
        listed = await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())
        for summary in listed.rulesets:
            got = await ref.rulesets.GetRulebook(pb.GetRulebookRequest(ruleset_id=summary.id))
            expected = rulebook.render(rulebook.build(*with_base(summary.id)), "en", "text")
            assert got.text == expected, summary.id
            assert (got.language, got.format) == ("en", pb.RULEBOOK_FORMAT_TEXT)
            assert got.media_type == "text/plain; charset=utf-8"
            assert got.ruleset.hash == summary.hash


@run_async
async def test_every_language_and_format() -> None:
    media = {
        pb.RULEBOOK_FORMAT_TEXT: ("text", "text/plain"),
        pb.RULEBOOK_FORMAT_MARKDOWN: ("markdown", "text/markdown"),
        pb.RULEBOOK_FORMAT_HTML: ("html", "text/html"),
    }
    book = rulebook.build(load_ruleset("pickup"))
    async with referee() as ref:
        for language in rulebook.languages():
            for number, (name, media_type) in media.items():
                got = await ref.rulesets.GetRulebook(
                    pb.GetRulebookRequest(ruleset_id="pickup", language=language, format=number)
                )
                assert got.text == rulebook.render(book, language, name), (language, name)
                assert got.media_type == f"{media_type}; charset=utf-8"
                assert (got.language, got.format) == (language, number)


@run_async
async def test_a_registered_variant_s_rulebook_starts_with_how_it_differs() -> None:
    async with referee(allow_register=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE))
        got = await ref.rulesets.GetRulebook(
            pb.GetRulebookRequest(
                ruleset_id="house-tochoo-pickup", format=pb.RULEBOOK_FORMAT_MARKDOWN
            )
        )
    variant = load_ruleset_text(HOUSE, "upload.yaml")
    expected = rulebook.build(variant, load_ruleset("bhabho"))
    assert got.text == rulebook.render(expected, "en", "markdown")
    assert expected.sections[0].key == "differences"
    assert len(expected.sections[0].sentences) > 1  # the changed option is stated
    assert "How this differs from Bhabho" in got.text
    assert got.ruleset.origin == pb.RULESET_ORIGIN_REGISTERED


@run_async
async def test_without_a_language_the_book_is_in_the_callers_accept_language() -> None:
    """A browser asks with its own accept-language and no language field: it gets the
    first language of its preference the referee writes (Polish here), and is told which;
    with none of them, English.  An explicit language always wins."""
    asked = pb.GetRulebookRequest(ruleset_id="pickup")
    async with referee() as ref:
        polish = await ref.rulesets.GetRulebook(
            asked, metadata=(("accept-language", "fr-FR, pl;q=0.9, de;q=0.8"),)
        )
        neither = await ref.rulesets.GetRulebook(
            asked, metadata=(("accept-language", "fr, ja;q=0.5"),)
        )
        told = await ref.rulesets.GetRulebook(
            pb.GetRulebookRequest(ruleset_id="pickup", language="de"),
            metadata=(("accept-language", "pl"),),
        )
    book = rulebook.build(load_ruleset("pickup"))
    assert (polish.language, polish.text) == ("pl", rulebook.render(book, "pl", "text"))
    assert neither.language == "en"
    assert told.language == "de"
