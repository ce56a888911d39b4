//! The Python engine's deal (`Game.deal`) in the kernel: CPython's Mersenne Twister seeded as
//! `random.Random(seed)` and the draws of `random.sample` and `random.randrange`, so that a
//! batch of games can be dealt and redealt at the kernel's speed with the setups the Python
//! engine deals for the same seeds (tests/test_fast_api.py compares them seed for seed).
//! The kernel's own `Game::deal` (its `Rng`) stays what the bots' playouts use.

use std::sync::OnceLock;

use smallvec::SmallVec;

use crate::error::KernelError;
use crate::rules::Rules;

const N: usize = 624;
const M: usize = 397;

/// `L` of CPython's `_random.Random` side by side, one lane per seed: MT19937 with
/// `init_by_array` seeding, its words interleaved (word `k` of every lane together).
#[derive(Clone)]
pub struct Lanes<const L: usize> {
    mt: Vec<[u32; L]>,
    /// Per lane, the next word to draw and how many words of this round are renewed.
    index: [usize; L],
    twisted: [usize; L],
}

/// One generator: `random.Random(seed)`.
pub type MersenneTwister = Lanes<1>;

/// `init_genrand(19650218)`, where every `init_by_array` starts: the same for every seed.
fn genrand_start() -> &'static [u32; N] {
    static START: OnceLock<[u32; N]> = OnceLock::new();
    START.get_or_init(|| {
        let mut mt = [0u32; N];
        mt[0] = 19650218;
        for i in 1..N {
            mt[i] = 1812433253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        mt
    })
}

/// Seeds seeded side by side: the seeding is one long chain of dependent steps per seed, so
/// `LANES` independent chains interleaved keep the processor busy.
pub const LANES: usize = 64;

impl MersenneTwister {
    /// `random.Random(seed)` for a non-negative integer seed (its 32-bit words, low first).
    pub fn new(seed: u64) -> MersenneTwister {
        Lanes::seeded([seed])
    }
}

impl<const L: usize> Lanes<L> {
    /// `random.Random(seed)` of each seed: CPython's `init_by_array`, one lane per seed.
    pub fn seeded(seeds: [u64; L]) -> Lanes<L> {
        // The key is 1 or 2 words: step `t` adds word `j = t % length` and `j`, which is the
        // same for every even step and for every odd one.
        let keys: [[u32; 2]; L] = seeds.map(|seed| {
            let (low, high) = (seed as u32, (seed >> 32) as u32);
            if high == 0 {
                [low, low]
            } else {
                [low, high.wrapping_add(1)]
            }
        });
        let adds: [[u32; L]; 2] = [std::array::from_fn(|l| keys[l][0]), std::array::from_fn(|l| keys[l][1])];
        let start = genrand_start();
        let mut mt: Vec<[u32; L]> = start.iter().map(|&word| [word; L]).collect();
        let mut i = 1usize;
        // The key is at most 2 words: max(N, key length) is N steps for every lane.
        for t in 0..N {
            let previous = mt[i - 1];
            let add = &adds[t & 1];
            let word = &mut mt[i];
            for l in 0..L {
                word[l] = (word[l] ^ (previous[l] ^ (previous[l] >> 30)).wrapping_mul(1664525)).wrapping_add(add[l]);
            }
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        for _ in 0..N - 1 {
            let previous = mt[i - 1];
            let word = &mut mt[i];
            for l in 0..L {
                word[l] = (word[l] ^ (previous[l] ^ (previous[l] >> 30)).wrapping_mul(1566083941)).wrapping_sub(i as u32);
            }
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = [0x8000_0000; L];
        Lanes { mt, index: [0; L], twisted: [0; L] }
    }

    /// The next word of the generator. MT19937 renews all 624 words at once, in place and in
    /// order; here each word is renewed when it is first needed, in the same order and from
    /// the same words, so a deal that draws a dozen words renews a dozen.
    pub fn next_u32(&mut self, lane: usize) -> u32 {
        if self.index[lane] >= N {
            self.index[lane] = 0;
            self.twisted[lane] = 0;
        }
        let k = self.index[lane];
        if k == self.twisted[lane] {
            let mt = &mut self.mt;
            let y = (mt[k][lane] & 0x8000_0000) | (mt[(k + 1) % N][lane] & 0x7fff_ffff);
            let mut next = mt[(k + M) % N][lane] ^ (y >> 1);
            if y & 1 != 0 {
                next ^= 0x9908_b0df;
            }
            mt[k][lane] = next;
            self.twisted[lane] += 1;
        }
        let mut y = self.mt[k][lane];
        self.index[lane] += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `k <= 32`.
    fn bits(&mut self, lane: usize, k: u32) -> u32 {
        if k == 0 {
            0
        } else {
            self.next_u32(lane) >> (32 - k)
        }
    }

    /// `_randbelow(n)`: rejection sampling on `n.bit_length()` bits.
    pub fn below(&mut self, lane: usize, n: u32) -> u32 {
        let k = 32 - n.leading_zeros();
        let mut r = self.bits(lane, k);
        while r >= n {
            r = self.bits(lane, k);
        }
        r
    }

    /// `random.sample(population, k)` (CPython 3.11+: a pool for small populations, a set of
    /// drawn positions for large ones).
    pub fn sample<T: Copy + Default>(&mut self, lane: usize, population: &[T], k: usize) -> Vec<T> {
        let n = population.len();
        let mut setsize = 21usize;
        if k > 5 {
            setsize += 4usize.pow(((k * 3) as f64).log(4.0).ceil() as u32);
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: SmallVec<[T; 32]> = SmallVec::from_slice(population);
            for i in 0..k {
                let j = self.below(lane, (n - i) as u32) as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = vec![false; n];
            for _ in 0..k {
                let mut j = self.below(lane, n as u32) as usize;
                while selected[j] {
                    j = self.below(lane, n as u32) as usize;
                }
                selected[j] = true;
                result.push(population[j]);
            }
        }
        result
    }
}

/// A setup: planet cards in ring order, the dealt crew cards, the start seat.
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
    let crew = rng.sample(lane, &rules.dealable, counts.crew);
    let start = rng.below(lane, players as u32) as usize;
    (planets, crew, start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of CPython's `random.Random(seed).getrandbits(32)` and `sample`.
    #[test]
    fn draws_what_cpython_draws() {
        let mut rng = MersenneTwister::new(0);
        assert_eq!([rng.next_u32(0), rng.next_u32(0), rng.next_u32(0)], [3626764237, 1654615998, 3255389356]);
        // Across rounds of renewal: CPython's words 623, 624, 1247, 1248 and 1299 of seed 0.
        let mut rng = MersenneTwister::new(0);
        let words: Vec<u32> = (0..1300).map(|_| rng.next_u32(0)).collect();
        assert_eq!([words[623], words[624], words[1247], words[1248], words[1299]], [2390040247, 2229104038, 577331751, 2465233080, 613370405]);
        let mut rng = MersenneTwister::new((1 << 40) + 5);
        assert_eq!([rng.next_u32(0), rng.next_u32(0)], [2166296868, 2220160828]);
        let mut rng = MersenneTwister::new(7);
        let planets: Vec<u16> = (0..14).collect();
        assert_eq!(rng.sample(0, &planets, 7), vec![5, 2, 6, 10, 0, 1, 8]);
        assert_eq!(rng.sample(0, &[1u16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 5), vec![6, 10, 1, 4, 9]);
        assert_eq!(rng.below(0, 4), 0);
        // Side by side, each lane is its seed alone.
        let mut lanes = Lanes::seeded([0, 7, (1 << 40) + 5]);
        for (lane, seed) in [0, 7, (1 << 40) + 5].into_iter().enumerate() {
            let mut alone = MersenneTwister::new(seed);
            assert!((0..700).all(|_| lanes.next_u32(lane) == alone.next_u32(0)));
        }
    }
}
