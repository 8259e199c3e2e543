//! GG, kamas and the turn bound's winner (krosbalance/rulesets/arena/economy.py).

use crate::engine::events::Event;
use crate::engine::state::MatchState;
use crate::rulesets::arena::{Arena, ArenaEvent};

/// `side` gains `amount` GG: the wild GG first, then from the `source` player (R-A129): with two
/// players the opponent; with four the KO'd Krosmaster's player (R-A155) or, for a purchase, the
/// leading opponent.
pub fn gain_gg(
    state: &mut MatchState<Arena>,
    side: usize,
    amount: i32,
    credit: Option<usize>,
    source: Option<usize>,
) -> i32 {
    let mut amount = amount;
    let mut gained = 0;
    if amount > 0 && state.rules.wild_gg > 0 {
        state.rules.wild_gg -= 1;
        state.rules.gg[side] += 1;
        gained += 1;
        amount -= 1;
        if state.summary() {
            let gg = state.rules.gg.clone();
            state.events.push(Event::Ruleset(ArenaEvent::GGChanged {
                turn: state.turn,
                side,
                amount: 1,
                origin: "wild",
                gg,
            }));
        }
    }
    let other = match source {
        Some(s) => s,
        None if state.n_seats == 2 => 1 - side,
        None => crate::rulesets::arena::four_player::leading_opponent(state, side),
    };
    let taken = amount.min(state.rules.gg[other]);
    if taken != 0 {
        state.rules.gg[other] -= taken;
        state.rules.gg[side] += taken;
        gained += taken;
        if state.summary() {
            let gg = state.rules.gg.clone();
            state.events.push(Event::Ruleset(ArenaEvent::GGChanged {
                turn: state.turn,
                side,
                amount: taken,
                origin: "opponent",
                gg,
            }));
        }
    }
    if let Some(c) = credit
        && state.fighters[c].side == side
    {
        state.fighters[c].stats.gg_won += i64::from(gained);
    }
    gained
}

/// Each KO'd character with a level gives that many GG to the opponent of its side; the active
/// player gains first (R-A10, R-A130, R-A131).
pub fn gg_for_kos(state: &mut MatchState<Arena>, kos: &[usize]) {
    let active = state.active_side;
    for side in [active, 1 - active] {
        for &victim in kos {
            let v = &state.fighters[victim];
            if v.side != side && v.level > 0 && v.is_character() {
                let (level, by) = (v.level, v.ko_by);
                gain_gg(state, side, level, by, None);
            }
        }
    }
}

/// A tension double: each player loses 1 GG to the box (R-A26).
pub fn tension_rises(state: &mut MatchState<Arena>) {
    state.unsettled = true;
    for side in 0..2 {
        lose_gg(state, side, "tension");
    }
}

pub fn lose_gg(state: &mut MatchState<Arena>, side: usize, why: &'static str) {
    state.unsettled = true;
    if state.rules.gg[side] > 0 {
        state.rules.gg[side] -= 1;
        state.rules.gg_removed += 1;
        if state.summary() {
            let gg = state.rules.gg.clone();
            state.events.push(Event::Ruleset(ArenaEvent::GGChanged {
                turn: state.turn,
                side,
                amount: -1,
                origin: why,
                gg,
            }));
        }
    }
}

/// Kamas from the box reserve to a team's stock, as many as the reserve holds.
pub fn take_from_reserve(state: &mut MatchState<Arena>, side: usize, amount: i32) -> i32 {
    let amount = amount.min(state.rules.kama_reserve);
    state.rules.kama_reserve -= amount;
    state.rules.kamas[side] += amount;
    amount
}

/// 1 AP: one kama from the Krosmaster's cell to the team stock (R-A49).
pub fn pick_kama(state: &mut MatchState<Arena>, uid: usize) {
    let f = &mut state.fighters[uid];
    f.ap -= 1;
    f.stats.kamas_collected += 1;
    let (cell, side) = (f.cell, f.side);
    state.rules.board_kamas[cell as usize] -= 1;
    state.rules.kamas[side] += 1;
    if state.full() {
        state.events.push(Event::Ruleset(ArenaEvent::KamaPicked {
            turn: state.turn,
            uid,
            cell,
            amount: 1,
        }));
    }
}

/// 1 AP and the GG price on a Demon cell: a GG (R-A50).
pub fn buy_gg(state: &mut MatchState<Arena>, uid: usize) {
    let price = state.rules.gg_price;
    let f = &mut state.fighters[uid];
    f.ap -= 1;
    let side = f.side;
    state.rules.kamas[side] -= price;
    state.rules.kama_reserve += price;
    gain_gg(state, side, 1, Some(uid), None);
    state.unsettled = true;
}

/// A destroyed piece of scenery leaves up to `loot` kamas from the reserve (R-A127).
pub fn drop_loot(state: &mut MatchState<Arena>, cell: usize, loot: i32) {
    let loot = loot.min(state.rules.kama_reserve);
    state.rules.kama_reserve -= loot;
    state.rules.board_kamas[cell] += loot;
}

/// The turn bound's winner: a draw, or with `turn_limit_result = "gg"` the player with more GG.
pub fn turn_limit_winner(state: &MatchState<Arena>) -> Option<usize> {
    let gg = &state.rules.gg;
    if state.ruleset.opts.turn_limit_gg && gg[0] != gg[1] {
        return Some(if gg[0] > gg[1] { 0 } else { 1 });
    }
    None
}
