//! A profiling run: MCTS decisions on whole games of the draft-like fixture.
//! `cargo run --release --example profile_mcts -- ITERATIONS GAMES`

use stargazer_kernel::bots::{Bot, BotKind, MctsParams};
use stargazer_kernel::fixtures::draft_like;
use stargazer_kernel::rng::Rng;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let iterations = *args.first().unwrap_or(&200) as u32;
    let games = *args.get(1).unwrap_or(&20);
    let game = draft_like();
    let kind = BotKind::Mcts(MctsParams { iterations, ..Default::default() });
    let start = std::time::Instant::now();
    let mut decisions = 0;
    for seed in 0..games {
        let (planets, crew, first) = game.deal(4, &mut Rng::new(seed)).unwrap();
        let mut state = game.new_state(4, &planets, &crew, first).unwrap();
        let mut bots: Vec<Bot> = (0..4).map(|seat| Bot::new(kind, seed * 4 + seat)).collect();
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
        "{games} games, {decisions} searched decisions in {seconds:.2} s: {:.0} iterations/s, {:.2} games/s",
        decisions as f64 * iterations as f64 / seconds,
        games as f64 / seconds
    );
}
