"""Verdicts across variants: does what one run says hold at every lineup and player count?

A command given several lineups or player counts (``simulation.variants``) makes one run, or
one comparison, per variant, each judged as today by the targets that apply to it
(``Targets.for_variant``). This module reads their answers side by side and says, per target
and over all, whether the verdict holds at all of them (variants.json, its page and the
terminal; docs/simulation.md, "Variants").

**A simulation's targets.** A target *holds* when it is met at every variant it applies to,
*fails* when it is not met at one or more (they are named), and is *not yet known* otherwise
(some variant leaves it open and none fails it). The headline is over the weighted targets: the
run holds when every one holds, fails (at the variants named) when any fails.

**A comparison's verdicts.** Each variant has its comparison's decision (better, worse, mixed,
equivalent, inconclusive: ``analysis.target_verdict``). Over the variants: *better* when B is
better at some variant and worse (or mixed) at none, *worse* the other way round, *mixed* when
better at some and worse at others, *equivalent* when equivalent at every one, *inconclusive*
otherwise. Each variant keeps its own level (its targets share ``alpha`` by Bonferroni); the
variants are not corrected against each other, since the claim "better at all of them" needs
every one, which is stricter than any one (an intersection-union test).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.report import esc, page, table
from stargazer_rules.text.reports import format_table
from stargazer_rules.rulesets import outputfiles

__all__ = [
    "VARIANTS_FORMAT",
    "VARIANTS_JSON",
    "VARIANTS_PAGE",
    "across_comparisons",
    "across_runs",
    "overall_decision",
    "render_variants",
    "terminal_variants",
    "write_variants",
]

VARIANTS_FORMAT = "stargazer-variants/1"
VARIANTS_JSON = "variants.json"
VARIANTS_PAGE = "variants.html"
#: What a variant shows for a target that does not apply to it (targets.yaml's players / lineups).
NOT_APPLYING = "not applying"
_STATUS_WORDS = {"met": "met", "not_met": "NOT MET", "unknown": "not yet known", NOT_APPLYING: "-"}


def _listed(labels: Sequence[str], every: Sequence[str] = ()) -> str:
    """The variants named, or ``all 4 variants`` when they are all of ``every``."""
    if len(every) > 1 and list(labels) == list(every):
        return f"all {len(every)} variants"
    return ", ".join(labels)


def _key_order(answers_by_variant: Sequence[Sequence[Mapping[str, Any]]]) -> list[str]:
    keys: list[str] = []
    for answers in answers_by_variant:
        for answer in answers:
            if answer["key"] not in keys:
                keys.append(answer["key"])
    return keys


def across_runs(variants: Sequence[Mapping[str, Any]], summaries: Sequence[Mapping[str, Any]], source: str) -> dict[str, Any]:
    """variants.json of a simulation: each variant's targets met (its ``summary.json``'s
    ``targets`` section) and each target's status at every variant, then the headline."""
    answers_by_variant = [summary["targets"]["targets"] for summary in summaries]
    rows = []
    for key in _key_order(answers_by_variant):
        found = [next((a for a in answers if a["key"] == key), None) for answers in answers_by_variant]
        first = next(a for a in found if a is not None)
        statuses = [NOT_APPLYING if a is None else a["status"] for a in found]
        failing = [v["label"] for v, status in zip(variants, statuses, strict=True) if status == "not_met"]
        open_at = [v["label"] for v, status in zip(variants, statuses, strict=True) if status == "unknown"]
        holds = "fails" if failing else "not yet known" if open_at else "holds"
        rows.append({
            "key": key, "label": first["label"], "goal_text": first["goal_text"], "weight": first["weight"],
            "statuses": statuses, "holds": holds, "fails_at": failing, "unknown_at": open_at,
            "applies_at": sum(1 for status in statuses if status != NOT_APPLYING),
        })
    per_variant = [
        {**dict(variant), "games": summary["run"]["games"], "met": summary["targets"]["met"],
         "not_met": summary["targets"]["not_met"], "unknown": summary["targets"]["unknown"],
         "total": summary["targets"]["total"]}
        for variant, summary in zip(variants, summaries, strict=True)
    ]
    return plain({"format": VARIANTS_FORMAT, "kind": "simulate", "targets_source": source, "variants": per_variant,
                  "targets": rows, **_runs_headline(rows, [v["label"] for v in variants])})


def _runs_headline(rows: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> dict[str, Any]:
    weighted = [row for row in rows if row["weight"] > 0]
    failing = [row for row in weighted if row["holds"] == "fails"]
    holding = [row for row in weighted if row["holds"] == "holds"]
    open_rows = [row for row in weighted if row["holds"] == "not yet known"]
    count = len(labels)
    if failing:
        where = [label for label in labels if any(label in row["fails_at"] for row in failing)]
        decision = "fails"
        text = (f"Fails at {_listed(where, labels)}: "
                + "; ".join(f"{row['label'].lower()} ({_listed(row['fails_at'], labels)})" for row in failing))
    elif open_rows:
        decision = "not yet known"
        text = "Not yet known: " + "; ".join(f"{row['label'].lower()} ({_listed(row['unknown_at'], labels)})" for row in open_rows)
    else:
        decision = "holds"
        text = f"Holds at all {count} variants"
    text += (f". {len(holding)} of {len(weighted)} weighted targets are met at every variant they apply to "
             f"({count} variants: {_listed(labels)}).")
    return {"decision": decision, "text": text,
            "counts": {"holds": len(holding), "fails": len(failing), "not_yet_known": len(open_rows), "weighted": len(weighted)}}


#: The decisions of a comparison, and those over several variants (the same words).
COMPARISON_DECISIONS = ("better", "worse", "mixed", "equivalent", "inconclusive")


def overall_decision(decisions: Sequence[str]) -> str:
    """The decision over the variants' decisions (module docstring): a ``mixed`` variant counts
    as better and worse at once."""
    better = any(d in ("better", "mixed") for d in decisions)
    worse = any(d in ("worse", "mixed") for d in decisions)
    if better and worse:
        return "mixed"
    if better:
        return "better"
    if worse:
        return "worse"
    if decisions and all(d == "equivalent" for d in decisions):
        return "equivalent"
    return "inconclusive"


def across_comparisons(variants: Sequence[Mapping[str, Any]], verdicts: Sequence[Mapping[str, Any]],
                       label_a: str, label_b: str, source: str) -> dict[str, Any]:
    """variants.json of a comparison: each variant's verdict (its comparison.json's), each
    target's decision at every variant, and the decision over them all."""
    answers_by_variant = [verdict["targets"] for verdict in verdicts]
    rows = []
    for key in _key_order(answers_by_variant):
        found = [next((row for row in answers if row["key"] == key), None) for answers in answers_by_variant]
        first = next(row for row in found if row is not None)
        decisions = [NOT_APPLYING if row is None else row["decision"] for row in found]
        judged = [d for d in decisions if d not in (NOT_APPLYING, "not compared")]
        rows.append({"key": key, "label": first["label"], "goal_text": first["goal_text"], "weight": first["weight"],
                     "decisions": decisions, "overall": overall_decision(judged) if judged else "not compared"})
    per_variant = [
        {**dict(variant), "decision": verdict["decision"], "text": verdict["text"], "games": verdict["games"],
         "met": verdict["met"]}
        for variant, verdict in zip(variants, verdicts, strict=True)
    ]
    decision = overall_decision([verdict["decision"] for verdict in verdicts])
    labels = [v["label"] for v in variants]
    by = {d: [v["label"] for v in per_variant if v["decision"] == d] for d in COMPARISON_DECISIONS}
    if all(v["decision"] == decision for v in per_variant):
        text = f"{decision.capitalize()} at all {len(labels)} variants"
    else:
        text = f"{decision.capitalize()}: " + "; ".join(f"{d} at {_listed(by[d], labels)}" for d in COMPARISON_DECISIONS if by[d])
    text += f" ({label_b} against {label_a}; {len(labels)} variants: {_listed(labels)})."
    return plain({"format": VARIANTS_FORMAT, "kind": "compare", "targets_source": source, "a": label_a, "b": label_b,
                  "variants": per_variant, "targets": rows, "decision": decision, "text": text,
                  "counts": {d: len(by[d]) for d in COMPARISON_DECISIONS}})


def _cells(overview: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The target x variant table: a header and a row per target (shared by page and terminal)."""
    labels = [v["label"] for v in overview["variants"]]
    if overview["kind"] == "simulate":
        headers = ["target", "goal", *labels, "at all"]
        rows = [[row["label"], row["goal_text"], *(_STATUS_WORDS[s] for s in row["statuses"]), row["holds"]]
                for row in overview["targets"]]
    else:
        headers = ["target", "goal", *labels, "over all"]
        rows = [[row["label"], row["goal_text"], *("-" if d == NOT_APPLYING else d for d in row["decisions"]), row["overall"]]
                for row in overview["targets"]]
    return headers, rows


def _variant_sentence(kind: str, variant: Mapping[str, Any]) -> str:
    """What one variant says: its targets met (simulate) or its comparison's headline."""
    if kind == "simulate":
        return (f"{variant['met']} of {variant['total']} targets met, {variant['not_met']} not met, "
                f"{variant['unknown']} not yet known over {variant['games']:,} games")
    return str(variant["text"])


def terminal_variants(overview: Mapping[str, Any]) -> str:
    """The headline, a line per variant and the target x variant table, as plain text."""
    headers, rows = _cells(overview)
    lines = [overview["text"], ""]
    lines += [f"{v['label']}: {_variant_sentence(overview['kind'], v)} ({v['folder']})" for v in overview["variants"]]
    lines.append("")
    lines += format_table(rows, headers=headers, indent="")
    return "\n".join(lines)


def render_variants(overview: Mapping[str, Any]) -> str:
    """variants.html: the headline, the variants with links to their pages, the target table."""
    kind = overview["kind"]
    title = ("Comparison across variants" if kind == "compare" else "Targets across variants")
    page_name = "comparison.html" if kind == "compare" else "report.html"
    headers, rows = _cells(overview)
    links = [[f'<a href="{esc(v["folder"])}/{page_name}">{esc(v["label"])}</a>', esc(_variant_sentence(kind, v))]
             for v in overview["variants"]]
    body = (
        f"<h1>{esc(title)}</h1>\n<p><strong>{esc(overview['text'])}</strong></p>\n"
        + table(["variant", "verdict" if kind == "compare" else "targets"], links, text_columns=2)
        + table([esc(h) for h in headers], [[esc(cell) for cell in row] for row in rows], text_columns=len(headers))
        + '<p class="note">Each variant is a run of its own (its page is linked), judged by the targets that '
        "apply to its player count and lineup (-: the target names other ones). Variants at one player count "
        "play the same deals; another player count deals other cards from the same seeds. How to read this "
        'page: docs/simulation.md, "Variants". Every figure here is also in variants.json beside this file.</p>'
    )
    return page(title, body)


def write_variants(overview: Mapping[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """Write variants.json and variants.html in ``out_dir``; their paths."""
    folder = outputfiles.output_folder(out_dir)
    data_path, page_path = folder / VARIANTS_JSON, folder / VARIANTS_PAGE
    outputfiles.write_json(data_path, overview, indent=2)
    outputfiles.write_text(page_path, render_variants(overview))
    return data_path, page_path
