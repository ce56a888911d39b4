//! The Python engine's deal (`Game.deal`) in the kernel: the draws of `random.sample` and
//! `random.randrange` from `random.Random(seed)` (`python_random`), so that a
//! batch of games can be dealt and redealt at the kernel's speed with the setups the Python
//! engine deals for the same seeds (tests/test_fast_api.py compares them seed for seed).
//! The kernel's own `Game::deal` (its `Rng`) stays what the bots' playouts use.

use crate::error::KernelError;
use crate::python_random::{Lanes, MersenneTwister, LANES};
use crate::rules::Rules;

/// A setup: planet cards in ring order, the dealt crew cards (then R11's queue when crews can be
/// replaced: the deck order `Game::new_state` reads), the start seat.
pub type Deal = (Vec<u16>, Vec<u16>, usize);

/// `Game.deal(players, seed)`: planet cards in ring order, the dealt crew cards, the start seat.
pub fn python_deal(rules: &Rules, players: usize, seed: u64) -> Result<Deal, KernelError> {
    check_counts(rules, players)?;
    Ok(deal_with(rules, players, &planet_cards(rules), &mut MersenneTwister::new(seed), 0))
}

/// `python_deal` of every seed, in order (seeded `LANES` at a time).
pub fn python_deals(rules: &Rules, players: usize, seeds: &[u64]) -> Result<Vec<Deal>, KernelError> {
    check_counts(rules, players)?;
    let mut deals = Vec::with_capacity(seeds.len());
    let planets = planet_cards(rules);
    for chunk in seeds.chunks(LANES) {
        // A short last chunk fills its lanes with its last seed; those deals are dropped.
        let lanes: [u64; LANES] = std::array::from_fn(|l| chunk[l.min(chunk.len() - 1)]);
        let mut rng = Lanes::seeded(lanes);
        for lane in 0..chunk.len() {
            deals.push(deal_with(rules, players, &planets, &mut rng, lane));
        }
    }
    Ok(deals)
}

fn check_counts(rules: &Rules, players: usize) -> Result<(), KernelError> {
    let counts = rules.setup_counts(players)?;
    if counts.planets > rules.planets.len() || counts.crew > rules.dealable.len() {
        return Err(KernelError::Setup(format!(
            "{players} players need {} planets and {} crew, but the ruleset has {} and {}",
            counts.planets,
            counts.crew,
            rules.planets.len(),
            rules.dealable.len()
        )));
    }
    Ok(())
}

/// Every planet card, the population `Game.deal` samples the ring from.
fn planet_cards(rules: &Rules) -> Vec<u16> {
    (0..rules.planets.len() as u16).collect()
}

/// The draws of `Game.deal` from a seeded generator; the counts are checked.
fn deal_with<const L: usize>(rules: &Rules, players: usize, all_planets: &[u16], rng: &mut Lanes<L>, lane: usize) -> Deal {
    let Ok(counts) = rules.setup_counts(players) else { return (Vec::new(), Vec::new(), 0) };
    let planets = rng.sample(lane, all_planets, counts.planets);
    let mut crew = rng.sample(lane, &rules.dealable, counts.crew);
    let start = rng.below(lane, players as u32) as usize;
    if rules.unpicked_crews.replaced {
        // R11's queue of the crew cards not dealt, drawn after the rest (`Game.deal`), follows
        // the dealt ones: the deck order `Game::new_state` reads.
        let left: Vec<u16> = rules.dealable.iter().copied().filter(|card| !crew.contains(card)).collect();
        crew.extend(rng.sample(lane, &left, left.len()));
    }
    (planets, crew, start)
}
