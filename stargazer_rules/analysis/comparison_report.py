"""comparison.html: two runs side by side, self-contained like report.html."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stargazer_rules.analysis.labels import number, p_number, pct, points
from stargazer_rules.analysis.report import esc, figure, page, plot, table

__all__ = ["render_comparison"]

_SECTIONS = (("seats", "Seats"), ("scores", "Scores"), ("pace", "Pace"), ("crew", "Crew"), ("planets", "Planets"))
_METHODS = {
    "paired": "paired by game",
    "bootstrap": "paired bootstrap",
    "newcombe": "Newcombe (independent)",
    "welch": "Welch (independent)",
    "none": "side by side",
}


def _value(side: Mapping[str, Any], kind: str) -> str:
    if side["value"] is None:
        return "n/a"
    if kind == "rate":
        text = pct(side["value"])
        if side["low"] is not None:
            text += f" [{100 * side['low']:.1f}, {100 * side['high']:.1f}]"
    elif kind == "p":
        text = p_number(side["value"])
    else:
        text = f"{side['value']:.2f}"
        if side["low"] is not None:
            text += f" [{side['low']:.2f}, {side['high']:.2f}]"
    return f"{text}<br><span class='note'>n = {number(side['n'])}</span>"


def _difference(metric: Mapping[str, Any]) -> str:
    if metric["difference"] is None:
        return ""
    if metric["kind"] == "rate":
        return (f"{points(metric['difference'], sign=True)} points "
                f"[{points(metric['low'], sign=True)}, {points(metric['high'], sign=True)}]")
    return f"{metric['difference']:+.3f} [{metric['low']:+.3f}, {metric['high']:+.3f}]"


def _findings(side: Mapping[str, Any]) -> str:
    if not side["findings"]:
        return "<p>No figure outside the bounds.</p>"
    return "<ul>" + "".join(f"<li>{esc(f['text'])}</li>" for f in side["findings"]) + "</ul>"


def render_comparison(comparison: Mapping[str, Any]) -> str:
    """comparison.html as text."""
    a, b = comparison["a"], comparison["b"]
    level = f"{100 * comparison['confidence']:g}%"
    title = f"Stargazer comparison: {a['label']} vs {b['label']}"
    pairing = comparison["pairing"]
    run_rows = []
    for side in (a, b):
        run = side["run"]
        run_rows.append(
            [esc(side["label"]), esc(run["ruleset"]["name"]), f"<code>{esc(run['ruleset']['fingerprint'][:12])}</code>",
             number(run["players"]), number(run["games"]), esc(", ".join(run["bots"]))]
        )
    warnings = [w for side in (a, b) for w in (f"{side['label']}: {x['text']}" for x in side["run"]["warnings"])]
    warnings += comparison["warnings"]
    body = [
        f"<h1>{esc(title)}</h1>",
        "<nav>" + "".join(f'<a href="#{ident}">{text}</a>' for ident, text in _SECTIONS) + "</nav>",
        table(["run", "ruleset", "fingerprint", "players", "games", "bots"], run_rows, text_columns=3),
        "".join(f'<div class="warning">{esc(w)}</div>' for w in warnings),
        (f"<p>Games paired by index (same deal seed and rotation): <strong>{number(pairing['pairs'])}</strong>; "
        f"only in {esc(a['label'])}: {number(pairing['only_a'])}; only in {esc(b['label'])}: {number(pairing['only_b'])}.</p>"),
        (f"<p>Differences are {esc(b['label'])} minus {esc(a['label'])}, with {level} intervals; "
        f"<strong>{number(comparison['significant'])}</strong> of {number(comparison['tested'])} differences are "
        f"significant (interval excludes 0), about {comparison['tested'] * (1 - comparison['confidence']):.1f} "
        "would be by chance alone. Paired differences compare the same deals; card figures compare the two "
        "runs as independent samples.</p>"),
        figure(plot("comparison_seats", comparison), "Seat win shares of both runs with their intervals."),
        f"<h2>Findings of {esc(a['label'])}</h2>" + _findings(a),
        f"<h2>Findings of {esc(b['label'])}</h2>" + _findings(b),
    ]
    for ident, heading in _SECTIONS:
        metrics = [m for m in comparison["metrics"] if m["section"] == ident]
        rows = [
            [esc(m["label"]), _value(m["a"], m["kind"]), _value(m["b"], m["kind"]), _difference(m),
             esc(_METHODS[m["method"]]) + (f" ({number(m['pairs'])} pairs)" if m["pairs"] else ""),
             "significant" if m["significant"] else ""]
            for m in metrics
        ]
        body.append(
            f'<section id="{ident}"><h2>{heading}</h2>'
            + table(["metric", esc(a["label"]), esc(b["label"]), f"{esc(b['label'])} − {esc(a['label'])}", "interval", ""],
                    rows, row_ids=[f"metric-{m['id']}" for m in metrics], marked=[m["significant"] for m in metrics])
            + "</section>"
        )
    body.append('<p class="note">How to read this page: docs/simulation.md, "Comparing two runs".</p>')
    return page(title, "\n".join(body))
