//! Whole games on a ruleset shaped like draft 7: invariants after every step (cube
//! conservation, R13), the end (R10), determinism, and the bots' legality.

use stargazer_kernel::bots::{self, Bot, BotKind, GreedyParams, MctsParams, Rollout};
use stargazer_kernel::rng::Rng;
use stargazer_kernel::expr::{Amount, Arithmetic, Comparison, Condition, Set};
use stargazer_kernel::fixtures::{draft_like, draft_like_bonus, draft_like_end, draft_like_round_end, draft_like_round_end_effects, draft_like_setup_r6, ideas_r7};
use stargazer_kernel::rules::{BonusSpec, EndTrigger};
use stargazer_kernel::{Game, Stage, State};

fn new_game(game: &Game, players: usize, seed: u64) -> State {
    let (planets, crew, start) = game.deal(players, &mut Rng::new(seed)).unwrap();
    game.new_state(players, &planets, &crew, start).unwrap()
}

/// R13: every player cube is in a hand, on a Planet, on a crew or removed (R6); every free
/// cube is in the stock, on a crew, on a Planet or taken by a seat as its own (idea R8).
fn assert_cubes_conserved(game: &Game, s: &State) {
    let players = s.players as usize;
    for seat in 0..players {
        let mut count = s.hands[seat] + s.removed[seat];
        for p in 0..s.planet_count as usize {
            count += s.track(p).iter().chain(s.special(p)).filter(|&&o| o == seat as i8).count() as i32;
        }
        for slot in 0..s.crew_count as usize {
            count += s.crew_cubes[slot][seat] as i32;
        }
        assert_eq!(count, game.rules.knobs.cubes_per_player + s.taken[seat], "seat {seat}: {s:?}");
    }
    let mut free = s.stock + s.crew_free[..s.crew_count as usize].iter().sum::<i32>() + s.taken[..players].iter().sum::<i32>();
    for p in 0..s.planet_count as usize {
        free += s.track(p).iter().filter(|&&o| o == -1).count() as i32;
    }
    assert_eq!(free, game.rules.knobs.free_cubes);
}

#[test]
fn random_games_conserve_cubes_and_end_by_r10_or_the_round_limit() {
    let game = draft_like();
    for seed in 0..400 {
        for players in [3, 4] {
            let mut s = new_game(&game, players, seed);
            let mut rng = Rng::new(seed ^ 0xABCD);
            while !s.legal.is_empty() {
                assert_cubes_conserved(&game, &s);
                assert!(game.current_player(&s).is_some());
                let act = s.legal[rng.below(s.legal.len())];
                game.step(&mut s, act).expect("a legal action applies");
            }
            assert_cubes_conserved(&game, &s);
            assert_eq!(s.stage, Stage::Over);
            assert!(s.triggers != 0);
            assert!(game.current_player(&s).is_none());
            assert!(!game.winners(&s).is_empty());
        }
    }
}

#[test]
fn a_game_is_a_pure_function_of_its_seed() {
    let game = draft_like();
    let play = |seed: u64| {
        let mut s = new_game(&game, 4, seed);
        let decisions = bots::random_playout(&game, &mut s, &mut Rng::new(seed));
        (decisions, s)
    };
    assert_eq!(play(11), play(11));
    assert_ne!(play(11).1, play(12).1);
}

#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let game = draft_like();
    let mut s = new_game(&game, 4, 1);
    let before = s.clone();
    let act = stargazer_kernel::Action::survey(0, 1, 1);
    assert!(game.step(&mut s, act).is_err());
    assert_eq!(s, before);
}

#[test]
fn every_bot_chooses_a_legal_action_and_repeats_itself_from_the_same_seed() {
    let game = draft_like();
    let kinds = [
        BotKind::Random,
        BotKind::Greedy(GreedyParams::default()),
        BotKind::Mcts(MctsParams { iterations: 60, ..Default::default() }),
        BotKind::Mcts(MctsParams { iterations: 40, rollout: Rollout::Greedy, depth: 0, prior: 0, ..Default::default() }),
        BotKind::Mcts(MctsParams { iterations: 40, rollout: Rollout::Random, ..Default::default() }),
    ];
    for kind in kinds {
        let play = |seed: u64| {
            let mut bots: Vec<Bot> = (0..4).map(|seat| Bot::new(kind, seed * 10 + seat)).collect();
            let mut s = new_game(&game, 4, seed);
            let mut moves = Vec::new();
            while let Some(seat) = game.current_player(&s) {
                let act = bots[seat].choose(&game, &s).expect("a decision is pending");
                assert!(s.legal.contains(&act), "{kind:?} chose {act:?}");
                game.step(&mut s, act).unwrap();
                moves.push(act);
            }
            (moves, game.totals(&s))
        };
        assert_eq!(play(5), play(5), "{kind:?}");
    }
}

#[test]
fn an_mcts_decision_keeps_the_roots_value_for_every_seat_and_no_other_decision_does() {
    let game = draft_like();
    let mut mcts = Bot::new(BotKind::Mcts(MctsParams { iterations: 50, ..Default::default() }), 3);
    let mut greedy = Bot::new(BotKind::Greedy(GreedyParams::default()), 3);
    let (mut searched, mut forced) = (0, 0);
    for (players, seed) in [(3, 8), (4, 8), (3, 9), (4, 9), (3, 10), (4, 10)] {
        let mut s = new_game(&game, players, seed);
        while let Some(seat) = game.current_player(&s) {
            let act = mcts.choose(&game, &s).unwrap();
            match mcts.last_values {
                Some(values) => {
                    searched += 1;
                    assert_eq!(values.seats().len(), players);
                    assert!(values.seats().iter().all(|v| (0.0..=1.0).contains(v)), "{values:?}");
                }
                None => {
                    assert_eq!(s.legal.len(), 1, "seat {seat}: a decision with a choice was searched");
                    forced += 1;
                }
            }
            greedy.choose(&game, &s).unwrap();
            assert_eq!(greedy.last_values, None);
            game.step(&mut s, act).unwrap();
        }
        assert_eq!(mcts.choose(&game, &s), None);
        assert_eq!(mcts.last_values, None, "a finished game is no decision");
    }
    assert!(searched > 60 && forced > 0, "{searched} searched, {forced} forced");
}

#[test]
fn greedy_beats_random_and_mcts_beats_greedy() {
    let game = draft_like();
    let mut wins = [0.0f64; 2];
    let duel = |strong: BotKind, weak: BotKind, games: u64| -> f64 {
        let mut share = 0.0;
        for seed in 0..games {
            let mut bots: Vec<Bot> = (0..4)
                .map(|seat| Bot::new(if (seat + seed).is_multiple_of(2) { strong } else { weak }, seed * 4 + seat))
                .collect();
            let mut s = new_game(&game, 4, seed);
            while let Some(seat) = game.current_player(&s) {
                let act = bots[seat].choose(&game, &s).unwrap();
                game.step_unchecked(&mut s, act);
            }
            let winners = game.winners(&s);
            let strong_winners = winners.iter().filter(|&&w| (w as u64 + seed).is_multiple_of(2)).count();
            share += strong_winners as f64 / winners.len() as f64;
        }
        share / games as f64
    };
    wins[0] = duel(BotKind::Greedy(GreedyParams::default()), BotKind::Random, 60);
    wins[1] = duel(BotKind::Mcts(MctsParams { iterations: 200, ..Default::default() }), BotKind::Greedy(GreedyParams::default()), 60);
    assert!(wins[0] > 0.85, "greedy vs random: {}", wins[0]);
    assert!(wins[1] > 0.5, "mcts:200 vs greedy: {}", wins[1]);
}

/// Play the first action of the given kind and target.
fn play(game: &Game, s: &mut State, kind: stargazer_kernel::Kind, target: i32) {
    let act = *s.legal.iter().find(|a| a.kind == kind && a.target as i32 == target).expect("the action is legal");
    game.step(s, act).unwrap();
}

#[test]
fn r6_motivation_bonus_scores_free_and_player_cubes_and_removes_them() {
    use stargazer_kernel::Kind;
    let game = draft_like();
    let mut s = new_game(&game, 4, 2);
    let seat = s.turn_seat();
    let other = (seat + 1) % 4;
    s.crew_free[1] = 2;
    s.crew_cubes[1][other] = 1;
    s.crew_cubes[1][seat] = 1;
    let (stock, vp) = (s.stock, s.vp[seat]);
    play(&game, &mut s, Kind::PickCrew, 1);
    // 2 free cubes x free_cube_vp 1 + 2 player cubes x player_cube_vp 2, the chooser's own included.
    assert_eq!(s.vp[seat] - vp, 2 + 4 + effect_vp(&game, &s, 1));
    assert_eq!(s.stock, stock + 2, "free cubes go back to the stock");
    assert_eq!((s.removed[other], s.removed[seat]), (1, 1), "player cubes leave play (R6)");
    assert_eq!(s.crew_free[1], 0);
    assert_eq!(s.crew_cubes[1], [0; stargazer_kernel::MAX_PLAYERS]);
}

/// VP the crew in `slot` scores at once when chosen (a gain_vp timed on_choose).
fn effect_vp(game: &Game, s: &State, slot: usize) -> i32 {
    let card = &game.rules.crew[s.crew[slot] as usize];
    card.on_pick
        .iter()
        .map(|&n| match game.rules.nodes[n as usize].op {
            stargazer_kernel::Op::GainVp(vp) => vp,
            _ => 0,
        })
        .sum()
}

#[test]
fn r11_each_crew_nobody_chose_gets_a_free_cube_in_crew_area_order_within_the_cap_and_the_stock() {
    let game = draft_like();
    let cap = game.rules.max_free_cubes_per_crew;
    for seed in 0..40 {
        let mut s = new_game(&game, 4, seed);
        let mut rng = Rng::new(seed);
        // Play until the next decision would end the round.
        loop {
            let act = s.legal[rng.below(s.legal.len())];
            let mut next = s.clone();
            game.step(&mut next, act).unwrap();
            if next.round != s.round || next.stage == Stage::RoundEnd || next.is_over() {
                let unchosen: Vec<usize> = (0..s.crew_count as usize).filter(|&slot| s.workers[slot] == -1).collect();
                let mut before = s.clone();
                before.crew_free[unchosen[0]] = cap; // at the cap: gets none
                before.stock = 1; // one cube for the next crew only
                let mut after = before.clone();
                game.step(&mut after, act).unwrap();
                if after.is_over() {
                    break; // R10 ended the game: no free cubes
                }
                assert_eq!(after.crew_free[unchosen[0]], cap);
                assert_eq!(after.crew_free[unchosen[1]], before.crew_free[unchosen[1]] + 1);
                for &slot in &unchosen[2..] {
                    assert_eq!(after.crew_free[slot], before.crew_free[slot], "the stock is empty");
                }
                assert_eq!(after.stock, 0);
                break;
            }
            s = next;
        }
    }
}

#[test]
fn r11_ideas_r9_a_crew_holding_a_free_cube_gets_none_and_an_empty_one_gets_one() {
    // {difference: [1, {free_cubes: this_crew}]}: 1 less the crew's free cubes, none below 1.
    let held = Amount::CrewCubes(true, Set::ThisCrew);
    let game = draft_like_round_end(Amount::Arithmetic(Arithmetic::Difference, vec![Amount::Number(1), held]));
    let mut checked = 0;
    for seed in 0..40 {
        let mut s = new_game(&game, 4, seed);
        let mut rng = Rng::new(seed);
        loop {
            let act = s.legal[rng.below(s.legal.len())];
            let mut next = s.clone();
            game.step(&mut next, act).unwrap();
            if next.round != s.round || next.stage == Stage::RoundEnd || next.is_over() {
                let unchosen: Vec<usize> = (0..s.crew_count as usize).filter(|&slot| s.workers[slot] == -1).collect();
                let mut before = s.clone();
                let moved = before.crew_free[unchosen[0]] + before.crew_free[unchosen[1]] - 1;
                if before.stock + moved < 1 {
                    break; // no free cube left for the empty crew
                }
                before.stock += moved; // the stock keeps every free cube
                (before.crew_free[unchosen[0]], before.crew_free[unchosen[1]]) = (1, 0);
                let mut after = before.clone();
                game.step(&mut after, act).unwrap();
                if !after.is_over() {
                    assert_eq!((after.crew_free[unchosen[0]], after.crew_free[unchosen[1]]), (1, 1), "seed {seed}");
                    checked += 1;
                }
                break;
            }
            s = next;
        }
    }
    assert!(checked > 20, "{checked} rounds ended with the game going on");
}

/// A seat's major-planet bonus counted from the board as written (R17, or ideas R4's sets made
/// one at a time from the colours with the most cubes left), not by the kernel's scoring.
fn bonus_as_written(game: &Game, s: &State, seat: usize, bonus: &BonusSpec) -> i32 {
    let mut counts = vec![0i32; game.rules.colour_count()];
    for p in 0..s.planet_count as usize {
        let colour = game.rules.planets[s.planets[p] as usize].counts_toward.trailing_zeros() as usize;
        let normal: &[i8] = if bonus.squares != "special" { s.track(p) } else { &[] };
        let special: &[i8] = if bonus.squares != "normal" { s.special(p) } else { &[] };
        counts[colour] += normal.iter().chain(special).filter(|&&o| o == seat as i8).count() as i32;
    }
    if bonus.formula == "distinct_colour_sets" {
        let mut sets = 0;
        loop {
            counts.sort_unstable_by(|a, b| b.cmp(a));
            let size = bonus.set_size as usize;
            if counts.len() < size || counts[size - 1] == 0 {
                return sets * bonus.set_vp as i32;
            }
            counts[..size].iter_mut().for_each(|c| *c -= 1);
            sets += 1;
        }
    }
    let most = counts.iter().copied().max().unwrap_or(0);
    most * counts.iter().filter(|&&c| c == most && most > 0).count() as i32
}

#[test]
fn r17_as_data_ideas_r4_and_normal_squares_score_the_bonus_as_written_at_every_step() {
    let r4 = BonusSpec { formula: "distinct_colour_sets".into(), set_size: 4, set_vp: 3, ..BonusSpec::default() };
    let normal = BonusSpec { squares: "normal".into(), ..BonusSpec::default() };
    let mut sets = 0;
    for bonus in [r4, normal] {
        let game = draft_like_bonus(bonus.clone());
        assert!(!game.rules.bonus_is_r17);
        for seed in 0..60 {
            let mut s = new_game(&game, 4, seed);
            let mut rng = Rng::new(seed ^ 0xB0);
            while !s.legal.is_empty() {
                let act = s.legal[rng.below(s.legal.len())];
                game.step(&mut s, act).unwrap();
                let (kept, board) = (game.seat_totals(&s), game.rescored_totals(&s));
                for seat in 0..4 {
                    assert_eq!(kept[seat], board[seat], "seed {seed}");
                    assert_eq!(kept[seat].bonus, bonus_as_written(&game, &s, seat, &bonus), "seed {seed} seat {seat}");
                    assert_eq!(game.totals(&s)[seat], kept[seat].total);
                    sets += (kept[seat].bonus >= 3 && bonus.set_vp == 3) as i32;
                }
            }
        }
    }
    assert!(sets > 100, "only {sets} seat-steps scored a complete set");
}

#[test]
fn ideas_r6_each_seat_places_one_cube_in_turn_order_from_the_start_player_before_round_one() {
    let game = draft_like_setup_r6();
    for seed in 0..12 {
        let (planets, crew, _) = game.deal(4, &mut Rng::new(seed)).unwrap();
        let start = (seed % 4) as usize;
        let mut s = game.new_state(4, &planets, &crew, start).unwrap();
        for k in 0..4 {
            assert_eq!((s.stage, s.round, s.turn), (Stage::Setup, 1, 0));
            let seat = (start + k) % 4;
            assert_eq!(game.current_player(&s), Some(seat));
            let act = s.legal[(seed as usize + k) % s.legal.len()];
            let p = act.target as usize;
            let filled = s.track(p).len();
            game.step(&mut s, act).unwrap();
            assert_eq!(s.track(p).len(), filled + 1);
            assert_eq!(s.track(p)[filled], seat as i8, "the rearmost square (R2)");
            assert_eq!(s.hands[seat], game.rules.knobs.cubes_per_player - 1);
            assert_cubes_conserved(&game, &s);
        }
        assert_eq!((s.stage, s.round, s.turn), (Stage::PickCrew, 1, 0));
        assert_eq!(game.current_player(&s), Some(start));
    }
}

/// A state waiting on Armstrong's name_start_player (R12) with `remaining` steps left, read as
/// the Python engine's (the rules' bounds unchecked): the greedy lookahead's worst case.
fn round_end_with(game: &Game, remaining: i64) -> State {
    use stargazer_kernel::{check, StateFields, Trust};
    for seed in 0..200 {
        let mut s = new_game(game, 4, seed);
        let mut rng = Rng::new(seed);
        while !s.legal.is_empty() && s.stage != Stage::RoundEnd {
            let act = s.legal[rng.below(s.legal.len())];
            game.step_unchecked(&mut s, act);
        }
        if s.stage == Stage::RoundEnd {
            let mut fields = StateFields::of(game, &s);
            fields.pending[0].2 = remaining;
            return check::state_from_fields(game, &fields, Trust::Engine).unwrap();
        }
    }
    panic!("no game reached a round-end decision");
}

#[test]
fn greedy_work_per_decision_is_bounded_by_the_ruleset_whatever_the_state() {
    let game = draft_like();
    let s = round_end_with(&game, 1 << 30); // the most steps left the kernel stores
    let mut bot = Bot::new(BotKind::Greedy(GreedyParams::default()), 7);
    let mut work = bots::greedy::Work::default();
    let chosen = bot.choose_counting(&game, &s, None, &mut work).unwrap().unwrap();
    assert!(s.legal.contains(&chosen));
    // Each of the 4 seats named, then at most most_turn_decisions lookahead decisions of 4 options.
    let most = game.rules.bounds.most_turn_decisions;
    assert!(work.steps <= 4 * (1 + 4 * most), "{} steps, most {}", work.steps, 4 * (1 + 4 * most));
}

#[test]
fn greedy_honours_a_deadline_that_has_passed_within_one_check() {
    use std::time::{Duration, Instant};
    let game = draft_like();
    let s = round_end_with(&game, 1 << 30); // the most steps left the kernel stores
    let past = Instant::now().checked_sub(Duration::from_millis(1)).unwrap_or_else(Instant::now);
    let mut bot = Bot::new(BotKind::Greedy(GreedyParams::default()), 7);
    let mut work = bots::greedy::Work::default();
    assert!(bot.choose_counting(&game, &s, Some(past), &mut work).is_err());
    assert_eq!(work.steps, bots::greedy::CHECK_EVERY);
}

/// The counts a state keeps as the board changes (rooms, open Planets, free crew) and its
/// scores once brought up to date (majority VP, colour bonus) equal those derived from its
/// other fields and the full R15-R18 scoring of the board, after every step of random games;
/// the scores are brought up to date at random steps, as the bots do, so that both the
/// Planet-by-Planet update and the whole recount are exercised. Returns the steps taken and
/// those that took a cube off a track or a special square (the rules language's `return_cube`
/// and `move_cube`, `square: special` too).
fn assert_kept_counts_match_the_board(game: &Game, players: usize, seed: u64) -> (usize, usize) {
    let mut s = new_game(game, players, seed);
    let mut rng = Rng::new(seed ^ 0x5EED);
    let (mut steps, mut shrinking) = (0, 0);
    loop {
        let mut kept = s.clone();
        game.update_scores(&mut kept);
        let mut recounted = s.clone();
        game.recount(&mut recounted);
        assert_eq!(recounted, kept, "seed {seed}, step {steps}");
        assert_eq!(game.seat_totals(&kept), game.rescored_totals(&s), "seed {seed}, step {steps}");
        assert_eq!(game.seat_totals(&s), game.rescored_totals(&s), "seed {seed}, step {steps}");
        assert_eq!(game.derive_legal(&s).unwrap_or_default(), s.legal.to_vec(), "seed {seed}, step {steps}");
        if s.legal.is_empty() {
            return (steps, shrinking);
        }
        if rng.below(3) == 0 {
            game.update_scores(&mut s);
        }
        let act = s.legal[rng.below(s.legal.len())];
        let before = (s.track_fill, s.special_fill);
        game.step_unchecked(&mut s, act);
        let shrank = |was: &[u16], now: &[u16]| was.iter().zip(now).any(|(was, now)| now < was);
        shrinking += usize::from(shrank(&before.0, &s.track_fill) || shrank(&before.1, &s.special_fill));
        steps += 1;
    }
}

#[test]
fn kept_counts_equal_the_full_scoring_after_every_step_of_draft_like_games() {
    let game = draft_like();
    let steps: usize =
        (0..300).flat_map(|seed| [3, 4].map(|players| assert_kept_counts_match_the_board(&game, players, seed).0)).sum();
    assert!(steps > 20_000, "{steps} steps");
}

#[test]
fn kept_counts_equal_the_full_scoring_after_every_step_of_generated_rulesets() {
    let (mut steps, mut shrinking) = (0, 0);
    // 120 rulesets: each draws its crews' effects among every type, this turn's survey's too.
    for ruleset in 0..120 {
        let game = stargazer_kernel::fixtures::generated(ruleset);
        let counts: Vec<usize> = game.rules.setups.iter().map(|s| s.players).collect();
        for seed in 0..10 {
            let (taken, shrank) = assert_kept_counts_match_the_board(&game, counts[seed as usize % counts.len()], seed);
            (steps, shrinking) = (steps + taken, shrinking + shrank);
        }
    }
    assert!(steps > 10_000, "{steps} steps");
    // Tracks and special squares shrink (return_cube, move_cube): the kept scores give a Planet
    // back and rank it anew, or are counted again.
    assert!(shrinking > 500, "{shrinking} steps took a cube off a track or a special square");
}

#[test]
fn ideas_r7_the_fewest_vp_gain_1_at_every_rounds_end_ties_all_the_last_round_too() {
    // Each round's last step played on draft 7 and on draft 7 with R7: they differ only by 1 VP
    // to every seat holding the fewest VP once the round (and draft 7's end of it) is played.
    let (plain, r7) = (draft_like(), draft_like_round_end_effects(vec![ideas_r7()]));
    let (mut ends, mut ties, mut last) = (0, 0, 0);
    for seed in 0..30 {
        let mut s = new_game(&r7, 4, seed);
        let mut rng = Rng::new(seed);
        while !s.legal.is_empty() {
            let act = s.legal[rng.below(s.legal.len())];
            let (mut with, mut without) = (s.clone(), s.clone());
            r7.step(&mut with, act).unwrap();
            plain.step(&mut without, act).unwrap();
            // The round ends on the step that leaves its last turn (not on the round-end decisions after it).
            let ended = s.stage != Stage::RoundEnd && (with.round != s.round || with.stage == Stage::RoundEnd || with.is_over());
            if ended {
                let fewest = *without.vp[..4].iter().min().unwrap();
                let gained: Vec<i32> = (0..4).map(|seat| with.vp[seat] - without.vp[seat]).collect();
                let expected: Vec<i32> = (0..4).map(|seat| (without.vp[seat] == fewest) as i32).collect();
                assert_eq!(gained, expected, "seed {seed}, round {}", s.round);
                assert_eq!((with.stock, with.crew_free, with.is_over()), (without.stock, without.crew_free, without.is_over()));
                ends += 1;
                ties += (expected.iter().sum::<i32>() > 1) as usize;
                last += with.is_over() as usize;
            } else {
                assert_eq!(with.vp, without.vp);
            }
            s = with;
        }
    }
    assert!(ends > 100 && ties > 0 && last == 30, "{ends} round ends, {ties} with a tie, {last} last rounds");
}

#[test]
fn r10_ideas_an_empty_stock_ends_the_game_at_the_round_end_never_mid_round() {
    // Ideas R10, after draft 7's two: stock_empty: {equal: [stock, 0]}.
    let stock_empty = Condition::Compare(Comparison::Equal, Amount::Stock, Amount::Number(0));
    let game = draft_like_end(vec![EndTrigger { id: "stock_empty".into(), condition: stock_empty }]);
    assert_eq!(game.rules.end.names().map(|(_, name)| name).collect::<Vec<_>>(), ["hand_empty", "planets_full", "stock_empty", "round_limit"]);
    for seed in 0..40 {
        let mut s = new_game(&game, 4, seed);
        s.stock = 0; // the cubes left the game: the stock is empty from the start
        let mut rng = Rng::new(seed);
        while !s.is_over() {
            let act = s.legal[rng.below(s.legal.len())];
            let round = s.round;
            game.step(&mut s, act).unwrap();
            if s.is_over() {
                assert_eq!(s.turn, s.players, "the game ended at the round's end, not mid-round");
            }
            assert_eq!(s.round, round, "no free cube is in the game, so the stock stays empty and round 1 is the last");
        }
        assert!(game.rules.end.named(s.triggers).contains(&"stock_empty"));
    }
}

#[test]
fn most_of_and_least_of_read_the_amount_for_each_member_bound_and_are_0_over_an_empty_set() {
    use stargazer_kernel::expr::{Owner, SetKind, Squares};
    use stargazer_kernel::game::scope::Scope;
    // Issue 27: the greatest or least value of an amount over a set's members, each bound in
    // turn (this_seat, this_planet), the outer bindings (me) kept; 0 over an empty set.
    let game = draft_like();
    let mut checked = 0;
    for seed in 0..20 {
        let mut s = new_game(&game, 3, seed);
        let mut rng = Rng::new(seed);
        for _ in 0..30 {
            if s.legal.is_empty() {
                break;
            }
            let act = s.legal[rng.below(s.legal.len())];
            game.step_unchecked(&mut s, act);
        }
        let players = s.players as usize;
        let planets = s.planet_count as usize;
        let extreme = |most, over, amount| Amount::Extreme { most, over, amount: Box::new(amount) };
        let sc = Scope::new(1, 0);
        let hands = (0..players).map(|seat| s.hands[seat] as i64);
        let most_hand = extreme(true, Set::Everyone, Amount::Hand(Set::ThisSeat));
        assert_eq!(game.amount(&s, &sc, &most_hand), hands.clone().max().unwrap());
        let least_hand = extreme(false, Set::Everyone, Amount::Hand(Set::ThisSeat));
        assert_eq!(game.amount(&s, &sc, &least_hand), hands.min().unwrap());
        // Seat 1's ("me") most cubes on one Planet: me is kept inside the Planets' binding.
        let mine = Amount::Cubes { owner: Owner::Seats(Set::Me), squares: Squares::Both, planets: Set::ThisPlanet };
        let expected = (0..planets)
            .map(|p| s.track(p).iter().chain(s.special(p)).filter(|&&o| o == 1).count() as i64)
            .max()
            .unwrap();
        assert_eq!(game.amount(&s, &sc, &extreme(true, Set::AllPlanets, mine.clone())), expected);
        let nowhere = Set::Where(SetKind::Planets, Box::new(Condition::Not(Box::new(Condition::Full))), Box::new(Set::FullPlanets));
        assert_eq!(game.amount(&s, &sc, &extreme(true, nowhere.clone(), Amount::Number(-5))), 0);
        assert_eq!(game.amount(&s, &sc, &extreme(false, nowhere, Amount::Number(5))), 0);
        checked += (expected > 0) as usize;
    }
    assert!(checked > 0, "no position with a cube of seat 1 was checked");
}

#[test]
fn end_checks_agree_with_the_conditions_evaluated_as_written() {
    // Recognised forms (draft 7's two, ideas' stock and round, their kin) and others evaluated
    // as written; each checked by `end_conditions_met` against `holds` on every state played.
    use stargazer_kernel::expr::SetKind;
    use stargazer_kernel::game::scope::Scope;
    let number = Amount::Number;
    let hand_at_most = |k: i64| {
        let condition = Condition::Compare(Comparison::AtMost, Amount::Hand(Set::ThisSeat), number(k));
        Amount::Count(Set::Where(SetKind::Seats, Box::new(condition), Box::new(Set::Everyone)))
    };
    let more = vec![
        Condition::Compare(Comparison::Equal, Amount::Stock, number(0)),
        Condition::Compare(Comparison::AtLeast, Amount::Round, number(4)),
        Condition::Compare(Comparison::AtMost, Amount::Count(Set::WithRoom), Amount::Players),
        Condition::Compare(Comparison::MoreThan, hand_at_most(6), number(1)),
        Condition::Compare(Comparison::LessThan, Amount::FullPlanetsToEnd, Amount::Count(Set::FullPlanets)),
    ];
    let triggers = more.into_iter().enumerate().map(|(i, condition)| EndTrigger { id: format!("c{i}"), condition }).collect();
    let game = draft_like_end(triggers);
    // The last one (a sum) is no recognised form: evaluated as written, as an unrecognised
    // condition (not a comparison) is.
    let sum = Amount::Arithmetic(Arithmetic::Sum, vec![Amount::Stock, Amount::Round]);
    let evaluated = draft_like_end(vec![
        EndTrigger { id: "sum".into(), condition: Condition::Compare(Comparison::AtLeast, sum, number(14)) },
        EndTrigger { id: "not".into(), condition: Condition::Not(Box::new(Condition::Compare(Comparison::NotEqual, Amount::Stock, number(0)))) },
        // Some seat's hand at most 3: a recognised form of its own.
        EndTrigger { id: "low".into(), condition: Condition::Compare(Comparison::MoreThan, hand_at_most(3), number(0)) },
    ]);
    let mut met = [0u32; 8];
    for game in [&game, &evaluated] {
        for seed in 0..60 {
            let mut s = new_game(game, 3 + (seed as usize % 2), seed);
            let mut rng = Rng::new(seed);
            loop {
                let nobody = Scope::table(s.start_player as usize);
                let mut expected = 0u8;
                for (i, trigger) in game.rules.end.triggers.iter().enumerate() {
                    if game.holds(&s, &nobody, &trigger.condition) {
                        expected |= 1 << i;
                        met[i] += 1;
                    }
                }
                assert_eq!(game.end_conditions_met(&s), expected, "seed {seed}, round {}", s.round);
                if s.is_over() {
                    break;
                }
                let act = s.legal[rng.below(s.legal.len())];
                game.step(&mut s, act).unwrap();
            }
        }
    }
    assert!(met[..7].iter().all(|&n| n > 0), "every condition held on some state: {met:?}");
}
