"""The search of ``stargazer tune`` (``tuning.search``) on a synthetic objective with a known
optimum: no game is played. Work is bounded by counts (trials, blocks), never by time."""

from __future__ import annotations

import os
import sqlite3
import sys
import zlib

import optuna
import pytest
from optuna.trial import TrialState, create_trial

from stargazer_rules.errors import StudyError
from stargazer_rules.tuning import search as tuning_search
from stargazer_rules.tuning.search import (
    Invalid,
    Scored,
    best_candidates,
    edits_of,
    search,
    valid_assignments,
)

PARAMETERS = {"a": [0, 1, 2, 3], "b": [0, 1, 2], "c": [0, 1], "d": [0, 1, 2, 3, 4]}
BASE = {"a": 0, "b": 0, "c": 0, "d": 0}
OPTIMUM = {"a": 2, "b": 1, "c": 0, "d": 0}
BLOCKS = 8
#: The work of block b, the same for every candidate: what pairs the block values.
BLOCK_OFFSET = [0.3 * ((7 * b) % 5) for b in range(BLOCKS)]


def true_value(assignment):
    return sum((assignment[name] - OPTIMUM[name]) ** 2 for name in PARAMETERS)


def block_noise(assignment, block):
    digest = zlib.crc32(repr((sorted(assignment.items()), block)).encode())
    return 0.2 * (digest % 1000) / 1000 - 0.1


class Objective:
    """The synthetic objective: its true value plus each block's offset and a little noise per
    block, reported block by block; it counts its calls and the blocks it evaluates."""

    def __init__(self):
        self.calls = []
        self.blocks = {}

    def __call__(self, assignment, report):
        self.calls.append(dict(assignment))
        key = tuple(sorted(assignment.items()))
        values = []
        for block in range(BLOCKS):
            value = true_value(assignment) + BLOCK_OFFSET[block] + block_noise(assignment, block)
            values.append(value)
            self.blocks[key] = block + 1
            if report(block, value):
                break
        return Scored(sum(values) / len(values), {"blocks seen": len(values)})


def run(tmp_path, objective, trials=40, max_edits=2, seed=7, name="s", **options):
    return search(objective, PARAMETERS, BASE, max_edits=max_edits, storage=tmp_path / "study.db",
                  study_name=name, seed=seed, trials=trials, **options)


def finished_params(study):
    return [(t.params, t.state) for t in study.trials if t.state != TrialState.FAIL]


@pytest.mark.slow
def test_the_search_finds_the_known_optimum_within_40_candidates(tmp_path):
    objective = Objective()
    study = run(tmp_path, objective)
    best = best_candidates(study, 1)[0]
    assert best.edits == {"a": 2, "b": 1}
    assert best.assignment == OPTIMUM
    assert len({tuple(sorted(call.items())) for call in objective.calls}) == len(objective.calls) <= 40


def test_the_base_is_the_first_trial_evaluated(tmp_path):
    objective = Objective()
    study = run(tmp_path, objective, trials=5)
    assert study.trials[0].params == BASE
    assert objective.calls[0] == BASE


@pytest.mark.slow
def test_the_same_seed_samples_the_same_trials(tmp_path):
    first = run(tmp_path / "one", Objective(), trials=20)
    second = run(tmp_path / "two", Objective(), trials=20)
    other = run(tmp_path / "three", Objective(), trials=20, seed=8)
    assert finished_params(first) == finished_params(second)
    assert finished_params(first) != finished_params(other)


def test_a_second_identical_call_resumes_and_evaluates_nothing_again(tmp_path):
    first_objective = Objective()
    study = run(tmp_path, first_objective, trials=15)
    before = finished_params(study)
    again = Objective()
    resumed = run(tmp_path, again, trials=15)
    assert again.calls == []
    assert finished_params(resumed) == before


@pytest.mark.slow
def test_a_search_resumed_with_more_trials_samples_what_one_call_would(tmp_path):
    """The sampler's seed is reset before each trial from the trials before it."""
    run(tmp_path / "split", Objective(), trials=8)
    later = Objective()
    split = run(tmp_path / "split", later, trials=20)
    whole = run(tmp_path / "whole", Objective(), trials=20)
    assert finished_params(split) == finished_params(whole)
    assert BASE not in later.calls


@pytest.mark.slow
def test_no_sample_of_more_than_max_edits_edits_is_evaluated(tmp_path):
    objective = Objective()
    study = run(tmp_path, objective, trials=20, max_edits=1)
    assert objective.calls and all(len(edits_of(call, BASE)) <= 1 for call in objective.calls)
    invalid = [t for t in study.trials if "invalid" in t.user_attrs]
    assert invalid, "the TPE samples of two edits or more are kept as invalid trials"
    for trial in invalid:
        assert trial.state == TrialState.PRUNED
        count = len(edits_of(trial.params, BASE))
        assert trial.user_attrs["invalid"] == f"{count} edits, more than max_edits (1)"
    # with one edit the space has 1 + 3 + 2 + 1 + 4 assignments: all of them, no more
    assert valid_assignments(PARAMETERS, 1) == 11
    assert len(objective.calls) == 11


@pytest.mark.slow
def test_an_assignment_the_objective_refuses_is_counted_invalid_and_not_ranked(tmp_path):
    def objective(assignment, report):
        if assignment["c"] == 1:
            return Invalid("c = 1 does not load")
        return Objective()(assignment, report)

    calls = []

    def counted(assignment, report):
        calls.append(assignment)
        return objective(assignment, report)

    study = run(tmp_path, counted, trials=20)
    refused = [t for t in study.trials if t.params.get("c") == 1 and len(edits_of(t.params, BASE)) <= 2]
    assert refused and all(t.user_attrs["invalid"] == "c = 1 does not load" for t in refused)
    assert all(t.state == TrialState.PRUNED for t in refused)
    # each refused assignment is asked once; a later sample of it is refused from the study
    asked = [tuple(sorted(call.items())) for call in calls]
    assert len(asked) == len(set(asked))
    assert all(candidate.assignment["c"] == 0 for candidate in best_candidates(study, 50))


@pytest.mark.slow
def test_a_clearly_bad_candidate_is_pruned_before_its_last_block(tmp_path):
    """Wilcoxon's test on block values paired with the best trial's stops candidates far worse."""
    objective = Objective()
    study = run(tmp_path, objective, trials=30)
    pruned = [t for t in study.trials if t.state == TrialState.PRUNED and "invalid" not in t.user_attrs
              and "repeat_of" not in t.user_attrs]
    assert pruned
    for trial in pruned:
        blocks = objective.blocks[tuple(sorted(trial.params.items()))]
        assert tuning_search.PRUNE_AFTER <= blocks < BLOCKS
        assert trial.user_attrs["blocks"] == blocks
        assert true_value(trial.params) > true_value(study.best_trial.params)
    evaluated_blocks = sum(objective.blocks.values())
    assert evaluated_blocks < BLOCKS * len(objective.calls)


def test_a_trial_left_running_by_a_killed_process_fails_and_is_tried_again(tmp_path):
    run(tmp_path, Objective(), trials=3)
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    study = optuna.load_study(study_name="s", storage=storage)
    study.enqueue_trial({"a": 3, "b": 2, "c": 0, "d": 0})
    killed = study.ask({name: optuna.distributions.CategoricalDistribution(values) for name, values in PARAMETERS.items()})
    killed.report(1.0, 0)  # then kill -9: the trial stays RUNNING
    objective = Objective()
    resumed = run(tmp_path, objective, trials=4)
    assert resumed.trials[killed.number].state == TrialState.FAIL
    assert objective.calls[0] == {"a": 3, "b": 2, "c": 0, "d": 0}
    retry = resumed.trials[killed.number + 1]
    assert retry.params == killed.params and retry.user_attrs["retry_of"] == killed.number


@pytest.mark.slow
def test_a_repeated_sample_copies_the_earlier_result(tmp_path):
    objective = Objective()
    study = run(tmp_path, objective, trials=20)
    repeats = [t for t in study.trials if "repeat_of" in t.user_attrs]
    assert repeats
    for trial in repeats:
        earlier = study.trials[trial.user_attrs["repeat_of"]]
        assert trial.params == earlier.params and trial.value == earlier.value
    assert len(objective.calls) == len({tuple(sorted(c.items())) for c in objective.calls})


def test_the_time_limit_zero_evaluates_nothing(tmp_path):
    objective = Objective()
    study = run(tmp_path, objective, trials=5, time_limit=0)
    assert objective.calls == []
    assert [t.state for t in study.trials] == [TrialState.WAITING]


def test_on_trial_hears_every_trial_with_the_best_so_far(tmp_path):
    events = []
    study = run(tmp_path, Objective(), trials=10, on_trial=events.append)
    assert [event.number for event in events] == [t.number for t in study.trials]
    assert events[0].kind == "complete" and events[0].edits == {} and events[0].evaluated == 1
    assert events[-1].evaluated == 10 and events[-1].trials == 10
    assert events[-1].best == study.best_value


def _trial(value, params, blocks):
    distributions = {name: optuna.distributions.CategoricalDistribution(values) for name, values in PARAMETERS.items()}
    return create_trial(value=value, params=params, distributions=distributions,
                        intermediate_values=dict(enumerate(blocks)))


def test_a_tie_within_the_noise_goes_to_fewer_edits():
    """Candidates within one standard error of the paired block difference of the best are tied."""
    study = optuna.create_study()
    study.add_trial(_trial(5.0, BASE, [5.0, 5.0, 5.0, 5.0]))
    # two edits, best by 0.1; the paired differences (-0.4, 0.2, -0.2, 0.0) have a standard error of 0.13
    study.add_trial(_trial(0.9, {"a": 2, "b": 1, "c": 0, "d": 0}, [0.6, 1.2, 0.8, 1.0]))
    study.add_trial(_trial(1.0, {"a": 2, "b": 0, "c": 0, "d": 0}, [1.0, 1.0, 1.0, 1.0]))
    # one edit, worse by 0.5: beyond the noise
    study.add_trial(_trial(1.4, {"a": 0, "b": 0, "c": 1, "d": 0}, [1.4, 1.4, 1.4, 1.4]))
    ranked = best_candidates(study, 4)
    assert [c.edits for c in ranked] == [{"a": 2}, {"a": 2, "b": 1}, {"c": 1}, {}]
    assert ranked[0].noise == pytest.approx(0.1291, abs=1e-4)
    assert best_candidates(study, 2) == ranked[:2]


def test_valid_assignments_counts_each_number_of_edits():
    assert valid_assignments(PARAMETERS, 0) == 1
    assert valid_assignments(PARAMETERS, 4) == 4 * 3 * 2 * 5
    # two edits: 1 + (3+2+1+4) + (3*2 + 3*1 + 3*4 + 2*1 + 2*4 + 1*4)
    assert valid_assignments(PARAMETERS, 2) == 1 + 10 + 35


def test_tune_without_optuna_says_how_to_install_it_in_one_line(monkeypatch, capsys):
    from stargazer_rules.frontends.cli import main

    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna raises ImportError
    assert main(["tune", "draft7"]) == 1
    assert capsys.readouterr().err == (
        "stargazer tune: needs the tune extra (optuna: not installed): pip install 'stargazer-rules[tune]'\n"
    )


@pytest.mark.parametrize(("text", "seconds"), [("900", 900), ("90s", 90), ("15m", 900), ("15 min", 900), ("1.5h", 5400)])
def test_a_time_limit_is_seconds_minutes_or_hours(text, seconds):
    from stargazer_rules.frontends.cli.tune_command import duration

    assert duration(text) == seconds


def test_a_time_limit_that_is_no_duration_is_a_usage_error(capsys):
    from stargazer_rules.frontends.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["tune", "draft7", "--time", "soon"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "stargazer tune: error: argument --time: 'soon' is not a duration: write seconds (900), or 90s, 15m, 1.5h"
    )


# -- a study read back ----------------------------------------------------------------------------


def _written_study(tmp_path):
    """A study of three trials, its write-ahead log folded into the file (as after a clean exit)."""
    run(tmp_path, Objective(), trials=3)
    connection = sqlite3.connect(tmp_path / "study.db")
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return tmp_path / "study.db"


def _edit(path, statement):
    connection = sqlite3.connect(path)
    with connection:
        connection.execute(statement)
    connection.close()


def _refusal(tmp_path, **options) -> str:
    with pytest.raises(StudyError) as caught:
        run(tmp_path, Objective(), trials=3, **options)
    message = str(caught.value)
    assert "\n" not in message
    assert message.endswith(f"to start afresh, delete {tmp_path / 'study.db'} and its -wal and -shm files if any "
                            "(the games played stay in the run cache)")
    return message


def test_a_study_file_of_random_bytes_is_one_line(tmp_path):
    (tmp_path / "study.db").write_bytes(bytes(range(256)) * 64)
    assert _refusal(tmp_path).startswith(f"{tmp_path / 'study.db'} is not a study of stargazer tune (not an SQLite database)")


def test_a_study_file_cut_short_is_one_line(tmp_path):
    path = _written_study(tmp_path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    message = _refusal(tmp_path)
    assert message.startswith((f"{path} is damaged", f"{path} cannot be read as a study")), message


def test_a_folder_or_a_fifo_named_study_db_is_one_line(tmp_path):
    (tmp_path / "study.db").mkdir()
    assert _refusal(tmp_path).startswith(f"{tmp_path / 'study.db'}: it is a folder, not a tune study")
    (tmp_path / "study.db").rmdir()
    os.mkfifo(tmp_path / "study.db")
    assert _refusal(tmp_path).startswith(f"{tmp_path / 'study.db'}: it is a FIFO (named pipe), not a tune study")


def test_an_sqlite_database_of_something_else_is_not_a_study(tmp_path):
    _edit(tmp_path / "study.db", "CREATE TABLE notes (text TEXT)")
    assert "an SQLite database without optuna's tables" in _refusal(tmp_path)


def test_a_trial_given_a_value_the_space_does_not_offer_is_refused(tmp_path):
    path = _written_study(tmp_path)
    _edit(path, "UPDATE trial_params SET distribution_json = replace(distribution_json, '[0, 1, 2, 3]', '[0, 1, 2, 3, 9]'), "
                "param_value = 4 WHERE param_name = 'a'")
    assert _refusal(tmp_path).startswith(f"{path}: trial 0 holds a = 9, which the space does not offer: the study was changed")


def _true_objective(assignment, value, facts):
    """What ``Objective`` gives a complete trial, computed again: its block values' mean."""
    blocks = [true_value(assignment) + BLOCK_OFFSET[b] + block_noise(assignment, b) for b in range(BLOCKS)]
    again = sum(blocks) / len(blocks)
    return None if abs(again - value) < 1e-9 else f"says its objective is {value:.6g}, but its blocks give {again:.6g}"


def test_a_forged_objective_is_refused_before_anything_is_ranked(tmp_path):
    """The base's value edited to 0: without the check it would be reported as the best."""
    path = _written_study(tmp_path)
    assert run(tmp_path, Objective(), trials=3, check_value=_true_objective)  # untouched: read back as written
    _edit(path, "UPDATE trial_values SET value = 0 WHERE trial_id = (SELECT min(trial_id) FROM trials)")
    assert _refusal(tmp_path, check_value=_true_objective).startswith(f"{path}: trial 0 says its objective is 0, but its blocks give ")


@pytest.mark.slow
def test_a_repeat_whose_objective_was_edited_is_refused(tmp_path):
    """A repeat copies an earlier trial's result; edited, it would show a figure no game gave."""
    run(tmp_path, Objective(), trials=20)
    connection = sqlite3.connect(tmp_path / "study.db")
    with connection:
        (number,) = connection.execute(
            "SELECT t.number FROM trials t JOIN trial_user_attributes a ON a.trial_id = t.trial_id "
            "JOIN trial_values v ON v.trial_id = t.trial_id WHERE a.key = 'repeat_of' ORDER BY t.number LIMIT 1").fetchone()
        connection.execute("UPDATE trial_values SET value = -1 WHERE trial_id = (SELECT trial_id FROM trials WHERE number = ?)",
                           (number,))
    connection.close()
    with pytest.raises(StudyError, match=rf"trial {number} says it repeats trial \d+, but does not hold its values and objective"):
        run(tmp_path, Objective(), trials=20)


def test_a_trial_in_a_state_optuna_does_not_know_is_one_line(tmp_path):
    """A state no optuna version writes was a LookupError traceback from SQLAlchemy."""
    path = _written_study(tmp_path)
    _edit(path, "UPDATE trials SET state = 'BOGUS\x1b[2J' WHERE number = 1")
    message = _refusal(tmp_path)
    assert message.startswith(f"{path} holds what optuna cannot read ('BOGUS\\u001b[2J' is not among the defined enum values")
    assert "the study was changed by something other than stargazer tune; to start afresh" in message
