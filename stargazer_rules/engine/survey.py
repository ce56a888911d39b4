"""Step 2 of a turn, the survey (R7, R8): its count, its options (one whole walk, or cube by
cube under changed walk rules), its placements and its end; and the walks on the ring of
Planets, pure functions of the rooms left. ``Game`` inherits ``SurveyRules`` and keeps the
tables these read (``_survey_counts``, ``lengths_by_ring``, ``walks_by_starts``, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import sub

from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.effects import (
    COUNTER,
    DIRECTION,
    NO_SKIP_LIMIT,
    REPEAT,
    SKIP,
    START,
    STEP_RULES,
    SurveyStart,
)
from stargazer_rules.vocabulary.expressions import PLANETS, Scope
from stargazer_rules.vocabulary.table import AFTER_SURVEY_STAGE, Table, _bump


class SurveyRules:
    """The survey's part of ``Game``: mixed into it, reading the tables it builds."""

    def _survey_count(self, table: Table) -> int:
        """The chosen crew's survey count after this turn's skill changes (R7)."""
        return max(0, self._survey_counts[table.crew[table.chosen[-1]]] + table.survey_bonus)

    def _rooms(self, table: Table) -> tuple[int, ...]:
        lengths = self.lengths_by_ring.get(table.planets)
        if lengths is None:
            if len(self.lengths_by_ring) > 4096:  # one entry per deal: keep it bounded
                self.lengths_by_ring.clear()
            lengths = self.lengths_by_ring[table.planets] = tuple(self.planet_lengths[card] for card in table.planets)
        return tuple(map(sub, lengths, map(len, table.tracks)))

    def _survey_options(self, table: Table) -> tuple[Action, ...]:
        options = self._walks(table)
        if self._any_no_start:  # P5: a survey may not start on such a Planet
            options = tuple(act for act in options if act.kind != A.SURVEY or act.target < 0 or not self._no_start[table.planets[act.target]])
        return options

    def _walks(self, table: Table) -> tuple[Action, ...]:
        seat = (table.start_player + table.turn) % table.players
        if table.survey_rules & STEP_RULES:
            return self._step_options(table, seat)
        limit = min(self._survey_count(table), table.hands[seat])
        rooms = self._rooms(table)
        if table.survey_rules & DIRECTION:
            return _walk_options(rooms, limit, True, self.ruleset.survey_minimum)
        # Without the direction rule the options depend mostly on which Planets have room.
        starts = tuple(compress(range(len(rooms)), rooms))
        if len(starts) >= limit:
            key = (starts, limit)
            options = self.walks_by_starts.get(key)
            if options is None:
                options = self.walks_by_starts[key] = _walk_options(rooms, limit, False, self.ruleset.survey_minimum)
            return options
        return _walk_options(rooms, limit, False, self.ruleset.survey_minimum)

    def _survey_start(self, table: Table) -> SurveyStart | None:
        """The chosen crew's ``survey_start`` when it is in force this turn: that of the skill
        it applies this round (``use_skill``, S10) when that skill has one, else its own."""
        if not table.survey_rules & START:
            return None
        slot = table.chosen[-1]
        borrowed = table.borrowed[slot]
        if borrowed != -1 and self._survey_starts[borrowed] is not None:
            return self._survey_starts[borrowed]
        return self._survey_starts[table.crew[slot]]

    def _step_options(self, table: Table, seat: int) -> tuple[Action, ...]:
        """Cube-by-cube survey under changed walk rules; () when the survey is over."""
        placed = table.survey_placed
        rooms = self._rooms(table)
        steps: list[int] = []
        if placed < self._survey_count(table) and table.hands[seat] > 0:
            start = self._survey_start(table)
            last = table.survey_last
            if last < 0:
                # The start: a Planet with room, of the survey_start's set where one is in force.
                steps = [p for p, room in enumerate(rooms) if room > 0] if start is None else start.starts(Scope(table, seat, table.chosen[-1]))
                if self._any_no_start:  # P5: not the first cube there
                    steps = [p for p in steps if not self._no_start[table.planets[p]]]
            elif start is not None and placed < start.cubes and rooms[last] > 0:
                steps = [last]  # the start Planet's cubes, one after the other
            else:
                steps = _next_planets(rooms, last, table.survey_rules, table.survey_direction, table.survey_skips)
        if not steps:
            return (action(A.SURVEY_STOP),) if placed == 0 else ()
        options = [action(A.SURVEY_STEP, p) for p in steps]
        if placed >= self.ruleset.survey_minimum:
            options.append(action(A.SURVEY_STOP))
        return tuple(options)

    def _survey(self, table: Table, act: Action) -> None:
        seat = (table.start_player + table.turn) % table.players
        if act.kind == A.SURVEY:
            if act.count:
                self._place_walk(table, seat, _walk(self._rooms(table), act.target, act.count, act.direction))
            self._finish_survey(table)
        elif act.kind == A.SURVEY_STEP:
            last = table.survey_last
            if last < 0:
                start = self._survey_start(table)
                if start is not None:  # before the walk, on the start Planet
                    start.begin(Scope(table, seat, table.chosen[-1]).bind(PLANETS, act.target))
            elif act.target != last:
                self._commit_step(table, last, act.target)
            self._place_survey_cube(table, seat, act.target)
            table.survey_last = act.target
        else:  # SURVEY_STOP
            self._finish_survey(table)

    def _commit_step(self, table: Table, last: int, target: int) -> None:
        """The direction a step from ``last`` to ``target`` walks, and the skips it uses."""
        rooms = self._rooms(table)
        rules = table.survey_rules
        if rules & SKIP and table.survey_skips == NO_SKIP_LIMIT:
            if not table.survey_direction:  # any Planet with room: the first step names a direction
                table.survey_direction = _direction_of(len(rooms), last, target, rooms)
            return
        # The way that passes fewer Planets with room, clockwise on a tie.
        passed, way = min((_passed(rooms, last, target, way), -way) for way in _ways(rules, table.survey_direction))
        table.survey_direction = -way
        if rules & SKIP:
            table.survey_skips -= passed

    def _place_walk(self, table: Table, seat: int, placements: list[int]) -> None:
        """Put a whole walk's cubes on their Planets at once (one new tuple per field); with
        planet abilities, one cube after the other as a cube-by-cube survey lands them."""
        if self._any_lands:
            table.surveyed = frozenset()
            for p in placements:
                # An ability may have filled the Planet or emptied the hand since the walk was
                # chosen: that cube stays in hand (docs/skills.md, "Planet abilities").
                if table.room(p) > 0 and table.hands[seat] > 0:
                    self._place_survey_cube(table, seat, p)
            return
        tracks = list(table.tracks)
        for p in placements:
            tracks[p] += (seat,)
            if table.events is not None:
                table.log("cube_placed", owner=seat, planet=table.planet_id(p), square=len(tracks[p]))
        table.tracks = tuple(tracks)
        table.hands = _bump(table.hands, seat, -len(placements))
        table.surveyed = frozenset(placements)
        table.survey_placed = len(placements)

    def _place_survey_cube(self, table: Table, seat: int, p: int) -> None:
        """One survey cube: out of the hand and counted in the survey, then onto the track,
        where it may set off the Planet's abilities."""
        table.hands = _bump(table.hands, seat, -1)
        table.surveyed = table.surveyed | {p}
        table.survey_placed += 1
        table.place_on_track(p, seat)

    def _finish_survey(self, table: Table) -> None:
        seat = (table.start_player + table.turn) % table.players
        if table.events is not None:
            table.log("survey_done", player=seat, cubes=table.survey_placed)
        slot = table.chosen[-1]
        table.pending = self.pending_of(table.crew[slot], AFTER_SURVEY_STAGE, slot, seat)
        if table.borrowed[slot] >= 0:  # the after-survey effects of a skill applied with use_skill
            table.pending += self.pending_of(table.borrowed[slot], AFTER_SURVEY_STAGE, slot, seat, borrowed=True)
        table.stage = AFTER_SURVEY_STAGE


def _walk(rooms: Sequence[int], start: int, count: int, direction: int) -> list[int]:
    """The Planets the R8 walk puts cubes on: from ``start``, skipping full ones, never twice in a row."""
    room = list(rooms)
    n = len(room)
    placed: list[int] = []
    p = start
    if room[p] <= 0:
        return placed
    while True:
        placed.append(p)
        room[p] -= 1
        if len(placed) == count:
            return placed
        for k in range(1, n):
            q = (p + k * direction) % n
            if room[q] > 0:
                p = q
                break
        else:
            return placed  # only the Planet just surveyed has room: R8 stops the walk


def _walk_options(rooms: tuple[int, ...], limit: int, both_ways: bool, minimum: int) -> tuple[Action, ...]:
    """The legal survey choices of R7: each start and each count the walk can place, no duplicates."""
    starts = [p for p, room in enumerate(rooms) if room > 0]
    if limit <= 0 or not starts:
        return (action(A.SURVEY, -1, 0),)
    if not both_ways and len(starts) >= limit:
        # Enough Planets with room: every walk places ``limit`` cubes on distinct Planets.
        least = max(1, min(minimum, limit))
        options = [action(A.SURVEY, -1, 0)] if minimum == 0 else []
        options += [action(A.SURVEY, p, count) for p in starts for count in range(least, limit + 1)]
        return tuple(options)
    directions = (A.CLOCKWISE, A.COUNTER_CLOCKWISE) if both_ways else (A.CLOCKWISE,)
    walks = {(p, d): _walk(rooms, p, limit, d) for p in starts for d in directions}
    most = max(len(walk) for walk in walks.values())
    least = max(1, min(minimum, most))
    options = [action(A.SURVEY, -1, 0)] if min(minimum, most) == 0 else []
    for p in starts:
        seen = set()
        for d in directions:
            walk = walks[p, d]
            for count in range(least, len(walk) + 1):
                outcome = tuple(sorted(walk[:count]))
                if outcome not in seen:
                    seen.add(outcome)
                    options.append(action(A.SURVEY, p, count, d))
    return tuple(options)


def _ways(rules: int, direction: int) -> tuple[int, ...]:
    """The directions a cube-by-cube survey may walk on in: the one it took, else either way
    (``choose_direction``), counter-clockwise (forced), or clockwise (R8)."""
    if direction:
        return (direction,)
    if rules & DIRECTION:
        return (A.CLOCKWISE, A.COUNTER_CLOCKWISE)
    return (A.COUNTER_CLOCKWISE,) if rules & COUNTER else (A.CLOCKWISE,)


def _next_planets(rooms: Sequence[int], last: int, rules: int, direction: int, skips: int) -> list[int]:
    """Where the next cube of a cube-by-cube survey may go after ``last`` (walk rules changed)."""
    n = len(rooms)
    if rules & SKIP and skips == NO_SKIP_LIMIT:
        return [p for p in range(n) if rooms[p] > 0 and (p != last or rules & REPEAT)]
    # Stay on the Planet just surveyed (with repeat), or walk on to the next Planet with room,
    # passing over at most ``skips`` more with room (a limited skip).
    options = {last} if rules & REPEAT and rooms[last] > 0 else set()
    reach = 1 + skips if rules & SKIP else 1
    for step in _ways(rules, direction):
        found = 0
        for k in range(1, n):
            q = (last + k * step) % n
            if rooms[q] > 0:
                options.add(q)
                found += 1
                if found == reach:
                    break
    return sorted(options)


def _passed(rooms: Sequence[int], last: int, target: int, way: int) -> int:
    """The Planets with room a step from ``last`` to ``target`` passes over, walking ``way``."""
    n = len(rooms)
    passed = 0
    for k in range(1, n):
        q = (last + k * way) % n
        if q == target:
            break
        passed += rooms[q] > 0
    return passed


def _direction_of(n: int, last: int, target: int, rooms: Sequence[int]) -> int:
    """The walk direction a step from ``last`` to ``target`` commits the survey to."""
    for k in range(1, n):
        q = (last + k) % n
        if rooms[q] > 0:
            return A.CLOCKWISE if q == target else A.COUNTER_CLOCKWISE
    return A.CLOCKWISE
