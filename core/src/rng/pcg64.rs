//! numpy's `PCG64` bit generator: a 128-bit LCG with the XSL-RR output, and its 32-bit buffer.
//!
//! Three details decide identity with numpy. The state advances *before* each output (the output
//! is taken from the new state). Seeding takes four 64-bit words from the seed sequence: the first
//! two are the initial state (high word first), the last two the stream increment, and runs PCG's
//! `srandom` (state 0, step, add the initial state, step). And a 32-bit draw uses the low half of a
//! fresh 64-bit output and keeps the high half for the next 32-bit draw; that buffer belongs to the
//! bit generator, so it carries over between calls of different draw methods.

use super::seed_sequence::SeedSequence;

/// PCG's default 128-bit multiplier.
const MULTIPLIER: u128 = (2_549_297_995_355_413_924_u128 << 64) | 4_865_540_595_714_422_341_u128;

/// The state numpy reports as `bit_generator.state`: LCG state and increment, and the 32-bit buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pcg64State {
    pub state: u128,
    pub inc: u128,
    pub has_uint32: bool,
    pub uinteger: u32,
}

/// The PCG64 (XSL-RR 128/64) generator with numpy's seeding and 32-bit buffering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    inc: u128,
    has_uint32: bool,
    uinteger: u32,
}

impl Pcg64 {
    /// PCG's `srandom(initstate, initseq)`.
    pub fn new(initstate: u128, initseq: u128) -> Self {
        let mut rng = Pcg64 {
            state: 0,
            inc: (initseq << 1) | 1,
            has_uint32: false,
            uinteger: 0,
        };
        rng.step();
        rng.state = rng.state.wrapping_add(initstate);
        rng.step();
        rng
    }

    /// Seeded as numpy seeds `PCG64(seed_sequence)`.
    pub fn from_seed_sequence(seq: &SeedSequence) -> Self {
        let words = seq.generate_state_u64(4);
        let initstate = (u128::from(words[0]) << 64) | u128::from(words[1]);
        let initseq = (u128::from(words[2]) << 64) | u128::from(words[3]);
        Self::new(initstate, initseq)
    }

    /// A generator in exactly the given state (numpy's `bit_generator.state = ...`).
    pub fn from_state(state: Pcg64State) -> Self {
        Pcg64 {
            state: state.state,
            inc: state.inc,
            has_uint32: state.has_uint32,
            uinteger: state.uinteger,
        }
    }

    /// The current state, buffer included.
    pub fn state(&self) -> Pcg64State {
        Pcg64State {
            state: self.state,
            inc: self.inc,
            has_uint32: self.has_uint32,
            uinteger: self.uinteger,
        }
    }

    fn step(&mut self) {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
    }

    /// The next 64-bit output.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let xored = ((self.state >> 64) as u64) ^ (self.state as u64);
        xored.rotate_right((self.state >> 122) as u32)
    }

    /// The next 32-bit output: the buffered high half if there is one, else the low half of a
    /// fresh 64-bit output (whose high half is buffered).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.has_uint32 {
            self.has_uint32 = false;
            return self.uinteger;
        }
        let next = self.next_u64();
        self.has_uint32 = true;
        self.uinteger = (next >> 32) as u32;
        next as u32
    }

    /// A double in [0, 1) from the top 53 bits of a 64-bit output (the buffer is untouched).
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_32_bit_draw_buffers_the_high_half() {
        let mut a = Pcg64::new(12345, 678);
        let mut b = a.clone();
        let wide = b.next_u64();
        assert_eq!(a.next_u32(), wide as u32);
        assert_eq!(a.next_u32(), (wide >> 32) as u32);
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn doubles_lie_in_the_unit_interval() {
        let mut rng = Pcg64::new(1, 2);
        assert!(
            (0..10_000)
                .map(|_| rng.next_f64())
                .all(|x| (0.0..1.0).contains(&x))
        );
    }

    #[test]
    fn state_round_trips() {
        let mut rng = Pcg64::new(99, 100);
        rng.next_u32();
        let mut copy = Pcg64::from_state(rng.state());
        assert_eq!(copy.next_u32(), rng.next_u32());
        assert_eq!(copy.next_u64(), rng.next_u64());
    }
}
