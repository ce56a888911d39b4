//! The random bot of the Python engine, draw for draw: CPython's `random.Random(seed)` (the
//! Mersenne Twister MT19937, seeded from the integer's 32-bit words) and its `choice`, so that
//! a whole game played in the kernel picks exactly what `bots.base.RandomBot` picks.
//! The kernel's own `BotKind::Random` draws from `Rng` instead and is not move for move alike.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// CPython's generator state: 624 words and the index of the next one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonRandom {
    mt: Box<[u32; N]>,
    index: usize,
}

impl PythonRandom {
    /// `random.Random(seed)` for a non-negative integer seed below 2^64: `init_by_array` over
    /// the seed's 32-bit words, least significant first (one word for 0).
    pub fn new(seed: u64) -> PythonRandom {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        let key: &[u32] = if high == 0 { &[low] } else { &[low, high] };
        let mut mt = Box::new([0u32; N]);
        mt[0] = 19_650_218;
        for i in 1..N {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
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
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        PythonRandom { mt, index: N }
    }

    /// The next 32-bit output (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            let mt = &mut self.mt;
            for k in 0..N {
                let y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK);
                let mag = if y & 1 == 0 { 0 } else { MATRIX_A };
                mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `1 <= k <= 32`: the top `k` bits of one output.
    fn bits(&mut self, k: u32) -> u32 {
        self.next_u32() >> (32 - k)
    }

    /// `choice` of `n` items (`0 < n < 2^32`): `_randbelow_with_getrandbits`, drawing `k` bits
    /// (`n.bit_length()`) until the number falls below `n`; one draw at least, even for `n = 1`.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0 && n <= u32::MAX as usize);
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.bits(k) as usize;
            if r < n {
                return r;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The numbers CPython 3.11 gives: `[random.Random(s).getrandbits(32) for _ in range(3)]`
    // and `[r.choice(range(n)) for n in (1, 2, 3, 7, 40, 1, 33, 5)]` with r = Random(123456789).
    #[test]
    fn the_outputs_are_cpython_s_for_one_and_two_word_seeds() {
        let outputs = |seed: u64| {
            let mut r = PythonRandom::new(seed);
            [r.next_u32(), r.next_u32(), r.next_u32()]
        };
        assert_eq!(outputs(0), [3_626_764_237, 1_654_615_998, 3_255_389_356]);
        assert_eq!(outputs(5489), [3_382_763_572, 956_215_839, 417_760_592]);
        assert_eq!(outputs(u64::MAX), [93_740_670, 1_068_495_656, 1_452_108_352]);
    }

    #[test]
    fn choice_draws_as_cpython_s_randbelow_even_from_one_item() {
        let mut r = PythonRandom::new(123_456_789);
        let picks: Vec<usize> = [1, 2, 3, 7, 40, 1, 33, 5].iter().map(|&n| r.below(n)).collect();
        assert_eq!(picks, vec![0, 1, 1, 5, 29, 0, 22, 3]);
    }
}
