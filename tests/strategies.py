"""Hypothesis strategies: random playouts, and generated valid rulesets.

Two kinds of input feed the property tests:

- a **playout** (``Playout``): a ruleset, a player count it supports, a seed for the deal and a
  seed for the policy that chooses among the legal actions (``choose``);
- a **generated ruleset** (``ruleset_documents``): the three YAML documents of a ruleset folder
  as plain dicts, written to a fresh temporary folder and loaded with the real ``load_ruleset``
  (``load_documents``). Track lengths 1..10 with VP 0..12 (accidents included), special
  capacities 0..3, 1..6 colours, a subset of 1..5 players with enough Planets and crew for
  each, every rule-count knob (starting VP by turn position included), and crew whose skills are drawn from *every* effect type of
  ``EFFECT_TYPES``, built from each type's ``params`` and ``timings`` declarations, so that a
  new effect type is generated without a change here (a new *kind* of parameter fails loudly).

Termination. The draft's rules alone do not guarantee that a game ends: R7 lets a player place
no cube (``survey.minimum`` 0), a crew may have survey count 0, and a game where nobody places
a cube never reaches either end condition of R10. The engine adds a knob for that,
``max_rounds`` (docs/rules.md, "Round limit"): every game ends at the end of that round at the
latest, whatever the players do. ``choose`` plays uniformly at random for the first
``EXPLORE_ROUNDS`` rounds, and after that still at random but *making progress*: the player
picks a crew that is sure to survey at least one cube when there is one, and never chooses to
place nothing when a survey can place a cube. When the crew area has such a crew, every round
then puts a cube on a normal square or ends the game, so a game ends within
``EXPLORE_ROUNDS + squares + 1`` rounds even without the limit (``round_bound``).
"""

from __future__ import annotations

import functools
import json
import random
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import yaml
from hypothesis import assume
from hypothesis import strategies as st

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import RulesetError
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.model import DRAFT7_END_DATA, Ruleset
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, ON_CHOOSE, REQUIRED, ROUND_END, SURVEY, TIMINGS, Effect, Param
from stargazer_rules.vocabulary.bonus import DISTINCT_COLOUR_SETS, LARGEST_GROUPS, SQUARES, VP_BY_COUNT
from stargazer_rules.vocabulary.majority import TIE_RULES
from stargazer_rules.vocabulary.table import PICK_CREW, SURVEYING, State

#: The rulesets shipped with the package that the properties run on.
BUNDLED = ("draft7", "base")

#: The words of the loader's refusal of a program past the work limits (rulesets/work_checks.py).
WORK_REFUSAL = "when it resolves; the limit is"

#: Rounds played uniformly at random before the policy insists on progress.
EXPLORE_ROUNDS = 3

#: A generous bound on the decisions of one round, whatever the skills: a bug that loops
#: inside a round fails instead of hanging.
MAX_DECISIONS_PER_ROUND = 2000

#: Deepest nesting of ``choose_one`` options in a generated skill.
MAX_OPTION_DEPTH = 2

#: The effect type that changes the survey count (R7); the progress policy reads its ``delta``.
CHANGE_SURVEY_COUNT = "change_survey_count"

seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- playouts -------------------------------------------------------------------------------


@functools.cache
def bundled_game(name: str) -> Game:
    """The ``Game`` of a bundled ruleset, loaded once per test session."""
    return Game(load_ruleset(name))


@attrs.frozen
class Playout:
    """One random game to play: the ruleset (bundled ``name`` or generated ``documents``), the
    player count, the seed of the deal and the seed of the action policy.

    The generated documents are part of the repr, so a falsifying example shows the ruleset.
    """

    players: int
    deal_seed: int
    play_seed: int
    name: str | None = None
    documents: Mapping[str, Any] | None = None

    @property
    def game(self) -> Game:
        if self.name is not None:
            return bundled_game(self.name)
        assert self.documents is not None
        return generated_game(self.documents)

    def new_state(self) -> State:
        return self.game.new_state(players=self.players, seed=self.deal_seed)

    def policy(self) -> random.Random:
        return random.Random(self.play_seed)


def bundled_playouts(name: str) -> st.SearchStrategy[Playout]:
    """Random games on the bundled ruleset ``name``, at any player count it supports."""
    counts = bundled_game(name).ruleset.player_counts
    return st.builds(Playout, players=st.sampled_from(counts), deal_seed=seeds, play_seed=seeds, name=st.just(name))


@st.composite
def generated_playouts(draw: st.DrawFn) -> Playout:
    """Random games on a generated ruleset (``ruleset_documents``)."""
    documents = draw(ruleset_documents())
    counts = sorted(entry["players"] for entry in documents["rules.yaml"]["player_counts"])
    return Playout(
        players=draw(st.sampled_from(counts)),
        deal_seed=draw(seeds),
        play_seed=draw(seeds),
        documents=documents,
    )


def playouts(source: str) -> st.SearchStrategy[Playout]:
    """Playouts of a bundled ruleset by name, or of generated rulesets for ``"generated"``."""
    return generated_playouts() if source == "generated" else bundled_playouts(source)


#: The sources every property runs on.
SOURCES = (*BUNDLED, "generated")


#: Below any survey count: what ``progress_lower_bound`` gives a skill whose survey count an
#: amount of the rules language may change (``set_survey_count``, an amount's ``delta``).
UNKNOWN_PROGRESS = -1000


def progress_lower_bound(effects: Sequence[Effect]) -> int:
    """The least a skill can change its survey count by, whatever the chooser decides.

    ``change_survey_count`` adds its ``delta``; a ``choose_one`` adds the least of its options,
    or nothing (an option may be skipped, R9); an ``if`` the least of its branches. An amount
    computed from the position, ``set_survey_count``, or either in a body, may take any count.
    """
    total = 0
    for effect in effects:
        if effect.name == CHANGE_SURVEY_COUNT and type(effect.delta) is int:  # type: ignore[attr-defined]
            total += effect.delta  # type: ignore[attr-defined]
        elif effect.name in (CHANGE_SURVEY_COUNT, "set_survey_count", "use_skill"):  # use_skill: another skill's
            total += UNKNOWN_PROGRESS
        elif effect.branches:
            total += min(0, *(progress_lower_bound(option) for option in effect.branches))
        for body in effect.bodies:
            total += min(0, progress_lower_bound(body))
    return total


def moves_cubes_at_once(game: Game) -> bool:
    """Whether a skill of the ruleset moves cubes on the tracks or from hands with no decision
    (the rules language's ``return_cube``, ``move_cube``, ``place_cube``, ``place_cube_on_crew``
    from hands, ``take_free_cubes`` into hands), or rules.yaml's round-end effects do: a step
    may then move cubes after the decision it plays (an after-survey or round-end effect)."""

    def moves(effects: Sequence[Effect]) -> bool:
        return any(
            effect.name in ("return_cube", "move_cube", "place_cube", "place_cube_on_crew", "take_free_cubes", "use_skill")  # use_skill: maybe such a skill
            or any(moves(inner) for inner in (*effect.branches, *effect.bodies))
            for effect in effects
        )

    return any(moves(card.skill) for card in game.ruleset.crew) or moves(game.ruleset.round_end_effects)


def _takes_cubes_off_tracks(effects: Sequence[Effect]) -> bool:
    """Whether a skill can take a cube off a track for good (``return_cube``): the track then
    fills again, so filling the ring no longer bounds the game."""
    return any(
        effect.name in ("return_cube", "use_skill")  # use_skill may apply a return_cube
        or any(_takes_cubes_off_tracks(inner) for inner in (*effect.branches, *effect.bodies))
        for effect in effects
    )


def sure_to_survey(game: Game, card_index: int) -> bool:
    """True when the crew card surveys at least one cube whatever its skill's choices (R7)
    and the table: a survey_start that narrows where the survey may start (``full``, a colour)
    may find no such Planet with room, and the survey is then not made."""
    card = game.ruleset.crew[card_index]
    return card.survey_count + progress_lower_bound(card.skill) >= 1 and not _narrows_the_start(card.skill)


def _narrows_the_start(effects: Sequence[Effect]) -> bool:
    """Whether a skill may name a survey_start on fewer Planets than every one with room."""
    return any(
        (effect.name == "survey_start" and effect.planet.to_data() not in ("all", "with_room"))  # type: ignore[attr-defined]
        or any(_narrows_the_start(option) for option in effect.branches)
        for effect in effects
    )


def places_nothing(state: State, act: Action) -> bool:
    """True for a survey choice that places no cube: ``survey`` of 0 or an immediate stop."""
    if act.kind == A.SURVEY:
        return act.count == 0
    return act.kind == A.SURVEY_STOP and state.survey_placed == 0


def choose(game: Game, state: State, rng: random.Random) -> Action:
    """The playout policy: uniformly random at first, then random among actions that progress.

    From round ``EXPLORE_ROUNDS + 1`` on, a crew sure to survey is picked when one is free, and
    a survey that can place a cube places one. See the module docstring for why.
    """
    legal = state.legal
    if state.round > EXPLORE_ROUNDS:
        if state.stage == PICK_CREW:
            progressing = [act for act in legal if sure_to_survey(game, state.crew[act.target])]
        elif state.stage == SURVEYING:
            progressing = [act for act in legal if not places_nothing(state, act)]
        else:
            progressing = []
        if progressing:
            legal = progressing
    return legal[rng.randrange(len(legal))]


def round_bound(game: Game, state: State) -> int:
    """The last round a game played by ``choose`` can reach, for the deal of ``state``.

    ``max_rounds`` bounds every game. Past the explore rounds, when the crew area has a crew
    sure to survey, each round also puts a cube on a normal square or ends the game, so the
    game ends once the squares of the ring are full, if not before (unless a skill in play
    takes cubes off the tracks, ``return_cube``, or the round's end effects of rules.yaml do).
    """
    bound = game.ruleset.max_rounds
    if any(_takes_cubes_off_tracks(game.ruleset.crew[card].skill) for card in state.crew):
        return bound
    if _takes_cubes_off_tracks(game.ruleset.round_end_effects):
        return bound
    if any(sure_to_survey(game, card) for card in state.crew):
        squares = sum(game.ruleset.planets[index].length for index in state.planets)
        bound = min(bound, EXPLORE_ROUNDS + squares + 1)
    return bound


# -- generated rulesets ---------------------------------------------------------------------


def name(text: str) -> dict[str, str]:
    return {"ja": text, "en": text}


def load_documents(documents: Mapping[str, Any]) -> Ruleset:
    """Write the three documents to a fresh temporary folder and load them with ``load_ruleset``."""
    with tempfile.TemporaryDirectory(prefix="stargazer-generated-") as folder:
        for file_name, document in documents.items():
            text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
            Path(folder, file_name).write_text(text, encoding="utf-8")
        return load_ruleset(Path(folder))


@functools.lru_cache(maxsize=256)
def _generated_game(documents_json: str) -> Game:
    return Game(load_documents(json.loads(documents_json)))


def generated_game(documents: Mapping[str, Any]) -> Game:
    """The ``Game`` of generated documents; the same documents are loaded once."""
    return _generated_game(json.dumps(documents, sort_keys=True))


def _option_timings(parent_when: str) -> frozenset[str]:
    """The timings an option's effects may have under a ``choose_one`` resolving at ``parent_when``
    (checks._option_timings: the parent's own, or ``survey`` under ``on_choose``)."""
    return frozenset({parent_when, SURVEY} if parent_when == ON_CHOOSE else {parent_when})


def _default_when(cls: type[Effect], parent_when: str | None) -> str:
    """The timing the loader gives an effect whose ``when`` is left out (check_sites.resolve_when)."""
    return parent_when if parent_when in cls.timings else cls.timings[0]


def _required_timing(effect_name: str, param: str, value: Any) -> str | None:
    for need in EFFECT_TYPES[effect_name].timing_requirements:
        if (need.param, need.value) == (param, value):
            return need.timing
    return None


def _has_options(cls: type[Effect]) -> bool:
    return any(param.kind in ("options", "effects") for param in cls.params)


def _immediate(cls: type[Effect]) -> bool:
    """Whether effects of the type may stand in a body (``do``): those that ask no decision,
    and ``if``, whose branches are then drawn from them too."""
    return cls.immediate is True or cls.name == "if"


def effect_names(timings: frozenset[str] = frozenset(TIMINGS), depth: int = 0, body: bool = False) -> list[str]:
    """Effect types that may resolve at one of ``timings``; no more nesting past the depth
    limit; in a ``body``, only those that ask no decision."""
    return [
        effect_name
        for effect_name, cls in EFFECT_TYPES.items()
        if set(cls.timings) & timings
        and (depth < MAX_OPTION_DEPTH or not _has_options(cls))
        and (not body or _immediate(cls))
    ]


def effects(
    colours: Sequence[str],
    timings: frozenset[str] = frozenset(TIMINGS),
    depth: int = 0,
    parent_when: str | None = None,
    bound: frozenset[str] = frozenset(),
    body: bool = False,
) -> st.SearchStrategy[dict[str, Any]]:
    """One effect mapping of any type that may resolve at one of ``timings``; ``bound`` the set
    kinds bound where it stands (``this_planet`` may be read), ``body`` true in a ``do``."""
    return st.sampled_from(effect_names(timings, depth, body)).flatmap(
        lambda effect_name: effect_of_type(effect_name, colours, timings, depth, parent_when, bound=bound, body=body)
    )


def _integer(param: Param) -> st.SearchStrategy[int]:
    if param.minimum is None:
        return st.integers(-3, 3)
    return st.integers(param.minimum, param.minimum + 3)


@st.composite
def effect_of_type(
    draw: st.DrawFn,
    effect_name: str,
    colours: Sequence[str],
    timings: frozenset[str] = frozenset(TIMINGS),
    depth: int = 0,
    parent_when: str | None = None,
    fixed: Mapping[str, Any] | None = None,
    bound: frozenset[str] = frozenset(),
    body: bool = False,
) -> dict[str, Any]:
    """A valid mapping of effect type ``effect_name``, built from its declarations.

    Its ``when`` is one of the type's timings allowed here; each parameter gets a value of its
    kind (left out at random when it equals the default), or the value ``fixed`` gives it; a
    parameter required only with another's value (``required_when``) is given exactly then; a
    choice that needs a timing (``Effect.timing_requirements``) is made only at that timing.
    The rules language's parameters are drawn by ``language_value``: expressions valid where
    they stand (``bound``), effect lists (branches, bodies) of effects allowed there.
    """
    cls = EFFECT_TYPES[effect_name]
    fixed = fixed or {}
    # The language's choice made for the whole effect: which set a choose or for_each goes over.
    over = draw(st.sampled_from(("planet", "seat", "crew")))
    needed = {_required_timing(effect_name, key, value) for key, value in fixed.items()} - {None}
    allowed_timings = [timing for timing in cls.timings if timing in timings and needed <= {timing}]
    when = draw(st.sampled_from(allowed_timings))
    data: dict[str, Any] = {"effect": effect_name}
    values: dict[str, Any] = {}
    for param in cls.params:
        if param.required_when is not None:
            continue
        if param.name in fixed:
            value: Any = fixed[param.name]
        elif param.kind == "integer":
            value = draw(_integer(param))
        elif param.kind == "choice":
            allowed = [c for c in param.choices if _required_timing(effect_name, param.name, c) in (None, when)]
            value = draw(st.sampled_from(allowed))
        elif param.kind == "colour":
            value = draw(st.sampled_from(colours))
        elif param.kind == "options":
            low = max(2, param.minimum or 1)
            option = st.lists(
                effects(colours, _option_timings(when), depth + 1, when), min_size=1, max_size=2
            )
            value = draw(st.lists(option, min_size=low, max_size=low + 1))
        elif param.kind in LANGUAGE_KINDS:
            context = _Context(effect_name, when, depth, bound, body, over, colours)
            value = draw(language_value(param, context, values))
            if value is _LEFT_OUT:
                continue
        else:
            raise NotImplementedError(
                f"effect {effect_name!r}: parameter {param.name!r} has kind {param.kind!r}, which "
                "tests/strategies.py cannot generate yet; add it to effect_of_type"
            )
        values[param.name] = value
        if param.kind != "choice" and _required_timing(effect_name, param.name, value) not in (None, when):
            raise NotImplementedError(f"{effect_name}.{param.name}: timing requirement on a {param.kind}")
        if param.default is REQUIRED or value != param.default or draw(st.booleans()):
            data[param.name] = value
    if effect_name in ("place_cube", "return_cube", "move_cube") and values.get("owner") == "free" and data.get("square") == "special":
        # a free cube never stands on a special square (R3), so another owner: the square may
        # be a value the caller fixed; nobody is "you" in some abilities
        data["owner"] = values["owner"] = "everyone" if NOBODY in bound else "me"
    for param in cls.params:
        if param.required_when is None:
            continue
        other, wanted = param.required_when
        if values.get(other, _declared_default(cls, other)) != wanted:
            continue
        if param.kind == "colour":
            data[param.name] = draw(st.sampled_from(colours))
        elif param.kind == "integer":
            data[param.name] = draw(_integer(param))
        elif param.kind == "choice":
            data[param.name] = draw(st.sampled_from(param.choices))
        else:
            raise NotImplementedError(f"{effect_name}.{param.name}: conditional {param.kind} parameter")
    if when != _default_when(cls, parent_when) or draw(st.booleans()):
        data["when"] = when
    return data


# -- the rules language (docs/skills.md, "The rules language") -------------------------------

#: The parameter kinds of the rules language: its expressions, owners and effect lists.
LANGUAGE_KINDS = ("amount", "condition", "planets", "seats", "crews", "owner", "effects")

#: Returned by ``language_value`` for a parameter left out (the set keys of ``choose`` and
#: ``for_each`` but the one drawn).
_LEFT_OUT = object()

#: How deep expressions nest (a filter's condition, an arithmetic's items).
MAX_EXPRESSION_DEPTH = 2


@attrs.frozen
class _Context:
    """Where a parameter of the language is drawn: its effect's type and timing, the nesting
    depth, the set kinds bound there, whether the effect stands in a body, the set key a
    choose or for_each goes over, and the ruleset's colours."""

    effect: str
    when: str
    depth: int
    bound: frozenset[str]
    body: bool
    over: str
    colours: Sequence[str]


def set_expr(kind: str, colours: Sequence[str], bound: frozenset[str], depth: int = 0) -> st.SearchStrategy[Any]:
    """A set of Planets, seats or crews valid where ``bound`` kinds are bound: every word, and
    (above the depth limit) the words that take a set and filters whose condition reads the
    member bound."""
    this = {"planets": "this_planet", "seats": "this_seat", "crews": "this_crew"}[kind]
    words = {
        "planets": ["all", "with_room", "full", "surveyed"],
        "seats": ["me", "others", "everyone", "start_player", "left"],
        "crews": ["all", "others", "unpicked", "this_crew"],
    }[kind]
    if kind == "seats" and NOBODY in bound:  # a planet ability where nobody is "you"
        words = [word for word in words if word not in ("me", "others", "left")]
    if kind == "crews" or kind in bound:
        words = [*words, this] if this not in words else words
    options: list[st.SearchStrategy[Any]] = [st.sampled_from(words)]
    if kind == "planets":
        options.append(st.sampled_from(colours).map(lambda colour: {"colour": colour}))
    if depth < MAX_EXPRESSION_DEPTH:
        inner = set_expr(kind, colours, bound, depth + 1)
        if kind == "planets":
            options.append(inner.map(lambda of: {"next_with_room": of}))
        if kind == "seats":
            options.append(st.tuples(st.sampled_from(("most_vp", "fewest_vp", "left_of")), inner).map(lambda pair: {pair[0]: pair[1]}))
        condition = condition_expr(colours, bound | {kind}, depth + 1)
        filtered = st.tuples(condition, st.none() | inner)
        options.append(filtered.map(lambda pair: {"where": pair[0]} if pair[1] is None else {"where": pair[0], "from": pair[1]}))
    return st.one_of(options)


def owner_expr(colours: Sequence[str], bound: frozenset[str], depth: int = 0, words: Sequence[str] = ("free", "anyone")) -> st.SearchStrategy[Any]:
    """Whose cubes: one of ``words`` or a set of seats."""
    return st.sampled_from(list(words)) | set_expr("seats", colours, bound, depth)


def amount_expr(colours: Sequence[str], bound: frozenset[str], depth: int = 0, reads_vp: bool = False, least: int = -3) -> st.SearchStrategy[Any]:
    """An amount: a number (at least ``least``), a quantity, a count, and (above the depth
    limit) arithmetic. ``reads_vp``: ``{vp: ...}`` may be read (in a comparison; never in an
    amount that gives VP or changes a survey, which the loader refuses). A product multiplies
    two counts at most, so that the VP a program gives stays within the kernel's bounds."""
    sets = {kind: set_expr(kind, colours, bound, depth + 1) for kind in ("planets", "seats", "crews")}
    cubes = st.fixed_dictionaries(
        {},
        optional={
            "owner": owner_expr(colours, bound, depth + 1),
            "squares": st.sampled_from(("normal", "special", "both")),
            "planets": sets["planets"],
        },
    )
    leaves: list[st.SearchStrategy[Any]] = [
        st.integers(least, least + 6),
        st.sampled_from(("round", "players", "stock", "full_planets_to_end")),
        sets["planets"].map(lambda of: {"planets": of}),
        sets["seats"].map(lambda of: {"seats": of}),
        sets["crews"].map(lambda of: {"crews": of}),
        sets["planets"].map(lambda of: {"colours": of}),
        cubes.map(lambda value: {"cubes": value}),
        sets["crews"].map(lambda of: {"free_cubes": of}),
        sets["crews"].map(lambda of: {"player_cubes": of}),
        sets["seats"].map(lambda of: {"hand": of}),
        sets["planets"].map(lambda of: {"room": of}),
    ]
    if reads_vp:
        leaves.append(sets["seats"].map(lambda of: {"vp": of}))
    leaf = st.one_of(leaves)
    if depth >= MAX_EXPRESSION_DEPTH:
        return leaf
    items = amount_expr(colours, bound, depth + 1, reads_vp, least=-3)
    arithmetic = st.one_of(
        st.tuples(st.sampled_from(("sum", "min", "max")), st.lists(items, min_size=1, max_size=3)),
        st.tuples(st.just("difference"), st.lists(items, min_size=2, max_size=3)),
        st.tuples(st.just("product"), st.lists(leaf, min_size=1, max_size=2)),
    ).map(lambda pair: {pair[0]: pair[1]})

    def extreme(kind: str) -> st.SearchStrategy[Any]:
        """``most_of``/``least_of`` an amount read with the member of a set bound."""
        inner = amount_expr(colours, bound | {kind}, depth + 1, reads_vp, least=-3)
        drawn = st.tuples(st.sampled_from(("most_of", "least_of")), sets[kind], inner)
        return drawn.map(lambda t: {t[0]: {kind: t[1], "amount": t[2]}})

    arithmetic = arithmetic | st.sampled_from(("planets", "seats", "crews")).flatmap(extreme)
    return st.booleans().flatmap(lambda combined: arithmetic if combined else leaf)


def condition_expr(colours: Sequence[str], bound: frozenset[str], depth: int = 0) -> st.SearchStrategy[Any]:
    """A condition valid where ``bound`` kinds are bound: comparisons of amounts (VP too),
    predicates of seats, of the bound Planet and of the bound crew, and (above the depth
    limit) all, any and not."""
    amounts = amount_expr(colours, bound, depth + 1, reads_vp=True)
    comparisons = ("at_least", "at_most", "more_than", "less_than", "equal", "not_equal")
    seats = set_expr("seats", colours, bound, depth + 1)
    options: list[st.SearchStrategy[Any]] = [
        st.tuples(st.sampled_from(comparisons), amounts, amounts).map(lambda t: {t[0]: [t[1], t[2]]}),
        st.tuples(st.sampled_from(("is_start_player", "has_most_vp", "has_fewest_vp")), seats).map(lambda t: {t[0]: t[1]}),
    ]
    if "planets" in bound:
        options += [
            st.sampled_from(("full", "has_room", "special_has_room", "surveyed")),
            st.sampled_from(colours).map(lambda colour: {"is_colour": colour}),
            st.tuples(st.sampled_from(("ranks_first", "has_cube")), owner_expr(colours, bound, depth + 1)).map(lambda t: {t[0]: t[1]}),
        ]
    if "crews" in bound:
        options.append(st.just("unpicked"))
    if depth < MAX_EXPRESSION_DEPTH:
        inner = condition_expr(colours, bound, depth + 1)
        options += [
            st.tuples(st.sampled_from(("all", "any")), st.lists(inner, min_size=1, max_size=3)).map(lambda t: {t[0]: t[1]}),
            inner.map(lambda item: {"not": item}),
        ]
    return st.one_of(options)


#: The effect types of the rules language: its control (if, choose, for_each), its actions,
#: the two older types that take an amount, and its lasting effects.
LANGUAGE_EFFECTS = (
    "if",
    "choose",
    "for_each",
    "lose_vp",
    "take_vp",
    "set_survey_count",
    "return_cube",
    "move_cube",
    "place_cube",
    "place_cube_on_crew",
    "collect_free_cubes",
    "take_free_cubes",
    "discard_cubes",
    "gain_vp",
    "change_survey_count",
    # this turn's survey: its direction, skips with a limit, its start
    "set_survey_direction",
    "may_skip_planets",
    "survey_start",
    # lasting effects
    "close_crew",
    "protect_cubes",
    "use_skill",
    # the start player at a round's end, no decision (docs/rules.md, "Start player")
    "set_start_player",
)


def language_effects(colours: Sequence[str]) -> st.SearchStrategy[dict[str, Any]]:
    """One effect of the rules language at the top of a skill, any timing; what it nests
    (branches, bodies) is drawn from every type allowed there."""
    return st.sampled_from(LANGUAGE_EFFECTS).flatmap(lambda effect_name: effect_of_type(effect_name, colours))


def language_rulesets() -> st.SearchStrategy[dict[str, dict[str, Any]]]:
    """Valid rulesets (``ruleset_documents``) whose every crew runs a program of the rules
    language: if inside choose bodies, filters whose conditions read the member bound,
    arithmetic and comparisons, every set word and owner."""
    return ruleset_documents(language=True)


#: The set kind of each set key of ``choose`` and ``for_each``.
_OVER_KINDS = {"planet": "planets", "seat": "seats", "crew": "crews"}


@st.composite
def language_value(draw: st.DrawFn, param: Param, context: _Context, values: Mapping[str, Any]) -> Any:
    """A value of a rules-language parameter ``param`` of ``context.effect``, valid where it
    stands, or ``_LEFT_OUT``. ``values`` holds the effect's parameters drawn before it."""
    effect, bound, colours = context.effect, context.bound, context.colours
    kind = param.kind
    if effect in ("choose", "for_each") and param.name in _OVER_KINDS:
        if param.name != context.over:
            return _LEFT_OUT
        return draw(set_expr(kind, colours, bound))
    if kind == "amount":
        return draw(amount_expr(colours, bound, least=param.minimum if param.minimum is not None else -3))
    if kind == "condition":
        return draw(condition_expr(colours, bound))
    if kind == "owner":
        # a cube is placed by an owner (not anyone); a free cube never goes on a special square (R3).
        placing = effect in ("place_cube", "place_cube_on_crew")
        return draw(owner_expr(colours, bound, words=("free",) if placing else ("free", "anyone")))
    if kind in ("planets", "seats", "crews"):
        inner = bound | ({param.binds} if param.binds else frozenset())
        return draw(set_expr(kind, colours, inner))
    # An effect list: the branches of if, the body of choose and for_each, the before_walk of
    # survey_start (performed when the survey starts, on the start Planet: its effects keep
    # their own timings).
    timings = _option_timings(context.when)
    if param.name == "before_walk":
        inner = bound | {"planets"}
        # parent_when is survey_start's, as the loader resolves a left-out when from it; an
        # effect of a round's end only (set_start_player) cannot stand there, during the turn.
        during_turn = frozenset(TIMINGS) - {ROUND_END}
        return draw(st.lists(effects(colours, during_turn, context.depth + 1, context.when, inner, body=True), max_size=2))
    if param.name == "do":
        inner = bound | {_OVER_KINDS[context.over]}
        return draw(st.lists(effects(colours, timings, context.depth + 1, context.when, inner, body=True), min_size=1, max_size=2))
    return draw(st.lists(effects(colours, timings, context.depth + 1, context.when, bound, body=context.body), max_size=2))


def _declared_default(cls: type[Effect], param_name: str) -> Any:
    for param in cls.params:
        if param.name == param_name:
            return None if param.default is REQUIRED else param.default
    return None


#: In ``bound``, a sentinel kind: nobody is "you" here (a round_end or game_end planet
#: ability), so no seat word reads "you" (me, others, left).
NOBODY = "nobody"


def _without_when(data: Any) -> Any:
    """Effect data with every ``when`` left out: an ability's effects resolve at its event."""
    if isinstance(data, list):
        return [_without_when(item) for item in data]
    if isinstance(data, dict):
        return {key: _without_when(value) for key, value in data.items() if not (key == "when" and "effect" in data)}
    return data


def trigger_timings(event: str) -> frozenset[str]:
    """The timings of the effects drawn for a trigger's do at ``event``: an ability's
    (``after_survey``), and at a round's end also those of a round's end only
    (``set_start_player``, check_sites.round_end_only)."""
    return frozenset({"after_survey", ROUND_END} if event == "round_end" else {"after_survey"})


@st.composite
def ability_data(draw: st.DrawFn, colours: Sequence[str], length: int, lasting_left: list[str]) -> dict[str, Any]:
    """One planet ability (docs/skills.md, "Planet abilities"): a trigger of a random event
    whose do holds 1..2 effects that ask no decision (nested bodies and branches included),
    with this_planet bound and, at round_end and game_end, no word of "you"; or a lasting
    effect among ``lasting_left`` (each at most once a card)."""
    if lasting_left and draw(st.integers(0, 3)) == 0:
        word = draw(st.sampled_from(lasting_left))
        lasting_left.remove(word)
        if word == "no_survey_start":
            return {"lasting": word}
        if word == "counts_toward":  # every colour (P1), none, one colour or some colours, each once
            named = st.lists(st.sampled_from(list(colours)), min_size=1, max_size=len(colours), unique=True)
            value = draw(st.sampled_from(("every_colour", "none")) | st.sampled_from(list(colours)) | named)
        else:
            value = draw(st.integers(1, 3))
        return {"lasting": {word: value}}
    event = draw(st.sampled_from(("cube_placed", "becomes_full", "round_end", "game_end")))
    on: Any = event
    if event == "cube_placed":
        square = draw(st.none() | st.just("special") | st.integers(1, length))
        if square is not None:
            on = {event: {"square": square}}
    bound = frozenset({"planets"}) | ({NOBODY} if event in ("round_end", "game_end") else frozenset())
    body = effects(colours, trigger_timings(event), 1, "after_survey", bound, body=True)
    return {"on": on, "do": _without_when(draw(st.lists(body, min_size=1, max_size=2)))}


@st.composite
def crew_trigger_data(draw: st.DrawFn, colours: Sequence[str], crew_ids: Sequence[str]) -> dict[str, Any]:
    """One crew trigger (docs/skills.md, "Crew triggers"): a random event whose do holds 1..2
    effects that ask no decision, "you" being the holder and this_planet bound at a landing;
    half of the ``another_pick`` ones narrowed to 1..2 of ``crew_ids``."""
    event = draw(st.sampled_from(("another_pick", "cube_placed", "becomes_full", "round_end", "game_end")))
    on: Any = event
    if event == "cube_placed":
        square = draw(st.none() | st.just("special") | st.integers(1, 4))
        if square is not None:
            on = {event: {"square": square}}
    if event == "another_pick" and draw(st.booleans()):
        on = {event: {"crew": draw(st.lists(st.sampled_from(crew_ids), min_size=1, max_size=2, unique=True))}}
    bound = frozenset({"planets"}) if event in ("cube_placed", "becomes_full") else frozenset()
    body = effects(colours, trigger_timings(event), 1, "after_survey", bound, body=True)
    return {"on": on, "do": _without_when(draw(st.lists(body, min_size=1, max_size=2)))}


@st.composite
def planets_data(
    draw: st.DrawFn, count: int, colours: Sequence[str], long: bool = False, language: bool = False
) -> list[dict[str, Any]]:
    """``count`` planet cards: tracks of 1..10 squares (4..10 when ``long``) worth 0..12 VP,
    special capacity 0..3; with ``language``, half of them with 1..2 abilities."""
    lengths = st.integers(4, 10) if long else st.integers(1, 10)
    cards = []
    for index in range(count):
        card: dict[str, Any] = {
            "id": f"p{index}",
            "name": name(f"planet {index}"),
            "colour": draw(st.sampled_from(colours)),
            "track": draw(lengths.flatmap(lambda n: st.lists(st.integers(0, 12), min_size=n, max_size=n))),
        }
        capacity = draw(st.none() | st.integers(0, 3))
        if capacity is not None:
            card["special_capacity"] = capacity
        if draw(st.booleans()):
            card["placeholder"] = draw(st.booleans())
        if language and draw(st.booleans()):
            lasting_left = ["counts_toward", "majority_factor", "no_survey_start"]
            card["abilities"] = [
                draw(ability_data(colours, len(card["track"]), lasting_left)) for _ in range(draw(st.integers(1, 2)))
            ]
        cards.append(card)
    return cards


@st.composite
def crew_card(
    draw: st.DrawFn, index: int, colours: Sequence[str], always: bool, language: bool = False, crew_ids: Sequence[str] = ()
) -> dict[str, Any]:
    """One crew card: survey count 0..5 and 0..3 effects of any type and timing (with
    ``language``, 1..3 effects of the rules language at the top of the skill, and half of the
    cards with crew triggers, which may name the crews ``crew_ids``)."""
    skill = language_skills(colours) if language else st.lists(effects(colours), max_size=3)
    card: dict[str, Any] = {
        "id": f"c{index}",
        "name": name(f"crew {index}"),
        "survey_count": draw(st.integers(0, 5)),
        "skill": one_survey_start(draw(skill)),  # the non-language effects may hold survey_start too
    }
    if always:
        card["always_in_play"] = True
    elif draw(st.booleans()):
        card["always_in_play"] = False
    if language and draw(st.booleans()):  # half of them with 1..2 crew triggers
        card["triggers"] = [draw(crew_trigger_data(colours, crew_ids or (card["id"],))) for _ in range(draw(st.integers(1, 2)))]
    return card


def language_skills(colours: Sequence[str]) -> st.SearchStrategy[list[dict[str, Any]]]:
    """A skill of 1..3 effects of the rules language that the loader takes: at most one
    ``survey_start`` in it (R7; ``one_survey_start``)."""
    return st.lists(language_effects(colours), min_size=1, max_size=3).map(one_survey_start)


def one_survey_start(skill: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``skill`` with at most one ``survey_start`` (the loader's rule, R7): each further one, at
    the top or in a branch, becomes ``choose_direction``, which stands wherever it stood."""
    seen = 0

    def keep(effects: list[Any]) -> list[Any]:
        nonlocal seen
        kept = []
        for effect in effects:
            if effect.get("effect") == "survey_start":
                seen += 1
                if seen > 1:
                    effect = {"effect": "choose_direction", "when": "survey"}
            else:
                effect = dict(effect)
                for key in ("then", "else"):
                    if isinstance(effect.get(key), list):
                        effect[key] = keep(effect[key])
                if isinstance(effect.get("options"), list):
                    effect["options"] = [keep(option) for option in effect["options"]]
            kept.append(effect)
        return kept

    return keep(skill)


@st.composite
def turn_order_setup(draw: st.DrawFn, most_players: int) -> dict[str, Any]:
    """A rules.yaml ``setup`` with starting VP by turn position (docs/rules.md, "Turn-order
    VP"): one value per seat of the largest table, sometimes more (up to the schema's 8);
    small values, to make ties, or any up to the schema's 1,000."""
    length = draw(st.integers(most_players, 8))
    values = st.integers(0, 3) | st.integers(0, 1000)
    return {"turn_order_vp": draw(st.lists(values, min_size=length, max_size=length))}


#: Ideas R9 written in the language: a free cube only while the crew holds none.
R9_FREE_CUBES = {"difference": [1, {"free_cubes": "this_crew"}]}


#: Ideas R7 written in the language: each seat of the fewest VP (ties: all of them) gains 1 VP.
R7_EFFECT = {"effect": "for_each", "seat": {"fewest_vp": "everyone"}, "do": [{"effect": "gain_vp", "vp": 1, "to": "this_seat"}]}


@st.composite
def round_end_data(draw: st.DrawFn, colours: Sequence[str], language: bool = False) -> dict[str, Any]:
    """rules.yaml's R11 (docs/rules.md): the older ``max_free_cubes_per_crew``, or ``round_end``
    whose crews nobody picked receive a number, R9's amount or (with ``language``) any amount
    with this_crew bound and nobody as "you", with a cap or none (with a cap, ``at_cap`` left
    out, ``stays`` or ``replaced``); and its ``effects`` (idea R7)
    left out, none, R7's, or (with ``language``) 1..2 effects that ask no decision, nothing
    bound and nobody as "you"."""
    form = draw(st.sampled_from(("older", "section", "section")))
    if form == "older":
        return {"max_free_cubes_per_crew": draw(st.integers(0, 4))}
    amounts = st.integers(-1, 3) | st.just(R9_FREE_CUBES)
    if language:
        amounts = amounts | amount_expr(colours, frozenset({"crews", NOBODY}), reads_vp=True)
    cap = draw(st.none() | st.integers(0, 4))
    section: dict[str, Any] = {"unpicked_crews": {"free_cubes": draw(amounts), "cap": cap}}
    if cap is not None:  # R11's at_cap: left out (stays), stays, or a crew at the cap is replaced
        at_cap = draw(st.sampled_from(("left out", "stays", "replaced", "replaced")))
        if at_cap != "left out":
            section["unpicked_crews"]["at_cap"] = at_cap
    written = st.sampled_from(("left out", "none", "r7"))
    form = draw(written | st.just("language")) if language else draw(written)
    if form == "none":
        section["effects"] = []
    elif form == "r7":
        section["effects"] = [R7_EFFECT]
    elif form == "language":
        body = effects(colours, trigger_timings("round_end"), 1, "after_survey", frozenset({NOBODY}), body=True)
        section["effects"] = _without_when(draw(st.lists(body, min_size=1, max_size=2)))
    return {"round_end": section}


#: Setup steps (rules.yaml ``setup.each_player``) the generated rulesets draw from: ideas R6
#: (a cube on a Planet of one's choice), VP, free cubes onto a crew of one's choice, free
#: cubes taken as one's own (take_free_cubes, idea R8).
SETUP_STEPS = (
    {"effect": "choose", "planet": "with_room", "do": [{"effect": "place_cube"}]},
    {"effect": "gain_vp", "vp": 1},
    {"effect": "add_free_cubes", "count": 2},
    {"effect": "take_free_cubes", "count": 2},
    {"effect": "choose", "crew": "all", "do": [{"effect": "gain_vp", "vp": {"free_cubes": "this_crew"}}]},
)


@st.composite
def setup_steps(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A rules.yaml ``setup.each_player``: none, or up to three steps of ``SETUP_STEPS``."""
    # Fresh copies: a step drawn twice is two objects, which YAML writes without an alias.
    return json.loads(json.dumps(draw(st.lists(st.sampled_from(SETUP_STEPS), max_size=3))))


#: Ideas R10 (docs/rules.md): the game ends when the free-cube stock is empty at a round's end.
STOCK_EMPTY = {"equal": ["stock", 0]}


@st.composite
def end_data(draw: st.DrawFn, colours: Sequence[str], language: bool = False) -> dict[str, Any]:
    """rules.yaml's R10 (docs/rules.md): left out or written as draft 7's two, or draft 7's two
    with R10's stock and conditions of the language (nothing bound, nobody as "you"; any
    condition with ``language``, else comparisons of the table's counts) among them, in a
    drawn order. Draft 7's two stay, so a condition added only ends games sooner and
    ``round_bound`` holds."""
    form = draw(st.sampled_from(("left out", "draft 7", "more", "more")))
    if form == "left out":
        return {}
    items = list(DRAFT7_END_DATA.items())
    if form == "more":
        counts = st.sampled_from(("stock", "round", "players", "full_planets_to_end", {"planets": "full"}, {"crews": "unpicked"}))
        comparisons = st.sampled_from(("at_least", "at_most", "equal", "not_equal"))
        conditions = st.just(STOCK_EMPTY) | st.tuples(comparisons, counts, st.integers(0, 12) | counts).map(lambda t: {t[0]: [t[1], t[2]]})
        if language:
            conditions = conditions | condition_expr(colours, frozenset({NOBODY}), depth=1)
        drawn = draw(st.lists(conditions, max_size=3))
        items += [(f"e{index}", condition) for index, condition in enumerate(drawn)]
        items = draw(st.permutations(items))
    # A fresh copy: a condition drawn twice (STOCK_EMPTY, a count on both sides) must not be one
    # object, which YAML would write once with an alias (and an edit of one would edit both).
    return {"end": json.loads(json.dumps(dict(items)))}


#: Lines of their own on the score sheet (rules.yaml ``end_scoring``; docs/rules.md, "End-of-game
#: scoring lines") the generated rulesets draw from: 1 VP per cube on a special square, 3 VP for
#: at least one there, -1 VP per cube in hand (a penalty), 1 VP per full Planet it ranks first on,
#: 3 VP for the most cubes there (ties all score, none with no cube: ``MOST_SPECIAL``).
_SPECIAL = {"cubes": {"owner": "this_seat", "squares": "special"}}
#: "The most cubes on special squares: 3 VP" (docs/rules.md, "End-of-game scoring lines"): 3
#: times the least of 1, the seat's cubes there (none: 0) and 0 or more of its cubes less the
#: most any seat has, plus 1 (1 when it has the most, 0 or less when not).
MOST_SPECIAL = {
    "product": [3, {"min": [1, _SPECIAL, {"max": [0, {"difference": [_SPECIAL, {"most_of": {"seats": "everyone", "amount": _SPECIAL}}, -1]}]}]}]
}
SCORING_LINES = (
    {"cubes": {"owner": "this_seat", "squares": "special"}},
    {"product": [3, {"min": [1, {"cubes": {"owner": "this_seat", "squares": "special"}}]}]},
    {"difference": [0, {"hand": "this_seat"}]},
    {"planets": {"where": {"all": ["full", {"ranks_first": "this_seat"}]}, "from": "full"}},
    MOST_SPECIAL,
)


@st.composite
def end_scoring_data(draw: st.DrawFn, colours: Sequence[str], language: bool = False) -> dict[str, Any]:
    """rules.yaml's ``end_scoring`` (docs/rules.md, "End-of-game scoring lines"): left out,
    written empty, or 1..3 lines of ``SCORING_LINES`` (with ``language``, any amount with
    this_seat bound and nobody as "you" that reads no VP, so that the kernel's bounds close)."""
    form = draw(st.sampled_from(("left out", "empty", "lines", "lines")))
    if form == "left out":
        return {}
    amounts = st.sampled_from(SCORING_LINES)
    if language:
        amounts = amounts | amount_expr(colours, frozenset({"seats", NOBODY}))
    drawn = draw(st.lists(amounts, max_size=3 if form == "lines" else 0, min_size=1 if form == "lines" else 0))
    lines = {f"l{index}": {"name": name(f"line {index}"), "vp": vp} for index, vp in enumerate(drawn)}
    return {"end_scoring": json.loads(json.dumps(lines))}


@st.composite
def majority_section(draw: st.DrawFn) -> dict[str, Any]:
    """A rules.yaml ``majority`` section (docs/rules.md, "The majority as data"): each key left
    out or drawn, often away from R15/R16 so that an engine ignoring a key plays another game."""
    choices: dict[str, st.SearchStrategy[Any]] = {
        "ties": st.sampled_from(TIE_RULES),
        "row_step": st.integers(1, 3),
        "rank_percent": st.lists(st.sampled_from((0, 33, 50, 100)) | st.integers(0, 100), min_size=1, max_size=4),
        "accident_vp": st.integers(-3, 0) | st.integers(-100, 0),
        "free_cubes_take_a_row": st.booleans(),
    }
    return {key: draw(value) for key, value in choices.items() if draw(st.booleans())}


@st.composite
def bonus_section(draw: st.DrawFn, colours: int) -> dict[str, Any]:
    """A rules.yaml ``bonus`` section (docs/rules.md, "The major-planet bonus as data") for a
    ruleset of ``colours`` colours: each key left out or drawn, the formula R17's or another."""
    formulas = st.sampled_from((LARGEST_GROUPS,)) | st.fixed_dictionaries(
        {DISTINCT_COLOUR_SETS: st.fixed_dictionaries({"size": st.integers(1, colours), "vp": st.integers(0, 5) | st.integers(0, 100)})}
    ) | st.fixed_dictionaries({VP_BY_COUNT: st.lists(st.integers(0, 10) | st.integers(0, 100), min_size=1, max_size=6)})
    choices: dict[str, st.SearchStrategy[Any]] = {"squares": st.sampled_from(SQUARES), "formula": formulas}
    return {key: draw(value) for key, value in choices.items() if draw(st.booleans())}


@st.composite
def ruleset_documents(draw: st.DrawFn, language: bool = False) -> dict[str, dict[str, Any]]:
    """The three documents of a valid ruleset folder, keyed by file name (see module docstring);
    with ``language``, every crew's skill a program of the rules language (``language_rulesets``)."""
    # Hypothesis favours small numbers, which end most games in the first round; half of the
    # rulesets are drawn "long" (more cubes, longer tracks, more Planets) to play whole games.
    long = draw(st.booleans())
    colours = [f"k{index}" for index in range(draw(st.integers(1, 6)))]
    player_counts = sorted(draw(st.sets(st.integers(1, 5), min_size=1, max_size=3)))
    always_count = draw(st.integers(0, 2))
    entries = []
    for players in player_counts:
        planets = draw(st.integers(max(3, players), 9) if long else st.integers(1, 9))
        entry: dict[str, Any] = {
            "players": players,
            "planets": planets,
            "crew": draw(st.integers(max(0, players - always_count), max(0, players - always_count) + 2)),
        }
        if players > planets or draw(st.booleans()):
            least = (planets + 1) // 2 if long else 1
            entry["full_planets_to_end"] = draw(st.integers(least, planets))
        entries.append(entry)
    planet_cards = max(entry["planets"] for entry in entries) + draw(st.integers(0, 3))
    dealable = max(entry["crew"] for entry in entries) + draw(st.integers(0, 2))
    crew_ids = [f"c{index}" for index in range(always_count + dealable)]
    crew = [draw(crew_card(index, colours, always=True, language=language, crew_ids=crew_ids)) for index in range(always_count)]
    crew += [
        draw(crew_card(always_count + index, colours, always=False, language=language, crew_ids=crew_ids)) for index in range(dealable)
    ]
    crew = draw(st.permutations(crew))
    rules: dict[str, Any] = {
        "name": "generated",
        "title": name("generated"),
        "colours": [{"id": colour, "name": name(colour)} for colour in colours],
        "player_counts": entries,
        "cubes_per_player": draw(st.integers(8, 15) if long else st.integers(1, 15)),
        "free_cubes": draw(st.integers(0, 15)),
        **draw(round_end_data(colours, language)),
        "motivation": {"free_cube_vp": draw(st.integers(0, 3)), "player_cube_vp": draw(st.integers(0, 3))},
    }
    minimum = draw(st.none() | st.integers(0, 2))
    if minimum is not None:
        rules["survey"] = {"minimum": minimum}
    max_rounds = draw(st.none() | (st.integers(12, 40) if long else st.integers(1, 40)))
    if max_rounds is not None:
        rules["max_rounds"] = max_rounds
    # Left out, written empty, or given values: half of the rulesets start seats with VP.
    section = draw(st.sampled_from(("values", "left out", "values", "empty")))
    if section != "left out":
        rules["setup"] = draw(turn_order_setup(max(player_counts))) if section == "values" else {}
    if draw(st.booleans()):  # sometimes steps before the first round (setup.each_player)
        rules.setdefault("setup", {})["each_player"] = draw(setup_steps())
    # Left out (R15/R16), or a section drawing each key: most rulesets play another majority.
    if draw(st.integers(0, 3)):
        rules["majority"] = draw(majority_section())
    # Left out (R17), or a section drawing its squares and formula.
    if draw(st.integers(0, 3)):
        rules["bonus"] = draw(bonus_section(len(colours)))
    rules.update(draw(end_data(colours, language)))
    rules.update(draw(end_scoring_data(colours, language)))
    documents = {
        "rules.yaml": rules,
        "planets.yaml": {"planets": draw(planets_data(planet_cards, colours, long, language))},
        "crew.yaml": {"crew": crew},
    }
    # A valid ruleset asks no more work of a program than the limits (docs/skills.md, "How much
    # work a program may ask"): a rare draw past them is drawn again, never handed to a test.
    assume(within_work_limits(documents))
    return documents


def within_work_limits(documents: Mapping[str, Any]) -> bool:
    """Whether the loader takes ``documents`` as far as the work of their programs goes (any
    other refusal is a fault of the strategies, raised)."""
    try:
        generated_game(documents)
    except RulesetError as error:
        if WORK_REFUSAL in str(error):
            return False
        raise
    return True
