//! The tension roll: Arena's start-of-turn phase (krosbalance/rulesets/arena/tension.py, R-A26-R-A29).

use crate::content::Power;
use crate::engine::dice::{ARMOUR, CRITICAL, DODGE, LOCK, turnable};
use crate::engine::events::Event;
use crate::engine::instant::settle;
use crate::engine::rules::Players;
use crate::engine::state::MatchState;
use crate::rulesets::arena::economy::{take_from_reserve, tension_rises};
use crate::rulesets::arena::{Arena, ArenaEvent};

/// Kamas for 0, 1 or 2 dice used for inspiration (R-A28).
pub const REFUND_KAMAS: [i32; 3] = [3, 1, 0];

/// The roller's answer: the faces the dice are turned to and, per die, the uid it inspires or -1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensionChoice {
    pub faces: (u8, u8),
    pub assigned: (i64, i64),
}

/// Every pair of basic faces two raw tension dice may be turned into (R-A13, R-A26).
pub fn tension_options(a: u8, b: u8) -> Vec<(u8, u8)> {
    let mut out = Vec::with_capacity(16);
    for &x in turnable(a) {
        for &y in turnable(b) {
            out.push((x, y));
        }
    }
    out
}

fn face_power(face: u8) -> Power {
    match face {
        CRITICAL => Power::Critical,
        ARMOUR => Power::Armour,
        LOCK => Power::Lock,
        DODGE => Power::Dodge,
        _ => unreachable!("a basic face"),
    }
}

pub fn tension_roll(state: &mut MatchState<Arena>, side: usize, players: &mut Players<Arena>) {
    for i in 0..state.timeline[side].len() {
        let f = state.timeline[side][i];
        state.fighters[f].inspired = 0;
    }
    let raw = (state.dice.roll(), state.dice.roll());
    let options = tension_options(raw.0, raw.1);
    let choice = players[side].choose_tension(state, side, raw, &options);
    assert!(
        options.contains(&choice.faces),
        "tension faces {:?} from {raw:?}",
        choice.faces
    );
    apply_tension(state, side, raw, choice, players);
}

pub fn apply_tension(
    state: &mut MatchState<Arena>,
    side: usize,
    raw: (u8, u8),
    choice: TensionChoice,
    players: &mut Players<Arena>,
) {
    let faces = choice.faces;
    for uid in [choice.assigned.0, choice.assigned.1] {
        if uid != -1 {
            let ok = state.timeline[side]
                .iter()
                .any(|&f| f as i64 == uid && state.fighters[f].alive);
            assert!(
                ok,
                "tension die given to #{uid}, not a Krosmaster of player {side} in play"
            );
        }
    }
    let double = faces.0 == faces.1;
    if state.full() {
        state.events.push(Event::Ruleset(ArenaEvent::TensionRolled {
            turn: state.turn,
            side,
            raw,
            faces,
            double,
            assigned: choice.assigned,
        }));
    }
    if double {
        if state.n_seats == 2 {
            tension_rises(state);
        } else {
            crate::rulesets::arena::four_player::tension_double(state, side, players);
        }
        if settle(state, players) {
            return;
        }
    }
    for (face, uid) in [(faces.0, choice.assigned.0), (faces.1, choice.assigned.1)] {
        if uid != -1 {
            state.fighters[uid as usize].inspired |= face_power(face).bit();
        }
    }
    let used = [choice.assigned.0, choice.assigned.1]
        .iter()
        .filter(|&&u| u != -1)
        .count();
    take_from_reserve(state, side, REFUND_KAMAS[used]);
}
