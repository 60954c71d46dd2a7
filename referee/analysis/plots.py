"""The plots of ``bhabhi analyze --html``, drawn by matplotlib as inline SVG.

Each function takes one player count's figures (``figures.figures``) for one ruleset, or
for two (``--against``: the second is drawn over the first), and returns the ``<svg>``
element as text, ready to stand in the page: no XML declaration, no fixed size (the page's
CSS scales it to the column), text kept as text (``svg.fonttype: none``, drawn in the
reader's sans-serif font, so nothing is fetched), ids made unique per plot (``svg.hashsalt``)
so that several plots can share a page, and no date (the same run, the same bytes).

matplotlib is imported on first use, so that only ``--html`` pays for loading it; the
``Figure`` is drawn without pyplot (no global figure, no GUI), on the Agg backend.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

Series = tuple[str, Mapping[str, Any]]
"""(a ruleset's label, one player count's figures)."""

COLOURS = ("#1d4f91", "#c8102e")
"""The first ruleset in the rulebook's link blue, the second (``--against``) in its red."""
HISTOGRAM_BARS = 60
"""At most this many bars: a long bound (pick-up hands that never end) is binned coarser."""
SIZE = (5.6, 3.4)
"""Inches; only the proportions matter, the page scales the plot to its column."""


def length_plot(series: Sequence[Series], key: str) -> str:
    """The length distribution: the share of hands by their number of tricks."""
    return _draw(_length, series, key)


def _length(axes: Any, series: Sequence[Series]) -> None:
    from matplotlib.ticker import MaxNLocator

    width = _bin_width(series)
    for colour, (label, data) in zip(COLOURS, series, strict=False):
        hands = data["hands"]
        bins: dict[int, int] = {}
        for tricks, count in data["tricks_histogram"].items():
            start = int(tricks) // width * width
            bins[start] = bins.get(start, 0) + count
        if not bins:
            continue
        starts = list(range(min(bins), max(bins) + 1, width))
        shares = [bins.get(start, 0) / hands for start in starts]
        edges = [start - 0.5 for start in starts] + [starts[-1] + width - 0.5]
        if len(series) == 1:
            axes.stairs(shares, edges, fill=True, color=colour, alpha=0.85, label=label)
        else:  # two outlines, so that neither hides the other
            axes.stairs(shares, edges, color=colour, linewidth=1.6, label=label)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("tricks in the hand" + (f" (bars of {width})" if width > 1 else ""))
    axes.set_ylabel("share of hands")


def seat_plot(series: Sequence[Series], key: str) -> str:
    """Each seat's Bhabhi rate (by offset from the dealer) with its 95% interval, and the
    fair rate as a line."""
    return _draw(_seat, series, key)


def _seat(axes: Any, series: Sequence[Series]) -> None:
    shift = 0.12 if len(series) > 1 else 0.0
    for index, (colour, (label, data)) in enumerate(zip(COLOURS, series, strict=False)):
        seats = data["seats"]
        xs = [seat["offset"] + (index - (len(series) - 1) / 2) * 2 * shift for seat in seats]
        rates = [seat["bhabhi_rate"] for seat in seats]
        below = [seat["bhabhi_rate"] - seat["ci95"][0] for seat in seats]
        above = [seat["ci95"][1] - seat["bhabhi_rate"] for seat in seats]
        axes.errorbar(xs, rates, yerr=[below, above], fmt="o", color=colour, capsize=4, label=label)
        fair = data["fairness"]["fair_rate"]
        axes.axhline(fair, color=colour, linestyle="--", linewidth=1, label=f"fair ({label})")
    offsets = [seat["offset"] for seat in series[0][1]["seats"]]
    axes.set_xticks(offsets, ["dealer" if o == 0 else f"+{o}" for o in offsets])
    axes.set_xlabel("seat, counted from the dealer in the direction of play")
    axes.set_ylabel("Bhabhi rate")
    axes.set_ylim(bottom=0)


def dealt_plot(series: Sequence[Series], key: str) -> str:
    """The Bhabhi rate of a seat by the number of cards it was dealt, with 95% intervals."""
    return _draw(_dealt, series, key)


def _dealt(axes: Any, series: Sequence[Series]) -> None:
    for colour, (label, data) in zip(COLOURS, series, strict=False):
        groups = data["fairness"]["by_cards_dealt"]
        cards = [int(n) for n in groups]
        rates = [group["bhabhi_rate"] for group in groups.values()]
        below = [g["bhabhi_rate"] - g["ci95"][0] for g in groups.values()]
        above = [g["ci95"][1] - g["bhabhi_rate"] for g in groups.values()]
        axes.errorbar(
            cards, rates, yerr=[below, above], fmt="o", color=colour, capsize=4, label=label
        )
    cards_seen = sorted({int(n) for _, d in series for n in d["fairness"]["by_cards_dealt"]})
    axes.set_xticks(cards_seen, [str(n) for n in cards_seen])
    if len(cards_seen) == 1:
        axes.set_xlim(cards_seen[0] - 1, cards_seen[0] + 1)
    axes.set_xlabel("cards dealt to the seat")
    axes.set_ylabel("Bhabhi rate")
    axes.set_ylim(0, 1.02)


def curve_plot(series: Sequence[Series], key: str) -> str:
    """The decisiveness curve: the share of hands whose Bhabhi can be told by each tenth
    of the hand."""
    return _draw(_curve, series, key)


def _curve(axes: Any, series: Sequence[Series]) -> None:
    for colour, (label, data) in zip(COLOURS, series, strict=False):
        curve = data["decisiveness"]["curve"]
        steps = len(curve) - 1
        axes.plot(
            [k / steps for k in range(steps + 1)],
            curve,
            marker="o",
            color=colour,
            label=label,
            drawstyle="steps-post",
        )
    axes.set_xlabel("share of the hand played (0: after the deal)")
    axes.set_ylabel("share of hands: Bhabhi known")
    axes.set_xlim(-0.02, 1.02)
    axes.set_ylim(0, 1.02)


def _bin_width(series: Sequence[Series]) -> int:
    spans = [
        int(max(hist, key=int)) - int(min(hist, key=int)) + 1
        for _, data in series
        if (hist := data["tricks_histogram"])
    ]
    return max(1, math.ceil(max(spans, default=1) / HISTOGRAM_BARS))


def _draw(draw: Any, series: Sequence[Series], key: str) -> str:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    # Text as text, measured in DejaVu Sans (matplotlib's own) and drawn in the reader's
    # sans-serif; 11 points on a plot of SIZE stay readable scaled to a phone's width.
    with matplotlib.rc_context(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": key,
            "font.family": "sans-serif",
            "font.sans-serif": ["DejaVu Sans"],
            "font.size": 11,
        }
    ):
        figure = Figure(figsize=SIZE, layout="constrained")
        axes = figure.subplots()
        axes.grid(True, color="#ddd", linewidth=0.6)
        axes.set_axisbelow(True)
        for side in ("top", "right"):
            axes.spines[side].set_visible(False)
        draw(axes, series)
        return _finish(figure, axes, series, key)


_SIZE_ATTRIBUTES = re.compile(r'\s(?:width|height)="[^"]*"')
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)
_IDS = re.compile(r'(\bid="|href="#|url\(#)([^")]+)')
"""An id and every reference to one: matplotlib names its groups ``figure_1``, ``axes_1``...
in every plot alike, so each plot's are prefixed with its key."""
_FONT = re.compile(r"font-family:[^;\"]*;")
"""A font name the reader may not have: the browser's own sans-serif draws the text."""


def _finish(figure: Any, axes: Any, series: Sequence[Series], key: str) -> str:
    """The figure as an ``<svg>`` element whose ids start from ``key`` (unique on the page)."""
    if len(series) > 1 or axes.get_legend_handles_labels()[1][1:]:
        axes.legend(fontsize="small", frameon=False)
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    start = text.index("<svg")
    end = text.index(">", start)
    head = _SIZE_ATTRIBUTES.sub("", text[start:end])
    body = _METADATA.sub("", text[end:])
    body = _IDS.sub(lambda m: f"{m.group(1)}{key}-{m.group(2)}", body)
    body = _FONT.sub("font-family: sans-serif;", body)
    return head + body.rstrip() + "\n"
