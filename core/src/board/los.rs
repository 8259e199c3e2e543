//! Exact line-of-sight tracing (R-A78, R-A119-R-A121), as krosbalance/board/los.py traces it.
//!
//! A cell `(x, y)` is the unit square `[x, x+1] x [y, y+1]`. In doubled coordinates the centres
//! are odd integers and the grid lines even ones; the segment between two centres is parametrised
//! by `t = num / den` with one integer denominator, so no floating point is involved. Between two
//! consecutive grid-line crossings the segment lies inside exactly one cell; a `t` where a
//! vertical and a horizontal crossing coincide is a corner the segment passes exactly through.
//! Only a cell's interior blocks, so corners never block unless the strict option asks.

/// A cell offset `(dx, dy)` from the start of a segment.
pub type Offset = (i32, i32);

/// The trace of the segment from the centre of `(0, 0)` to the centre of `(dx, dy)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// Cells whose interior the segment crosses, start and end excluded, in order along it.
    pub crossed: Vec<Offset>,
    /// For each corner the segment passes exactly through, the two cells beside it there.
    pub squeezes: Vec<(Offset, Offset)>,
}

/// Trace the segment from the centre of cell `(0, 0)` to the centre of cell `(dx, dy)`.
pub fn trace_offset(dx: i32, dy: i32) -> Trace {
    let (sx, sy) = (dx.signum(), dy.signum());
    if dx == 0 || dy == 0 {
        // Straight lines run along centre coordinates and never touch a grid line or corner.
        let length = dx.abs() + dy.abs();
        return Trace {
            crossed: (1..length).map(|i| (sx * i, sy * i)).collect(),
            squeezes: Vec::new(),
        };
    }
    let (dx, dy) = (i64::from(dx), i64::from(dy));
    let (adx, ady) = (dx.abs(), dy.abs());
    let (sx, sy) = (i64::from(sx), i64::from(sy));
    let den = 4 * adx * ady;
    // Grid line X = 2k is crossed at t = (2k - 1) / (2 dx) for each k strictly between the centres:
    // k = 1..=dx going right, k = 0, -1, ..., dx + 1 going left (and the same for rows).
    let lines = |d: i64, s: i64, scale: i64| -> Vec<i64> {
        let ks: Vec<i64> = if d > 0 {
            (1..=d).collect()
        } else {
            (d + 1..=0).rev().collect()
        };
        let mut ts: Vec<i64> = ks.iter().map(|k| (2 * k - 1) * s * 2 * scale).collect();
        ts.sort_unstable();
        ts
    };
    let vertical = lines(dx, sx, ady);
    let horizontal = lines(dy, sy, adx);

    let mut stops: Vec<i64> = vertical.iter().chain(horizontal.iter()).copied().collect();
    stops.sort_unstable();
    stops.dedup();
    stops.insert(0, 0);
    stops.push(den);

    let mut crossed = Vec::new();
    for pair in stops.windows(2) {
        let sum = pair[0] + pair[1];
        // the midpoint of the piece, X = 1 + 2 dx (t1 + t2) / (2 den), in cell units X // 2
        let cx = (2 * den + 2 * dx * sum).div_euclid(4 * den);
        let cy = (2 * den + 2 * dy * sum).div_euclid(4 * den);
        if (cx, cy) != (0, 0) && (cx, cy) != (dx, dy) {
            crossed.push((cx as i32, cy as i32));
        }
    }

    let mut squeezes = Vec::new();
    for &t in vertical
        .iter()
        .filter(|t| horizontal.binary_search(t).is_ok())
    {
        let gx = ((den + 2 * dx * t).div_euclid(2 * den)) as i32;
        let gy = ((den + 2 * dy * t).div_euclid(2 * den)) as i32;
        if sx == sy {
            squeezes.push(((gx, gy - 1), (gx - 1, gy)));
        } else {
            squeezes.push(((gx - 1, gy - 1), (gx, gy)));
        }
    }
    Trace { crossed, squeezes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_lines_cross_the_cells_between() {
        assert_eq!(trace_offset(3, 0).crossed, vec![(1, 0), (2, 0)]);
        assert_eq!(trace_offset(0, -2).crossed, vec![(0, -1)]);
        assert_eq!(trace_offset(1, 0), Trace::default());
    }

    #[test]
    fn an_exact_diagonal_squeezes_through_every_corner() {
        let trace = trace_offset(2, 2);
        assert_eq!(trace.crossed, vec![(1, 1)]);
        assert_eq!(trace.squeezes, vec![((1, 0), (0, 1)), ((2, 1), (1, 2))]);
        let back = trace_offset(-1, 1);
        assert!(back.crossed.is_empty());
        assert_eq!(back.squeezes, vec![((-1, 0), (0, 1))]);
    }

    #[test]
    fn a_knight_move_crosses_two_cells() {
        assert_eq!(trace_offset(2, 1).crossed, vec![(1, 0), (1, 1)]);
    }

    #[test]
    fn traces_are_symmetric() {
        for dx in -6..=6 {
            for dy in -6..=6 {
                let mut forward: Vec<Offset> = trace_offset(dx, dy).crossed;
                let mut back: Vec<Offset> = trace_offset(-dx, -dy)
                    .crossed
                    .iter()
                    .map(|(x, y)| (x + dx, y + dy))
                    .collect();
                forward.sort_unstable();
                back.sort_unstable();
                assert_eq!(forward, back, "({dx}, {dy})");
            }
        }
    }
}
