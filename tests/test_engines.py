"""Choosing the engine: the bots search in the native kernel where the ruleset allows, in
Python where it does not or when asked, and every run says which engine's bots played."""

from __future__ import annotations

import json

import pytest

from ruleset_edits import CUSTOM_EFFECT_TYPES, copy_ruleset, replace
from stargazer_rules import Game, load_ruleset
from stargazer_rules.kernel import native
from stargazer_rules.bots import BotSpecError, make_bot
from stargazer_rules.bots.greedy import GreedyBot
from stargazer_rules.bots.kernel_backed import KernelBackedBot
from stargazer_rules.bots.mcts import MCTSBot
from stargazer_rules.frontends.cli import main
from stargazer_rules.formats.game_lines import game_line
from stargazer_rules.simulation import GAMES_FILE, SimulationError, read_games, run_simulation


def plugin_ruleset(tmp_path):
    """Draft 7 with the Historian's skill replaced by an effect type the kernel does not know."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "      - effect: gain_vp\n        vp: 2\n        when: after_survey", "      - effect: take_cubes_back")
    return load_ruleset(folder, effect_types=CUSTOM_EFFECT_TYPES)


def beyond_the_kernel(tmp_path):
    """Draft 7 with 9,000 cubes a player: valid (the schema allows 10,000), beyond the
    kernel's limit of 8,000, so it runs on Python."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: 9000")
    return folder


def test_make_bot_wraps_the_kernel_bots_and_python_forces_the_python_bots():
    assert isinstance(make_bot("greedy", 1), KernelBackedBot)
    assert isinstance(make_bot("mcts:50", 1), KernelBackedBot)
    assert isinstance(make_bot("greedy", 1, engine="python"), GreedyBot)
    assert isinstance(make_bot("mcts:50", 1, engine="python"), MCTSBot)
    assert make_bot("mcts:50", 1).spec == make_bot("mcts:50", 1, engine="python").spec == "mcts:c=0.7,depth=16,iterations=50,prior=3,rollout=full,scale=4.0"
    with pytest.raises(BotSpecError, match="unknown engine 'rust'; engines: native, python"):
        make_bot("greedy", 1, engine="rust")


def test_a_kernel_bot_is_deterministic_from_its_seed_and_chooses_legal_actions():
    game = Game(load_ruleset())
    state = game.new_state(players=4, seed=5)
    for spec in ("greedy", "mcts:40", "mcts:40,rollout=greedy,depth=0", "mcts:40,rollout=random,prior=0"):
        first, second = make_bot(spec, 9), make_bot(spec, 9)
        played = state
        while played.legal:
            act = first.choose(game, played)
            assert act in played.legal
            assert second.choose(game, played) == act
            played = game.step(played, act)


def test_a_ruleset_the_kernel_cannot_compile_is_played_by_the_python_bots(tmp_path):
    ruleset = plugin_ruleset(tmp_path)
    game = Game(ruleset)
    bot = make_bot("greedy", 3)
    assert bot.engine_for(game) == "python"
    state = game.new_state(players=4, seed=1)
    reference = make_bot("greedy", 3, engine="python")
    # Same seed, same Python bot behind the wrapper: the same choices, move for move.
    while state.legal:
        act = bot.choose(game, state)
        assert act == reference.choose(game, state)
        state = game.step(state, act)
    result = run_simulation(ruleset, tmp_path / "sim", players=4, games=4, lineup=("greedy",) * 4, workers=1, progress=False)
    assert result.engine == "python"
    assert {line["engine"] for line in read_games(result.games_file)} == {"python"}


def test_simulate_records_the_engine_and_refuses_to_resume_with_another(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", "--games", "4", "--workers", "1", "--engine", "python", "--bots", "greedy", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "python engine" in captured.err
    assert {line["engine"] for line in read_games(out / GAMES_FILE)} == {"python"}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["engine"] == "python"
    assert "Python engine" in (out / "report.html").read_text(encoding="utf-8")
    assert main(["simulate", "--games", "8", "--workers", "1", "--bots", "greedy", "--out", str(out), "--resume"]) == 1
    assert f"cannot resume {out}: it holds the games of another run (engine python, not native)" in capsys.readouterr().err
    with pytest.raises(SimulationError, match="unknown engine 'rust'"):
        run_simulation(load_ruleset(), out, players=4, games=4, lineup=("greedy",) * 4, engine="rust")


def test_simulate_warns_in_one_line_when_the_ruleset_runs_on_python(tmp_path, capsys):
    folder = beyond_the_kernel(tmp_path)
    out = tmp_path / "sim"
    assert main(["simulate", "--rules", str(folder), "--games", "4", "--workers", "1", "--bots", "greedy", "--out", str(out)]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warnings == [
        "stargazer simulate: warning: draft7 runs on the Python engine: cubes_per_player = 9000 is beyond the kernel's limit of 8000"
    ]
    assert {line["engine"] for line in read_games(out / GAMES_FILE)} == {"python"}
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["engine"] == "python"


def test_a_mixed_games_file_is_reported_as_mixed(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", "--games", "4", "--workers", "1", "--bots", "random", "--out", str(out)]) == 0
    path = out / GAMES_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["engine"] = "python"
    lines[0] = game_line(first)  # a line written as a run writes one, its digest made again
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["engine"] == "mixed"
    assert any(w["kind"] == "engines" for w in summary["run"]["warnings"])


def test_play_warns_in_one_line_when_the_bots_run_on_python(tmp_path, capsys, monkeypatch):
    import io

    folder = beyond_the_kernel(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    main(["play", "--rules", str(folder), "--seats", "you,greedy,greedy", "--seed", "1"])
    warnings = [line for line in capsys.readouterr().err.splitlines() if "Python engine" in line]
    assert warnings == [
        "stargazer play: warning: draft7 runs on the Python engine: cubes_per_player = 9000 is beyond the kernel's limit of 8000"
    ]
