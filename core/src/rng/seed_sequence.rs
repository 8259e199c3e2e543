//! numpy's `SeedSequence`: entropy hashed into a pool of four 32-bit words, children by spawn key.
//!
//! The reference derives every stream of a match from `SeedSequence(seed).spawn(...)` (play.py's
//! `match_streams`, sim/seeding.py's deal seeds), so the core must hash entropy exactly as numpy
//! does: the same run entropy and spawn key give the same pool, the same `generate_state` words and
//! so the same PCG64 state. All arithmetic is on `u32` with wrapping, as numpy's Cython is.

/// Words in the entropy pool (numpy's `DEFAULT_POOL_SIZE`; the reference never changes it).
pub const POOL_SIZE: usize = 4;

const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;

/// A non-negative integer as numpy coerces it: 32-bit words, lowest first, and `[0]` for zero.
pub fn int_words(mut n: u128) -> Vec<u32> {
    if n == 0 {
        return vec![0];
    }
    let mut words = Vec::new();
    while n > 0 {
        words.push(n as u32);
        n >>= 32;
    }
    words
}

/// The hash numpy applies to each word, advancing the running multiplier it carries.
fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut value = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    value = value.wrapping_mul(*hash_const);
    value ^ (value >> XSHIFT)
}

/// numpy's two-word mix.
fn mix(x: u32, y: u32) -> u32 {
    let result = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    result ^ (result >> XSHIFT)
}

/// A seed sequence: run entropy plus a spawn key, hashed once into [`POOL_SIZE`] words.
///
/// `spawn` hands out children `spawn_key + (i,)` for consecutive `i`, counting across calls as
/// numpy's does; [`SeedSequence::child`] builds child `i` directly (numpy's
/// `SeedSequence(entropy, spawn_key=key + (i,))`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedSequence {
    entropy: Vec<u32>,
    spawn_key: Vec<u64>,
    n_children_spawned: u64,
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    /// The sequence of run entropy `entropy` (already as 32-bit words, see [`int_words`]) and
    /// spawn key `spawn_key`.
    pub fn new(entropy: Vec<u32>, spawn_key: Vec<u64>) -> Self {
        let pool = mix_entropy(&assembled_entropy(&entropy, &spawn_key));
        SeedSequence {
            entropy,
            spawn_key,
            n_children_spawned: 0,
            pool,
        }
    }

    /// `SeedSequence(seed)` for an integer seed, as `np.random.default_rng(seed)` builds it.
    pub fn from_int(seed: u128) -> Self {
        Self::new(int_words(seed), Vec::new())
    }

    /// The run entropy as 32-bit words, lowest first.
    pub fn entropy(&self) -> &[u32] {
        &self.entropy
    }

    /// The spawn key (empty for a root sequence).
    pub fn spawn_key(&self) -> &[u64] {
        &self.spawn_key
    }

    /// How many children [`SeedSequence::spawn`] has handed out.
    pub fn n_children_spawned(&self) -> u64 {
        self.n_children_spawned
    }

    /// The hashed entropy pool.
    pub fn pool(&self) -> [u32; POOL_SIZE] {
        self.pool
    }

    /// Child `index`: the same entropy, the spawn key extended by `index`.
    pub fn child(&self, index: u64) -> Self {
        let mut key = self.spawn_key.clone();
        key.push(index);
        Self::new(self.entropy.clone(), key)
    }

    /// The next `n` children (numpy's `spawn(n)`: indices continue where the last call stopped).
    pub fn spawn(&mut self, n: u64) -> Vec<Self> {
        let first = self.n_children_spawned;
        self.n_children_spawned += n;
        (first..first + n).map(|i| self.child(i)).collect()
    }

    /// `n` 32-bit words of state (numpy's `generate_state(n, np.uint32)`).
    pub fn generate_state_u32(&self, n: usize) -> Vec<u32> {
        let mut hash_const = INIT_B;
        self.pool
            .iter()
            .cycle()
            .take(n)
            .map(|&word| {
                let mut value = word ^ hash_const;
                hash_const = hash_const.wrapping_mul(MULT_B);
                value = value.wrapping_mul(hash_const);
                value ^ (value >> XSHIFT)
            })
            .collect()
    }

    /// `n` 64-bit words of state (numpy's `generate_state(n, np.uint64)`): `2n` 32-bit words read
    /// as little-endian pairs, the lower word first.
    pub fn generate_state_u64(&self, n: usize) -> Vec<u64> {
        self.generate_state_u32(2 * n)
            .chunks_exact(2)
            .map(|pair| u64::from(pair[0]) | (u64::from(pair[1]) << 32))
            .collect()
    }
}

/// Run entropy then spawn key as one word array. With a spawn key, short run entropy is padded
/// with zeros to the pool size first (numpy >= 1.19, so a child never collides with a root
/// sequence whose entropy happens to spell the same words).
fn assembled_entropy(entropy: &[u32], spawn_key: &[u64]) -> Vec<u32> {
    let mut words = entropy.to_vec();
    if !spawn_key.is_empty() && words.len() < POOL_SIZE {
        words.resize(POOL_SIZE, 0);
    }
    for &key in spawn_key {
        words.extend(int_words(u128::from(key)));
    }
    words
}

/// Hash the entropy words into the pool: fill, mix every word into every other, then fold in the
/// words beyond the pool. The pool is updated in place, so later hashes see earlier results.
fn mix_entropy(entropy: &[u32]) -> [u32; POOL_SIZE] {
    let mut hash_const = INIT_A;
    let mut pool = [0u32; POOL_SIZE];
    for (i, slot) in pool.iter_mut().enumerate() {
        let word = entropy.get(i).copied().unwrap_or(0);
        *slot = hashmix(word, &mut hash_const);
    }
    for src in 0..POOL_SIZE {
        for dst in 0..POOL_SIZE {
            if src != dst {
                let hashed = hashmix(pool[src], &mut hash_const);
                pool[dst] = mix(pool[dst], hashed);
            }
        }
    }
    for &word in entropy.iter().skip(POOL_SIZE) {
        for slot in pool.iter_mut() {
            let hashed = hashmix(word, &mut hash_const);
            *slot = mix(*slot, hashed);
        }
    }
    pool
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words numpy 2.x gives for the same sequences.
    #[test]
    fn known_answers_from_numpy() {
        assert_eq!(
            SeedSequence::from_int(0).generate_state_u32(4),
            vec![2_968_811_710, 3_677_149_159, 745_650_761, 2_884_920_346]
        );
        assert_eq!(
            SeedSequence::new(int_words(12345), vec![4, 1]).generate_state_u64(2),
            vec![16_300_720_043_005_411_347, 13_433_235_639_623_888_405]
        );
    }

    #[test]
    fn int_words_are_lowest_first_and_zero_is_one_word() {
        assert_eq!(int_words(0), vec![0]);
        assert_eq!(int_words(12345), vec![12345]);
        assert_eq!(int_words(0x10_dead_beef), vec![0xdead_beef, 0x10]);
    }

    #[test]
    fn spawn_counts_across_calls_and_matches_child() {
        let mut root = SeedSequence::from_int(42);
        let first = root.spawn(2);
        let second = root.spawn(3);
        assert_eq!(root.n_children_spawned(), 5);
        assert_eq!(first[1], root.child(1));
        assert_eq!(second[0].spawn_key(), &[2]);
        assert_eq!(
            second[2].generate_state_u32(4),
            root.child(4).generate_state_u32(4)
        );
    }

    #[test]
    fn a_spawned_child_differs_from_a_root_with_the_same_words() {
        // the zero padding keeps SeedSequence(1, spawn_key=(2,)) apart from SeedSequence([1, 2])
        let child = SeedSequence::new(vec![1], vec![2]);
        let root = SeedSequence::new(vec![1, 2], Vec::new());
        assert_ne!(child.pool(), root.pool());
    }

    #[test]
    fn u64_state_is_the_u32_state_paired_little_endian() {
        let seq = SeedSequence::from_int(7);
        let small = seq.generate_state_u32(8);
        let wide = seq.generate_state_u64(4);
        for (i, w) in wide.iter().enumerate() {
            assert_eq!(*w as u32, small[2 * i]);
            assert_eq!((*w >> 32) as u32, small[2 * i + 1]);
        }
    }
}
