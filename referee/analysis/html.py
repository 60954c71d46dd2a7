"""``bhabhi analyze --html``: the analysis as one self-contained page.

Written from the ``--json`` document alone (so the page and the JSON never disagree): the
warnings first, in plain words with their clause IDs; then per player count the tables of
the terminal summary and four plots (``plots``: inline SVG, nothing fetched at view time, no
script), each in a ``<figure>`` with a caption and a text alternative saying what it shows.
With ``--against`` the second ruleset is drawn over the first in the length and seat plots,
and a table of the differences stands in each player count's section.

The style is the project's house style (``referee.pagestyle``, the rulebook's too): one
column of the viewport's width on a phone, A4 when printed, the same type and colours;
every text is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from referee.analysis import plots
from referee.analysis.compare import ENDINGS
from referee.analysis.numbers import p_clause, p_text, percent, seat_label
from referee.analysis.plots import Series
from referee.pagestyle import page_style

STYLE = page_style(
    """
h1 { margin-bottom: 0.6rem; }
h3 { font-size: 1.1rem; margin: 1.4rem 0 0.4rem; }
.meta { font: 0.85rem/1.4 system-ui, sans-serif; color: #555; overflow-wrap: anywhere; }
ul.warnings { padding-left: 1.2rem; }
ul.warnings li { margin: 0.3rem 0; }
.clauses { font: 0.8rem/1 system-ui, sans-serif; color: #666; white-space: nowrap; }
.wrap { overflow-x: auto; margin: 0 0 0.9rem; }
table { border-collapse: collapse; font: 0.85rem/1.35 system-ui, sans-serif; }
th, td { padding: 0.2rem 0.45rem; border-bottom: 1px solid #e2e2e2; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { font-weight: 600; border-bottom-color: #999; }
td { white-space: nowrap; }
td.yes { font-weight: 600; color: #c8102e; }
figure { margin: 0.6rem 0 1.2rem; }
figure svg { display: block; width: 100%; height: auto; max-width: 40rem; }
figcaption { font-size: 0.9rem; color: #333; }
""",
    own_print="""
  figure, table, li { break-inside: avoid; page-break-inside: avoid; }
  .wrap { overflow: visible; }
  figure svg { max-width: 14cm; }
""",
    width="48rem",
)
"""The house style (``referee.pagestyle``) in a column wide enough for the tables, with the
report's own: the line about the run under the title (hence the title's closer margin),
the warnings, the tables (scrolled sideways inside their box on a phone, never the page) and
the figures."""

Plot = Callable[[Sequence[Series], str], str]


def render(document: Mapping[str, Any]) -> str:
    """The page of an analysis document (``report.analyze``)."""
    ruleset = document["ruleset"]
    against = document.get("against")
    title = f"Analysis of {ruleset['title']}"
    counts = list(document["player_counts"].items())
    contents = [("warnings", "Warnings")] + [(f"players-{n}", f"{n} players") for n, _ in counts]
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{escape(_about(document))}</p>',
        '<nav aria-label="Contents">',
        "<h2>Contents</h2>",
        "<ol>",
        *(f'<li><a href="#{key}">{escape(label)}</a></li>' for key, label in contents),
        "</ol>",
        "</nav>",
        *_warnings(document),
    ]
    for players, data in counts:
        other = None if against is None else against["player_counts"].get(players)
        out += _count(document, players, data, other)
    out += [
        f"<footer>{escape(_footer(document))}</footer>",
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(out) + "\n"


def _about(document: Mapping[str, Any]) -> str:
    ruleset = document["ruleset"]
    against = document.get("against")
    text = (
        f"Ruleset {ruleset['id']}, hash {ruleset['hash']}. {document['hands']} hands per "
        f"player count, seed {document['seed']!r}, bots {','.join(document['bots'])}; "
        f"minutes at {document['pace_seconds_per_card']:g} s per card played."
    )
    if against is not None:
        other = against["ruleset"]
        text += (
            f" Against {other['title']} ({other['id']}, hash {other['hash']}) on the same deals."
        )
    return text


def _footer(document: Mapping[str, Any]) -> str:
    ruleset = document["ruleset"]
    return (
        f"bhabhi analyze {ruleset['id']} · ruleset hash {ruleset['hash']} · "
        "figures as in docs/analysis.md"
    )


def _warnings(document: Mapping[str, Any]) -> list[str]:
    out = ['<section id="warnings">', "<h2>Warnings</h2>"]
    items = []
    for label, counts in _labelled(document):
        for players, data in counts.items():
            for warning in data["warnings"]:
                clauses = ", ".join(warning["clauses"])
                named = f' <span class="clauses">[{escape(clauses)}]</span>' if clauses else ""
                who = (
                    f"{label}, {players} players" if "against" in document else f"{players} players"
                )
                lead = f"<strong>{escape(who)}:</strong> "
                items.append(f"<li>{lead}{escape(_sentence(warning['message']))}{named}</li>")
    if items:
        out += ['<ul class="warnings">', *items, "</ul>"]
    else:
        out.append("<p>No figure crosses a line: nothing to warn of.</p>")
    out.append("</section>")
    return out


def _labelled(document: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    out = [(document["ruleset"]["id"], document["player_counts"])]
    against = document.get("against")
    if against is not None:
        out.append((against["ruleset"]["id"], against["player_counts"]))
    return out


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _count(
    document: Mapping[str, Any],
    players: str,
    data: Mapping[str, Any],
    other: Mapping[str, Any] | None,
) -> list[str]:
    key = f"players-{players}"
    this_id = document["ruleset"]["id"]
    series: list[Series] = [(this_id, data)]
    if other is not None:
        series.append((document["against"]["ruleset"]["id"], other))
    out = [f'<section id="{key}">', f"<h2>{escape(players)} players</h2>"]
    out += _termination(data)
    out += _figure(plots.length_plot, series, f"{key}-length", _length_caption(series))
    out += _seats(data)
    out += _figure(plots.seat_plot, series, f"{key}-seats", _seat_caption(series))
    out += _figure(plots.dealt_plot, series[:1], f"{key}-dealt", _dealt_caption(data))
    out += _decisiveness(data)
    out += _figure(plots.curve_plot, series[:1], f"{key}-curve", _curve_caption(data))
    out += _events(data)
    out += _skill(data)
    if other is not None:
        out += _differences(document, players)
    out.append("</section>")
    return out


def _figure(plot: Plot, series: Sequence[Series], key: str, caption: tuple[str, str]) -> list[str]:
    """A plot with its caption (shown) and its text alternative (the ``<svg>``'s label)."""
    shown, alternative = caption
    svg = plot(series, key).replace(
        "<svg ", f'<svg role="img" aria-label="{escape(alternative)}" ', 1
    )
    return ["<figure>", svg, f"<figcaption>{escape(shown)}</figcaption>", "</figure>"]


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], classes: Any = None) -> list[str]:
    out = ['<div class="wrap"><table>', "<thead><tr>"]
    out += [f'<th scope="col">{escape(cell)}</th>' for cell in head]
    out.append("</tr></thead><tbody>")
    for index, row in enumerate(rows):
        cells = []
        for column, cell in enumerate(row):
            tag = "th" if column == 0 else "td"
            scope = ' scope="row"' if column == 0 else ""
            mark = ' class="yes"' if classes and classes(index, column) else ""
            cells.append(f"<{tag}{scope}{mark}>{escape(cell)}</{tag}>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return out


def _termination(data: Mapping[str, Any]) -> list[str]:
    ending = data["termination"]
    engine = "the fast random playout" if data["engine"] == "playout" else "the Hand API"
    out = [
        "<h3>How hands end, and how long they run</h3>",
        f"<p>{data['hands']} hands played by {escape(engine)}, bots "
        f"{escape(', '.join(data['bots']))}. Ended by the rules {percent(ending['normal'])}, in "
        f"a dead position {percent(ending['dead_position'])}, at the bound "
        f"{percent(ending['bound'])}; no Bhabhi in {percent(data['no_bhabhi']['rate'])}.</p>",
    ]
    rows = [
        [name, *(f"{spread[k]:.1f}" for k in ("median", "q1", "q3", "p95", "max"))]
        for name, spread in data["length"].items()
    ]
    return out + _table(["length", "median", "q1", "q3", "p95", "max"], rows)


def _seats(data: Mapping[str, Any]) -> list[str]:
    fairness = data["fairness"]
    rows = []
    for seat in data["seats"]:
        low, high = seat["ci95"]
        rows.append(
            [
                seat_label(seat["offset"]),
                str(seat["dealt"]),
                percent(seat["bhabhi_rate"]),
                f"{percent(low)} – {percent(high)}",
            ]
        )
    p_value = fairness["p_value"]
    tested = (
        "no Bhabhi to test"
        if p_value is None
        else f"chi-square test of equal chances {p_clause(p_value)}"
    )
    holder = fairness["by_lead_card_holder"]
    most = fairness["by_most_cards"]
    most_text = (
        "every hand was dealt evenly"
        if most["most"]["seat_hands"] == 0
        else f"the seats dealt the most cards {percent(most['most']['bhabhi_rate'])}, the "
        f"others {percent(most['others']['bhabhi_rate'])}"
    )
    return [
        "<h3>Fairness</h3>",
        *_table(["seat", "dealt", "Bhabhi", "95% interval"], rows),
        f"<p>Fair rate {percent(fairness['fair_rate'])}, balance {fairness['balance']:.3f}, "
        f"{escape(tested)}. The holder of the lead card (C6) loses "
        f"{percent(holder['holder']['bhabhi_rate'])}, the others "
        f"{percent(holder['others']['bhabhi_rate'])}; {escape(most_text)}.</p>",
    ]


def _decisiveness(data: Mapping[str, Any]) -> list[str]:
    decided = data["decisiveness"]
    fraction = decided["fraction"]
    return [
        "<h3>Decisiveness</h3>",
        f"<p>In {decided['hands']} hands with a Bhabhi, the Bhabhi is known after the deal "
        f"in {percent(decided['after_deal'])}; from {percent(fraction['median'])} of the hand on "
        f"(median; quartiles {percent(fraction['q1'])} – {percent(fraction['q3'])}). The lead "
        f"changes hands on {percent(decided['lead_changes']['per_trick'])} of tricks.</p>",
    ]


def _events(data: Mapping[str, Any]) -> list[str]:
    events = data["events"]
    rows = [
        [name.replace("_", " "), f"{events[name]['mean']:.2f}", str(events[name]["max"]),
         percent(events[name]["hands"])]
        for name in ("pickups", "tochoos", "waste_draws", "hands_taken")
    ]  # fmt: skip
    out = events["players_out"]
    return [
        "<h3>Events</h3>",
        *_table(["per hand", "mean", "most", "hands with one"], rows),
        f"<p>Players out per trick {out['per_trick']:.3f}; every player who got away went "
        f"out on one trick in {percent(out['all_at_once'])} of hands.</p>",
    ]


def _skill(data: Mapping[str, Any]) -> list[str]:
    """The heuristic bot and the degenerate lines against random players (absent with
    ``--no-skill``)."""
    if "skill" not in data:
        return []
    entries = [("heuristic bot", data["skill"])]
    entries += [(name.replace("-", " "), line) for name, line in data["lines"].items()]
    rows = [
        [
            name,
            percent(entry["bhabhi_rate"]),
            f"{percent(entry['ci95'][0])} – {percent(entry['ci95'][1])}",
            percent(entry["fair_rate"]),
            "–" if entry["ratio"] is None else f"{entry['ratio']:.2f}",
        ]
        for name, entry in entries
    ]
    deals = data["skill"]["deals"]
    return [
        "<h3>Skill and lines</h3>",
        f"<p>One bot against random players, in every seat in turn on the same {deals} "
        "deals: its Bhabhi rate, against a fair share of the hands with a Bhabhi.</p>",
        *_table(["one bot, others random", "Bhabhi", "95% interval", "fair", "ratio"], rows),
    ]


def _differences(document: Mapping[str, Any], players: str) -> list[str]:
    against = document["against"]
    this_id, other_id = document["ruleset"]["id"], against["ruleset"]["id"]
    diff = against["differences"][players]
    rows = []
    for name, cell in [
        *((ENDINGS[key], cell) for key, cell in diff["termination"].items()),
        *((f"Bhabhi, {seat_label(s['offset'])}", s["bhabhi_rate"]) for s in diff["seats"]),
    ]:
        rows.append(
            [
                name,
                percent(cell["this"]),
                percent(cell["other"]),
                f"{100 * cell['difference']:+.1f}",
                p_text(cell["p_value"]) + (" *" if cell["significant"] else ""),
            ]
        )
    level = against["significance_level"]
    return [
        "<h3>Against the other ruleset</h3>",
        f"<p>The same deals played by {escape(this_id)} and {escape(other_id)}; the "
        f"difference in percentage points, and the p-value of a {escape(against['test'])} "
        f"(docs/analysis.md), marked * when significant (below {level:g}).</p>",
        *_table(
            ["figure", this_id, other_id, "diff", "p"],
            rows,
            lambda row, column: column == 4 and rows[row][4].endswith("*"),
        ),
    ]


def _length_caption(series: Sequence[Series]) -> tuple[str, str]:
    parts = []
    for label, data in series:
        tricks = data["length"]["tricks"]
        parts.append(
            f"{label}: median {tricks['median']:g} tricks, quartiles {tricks['q1']:g} to "
            f"{tricks['q3']:g}, longest {tricks['max']:g}"
        )
    shown = "Length distribution: the share of hands by their number of tricks."
    return shown, shown + " " + "; ".join(parts) + "."


def _seat_caption(series: Sequence[Series]) -> tuple[str, str]:
    parts = []
    for label, data in series:
        rates = ", ".join(
            f"{seat_label(s['offset'])} {percent(s['bhabhi_rate'])}" for s in data["seats"]
        )
        parts.append(f"{label}: {rates} (fair {percent(data['fairness']['fair_rate'])})")
    shown = (
        "Bhabhi rate by seat, counted from the dealer, with 95% intervals; the dashed line "
        "is the fair rate."
    )
    return shown, shown + " " + "; ".join(parts) + "."


def _dealt_caption(data: Mapping[str, Any]) -> tuple[str, str]:
    groups = data["fairness"]["by_cards_dealt"]
    rates = ", ".join(f"{n} cards {percent(g['bhabhi_rate'])}" for n, g in groups.items())
    shown = "Bhabhi rate of a seat by the number of cards it was dealt, with 95% intervals."
    return shown, f"{shown} {rates}."


def _curve_caption(data: Mapping[str, Any]) -> tuple[str, str]:
    curve = data["decisiveness"]["curve"]
    shown = (
        "Decisiveness curve: the share of hands whose Bhabhi can be told (holds strictly the "
        "most cards from then on) by each tenth of the hand."
    )
    return shown, (
        f"{shown} Known after the deal {percent(curve[0])}, by half the hand "
        f"{percent(curve[len(curve) // 2])}, at the end {percent(curve[-1])}."
    )
