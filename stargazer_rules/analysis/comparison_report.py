"""comparison.html: two runs side by side, self-contained like report.html."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stargazer_rules.analysis.labels import (
    METHODS,
    metric_label,
    number,
    p_number,
    pct,
    points,
)
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.target_verdict import change_text
from stargazer_rules.analysis.report import esc, figure, page, plot, table
from stargazer_rules.analysis.summary_view import Finding, RunInfo
from stargazer_rules.rulesets.loader import short_fingerprint

__all__ = ["render_comparison"]

_SECTIONS = (("seats", "Seats"), ("scores", "Scores"), ("pace", "Pace"), ("crew", "Crew"), ("planets", "Planets"))


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
        text = f"{side['value']:.3f}"
        if side["low"] is not None:
            text += f" [{side['low']:.3f}, {side['high']:.3f}]"
    return f"{text}<br><span class='note'>n = {number(side['n'])}</span>"


def _difference(metric: Mapping[str, Any]) -> str:
    if metric["difference"] is None:
        return ""
    if metric["kind"] == "rate":
        return (f"{points(metric['difference'], sign=True)} points "
                f"[{points(metric['low'], sign=True)}, {points(metric['high'], sign=True)}]")
    return f"{metric['difference']:+.3f} [{metric['low']:+.3f}, {metric['high']:+.3f}]"


def _findings(side: Mapping[str, Any]) -> str:
    """A run's findings (the summary's, as comparison.json keeps them)."""
    found = [Finding(finding, "$.findings") for finding in side["findings"]]
    if not found:
        return "<p>No figure outside the bounds.</p>"
    return "<ul>" + "".join(f"<li>{esc(f.text)}</li>" for f in found) + "</ul>"


def _target_table(decided: Mapping[str, Any]) -> str:
    """Each target: its goal, the worst subject's value in A and in B, the change of its
    shortfall B - A (negative: B misses by less) with its interval, and the decision."""
    rows = []
    for row in decided["targets"]:
        a, b = row["a"] or {}, row["b"] or {}

        def worst(side: Mapping[str, Any]) -> str:
            who = f"{side['worst_label']}: " if side.get("worst_label") else ""
            return esc(f"{who}{side.get('shown', 'n/a')}")

        change = esc(change_text(row))
        decision = row["decision"] + (f" (about {row['games_needed']:,} paired games)" if row.get("games_needed") else "")
        if row.get("differs"):
            decision += f"; {row['differs']}"
        rows.append([esc(row["label"]), esc(row["goal_text"]), worst(a), worst(b), change, esc(decision),
                     esc(f"{row['weight']:g}")])
    return (
        table(["target", "goal", "A (worst)", "B (worst)", "shortfall change B − A", "decision", "weight"], rows,
              text_columns=4)
        + f'<p class="note">A target\'s shortfall is how far its worst seat or card lies outside the goal (0 '
        f"when all are inside); like every difference on this page the change is B − A, and lower is better: a negative change means B misses it by less. Paired bootstrap over the paired "
        f"games; {esc(decided['multiplicity']['text'])}. <code>docs/simulation.md</code>, \"The verdict\".</p>"
    )


def _verdict(comparison: Mapping[str, Any]) -> str:
    """The verdict box, the changes that matter most, the rules diff, the findings diff."""
    decided = comparison["verdict"]
    parts = [
        f'<section id="verdict" class="verdict verdict-{esc(decided["decision"])}"><h2>Verdict: '
        f'{esc(decided["decision"])}</h2><p><strong>{esc(decided["text"])}</strong></p>'
        + _target_table(decided)
    ]
    by_id = {metric["id"]: metric for metric in comparison["metrics"]}
    top = comparison.get("top_changes") or []
    if top:
        rows = [[esc(metric_label(by_id[item["id"]])), _value(by_id[item["id"]]["a"], by_id[item["id"]]["kind"]),
                 _value(by_id[item["id"]]["b"], by_id[item["id"]]["kind"]), _difference(by_id[item["id"]]),
                 esc(METHODS[by_id[item["id"]]["method"]])] for item in top]
        parts.append("<h3>The changes that matter most</h3><p class='note'>Significant changes, the largest "
                     "change relative to its standard error first.</p>"
                     + table(["metric", "A", "B", "B − A", "interval"], rows,
                             row_ids=[f"top-{item['id']}" for item in top]))
    parts.append("</section>")
    rules = comparison.get("rules_diff")
    if rules is not None:
        # the changes of the YAML, as `stargazer diff` prints them: field names and effects as written
        items = ("".join(f"<li><code>{esc(change['text'])}</code></li>" for change in rules)
                 or "<li>no difference in the rules</li>")
        parts.append(f'<section id="rules-diff"><h2>What changed in the rules</h2><ul>{items}</ul></section>')
    diff = comparison.get("findings_diff") or []
    rows = []
    for row in diff:
        change = row["change"]
        if change is None:
            shown, significant = "not measured", ""
        else:
            shown = _difference({**change, "kind": change["kind"]})
            significant = "significant" if change["significant"] else "not significant"
        if row["crossed_bound_only"]:
            significant += "; only crossed its bound"
        rows.append([esc(row["status"]), esc(row["text_a"] or "—"), esc(row["text_b"] or "—"), shown, esc(significant)])
    parts.append('<section id="findings-diff"><h2>Findings: resolved, new, persisting</h2>'
                 + (table(["status", "in A", "in B", "change B − A", "significance"], rows, text_columns=3)
                    if rows else "<p>No finding in either run.</p>"))
    near = comparison.get("near_misses") or {}
    for side, label in (("b", comparison["b"]["label"]), ("a", comparison["a"]["label"])):
        if near.get(side):
            near_rows = [[esc(r["label"]), esc(MEASURES[r["measure"]].label), esc(MEASURES[r["measure"]].shown(r["value"])),
                          esc(r["goal"]), f"{r['distance']:+.3f}"] for r in near[side]]
            parts.append(f"<h3>Near misses of {esc(label)}</h3><p class='note'>Subjects within "
                         f"{near['distance']:.3f} of their goal that are not findings (a negative distance: past "
                         "the goal, but the interval reaches inside).</p>"
                         + table(["subject", "target", "value", "goal", "distance"], near_rows, text_columns=4))
    parts.append("</section>")  # the findings diff and the near misses
    return "".join(parts)


def render_comparison(comparison: Mapping[str, Any]) -> str:
    """comparison.html as text."""
    a, b = comparison["a"], comparison["b"]
    level = f"{100 * comparison['confidence']:g}%"
    title = f"Stargazer comparison: {a['label']} vs {b['label']}"
    pairing = comparison["pairing"]
    run_rows = []
    for side in (a, b):
        run = RunInfo(side["run"], "$.run")
        run_rows.append(
            [esc(side["label"]), esc(run.ruleset.name), f"<code>{esc(short_fingerprint(run.ruleset.fingerprint))}</code>",
             number(run.players), number(run.games), esc(", ".join(run.bots))]
        )
    warnings = [f"{side['label']}: {warning.text}" for side in (a, b) for warning in RunInfo(side["run"], "$.run").warnings]
    warnings += comparison["warnings"]
    body = [
        f"<h1>{esc(title)}</h1>",
        _verdict(comparison) if "verdict" in comparison else "",
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
        f"<details><summary>Findings of {esc(a['label'])}</summary>" + _findings(a) + "</details>",
        f"<details><summary>Findings of {esc(b['label'])}</summary>" + _findings(b) + "</details>",
    ]
    for ident, heading in _SECTIONS:
        metrics = [m for m in comparison["metrics"] if m["section"] == ident]
        rows = [
            [esc(metric_label(m)) + (" <span class='note'>(rules changed)</span>" if m.get("rules_changed") else ""),
             _value(m["a"], m["kind"]), _value(m["b"], m["kind"]), _difference(m),
             esc(METHODS[m["method"]]) + (f" ({number(m['pairs'])} pairs)" if m["pairs"] else ""),
             "yes" if m["significant"] else ""]
            for m in metrics
        ]
        body.append(
            f'<section id="{ident}"><h2>{heading}</h2>'
            + table(["metric", esc(a["label"]), esc(b["label"]), f"{esc(b['label'])} − {esc(a['label'])}", "interval",
                     "significant"],
                    rows, row_ids=[f"metric-{m['id']}" for m in metrics], marked=[m["significant"] for m in metrics])
            + "</section>"
        )
    body.append('<p class="note">How to read this page: <code>docs/simulation.md</code>, "Comparing two runs".</p>')
    return page(title, "\n".join(body))
