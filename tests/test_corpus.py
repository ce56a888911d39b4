"""The corpus of new rule ideas (docs/corpus.md) and the bundled ``corpus`` ruleset that writes
them (data/cards/corpus/, each idea marked ``# Cn (source): statement``): the ruleset loads,
validates and plays alike on both engines; the doc's table and the YAML's markers name the same
ideas; the counts the doc states are its table's; every "Reads:" line is the ruleset's own
read-back; and worked examples of ideas judged exact, on the Python engine and the kernel alike.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from differential import canonical, play_lockstep
from stargazer_rules import Game, Setup, load_ruleset
from stargazer_rules.frontends.cli import main
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.resources import RULESET_FILES, cards_dir
from stargazer_rules.text.reports import ruleset_report
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import action
from stargazer_rules.vocabulary.table import State

DOC = Path(__file__).resolve().parent.parent / "docs" / "corpus.md"
CORPUS = Game(load_ruleset("corpus"))
VERDICTS = ("exact", "approximate", "not writable")
#: A marker: a YAML comment that opens with the idea's id and its source game in brackets.
MARKER = re.compile(r"^\s*# (C\d+) \(", re.MULTILINE)


def table() -> dict[str, dict[str, str]]:
    """The doc's table, by id: idea, source, kind, verdict, missing word."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| C") and len(cells) == 6:
            rows[cells[0]] = dict(zip(("idea", "source", "kind", "verdict", "missing"), cells[1:]))
    return rows


def markers() -> list[str]:
    folder = cards_dir() / "corpus"
    return [m for name in RULESET_FILES for m in MARKER.findall((folder / name).read_text(encoding="utf-8"))]


# -- the ruleset and the doc ----------------------------------------------------------------------


def test_the_corpus_ruleset_validates_and_runs_on_the_kernel(capsys):
    assert main(["validate", "corpus"]) == 0
    assert capsys.readouterr().out.startswith("corpus: valid — 14 planets, 9 crew, 3-4 players")
    assert native.kernel_for(CORPUS) is not None, native.fallback_reason(CORPUS)


def test_the_table_holds_thirty_ideas_each_with_a_verdict_and_a_source():
    rows = table()
    assert list(rows) == [f"C{n}" for n in range(1, 31)]
    for idea, row in rows.items():
        assert row["verdict"] in VERDICTS, idea
        assert row["source"] and row["idea"] and row["kind"], idea
        assert bool(row["missing"]) == (row["verdict"] != "exact"), f"{idea}: a missing word exactly when not exact"


def test_every_marker_is_an_idea_of_the_table_written_in_the_yaml_and_vice_versa():
    """Each idea judged exact or approximate is marked once in the YAML; an idea not writable is
    not in the YAML at all."""
    found = markers()
    assert len(found) == len(set(found)), f"marked twice: {sorted({m for m in found if found.count(m) > 1})}"
    written = {idea for idea, row in table().items() if row["verdict"] != "not writable"}
    assert set(found) == written


def test_the_counts_the_doc_states_are_its_table_s():
    stated = re.search(r"\*\*Counts:\*\* (\d+) exact, (\d+) approximate, (\d+) not writable \((\d+) ideas\)\.", DOC.read_text(encoding="utf-8"))
    assert stated is not None
    verdicts = [row["verdict"] for row in table().values()]
    assert tuple(int(n) for n in stated.groups()) == (*(verdicts.count(v) for v in VERDICTS), len(verdicts))


def test_each_idea_has_its_section_and_every_written_one_a_reads_line_of_the_ruleset():
    """A section ``### Cn ... — verdict`` per idea, with the table's verdict; a written idea's
    "Reads:" line is words of ``stargazer rules corpus`` (whitespace aside: the crew table wraps)."""
    text = DOC.read_text(encoding="utf-8")
    report = " ".join(ruleset_report(CORPUS.ruleset, "en").split())
    sections = dict(re.findall(r"^### (C\d+) .* — (exact|approximate|not writable)$", text, re.MULTILINE))
    assert sections == {idea: row["verdict"] for idea, row in table().items()}
    for idea, body in re.findall(r"^### (C\d+) .*?\n(.*?)(?=^### |\Z)", text, re.MULTILINE | re.DOTALL):
        reads = re.findall(r"^Reads: \*(.+)\*$", body, re.MULTILINE)
        assert len(reads) == (sections[idea] != "not writable"), idea
        for sentence in reads:
            assert " ".join(sentence.split()) in report, f"{idea}: {sentence!r} is not in the read-back"


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_the_corpus_plays_whole_games_alike_on_both_engines(players):
    for seed in range(4):
        setup = CORPUS.deal(players, seed=seed)
        assert play_lockstep(CORPUS, setup, random.Random(seed)) > 0


# -- worked examples (each on the Python engine and the kernel alike) ------------------------------

RING = ("lava-3", "ocean-2", "gas-2", "primordial-2", "dark", "diamond", "ocean-1")  # C13 C14 C16 C15
CUBES = CORPUS.ruleset.cubes_per_player
FREE = -1


def position(
    dealt: tuple[str, ...],
    *,
    tracks: dict[int, tuple[int, ...]] | None = None,
    hands: dict[int, int] | None = None,
    vp: tuple[int, ...] = (0, 0, 0, 0),
) -> State:
    """Seat 0 to pick, four players, the ring above, Armstrong and ``dealt`` in the crew area;
    the tracks as given, every other cube in hand (or out of play, where ``hands`` says fewer)."""
    state = CORPUS.new_state(setup=Setup(4, RING, dealt, 0))
    tracks_all = tuple((tracks or {}).get(p, ()) for p in range(len(RING)))
    placed = [sum(track.count(seat) for track in tracks_all) for seat in range(4)]
    in_hand = tuple((hands or {}).get(seat, CUBES - placed[seat]) for seat in range(4))
    state = state._replace(
        tracks=tracks_all,
        hands=in_hand,
        removed=tuple(CUBES - placed[seat] - in_hand[seat] for seat in range(4)),
        vp=vp,
        stock=CORPUS.ruleset.free_cubes - sum(track.count(FREE) for track in tracks_all),
    )
    return state._replace(legal=CORPUS.derive_legal(state))


def both(state: State, act) -> State:
    after = CORPUS.step(state, act)
    kernel = native.to_kernel(CORPUS, state)
    kernel.step(act)
    assert canonical(native.from_kernel(kernel)) == canonical(after)
    return after


def pick(state: State, crew_id: str) -> State:
    slot = next(slot for slot, card in enumerate(state.crew) if CORPUS.ruleset.crew[card].id == crew_id)
    return both(state, action(A.PICK_CREW, slot))


def survey(state: State, planet: int, count: int) -> State:
    return both(state, action(A.SURVEY, planet, count))


DEALT = ("midwife", "claimant", "ethnologist", "prefect", "reinforcer")


def test_c1_a_free_cube_only_with_fewer_cubes_in_hand_than_every_other_player():
    behind = pick(position(DEALT, hands={0: 3, 1: 4, 2: 9, 3: 5}), "midwife")
    assert behind.hands[0] == 4 and behind.taken[0] == 1 and behind.stock == CORPUS.ruleset.free_cubes - 1
    tied = pick(position(DEALT, hands={0: 4, 1: 4, 2: 9, 3: 5}), "midwife")
    assert tied.hands[0] == 4 and tied.taken[0] == 0


def test_c2_a_colour_chosen_pays_each_player_per_planet_of_it_and_you_two_more():
    """Blue: Ocean 2 (slot 1) and Ocean 1 (slot 6). Seat 1 has a cube on both, seat 2 on one;
    seat 0, the chooser, on none: 2 VP for choosing. One option per colour of rules.yaml."""
    chosen = pick(position(DEALT, tracks={1: (1, 2), 6: (1,)}), "prefect")
    assert set(chosen.legal) == {action(A.CHOOSE_OPTION, option) for option in range(len(CORPUS.ruleset.colours))}
    assert both(chosen, action(A.CHOOSE_OPTION, 1)).vp == (2, 2, 1, 0)


def test_c3_the_holder_claims_the_special_square_of_a_planet_that_becomes_full():
    """Ocean 1 (slot 6, five squares) holds four cubes; seat 0's survey fills it, and the
    Claimant's holder puts a cube of their own on its special square."""
    chosen = pick(position(DEALT, tracks={6: (1, 2, 3, 1)}), "claimant")
    after = survey(chosen, 6, 1)
    assert after.tracks[6] == (1, 2, 3, 1, 0) and after.specials[6] == (0,) and after.hands[0] == CUBES - 2


def test_c16_the_player_first_on_gas_2_is_paid_for_each_cube_not_theirs():
    """Seat 1 ranks first on Gas 2 (slot 2); seat 0's cube lands there and seat 1 gains 1 VP; a
    cube that takes first place itself pays nobody."""
    chosen = pick(position(DEALT, tracks={2: (1, 1)}), "claimant")  # no skill of its own
    paid = survey(chosen, 2, 1)
    assert paid.tracks[2] == (1, 1, 0) and paid.vp == (0, 1, 0, 0)
    taken = survey(pick(position(DEALT, tracks={2: (1,)}), "claimant"), 2, 1)
    assert taken.tracks[2] == (1, 0) and taken.vp == (0, 0, 0, 0)  # seat 0: one cube further back, first (R15)


def test_c25_the_most_crowded_planet_with_room_loses_its_rearmost_cube_at_the_round_s_end():
    """Lava 3 (slot 0) is full and spared; Ocean 2 (slot 1) and Dark (slot 4) tie for the most
    cubes among the Planets with room, and each loses the cube that stands furthest back."""
    full = (0, 1, 2, 3, 0, 1)
    state = position(DEALT, tracks={0: full, 1: (2, 3, 1), 4: (3, 2, 2), 5: (1,)})
    for crew_id in ("midwife", "claimant", "ethnologist", "reinforcer"):  # no decision but the survey
        state = both(pick(state, crew_id), action(A.SURVEY, -1, 0))
        while state.stage not in ("pick_crew", "over"):
            state = both(state, state.legal[0])
    assert state.round == 2
    assert state.tracks[0] == full and state.tracks[1] == (2, 3) and state.tracks[4] == (3, 2) and state.tracks[5] == (1,)
    assert state.removed[1] == 1 and state.removed[2] == 1


def test_c14_a_completed_planet_pays_its_first_place_a_vp_per_cube():
    """Ocean 2 (slot 1, six squares) holds five cubes, three of seat 1's; seat 0's cube fills it
    and seat 1, first, gains 6 VP (the Midwife gives seat 0 nothing: its hand is the largest)."""
    filled = survey(pick(position(DEALT, tracks={1: (1, 2, 1, 3, 1)}), "midwife"), 1, 1)
    assert filled.tracks[1] == (1, 2, 1, 3, 1, 0) and filled.vp == (0, 6, 0, 0)


def test_c15_a_cube_on_square_5_of_primordial_2_brings_its_owner_a_free_cube():
    landed = survey(pick(position(DEALT, tracks={3: (2, 2, 2, 2)}), "midwife"), 3, 1)
    assert landed.tracks[3] == (2, 2, 2, 2, 0) and landed.hands[0] == CUBES and landed.taken == (1, 0, 0, 0)
    short = survey(pick(position(DEALT, tracks={3: (2, 2, 2)}), "midwife"), 3, 1)
    assert short.hands[0] == CUBES - 1 and short.taken == (0, 0, 0, 0)
