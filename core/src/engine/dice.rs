//! Krosmaster dice (krosbalance/engine/dice.py): raw faces 0-5, wild faces turned by the roller.

use crate::rng::Generator;

pub const CRITICAL: u8 = 0;
pub const ARMOUR: u8 = 1;
pub const LOCK: u8 = 2;
pub const DODGE: u8 = 3;
pub const CRIT_DODGE: u8 = 4;
pub const DOFUS: u8 = 5;

/// Whether a raw face is a success in a roll of `kind` (`SUCCESS_FACES`).
#[inline]
pub fn is_success(kind: u8, face: u8) -> bool {
    match kind {
        CRITICAL => matches!(face, CRITICAL | CRIT_DODGE | DOFUS),
        ARMOUR => matches!(face, ARMOUR | DOFUS),
        LOCK => matches!(face, LOCK | DOFUS),
        _ => matches!(face, DODGE | CRIT_DODGE | DOFUS),
    }
}

/// The basic faces a raw face may be turned into (`TURNABLE`, R-A13).
pub fn turnable(face: u8) -> &'static [u8] {
    match face {
        CRITICAL => &[CRITICAL],
        ARMOUR => &[ARMOUR],
        LOCK => &[LOCK],
        DODGE => &[DODGE],
        CRIT_DODGE => &[CRITICAL, DODGE],
        _ => &[CRITICAL, ARMOUR, LOCK, DODGE],
    }
}

/// The reference's `SeededDice`: blocks of `integers(0, 6, size=512)`, popped from the end.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: Generator,
    buffer: Vec<u8>,
}

impl Dice {
    pub fn new(rng: Generator) -> Self {
        Dice {
            rng,
            buffer: Vec::new(),
        }
    }

    #[inline]
    pub fn roll(&mut self) -> u8 {
        if self.buffer.is_empty() {
            self.buffer = self
                .rng
                .integers_vec(0, 6, 512)
                .into_iter()
                .map(|v| v as u8)
                .collect();
        }
        self.buffer.pop().expect("a refilled buffer")
    }

    /// Roll `n` dice for a roll of `kind`: (successes, raw faces) (`count_successes`).
    pub fn count_successes(&mut self, n: i32, kind: u8) -> (i32, Vec<u8>) {
        let faces: Vec<u8> = (0..n).map(|_| self.roll()).collect();
        let successes = faces.iter().filter(|&&f| is_success(kind, f)).count() as i32;
        (successes, faces)
    }
}
