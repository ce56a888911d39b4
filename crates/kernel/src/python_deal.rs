//! The Python engine's deal (`Game.deal`) in the kernel: CPython's Mersenne Twister seeded as
//! `random.Random(seed)` and the draws of `random.sample` and `random.randrange`, so that a
//! batch of games can be dealt and redealt at the kernel's speed with the setups the Python
//! engine deals for the same seeds (tests/test_fast_api.py compares them seed for seed).
//! The kernel's own `Game::deal` (its `Rng`) stays what the bots' playouts use.

use crate::error::KernelError;
use crate::rules::Rules;

const N: usize = 624;
const M: usize = 397;

/// CPython's `_random.Random`: MT19937 with `init_by_array` seeding.
#[derive(Clone)]
pub struct MersenneTwister {
    mt: [u32; N],
    index: usize,
}

impl MersenneTwister {
    /// `random.Random(seed)` for a non-negative integer seed: its 32-bit words, low first.
    pub fn new(seed: u64) -> MersenneTwister {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        if high == 0 {
            MersenneTwister::by_array(&[low])
        } else {
            MersenneTwister::by_array(&[low, high])
        }
    }

    fn by_array(key: &[u32]) -> MersenneTwister {
        let mut mt = [0u32; N];
        mt[0] = 19650218;
        for i in 1..N {
            mt[i] = 1812433253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1664525)).wrapping_add(key[j]).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1566083941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        MersenneTwister { mt, index: N }
    }

    fn twist(&mut self) {
        for k in 0..N {
            let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % N] & 0x7fff_ffff);
            let mut next = self.mt[(k + M) % N] ^ (y >> 1);
            if y & 1 != 0 {
                next ^= 0x9908_b0df;
            }
            self.mt[k] = next;
        }
        self.index = 0;
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `k <= 32`.
    fn bits(&mut self, k: u32) -> u32 {
        if k == 0 {
            0
        } else {
            self.next_u32() >> (32 - k)
        }
    }

    /// `_randbelow(n)`: rejection sampling on `n.bit_length()` bits.
    pub fn below(&mut self, n: u32) -> u32 {
        let k = 32 - n.leading_zeros();
        let mut r = self.bits(k);
        while r >= n {
            r = self.bits(k);
        }
        r
    }

    /// `random.sample(population, k)` (CPython 3.11+: a pool for small populations, a set of
    /// drawn positions for large ones).
    pub fn sample<T: Copy>(&mut self, population: &[T], k: usize) -> Vec<T> {
        let n = population.len();
        let mut setsize = 21usize;
        if k > 5 {
            setsize += 4usize.pow(((k * 3) as f64).log(4.0).ceil() as u32);
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool = population.to_vec();
            for i in 0..k {
                let j = self.below((n - i) as u32) as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = vec![false; n];
            for _ in 0..k {
                let mut j = self.below(n as u32) as usize;
                while selected[j] {
                    j = self.below(n as u32) as usize;
                }
                selected[j] = true;
                result.push(population[j]);
            }
        }
        result
    }
}

/// `Game.deal(players, seed)`: planet cards in ring order, the dealt crew cards, the start seat.
pub fn python_deal(rules: &Rules, players: usize, seed: u64) -> Result<(Vec<u16>, Vec<u16>, usize), KernelError> {
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
    let mut rng = MersenneTwister::new(seed);
    let all_planets: Vec<u16> = (0..rules.planets.len() as u16).collect();
    let planets = rng.sample(&all_planets, counts.planets);
    let crew = rng.sample(&rules.dealable, counts.crew);
    let start = rng.below(players as u32) as usize;
    Ok((planets, crew, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of CPython's `random.Random(seed).getrandbits(32)` and `sample`.
    #[test]
    fn draws_what_cpython_draws() {
        let mut rng = MersenneTwister::new(0);
        assert_eq!([rng.next_u32(), rng.next_u32(), rng.next_u32()], [3626764237, 1654615998, 3255389356]);
        let mut rng = MersenneTwister::new((1 << 40) + 5);
        assert_eq!([rng.next_u32(), rng.next_u32()], [2166296868, 2220160828]);
        let mut rng = MersenneTwister::new(7);
        let planets: Vec<u16> = (0..14).collect();
        assert_eq!(rng.sample(&planets, 7), vec![5, 2, 6, 10, 0, 1, 8]);
        assert_eq!(rng.sample(&[1u16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 5), vec![6, 10, 1, 4, 9]);
        assert_eq!(rng.below(4), 0);
    }
}
