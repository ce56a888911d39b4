"""tune.json and tune.html: what ``stargazer tune`` found, written out for a designer.

tune.html is self-contained like report.html (``analysis.report``'s ``page``, ``table`` and
plots): the progress over trials (each candidate's objective and the best so far), the front of
targets missed against edits, the importance of each parameter, and the re-check table. Every
number in it is in tune.json, which ``tune_run`` builds (``TuneResult.facts``).

**Parameter importance** is optuna's PED-ANOVA (``optuna.importance.PedAnovaImportanceEvaluator``):
how much each parameter's values tell the best tenth of the complete candidates from the rest,
as shares summing to 1. It needs numpy only, which the library depends on anyway; optuna's
fANOVA evaluator would need scikit-learn.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from stargazer_rules.analysis.brief import Brief, bots_in_words, designer_label
from stargazer_rules.analysis.labels import number
from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.report import esc, figure, page, table, write_json
from stargazer_rules.errors import counted
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.tuning.search import edits_of

__all__ = ["IMPORTANCE_EVALUATOR", "importance", "met_cell", "render_tune", "trial_rows", "tune_brief", "write_tune"]

TUNE_JSON = "tune.json"
TUNE_PAGE = "tune.html"
#: How the importances are computed, as tune.json and the page name it.
IMPORTANCE_EVALUATOR = "PED-ANOVA (optuna.importance.PedAnovaImportanceEvaluator; numpy only)"


def trial_rows(study: Any, base: Mapping[str, Any], paths: Mapping[str, str]) -> list[dict[str, Any]]:
    """Every trial of the study in order: its state in words (``complete``, ``pruned``,
    ``over_max_edits`` or ``refused`` (by the ruleset's checks: both never played), ``repeat``,
    ``failed``, ``waiting``, ``running``), value, best value so far, edits (by path), blocks,
    why not played (``invalid``), the facts its objective kept."""
    from optuna.trial import TrialState

    rows = []
    best = None
    for trial in study.get_trials(deepcopy=False):
        attrs = trial.user_attrs
        if trial.state == TrialState.FAIL:
            state = "failed"
        elif trial.state in (TrialState.WAITING, TrialState.RUNNING):
            state = trial.state.name.lower()
        elif "repeat_of" in attrs:
            state = "repeat"
        elif "invalid" in attrs:
            state = "refused" if attrs.get("refused") else "over_max_edits"
        elif trial.state == TrialState.PRUNED:
            state = "pruned"
        else:
            state = "complete"
        value = float(trial.value) if trial.state == TrialState.COMPLETE else None
        if value is not None and state == "complete":
            best = value if best is None else min(best, value)
        edits = edits_of(trial.params, base) if len(trial.params) == len(base) else {}
        rows.append({
            "number": trial.number, "state": state, "value": value, "best": best,
            "edits": {paths[name]: v for name, v in edits.items()}, "edit_count": len(edits),
            "blocks": len(trial.intermediate_values), "invalid": attrs.get("invalid"),
            "repeat_of": attrs.get("repeat_of"), "facts": dict(attrs.get("facts", {})),
        })
    return plain(rows)


def importance(study: Any) -> dict[str, Any]:
    """Each parameter's importance (module docstring), or why there is none yet."""
    import optuna
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    result: dict[str, Any] = {"evaluator": IMPORTANCE_EVALUATOR, "values": None, "note": None}
    if len({tuple(sorted(t.params.items())) for t in complete}) < 2:
        result["note"] = "fewer than two different complete candidates: no importance to measure"
        return result
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            values = optuna.importance.get_param_importances(
                study, evaluator=optuna.importance.PedAnovaImportanceEvaluator())
        except (ValueError, RuntimeError) as error:
            result["note"] = f"not measured: {error}"
            return result
    result["values"] = {name: float(share) for name, share in values.items()}
    if caught:
        result["note"] = str(caught[0].message)
    return result


def write_tune(facts: Mapping[str, Any], out: str | Path) -> tuple[Path, Path]:
    """Write ``OUT/tune.json`` and ``OUT/tune.html``; their paths."""
    out = outputfiles.output_folder(out)
    data = plain(dict(facts))
    write_json(data, out / TUNE_JSON)
    outputfiles.write_text(out / TUNE_PAGE, render_tune(data))
    return out / TUNE_JSON, out / TUNE_PAGE


def _value(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _edits_cell(lines: list[str]) -> str:
    return "<br>".join(f"<code>{esc(line)}</code>" for line in lines) or "(the base)"


def met_cell(count: Mapping[str, Any] | None) -> str:
    """``5 of 8 (base 4)``: a table cell of ``tune_run.met_in_both``'s count, whose column
    names the games; empty where a study kept no statuses."""
    if count is None:
        return ""
    return f"{count['met']} of {count['of']} (base {count['base_met']})"


#: The columns of the targets met, each naming the games it counts (``met_cell``).
SEARCH_COLUMN = "targets met in the search's games (base)"
RECHECK_COLUMN = "targets met in the re-check's games (base)"
#: How every count of targets met on the page is made: one rule for the search and the re-check.
COUNTING = ("Targets met, in every table and in the proposal: of the targets with weight decided (met or not "
            "met) both in a candidate's games and in the base's on the same deals, how many each meets. The "
            "search's tables count the search's games; the re-check and the proposal its fresh games.")

#: How the trials' states are named on the page (tune.json's ``counts`` keys).
STATE_WORDS = {"over_max_edits": "over max_edits (not played)",
               "refused": "refused by the ruleset's checks (not played)", "repeat": "repeated"}


def _lineup_text(lineup: list[str]) -> str:
    """``mcts:... in every seat``, or the bots of the lineup in order."""
    distinct = list(dict.fromkeys(lineup))
    return f"{distinct[0]} in every seat" if len(distinct) == 1 else "/".join(lineup)


def render_tune(tune: Mapping[str, Any]) -> str:
    """tune.html as text."""
    from stargazer_rules.analysis.plots import tune_front, tune_progress

    ruleset, settings = tune["ruleset"], tune["settings"]
    variants = settings.get("variants")
    title = (f"stargazer tune: {ruleset['name']}, {len(variants)} variants" if variants
             else f"stargazer tune: {ruleset['name']}, {settings['players']} players")
    outcome = tune["proposal"]["text"] if tune["proposal"] else tune["no_edit"]
    counts = tune["counts"]
    head_rows = [
        ["ruleset", f"{esc(ruleset['name'])} <code>{esc(short_fingerprint(ruleset['fingerprint']))}</code>"],
        ["space", (f"{esc(tune['space']['source'])}: {counted(len(tune['space']['parameters']), 'parameter|parameters')}, "
                   f"at most {counted(tune['space']['max_edits'], 'edit|edits')}")],
        ["targets", esc(tune["targets"]["source"])],
        ["bots", esc(_lineup_text(settings["lineup"]))] if not variants else
        ["variants", esc(", ".join(v["label"] for v in variants)) + " (the objective sums theirs)"],
        ["games a candidate", (f"{settings['games_per_trial']:,} in {settings['blocks']} blocks of "
                               f"{settings['block_games']:,} (deals from seed {esc(settings['seed'])})")],
        ["trials", esc(", ".join(f"{count} {STATE_WORDS.get(state, state)}" for state, count in counts.items() if count))],
        ["re-check", (f"the best {settings['recheck']} on {settings['recheck_games']:,} fresh games each "
                      f"(deals from seed {esc(settings['recheck_seed'])})")],
    ]
    body = [f"<h1>{esc(title)}</h1>", f"<p><strong>{esc(outcome)}</strong></p>",
            table(None, head_rows, text_columns=2), f'<p class="note">{esc(COUNTING)}</p>']
    body.append("<h2 id=\"progress\">Progress</h2>")
    if any(row["value"] is not None for row in tune["trials"]):
        body.append(figure(tune_progress(tune), "Dots: each complete candidate's objective (the weighted "
                           "shortfall of the targets; 0 meets every goal); line: the best so far. Pruned and "
                           "invalid candidates have no objective."))
    body.append("<h2 id=\"front\">Targets met against edits</h2>")
    if tune["front"]:
        body.append(figure(tune_front(tune), "The best candidate with each number of edits: its objective "
                           "and the targets its games meet."))
        body.append(table(["edits", "best objective", SEARCH_COLUMN, "trial"],
                          [[str(p["edits"]), _value(p["value"]), esc(met_cell(p["targets_met"])), str(p["trial"])]
                           for p in tune["front"]], text_columns=3))
    body.append("<h2 id=\"importance\">Parameter importance</h2>")
    found = tune["importance"]
    if found["values"]:
        paths = {p["name"]: p["path"] for p in tune["space"]["parameters"]}
        body.append(table(["parameter", "importance"],
                          [[f"<code>{esc(paths.get(name, name))}</code>", f"{100 * share:.0f}%"]
                           for name, share in found["values"].items()]))
    body.append(f"<p class=\"note\">{esc(found['evaluator'])}" + (f": {esc(found['note'])}" if found["note"] else "")
                + "</p>")
    body.append("<h2 id=\"recheck\">Re-check on fresh deals</h2>")
    if tune["rechecks"]:
        body.append(table(["trial", "edits", RECHECK_COLUMN, "verdict"],
                          [[str(r["trial"]), _edits_cell(r["edits_text"]), esc(met_cell(r["targets_met"])), esc(r["text"])]
                           for r in tune["rechecks"]], text_columns=4))
    else:
        body.append("<p>No candidate was re-checked.</p>")
    body.append("<h2 id=\"candidates\">Best candidates of the search</h2>")
    body.append(table(["trial", "edits", "objective", SEARCH_COLUMN, "verdict"],
                      [[str(c["trial"]), _edits_cell(c["edits_text"]), _value(c["value"]),
                        esc(met_cell(c["targets_met"])), esc(c["verdict"] or "")] for c in tune["candidates"]],
                      text_columns=2))
    body.append('<p class="note">How to read this page: docs/simulation.md, "stargazer tune". Every figure '
                "here is also in tune.json beside this file.</p>")
    return page(title, "\n".join(body))


def tune_brief(tune: Mapping[str, Any], rules: str | None = None) -> Brief:
    """The brief of a search: whether an edit is proposed and on which targets it is better, the
    edits it makes, the comparison that checks it on every figure, and how sure (the re-check's
    fresh games and the targets they leave open). ``rules`` is how the designer named the base."""
    name = tune["ruleset"]["name"]
    lineup = tune["settings"].get("lineup") or []
    bots = f", {bots_in_words(lineup)}" if lineup else ""
    played = tune["counts"]["complete"] + tune["counts"]["pruned"]
    title = f"{name} tuned{bots}: {counted(played, 'candidate|candidates')} played"
    proposal = tune["proposal"]
    recheck = next((r for r in tune["rechecks"] if proposal and r["trial"] == proposal["trial"]), None)
    if proposal is None or recheck is None:
        no_edit = tune["no_edit"] or "no edit found"
        return Brief(title=title, answer=no_edit[0].upper() + no_edit[1:] + ".", most=[], next_steps=[],
                     sure=f"{number(tune['settings']['recheck_games'])} fresh games re-checked each of the best.",
                     most_heading="What the proposal changes", nothing_next="widen tune.yaml's choices, or the targets")
    def labels(decision: str) -> list[str]:
        return [designer_label(t["key"], t["label"]) for t in recheck["targets"] if t["decision"] == decision]

    answer = (f"Yes: the edits of trial {proposal['trial']} make {name} better on {', '.join(labels('better'))}, "
              "and worse on none.")
    open_ones = labels("inconclusive")
    count = recheck["targets_met"]
    sure = (f"{number(recheck['games'])} fresh games re-checked it against the base, dealt alike: there it meets "
            f"{count['met']} of {count['of']} targets with weight, the base {count['base_met']}")
    searched = next((c["targets_met"] for c in tune["candidates"] if c["trial"] == proposal["trial"]), None)
    if searched is not None:
        sure += f" (in the search's games {searched['met']} of {searched['of']}, the base {searched['base_met']})"
    sure += "."
    if open_ones:
        sure += f" Still open at those games: {', '.join(open_ones)}."
    return Brief(title=title, answer=answer, most=[f"{line}." for line in proposal["edits_text"][:3]],
                 next_steps=[("Check the proposal on every figure:", f"stargazer compare {rules or name} {proposal['folder']}")],
                 sure=sure, most_heading="What the proposal changes")
