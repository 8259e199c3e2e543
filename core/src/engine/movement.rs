//! Walking (R-A40-R-A47) and special movement (krosbalance/engine/movement.py).

use crate::board::{Cell, CellSet};
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
    if R::enter_cells(state).contains(destination) {
        R::on_enter(state, mover, origin as Cell, destination, "walk");
    }
    true
}

/// Move a piece up to `cells` in a straight line, stopping before an obstacle or the edge (R-A87).
/// When the path crosses cells of `enter_cells` the piece moves cell by cell and the ruleset's
/// `on_enter` runs for each such cell entered (stopping if it moved the piece elsewhere or took it
/// off the board).
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
    let mut path = CellSet::default();
    for _ in 0..cells {
        match state.board.step(cell, dx, dy) {
            Some(next) if !state.obstacles.contains(next) => {
                cell = next;
                path.insert(next);
            }
            _ => break,
        }
    }
    if cell == origin {
        return false;
    }
    let enter = R::enter_cells(state);
    if path.intersects(enter) {
        slide_through(state, piece, (dx, dy), origin, cell, how);
        return true;
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

/// A slide that crosses cells of `enter_cells`: cell by cell, `on_enter` at each such cell.
fn slide_through<R: MatchRules>(
    state: &mut MatchState<R>,
    piece: usize,
    (dx, dy): (i32, i32),
    origin: Cell,
    end: Cell,
    how: &'static str,
) {
    let mut here = origin;
    while here != end {
        let next = state.board.step(here, dx, dy).expect("on the path");
        if state.obstacles.contains(next) {
            break; // an on_enter effect put something in the way
        }
        relocate(state, piece, next);
        if state.full() {
            state.events.push(Event::Moved {
                turn: state.turn,
                uid: piece,
                origin: i32::from(here),
                destination: i32::from(next),
                how,
            });
        }
        if R::enter_cells(state).contains(next) {
            R::on_enter(state, piece, here, next, how);
            let p = &state.fighters[piece];
            if p.cell != i32::from(next) || !p.alive {
                break;
            }
        }
        here = next;
    }
}
