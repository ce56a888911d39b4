"""The enumerations both engines name the same way: the stages of play and the kinds of action,
each in the kernel's order (an action kind's order is the kernel's sort order of actions)."""

from __future__ import annotations

import attrs


@attrs.frozen
class Member:
    """One member: its name in Python and the JSON forms, its Rust variant and what it means."""

    name: str
    variant: str
    doc: str


@attrs.frozen
class Enumeration:
    """An enumeration: its Rust type's name and its members, in order."""

    rust: str
    doc: str
    members: tuple[Member, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(member.name for member in self.members)


STAGES = Enumeration(
    "Stage",
    "Stages of play; a state waits for a decision in every stage but `Over`.",
    (
        Member("pick_crew", "PickCrew", "Step 1: the player to move chooses a crew."),
        Member("before_survey", "BeforeSurvey", "The chosen crew's effects before the survey."),
        Member("survey", "Surveying", "Step 2: the survey (R7, R8)."),
        Member("after_survey", "AfterSurvey", "The chosen crew's effects after the survey."),
        Member("round_end", "RoundEnd", "Decisions of the round's end (Captain Armstrong's naming, R12)."),
        Member("over", "Over", "The game is over (R10)."),
        Member("setup", "Setup", "Before the first round, while the setup steps resolve (rules.yaml `setup.each_player`)."),
    ),
)

ACTION_KINDS = Enumeration(
    "Kind",
    "Which decision an action answers (`stargazer_rules.vocabulary.actions`).",
    (
        Member("pick_crew", "PickCrew", "Choose a crew (target: crew slot)."),
        Member("survey", "Survey", "The whole walk of R7/R8 in one decision."),
        Member("survey_step", "SurveyStep", "Put the next cube of a cube-by-cube survey on Planet target."),
        Member("survey_stop", "SurveyStop", "End a cube-by-cube survey."),
        Member("target_planet", "TargetPlanet", "A skill asks for a Planet (target: ring position)."),
        Member("target_crew", "TargetCrew", "A skill asks for another crew (target: crew slot)."),
        Member("choose_option", "ChooseOption", "A choose-one skill (target: option index)."),
        Member("name_start_player", "NameStartPlayer", "Captain Armstrong's chooser names the next start player (R12)."),
        Member("target_seat", "TargetSeat", "A skill asks for a seat (target: seat)."),
    ),
)

ENUMERATIONS = (STAGES, ACTION_KINDS)
