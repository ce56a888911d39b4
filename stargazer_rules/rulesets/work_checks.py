"""The loader's gate on a program's work: each program of a built ruleset counted
(``vocabulary.work``) and refused, at its line, past ``MOST_EFFECTS`` or ``MOST_EVALUATIONS``.

A ruleset that passes every other check may still ask millions of effects of one decision (a
nest of ``for_each`` multiplies); such a ruleset is refused here, so that no command can be made
to hang by a valid ruleset (docs/skills.md, "How much work a program may ask").
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from stargazer_rules.errors import Problem
from stargazer_rules.rulesets.checks import (
    EACH_PLAYER_PATH,
    END_KEY,
    END_SCORING_KEY,
    FREE_CUBES_PATH,
    ROUND_END_EFFECTS_PATH,
    RulesetDocuments,
)
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.yamlsource import DocPath, YamlDocument
from stargazer_rules.vocabulary.abilities import CREW_TRIGGERS_KEY, Trigger
from stargazer_rules.vocabulary.work import MOST_EFFECTS, MOST_EVALUATIONS, Tally, effects_work, expression_work, table_limits


@attrs.frozen
class ProgramWork:
    """One program of a ruleset and its work: ``document`` is ``rules``, ``planets`` or
    ``crew`` (the file it is written in), ``path`` where, ``noun`` how a refusal names it;
    ``effects`` is None for a program of expressions alone (an end condition, a scoring line)."""

    document: str
    path: DocPath
    noun: str
    effects: Tally | None
    evaluations: Tally


def program_works(ruleset: Ruleset) -> Iterator[ProgramWork]:
    """Every program of ``ruleset`` with its work, every set at the largest table's size."""
    always = sum(1 for card in ruleset.crew if card.always_in_play)
    limits = table_limits(
        max(ruleset.player_counts),
        max(setup.planets for setup in ruleset.setups.values()),
        max(setup.crew for setup in ruleset.setups.values()) + always,
    )

    def effects(document: str, path: DocPath, noun: str, program) -> ProgramWork:
        work = effects_work(program, limits)
        return ProgramWork(document, path, noun, work.effects, work.evaluations)

    for index, card in enumerate(ruleset.crew):
        yield effects("crew", ("crew", index, "skill"), "this skill", card.skill)
        for number, trigger in enumerate(card.triggers):
            yield effects("crew", ("crew", index, CREW_TRIGGERS_KEY, number, "do"), "this trigger", trigger.do)
    for index, planet in enumerate(ruleset.planets):
        for number, ability in enumerate(planet.abilities):
            if isinstance(ability, Trigger):
                yield effects("planets", ("planets", index, "abilities", number, "do"), "this ability", ability.do)
    yield effects("rules", ROUND_END_EFFECTS_PATH, "these round-end effects", ruleset.round_end_effects)
    yield effects("rules", EACH_PLAYER_PATH, "these setup steps", ruleset.setup_steps)
    # Read once for each crew nobody picked, each seat scored: the largest table's.
    free = expression_work(ruleset.unpicked_crews.free_cubes, limits).times("the unpicked crews", limits.crews)
    yield ProgramWork("rules", FREE_CUBES_PATH, "this amount", None, free)
    for trigger in ruleset.end:
        yield ProgramWork("rules", (END_KEY, trigger.id), "this end condition", None, expression_work(trigger.condition, limits))
    for line in ruleset.end_scoring:
        read = expression_work(line.vp, limits).times("the seats scored", limits.players)
        yield ProgramWork("rules", (END_SCORING_KEY, line.id, "vp"), "this scoring line", None, read)


def work_problems(documents: RulesetDocuments, ruleset: Ruleset) -> list[Problem]:
    """A problem at each program of ``ruleset`` past a limit of its work (its effects first)."""
    by_name: dict[str, YamlDocument] = {"rules": documents.rules, "planets": documents.planets, "crew": documents.crew}
    problems = []
    for program in program_works(ruleset):
        message = refusal(program)
        if message is not None:
            problems.append(by_name[program.document].problem(program.path, message))
    return problems


def refusal(program: ProgramWork) -> str | None:
    """What is wrong with ``program``'s work, in one sentence, or None when it is within the limits."""
    if program.effects is not None and program.effects.count > MOST_EFFECTS:
        tally, what, limit = program.effects, "perform {:,} effects", MOST_EFFECTS
    elif program.evaluations.count > MOST_EVALUATIONS:
        tally, what, limit = program.evaluations, "take {:,} evaluations of amounts, conditions and sets", MOST_EVALUATIONS
    else:
        return None
    why = tally.explained()
    return f"{program.noun} can {what.format(tally.count)} when it resolves; the limit is {limit:,}" + (f" ({why})" if why else "")
