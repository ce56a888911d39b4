"""The analysis's files as contracts: games.jsonl lines and summary.json against their schemas,
the docs' field tables against the schemas, and the analysis's modules reaching each other
only through public names."""

from __future__ import annotations

import argparse
import ast
import copy
import json
import re
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest

import stargazer_rules.analysis
from stargazer_rules import load_ruleset
from stargazer_rules.analysis import Targets, summarize, summary_view
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.targets import GOALS, Settings
from stargazer_rules.formats import jsonio
from stargazer_rules.formats.game_lines import DIGEST_FIELD
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.simulation import parse_lineup, run_simulation

ANALYSIS = Path(stargazer_rules.analysis.__file__).parent
DOCS = Path(__file__).resolve().parent.parent / "docs" / "simulation.md"

#: Small fresh runs: (ruleset, players, bots); one block each.
RUNS = [(rules, players, bots) for rules in ("draft7", "base") for players in (3, 4) for bots in ("random", "greedy")]


def _schema_file(kind: str) -> dict[str, Any]:
    return json.loads((schemas_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


GAME_LINE = _schema_file("game_line")
SUMMARY = _schema_file("summary")


@pytest.fixture(scope="module")
def fresh_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int, str], list[dict[str, Any]]]:
    """The lines of each of ``RUNS`` as ``stargazer simulate`` writes them, digest and all."""
    runs = {}
    for rules, players, bots in RUNS:
        out = tmp_path_factory.mktemp(f"{rules}-{players}-{bots}")
        run_simulation(load_ruleset(rules), out, players=players, games=players,
                       lineup=parse_lineup(bots, players), workers=1, progress=False)
        text = (out / "games.jsonl").read_text(encoding="utf-8")
        runs[rules, players, bots] = [json.loads(line) for line in text.splitlines()]
    return runs


def _games(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines as a reader hands them on: without their checked digest."""
    return [{key: value for key, value in line.items() if key != DIGEST_FIELD} for line in lines]


# -- the schemas themselves -----------------------------------------------------------------


def _walk(schema: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if key not in ("const", "enum", "required"):
                yield from _walk(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _walk(item, f"{where}/{index}")


@pytest.mark.parametrize("kind", jsonio.FILE_SCHEMA_KINDS)
def test_file_schema_is_valid_2020_12_described_and_closed(kind: str) -> None:
    """Valid 2020-12 with its $id; every property described; every object closed to unknown
    keys, directly or (the ``*_figures`` shapes others extend) by each schema that uses it."""
    schema = _schema_file(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"urn:stargazer-rules:schemas:{kind}.schema.json"
    assert schema["title"] and schema["description"]
    undescribed = [f"{where}/properties/{key}" for where, sub in _walk(schema)
                   for key, value in sub.get("properties", {}).items() if "description" not in value]
    assert undescribed == []
    open_objects = [where for where, sub in _walk(schema) if "properties" in sub
                    and sub.get("additionalProperties") is not False and sub.get("unevaluatedProperties") is not False
                    and not where.endswith("_figures")]
    assert open_objects == []


def test_the_summary_schema_lists_every_setting_measure_and_goal() -> None:
    """The settings in run.targets are the fields of analysis.Settings, each required; a target
    names one of the measures and has one goal of each kind ``Target`` knows; an answer's unit
    is a measure's."""
    settings = SUMMARY["$defs"]["target_settings"]
    assert list(settings["properties"]) == settings["required"] == [field.name for field in attrs.fields(Settings)]
    target = SUMMARY["$defs"]["target"]
    assert target["properties"]["measure"]["enum"] == list(MEASURES)
    assert target["oneOf"] == [{"required": [goal]} for goal in GOALS]
    assert SUMMARY["$defs"]["target_answer"]["properties"]["measure"]["enum"] == list(MEASURES)
    assert set(SUMMARY["$defs"]["target_answer"]["properties"]["unit"]["enum"]) == {m.unit for m in MEASURES.values()}


# -- fresh runs validate ----------------------------------------------------------------------


@pytest.mark.parametrize("run", RUNS, ids=["-".join(map(str, run)) for run in RUNS])
def test_every_line_and_summary_of_a_fresh_run_validates(fresh_runs, run) -> None:
    """Each line the runner wrote, the run's summary and the summary of its first game alone
    (a partial run) are valid against their schemas."""
    lines = fresh_runs[run]
    assert len(lines) == run[1]
    for line in lines:
        assert jsonio.schema_problems("game_line", line) == [], line["index"]
    whole = summarize(_games(lines), ruleset=load_ruleset(run[0]))
    partial = summarize(_games(lines)[1:2])
    assert "partial" in [warning["kind"] for warning in partial["run"]["warnings"]]
    assert jsonio.schema_problems("summary", whole) == []
    assert jsonio.schema_problems("summary", partial) == []


def test_a_summary_without_its_ruleset_validates(fresh_runs) -> None:
    """Cards by id, no names, tracks and accident rows null: still the summary's shape."""
    games = _games(fresh_runs["draft7", 4, "random"])
    for game in games:
        game["ruleset"] = {"name": "draft-x", "fingerprint": "0" * 64}
    summary = summarize(games)
    assert summary["names"]["crew"] == {} and summary["planets"]["cards"][0]["track"] is None
    assert jsonio.schema_problems("summary", summary) == []


# -- each required field is required --------------------------------------------------------


@pytest.mark.parametrize("field", GAME_LINE["required"])
def test_a_line_without_a_required_field_fails(fresh_runs, field: str) -> None:
    line = copy.deepcopy(fresh_runs["draft7", 4, "random"][0])
    del line[field]
    assert jsonio.schema_problems("game_line", line) == [f"$: {field!r} is a required property"]


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        (("format",), "stargazer-game/1", "$.format: 'stargazer-game/2' was expected"),
        (("index",), -1, "$.index: -1 is less than the minimum of 0"),
        (("engine",), "rust", "$.engine: 'rust' is not one of ['native', 'python']"),
        (("triggers",), ["Bored!"], "$.triggers[0]: 'Bored!' does not match '^[a-z0-9][a-z0-9_-]*$'"),
        (("picks", 0, "motivation_vp"), 1.0, "$.picks[0].motivation_vp: 1.0 is not of type 'integer'"),
        (("digest",), "5b0c", "$.digest: '5b0c' does not match '^[0-9a-f]{32}$'"),
        (("winners",), [], "$.winners: [] should be non-empty"),
        (("ruleset", "fingerprint"), None, "$.ruleset.fingerprint: None is not of type 'string'"),
        (("setup", "start_player"), 9, "$.setup.start_player: 9 is over the maximum of 7"),
        (("extra",), 1, "$: unexpected property 'extra' (expected: block, bot_seeds, deal_seed, decisions, digest, "
         "engine, format, index, options, picks, players, record, rotation, rounds, ruleset, score_by_round, score_sheet, "
         "seating, setup, triggers, value_by_round, winners)"),
    ],
)
def test_a_line_with_a_wrong_value_fails_where_it_is(fresh_runs, path, value, problem: str) -> None:
    """Values checked by the line's own schema and by the schemas it refers to."""
    line = copy.deepcopy(fresh_runs["draft7", 4, "random"][0])
    *parents, last = path
    target = line
    for key in parents:
        target = target[key]
    target[last] = value
    assert jsonio.schema_problems("game_line", line) == [problem]


def _resolved(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """A sub-schema with a local ``$ref`` followed (the keys beside the reference merged in)."""
    while "$ref" in schema and schema["$ref"].startswith("#/$defs/"):
        target = root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"},
                  "required": [*target.get("required", []), *schema.get("required", [])]}
    return schema


#: (section, key) for every key each top-level object section of the summary requires.
SUMMARY_FIELDS = [(None, key) for key in SUMMARY["required"]] + [
    (section, key)
    for section, sub in SUMMARY["properties"].items()
    if _resolved(sub, SUMMARY).get("type") == "object"
    for key in dict.fromkeys(_resolved(sub, SUMMARY)["required"])
]


@pytest.mark.parametrize(("section", "field"), SUMMARY_FIELDS, ids=[f"{s}.{f}" if s else f for s, f in SUMMARY_FIELDS])
def test_a_summary_without_a_required_field_fails(fresh_runs, section: str | None, field: str) -> None:
    summary = summarize(_games(fresh_runs["draft7", 4, "random"]))
    where = summary if section is None else summary[section]
    del where[field]
    assert jsonio.schema_problems("summary", summary) == [f"${'.' + section if section else ''}: {field!r} is a required property"]


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        (("seats", "ties", "rate"), 1.5, "$.seats.ties.rate: 1.5 is over the maximum of 1"),
        (("seats", "ties", "extra"), 0, "$.seats.ties: Unevaluated properties are not allowed ('extra' was unexpected)"),
        (("crew", "cards", 0, "pick_round", "counts"), [[1]], "$.crew.cards[0].pick_round.counts[0]: [1] is too short"),
        (("crew", "cards", 0, "motivation_vp", "per_pick", "counts"), [],
         "$.crew.cards[0].motivation_vp.per_pick: Unevaluated properties are not allowed ('counts' was unexpected)"),
        (("run", "engine"), "rust", "$.run.engine: 'rust' is not one of ['native', 'python', 'mixed']"),
        (("pace", "triggers", 0, "trigger"), "Bored!",
         "$.pace.triggers[0].trigger: 'Bored!' does not match '^[a-z0-9][a-z0-9_-]*$'"),
        (("run", "targets", "settings", "min_card_games"), 2.5,
         "$.run.targets.settings.min_card_games: 2.5 is not of type 'integer'"),
        (("run", "targets", "targets", 0, "weight"), -1, "$.run.targets.targets[0].weight: -1 is less than the minimum of 0"),
        (("targets", "targets", 0, "status"), "passed",
         "$.targets.targets[0].status: 'passed' is not one of ['met', 'not_met', 'unknown']"),
        (("targets", "targets", 0, "subjects", 0, "extra"), 0,
         ("$.targets.targets[0].subjects[0]: unexpected property 'extra' (expected: anchor, games_needed, high, "
          "judged, label, low, miss, n, note, status, subject, value)")),
        (("targets", "settings", "near_miss"), 1.5, "$.targets.settings.near_miss: 1.5 is over the maximum of 1"),
    ],
)
def test_a_summary_with_a_wrong_value_fails_where_it_is(fresh_runs, path, value, problem: str) -> None:
    summary = summarize(_games(fresh_runs["draft7", 4, "random"]))
    *parents, last = path
    target = summary
    for key in parents:
        target = target[key]
    target[last] = value
    assert jsonio.schema_problems("summary", summary) == [problem]


# -- the docs list the schemas' fields ------------------------------------------------------


def _section(heading: str) -> str:
    """The text of docs/simulation.md from ``heading`` to the next heading of its level."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _table_rows(text: str) -> dict[str, str]:
    """The rows of the first ``| field | ... |`` table in ``text``: the first cell's names -> the row."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 2:
            for name in re.findall(r"`([^`]+)`", cells[0]):
                rows[name] = cells[1]
    return rows


def test_the_docs_field_table_of_a_line_lists_the_schemas_fields() -> None:
    """docs/simulation.md's games.jsonl table names exactly the fields of game_line.schema.json."""
    rows = _table_rows(_section("## `games.jsonl`: one line per finished game"))
    assert list(rows) == list(GAME_LINE["properties"])


def _property_names(schema: dict[str, Any], root: dict[str, Any], seen: frozenset[str] = frozenset()) -> set[str]:
    """Every property name under ``schema``, through local references, except the shared
    shapes the docs describe once elsewhere: a rate, a distribution, names (before the table)
    and the targets with their settings (their own section)."""
    names: set[str] = set()
    for where, sub in _walk(schema):
        reference = sub.get("$ref", "")
        if reference.startswith("#/$defs/"):
            name = reference.removeprefix("#/$defs/")
            if name not in seen and name not in {"rate", "rate_figures", "distribution", "distribution_figures",
                                                 "counted_distribution", "name", "names", "targets",
                                                 "target", "target_settings"}:
                names |= _property_names(root["$defs"][name], root, seen | {name})
        names |= set(sub.get("properties", {}))
    return names


def test_the_docs_summary_table_lists_every_key_of_the_schema() -> None:
    """docs/simulation.md's summary.json table has a row per top-level key, and each row
    names every key its section holds."""
    rows = _table_rows(_section("## `summary.json`: every figure of the report"))
    assert sorted(rows) == sorted(SUMMARY["properties"])
    unnamed = {
        key: sorted(name for name in _property_names(sub, SUMMARY) if f"`{name}`" not in rows[key])
        for key, sub in SUMMARY["properties"].items()
    }
    assert {key: names for key, names in unnamed.items() if names} == {}


# -- modules ----------------------------------------------------------------------------------


def _private_imports(folder: Path) -> list[str]:
    """Every ``from stargazer_rules.x import _name`` in the modules under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("stargazer_rules"):
                found += [f"{path.name}: {node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_")]
    return found


def test_no_analysis_module_imports_a_private_helper_of_another() -> None:
    """compare, sequential and the rest reach the figures they share through public names."""
    assert _private_imports(ANALYSIS) == []


# -- the typed view of a summary ------------------------------------------------------------


def _read_through_fields(value: Any, kind: Any) -> Any:
    """The JSON a view reads when every declared field of it is read: parts by their fields,
    tuples as lists, mappings by key, the targets by theirs."""
    if isinstance(value, summary_view.Part):
        hints = typing.get_type_hints(type(value))
        return {name: _read_through_fields(getattr(value, name), hint) for name, hint in hints.items()}
    if isinstance(value, Targets):
        return value.to_json()
    if isinstance(value, tuple):
        return [_read_through_fields(item, None) for item in value]
    if isinstance(value, dict):
        return {key: _read_through_fields(item, None) for key, item in value.items()}
    return value


def _view_summaries(fresh_runs) -> list[dict[str, Any]]:
    games = _games(fresh_runs["draft7", 4, "greedy"])
    foreign = copy.deepcopy(games)
    for game in foreign:
        game["ruleset"] = {"name": "draft-x", "fingerprint": "0" * 64}
    return [summarize(games, ruleset=load_ruleset("draft7"), targets=Targets.default(min_card_games=1)),
            summarize(games[1:2]), summarize(foreign)]


def test_the_view_reads_every_key_of_a_summary_through_its_fields(fresh_runs) -> None:
    """Reading every field of the view gives the summary back, key for key: no key the view
    does not model, none it reads under another name or type (parts that extend a shape, a
    planet card or an end condition, list the shape's fields first, hence sorted keys)."""
    for summary in _view_summaries(fresh_runs):
        rebuilt = _read_through_fields(summary_view.view_of(summary), summary_view.SummaryView)
        assert json.dumps(rebuilt, sort_keys=True) == json.dumps(summary, sort_keys=True)


def _fields_of(kind: type) -> list[str]:
    return list(typing.get_type_hints(kind))


@pytest.mark.parametrize(
    ("kind", "definition"),
    [
        ("Rate", "rate_figures"), ("Distribution", "distribution_figures"), ("Name", "name"),
        ("Seats", "seats"), ("TableSeats", "table_seats"), ("Seat", "seat"), ("TableSeat", "table_seat"),
        ("ChiSquare", "chi_square"), ("CrewCard", "crew_card"), ("Crew", "crew"), ("Planets", "planets"),
        ("PlanetFigures", "planet_figures"), ("Scores", "scores"), ("Pace", "pace"), ("Feel", "feel"), ("FeelRound", "feel_round"), ("Finding", "finding"),
        ("RunWarning", "warning"), ("TargetsSection", "targets_section"), ("TargetAnswer", "target_answer"),
        ("TargetSubject", "target_subject"),
    ],
)
def test_each_part_of_the_view_has_the_fields_of_its_schema(kind: str, definition: str) -> None:
    """The view's parts and the schema's definitions name the same keys in the same order."""
    assert _fields_of(getattr(summary_view, kind)) == list(SUMMARY["$defs"][definition]["properties"])


def test_the_view_of_the_whole_summary_has_the_schemas_top_level_keys() -> None:
    assert _fields_of(summary_view.SummaryView) == list(SUMMARY["properties"])
    assert _fields_of(summary_view.RunInfo) == list(SUMMARY["properties"]["run"]["properties"])


def test_a_summary_lacking_a_key_is_refused_by_its_path_where_it_is_read(fresh_runs) -> None:
    """A view reads lazily: what a summary holds is served, what it lacks is named."""
    summary = summarize(_games(fresh_runs["draft7", 4, "random"]))
    del summary["seats"]["balance"]["gap"]
    view = summary_view.view_of(summary)
    assert view.seats.balance.value == summary["seats"]["balance"]["value"]
    with pytest.raises(ValueError, match=r"^\$\.seats\.balance has no 'gap': not a stargazer-summary/1 document"):
        view.seats.balance.gap
    with pytest.raises(AttributeError):
        view.seats.balance.gaps  # noqa: B018  (a misspelt field)


def test_the_view_finds_cards_names_and_end_conditions(fresh_runs) -> None:
    summary = summarize(_games(fresh_runs["draft7", 4, "random"]), ruleset=load_ruleset("draft7"))
    view = summary_view.view_of(summary)
    first = summary["crew"]["cards"][0]
    assert summary_view.to_json(view.crew_card(first["crew"])) is first
    assert view.crew_card("no-such-crew") is None
    assert view.name("crew", "navigator") == "Navigator" and view.name("crew", "navigator", "ja") == "航法士"
    assert view.name("planets", "no-such-planet") == "no-such-planet"
    trigger = summary["pace"]["triggers"][0]
    assert view.pace.trigger(trigger["trigger"]).alone == trigger["alone"]
    assert view.run.targets == Targets.default()
    assert summary_view.to_json(view.targets.answer("tie_rate")) is summary["targets"]["targets"][2]
    assert view.targets.answer("no_such_target") is None


# -- comparing summarised runs --------------------------------------------------------------


@pytest.fixture(scope="module")
def two_runs(fresh_runs) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return _games(fresh_runs["draft7", 4, "greedy"]), _games(fresh_runs["base", 4, "greedy"])


def test_stargazer_compare_summarises_each_run_once(two_runs, tmp_path, monkeypatch) -> None:
    """The reports and the comparison share each run's summary: two summaries, not four; the
    comparison of the runs' figures (what the command holds of each game) and their folders
    is that of their games."""
    from stargazer_rules import analysis
    from stargazer_rules.analysis import compare, summary
    from stargazer_rules.analysis.game_figures import figures_of
    from stargazer_rules.analysis.measures import MEASURES, MeasureContext
    from stargazer_rules.formats.game_lines import lines_of
    from stargazer_rules.frontends.cli import run_commands

    made = []

    def counted(games, **options):
        made.append(options.get("ruleset"))
        return summary.summarize(games, **options)

    monkeypatch.setattr(compare, "summarize", counted)
    monkeypatch.setattr(analysis, "summarize", counted, raising=False)
    rulesets = (load_ruleset("draft7"), load_ruleset("base"))
    folders = [str(tmp_path / "a"), str(tmp_path / "b")]
    targets = Targets.default()
    contexts = [MeasureContext.of((), ruleset, players=4) for ruleset in rulesets]
    figures = []
    for games, folder, context in zip(two_runs, folders, contexts, strict=True):
        Path(folder).mkdir()
        (Path(folder) / "games.jsonl").write_text(lines_of(games), encoding="utf-8")
        figures.append(figures_of(games, [MEASURES[t.measure] for t in targets.targets], context))
    comparison = run_commands._compare_and_write(figures, rulesets, folders, ["draft7", "base"], contexts,
                                                 argparse.Namespace(judged_by=targets))
    assert made == list(rulesets)
    assert comparison == compare.compare_summaries(*two_runs, label_a="draft7", label_b="base",
                                                   ruleset_a=rulesets[0], ruleset_b=rulesets[1])
    assert json.loads((tmp_path / "a" / "summary.json").read_text(encoding="utf-8")) == summary.summarize(
        two_runs[0], ruleset=rulesets[0])


def test_a_run_is_compared_as_its_games_are(two_runs) -> None:
    """compare_summaries of Runs and of the same games alone: the same comparison."""
    from stargazer_rules.analysis import Run, compare_summaries

    targets = Targets.default(min_card_games=1)
    runs = [Run.summarised(games, targets=targets) for games in two_runs]
    assert compare_summaries(*runs, targets=targets) == compare_summaries(*two_runs, targets=targets)


def test_a_run_with_another_runs_summary_or_other_targets_is_refused(two_runs) -> None:
    from stargazer_rules.analysis import Run, compare_summaries

    with pytest.raises(ValueError, match=r"^the summary is of 4 games \(index 0 to 3\), not of these 3 games"):
        Run(two_runs[0][:3], summarize(two_runs[0]))
    run = Run.summarised(two_runs[0], targets=Targets.default(max_tie_rate=0.2))
    with pytest.raises(ValueError, match="^run A was summarised with other targets than the comparison's"):
        compare_summaries(run, two_runs[1])
