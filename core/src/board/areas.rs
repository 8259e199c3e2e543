//! Area-of-effect shapes (R-A97-R-A99), as krosbalance/board/areas.py reads them: the main target
//! first, then the extra cells in a fixed order, clipped to the board. Direction-dependent shapes
//! fall back to Cross when the caster has no dominant direction toward the target.

use super::Board;
use super::cellset::{Cell, CellSet};
use super::geometry::{AROUND, ORTHOGONAL};

/// The shapes, named as `content.specs.AREAS` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AreaShape {
    Single,
    Square,
    Cross,
    Hammer,
    Staff,
    Shovel,
    Axe,
    Needle,
}

impl AreaShape {
    /// Every shape, in the reference's registry order.
    pub const ALL: [AreaShape; 8] = [
        AreaShape::Single,
        AreaShape::Square,
        AreaShape::Cross,
        AreaShape::Hammer,
        AreaShape::Staff,
        AreaShape::Shovel,
        AreaShape::Axe,
        AreaShape::Needle,
    ];

    /// The shape's name in the content files.
    pub fn name(self) -> &'static str {
        match self {
            AreaShape::Single => "single",
            AreaShape::Square => "square",
            AreaShape::Cross => "cross",
            AreaShape::Hammer => "hammer",
            AreaShape::Staff => "staff",
            AreaShape::Shovel => "shovel",
            AreaShape::Axe => "axe",
            AreaShape::Needle => "needle",
        }
    }

    /// The shape of a name, or `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<AreaShape> {
        AreaShape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The offsets from the target for a caster whose dominant direction toward it is `(dx, dy)`.
    fn directional(self, dx: i32, dy: i32) -> Vec<(i32, i32)> {
        match self {
            // T plus its orthogonal neighbours except the one toward the caster (assumed)
            AreaShape::Hammer => vec![(dx, dy), (-dy, dx), (dy, -dx)],
            // T plus the two cells beside it, across the line of attack (assumed)
            AreaShape::Staff => vec![(-dy, dx), (dy, -dx)],
            // T plus the cell behind it (assumed)
            AreaShape::Shovel => vec![(dx, dy)],
            // Duel Pack: T plus the cell behind and the caster's right-hand side (assumed)
            AreaShape::Axe => vec![(dx, dy), (-dy, dx)],
            // Duel Pack: T plus two cells continuing in line (assumed)
            AreaShape::Needle => vec![(dx, dy), (2 * dx, 2 * dy)],
            AreaShape::Single | AreaShape::Square | AreaShape::Cross => Vec::new(),
        }
    }
}

/// The target, then the on-board cells at the given offsets from it.
fn cells_at(board: &Board, target: Cell, offsets: &[(i32, i32)]) -> Vec<Cell> {
    let mut out = Vec::with_capacity(offsets.len() + 1);
    out.push(target);
    out.extend(
        offsets
            .iter()
            .filter_map(|&(dx, dy)| board.step(target, dx, dy)),
    );
    out
}

/// The cells an area spell hits: the main target first, then the extra cells, clipped to the board.
pub fn area_cells(board: &Board, shape: AreaShape, caster: Cell, target: Cell) -> Vec<Cell> {
    match shape {
        AreaShape::Single => vec![target],
        AreaShape::Square => cells_at(board, target, &AROUND),
        AreaShape::Cross => cells_at(board, target, &ORTHOGONAL),
        _ => match board.direction(caster, target) {
            None => cells_at(board, target, &ORTHOGONAL),
            Some((dx, dy)) => cells_at(board, target, &shape.directional(dx, dy)),
        },
    }
}

/// [`area_cells`] as a set, for ANDing with occupancy.
pub fn area_mask(board: &Board, shape: AreaShape, caster: Cell, target: Cell) -> CellSet {
    area_cells(board, shape, caster, target)
        .into_iter()
        .collect()
}
