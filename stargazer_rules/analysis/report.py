"""report.html and summary.json: the summary written out for a designer.

The HTML page is self-contained: inline CSS, every plot an inline ``<svg>``, no script and no
link to anything outside the page but the anchors inside it. It opens offline from a folder,
an e-mail or a shared drive. Every number in it comes from the summary, so summary.json and
report.html always agree.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from stargazer_rules.analysis.feel import FEEL_FIGURES
from stargazer_rules.analysis.labels import (
    ENGINES,
    anchor,
    both_names,
    end_condition,
    interval,
    number,
    p_value,
    pct,
    points,
    rate_text,
)
from stargazer_rules.analysis.summary_view import (
    CountedDistribution,
    Distribution,
    PlanetCard,
    PlanetFigures,
    Rate,
    SummaryView,
    to_json,
    view_of,
)
from stargazer_rules.analysis.target_check import answer_cells
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets import outputfiles

__all__ = ["page", "render_report", "table", "write_json", "write_report"]

#: The sections of the report in order: (anchor, title).
SECTIONS = (
    ("targets", "Targets"),
    ("seats", "Seats"),
    ("crew", "Crew"),
    ("planets", "Planets"),
    ("scores", "Scores"),
    ("pace", "Pace"),
    ("feel", "How the game feels"),
)

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans JP", sans-serif;
       margin: 0 auto; max-width: 78rem; padding: 1rem 2rem 4rem; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2rem; } h2 { border-bottom: 2px solid #3b6ea8; padding-bottom: 0.2rem; margin-top: 2.5rem; }
h3 { margin-top: 1.8rem; }
nav { display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; }
table { border-collapse: collapse; margin: 0.6rem 0 1rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; vertical-align: top; }
th { background: #eef2f7; } td.text, th.text { text-align: left; }
th { font-weight: 600; } th[scope="row"] { background: #f6f8fb; font-weight: normal; }
.whole { white-space: nowrap; }
tr:target, li:target { background: #fff3c4; }
tr.out td { background: #fde8e4; }
.warning { background: #fff3c4; border-left: 6px solid #d9822b; padding: 0.6rem 1rem; margin: 0.8rem 0; }
.findings li { margin: 0.3rem 0; }
.note { color: #555; font-size: 0.9rem; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
code { background: #f3f3f3; padding: 0 0.2rem; }
.scroll { overflow-x: auto; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable::after { content: " \\2195"; color: #999; font-size: 0.8em; }
th[aria-sort="ascending"]::after { content: " \\2191"; color: #222; }
th[aria-sort="descending"]::after { content: " \\2193"; color: #222; }
/* A phone's width: each table row becomes a block, each cell a line led by its column's name
   (LABEL_SCRIPT), so no table scrolls sideways. */
@media (max-width: 40rem) {
  body { padding: 0.8rem 0.8rem 3rem; }
  .scroll { overflow-x: visible; }
  table, tbody, tr, th, td { display: block; }
  table { width: 100%; }
  thead { display: none; }
  tr { border: 1px solid #ccc; margin: 0 0 0.5rem; }
  th, td { border: 0; text-align: left; overflow-wrap: anywhere; }
  th[scope="row"] { font-weight: 600; }
  td[data-label]::before { content: attr(data-label) ": "; color: #555; }
  .whole { white-space: normal; }
}
"""

#: Each body cell named by its column's heading (``data-label``), for the stacked rows of a
#: narrow window.
LABEL_SCRIPT = """
document.querySelectorAll("table").forEach(function (table) {
  if (!table.tHead) return;
  var names = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) { return th.textContent.trim(); });
  Array.prototype.forEach.call(table.tBodies, function (body) {
    Array.prototype.forEach.call(body.rows, function (row) {
      Array.prototype.forEach.call(row.cells, function (cell, column) {
        if (names[column]) cell.setAttribute("data-label", names[column]);
      });
    });
  });
});
"""

#: Sorting of every table by a click on a column's heading (numbers by their first number,
#: text alphabetically; a second click reverses), inline: the page needs no network.
SORT_SCRIPT = """
document.querySelectorAll("table").forEach(function (table) {
  var body = table.tBodies[0];
  if (!body || !table.tHead) return;
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
    th.classList.add("sortable");
    th.title = "sort by this column";
    th.addEventListener("click", function () {
      var up = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(th.parentNode.cells, function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", up ? "ascending" : "descending");
      var key = function (row) {
        var text = (row.cells[column] || {}).textContent || "";
        var found = text.replace(/\\u2212/g, "-").match(/[-+]?\\d[\\d,]*\\.?\\d*/);
        return found ? parseFloat(found[0].replace(/,/g, "")) : text.toLowerCase();
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
        return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def write_json(data: Mapping[str, Any], path: Path) -> None:
    outputfiles.write_json(path, data, indent=1)


def write_report(summary: dict[str, Any], out_dir: Path) -> None:
    """Write ``summary.json`` and ``report.html`` into ``out_dir`` (made if missing)."""
    out_dir = outputfiles.output_folder(out_dir)
    write_json(summary, out_dir / "summary.json")
    outputfiles.write_text(out_dir / "report.html", render_report(summary))


# -- HTML pieces ----------------------------------------------------------------------------


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def table(
    headers: Sequence[str] | None,
    rows: Iterable[Sequence[str]],
    *,
    text_columns: int = 1,
    row_ids: Sequence[str | None] | None = None,
    marked: Sequence[bool] | None = None,
) -> str:
    """An HTML table of already-escaped cells; the first ``text_columns`` are left-aligned.

    ``headers`` None makes a table of names and values: no header row, the first cell of each
    row heads it. The table sits in a box that scrolls sideways, a last resort for a window
    narrower than the page is laid out for (tests/test_report_layout.py: at 1,000 px and wider
    no table needs it; under 40rem the rows stack, CSS, and no table needs it either)."""
    rows = list(rows)
    head = "" if headers is None else "<thead><tr>" + "".join(
        f'<th class="text">{h}</th>' if i < text_columns else f"<th>{h}</th>" for i, h in enumerate(headers)
    ) + "</tr></thead>"
    body = []
    for index, row in enumerate(rows):
        cells = "".join(
            (f'<th scope="row" class="text">{c}</th>' if headers is None and i == 0
             else f'<td class="text">{c}</td>' if i < text_columns else f"<td>{c}</td>")
            for i, c in enumerate(row)
        )
        ident = row_ids[index] if row_ids else None
        attributes = f' id="{esc(ident)}"' if ident else ""
        if marked and marked[index]:
            attributes += ' class="out"'
        body.append(f"<tr{attributes}>{cells}</tr>")
    return f"<div class=\"scroll\"><table>{head}<tbody>{''.join(body)}</tbody></table></div>"


def plot(kind: str, data: Any) -> str:
    """The SVG of ``plots.<kind>(data)`` (drawn from the numbers: ``analysis.svg_chart``)."""
    from stargazer_rules.analysis import plots

    return getattr(plots, kind)(data)


def figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption class=\"note\">{esc(caption)}</figcaption></figure>"


#: Every page's last line: where its few statistical words are said in a designer's words.
GLOSSARY_NOTE = ('<p class="note" id="glossary">The statistical words of this page (interval, significant, '
                 'dealt alike, decided, shortfall, p-value...) in plain words: <code>docs/simulation.md</code>, '
                 '"Glossary".</p>')


def page(title: str, body: str) -> str:
    """A whole self-contained HTML document, ending with the glossary's link."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{body}\n{GLOSSARY_NOTE}\n"
        f"<script>{LABEL_SCRIPT}{SORT_SCRIPT}</script>\n</body>\n</html>\n"
    )


def _whole(text: str) -> str:
    """``text`` kept on one line: a cell breaks between a figure and its interval, never
    inside either."""
    return f'<span class="whole">{text}</span>'


def _of(count: float, n: float) -> str:
    return _whole(f"{number(count)} / {number(n)}")


def _rate_cells(figure: Rate) -> list[str]:
    """Cells of a rate: share, interval, count of n."""
    return [pct(figure.rate), _whole(interval(figure)), _of(figure.count, figure.n)]


def _rate(figure: Rate) -> str:
    """A rate in one cell: "31.2% [29.4, 33.1]", on two lines if the column is narrow."""
    return f"{_whole(pct(figure.rate))} {_whole(interval(figure))}"


def _mean(figure: Distribution, digits: int = 2) -> str:
    if figure.mean is None:
        return "n/a"
    return (f"{_whole(f'{figure.mean:.{digits}f}')} "
            f"{_whole(f'[{figure.mean_low:.{digits}f}, {figure.mean_high:.{digits}f}]')}")


def _counts(figure: CountedDistribution) -> str:
    """``value:count`` pairs, wrapped between pairs to the column's width."""
    return " ".join(f"{number(value)}:{number(count)}" for value, count in figure.counts)


def _distribution(figure: CountedDistribution) -> str:
    """A cell of a distribution: its mean and interval, then its ``value:count`` pairs."""
    return f"{_mean(figure)}<br><span class='note'>{_counts(figure)}</span>"


# -- the report -----------------------------------------------------------------------------


def render_report(summary: SummaryView | Mapping[str, Any]) -> str:
    """report.html as text."""
    summary = view_of(summary)
    run = summary.run
    title = f"Stargazer balance report: {run.ruleset.name}, {run.players} players, {number(run.games)} games"
    nav = "<nav>" + "".join(f'<a href="#{ident}">{esc(text)}</a>' for ident, text in SECTIONS) + "</nav>"
    parts: list[Callable[[SummaryView], str]] = [
        _head,
        _findings,
        _seats,
        _crew,
        _planets,
        _scores,
        _pace,
        _feel,
    ]
    body = f"<h1>{esc(title)}</h1>\n{nav}\n" + "\n".join(part(summary) for part in parts)
    body += (
        '\n<p class="note">How to read this report: <code>docs/simulation.md</code>, "Reading the report". '
        "Every figure here is also in <code>summary.json</code> beside this file.</p>"
    )
    return page(title, body)


def _head(summary: SummaryView) -> str:
    run = summary.run
    level = f"{100 * run.confidence:g}%"
    specs = run.lineup
    if len(set(specs)) == 1:
        lineup = f"{specs[0]} in every seat"
    else:  # numbered from 1 like the seats below; the rotation moves each entry round the table
        lineup = ", ".join(f"{i}: {spec}" for i, spec in enumerate(specs, start=1))
        lineup += " (rotated: each bot sits in every seat equally often)"
    rows = [
        ["ruleset", f"{esc(run.ruleset.name)} <code>{esc(short_fingerprint(run.ruleset.fingerprint))}</code>"],
        ["players", number(run.players)],
        ["games", (f"{number(run.games)} (index {run.first_index} to {run.last_index}; "
                   f"{run.complete_blocks} of {run.blocks} blocks complete)")],
        ["bots (the lineup)", esc(lineup)],
        ["engine", esc(ENGINES.get(run.engine, run.engine))],
        ["intervals", f"{level} (Wilson for shares, Student's t for means; targets: {esc(summary.targets.method)})"],
    ]
    warnings = "".join(f'<div class="warning">{esc(w.text)}</div>' for w in run.warnings)
    return (
        '<section id="run"><p>Produced by the bots: <strong>'
        + esc(", ".join(run.bots))
        + "</strong>.</p>"
        + warnings
        + table(None, rows, text_columns=2)
        + "</section>"
    )


def _findings(summary: SummaryView) -> str:
    """The design targets: the table of answers, then the sentence of each subject not met."""
    judged = summary.targets
    level = f"{100 * judged.confidence:g}%"
    rows, marked = [], []
    for answer in judged.targets:
        cells = answer_cells(to_json(answer))
        rows.append([esc(cells["target"]), esc(cells["goal"]), esc(cells["status"]), esc(cells["value"]),
                     esc(cells["interval"]), esc(cells["weight"])])
        marked.append(answer.status == "not_met")
    grouped = summary.findings_by_target()
    if grouped:
        items = []
        for answer, found in grouped:
            links = [f'<a href="#{esc(f.anchor)}">{esc(f.text)}</a>' for f in found]
            if len(links) == 1:
                items.append(f"<li>{links[0]}</li>")
            else:
                items.append(f"<li>{esc(answer.label)}, missed by {len(links)}:<ul>"
                             + "".join(f"<li>{link}</li>" for link in links) + "</ul></li>")
        # one item per target not met: as many as the "not met" of the paragraph above
        listing = f'<h3 id="findings">Targets not met</h3><ul class="findings">{"".join(items)}</ul>'
    else:
        listing = '<p id="findings">Every target is met or not yet known.</p>'
    source = "the default targets" if judged.source == "defaults" else judged.source
    setting_rows = [[f"<code>{esc(key)}</code>", esc(value)] for key, value in judged.settings.items()]
    return (
        '<section id="targets"><h2>Design targets</h2>'
        f"<p>{judged.met} of {judged.total} targets met, {judged.not_met} not met, {judged.unknown} not yet "
        f"known (from {esc(source)}). A target is met when the whole {level} interval of every seat or card "
        "it covers lies inside its goal, not met when one lies wholly outside; the value shown is that "
        "of its worst subject.</p>"
        + table(["target", "goal", "status", "value (worst)", f"{level} interval", "weight"], rows,
                text_columns=4, marked=marked)
        + listing
        + '<details><summary class="note">The settings (set one with <code>--bound NAME=VALUE</code>)</summary>'
        + table(["setting", "value"], setting_rows)
        + "</details></section>"
    )


def _seats(summary: SummaryView) -> str:
    part = summary.seats
    fair = part.fair_share
    rows = []
    for seat in part.seats:
        rows.append(
            [esc(seat.label + (" (start player)" if seat.seat == 0 else "")), *_rate_cells(seat.wins),
             "outside the interval" if seat.excludes_fair else "inside the interval", _mean(seat.score)]
        )
    chi = part.chi_square
    balance = part.balance
    needed = part.games_needed
    ties = part.ties
    detect = needed.detectable_advantage
    lines = [
        (f"Chi-square test of equal win shares across seats: statistic {number(chi.statistic, 2)}, "
        f"{chi.df} degrees of freedom, {p_value(chi.p)} "
        f"(n = {number(chi.n)} games)."),
        (f"Seat balance: <strong>{balance.value:.3f}</strong> (1 minus the largest gap between two seats' "
        f"win shares: seat {balance.best_seat + 1} vs seat {balance.worst_seat + 1}, "
        f"{points(balance.gap)} points; n = {number(balance.n)} games)."),
        f'<span id="{anchor("seats", "ties")}">Shared wins (ties): {rate_text(ties)} of {number(ties.n)} games.</span>',
        # the bounds as set, every digit shown as _head shows the level (a 2.5-point advantage is not "2 points")
        (f"Games needed to detect a seat that wins {100 * needed.advantage:g} points more than fair "
        f"({pct(fair)}) with {100 * needed.power:g}% power: <strong>{number(needed.games)}</strong>; "
        f"this run has {number(needed.have)}, enough to detect about {points(detect)} points."),
    ]
    table_part = summary.table_seats
    table_rows = [[esc(seat.label), *_rate_cells(seat.wins)] for seat in table_part.seats]
    return (
        f'<section id="seats"><h2>Seats</h2>'
        f'<p class="note">Seats in turn order: seat 1 is the start player of the deal. A seat wins 1 per game '
        f"won, 1/2 per two-way shared win; the fair share is {pct(fair)}.</p>"
        + figure(plot("seats", summary), "Bars: win share; whiskers: interval; dashed: the fair share.")
        + table(
            ["seat", "win share", "interval", "wins / games", f"fair {pct(fair)}", "mean score [interval]"],
            rows,
            marked=[seat.excludes_fair for seat in part.seats],
        )
        + "".join(f"<p>{line}</p>" for line in lines)
        + f'<h3>By table seat</h3><p class="note">The table seats of the game lines, numbered from 1 like '
        f"the seats above (the lines' seat 0 is table seat 1), whoever starts; chi-square {p_value(table_part.chi_square.p)}.</p>"
        + table(["table seat", "win share", "interval", "wins / games"], table_rows)
        + "</section>"
    )


def _crew(summary: SummaryView) -> str:
    part = summary.crew
    names = [esc(both_names(summary, "crew", card.crew)) + (" (always)" if card.always_in_play else "")
             for card in part.cards]
    rows, when_rows = [], []
    for name, card in zip(names, part.cards):
        advantage = card.picker_advantage
        rows.append(
            [
                name,
                _of(card.in_play.count, card.in_play.n),
                number(card.rounds_in_play),
                _rate(card.picked),
                _rate(card.picked_first),
                _rate(card.games_picked),
                f"{_rate(card.picker_wins)}<br>n = {number(card.picker_wins.n)}",
                f"{_rate(card.other_wins)}<br>n = {number(card.other_wins.n)}",
                "n/a" if advantage.difference is None else
                f"{_whole(points(advantage.difference, sign=True))} "
                f"{_whole(f'[{points(advantage.low, sign=True)}, {points(advantage.high, sign=True)}]')}",
            ]
        )
        motivation = card.motivation_vp
        when_rows.append(
            [name, _distribution(card.pick_round), _distribution(card.pick_order),
             f"{number(motivation.total)}<br><span class='note'>{_mean(motivation.per_pick)} per pick</span>"]
        )
    return (
        '<section id="crew"><h2>Crew</h2>'
        '<p class="note">"Picked" and "picked first" are shares of the rounds the crew was in play (one pick '
        "per crew per round at most). Win shares compare the players who picked the crew at least once in a "
        "game with the other players of the same games; the difference is in points with the percentile "
        "bootstrap interval of the games, the one interval its design target is judged by.</p>"
        + figure(plot("crew_picks", summary), "Share of rounds in play the crew is picked (left) and picked first (right).")
        + figure(plot("crew_wins", summary), "Win share of its pickers against the other players of the same games.")
        + table(
            ["crew", "games in play", "rounds in play", "picked", "picked first", "games picked",
             "pickers win", "others win", "difference (points)"],
            rows,
            row_ids=[anchor("crew", card.crew) for card in part.cards],
        )
        + f'<h3 id="{anchor("crew", "when")}">When each crew is picked</h3>'
        '<p class="note">Pick round and pick order (1 = first pick of the round) are means with intervals, '
        "then value:count. Motivation VP is the bonus taken when picking the crew: in all, then per pick.</p>"
        + table(["crew", "pick round", "pick order", "motivation VP"], when_rows)
        + "</section>"
    )


def _track(track: Sequence[int] | None) -> str:
    if not track:
        return "n/a"
    return " ".join(f"{row}:{'✗' if value == 0 else value}" for row, value in enumerate(track, start=1))


def _accident_rows(card: PlanetCard) -> str:
    """One line per accident row: how often the track reached it / first place scored it."""
    if card.accident_rows is None:
        return "n/a"
    if not card.accident_rows:
        return "none"
    return "<br>".join(
        _whole(f"row {row.row}: {pct(row.reached.rate)} / {pct(row.scored_by_first.rate)}")
        for row in card.accident_rows
    )


#: The columns of how a planet's track ends, for a planet card and for a colour.
_END_HEADERS = ["games in play", "top square reached", "first place scores an accident"]


def _end_cells(card: PlanetFigures) -> list[str]:
    return [
        _of(card.in_play.count, card.in_play.n),
        _distribution(card.top_square),
        f"{_rate(card.accident)}<br>n = {number(card.accident.n)}",
    ]


def _rank_headers(cards: Sequence[PlanetFigures]) -> list[str]:
    """owners, free cubes, then one column per rank paid: as many as the most ranks any planet paid."""
    ranks = max((len(card.vp_by_rank) for card in cards), default=0)
    return ["owners (players)", "free cubes ranked", *(f"rank {rank} VP" for rank in range(1, ranks + 1))]


def _rank_cells(card: PlanetFigures, columns: int) -> list[str]:
    """Owners, free cubes ranked, then each rank's mean VP, its n and what free cubes took of it."""
    cells = [_distribution(card.owners), _rate(card.free_cubes_rank)]
    for rank in card.vp_by_rank:
        lost = (f"<br><span class='note'>{number(rank.vp_lost_to_free_cubes)} VP to free cubes</span>"
                if rank.free_cube_ranks else "")
        cells.append(f"{rank.mean_vp:.2f}<br><span class='note'>n = {number(rank.n)}</span>{lost}")
    return cells + ["—"] * (columns - len(cells))


def _planets(summary: SummaryView) -> str:
    part = summary.planets
    names = [esc(both_names(summary, "planets", c.planet)) for c in part.cards]
    colours = [esc(both_names(summary, "colours", c.colour)) for c in part.colours]
    card_ranks, colour_ranks = _rank_headers(part.cards), _rank_headers(part.colours)
    end_rows = [
        [name, esc(summary.name("colours", c.colour)), _track(c.track), *_end_cells(c), _accident_rows(c),
         _rate(c.full)]
        for name, c in zip(names, part.cards)
    ]
    rank_rows = [[name, *_rank_cells(c, len(card_ranks))] for name, c in zip(names, part.cards)]
    colour_end_rows = [
        [name, number(c.planet_games), *_end_cells(c), _rate(c.full)] for name, c in zip(colours, part.colours)
    ]
    colour_rank_rows = [[name, *_rank_cells(c, len(colour_ranks))] for name, c in zip(colours, part.colours)]
    return (
        '<section id="planets"><h2>Planets</h2>'
        '<p class="note">Per planet card, over the games it was in play: the top square (the row first place '
        "scores, R16), how often that row is an accident (of the games with any cube), each accident row: how "
        "often the track reached it / how often first place scored it; how often the planet filled. Then how "
        "many players owned cubes on it, how often free cubes (the virtual player) took a rank, and the mean VP "
        "each rank was paid (VP of a rank taken by free cubes are lost).</p>"
        + figure(plot("planet_accidents", summary), "First place scores an accident (left), the planet fills (right).")
        + figure(plot("planet_rows", summary), "Where tracks end: share of games per final top square.")
        + table(["planet", "colour", "track (row:VP, ✗ accident)", *_END_HEADERS,
                 "accident rows (reached / first place scores it)", "filled"], end_rows,
                text_columns=3, row_ids=[anchor("planet", c.planet) for c in part.cards])
        + f'<h3 id="{anchor("planets", "ranks")}">Owners and VP paid per rank</h3>'
        + table(["planet", *card_ranks], rank_rows)
        + '<h3 id="planets-colours">By colour</h3><p class="note">All planets of a colour together; '
        "\"planet games\" counts each planet of the colour in each game.</p>"
        + table(["colour", "planet games", *_END_HEADERS, "filled"], colour_end_rows,
                row_ids=[anchor("colour", c.colour) for c in part.colours])
        + table(["colour", *colour_ranks], colour_rank_rows)
        + "</section>"
    )


def _scores(summary: SummaryView) -> str:
    part = summary.scores
    bot_rows = [
        [esc(bot.bot), number(bot.seat_games), _mean(bot.total), number(bot.total.sd, 1),
         " / ".join(number(value) for value in (bot.total.min, bot.total.p25, bot.total.median, bot.total.p75, bot.total.max)),
         rate_text(bot.wins), pct(bot.fair_share)]
        for bot in part.by_bot
    ]
    parts = part.components
    vp_rows = [
        [label, number(source.vp), pct(source.share), _mean(source.per_seat_game), number(source.per_seat_game.n)]
        for source, label in ((parts.majority, "planet majority"), (parts.bonus, "major-planet bonus"),
                              (parts.play, "VP scored during play"))
    ]
    round_rows = [
        [number(r.round), number(r.games), f"{r.mean:.1f}", f"{r.p10:.1f} – {r.p90:.1f}", f"{r.leader_mean:.1f}"]
        for r in part.by_round
    ]
    margin, leads = part.margin, part.lead_changes
    return (
        '<section id="scores"><h2>Scores</h2>'
        '<h3 id="scores-bots">Final score by bot</h3>'
        + figure(plot("scores_by_bot", summary), "Box: quartiles; whiskers: 10th to 90th percentile; triangle: mean.")
        + table(["bot", "seat-games", "mean [interval]", "sd", "min / p25 / median / p75 / max", "win share", "fair"], bot_rows)
        + '<h3 id="scores-vp">Where the VP come from</h3>'
        + figure(plot("vp_sources", summary), "Share of all VP scored, over every seat of every game.")
        + table(["source", "VP", "share", "mean per seat-game [interval]", "seat-games"], vp_rows)
        + '<h3 id="scores-rounds">Score by round</h3>'
        + figure(plot("score_by_round", summary), "Provisional totals at the end of each round (games lasting that long).")
        + table(["round", "games", "mean", "10th – 90th percentile", "leader's mean"], round_rows)
        + '<h3 id="scores-margin">Winning margin and lead changes</h3>'
        + figure(plot("margins", summary), "Winning margin: winner's total minus the best total of a seat that did not win.")
        + f"<p>Winning margin: mean {_mean(margin)} VP, median {number(margin.median)} "
        f"(n = {number(margin.n)} games with a loser). Lead changes per game (the sole leader after a round "
        f"differs from the last sole leader): mean {_mean(leads)}, n = {number(leads.n)} games.</p>"
        + "</section>"
    )


def _pace(summary: SummaryView) -> str:
    part = summary.pace
    trigger_rows = [[esc(end_condition(t.trigger)), *_rate_cells(t), number(t.alone)] for t in part.triggers]
    rounds, options, decisions = part.rounds, part.options, part.decisions
    return (
        '<section id="pace"><h2>Pace</h2>'
        + figure(plot("pace", summary), "Rounds per game; which end condition fired; legal options per decision.")
        + f"<p>Rounds per game: mean {_mean(rounds)}, median {number(rounds.median)}, "
        f"range {number(rounds.min)}–{number(rounds.max)} (n = {number(rounds.n)} games).</p>"
        + f'<h3 id="{anchor("pace", "triggers")}">End conditions</h3>'
        + table(["condition", "share of games", "interval", "games", "the only one"], trigger_rows)
        + f"<p>Decisions per game: mean {_mean(decisions)} (n = {number(decisions.n)} games). "
        f"Legal options per decision: mean {_mean(options)}, median {number(options.median)}, "
        f"90th percentile {number(options.p90)}, max {number(options.max)} (n = {number(options.n)} "
        f"decisions); forced decisions (one option): {rate_text(part.forced)}.</p>"
        + "</section>"
    )


def _feel(summary: SummaryView) -> str:
    part = summary.feel
    rows = []
    for item in FEEL_FIGURES:
        value = part.figure(item.key)
        if isinstance(value, Rate):
            cells = [rate_text(value), f"{number(value.count)} / {number(value.n)}"]
        else:
            small = value.mean is not None and abs(value.mean) < 1
            cells = [_mean(value, 3 if small else 2), number(value.n)]
        rows.append([esc(item.label), esc(item.definition), *cells])
    return (
        '<section id="feel"><h2>How the game feels</h2>'
        '<p class="note">A seat\'s standing after a round is its share of the provisional totals. A seat leads '
        "when its total is above every other seat's (after the last round: the winner, R18). The winner's "
        "figures count the games won alone; n is the games each figure was counted over.</p>"
        + figure(plot("feel", summary), "Mean standing after each round of the eventual winner and of the "
                 "leader, over the games won alone lasting that long (n below each round).")
        + table(["figure", "what it measures", "mean [interval] or share [interval]", "n"], rows, text_columns=2,
                row_ids=[anchor("feel", item.key) for item in FEEL_FIGURES])
        + "</section>"
    )
