//! numpy's `Generator` over PCG64: the draw methods the reference uses, draw for draw.
//!
//! - `integers` (int64, `endpoint=False`, the default Lemire method): the closed range
//!   `[low, high - 1]` becomes an offset and a span `rng = high - 1 - low`. A span of 0 draws
//!   nothing; a span below 2^32 draws 32-bit words through the bit generator's buffer (Lemire's
//!   multiply-shift on 32 bits, with a rejection threshold computed only when the low product
//!   falls below the range); a span of exactly 2^32 - 1 takes raw 32-bit words; a larger span uses
//!   Lemire on 64 bits (128-bit product), and the full 64-bit span takes raw 64-bit words. A
//!   scalar draw and an array draw run the same per-element algorithm.
//! - `random`: a double from the top 53 bits of one 64-bit word.
//! - `permutation(n)` / `shuffle`: Fisher-Yates from the last index down to 1, each index drawn by
//!   masked rejection (`random_interval`: the smallest all-ones mask covering the bound, 32-bit
//!   words through the buffer when the bound fits in 32 bits, else 64-bit words). Not Lemire.

use super::pcg64::Pcg64;
use super::seed_sequence::SeedSequence;

/// A numpy-compatible generator (`np.random.default_rng(...)` with its default PCG64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    bitgen: Pcg64,
}

impl Generator {
    /// `np.random.default_rng(seed_sequence)`.
    pub fn new(seq: &SeedSequence) -> Self {
        Generator {
            bitgen: Pcg64::from_seed_sequence(seq),
        }
    }

    /// `np.random.default_rng(seed)` for a non-negative integer seed.
    pub fn from_int(seed: u128) -> Self {
        Self::new(&SeedSequence::from_int(seed))
    }

    /// A generator over the given bit generator.
    pub fn from_bit_generator(bitgen: Pcg64) -> Self {
        Generator { bitgen }
    }

    /// The bit generator (its state, for comparisons with numpy's).
    pub fn bit_generator(&self) -> &Pcg64 {
        &self.bitgen
    }

    /// Lemire's multiply-shift on 32 bits: a uniform value in `[0, rng]`, `rng < 2^32 - 1`.
    fn lemire_u32(&mut self, rng: u32) -> u32 {
        let rng_excl = rng + 1;
        let mut m = u64::from(self.bitgen.next_u32()) * u64::from(rng_excl);
        let mut leftover = m as u32;
        if leftover < rng_excl {
            let threshold = (u32::MAX - rng) % rng_excl;
            while leftover < threshold {
                m = u64::from(self.bitgen.next_u32()) * u64::from(rng_excl);
                leftover = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// Lemire's multiply-shift on 64 bits: a uniform value in `[0, rng]`, `rng < 2^64 - 1`.
    fn lemire_u64(&mut self, rng: u64) -> u64 {
        let rng_excl = rng + 1;
        let mut m = u128::from(self.bitgen.next_u64()) * u128::from(rng_excl);
        let mut leftover = m as u64;
        if leftover < rng_excl {
            let threshold = (u64::MAX - rng) % rng_excl;
            while leftover < threshold {
                m = u128::from(self.bitgen.next_u64()) * u128::from(rng_excl);
                leftover = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// A uniform value in `[0, rng]` by numpy's bounded 64-bit path (see the module docs).
    #[inline]
    pub fn bounded_u64(&mut self, rng: u64) -> u64 {
        if rng == 0 {
            0
        } else if rng < u64::from(u32::MAX) {
            u64::from(self.lemire_u32(rng as u32))
        } else if rng == u64::from(u32::MAX) {
            u64::from(self.bitgen.next_u32())
        } else if rng == u64::MAX {
            self.bitgen.next_u64()
        } else {
            self.lemire_u64(rng)
        }
    }

    /// `integers(low, high + 1)`: one int64 in the closed range `[low, high]`.
    ///
    /// # Panics
    /// When `low > high` (numpy raises `ValueError`).
    #[inline]
    pub fn integers_closed(&mut self, low: i64, high: i64) -> i64 {
        assert!(low <= high, "integers: low {low} > high {high}");
        let span = high.wrapping_sub(low) as u64;
        (low as u64).wrapping_add(self.bounded_u64(span)) as i64
    }

    /// `integers(low, high)`: one int64 in `[low, high)`.
    ///
    /// # Panics
    /// When `low >= high`.
    #[inline]
    pub fn integers(&mut self, low: i64, high: i64) -> i64 {
        assert!(low < high, "integers: low {low} >= high {high}");
        self.integers_closed(low, high - 1)
    }

    /// `integers(low, high + 1, size=out.len())`, written into `out`.
    ///
    /// # Panics
    /// When `low > high` and `out` is not empty.
    pub fn fill_integers_closed(&mut self, low: i64, high: i64, out: &mut [i64]) {
        for slot in out.iter_mut() {
            *slot = self.integers_closed(low, high);
        }
    }

    /// `integers(low, high, size=n)` as a vector.
    ///
    /// # Panics
    /// When `low >= high` and `n > 0`.
    pub fn integers_vec(&mut self, low: i64, high: i64, n: usize) -> Vec<i64> {
        if n == 0 {
            return Vec::new();
        }
        assert!(low < high, "integers: low {low} >= high {high}");
        let mut out = vec![0; n];
        self.fill_integers_closed(low, high - 1, &mut out);
        out
    }

    /// `random()`: a double in [0, 1).
    #[inline]
    pub fn random(&mut self) -> f64 {
        self.bitgen.next_f64()
    }

    /// A uniform value in `[0, max]` by masked rejection (numpy's `random_interval`).
    pub fn random_interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        if max <= u64::from(u32::MAX) {
            loop {
                let value = u64::from(self.bitgen.next_u32()) & mask;
                if value <= max {
                    return value;
                }
            }
        }
        loop {
            let value = self.bitgen.next_u64() & mask;
            if value <= max {
                return value;
            }
        }
    }

    /// `shuffle(items)` for a one-dimensional array: Fisher-Yates from the end down to index 1.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.random_interval(i as u64) as usize;
            items.swap(i, j);
        }
    }

    /// `permutation(n)`: `0..n` shuffled.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        self.shuffle(&mut order);
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values numpy 2.x gives (`np.random.default_rng(42)`, the calls in order): the crate checks
    /// itself without Python; tests/core/test_rng.py compares long streams against numpy itself.
    #[test]
    fn known_answers_from_numpy() {
        let mut rng = Generator::from_int(42);
        let state = rng.bit_generator().state();
        assert_eq!(
            state.state,
            274_674_114_334_540_486_603_088_602_300_644_985_544
        );
        assert_eq!(
            state.inc,
            332_724_090_758_049_132_448_979_897_138_935_081_983
        );
        assert_eq!(
            rng.integers_vec(0, 6, 16),
            vec![0, 4, 3, 2, 2, 5, 0, 4, 1, 0, 3, 5, 4, 4, 4, 4]
        );
        let coins: Vec<i64> = (0..8).map(|_| rng.integers(0, 2)).collect();
        assert_eq!(coins, vec![1, 0, 1, 0, 1, 0, 0, 1]);
        assert_eq!(rng.integers_closed(0, i64::MAX), 5_938_607_544_058_144_515);
        assert_eq!(
            rng.integers_vec(0, 1 << 62, 3),
            vec![
                3_794_318_228_419_848_237,
                2_044_887_061_104_185_224,
                1_047_953_636_100_166_734
            ]
        );
        assert_eq!(rng.permutation(10), vec![6, 9, 1, 5, 4, 0, 8, 7, 3, 2]);
        assert_eq!(rng.random(), 0.354_525_968_129_868_36);
        let after = rng.bit_generator().state();
        assert_eq!(
            after.state,
            182_147_428_886_663_489_803_273_315_995_069_808_790
        );
        assert!(!after.has_uint32);
        assert_eq!(after.uinteger, 3_255_962_051);
    }

    #[test]
    fn integers_stay_in_range_at_every_width() {
        let mut rng = Generator::from_int(3);
        for &(low, high) in &[
            (0, 1),
            (0, 6),
            (-5, 5),
            (1, 3),
            (0, 1 << 31),
            (0, 1 << 32),
            (0, (1 << 32) + 1),
            (0, 1 << 62),
            (i64::MIN, i64::MAX),
        ] {
            for _ in 0..1000 {
                let x = rng.integers(low, high);
                assert!(low <= x && x < high, "{x} outside [{low}, {high})");
            }
        }
        for _ in 0..1000 {
            let x = rng.integers_closed(i64::MIN, i64::MAX);
            let _ = x; // the full span: every int64 is a possible draw
        }
    }

    #[test]
    fn a_scalar_draw_and_an_array_draw_agree() {
        let mut a = Generator::from_int(11);
        let mut b = a.clone();
        let scalars: Vec<i64> = (0..100).map(|_| a.integers(0, 6)).collect();
        assert_eq!(scalars, b.integers_vec(0, 6, 100));
    }

    #[test]
    fn permutations_are_permutations() {
        let mut rng = Generator::from_int(5);
        for n in 0..40 {
            let mut order = rng.permutation(n);
            order.sort_unstable();
            assert_eq!(order, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn random_interval_covers_its_range() {
        let mut rng = Generator::from_int(8);
        let mut seen = [false; 6];
        for _ in 0..1000 {
            seen[rng.random_interval(5) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.random_interval(0), 0);
    }
}
