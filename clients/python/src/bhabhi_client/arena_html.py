"""``bhabhi arena --html``: the league as one self-contained page with two plots.

The plots are inline SVG written here (no plotting library: the client package is installed
on its own by people who write bots, and matplotlib is the referee's dependency, not its).
Nothing is fetched: the page reads the same saved or mailed.  It shows the entrants (the
terminal table), each entrant's rating after every hand, each entrant's Bhabhi rate with
its 95% interval, the crosstable, and every hand with its table and seeds, so that a hand
can be exported from the referee and checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from bhabhi_client.arena_report import Rating

COLOURS = ("#1d4f91", "#c0392b", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f8c8d")
"""One colour per entrant, in the order the entrants were given (repeating past seven)."""

WIDTH, HEIGHT, MARGIN = 640, 300, 48
"""The plots' size and the room kept for their axes' labels, in SVG units."""

STYLE = """
body { margin: 0; font: 1rem/1.5 Georgia, "Times New Roman", serif; color: #1a1a1a; }
main { max-width: 52rem; margin: 0 auto; padding: 1.25rem 1rem 2rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 0.6rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font: 0.85rem/1.4 system-ui, sans-serif; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #e5e5e5; text-align: right; }
th:first-child, td:first-child { text-align: left; }
svg { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
.scroll { overflow-x: auto; }
"""


def page(doc: dict[str, Any], history: Sequence[dict[str, Rating]]) -> str:
    """The page of a league: ``doc`` is the ``--json`` document, ``history`` every
    entrant's rating before the first hand and after each one (``rating_history``)."""
    names = [e["name"] for e in doc["entrants"]]
    colour = {name: COLOURS[i % len(COLOURS)] for i, name in enumerate(names)}
    # With more entrants than players the page says so first: an entrant's hands are then
    # fewer than the league's, and the crosstable differs from the entrants' own rates.
    grouped = len(names) != doc["players"]
    title = (
        f"Arena: {doc['rules']}, {doc['players']} players"
        f"{f', {len(names)} entrants' if grouped else ''}, {doc['deals']} deals, seed {doc['seed']}"
    )
    if not grouped:
        played = (
            f"every deal in each of {doc['rotations']} rotations of the entrants over the seats"
        )
    else:
        played = (
            f"every deal played by each of the {doc['groups']} groups of {doc['players']} of "
            f"the {len(names)} entrants, each group in {doc['rotations']} rotations over the "
            "seats (so an entrant plays only some of the hands, and every pair meets as often)"
        )
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body><main>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{len(doc['hands'])} hands: {played}, dealt from the seed <code>{escape(doc['seed'])}"
        ":DEAL</code>. Rating: openskill's Plackett-Luce model, the ordinal "
        "(mu − 3 sigma).</p>",
        "<h2>Entrants</h2>",
        _entrants_table(doc["entrants"]),
        "<h2>Rating after each hand</h2>",
        _rating_plot(history, names, colour),
        "<h2>Bhabhi rate with its 95% interval</h2>",
        _rate_plot(doc["entrants"], colour),
        "<h2>Crosstable</h2>",
        "<p>A row's Bhabhi rate in the hands where the column's entrant sat too.</p>",
        _crosstable(doc["crosstable"], names),
        "<h2>Hands</h2>",
        _hands_table(doc["hands"]),
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _percent(rate: float) -> str:
    return f"{rate:.1%}"


def _interval(ci: Sequence[float]) -> str:
    return f"[{_percent(ci[0])}, {_percent(ci[1])}]"


def _entrants_table(entrants: Sequence[dict[str, Any]]) -> str:
    rows = [
        "<tr><th>entrant</th><th>rating</th><th>mu</th><th>sigma</th><th>hands</th>"
        "<th>Bhabhi</th><th>rate</th><th>95% interval</th><th>failures</th></tr>"
    ]
    for e in sorted(entrants, key=lambda e: e["rating"], reverse=True):
        rows.append(
            f"<tr><td>{escape(e['name'])}</td><td>{e['rating']:.2f}</td><td>{e['mu']:.2f}</td>"
            f"<td>{e['sigma']:.2f}</td><td>{e['hands']}</td><td>{e['bhabhis']}</td>"
            f"<td>{_percent(e['bhabhi_rate'])}</td><td>{_interval(e['ci95'])}</td>"
            f"<td>{e['failures']}</td></tr>"
        )
    return '<div class="scroll"><table>' + "".join(rows) + "</table></div>"


def _svg(body: list[str], label: str, height: float = HEIGHT) -> str:
    return (
        f'<svg viewBox="0 0 {WIDTH} {height:.0f}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg">' + "".join(body) + "</svg>"
    )


def _rating_plot(
    history: Sequence[dict[str, Rating]], names: Sequence[str], colour: dict[str, str]
) -> str:
    """Each entrant's ordinal after each hand (hand 0: before the first), one line each."""
    values = [h[name].ordinal for h in history for name in names]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    hands = max(1, len(history) - 1)
    left, right, top, bottom = MARGIN, WIDTH - 120, 16, HEIGHT - MARGIN

    def x(i: int) -> float:
        return left + (right - left) * i / hands

    def y(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    body = _axes(left, right, top, bottom)
    body.append(_text(left - 6, y(high) + 4, f"{high:.1f}", "end"))
    body.append(_text(left - 6, y(low) + 4, f"{low:.1f}", "end"))
    body.append(_text(left, bottom + 16, "0", "middle"))
    body.append(_text(right, bottom + 16, str(hands), "middle"))
    body.append(_text((left + right) / 2, bottom + 34, "hands played", "middle"))
    for k, name in enumerate(names):
        points = " ".join(f"{x(i):.1f},{y(h[name].ordinal):.1f}" for i, h in enumerate(history))
        body.append(
            f'<polyline fill="none" stroke="{colour[name]}" stroke-width="2" '
            f'points="{points}"><title>{escape(name)}</title></polyline>'
        )
        body.append(
            f'<rect x="{right + 12}" y="{top + 18 * k}" width="10" height="10" '
            f'fill="{colour[name]}"/>'
        )
        body.append(_text(right + 28, top + 18 * k + 9, name, "start"))
    return _svg(body, "each entrant's rating after each hand")


def _rate_plot(entrants: Sequence[dict[str, Any]], colour: dict[str, str]) -> str:
    """Each entrant's Bhabhi rate (a dot) and its 95% interval (a bar), 0 to 100%."""
    left, right, top = 120, WIDTH - 24, 16
    row = min(36, (HEIGHT - MARGIN - top) / max(1, len(entrants)))
    bottom = top + row * len(entrants)

    def x(rate: float) -> float:
        return left + (right - left) * rate

    body = _axes(left, right, top, bottom)
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        body.append(_text(x(tick), bottom + 16, f"{tick:.0%}", "middle"))
    for k, e in enumerate(entrants):
        centre = top + row * (k + 0.5)
        lo, hi = e["ci95"]
        body.append(_text(left - 8, centre + 4, e["name"], "end"))
        body.append(
            f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{centre:.1f}" y2="{centre:.1f}" '
            f'stroke="{colour[e["name"]]}" stroke-width="3"/>'
        )
        body.append(
            f'<circle cx="{x(e["bhabhi_rate"]):.1f}" cy="{centre:.1f}" r="5" '
            f'fill="{colour[e["name"]]}"><title>{escape(e["name"])}: '
            f"{_percent(e['bhabhi_rate'])} {_interval(e['ci95'])}</title></circle>"
        )
    return _svg(body, "each entrant's Bhabhi rate with its 95% interval", bottom + 28)


def _axes(left: float, right: float, top: float, bottom: float) -> list[str]:
    return [
        f'<line x1="{left}" x2="{left}" y1="{top}" y2="{bottom}" stroke="#555"/>',
        f'<line x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}" stroke="#555"/>',
    ]


def _text(x: float, y: float, text: str, anchor: str) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{escape(text)}</text>'


def _crosstable(cross: dict[str, dict[str, dict[str, Any]]], names: Sequence[str]) -> str:
    head = "<tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"
    rows = [head]
    for a in names:
        cells = []
        for b in names:
            cell = cross[a].get(b)
            cells.append(
                "<td>—</td>"
                if cell is None
                else f"<td>{_percent(cell['bhabhi_rate'])} {_interval(cell['ci95'])}</td>"
            )
        rows.append(f"<tr><td>{escape(a)}</td>" + "".join(cells) + "</tr>")
    return '<div class="scroll"><table>' + "".join(rows) + "</table></div>"


def _hands_table(hands: Sequence[dict[str, Any]]) -> str:
    rows = [
        "<tr><th>deal</th><th>group</th><th>rotation</th><th>seats</th><th>Bhabhi</th>"
        "<th>out in order</th>"
        "<th>table</th><th>hand seed</th></tr>"
    ]
    for h in hands:
        rows.append(
            f"<tr><td>{h['deal']}</td><td>{h['group']}</td><td>{h['rotation']}</td>"
            f"<td>{escape(', '.join(h['seats']))}</td><td>{escape(h['bhabhi'] or '—')}</td>"
            f"<td>{escape(', '.join(h['out_order']))}</td><td><code>{escape(h['table_id'])}"
            f"</code></td><td><code>{escape(h['hand_seed'])}</code></td></tr>"
        )
    return '<div class="scroll"><table>' + "".join(rows) + "</table></div>"
