"""Hostile ruleset texts, made by code: each stays under the size limit (or just over it) and
aims at one structural limit of the loader, the way an upload to ``ValidateRuleset`` might.

``python tests/hostile_rulesets.py`` prints the CPU time ``resolve_text`` takes on each, and on
a bundled ruleset for comparison.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path


def many_keys(count: int = 20_000) -> str:
    """Plain keys, no aliases: ``key_00000: 1`` ... (20,000 of them: 260,013 bytes)."""
    return "id: x\n" + "".join(f"key_{i:05d}: 1\n" for i in range(count))


def deep_flow_mappings(depth: int = 1_000) -> str:
    """``a: {a: {a: ... 1}}`` nested ``depth`` levels on one line."""
    return "a: " + "{a: " * depth + "1" + "}" * depth + "\n"


def deep_flow_lists(depth: int = 1_000) -> str:
    """``a: [[[...]]]`` nested ``depth`` levels."""
    return "a: " + "[" * depth + "]" * depth + "\n"


def deep_block_mappings(depth: int = 700) -> str:
    """Block mappings one space deeper per level; 700 levels is what fits in 256 KiB."""
    return "".join(" " * i + "a:\n" for i in range(depth)) + " " * depth + "b: 1\n"


def deep_block_lists(depth: int = 1_000) -> str:
    """``a:`` then ``- - - ... 1``: block lists nested ``depth`` levels on one line."""
    return "a:\n" + "- " * depth + "1\n"


def many_items(count: int = 100_000) -> str:
    """One flow list of ``count`` items (200 kB for 100,000)."""
    return "id: x\nclauses: [" + "1," * (count - 1) + "1]\n"


def long_string(chars: int = 250_000) -> str:
    """One quoted string of ``chars`` characters."""
    return 'id: x\ntitle:\n  en: "' + "x" * chars + '"\n'


def long_plain_string(chars: int = 250_000) -> str:
    """One plain (unquoted) scalar of ``chars`` characters."""
    return "id: x\ndescription:\n  en: " + "x" * chars + "\n"


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    """The classic alias bomb: each level is a list of ``width`` aliases of the level before, so
    the last one expands to ``width ** levels`` values (387,420,489 for 9 x 9)."""
    lines = ["a0: &a0 lol"]
    for level in range(1, levels + 1):
        aliases = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{aliases}]")
    return "\n".join(lines) + "\n"


def many_anchors(count: int = 20_000) -> str:
    """Every list item anchored (``&a0 1, &a1 1, ...``) and no alias at all."""
    return "id: x\nclauses: [" + ", ".join(f"&a{i} 1" for i in range(count)) + "]\n"


def many_aliases(count: int = 50_000) -> str:
    """One anchor and ``count`` aliases of it."""
    return "id: x\nbase: &b 1\nclauses: [" + ", ".join(["*b"] * count) + "]\n"


def too_large(size: int = 300_000) -> str:
    """Comments past the size limit."""
    return "id: x\n" + "#" * (size - 7) + "\n"


HOSTILE: dict[str, Callable[[], str]] = {
    "many-keys": many_keys,
    "deep-flow-mappings": deep_flow_mappings,
    "deep-flow-lists": deep_flow_lists,
    "deep-block-mappings": deep_block_mappings,
    "deep-block-lists": deep_block_lists,
    "many-items": many_items,
    "long-string": long_string,
    "long-plain-string": long_plain_string,
    "billion-laughs": billion_laughs,
    "many-anchors": many_anchors,
    "many-aliases": many_aliases,
    "too-large": too_large,
}


def _cpu_ms(call: Callable[[], object], rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    """Print, for each text, its size, the CPU time to refuse it (best of 3) and the reason."""
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from referee.ruleset.loader import resolve_text

    texts = {"rules/bhabho.yaml": (root / "rules" / "bhabho.yaml").read_text(encoding="utf-8")}
    texts.update({name: make() for name, make in HOSTILE.items()})
    resolve_text(texts["rules/bhabho.yaml"], "upload.yaml", {})  # schema and caches loaded
    for name, text in texts.items():
        _, problems = resolve_text(text, "upload.yaml", {})
        ms = _cpu_ms(functools.partial(resolve_text, text, "upload.yaml", {}))
        first = problems[0] if problems else None
        reason = f"{len(problems)} x {first.code} at {first.line}:{first.column}" if first else "ok"
        print(f"{name:22} {len(text.encode()):>8} B {ms:9.1f} ms  {reason}")


if __name__ == "__main__":
    main()
