//! Board geometry: cells as small integers, cell sets as bitmasks, distances, adjacency, line of
//! sight precomputed once per board, area shapes. The port of krosbalance/board/.
//!
//! The core never reads a board file: the Python loader parses and validates the TOML, and the
//! core receives the loaded layers as a [`BoardSpec`] (one parser, not two). Building a [`Board`]
//! checks only what the tables need (the size fits a [`CellSet`], every mask lies on the board).

pub mod areas;
pub mod cellset;
pub mod geometry;
pub mod los;

pub use areas::{AreaShape, area_cells, area_mask};
pub use cellset::{Cell, CellSet, MAX_CELLS};
pub use geometry::Direction;

use geometry::{AROUND, ORTHOGONAL, dominant_direction};
use los::trace_offset;

/// Most deployment zones a board has (four-player Arena, R-A156).
pub const MAX_ZONES: usize = 4;

/// A board's layers as the Python loader hands them over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardSpec {
    pub id: String,
    pub width: usize,
    pub height: usize,
    /// Obstacles that block line of sight (R-A7, R-A119).
    pub trees: CellSet,
    /// Obstacles that do not block line of sight (R-A120).
    pub bushes: CellSet,
    /// Free cells with a crate (R-A121).
    pub crates: CellSet,
    /// Demon (shop) cells (R-A50).
    pub demon_cells: CellSet,
    /// Kama cells and their printed tokens, in increasing cell order.
    pub kama_cells: Vec<(Cell, u8)>,
    /// One deployment mask per zone: 2 to [`MAX_ZONES`].
    pub deploy: Vec<CellSet>,
    /// Named extra masks of later rulesets, sorted by name.
    pub features: Vec<(String, CellSet)>,
}

/// Why a [`BoardSpec`] cannot be built into a [`Board`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    pub field: String,
    pub reason: String,
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for BoardError {}

fn error(field: &str, reason: String) -> BoardError {
    BoardError {
        field: field.to_string(),
        reason,
    }
}

/// A board with every geometry table precomputed: a query is one index, a line-of-sight test one
/// AND against a precomputed mask.
#[derive(Clone, Debug)]
pub struct Board {
    spec: BoardSpec,
    n_cells: usize,
    all_cells: CellSet,
    xs: Vec<i32>,
    ys: Vec<i32>,
    /// `distance[a * n + b]`: Manhattan distance (R-A6).
    distance: Vec<u8>,
    /// Orthogonal neighbours, N/E/S/W order (R-A5).
    neighbours: Vec<Vec<Cell>>,
    neighbour_mask: Vec<CellSet>,
    /// The up-to-8 cells around each cell.
    square_mask: Vec<CellSet>,
    /// `rings[c][d]`: cells at exact distance `d` from `c`, d = 0 ..= width + height.
    rings: Vec<Vec<Vec<Cell>>>,
    /// `los_path[a * n + b]`: the cells whose interior the segment a->b crosses (R-A78).
    los_path: Vec<CellSet>,
    /// `los_corners[a * n + b]`: two-cell masks of the corners the segment squeezes through.
    los_corners: Vec<Vec<CellSet>>,
}

impl Board {
    /// Check the spec and build every table.
    pub fn new(spec: BoardSpec) -> Result<Board, BoardError> {
        let (width, height) = (spec.width, spec.height);
        if width < 1 || height < 1 {
            return Err(error(
                "size",
                format!("a board needs at least one cell, got {width}x{height}"),
            ));
        }
        let n = width * height;
        if n > MAX_CELLS {
            return Err(error(
                "size",
                format!("{width}x{height} is more than the core's {MAX_CELLS} cells"),
            ));
        }
        if !(2..=MAX_ZONES).contains(&spec.deploy.len()) {
            return Err(error(
                "deploy",
                format!(
                    "a board has 2 to {MAX_ZONES} deployment zones, got {}",
                    spec.deploy.len()
                ),
            ));
        }
        let all_cells = CellSet::below(n);
        let mut masks: Vec<(String, CellSet)> = vec![
            ("trees".into(), spec.trees),
            ("bushes".into(), spec.bushes),
            ("crates".into(), spec.crates),
            ("demon_cells".into(), spec.demon_cells),
        ];
        masks.extend(
            spec.deploy
                .iter()
                .enumerate()
                .map(|(i, m)| (format!("deploy[{i}]"), *m)),
        );
        masks.extend(
            spec.features
                .iter()
                .map(|(k, m)| (format!("features.{k}"), *m)),
        );
        masks.push((
            "kama_cells".into(),
            spec.kama_cells.iter().map(|&(c, _)| c).collect(),
        ));
        for (field, mask) in &masks {
            if !mask.is_subset(all_cells) {
                return Err(error(field, "mask has cells outside the board".into()));
            }
        }

        let xs: Vec<i32> = (0..n).map(|c| (c % width) as i32).collect();
        let ys: Vec<i32> = (0..n).map(|c| (c / width) as i32).collect();
        let mut board = Board {
            spec,
            n_cells: n,
            all_cells,
            xs,
            ys,
            distance: Vec::new(),
            neighbours: Vec::new(),
            neighbour_mask: Vec::new(),
            square_mask: Vec::new(),
            rings: Vec::new(),
            los_path: Vec::new(),
            los_corners: Vec::new(),
        };
        board.build_tables();
        Ok(board)
    }

    fn build_tables(&mut self) {
        let n = self.n_cells;
        let (w, h) = (self.spec.width, self.spec.height);
        self.distance = (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .map(|(a, b)| ((self.xs[a] - self.xs[b]).abs() + (self.ys[a] - self.ys[b]).abs()) as u8)
            .collect();
        let (mut neighbours, mut neighbour_mask, mut square_mask, mut rings) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for c in 0..n {
            let cell = c as Cell;
            let around = |steps: &[(i32, i32)]| -> Vec<Cell> {
                steps
                    .iter()
                    .filter_map(|&(dx, dy)| self.step(cell, dx, dy))
                    .collect()
            };
            let near = around(&ORTHOGONAL);
            neighbour_mask.push(near.iter().copied().collect());
            neighbours.push(near);
            square_mask.push(around(&AROUND).into_iter().collect());
            let mut buckets: Vec<Vec<Cell>> = vec![Vec::new(); w + h + 1];
            for other in 0..n {
                buckets[usize::from(self.distance[c * n + other])].push(other as Cell);
            }
            rings.push(buckets);
        }
        self.neighbours = neighbours;
        self.neighbour_mask = neighbour_mask;
        self.square_mask = square_mask;
        self.rings = rings;
        self.build_los();
    }

    /// Trace each of the `(2w - 1) x (2h - 1)` offsets once, then place it at every origin.
    fn build_los(&mut self) {
        let (w, h) = (self.spec.width as i32, self.spec.height as i32);
        let n = self.n_cells;
        let offsets = ((2 * w - 1) * (2 * h - 1)) as usize;
        let index = |dx: i32, dy: i32| ((dy + h - 1) * (2 * w - 1) + (dx + w - 1)) as usize;
        let mut traces = vec![los::Trace::default(); offsets];
        for dy in -(h - 1)..h {
            for dx in -(w - 1)..w {
                traces[index(dx, dy)] = trace_offset(dx, dy);
            }
        }
        self.los_path = Vec::with_capacity(n * n);
        self.los_corners = Vec::with_capacity(n * n);
        for a in 0..n {
            let (ax, ay) = (self.xs[a], self.ys[a]);
            for b in 0..n {
                let trace = &traces[index(self.xs[b] - ax, self.ys[b] - ay)];
                // every traced cell lies in the bounding box of a and b, so it is on the board
                let at = |(rx, ry): (i32, i32)| ((ay + ry) * w + ax + rx) as Cell;
                self.los_path
                    .push(trace.crossed.iter().map(|&off| at(off)).collect());
                self.los_corners.push(
                    trace
                        .squeezes
                        .iter()
                        .map(|&(p, q)| [at(p), at(q)].into_iter().collect())
                        .collect(),
                );
            }
        }
    }

    // ----------------------------------------------------------------- layers
    pub fn spec(&self) -> &BoardSpec {
        &self.spec
    }

    pub fn id(&self) -> &str {
        &self.spec.id
    }

    pub fn width(&self) -> usize {
        self.spec.width
    }

    pub fn height(&self) -> usize {
        self.spec.height
    }

    pub fn n_cells(&self) -> usize {
        self.n_cells
    }

    /// Every cell of the board.
    pub fn all_cells(&self) -> CellSet {
        self.all_cells
    }

    pub fn trees(&self) -> CellSet {
        self.spec.trees
    }

    pub fn bushes(&self) -> CellSet {
        self.spec.bushes
    }

    pub fn crates(&self) -> CellSet {
        self.spec.crates
    }

    pub fn demon_cells(&self) -> CellSet {
        self.spec.demon_cells
    }

    /// Static impassable cells: trees and bushes (R-A7).
    pub fn obstacles(&self) -> CellSet {
        self.spec.trees | self.spec.bushes
    }

    /// Deployment zone `zone`'s cells.
    pub fn deploy(&self, zone: usize) -> CellSet {
        self.spec.deploy[zone]
    }

    /// How many deployment zones: 2, or up to 4 on four-player boards (R-A156).
    pub fn n_zones(&self) -> usize {
        self.spec.deploy.len()
    }

    /// Kama tokens at set-up: the printed kama cells plus one per Demon cell (R-A22).
    pub fn kama_total(&self) -> u32 {
        self.spec
            .kama_cells
            .iter()
            .map(|&(_, k)| u32::from(k))
            .sum::<u32>()
            + self.spec.demon_cells.len()
    }

    // ----------------------------------------------------------------- coordinates
    /// Cell of column `x`, row `y` (no bounds check: see [`Board::in_bounds`]).
    pub fn cell(&self, x: i32, y: i32) -> Cell {
        (y * self.spec.width as i32 + x) as Cell
    }

    /// `(x, y)` of a cell.
    pub fn xy(&self, cell: Cell) -> (i32, i32) {
        let c = usize::from(cell);
        (self.xs[c], self.ys[c])
    }

    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        (0..self.spec.width as i32).contains(&x) && (0..self.spec.height as i32).contains(&y)
    }

    /// The cell `(dx, dy)` away from `cell`, or `None` off the board (pushes stop at the edge, R-A87).
    #[inline]
    pub fn step(&self, cell: Cell, dx: i32, dy: i32) -> Option<Cell> {
        let (x, y) = self.xy(cell);
        let (x, y) = (x + dx, y + dy);
        self.in_bounds(x, y).then(|| self.cell(x, y))
    }

    /// Same row or same column (line spells, R-A74); a cell is aligned with itself.
    pub fn aligned(&self, a: Cell, b: Cell) -> bool {
        let ((ax, ay), (bx, by)) = (self.xy(a), self.xy(b));
        ax == bx || ay == by
    }

    /// The unit step from `a` toward `b` along the dominant axis, or `None` (R-A88 gap).
    pub fn direction(&self, a: Cell, b: Cell) -> Option<Direction> {
        let ((ax, ay), (bx, by)) = (self.xy(a), self.xy(b));
        dominant_direction(bx - ax, by - ay)
    }

    // ----------------------------------------------------------------- tables
    /// Manhattan distance (R-A6).
    #[inline]
    pub fn distance(&self, a: Cell, b: Cell) -> u8 {
        self.distance[usize::from(a) * self.n_cells + usize::from(b)]
    }

    /// Orthogonal neighbours, N/E/S/W order (R-A5).
    #[inline]
    pub fn neighbours(&self, cell: Cell) -> &[Cell] {
        &self.neighbours[usize::from(cell)]
    }

    #[inline]
    pub fn neighbour_mask(&self, cell: Cell) -> CellSet {
        self.neighbour_mask[usize::from(cell)]
    }

    /// The up-to-8 cells around a cell (itself excluded).
    #[inline]
    pub fn square_mask(&self, cell: Cell) -> CellSet {
        self.square_mask[usize::from(cell)]
    }

    /// Cells at exact distance `d` from `cell`, increasing; empty beyond width + height.
    #[inline]
    pub fn ring(&self, cell: Cell, d: usize) -> &[Cell] {
        self.rings[usize::from(cell)]
            .get(d)
            .map_or(&[], Vec::as_slice)
    }

    /// How many rings [`Board::ring`] holds per cell (width + height + 1).
    pub fn n_rings(&self) -> usize {
        self.spec.width + self.spec.height + 1
    }

    /// The cells whose interior the segment a->b crosses (endpoints excluded).
    #[inline]
    pub fn los_path(&self, a: Cell, b: Cell) -> CellSet {
        self.los_path[usize::from(a) * self.n_cells + usize::from(b)]
    }

    /// The two-cell masks of the corners the segment a->b passes exactly through.
    #[inline]
    pub fn los_corners(&self, a: Cell, b: Cell) -> &[CellSet] {
        &self.los_corners[usize::from(a) * self.n_cells + usize::from(b)]
    }

    /// Line of sight from `a` to `b` against the cells that block now (R-A78); with `strict`, a
    /// corner between two blockers blocks too (a house rule).
    #[inline]
    pub fn has_los(&self, a: Cell, b: Cell, blockers: CellSet, strict: bool) -> bool {
        if self.los_path(a, b).intersects(blockers) {
            return false;
        }
        !(strict
            && self
                .los_corners(a, b)
                .iter()
                .any(|pair| pair.is_subset(blockers)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(width: usize, height: usize) -> Board {
        Board::new(BoardSpec {
            id: "open".into(),
            width,
            height,
            deploy: vec![CellSet::EMPTY, CellSet::EMPTY],
            ..BoardSpec::default()
        })
        .unwrap()
    }

    #[test]
    fn distances_obey_the_triangle_inequality() {
        let board = open(5, 4);
        let n = board.n_cells() as Cell;
        for a in 0..n {
            for b in 0..n {
                assert_eq!(board.distance(a, b), board.distance(b, a));
                for c in 0..n {
                    assert!(board.distance(a, c) <= board.distance(a, b) + board.distance(b, c));
                }
            }
        }
    }

    #[test]
    fn corners_have_two_neighbours_and_the_middle_four() {
        let board = open(3, 3);
        assert_eq!(board.neighbours(0), &[1, 3]);
        assert_eq!(board.neighbours(4), &[1, 5, 7, 3]);
        assert_eq!(board.square_mask(4).len(), 8);
        assert_eq!(board.ring(0, 4), &[8]);
        assert!(board.ring(0, 99).is_empty());
    }

    #[test]
    fn line_of_sight_is_symmetric_and_blocked_by_the_path() {
        let board = open(6, 6);
        let n = board.n_cells() as Cell;
        for a in 0..n {
            for b in 0..n {
                assert_eq!(board.los_path(a, b), board.los_path(b, a));
            }
        }
        let (a, b) = (board.cell(0, 0), board.cell(4, 0));
        assert!(board.has_los(a, b, CellSet::EMPTY, false));
        assert!(!board.has_los(a, b, CellSet::single(board.cell(2, 0)), false));
        assert!(board.has_los(a, b, CellSet::single(a) | CellSet::single(b), false));
        // an exact diagonal passes between two blockers meeting at a corner, unless strict
        let (c, d) = (board.cell(0, 0), board.cell(1, 1));
        let pair = CellSet::single(board.cell(1, 0)) | CellSet::single(board.cell(0, 1));
        assert!(board.has_los(c, d, pair, false));
        assert!(!board.has_los(c, d, pair, true));
    }

    #[test]
    fn a_mask_off_the_board_is_refused() {
        let spec = BoardSpec {
            id: "bad".into(),
            width: 2,
            height: 2,
            trees: CellSet::single(4),
            deploy: vec![CellSet::EMPTY, CellSet::EMPTY],
            ..BoardSpec::default()
        };
        assert_eq!(Board::new(spec).unwrap_err().field, "trees");
    }

    #[test]
    fn areas_clip_to_the_board_and_fall_back_to_cross() {
        let board = open(5, 5);
        let corner = board.cell(0, 0);
        assert_eq!(
            area_cells(&board, AreaShape::Square, 12, corner),
            vec![0, 1, 5, 6]
        );
        // caster on the exact diagonal of the target: no direction, Cross
        let (caster, target) = (board.cell(1, 1), board.cell(2, 2));
        assert_eq!(
            area_cells(&board, AreaShape::Hammer, caster, target),
            area_cells(&board, AreaShape::Cross, caster, target)
        );
        // a push line from the west: the Shovel hits the cell behind the target
        let (west, mid) = (board.cell(0, 2), board.cell(2, 2));
        assert_eq!(
            area_cells(&board, AreaShape::Shovel, west, mid),
            vec![mid, board.cell(3, 2)]
        );
        assert_eq!(AreaShape::from_name("needle"), Some(AreaShape::Needle));
        assert_eq!(AreaShape::from_name("blob"), None);
    }
}
