"""One enum of refusal reasons: the proto's ``RefusalReason``, the referee's messages and the
engine's illegal actions all say the same codes as ``referee.reasons.Reason``."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

from bhabhi.referee.v1 import referee_pb2 as pb

from referee.engine import IllegalActionError
from referee.reasons import ENGINE_REASONS, Reason
from referee.server.errors import LANGUAGES, MESSAGES, Refusal


def test_the_proto_enum_names_every_reason_and_no_other() -> None:
    names = {
        name.removeprefix("REFUSAL_REASON_").lower()
        for name in pb.RefusalReason.DESCRIPTOR.values_by_name
        if name != "REFUSAL_REASON_UNSPECIFIED"
    }
    assert names == {r.value for r in Reason}


def test_the_proto_enum_keeps_its_numbers() -> None:
    """New reasons are appended: a number, once given, keeps its reason."""
    for number, reason in enumerate(Reason, 1):
        assert pb.RefusalReason.Value(f"REFUSAL_REASON_{reason.name}") == number


def test_every_reason_has_a_message_in_every_language() -> None:
    assert set(MESSAGES) == set(Reason)
    for reason in Reason:
        fields = {
            name
            for template in MESSAGES[reason][1:]
            for _, name, _, _ in string.Formatter().parse(template)
            if name
        }
        params: dict[str, Any] = {name: "x" for name in fields}
        refusal = Refusal(reason, **params)
        for language in LANGUAGES:
            text = refusal.message(language)
            assert text and "{" not in text, (reason, language, text)


def test_the_engine_refuses_with_the_referee_s_reasons() -> None:
    assert Reason.MUST_FOLLOW_SUIT in ENGINE_REASONS
    assert Reason.STALE_SEQ not in ENGINE_REASONS
    error = IllegalActionError(Reason.NOT_YOUR_TURN, "seat 1's turn", seat=0)
    assert isinstance(error.reason, Reason)


def test_the_referee_docs_table_names_every_reason() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "referee.md").read_text()
    table = text[text.index("| reason | status | when |") :].split("\n\n")[0]
    named = set(re.findall(r"`([a-z_]+)`", table))
    assert {r.value for r in Reason} <= named, sorted({r.value for r in Reason} - named)
