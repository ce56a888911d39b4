//! A profiling run: greedy decisions on whole games of the draft-like fixture.
//! `cargo run --release --example profile_greedy -- GAMES PLAYERS`

use stargazer_kernel::bots::{Bot, BotKind, GreedyParams};
use stargazer_kernel::fixtures::draft_like;
use stargazer_kernel::rng::Rng;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let games = *args.first().unwrap_or(&2000);
    let players = *args.get(1).unwrap_or(&4) as usize;
    let game = draft_like();
    let kind = BotKind::Greedy(GreedyParams::default());
    let start = std::time::Instant::now();
    let mut decisions = 0;
    for seed in 0..games {
        let (planets, crew, first) = game.deal(players, &mut Rng::new(seed)).unwrap();
        let mut state = game.new_state(players, &planets, &crew, first).unwrap();
        let mut bots: Vec<Bot> = (0..players as u64).map(|seat| Bot::new(kind, seed * 8 + seat)).collect();
        while let Some(seat) = game.current_player(&state) {
            let act = bots[seat].choose(&game, &state).unwrap();
            if state.legal.len() > 1 {
                decisions += 1;
            }
            game.step_unchecked(&mut state, act);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {decisions} greedy decisions in {seconds:.2} s: {:.1} us a decision, {:.0} us a game",
        seconds * 1e6 / decisions as f64,
        seconds * 1e6 / games as f64
    );
}
