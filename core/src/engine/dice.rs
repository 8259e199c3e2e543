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

/// The reference's `SeededDice` (blocks of `integers(0, 6, size=512)`, popped from the end), or a
/// search copy's `ReplayDice` (ai/rollout.py: a pre-drawn list of raw faces read from the start,
/// cycling, so every candidate a search tries meets the same luck).
#[derive(Clone, Debug)]
pub struct Dice {
    rng: Option<Generator>,
    buffer: Vec<u8>,
    faces: std::sync::Arc<[u8]>,
    next: usize,
}

impl Dice {
    pub fn new(rng: Generator) -> Self {
        Dice {
            rng: Some(rng),
            buffer: Vec::new(),
            faces: std::sync::Arc::new([]),
            next: 0,
        }
    }

    /// `ReplayDice(faces)`: the faces in order, cycling (not empty).
    pub fn replay(faces: std::sync::Arc<[u8]>) -> Self {
        assert!(!faces.is_empty(), "replay dice need faces");
        Dice {
            rng: None,
            buffer: Vec::new(),
            faces,
            next: 0,
        }
    }

    /// `ReplayDice.position`: how many faces have been read so far (0 for seeded dice).
    pub fn position(&self) -> usize {
        self.next
    }

    #[inline]
    pub fn roll(&mut self) -> u8 {
        let Some(rng) = self.rng.as_mut() else {
            let face = self.faces[self.next % self.faces.len()];
            self.next += 1;
            return face;
        };
        if self.buffer.is_empty() {
            self.buffer = rng
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

#[cfg(test)]
mod tests {
    use super::Dice;

    #[test]
    fn replay_dice_read_their_faces_in_order_and_cycle() {
        let mut dice = Dice::replay(vec![5u8, 0, 3].into());
        let rolled: Vec<u8> = (0..7).map(|_| dice.roll()).collect();
        assert_eq!(rolled, vec![5, 0, 3, 5, 0, 3, 5]);
        assert_eq!(dice.position(), 7);
        let copy = dice.clone();
        assert_eq!((copy.position(), dice.roll()), (7, 0));
    }
}
