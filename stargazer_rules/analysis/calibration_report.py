"""A calibration as a person reads it: the terminal's lines and calibration.html, both from
calibration.json's figures (``analysis.calibrate``; docs/simulation.md, "stargazer calibrate")."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from stargazer_rules.analysis.brief import Brief
from stargazer_rules.analysis.labels import number
from stargazer_rules.analysis.report import esc, page, table
from stargazer_rules.playtests.figures import TABLE_MEASURES
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets import outputfiles

__all__ = ["CALIBRATION_PAGE", "calibration_brief", "render_calibration", "terminal_calibration", "write_calibration_page"]

#: The page beside calibration.json.
CALIBRATION_PAGE = "calibration.html"


def _figure(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "share":
        return f"{value:.0%}"
    if kind == "picks":
        top = sorted(value.items(), key=lambda item: -item[1])[:2]
        return ", ".join(f"{crew} {share:.0%}" for crew, share in top)
    return f"{value:.1f}"


def terminal_calibration(result: Mapping[str, Any]) -> str:
    """The calibration as the terminal shows it: per rung its distance and each measure's
    figure and adjusted p-value (``*`` where it differs), then the verdict."""
    lines = [f"{result['logs']} playtest games against each rung (two-sample tests, Holm-adjusted, alpha {result['alpha']:g}):"]
    for row in result["rungs"]:
        distance = "-" if row["distance"] is None else f"{row['distance']:.3f}"
        state = "consistent" if row["consistent"] else "differs on " + ", ".join(row["differs_on"])
        lines.append(f"  {row['rung']}: distance {distance} ({row['games']:,} games; {state})")
        for name, entry in row["measures"].items():
            kind = TABLE_MEASURES[name].kind
            p = "no test" if entry["p_adjusted"] is None else f"p {entry['p_adjusted']:.3g}"
            mark = " *" if entry["differs"] else ""
            lines.append(f"      {TABLE_MEASURES[name].label}: people {_figure(entry['logs'], kind)}, "
                         f"bots {_figure(entry['rung'], kind)} ({p}){mark}")
    lines.append(f"verdict: {result['verdict']['sentence']}")
    return "\n".join(lines)


def _level(rung: str) -> str:
    """A rung as a person names its bots: ``greedy bots``, ``searching bots (mcts:400)``."""
    return f"searching bots ({rung})" if rung.startswith("mcts") else f"{rung} bots"


def calibration_brief(result: Mapping[str, Any]) -> Brief:
    """The brief of a calibration: the level of bots the people play like (the fastest the logs
    are consistent with), the measures where that level's games lie furthest from the logs,
    the report to run at it, and whether the logs are enough to tell the levels apart."""
    decided = result["verdict"]
    row_of = {row["rung"]: row for row in result["rungs"]}
    named = decided["fastest"] or decided["closest"]
    also = [rung for rung in (decided["resembles"], *decided["also_consistent"]) if rung and rung != named]
    if decided["fastest"]:
        answer = (f"the people play like {_level(named)}, the fastest level the logs are consistent with"
                  + (f" (also consistent: {', '.join(also)})." if also else "."))
    elif named:
        differs = ", ".join(TABLE_MEASURES[name].label for name in decided["differs_on"])
        answer = f"the people play like no level tried; the closest, {_level(named)}, differs on {differs}."
    else:
        answer = "no level could be set beside the logs: no measure had games on both sides."
    most = []
    if named:
        measures = row_of[named]["measures"]
        ranked = sorted((item for item in measures.items() if item[1]["distance"] is not None),
                        key=lambda item: -item[1]["distance"])
        for name, entry in ranked[:3]:
            kind = TABLE_MEASURES[name].kind
            most.append(f"{TABLE_MEASURES[name].label.capitalize()}: the people {_figure(entry['logs'], kind)}, "
                        f"{named} {_figure(entry['rung'], kind)}.")
    steps = [("Reports at that level of play:", result["report_command"])] if result.get("report_command") else []
    sure = f"{number(result['logs'])} playtest games against {number(result['deals'] * result['players'])} games of each level."
    if decided["logs_needed"]:
        sure += (f" Too few to tell {', '.join([named, *also])} apart: about {number(decided['logs_needed'])} "
                 "playtest games would.")
    title = f"{result['ruleset']['name']}, {result['players']} players: the people's games beside {len(result['rungs'])} levels of bots"
    return Brief(title=title, answer=answer[0].upper() + answer[1:], most=most, next_steps=steps, sure=sure,
                 most_heading="Where they differ most")


def _title(result: Mapping[str, Any]) -> str:
    return f"Calibration: {result['ruleset']['name']}, {result['players']} players, {result['logs']} playtest games"


def render_calibration(result: Mapping[str, Any]) -> str:
    """calibration.html as text: one self-contained page, the terminal's figures as tables."""
    head = [
        ["ruleset", f"{esc(result['ruleset']['name'])} <code>{esc(short_fingerprint(result['ruleset']['fingerprint']))}</code>"],
        ["players", esc(result["players"])],
        ["playtest games", esc(result["logs"])],
        ["games a rung", f"one a deal, {esc(result['deals'])} deals from seed {esc(result['seed'])}"],
        ["tests", f"two-sided, Holm-adjusted over each rung's measures, alpha {esc(result['alpha'])}"],
    ]
    headers = ["rung", "distance", *(TABLE_MEASURES[name].label for name in TABLE_MEASURES)]
    rows = []
    for row in result["rungs"]:
        cells = [esc(row["rung"]), "-" if row["distance"] is None else f"{row['distance']:.3f}"]
        for name, entry in row["measures"].items():
            kind = TABLE_MEASURES[name].kind
            p = "no test" if entry["p_adjusted"] is None else f"p {entry['p_adjusted']:.3g}"
            cell = f"{_figure(entry['rung'], kind)} ({p})"
            cells.append(f"<strong>{esc(cell)} differs</strong>" if entry["differs"] else esc(cell))
        rows.append(cells)
    first = result["rungs"][0]["measures"] if result["rungs"] else {}
    people = ["the people", "", *(esc(_figure(entry["logs"], TABLE_MEASURES[name].kind)) for name, entry in first.items())]
    command = result.get("report_command")
    body = (
        f"<h1>{esc(_title(result))}</h1>\n"
        f"<p><strong>{esc(result['verdict']['sentence'])}</strong></p>\n"
        + (f"<p>A report at that rung: <code>{esc(command)}</code></p>\n" if command else "")
        + table(None, head, text_columns=2)
        + table(headers, [people, *rows], text_columns=1)
        + '<p class="note">Each cell: the rung\'s figure (a mean, a share, the two most picked crews) and its '
        "Holm-adjusted p-value against the people's; the distance is the root mean square of the measures' "
        "distances (0 to 1). How to read this page: docs/simulation.md, \"stargazer calibrate\". Every figure "
        "here is also in calibration.json beside this file.</p>"
    )
    return page(_title(result), body)


def write_calibration_page(result: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write ``out_dir/calibration.html``; its path."""
    path = Path(out_dir) / CALIBRATION_PAGE
    outputfiles.output_folder(path.parent)
    outputfiles.write_text(path, render_calibration(result))
    return path
