//! Whole games played in the kernel: every seat's bot decides and the kernel's rules play the
//! move, from the setup to the end, and what a simulation's games.jsonl line keeps of the game
//! is collected on the way (`stargazer_rules.simulation.runner`, docs/simulation.md): the
//! moves with the card each one names, the options of each decision, the crew picks with their
//! motivation VP (R6), the provisional totals at each round's end and the searching bots' root
//! values. The line and the record are then written in Python from these, with no replay.

use crate::python_random::MersenneTwister;
use crate::bots::{Bot, RootValues};
use crate::game::Game;
use crate::state::{Action, Kind, Stage, State};
use crate::limits::MAX_PLAYERS;

/// The bot in one seat: one of the kernel's bots, or the Python engine's random bot draw for
/// draw (`bots.base.RandomBot`: `random.Random(seed).choice` of the legal actions).
#[derive(Clone, Debug)]
pub enum SeatBot {
    Kernel(Bot),
    PythonRandom(MersenneTwister),
}

impl SeatBot {
    /// The seat's choice among `state.legal` (not empty) and the root values of its search.
    /// A kernel bot takes a forced move without asking its search (as `KernelBackedBot` does);
    /// the Python random bot draws even then, as `random.choice` of one item does.
    fn choose(&mut self, game: &Game, state: &State) -> (Action, Option<RootValues>) {
        match self {
            SeatBot::Kernel(bot) => match bot.choose(game, state) {
                Some(act) => (act, bot.last_values),
                None => unreachable!("a state with legal actions always has a choice"),
            },
            SeatBot::PythonRandom(rng) => (state.legal[rng.below(0, state.legal.len() as u32) as usize], None),
        }
    }
}

/// One move of a game: the action, and the card it names when the record names one (the crew
/// card of `pick_crew` and `target_crew`, the planet card of `target_planet`, `survey_step` and
/// a survey that places cubes; -1 otherwise): the record's action JSON names cards by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub action: Action,
    pub card: i32,
}

/// A crew pick (R5): the round, its place in the round's picks (1 first), the seat, the crew
/// card and the motivation VP it took (R6: its free and player cubes; 0 without any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    pub round: u32,
    pub order: u32,
    pub seat: u8,
    pub crew: u16,
    pub motivation_vp: i32,
}

/// What a whole game leaves for its line: every move, the number of options of each decision,
/// the picks, each seat's provisional total when each round ended (after the move that ended
/// it), the root values of each round's last searched decision (one entry per round played;
/// `searched` says whether any decision was searched) and the final state.
#[derive(Clone, Debug)]
pub struct Playout {
    pub moves: Vec<Move>,
    pub options: Vec<u16>,
    pub picks: Vec<Pick>,
    pub score_by_round: Vec<[i32; MAX_PLAYERS]>,
    pub value_by_round: Vec<Option<RootValues>>,
    pub searched: bool,
    pub state: State,
}

/// The card a move names in `state`, the state it is played in (see `Move`).
fn named_card(state: &State, act: Action) -> i32 {
    let target = act.target as usize;
    match act.kind {
        Kind::PickCrew | Kind::TargetCrew => state.crew[target] as i32,
        Kind::TargetPlanet | Kind::SurveyStep => state.planets[target] as i32,
        Kind::Survey if act.count != 0 => state.planets[target] as i32,
        _ => -1,
    }
}

/// Whether the step from a state of `stage` and `round` to `after` ended a round (the Python engine's `round_ended`
/// event): a step outside the round-end stage that leads into it, ends the game, or starts a
/// round. A round-end decision (R12) only ever starts the next round.
fn ended_a_round(stage: Stage, round: u32, after: &State) -> bool {
    stage != Stage::RoundEnd
        && stage != Stage::Over
        && (after.stage == Stage::RoundEnd || after.stage == Stage::Over || after.round != round)
}

/// Play `state` to the end with `bots[seat]` deciding for each seat (`bots.len()` is the number
/// of players), collecting the `Playout`. `stop` is asked before every decision and ends the
/// game unfinished (None) when it says so: the caller's way to honour an interruption.
pub fn play(game: &Game, mut state: State, bots: &mut [SeatBot], mut stop: impl FnMut() -> bool) -> Option<Playout> {
    let rules = &game.rules;
    let mut moves = Vec::new();
    let mut options = Vec::new();
    let mut picks: Vec<Pick> = Vec::new();
    let mut score_by_round = Vec::new();
    let mut value_by_round: Vec<Option<RootValues>> = Vec::new();
    let mut searched = false;
    while !state.legal.is_empty() {
        if stop() {
            return None;
        }
        options.push(state.legal.len() as u16);
        let seat = match game.current_player(&state) {
            Some(seat) => seat,
            None => break,
        };
        let (act, values) = bots[seat].choose(game, &state);
        let round = state.round;
        if let Some(values) = values {
            searched = true;
            if value_by_round.len() < round as usize {
                value_by_round.resize(round as usize, None);
            }
            value_by_round[round as usize - 1] = Some(values);
        }
        moves.push(Move { action: act, card: named_card(&state, act) });
        if act.kind == Kind::PickCrew && state.stage == Stage::PickCrew {
            let slot = act.target as usize;
            let free = state.crew_free[slot];
            let cubes: i32 = state.crew_cubes[slot][..state.players as usize].iter().map(|&c| c as i32).sum();
            let order = match picks.last() {
                Some(last) if last.round == round => last.order + 1,
                _ => 1,
            };
            picks.push(Pick {
                round,
                order,
                seat: state.turn_seat() as u8,
                crew: state.crew[slot],
                motivation_vp: free * rules.knobs.free_cube_vp + cubes * rules.knobs.player_cube_vp,
            });
        }
        let stage = state.stage;
        game.step_unchecked(&mut state, act);
        if ended_a_round(stage, round, &state) {
            score_by_round.push(game.totals(&state));
        }
    }
    value_by_round.resize(state.round as usize, None);
    Some(Playout { moves, options, picks, score_by_round, value_by_round, searched, state })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{BotKind, GreedyParams};
    use crate::fixtures;
    use crate::rng::Rng;

    fn playout(bots: &mut [SeatBot], seed: u64) -> (Game, Playout) {
        let game = fixtures::draft_like();
        let players = bots.len();
        let (planets, crew, start) = game.deal(players, &mut Rng::new(seed)).unwrap();
        let state = game.new_state(players, &planets, &crew, start).unwrap();
        let played = play(&game, state, bots, || false).unwrap();
        (game, played)
    }

    #[test]
    fn a_playout_replays_to_its_final_state_and_counts_every_decision() {
        let mut bots: Vec<SeatBot> =
            (0..4).map(|seat| SeatBot::Kernel(Bot::new(BotKind::Greedy(GreedyParams::default()), seat))).collect();
        let (game, played) = playout(&mut bots, 3);
        assert!(played.state.is_over());
        assert_eq!(played.moves.len(), played.options.len());
        let (planets, crew, start) = game.deal(4, &mut Rng::new(3)).unwrap();
        let mut state = game.new_state(4, &planets, &crew, start).unwrap();
        for (m, &count) in played.moves.iter().zip(&played.options) {
            assert_eq!(state.legal.len(), count as usize);
            assert_eq!(named_card(&state, m.action), m.card);
            game.step(&mut state, m.action).unwrap();
        }
        assert_eq!(state, played.state);
        // R4: one pick per seat a round; one provisional total per round played.
        assert_eq!(played.picks.len(), 4 * played.state.round as usize);
        assert_eq!(played.score_by_round.len(), played.state.round as usize);
        assert_eq!(played.score_by_round.last().unwrap(), &game.totals(&played.state));
        assert!(!played.searched);
        assert_eq!(played.value_by_round, vec![None; played.state.round as usize]);
    }

    #[test]
    fn picks_are_numbered_within_their_round() {
        let mut bots: Vec<SeatBot> = (0..3).map(|seat| SeatBot::PythonRandom(MersenneTwister::new(seat))).collect();
        let (_, played) = playout(&mut bots, 8);
        for (i, pick) in played.picks.iter().enumerate() {
            assert_eq!(pick.round as usize, i / 3 + 1);
            assert_eq!(pick.order as usize, i % 3 + 1);
        }
    }

    #[test]
    fn stop_is_asked_before_every_decision_and_ends_the_game_unfinished() {
        let game = fixtures::draft_like();
        let (planets, crew, start) = game.deal(4, &mut Rng::new(2)).unwrap();
        let state = game.new_state(4, &planets, &crew, start).unwrap();
        let mut bots: Vec<SeatBot> = (0..4).map(|seat| SeatBot::PythonRandom(MersenneTwister::new(seat))).collect();
        let mut asked = 0;
        let whole = play(&game, state.clone(), &mut bots.clone(), || {
            asked += 1;
            false
        })
        .unwrap();
        assert_eq!(asked, whole.moves.len());
        let mut asked = 0;
        let stopped = play(&game, state, &mut bots, || {
            asked += 1;
            asked > 5
        });
        assert!(stopped.is_none());
        assert_eq!(asked, 6);
    }

    #[test]
    fn ending_a_round_is_told_from_the_stages_and_rounds() {
        let game = fixtures::draft_like();
        let (planets, crew, start) = game.deal(4, &mut Rng::new(1)).unwrap();
        let mut after = game.new_state(4, &planets, &crew, start).unwrap();
        assert!(!ended_a_round(Stage::AfterSurvey, 1, &after));
        after.round = 2;
        assert!(ended_a_round(Stage::AfterSurvey, 1, &after));
        assert!(!ended_a_round(Stage::RoundEnd, 1, &after), "a round-end decision starts the next round");
        after.round = 1;
        after.stage = Stage::RoundEnd;
        assert!(ended_a_round(Stage::AfterSurvey, 1, &after));
        after.stage = Stage::Over;
        assert!(ended_a_round(Stage::Surveying, 1, &after));
    }
}
