"""``stargazer tune``, the game side: each candidate of the search (``tuning.search``) is a ruleset
edited from the base (``tuning.edits.apply_edits``), played by bots and judged by the design
targets; the best few are played again on fresh deals and compared with the base.

**A candidate's games.** ``games_per_trial`` games on the deals of the baseline (the same
``seed``: game ``i`` of every candidate is dealt and seated as game ``i`` of the base, so games
pair by index), played by ``simulation.runs.simulate_run`` into ``OUT/runs/<rules>-<fingerprint>``
with the run cache, so a candidate played before (by this search or another) is not played
again. They come in ``BLOCKS`` blocks of whole deals, each deal in every seat rotation.

**The objective** of a set of games: the sum over the targets of weight x shortfall, the
shortfall being how far the target's worst subject lies outside its goal (``max(0, miss)`` of
its answer from ``analysis.target_check.check_targets``; 0 when inside; a target with no
answer yet counts 0). Each block's games give one value, reported for pruning (the block's
``min_card_games`` is the target's scaled by the block's share of the candidate's games, so a
card in play in the block in proportion is judged); the candidate's value is the objective
over all its games.

**Several variants** (lineups and player counts, ``simulation.variants``): a candidate plays its
games at every variant (each a run of its own, judged by the targets that apply to it), and its
objective is the **sum** of the variants' objectives, block by block and over all its games: an
edit that fixes three players and breaks four gains nothing, and every variant's shortfall counts
(a maximum would ignore what an edit does at all but the worst one, and moves in jumps the search
reads badly). The re-check compares base and candidate at every variant; the decision over them
is ``analysis.variant_verdict.overall_decision`` (better at some variant, worse or mixed at none).

**The re-check.** The best ``recheck`` candidates with edits and an objective below the base's
are played again on fresh deals (``seed + RECHECK_SEED_OFFSET``, ``recheck_games`` each for the
base and the candidate) and compared with the base target by target
(``analysis.compare_summaries``, its ``verdict``). Only a candidate whose verdict is ``better``
(better on some target, worse on none) is proposed: of those, the one that meets the most
targets in its re-check (``met_in_both``: of the targets with weight decided in both runs, as the
search's table counts a candidate's in its games and the base's), then the lowest objective, is written to ``OUT/proposal/`` (``tuning.edits.write_proposal``) and
described by the targets it meets, does not meet and leaves unknown (``proposal_text``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.analysis.compare import Run, compare_summaries
from stargazer_rules.analysis.measures import MeasureContext
from stargazer_rules.analysis.target_check import check_targets
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.analysis.variant_verdict import overall_decision
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import native
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import cache, runs
from stargazer_rules.simulation.estimate import format_duration
from stargazer_rules.simulation.variants import Variant
from stargazer_rules.tuning import search as tuning_search
from stargazer_rules.tuning.edits import apply_edits, edits_text, proposal_title, write_proposal
from stargazer_rules.tuning.space import Space

__all__ = ["BLOCKS", "RECHECK_SEED_OFFSET", "TuneResult", "objective_of", "proposal_text", "proposed_of", "tune"]

#: The blocks of a candidate's games: each a pruning step of the Wilcoxon test, which cannot
#: prune before ``search.PRUNE_AFTER`` of them.
BLOCKS = 6
#: The re-check's deals are dealt from ``seed + RECHECK_SEED_OFFSET``: a prime far past any
#: search's deals, so the re-check never replays a deal the search chose candidates on.
RECHECK_SEED_OFFSET = 1_000_003
#: The file of the study in OUT.
STUDY_FILE = "study.db"
#: The folders of the candidates' runs and of the re-check's, in the output folder.
RUNS_FOLDER = "runs"
RECHECK_FOLDER = "recheck"
#: The folder in OUT of the proposal.
PROPOSAL_FOLDER = "proposal"


@attrs.frozen
class TuneResult:
    """What ``tune`` found: the ``study``, its ``facts`` (tune.json's content) and the
    ``proposal`` folder (None when no edit was proposed; ``facts["no_edit"]`` says why)."""

    study: Any
    facts: dict[str, Any]
    proposal: Path | None


def objective_of(games: Sequence[Mapping[str, Any]], targets: Targets, ruleset: Ruleset) -> tuple[float, dict[str, Any]]:
    """The objective of ``games`` (module docstring) and its facts: each target's shortfall,
    the targets met, not met and not yet known, the keys of the weighted targets missed."""
    section = check_targets(games, targets, MeasureContext.of(games, ruleset), {})  # no names: values only
    shortfalls = {}
    value = 0.0
    for answer in section["targets"]:
        short = max(0.0, float(answer["miss"])) if answer["miss"] is not None else 0.0
        shortfalls[answer["key"]] = short
        value += answer["weight"] * short
    missed = [a["key"] for a in section["targets"] if a["weight"] > 0 and (a["miss"] or 0) > 0]
    facts = {"games": len(games), "met": section["met"], "not_met": section["not_met"],
             "unknown": section["unknown"], "total": section["total"], "missed": missed,
             "shortfalls": shortfalls, "statuses": weighted_statuses(section["targets"])}
    return value, facts


def weighted_statuses(answers: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Each target with weight by key: ``met``, ``not_met`` or ``unknown`` in the games checked.
    A target of weight 0 is shown but never counted, by the objective or by ``met_in_both``."""
    return {answer["key"]: answer["status"] for answer in answers if answer["weight"] > 0}


#: Which games a count of targets met comes from, as tune.json names them.
SEARCH_GAMES, RECHECK_GAMES = "search", "recheck"


def met_in_both(statuses: Mapping[str, str], base_statuses: Mapping[str, str], *, games: str,
                game_count: int) -> dict[str, Any]:
    """The one count of targets met that tune.json, tune.html and the brief show, for the search's
    table and the proposal alike: of the targets with weight decided (met or not met) both in a
    candidate's games and in the base's on the same deals (``of``), how many the candidate meets
    (``met``) and the base (``base_met``); ``games`` says which games (``search`` or ``recheck``,
    ``game_count`` each), ``one_side`` the targets decided in one of the two only (not counted)."""
    decided = ("met", "not_met")
    both = [key for key, status in statuses.items() if status in decided and base_statuses.get(key) in decided]
    one_side = [key for key in dict.fromkeys([*statuses, *base_statuses]) if key not in both
                and (statuses.get(key) in decided or base_statuses.get(key) in decided)]
    return {"games": games, "game_count": game_count, "of": len(both),
            "met": sum(1 for key in both if statuses[key] == "met"),
            "base_met": sum(1 for key in both if base_statuses[key] == "met"), "one_side": one_side}


def _block_targets(targets: Targets, share: float) -> Targets:
    settings = targets.settings
    scaled = max(1, round(settings.min_card_games * share))
    return attrs.evolve(targets, settings=attrs.evolve(settings, min_card_games=scaled))


def _deals_per_block(games_per_trial: int, players: int) -> tuple[int, int]:
    """(deals a block, blocks): ``BLOCKS`` blocks of whole deals, fewer when there are fewer deals."""
    deals = max(1, math.ceil(games_per_trial / players))
    blocks = min(BLOCKS, deals)
    return math.ceil(deals / blocks), blocks


def _study_name(base: Ruleset, space: Space, targets: Targets, settings: Mapping[str, Any]) -> str:
    """The study of these options: the same base, space, targets and play resume it."""
    identity = {
        "base": base.fingerprint,
        "space": {name: [repr(v) for v in p.choices] for name, p in space.parameters.items()},
        "max_edits": space.max_edits,
        "targets": targets.to_json(),
        "play": dict(settings),
    }
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()
    return f"tune-{digest[:16]}"


def tune(
    base_ruleset: Ruleset,
    space: Space,
    targets: Targets,
    *,
    out: Path,
    trials: int,
    games_per_trial: int,
    lineup: Sequence[str],
    players: int,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    time_limit: float | None = None,
    recheck: int = 3,
    recheck_games: int,
    progress: Callable[[str], None] | None = None,
    cache_dir: Path | None = None,
    engine: str = native.DEFAULT_ENGINE,
    variants: Sequence[Variant] | None = None,
) -> TuneResult:
    """Search ``space`` around ``base_ruleset`` for the smallest edit that meets ``targets``,
    re-check the best candidates, write the proposal (module docstring). The caller holds
    ``out``'s lock. ``progress`` gets one line per trial and per re-check. ``variants`` (several
    lineups or player counts) replace ``lineup`` and ``players``."""
    out = Path(out)
    say = progress or (lambda text: None)
    cache_dir = cache.cache_folder(cache_dir)
    variants = tuple(variants) if variants else (Variant(players, tuple(lineup)),)
    several = len(variants) > 1
    blocks = min(_deals_per_block(games_per_trial, v.players)[1] for v in variants)
    deals = {v: math.ceil(math.ceil(games_per_trial / v.players) / blocks) for v in variants}
    block_games_of = {v: deals[v] * v.players for v in variants}
    block_games = sum(block_games_of.values())
    judged = {v: targets.for_variant(v.players, v.lineup) for v in variants}
    base_values = {name: parameter.base for name, parameter in space.parameters.items()}
    first = variants[0]
    play: dict[str, Any] = {"games_per_trial": blocks * block_games, "blocks": blocks, "lineup": list(first.lineup),
                            "players": first.players, "seed": seed, "engine": engine}
    if several:  # one variant keeps the play (and so the study) of a tune before variants
        play["variants"] = [v.to_json() for v in variants]
    clock = _Clock()

    def run_of(ruleset: Ruleset, folder: Path, games: int, run_seed: int, variant: Variant = first) -> tuple[dict[str, Any], ...]:
        request = runs.RunRequest(ruleset, folder / variant.folder if several else folder, variant.lineup,
                                  players=variant.players, games=games, seed=run_seed,
                                  workers=workers, scheduler=scheduler, engine=engine, cache=cache_dir,
                                  progress=False)
        outcome = runs.simulate_run(request, _warnings_to(say), "tune")
        clock.played(outcome.played, outcome.seconds)
        return outcome.games

    def objective_over(games_of: Mapping[Variant, Sequence[Mapping[str, Any]]], ruleset: Ruleset,
                       scale: float = 1.0) -> tuple[float, dict[str, Any]]:
        """The sum of the variants' objectives (module docstring) and their facts together."""
        scored = {v: objective_of(games_of[v], _block_targets(judged[v], scale) if scale != 1.0 else judged[v], ruleset)
                  for v in variants}
        if not several:
            return scored[first]
        return sum(value for value, _ in scored.values()), _joined_facts({v.label: facts for v, (_, facts) in scored.items()})

    def edited(assignment: Mapping[str, Any]) -> Ruleset:
        edits = tuning_search.edits_of(assignment, base_values)
        if not edits:
            return base_ruleset
        return apply_edits(base_ruleset, {space.parameters[name].path: value for name, value in edits.items()})

    def objective(assignment: Mapping[str, Any], report: Callable[[int, float], bool]) -> Any:
        try:
            ruleset = edited(assignment)
        except RulesetError as error:
            return tuning_search.Invalid(str(error.problems[0]) if error.problems else str(error))
        folder = _run_folder(out / RUNS_FOLDER, ruleset)
        games: dict[Variant, tuple[dict[str, Any], ...]] = {}
        for block in range(blocks):
            games = {v: run_of(ruleset, folder, (block + 1) * block_games_of[v], seed, v) for v in variants}
            in_block = {v: [g for g in games[v] if block * deals[v] <= g["block"] < (block + 1) * deals[v]] for v in variants}
            value, _ = objective_over(in_block, ruleset, 1 / blocks)
            if report(block, value):
                break
        value, facts = objective_over(games, ruleset)
        facts["fingerprint"] = ruleset.fingerprint
        return tuning_search.Scored(value, facts)

    def check_value(assignment: Mapping[str, Any], value: float, facts: Mapping[str, Any]) -> str | None:
        """Why a complete trial read back from the study is not what its games give (they are in
        the run cache, so nothing is played again), or None."""
        try:
            ruleset = edited(assignment)
        except RulesetError:
            return "holds values the ruleset refuses, yet an objective"
        games = {v: run_of(ruleset, _run_folder(out / RUNS_FOLDER, ruleset), blocks * block_games_of[v], seed, v) for v in variants}
        again, again_facts = objective_over(games, ruleset)
        if not math.isclose(again, value, rel_tol=1e-9, abs_tol=1e-9):
            return f"says its objective is {value:.6g}, but its {again_facts['games']} games give {again:.6g}"
        kept = ("games", "met", "not_met", "unknown", "total", "missed", *(("statuses",) if "statuses" in facts else ()))
        changed = [key for key in kept if facts.get(key) != again_facts[key]]
        if changed:
            return f"keeps figures its games do not give ({', '.join(changed)})"
        return None

    study = tuning_search.search(
        objective, {name: list(p.choices) for name, p in space.parameters.items()}, base_values,
        max_edits=space.max_edits, storage=out / STUDY_FILE,
        study_name=_study_name(base_ruleset, space, targets, play), seed=seed, trials=trials,
        time_limit=time_limit, on_trial=_Progress(say, blocks, clock, time_limit, (recheck + 1) * recheck_games * len(variants)),
        check_value=check_value,
    )
    ranked = tuning_search.best_candidates(study, len(study.trials), base_values)
    base_trial = next((c for c in ranked if not c.edits), None)
    chosen = [c for c in ranked if c.edits and (base_trial is None or c.value < base_trial.value)][:recheck]
    rechecks: list[dict[str, Any]] = []
    if chosen and recheck_games > 0:
        recheck_seed = seed + RECHECK_SEED_OFFSET
        say(f"re-checking the best {len(chosen)} candidate{'s' if len(chosen) != 1 else ''} against "
            f"{base_ruleset.name} on {recheck_games:,} fresh games each (deals from seed {recheck_seed})")
        base_runs = {v: Run.summarised(run_of(base_ruleset, _run_folder(out / RECHECK_FOLDER, base_ruleset), recheck_games,
                                              recheck_seed, v), targets=judged[v], ruleset=base_ruleset) for v in variants}
        for candidate in chosen:
            ruleset = edited(candidate.assignment)
            label = f"trial {candidate.number}"
            verdicts, answers, base_answers = {}, {}, {}
            for v in variants:
                games = run_of(ruleset, _run_folder(out / RECHECK_FOLDER, ruleset), recheck_games, recheck_seed, v)
                run = Run.summarised(games, targets=judged[v], ruleset=ruleset)
                comparison = compare_summaries(base_runs[v], run, label_a=base_ruleset.name, label_b=label,
                                               targets=judged[v], ruleset_a=base_ruleset, ruleset_b=ruleset)
                verdicts[v.label] = comparison["verdict"]
                answers[v.label] = run.summary["targets"]["targets"]
                base_answers[v.label] = base_runs[v].summary["targets"]["targets"]
            if several:  # each variant's targets named with it, as the joined verdict names them
                verdict = _joined_verdict(verdicts)
                named, base_named = _named_by_variant(answers), _named_by_variant(base_answers)
            else:
                verdict, named, base_named = verdicts[first.label], answers[first.label], base_answers[first.label]
            rechecks.append(_recheck_facts(candidate, space, base_ruleset, verdict, named, base_named))
            say(_recheck_line(label, verdict))
    proposal, no_edit = None, None
    better = proposed_of(rechecks)
    if better is not None:
        proposal = _write_proposal(base_ruleset, better["edits"], out / PROPOSAL_FOLDER)
    else:
        no_edit = _no_edit_reason(study, ranked, base_trial, chosen, rechecks, recheck_games)
    facts = _facts(base_ruleset, space, targets, study, ranked, base_trial, rechecks, play, better, no_edit,
                   trials=trials, recheck=recheck, recheck_games=recheck_games, block_games=block_games, out=out)
    return TuneResult(study, facts, proposal)


def _joined_facts(by_variant: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The facts of a candidate played at several variants: the counts summed, each missed
    target and shortfall named ``key@variant``, and every variant's own facts."""
    facts: dict[str, Any] = {key: sum(f[key] for f in by_variant.values()) for key in ("games", "met", "not_met", "unknown", "total")}
    facts["missed"] = [f"{key}@{label}" for label, f in by_variant.items() for key in f["missed"]]
    facts["shortfalls"] = {f"{key}@{label}": short for label, f in by_variant.items() for key, short in f["shortfalls"].items()}
    facts["statuses"] = {f"{key}@{label}": status for label, f in by_variant.items() for key, status in f["statuses"].items()}
    facts["variants"] = {label: dict(f) for label, f in by_variant.items()}
    return facts


def _joined_verdict(verdicts: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The re-check's verdict over several variants: the decision over theirs
    (``overall_decision``), each variant's sentence, every target's decision named
    ``key@variant`` (the targets met are counted by ``met_in_both`` over the named answers)."""
    decision = overall_decision([verdict["decision"] for verdict in verdicts.values()])
    text = f"{decision} over {len(verdicts)} variants: " + "; ".join(
        f"{label}: {verdict['text'].rstrip('.')}" for label, verdict in verdicts.items()) + "."
    return {"decision": decision, "text": text, "games": sum(v["games"] for v in verdicts.values()),
            "targets": [{**row, "key": f"{row['key']}@{label}", "label": f"{row['label']} ({label})"}
                        for label, verdict in verdicts.items() for row in verdict["targets"]],
            "variants": {label: {"decision": v["decision"], "text": v["text"]} for label, v in verdicts.items()}}


def _recheck_line(label: str, verdict: Mapping[str, Any]) -> str:
    """``re-check of trial 2: better: better than the base on rounds per game, worse on none
    (400 fresh games, dealt alike)``: the progress line of a re-check, in a designer's words (the
    verdict's own sentence, with its tests, is in tune.json and on the page)."""
    def named(decision: str) -> str:
        return ", ".join(row["label"].lower() for row in verdict["targets"]
                         if row["weight"] > 0 and row["decision"] == decision) or "none"

    return (f"re-check of {label}: {verdict['decision']}: better than the base on {named('better')}, worse on "
            f"{named('worse')} ({verdict['games']:,} fresh games, dealt alike)")


def _named_by_variant(answers: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The target answers of several variants in one list, each named with its variant
    (``key@variant``, ``label (variant)``), as the joined facts and verdict name them."""
    return [{**answer, "key": f"{answer['key']}@{label}", "label": f"{answer['label']} ({label})"}
            for label, part in answers.items() for answer in part]


def _run_folder(parent: Path, ruleset: Ruleset) -> Path:
    return parent / f"{ruleset.name}-{short_fingerprint(ruleset.fingerprint)}"


def _warnings_to(say: Callable[[str], None]) -> Callable[[str], None]:
    """What a run says, kept to its warnings: a search reuses runs all the time."""
    def said(text: str) -> None:
        if "warning" in text:
            say(text)
    return said


class _Clock:
    """Games played and their seconds, for the estimate of the time left."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.games = 0
        self.seconds = 0.0

    def played(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds

    def games_per_second(self) -> float | None:
        return self.games / self.seconds if self.games and self.seconds > 0 else None


#: The samples not played, by why, as a progress line counts them.
SKIPPED = {"over_max_edits": "over max_edits", "refused": "refused", "repeat": "repeated"}


class _Progress:
    """One progress line per candidate played. Samples not played (over ``max_edits``, refused by
    the ruleset's checks, or repeating played values) cost nothing and are many (TPE draws each
    parameter on its own), so they are counted into the next line instead of a line each."""

    def __init__(self, say: Callable[[str], None], blocks: int, clock: _Clock, time_limit: float | None,
                 recheck_games: int) -> None:
        self.say, self.blocks, self.clock = say, blocks, clock
        self.time_limit, self.recheck_games = time_limit, recheck_games
        self.skipped = dict.fromkeys(SKIPPED, 0)

    def __call__(self, event: tuning_search.TrialEvent) -> None:
        if event.kind in self.skipped:
            self.skipped[event.kind] += 1
            return
        line = _trial_line(event, self.blocks, self.clock, self.time_limit, self.recheck_games)
        total = sum(self.skipped.values())
        if total:
            parts = [f"{count} {SKIPPED[kind]}" for kind, count in self.skipped.items() if count]
            joined = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
            line += f" ({joined} sample{'s' if total != 1 else ''} not played before it)"
        self.skipped = dict.fromkeys(SKIPPED, 0)
        self.say(line)


def _trial_line(event: tuning_search.TrialEvent, blocks: int, clock: _Clock, time_limit: float | None,
                recheck_games: int) -> str:
    """``trial 12 (9 of 60 played): pruned after 4 of 6 blocks, 2 edits; best 0.083; about 9 min left``."""
    edits = len(event.edits)
    if event.kind == "complete":
        what = f"objective {event.value:.3f}"
    elif event.kind == "pruned":
        what = f"pruned after {event.blocks} of {blocks} blocks"
    elif event.kind in ("over_max_edits", "refused"):
        what = f"{SKIPPED[event.kind]}, not played"
    else:
        what = "the values of an earlier trial, not played again"
    best = f"best {event.best:.3f}" if event.best is not None else "no best yet"
    left = ""
    if event.evaluated:
        search_left = event.seconds / event.evaluated * max(0, event.trials - event.evaluated)
        if time_limit is not None:
            search_left = min(search_left, max(0.0, time_limit - event.seconds))
        rate = clock.games_per_second()
        recheck_left = recheck_games / rate if rate else 0.0
        left = f"; about {format_duration(search_left + recheck_left)} left"
    return (f"trial {event.number} ({event.evaluated} of {event.trials} played): {what}, "
            f"{edits} edit{'s' if edits != 1 else ''}; {best}{left}")


def _recheck_facts(candidate: tuning_search.Candidate, space: Space, base: Ruleset, verdict: Mapping[str, Any],
                   answers: Sequence[Mapping[str, Any]], base_answers: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A re-checked candidate: its edits, objective, verdict against the base, the targets with
    weight met by each in the re-check's games (``met_in_both``, as the search's table counts
    them), and the targets with weight its re-check run (``answers``, its summary's target
    answers; ``base_answers`` the base's) does not meet or leaves unknown."""
    paths = {space.parameters[name].path: value for name, value in candidate.edits.items()}
    count = met_in_both(weighted_statuses(answers), weighted_statuses(base_answers), games=RECHECK_GAMES,
                        game_count=verdict["games"])
    labels = {answer["key"]: answer["label"] for answer in [*base_answers, *answers]}
    weighted = [answer for answer in answers if answer["weight"] > 0]
    return {
        "trial": candidate.number,
        "edits": paths,
        "edits_text": edits_text(base, paths),
        "value": candidate.value,
        "decision": verdict["decision"],
        "text": verdict["text"],
        "met": [count["met"], count["of"]],
        "base_met": [count["base_met"], count["of"]],
        "targets_met": count,
        "one_side": [labels[key] for key in count["one_side"]],
        "not_met": [a["label"] for a in weighted if a["status"] == "not_met"],
        "unknown": [a["label"] for a in weighted if a["status"] == "unknown"],
        "games": verdict["games"],
        "targets": [{"key": row["key"], "label": row["label"], "decision": row["decision"]} for row in verdict["targets"]],
        **({"variants": verdict["variants"]} if "variants" in verdict else {}),
    }


def proposed_of(rechecks: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The candidate to propose: of those re-checked ``better`` than the base (better on some
    target, worse on none), the one that meets the most targets in its re-check, then the lowest
    objective (a candidate better by shortfall alone ranks below one that meets a target more)."""
    better = [r for r in rechecks if r["decision"] == "better"]
    return min(better, key=lambda r: (-r["met"][0], r["value"]), default=None)


def proposal_text(recheck: Mapping[str, Any], folder: str) -> str:
    """The proposal described by the targets with weight it meets: ``Proposed: the edits of trial
    12 (in OUT/proposal): better than the base on tie rate, worse on none; in the re-check's
    fresh games it meets 7 of 8 targets with weight decided in both runs, as the base does; not
    met: ...; not yet known: seat balance.``"""
    (met, counted), (base_met, _) = recheck["met"], recheck["base_met"]
    better = [t["label"].lower() for t in recheck["targets"] if t["decision"] == "better"]
    if met == base_met:
        against = "as the base does"
    else:
        against = f"where the base meets {base_met}"
    text = (f"Proposed: the edits of trial {recheck['trial']} (in {folder}): better than the base on "
            f"{', '.join(better) or 'none'}, worse on none; in the re-check's fresh games it meets {met} of "
            f"{counted} targets with weight decided in both runs, {against}")
    if recheck["one_side"]:
        text += f" (not counted, decided in one run only: {', '.join(label.lower() for label in recheck['one_side'])})"
    for words, labels in (("not met", recheck["not_met"]), ("not yet known", recheck["unknown"])):
        if labels:
            text += f"; {words}: {', '.join(label.lower() for label in labels)}"
    return text + "."


def _write_proposal(base: Ruleset, edits: Mapping[str, Any], dest: Path) -> Path:
    """The proposal in ``dest``; an earlier tune's proposal there is moved to ``proposal.previous``."""
    previous = dest.with_name(dest.name + ".previous")
    for folder in (dest, previous):  # a link here would have rmtree and rename work elsewhere
        if os.path.lexists(folder):
            outputfiles.output_folder(folder)
    if dest.exists():
        if previous.exists():
            shutil.rmtree(previous)
        dest.rename(previous)
    write_proposal(base.source, dict(edits), dest, title=proposal_title(base))
    return dest


def _no_edit_reason(study: Any, ranked: Sequence[tuning_search.Candidate], base_trial: Any,
                    chosen: Sequence[tuning_search.Candidate], rechecks: Sequence[Mapping[str, Any]],
                    recheck_games: int) -> str:
    """One line: why no edit is proposed."""
    if base_trial is not None and base_trial.value == 0:
        return "no edit found: the base already meets every weighted target's goal in the search's games"
    if not ranked or base_trial is None:
        return "no edit found: the search finished no candidate (give more --trials or --time)"
    if not chosen:
        return (f"no edit found: no candidate of the {len(ranked)} played misses the targets by less than the base "
                f"({base_trial.value:.3f})")
    if not rechecks:
        return "no edit found: the re-check was given no games"
    decisions = ", ".join(f"trial {r['trial']} {r['decision']}" for r in rechecks)
    return (f"no edit found: none of the {len(rechecks)} candidates re-checked on {recheck_games:,} fresh games is "
            f"better than the base on some target and worse on none ({decisions})")


def _facts(base: Ruleset, space: Space, targets: Targets, study: Any, ranked: Sequence[tuning_search.Candidate],
           base_trial: Any, rechecks: Sequence[Mapping[str, Any]], play: Mapping[str, Any],
           proposed: Mapping[str, Any] | None, no_edit: str | None, *, trials: int, recheck: int, recheck_games: int, block_games: int,
           out: Path) -> dict[str, Any]:
    """tune.json's content: every fact tune.html and the terminal show."""
    from stargazer_rules.tuning.tune_report import importance, trial_rows

    paths = {name: parameter.path for name, parameter in space.parameters.items()}
    rows = trial_rows(study, {name: p.base for name, p in space.parameters.items()}, paths)
    base_statuses = None if base_trial is None else base_trial.facts.get("statuses")

    def targets_met(facts: Mapping[str, Any]) -> dict[str, Any] | None:
        """The targets with weight met in these search games and the base's (``met_in_both``);
        None for a trial of a study written before the search kept each target's status."""
        if facts.get("statuses") is None or base_statuses is None:
            return None
        return met_in_both(facts["statuses"], base_statuses, games=SEARCH_GAMES, game_count=facts.get("games", 0))

    front: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row["state"] != "complete":
            continue
        best = front.get(row["edit_count"])
        if best is None or row["value"] < best["value"]:
            front[row["edit_count"]] = {"edits": row["edit_count"], "value": row["value"], "trial": row["number"],
                                        "targets_met": targets_met(row["facts"])}
    by_trial = {r["trial"]: r for r in rechecks}
    candidates = []
    for candidate in ranked[: max(recheck, 5)]:
        edits = {paths[name]: value for name, value in candidate.edits.items()}
        candidates.append({
            "trial": candidate.number, "edits": edits, "edits_text": edits_text(base, edits),
            "value": candidate.value, "noise": candidate.noise, "blocks": candidate.blocks,
            "targets_met": targets_met(candidate.facts),
            "missed": candidate.facts.get("missed", []),
            "verdict": by_trial[candidate.number]["decision"] if candidate.number in by_trial else None,
        })
    return {
        "format": "stargazer-tune/3",
        "ruleset": {"name": base.name, "fingerprint": base.fingerprint},
        "space": {"source": str(space.source), "max_edits": space.max_edits,
                  "parameters": [{"name": name, "path": p.path, "choices": list(p.choices), "base": p.base}
                                 for name, p in space.parameters.items()]},
        "targets": {"source": targets.source, **targets.to_json()},
        "settings": {**play, "trials": trials, "block_games": block_games, "recheck": recheck,
                     "recheck_games": recheck_games, "recheck_seed": play["seed"] + RECHECK_SEED_OFFSET},
        "study": {"file": str(out / STUDY_FILE), "name": study.study_name},
        "counts": {state: sum(1 for row in rows if row["state"] == state)
                   for state in ("complete", "pruned", "over_max_edits", "refused", "repeat", "failed", "waiting")},
        "base": None if base_trial is None else {"trial": base_trial.number, "value": base_trial.value,
                                                 "targets_met": targets_met(base_trial.facts),
                                                 "missed": base_trial.facts.get("missed", [])},
        "trials": rows,
        "front": [front[k] for k in sorted(front)],
        "importance": importance(study),
        "candidates": candidates,
        "rechecks": list(rechecks),
        "proposal": None if proposed is None else {"folder": str(out / PROPOSAL_FOLDER), "trial": proposed["trial"],
                                                   "edits": dict(proposed["edits"]),
                                                   "edits_text": list(proposed["edits_text"]),
                                                   "text": proposal_text(proposed, str(out / PROPOSAL_FOLDER))},
        "no_edit": no_edit,
    }
