//! A fixed piece of kernel work for counting instructions (`benchmarks/instructions.py` runs it
//! under callgrind in this checkout and in an older one): the same games on the same seeds, so
//! two builds can be compared by what they execute rather than by time on a loaded machine.
//!
//! `cargo run --release --example instructions -- random|mcts GAMES [plain]`
//! - `random GAMES`: uniformly random playouts at four players from kernel deals, seeds 0..GAMES;
//! - `mcts GAMES`: whole games with `mcts:200` in every seat, seeds 0..GAMES;
//! - `plain`: the base ruleset (no skills but Armstrong's) instead of draft 7.
//!
//! Printed: the decisions and a digest of every game's end (round, triggers, VP), which two
//! builds playing the same games print alike.

use stargazer_kernel::bots::{random_playout, Bot, BotKind, MctsParams};
use stargazer_kernel::fixtures::{draft_like, plain_like};
use stargazer_kernel::rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("random");
    let games: u64 = args.get(1).map_or(1000, |a| a.parse().expect("GAMES is a number"));
    let game = if args.get(2).map(String::as_str) == Some("plain") { plain_like() } else { draft_like() };
    let players = 4;
    let mut decisions = 0u64;
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |value: u64| digest = (digest ^ value).wrapping_mul(0x0100_0000_01b3);
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let (planets, crew, first) = game.deal(players, &mut rng).unwrap();
        let mut state = game.new_state(players, &planets, &crew, first).unwrap();
        match mode {
            "random" => decisions += random_playout(&game, &mut state, &mut rng) as u64,
            "mcts" => {
                let kind = BotKind::Mcts(MctsParams { iterations: 200, ..Default::default() });
                let mut bots: Vec<Bot> = (0..players as u64).map(|seat| Bot::new(kind, seed * 4 + seat)).collect();
                while let Some(seat) = game.current_player(&state) {
                    let act = bots[seat].choose(&game, &state).unwrap();
                    decisions += 1;
                    game.step_unchecked(&mut state, act);
                }
            }
            other => panic!("unknown mode {other:?}: random or mcts"),
        }
        mix(state.round as u64);
        mix(state.triggers as u64);
        for seat in 0..players {
            mix(state.vp[seat] as u64);
        }
    }
    println!("{mode} {games} games: {decisions} decisions, digest {digest:016x}");
}
