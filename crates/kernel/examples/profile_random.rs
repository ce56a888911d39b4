//! A profiling run: uniformly random playouts of the draft-like fixture, from kernel deals.
//! `cargo run --release --example profile_random -- GAMES PLAYERS [plain]` (`plain`: no skills
//! but Armstrong's, as the base ruleset)

use stargazer_kernel::bots::random_playout;
use stargazer_kernel::fixtures::{draft_like, plain_like};
use stargazer_kernel::rng::Rng;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).take(2).map(|a| a.parse().expect("a number")).collect();
    let games = *args.first().unwrap_or(&200_000);
    let players = *args.get(1).unwrap_or(&4) as usize;
    let game = if std::env::args().nth(3).as_deref() == Some("plain") { plain_like() } else { draft_like() };
    let start = std::time::Instant::now();
    let mut decisions = 0u64;
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let (planets, crew, first) = game.deal(players, &mut rng).unwrap();
        let mut state = game.new_state(players, &planets, &crew, first).unwrap();
        decisions += random_playout(&game, &mut state, &mut rng) as u64;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {decisions} decisions in {seconds:.2} s: {:.1} ns a decision",
        seconds * 1e9 / decisions as f64
    );
}
