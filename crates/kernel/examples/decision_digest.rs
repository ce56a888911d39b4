//! A digest of every decision the kernel's bots take in whole games of the draft-like fixture,
//! and of the final totals: two builds that print the same digest play the same games.
//! `cargo run --release --example decision_digest -- GAMES`

use stargazer_kernel::bots::{Bot, BotKind, GreedyParams, MctsParams, Rollout};
use stargazer_kernel::fixtures::draft_like;
use stargazer_kernel::rng::Rng;

fn main() {
    let games: u64 = std::env::args().nth(1).map_or(6, |a| a.parse().expect("a number"));
    let game = draft_like();
    let kinds = [
        ("random", BotKind::Random),
        ("greedy", BotKind::Greedy(GreedyParams::default())),
        ("mcts", BotKind::Mcts(MctsParams { iterations: 200, ..Default::default() })),
        ("mcts-greedy", BotKind::Mcts(MctsParams { iterations: 100, rollout: Rollout::Greedy, ..Default::default() })),
        ("mcts-random", BotKind::Mcts(MctsParams { iterations: 100, rollout: Rollout::Random, depth: 0, ..Default::default() })),
    ];
    for (name, kind) in kinds {
        let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |value: i64| {
            digest ^= value as u64;
            digest = digest.wrapping_mul(0x100_0000_01b3);
        };
        let mut decisions = 0;
        for seed in 0..games {
            for players in [3, 4] {
                let (planets, crew, first) = game.deal(players, &mut Rng::new(seed)).unwrap();
                let mut state = game.new_state(players, &planets, &crew, first).unwrap();
                let mut bots: Vec<Bot> = (0..players as u64).map(|seat| Bot::new(kind, seed * 8 + seat)).collect();
                while let Some(seat) = game.current_player(&state) {
                    let act = bots[seat].choose(&game, &state).unwrap();
                    mix(act.kind as i64);
                    mix(act.target as i64);
                    mix(act.count as i64);
                    mix(act.direction as i64);
                    if let Some(values) = bots[seat].last_values {
                        values.seats().iter().for_each(|v| mix(v.to_bits() as i64));
                    }
                    game.step_unchecked(&mut state, act);
                    decisions += 1;
                }
                game.totals(&state)[..players].iter().for_each(|&t| mix(t as i64));
            }
        }
        println!("{name}: {decisions} decisions, digest {digest:016x}");
    }
}
