"""The rules engine: a stateless API over immutable game states.

A game reads top to bottom:

1. a round is one turn per player, from the start player clockwise (R4);
2. a turn is: pick a crew (R5), take its motivation bonus (R6), resolve its ``on_choose`` and
   ``survey`` effects, survey (R7, R8), resolve its ``after_survey`` effects;
3. at the end of a round: the end check (R10); if the game goes on, free cubes onto the crews
   nobody chose (R11), the ``round_end`` effects such as Armstrong's (R12), and the next round.

``Game`` holds setup, the legal actions, a step and the pick (step 1); it inherits the survey
(step 2, ``engine.survey``) and the ends of turns and rounds (``engine.rounds``), each a module
of its own so that each part of a turn reads in one place.

``Game.apply`` copies the state into a mutable ``Table``, plays the action and every automatic
step after it until the next decision, and freezes the result into a new ``State``. The input
state is never changed, and an illegal action raises before anything is done.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from operator import sub
from typing import Any, TypeVar

import attrs

from stargazer_rules.engine import abilities
from stargazer_rules.engine.bounds import ActionLayout, ActionSizes, StateBounds, borrowable_cards, most_moves
from stargazer_rules.engine.observation_layout import ObservationLayout
from stargazer_rules.engine.rounds import RoundRules
from stargazer_rules.engine.scoring import ScoreSheet, TotalsTables, score_sheet
from stargazer_rules.engine.survey import SurveyRules, _walk
from stargazer_rules.errors import IllegalActionError, SetupError
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.abilities import CrewRules, PlanetRules
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.effects import (
    AFTER_SURVEY,
    NO_SKIP_LIMIT,
    ON_CHOOSE,
    ROUND_END,
    SURVEY,
    Effect,
    SurveyStart,
)
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import (
    AFTER_SURVEY_STAGE,
    BEFORE_SURVEY,
    NO_WORKER,
    OVER,
    PICK_CREW,
    ROUND_END_STAGE,
    SETUP_CARD,
    SETUP_STAGE,
    SURVEYING,
    Pending,
    State,
    Table,
    _bump,
    _set,
)


@attrs.frozen
class Setup:
    """An explicit deal: what a game record stores, so a replay needs no random-number generator.

    ``planets`` are planet ids in ring order (R4), ``crew`` the dealt crew ids in deal order
    (the always-in-play crew are added in front, R11), ``start_player`` a seat. ``queue``: the
    crew ids not dealt, in the order they replace a crew that leaves the crew area (R11,
    ``round_end.unpicked_crews.at_cap: replaced``); empty when the ruleset replaces no crew.
    """

    players: int
    planets: tuple[str, ...]
    crew: tuple[str, ...]
    start_player: int = 0
    queue: tuple[str, ...] = ()


T = TypeVar("T")


class Game(SurveyRules, RoundRules):
    """The rules of one ruleset, as a stateless API: every method takes a state and returns new values.

    A ``Game`` holds only the ruleset and tables derived from it, so one instance serves any
    number of games, threads or processes. It is the one home of those tables: its own, built
    once in ``__init__`` (public where ``Table`` and ``scoring`` read them), and those of the
    layers above, built on first use through ``derived``.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        planets = ruleset.planets
        # -- the ruleset's derived tables, built here once; ``Table`` and ``scoring`` read the
        # public ones. Per planet card (an index of ``ruleset.planets``):
        #: its id, normal squares (R1), special-square capacity (R3) and colour id;
        self.planet_ids = tuple(card.id for card in planets)
        self.planet_lengths = tuple(card.length for card in planets)
        self.special_capacities = tuple(card.special_capacity for card in planets)
        self.planet_colours = tuple(card.colour for card in planets)
        #: its abilities (triggers by event, lasting effects), whether a cube landing on it
        #: sets anything off, and whether a survey may not start on it (P5).
        self.planet_rules = tuple(PlanetRules.of(card.abilities) for card in planets)
        #: per crew card, its triggers by event (in force while a player holds it); a landing
        #: on any Planet may set off a crew's landing triggers.
        self.crew_rules = tuple(CrewRules.of(card.triggers) for card in ruleset.crew)
        crews_land = any(rules.lands for rules in self.crew_rules)
        self.planet_lands = tuple(rules.lands or crews_land for rules in self.planet_rules)
        self._no_start = tuple(rules.no_survey_start for rules in self.planet_rules)
        self._any_lands = any(self.planet_lands)
        self._any_no_start = any(self._no_start)
        self._round_end_abilities = any(rules.round_end for rules in self.planet_rules)
        self._crew_round_end = any(rules.round_end for rules in self.crew_rules)
        self._another_pick = any(rules.another_pick for rules in self.crew_rules)
        self._game_end_abilities = any(rules.game_end for rules in self.planet_rules)
        self._crew_game_end = any(rules.game_end for rules in self.crew_rules)
        #: per crew card, its id.
        self.crew_ids = tuple(card.id for card in ruleset.crew)
        #: What ``scoring.provisional_totals``, the bots' evaluation, reads of the ruleset.
        self.totals_tables = TotalsTables.of(ruleset)
        #: Memos of what play recomputes most, filled as games go: the pick options of each
        #: ``workers`` tuple (R5), the track lengths of each ring of dealt Planets, and the
        #: whole-walk survey options (R7) of each set of Planets with room and survey limit.
        #: Their keys take few values (``lengths_by_ring`` is kept under 4,096 deals).
        self.picks_by_workers: dict[tuple[int, ...], tuple[Action, ...]] = {}
        self.lengths_by_ring: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.walks_by_starts: dict[tuple[tuple[int, ...], int], tuple[Action, ...]] = {}
        self._survey_counts = tuple(card.survey_count for card in ruleset.crew)
        self._planet_index = {card_id: i for i, card_id in enumerate(self.planet_ids)}
        self._crew_index = {card_id: i for i, card_id in enumerate(self.crew_ids)}
        self._always = tuple(i for i, card in enumerate(ruleset.crew) if card.always_in_play)
        self._always_cards = frozenset(self._always)
        self._dealable = tuple(i for i, card in enumerate(ruleset.crew) if not card.always_in_play)
        #: Whether a crew nobody picked leaves the crew area at the cap (R11, ``at_cap: replaced``):
        #: then a deal also orders the crew cards not dealt (``Setup.queue``).
        self.replaces_crews = ruleset.unpicked_crews.replaced
        # Top-level effect paths of each crew card by the stage that queues them.
        self._on_pick = tuple(_paths(card.skill, (SURVEY, ON_CHOOSE)) for card in ruleset.crew)
        self._after = tuple(_paths(card.skill, (AFTER_SURVEY,)) for card in ruleset.crew)
        self._round_end = tuple(_paths(card.skill, (ROUND_END,)) for card in ruleset.crew)
        self._paths_by_stage = {BEFORE_SURVEY: self._on_pick, AFTER_SURVEY_STAGE: self._after, ROUND_END_STAGE: self._round_end}
        #: The crew cards whose skill ``use_skill`` may apply (``bounds.borrowable_cards``).
        self.borrowable = borrowable_cards(ruleset)
        self._effects: dict[tuple[int, tuple[int, ...]], Effect] = {}
        #: Each crew card's ``survey_start`` (at most one per skill, ``rulesets.checks``), read
        #: by the survey while its flag is set (R7, R8).
        self._survey_starts = tuple(
            next((e for _, e in _walk_effects(card.skill, ()) if isinstance(e, SurveyStart)), None) for card in ruleset.crew
        )
        # What the layers above derive from the ruleset (``derived``), by the function that builds it.
        self._derived: dict[Callable[[Game], Any], Any] = {}
        self._derived_lock = threading.RLock()  # a builder may ask for another
        for index, card in enumerate(ruleset.crew):
            for path, effect in _walk_effects(card.skill, ()):
                self._effects[index, path] = effect
        for path, effect in _walk_effects(ruleset.setup_steps, ()):  # held by no crew card
            self._effects[SETUP_CARD, path] = effect
        #: What a state of this ruleset may hold (``bounds.StateBounds``), derived once.
        self.bounds = StateBounds.of(
            ruleset,
            {index: [effect for _, effect in _walk_effects(card.skill, ())] for index, card in enumerate(ruleset.crew)},
            len(self._always),
        )
        #: The largest table of the ruleset: seats, Planets in the ring and crew slots (the
        #: dealt crew of the largest setup and the crews always in play).
        self.most_players = self.bounds.most_players
        self.most_planets = self.bounds.most_planets
        self.most_crew = self.bounds.most_crew
        self._most_legal = self._legal_bound()
        self._most_moves = most_moves(ruleset, self.bounds)
        #: The numbers of the action index's blocks (``bounds.ActionSizes``), derived once.
        self.action_sizes = ActionSizes.of(ruleset, self.bounds)
        #: The action index's blocks and strides (``bounds.ActionLayout``), derived once.
        self.action_layout = ActionLayout.of(self.action_sizes)
        #: The observation's fields (``observation_layout.ObservationLayout``), derived once.
        self.observation_layout = ObservationLayout.of(ruleset, self.bounds)

    def derived(self, build: Callable[[Game], T]) -> T:
        """What ``build`` makes of this game, built on its first use and kept as long as the game.

        The home of what the layers above the engine derive from a ruleset and the engine may
        not import: the compiled kernel (``kernel.native.kernel_for``) and the validator of the
        state schema narrowed to the ruleset (``formats.jsonio``). ``build`` is the key (one
        value per function); it runs once even when threads ask at the same time.
        """
        try:
            return self._derived[build]
        except KeyError:
            with self._derived_lock:
                if build not in self._derived:
                    self._derived[build] = build(self)
                return self._derived[build]

    @property
    def most_legal_actions(self) -> int | None:
        """The most legal actions any state of this ruleset can list; None when a plugin effect
        type cannot say how many options it offers.

        A front end's state listing more is refused before it is read (the server's request
        schemas carry this bound), however many items its body could hold.
        """
        return self._most_legal

    def _legal_bound(self) -> int | None:
        planets, crews = self.most_planets, self.most_crew
        # R7: a survey offers each start Planet, each count up to the hand (never more than
        # most_hand: cubes_per_player, R13, and free cubes taken, idea R8) in each direction,
        # plus placing nothing; a cube-by-cube survey (R8 lifted) offers each Planet and
        # stopping. R5: each free crew.
        bounds = [1 + 2 * planets * self.bounds.most_hand, planets + 1, crews]
        for effect in self._effects.values():
            most = effect.most_choices(players=self.most_players, planets=planets, crews=crews)
            if most is None:
                return None
            bounds.append(most)
        return max(bounds)

    @property
    def most_moves(self) -> int:
        """The most decisions a game of this ruleset can ask for before the round limit ends it:
        a record listing more cannot be one of its games, and is refused before it is replayed
        (``bounds.most_moves``)."""
        return self._most_moves

    def cube_landed(self, table: Table, p: int, square: int, owner: int) -> None:
        """A cube landed on Planet ``p``: its abilities' triggers, then the held crews'
        (``engine.abilities``)."""
        abilities.cube_landed(self.planet_rules[table.planets[p]], self.crew_rules, table, p, square, owner)

    # -- setting up -----------------------------------------------------------------------

    def deal(self, players: int, seed: int | None = None, start_player: int | None = None) -> Setup:
        """Deal a setup for ``players`` from ``seed`` (R14): planets, crew and start player;
        when crews can be replaced (R11), then the order of the crew cards not dealt, drawn
        after the rest so that the other draws stay what they were."""
        counts = self._setup_counts(players)
        rng = random.Random(seed)
        planet_order = rng.sample(range(len(self.planet_ids)), counts.planets)
        crew_order = rng.sample(self._dealable, counts.crew)
        start = rng.randrange(players) if start_player is None else start_player
        queue: list[int] = []
        if self.replaces_crews:
            dealt = set(crew_order)
            left = [i for i in self._dealable if i not in dealt]
            queue = rng.sample(left, len(left))
        return Setup(
            players,
            tuple(self.planet_ids[i] for i in planet_order),
            tuple(self.crew_ids[i] for i in crew_order),
            start,
            tuple(self.crew_ids[i] for i in queue),
        )

    def card_indices(self, setup: Setup) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A setup's cards as indices of the ruleset's cards: the Planets in ring order and the
        dealt crew in deal order (what a ``State`` and the kernel hold; card ids are unchecked)."""
        return (
            tuple(self._planet_index[planet_id] for planet_id in setup.planets),
            tuple(self._crew_index[crew_id] for crew_id in setup.crew),
        )

    def queue_indices(self, setup: Setup) -> tuple[int, ...]:
        """A setup's queue of crew cards not dealt (R11) as crew-card indices (ids unchecked)."""
        return tuple(self._crew_index[crew_id] for crew_id in setup.queue)

    def deck_indices(self, setup: Setup) -> tuple[int, ...]:
        """The crew a kernel setup lists (``Game::new_state``): the dealt crew, then the queue."""
        return tuple(self._crew_index[crew_id] for crew_id in (*setup.crew, *setup.queue))

    def new_state(
        self,
        players: int | None = None,
        seed: int | None = None,
        start_player: int | None = None,
        setup: Setup | None = None,
    ) -> State:
        """The state before the first decision: from an explicit ``setup``, or dealt from ``seed``."""
        if setup is None:
            if players is None:
                raise SetupError("new_state needs players (and a seed) or an explicit setup")
            setup = self.deal(players, seed, start_player)
        elif players is not None and players != setup.players:
            raise SetupError(f"players={players} but the setup is for {setup.players} players")
        self.check_setup(setup)
        n = setup.players
        planets, dealt = self.card_indices(setup)
        crew = self._always + dealt
        rules = self.ruleset
        state = State(
            players=n,
            planets=planets,
            crew=crew,
            tracks=((),) * len(planets),
            specials=((),) * len(planets),
            crew_free=(0,) * len(crew),
            crew_cubes=((),) * len(crew),
            workers=(NO_WORKER,) * len(crew),
            hands=(rules.cubes_per_player,) * n,
            vp=rules.starting_vp(n, setup.start_player),
            removed=(0,) * n,
            stock=rules.free_cubes,
            round=1,
            start_player=setup.start_player,
            turn=0,
            stage=PICK_CREW,
            chosen=(),
            pending=(),
            survey_rules=0,
            survey_bonus=0,
            survey_placed=0,
            survey_last=-1,
            survey_direction=0,
            survey_skips=NO_SKIP_LIMIT,
            surveyed=frozenset(),
            triggers=(),
            legal=(),
            closed=frozenset(),
            protected=(0,) * n,
            borrowed=(-1,) * len(crew),
            taken=(0,) * n,
            queue=self.queue_indices(setup),
        )
        table = Table(self, state, None)
        if rules.setup_steps:
            table.pending = self._setup_pending(n, setup.start_player)
            table.stage = SETUP_STAGE
        self._advance(table)
        return table.freeze()

    def _setup_pending(self, players: int, start_player: int) -> tuple[Pending, ...]:
        """The setup steps (rules.yaml ``setup.each_player``) of every seat, in turn order from
        the start player (R4), each seat as "you" and no crew of its own."""
        steps = self.ruleset.setup_steps
        return tuple(
            Pending(-1, (i,), effect.steps, (start_player + k) % players, SETUP_CARD)
            for k in range(players)
            for i, effect in enumerate(steps)
        )

    def check_setup(self, setup: Setup) -> None:
        """Raise ``SetupError`` unless ``setup`` fits this ruleset's counts and cards (R14)."""
        counts = self._setup_counts(setup.players)
        problems = []
        if len(setup.planets) != counts.planets:
            problems.append(f"{counts.planets} planets are dealt for {setup.players} players, not {len(setup.planets)}")
        if len(setup.crew) != counts.crew:
            problems.append(f"{counts.crew} crew are dealt for {setup.players} players, not {len(setup.crew)}")
        problems += _unknown_or_repeated("planet", setup.planets, self._planet_index)
        problems += _unknown_or_repeated("crew", setup.crew, self._crew_index)
        always = {self.crew_ids[i] for i in self._always}
        problems += [f"crew {crew_id!r} is always in play and is not dealt" for crew_id in setup.crew if crew_id in always]
        problems += self._queue_problems(setup)
        if not 0 <= setup.start_player < setup.players:
            problems.append(f"start player {setup.start_player} is not a seat of 0..{setup.players - 1}")
        if problems:
            raise SetupError("invalid setup: " + "; ".join(problems))

    def _queue_problems(self, setup: Setup) -> list[str]:
        """What is wrong with a setup's queue (R11): with ``at_cap: replaced``, every crew card
        that is not dealt and not always in play, each once; else none."""
        if not self.replaces_crews:
            return [f"this ruleset replaces no crew (R11): the setup's queue must be empty, not {list(setup.queue)}"] if setup.queue else []
        problems = _unknown_or_repeated("queued crew", setup.queue, self._crew_index)
        left = {self.crew_ids[i] for i in self._dealable} - set(setup.crew)
        if not problems and set(setup.queue) != left:
            problems.append(f"the queue must hold each crew not dealt once (R11): {sorted(left)}, not {sorted(setup.queue)}")
        return problems

    def _setup_counts(self, players: int):
        try:
            return self.ruleset.setups[players]
        except KeyError:
            supported = ", ".join(map(str, self.ruleset.player_counts))
            raise SetupError(f"{players} players are not supported by this ruleset (supported: {supported})") from None

    # -- asking ---------------------------------------------------------------------------

    def current_player(self, state: State) -> int | None:
        """The seat that decides next, or None when the game is over."""
        stage = state.stage
        if stage == OVER:
            return None
        if stage in (ROUND_END_STAGE, SETUP_STAGE):
            return state.pending[0].seat
        return (state.start_player + state.turn) % state.players

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """The options of the decision the state waits for; empty only when the game is over."""
        return state.legal

    def derive_legal(self, state: State) -> tuple[Action, ...] | None:
        """Recompute the legal actions from the rest of ``state``, ignoring ``state.legal``.

        For states read from outside (JSON from a front end): a consistent state gets the
        same tuple as ``state.legal``; a state that waits for no decision gets None.
        """
        stage = state.stage
        if stage == OVER:
            return ()
        table = Table(self, state, None)
        if stage == PICK_CREW:
            options = self._pick_options(table)
        elif stage == SURVEYING:
            options = self._survey_options(table)
        elif state.pending:
            head = state.pending[0]
            effect = self._effects.get((head.skill_card(state.crew), head.path))
            options = effect.choices(table, head.seat, head.slot) if effect is not None else None
        else:
            options = None
        return options or None

    def pending_of(self, card: int, stage: str, slot: int, seat: int, *, borrowed: bool = False) -> tuple[Pending, ...]:
        """The top-level effects of crew card ``card``'s skill that ``stage`` queues (its pick's
        ``on_choose`` and ``survey`` effects at ``BEFORE_SURVEY``), for crew ``slot`` and chooser
        ``seat``; ``borrowed``: the card's skill applied by the slot (``use_skill``)."""
        effects = self._effects
        mark = card if borrowed else -1
        return tuple(Pending(slot, path, effects[card, path].steps, seat, mark) for path in self._paths_by_stage[stage][card])

    def effect_at(self, card: int, path: tuple[int, ...]) -> Effect | None:
        """The effect at ``path`` of crew card ``card``'s skill, or None when there is none."""
        return self._effects.get((card, path))

    def is_over(self, state: State) -> bool:
        return state.stage == OVER

    def survey_placements(self, state: State, act: Action) -> tuple[tuple[int, int], ...]:
        """Where the survey ``act`` (a legal ``survey`` action of ``state``) puts its cubes, in
        order, as (ring position, square): the R8 walk without playing the action, for the
        text that describes the choice before it is made."""
        if act.kind != A.SURVEY or not act.count:
            return ()
        filled = [len(track) for track in state.tracks]
        rooms = [self.planet_lengths[card] - count for card, count in zip(state.planets, filled)]
        placements = []
        for p in _walk(rooms, act.target, act.count, act.direction):
            filled[p] += 1
            placements.append((p, filled[p]))
        return tuple(placements)

    def score(self, state: State) -> ScoreSheet:
        """The score sheet (R15-R18); mid-game it is a provisional sheet of the board as it stands."""
        return score_sheet(self, state)

    # -- acting ---------------------------------------------------------------------------

    def apply(self, state: State, act: Action) -> tuple[State, tuple[Event, ...]]:
        """Play ``act``; return the next state and the events of everything that happened."""
        events: list[Event] = []
        return self._play(state, act, events), tuple(events)

    def step(self, state: State, act: Action) -> State:
        """``apply`` without events: the fast path for bots and simulations."""
        return self._play(state, act, None)

    def _play(self, state: State, act: Action, events: list[Event] | None) -> State:
        if type(act) is not Action or act not in state.legal:
            raise IllegalActionError(self._why_illegal(state, act))
        table = Table(self, state, events)
        stage = table.stage
        if stage == PICK_CREW:
            self._pick_crew(table, act.target)
        elif stage == SURVEYING:
            self._survey(table, act)
        else:
            self._decide_effect(table, act)
        self._advance(table)
        return table.freeze()

    def _why_illegal(self, state: State, act: Any) -> str:
        if not isinstance(act, Action):
            return f"not an action: {act!r}"
        if state.stage == OVER:
            return "the game is over: no action is legal"
        kinds = sorted({legal.kind for legal in state.legal})
        if act.kind not in kinds:
            return f"the state waits for {' or '.join(kinds)}, not {act.kind} (stage {state.stage})"
        return f"{act!r} is not among the {len(state.legal)} legal options: {', '.join(map(repr, state.legal))}"

    # -- step 1: choose a crew (R5, R6) ---------------------------------------------------

    def _pick_options(self, table: Table) -> tuple[Action, ...]:
        workers = table.workers
        if table.closed:  # closed crews (close_crew) are not offered until the round ends
            return tuple(action(A.PICK_CREW, slot) for slot in table.open_crews())
        options = self.picks_by_workers.get(workers)
        if options is None:
            options = self.picks_by_workers[workers] = tuple(
                action(A.PICK_CREW, slot) for slot, worker in enumerate(workers) if worker == NO_WORKER
            )
        return options

    def _pick_crew(self, table: Table, slot: int) -> None:
        seat = (table.start_player + table.turn) % table.players
        table.workers = _set(table.workers, slot, seat)
        table.chosen = table.chosen + (slot,)
        card = table.crew[slot]
        if table.events is not None:
            table.log("crew_chosen", player=seat, crew=table.crew_id(slot))
        free = table.crew_free[slot]
        cubes = table.crew_cubes[slot]
        if free or cubes:
            rules = self.ruleset
            vp = free * rules.free_cube_vp + len(cubes) * rules.player_cube_vp
            table.stock += free
            table.crew_free = _set(table.crew_free, slot, 0)
            if cubes:
                removed = list(table.removed)
                for owner in cubes:
                    removed[owner] += 1
                table.removed = tuple(removed)
                table.crew_cubes = _set(table.crew_cubes, slot, ())
            table.vp = _bump(table.vp, seat, vp)
            table.log(
                "motivation_bonus", player=seat, crew=table.crew_id(slot), free_cubes=free, player_cubes=len(cubes), vp=vp
            )
        if self._another_pick:  # the other holders' triggers, before the picker's skill
            abilities.another_pick(self.crew_rules, table, seat, self.crew_ids[card])
        table.survey_rules = 0
        table.survey_bonus = 0
        table.survey_placed = 0
        table.survey_last = -1
        table.survey_direction = 0
        table.survey_skips = NO_SKIP_LIMIT
        table.surveyed = frozenset()
        table.pending = self.pending_of(card, BEFORE_SURVEY, slot, seat)
        table.stage = BEFORE_SURVEY

    # -- skill effects (R9) ---------------------------------------------------------------

    def _decide_effect(self, table: Table, act: Action) -> None:
        head = table.pending[0]
        effect = self._effects[head.skill_card(table.crew), head.path]
        follow_up = effect.apply(table, head.seat, head.slot, act)
        self._finish_step(table, head, follow_up)

    def _finish_step(self, table: Table, head: Pending, follow_up: tuple[tuple[int, ...], ...]) -> None:
        rest = table.pending[1:]
        if head.remaining > 1:
            rest = (head._replace(remaining=head.remaining - 1),) + rest
        if follow_up:
            card = head.skill_card(table.crew)
            rest = (
                tuple(
                    Pending(head.slot, head.path + sub, self._effects[card, head.path + sub].steps, head.seat, head.card)
                    for sub in follow_up
                )
                + rest
            )
        table.pending = rest

    def _resolve_pending(self, table: Table) -> bool:
        """Resolve effects until one needs a decision (True) or none is left (False)."""
        while table.pending:
            head = table.pending[0]
            effect = self._effects[head.skill_card(table.crew), head.path]
            options = effect.choices(table, head.seat, head.slot)
            if options is None:
                self._finish_step(table, head, effect.apply(table, head.seat, head.slot, None))
            elif options:
                table.legal = options
                return True
            else:
                table.log(
                    "effect_skipped",
                    player=head.seat,
                    crew=table.crew_id(head.slot),
                    effect=effect.name,
                    remaining=head.remaining,
                )
                table.pending = table.pending[1:]
        return False

    # -- the automatic part: from one decision to the next --------------------------------

    def _advance(self, table: Table) -> None:
        while True:
            stage = table.stage
            if stage in (BEFORE_SURVEY, AFTER_SURVEY_STAGE, ROUND_END_STAGE, SETUP_STAGE):
                if self._resolve_pending(table):
                    return
                if stage == BEFORE_SURVEY:
                    table.stage = SURVEYING
                elif stage == AFTER_SURVEY_STAGE:
                    self._end_turn(table)
                elif stage == SETUP_STAGE:  # the first round starts (R4)
                    table.stage = PICK_CREW
                else:
                    self._start_round(table)
            elif stage == SURVEYING:
                options = self._survey_options(table)
                if options:
                    table.legal = options
                    return
                self._finish_survey(table)  # a cube-by-cube survey that can place no more
            elif stage == PICK_CREW:
                table.legal = self._pick_options(table)
                return
            else:  # OVER
                table.legal = ()
                return


def _paths(skill: Sequence[Effect], timings: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple((i,) for i, effect in enumerate(skill) if effect.when in timings)


def _walk_effects(skill: Sequence[Effect], prefix: tuple[int, ...]):
    """Every effect of a skill with its path, options of ``choose_one`` included."""
    for i, effect in enumerate(skill):
        path = prefix + (i,)
        yield path, effect
        for j, option in enumerate(effect.branches):
            yield from _walk_effects(option, path + (j,))


def _unknown_or_repeated(kind: str, ids: Sequence[str], known: dict[str, int]) -> list[str]:
    problems = [f"unknown {kind} {card_id!r}" for card_id in ids if card_id not in known]
    repeated = sorted({card_id for card_id in ids if ids.count(card_id) > 1})
    problems += [f"{kind} {card_id!r} is dealt twice" for card_id in repeated]
    return problems
