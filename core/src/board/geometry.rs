//! Grid geometry: distances, adjacency, the cells around a cell, rings and directions
//! (R-A5, R-A6, R-A88), as krosbalance/board/geometry.py computes them.

/// Orthogonal unit steps in the order the neighbour tables use: N, E, S, W (y grows downward).
pub const ORTHOGONAL: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The eight steps around a cell, row by row (Square areas, bomb explosions; R-A99).
pub const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A unit step along one axis.
pub type Direction = (i32, i32);

/// The unit step along the dominant axis of the offset `(dx, dy)`, or `None` on an exact diagonal
/// or for no offset (R-A88 gap: the reference's reading, see `dominant_direction`).
pub fn dominant_direction(dx: i32, dy: i32) -> Option<Direction> {
    let (adx, ady) = (dx.abs(), dy.abs());
    if adx == ady {
        None
    } else if adx > ady {
        Some((dx.signum(), 0))
    } else {
        Some((0, dy.signum()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dominant_axis_wins_and_diagonals_have_none() {
        assert_eq!(dominant_direction(3, 1), Some((1, 0)));
        assert_eq!(dominant_direction(-1, -4), Some((0, -1)));
        assert_eq!(dominant_direction(2, -2), None);
        assert_eq!(dominant_direction(0, 0), None);
    }
}
