//! Walking (R-A40-R-A47) and special movement (krosbalance/engine/movement.py).

use crate::board::Cell;
use crate::engine::events::Event;
use crate::engine::pieces::relocate;
use crate::engine::rules::MatchRules;
use crate::engine::state::MatchState;

/// Spend 1 MP to step to an adjacent free cell, if the ruleset lets the mover leave its cell.
pub fn walk<R: MatchRules>(state: &mut MatchState<R>, mover: usize, destination: Cell) -> bool {
    state.fighters[mover].mp -= 1;
    if !R::may_leave(state, mover) {
        return false;
    }
    let origin = state.fighters[mover].cell;
    relocate(state, mover, destination);
    state.fighters[mover].stats.moves += 1;
    if state.full() {
        state.events.push(Event::Moved {
            turn: state.turn,
            uid: mover,
            origin,
            destination: i32::from(destination),
            how: "walk",
        });
    }
    if state.traps.contains(destination) {
        crate::engine::combat::trigger_trap(state, destination); // R-A116
    }
    true
}

/// Move a piece up to `cells` in a straight line, stopping before an obstacle or the edge (R-A87).
pub fn slide<R: MatchRules>(
    state: &mut MatchState<R>,
    piece: usize,
    dx: i32,
    dy: i32,
    cells: i32,
    how: &'static str,
) -> bool {
    let origin = state.fighters[piece].at();
    let mut cell = origin;
    for _ in 0..cells {
        match state.board.step(cell, dx, dy) {
            Some(next) if !state.obstacles.contains(next) => cell = next,
            _ => break,
        }
    }
    if cell == origin {
        return false;
    }
    relocate(state, piece, cell);
    if state.full() {
        state.events.push(Event::Moved {
            turn: state.turn,
            uid: piece,
            origin: i32::from(origin),
            destination: i32::from(cell),
            how,
        });
    }
    true
}
