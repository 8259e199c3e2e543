//! The native core of krosbalance: the same map as the Python package (`board`, `rng`, later
//! `engine`, `rulesets/arena`, `ai`), repeating the Python reference and held to it by the Python
//! suite. This file holds the Python bindings only: conversions at the boundary and nothing else.
//!
//! Cell sets cross the boundary as Python ints (bit `i` = cell `i`, as the reference keeps them),
//! cells and cell lists as ints and lists of ints.

pub mod ai;
mod bindings;
pub mod board;
pub mod content;
pub mod engine;
pub mod play;
pub mod rng;
pub mod rulesets;

/// The allocator of the core's own memory (Python's objects are Python's): the AIs allocate many
/// small, short-lived vectors and maps per decision, and mimalloc serves them at a fraction of
/// glibc's cost (malloc and free were a sixth of a heuristic match). It holds no state a result
/// can read, so no decision depends on it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::BTreeMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple};

use board::{AreaShape, Board, BoardSpec, Cell, CellSet, MAX_CELLS, area_cells, area_mask};
use rng::{Generator, SeedSequence, int_words};

// ---------------------------------------------------------------------------- ints at the boundary

/// The little-endian bytes of a non-negative Python int, at least `min_len` long.
fn int_bytes(value: &Bound<'_, PyAny>, what: &str, min_len: usize) -> PyResult<Vec<u8>> {
    let value = value.cast::<PyInt>().map_err(|_| {
        PyValueError::new_err(format!("{what} must be an int, got {}", value.get_type()))
    })?;
    if value.lt(0)? {
        return Err(PyValueError::new_err(format!(
            "{what} must be non-negative"
        )));
    }
    let bits: usize = value.call_method0("bit_length")?.extract()?;
    let len = bits.div_ceil(8).max(min_len);
    value.call_method1("to_bytes", (len, "little"))?.extract()
}

/// A Python int as numpy's SeedSequence reads it: 32-bit words, lowest first, `[0]` for zero.
fn py_int_words(value: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let bytes = int_bytes(value, "a seed", 0)?;
    if bytes.len() <= 16 {
        let mut wide = [0u8; 16];
        wide[..bytes.len()].copy_from_slice(&bytes);
        return Ok(int_words(u128::from_le_bytes(wide)));
    }
    let mut words: Vec<u32> = bytes
        .chunks(4)
        .map(|chunk| {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            u32::from_le_bytes(word)
        })
        .collect();
    while words.len() > 1 && words.last() == Some(&0) {
        words.pop();
    }
    Ok(words)
}

/// Entropy as numpy coerces it: an int, or a sequence of ints whose words are concatenated.
fn entropy_words(entropy: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if entropy.is_instance_of::<PyInt>() {
        return py_int_words(entropy);
    }
    let mut words = Vec::new();
    for item in entropy.try_iter()? {
        words.extend(py_int_words(&item?)?);
    }
    Ok(words)
}

/// A Python int bitmask as a [`CellSet`].
fn mask_from_py(value: &Bound<'_, PyAny>, what: &str) -> PyResult<CellSet> {
    let bytes = int_bytes(value, what, 0)?;
    if bytes.len() * 8 > MAX_CELLS && bytes[MAX_CELLS / 8..].iter().any(|&b| b != 0) {
        return Err(PyValueError::new_err(format!(
            "{what} has cells beyond the core's {MAX_CELLS}"
        )));
    }
    let mut words = [0u64; board::cellset::WORDS];
    for (i, byte) in bytes.iter().take(MAX_CELLS / 8).enumerate() {
        words[i / 8] |= u64::from(*byte) << (8 * (i % 8));
    }
    Ok(CellSet::from_words(words))
}

/// A [`CellSet`] as a Python int bitmask.
fn mask_to_py<'py>(py: Python<'py>, set: CellSet) -> PyResult<Bound<'py, PyAny>> {
    let words = set.words();
    let low = u128::from(words[0]) | (u128::from(words[1]) << 64);
    if words[2..].iter().all(|&w| w == 0) {
        return Ok(low.into_pyobject(py)?.into_any());
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    py.get_type::<PyInt>()
        .call_method1("from_bytes", (bytes, "little"))
}

fn masks_to_py<'py>(
    py: Python<'py>,
    sets: impl IntoIterator<Item = CellSet>,
) -> PyResult<Bound<'py, PyList>> {
    let items = sets
        .into_iter()
        .map(|s| mask_to_py(py, s))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Cells as a list of Python ints (a `Vec<u8>` would become `bytes`).
fn cells_to_py(cells: &[Cell]) -> Vec<usize> {
    cells.iter().map(|&c| usize::from(c)).collect()
}

// ---------------------------------------------------------------------------- rng

/// numpy's `SeedSequence` (int or sequence-of-ints entropy, a spawn key of ints).
#[pyclass(name = "SeedSequence", module = "krosbalance_core")]
struct PySeedSequence {
    inner: SeedSequence,
}

#[pymethods]
impl PySeedSequence {
    #[new]
    #[pyo3(signature = (entropy, *, spawn_key = Vec::new()))]
    fn new(entropy: &Bound<'_, PyAny>, spawn_key: Vec<u64>) -> PyResult<Self> {
        Ok(PySeedSequence {
            inner: SeedSequence::new(entropy_words(entropy)?, spawn_key),
        })
    }

    /// The spawn key, as numpy's tuple.
    #[getter]
    fn spawn_key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.spawn_key())
    }

    #[getter]
    fn n_children_spawned(&self) -> u64 {
        self.inner.n_children_spawned()
    }

    /// The hashed pool of four 32-bit words.
    #[getter]
    fn pool(&self) -> Vec<u32> {
        self.inner.pool().to_vec()
    }

    /// `generate_state(n_words, dtype)` as a list of ints; dtype `"uint32"` or `"uint64"`.
    #[pyo3(signature = (n_words, dtype = "uint32"))]
    fn generate_state(&self, n_words: usize, dtype: &str) -> PyResult<Vec<u64>> {
        match dtype {
            "uint32" => Ok(self
                .inner
                .generate_state_u32(n_words)
                .into_iter()
                .map(u64::from)
                .collect()),
            "uint64" => Ok(self.inner.generate_state_u64(n_words)),
            other => Err(PyValueError::new_err(format!(
                "only uint32 or uint64, got {other:?}"
            ))),
        }
    }

    /// The next `n_children` children.
    fn spawn(&mut self, n_children: u64) -> Vec<PySeedSequence> {
        self.inner
            .spawn(n_children)
            .into_iter()
            .map(|inner| PySeedSequence { inner })
            .collect()
    }
}

/// numpy's `Generator` over `PCG64`: `Generator(seed)` is `np.random.default_rng(seed)` for an
/// int, a sequence of ints or a [`PySeedSequence`].
#[pyclass(name = "Generator", module = "krosbalance_core")]
struct PyGenerator {
    inner: Generator,
}

#[pymethods]
impl PyGenerator {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let inner = match seed.cast::<PySeedSequence>() {
            Ok(seq) => Generator::new(&seq.borrow().inner),
            Err(_) => Generator::new(&SeedSequence::new(entropy_words(seed)?, Vec::new())),
        };
        Ok(PyGenerator { inner })
    }

    /// `integers(low, high=None, size=None)`: int64 in `[low, high)` (`[0, low)` without `high`);
    /// an int, or a list of `size` ints.
    #[pyo3(signature = (low, high = None, size = None))]
    fn integers<'py>(
        &mut self,
        py: Python<'py>,
        low: i128,
        high: Option<i128>,
        size: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (low, high) = match high {
            Some(high) => (low, high - 1),
            None => (0, low - 1),
        };
        if low < i128::from(i64::MIN) {
            return Err(PyValueError::new_err("low is out of bounds for int64"));
        }
        if high > i128::from(i64::MAX) {
            return Err(PyValueError::new_err("high is out of bounds for int64"));
        }
        if size == Some(0) {
            return Ok(PyList::empty(py).into_any());
        }
        if low > high {
            return Err(PyValueError::new_err(format!(
                "low >= high ({low} >= {})",
                high + 1
            )));
        }
        let (low, high) = (low as i64, high as i64);
        match size {
            None => Ok(self
                .inner
                .integers_closed(low, high)
                .into_pyobject(py)?
                .into_any()),
            Some(n) => {
                let mut out = vec![0i64; n];
                self.inner.fill_integers_closed(low, high, &mut out);
                Ok(out.into_pyobject(py)?.into_any())
            }
        }
    }

    /// `random(size=None)`: a float in [0, 1), or a list of `size` of them.
    #[pyo3(signature = (size = None))]
    fn random<'py>(&mut self, py: Python<'py>, size: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        match size {
            None => Ok(self.inner.random().into_pyobject(py)?.into_any()),
            Some(n) => {
                let out: Vec<f64> = (0..n).map(|_| self.inner.random()).collect();
                Ok(out.into_pyobject(py)?.into_any())
            }
        }
    }

    /// `permutation(n)` as a list of ints.
    fn permutation(&mut self, n: usize) -> Vec<usize> {
        self.inner.permutation(n)
    }

    /// `shuffle(items)` of a list, in place.
    fn shuffle(&mut self, items: &Bound<'_, PyList>) -> PyResult<()> {
        let mut values: Vec<Bound<'_, PyAny>> = items.iter().collect();
        self.inner.shuffle(&mut values);
        for (i, v) in values.into_iter().enumerate() {
            items.set_item(i, v)?;
        }
        Ok(())
    }

    /// The bit generator's state in the layout of numpy's `bit_generator.state`.
    #[getter]
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.bit_generator().state();
        let inner = PyDict::new(py);
        inner.set_item("state", s.state)?;
        inner.set_item("inc", s.inc)?;
        let out = PyDict::new(py);
        out.set_item("bit_generator", "PCG64")?;
        out.set_item("state", inner)?;
        out.set_item("has_uint32", i32::from(s.has_uint32))?;
        out.set_item("uinteger", s.uinteger)?;
        Ok(out)
    }
}

// ---------------------------------------------------------------------------- board

/// A board's geometry tables, built from the layers the Python loader read (krosbalance.native's
/// `core_board` passes a `krosbalance.board.Board`'s fields).
#[pyclass(name = "Board", module = "krosbalance_core", frozen)]
pub(crate) struct PyBoard {
    pub(crate) inner: std::sync::Arc<Board>,
    /// The heuristic AIs' range tables of the board (`ai::scoring::Geometry`), built once per board
    /// and shared by every match played on it.
    pub(crate) geo: std::sync::Arc<crate::ai::scoring::Geometry>,
}

fn shape_of(name: &str) -> PyResult<AreaShape> {
    AreaShape::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = AreaShape::ALL.iter().map(|s| s.name()).collect();
        PyValueError::new_err(format!(
            "unknown area shape {name:?}; known: {}",
            known.join(", ")
        ))
    })
}

impl PyBoard {
    fn cell(&self, cell: usize) -> PyResult<Cell> {
        if cell < self.inner.n_cells() {
            Ok(cell as Cell)
        } else {
            Err(PyValueError::new_err(format!(
                "cell {cell} is not on the {}x{} board",
                self.inner.width(),
                self.inner.height()
            )))
        }
    }

    fn all_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.inner.n_cells()).map(|c| c as Cell)
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (id, width, height, *, trees, bushes, crates, demon_cells, kama_cells, deploy, features))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        id: String,
        width: usize,
        height: usize,
        trees: &Bound<'_, PyAny>,
        bushes: &Bound<'_, PyAny>,
        crates: &Bound<'_, PyAny>,
        demon_cells: &Bound<'_, PyAny>,
        kama_cells: BTreeMap<usize, u8>,
        deploy: Vec<Bound<'_, PyAny>>,
        features: BTreeMap<String, Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut kamas = Vec::with_capacity(kama_cells.len());
        for (cell, count) in kama_cells {
            if cell >= MAX_CELLS {
                return Err(PyValueError::new_err(format!(
                    "kama_cells: cell {cell} is outside the board"
                )));
            }
            kamas.push((cell as Cell, count));
        }
        let spec = BoardSpec {
            id,
            width,
            height,
            trees: mask_from_py(trees, "trees")?,
            bushes: mask_from_py(bushes, "bushes")?,
            crates: mask_from_py(crates, "crates")?,
            demon_cells: mask_from_py(demon_cells, "demon_cells")?,
            kama_cells: kamas,
            deploy: deploy
                .iter()
                .enumerate()
                .map(|(i, m)| mask_from_py(m, &format!("deploy[{i}]")))
                .collect::<PyResult<_>>()?,
            features: features
                .iter()
                .map(|(k, m)| Ok((k.clone(), mask_from_py(m, &format!("features.{k}"))?)))
                .collect::<PyResult<_>>()?,
        };
        let inner = Board::new(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let geo = std::sync::Arc::new(crate::ai::scoring::Geometry::new(&inner));
        Ok(PyBoard {
            inner: std::sync::Arc::new(inner),
            geo,
        })
    }

    #[getter]
    fn id(&self) -> &str {
        self.inner.id()
    }

    #[getter]
    fn width(&self) -> usize {
        self.inner.width()
    }

    #[getter]
    fn height(&self) -> usize {
        self.inner.height()
    }

    #[getter]
    fn n_cells(&self) -> usize {
        self.inner.n_cells()
    }

    #[getter]
    fn n_zones(&self) -> usize {
        self.inner.n_zones()
    }

    #[getter]
    fn kama_total(&self) -> u32 {
        self.inner.kama_total()
    }

    fn distance(&self, a: usize, b: usize) -> PyResult<u8> {
        Ok(self.inner.distance(self.cell(a)?, self.cell(b)?))
    }

    /// `distance[a][b]` for every pair.
    fn distance_table(&self) -> Vec<Vec<u32>> {
        self.all_cells()
            .map(|a| {
                self.all_cells()
                    .map(|b| u32::from(self.inner.distance(a, b)))
                    .collect()
            })
            .collect()
    }

    /// The orthogonal neighbours of every cell, N/E/S/W order.
    fn neighbour_table(&self) -> Vec<Vec<usize>> {
        self.all_cells()
            .map(|c| cells_to_py(self.inner.neighbours(c)))
            .collect()
    }

    fn neighbour_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        masks_to_py(py, self.all_cells().map(|c| self.inner.neighbour_mask(c)))
    }

    fn square_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        masks_to_py(py, self.all_cells().map(|c| self.inner.square_mask(c)))
    }

    /// `rings[c][d]` for every cell and d = 0 ..= width + height.
    fn ring_table(&self) -> Vec<Vec<Vec<usize>>> {
        self.all_cells()
            .map(|c| {
                (0..self.inner.n_rings())
                    .map(|d| cells_to_py(self.inner.ring(c, d)))
                    .collect()
            })
            .collect()
    }

    /// `los_path[a][b]` masks for every ordered pair.
    fn los_path_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows = self
            .all_cells()
            .map(|a| masks_to_py(py, self.all_cells().map(|b| self.inner.los_path(a, b))))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, rows)
    }

    /// `los_corners[a][b]` tuples of two-cell masks for every ordered pair.
    fn los_corner_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut rows = Vec::with_capacity(self.inner.n_cells());
        for a in self.all_cells() {
            let mut row = Vec::with_capacity(self.inner.n_cells());
            for b in self.all_cells() {
                let pairs = self
                    .inner
                    .los_corners(a, b)
                    .iter()
                    .map(|&m| mask_to_py(py, m))
                    .collect::<PyResult<Vec<_>>>()?;
                row.push(PyTuple::new(py, pairs)?);
            }
            rows.push(PyList::new(py, row)?);
        }
        PyList::new(py, rows)
    }

    #[pyo3(signature = (a, b, blockers, strict = false))]
    fn has_los(
        &self,
        a: usize,
        b: usize,
        blockers: &Bound<'_, PyAny>,
        strict: bool,
    ) -> PyResult<bool> {
        let blockers = mask_from_py(blockers, "blockers")?;
        Ok(self
            .inner
            .has_los(self.cell(a)?, self.cell(b)?, blockers, strict))
    }

    /// The cell `(dx, dy)` away, or -1 off the board (as the reference's `Board.step`).
    fn step(&self, cell: usize, dx: i32, dy: i32) -> PyResult<i64> {
        Ok(self
            .inner
            .step(self.cell(cell)?, dx, dy)
            .map_or(-1, i64::from))
    }

    fn aligned(&self, a: usize, b: usize) -> PyResult<bool> {
        Ok(self.inner.aligned(self.cell(a)?, self.cell(b)?))
    }

    fn direction(&self, a: usize, b: usize) -> PyResult<Option<(i32, i32)>> {
        Ok(self.inner.direction(self.cell(a)?, self.cell(b)?))
    }

    fn area_cells(&self, shape: &str, caster: usize, target: usize) -> PyResult<Vec<usize>> {
        let cells = area_cells(
            &self.inner,
            shape_of(shape)?,
            self.cell(caster)?,
            self.cell(target)?,
        );
        Ok(cells_to_py(&cells))
    }

    fn area_mask<'py>(
        &self,
        py: Python<'py>,
        shape: &str,
        caster: usize,
        target: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mask = area_mask(
            &self.inner,
            shape_of(shape)?,
            self.cell(caster)?,
            self.cell(target)?,
        );
        mask_to_py(py, mask)
    }

    /// `area_cells(shape, caster, target)` for every caster (rows) and target (columns).
    fn area_table(&self, shape: &str) -> PyResult<Vec<Vec<Vec<usize>>>> {
        let shape = shape_of(shape)?;
        Ok(self
            .all_cells()
            .map(|caster| {
                self.all_cells()
                    .map(|target| cells_to_py(&area_cells(&self.inner, shape, caster, target)))
                    .collect()
            })
            .collect())
    }

    /// The shape names the core knows, in the reference's registry order.
    #[staticmethod]
    fn area_shapes() -> Vec<&'static str> {
        AreaShape::ALL.iter().map(|s| s.name()).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "krosbalance_core.Board(id={:?}, {}x{})",
            self.inner.id(),
            self.inner.width(),
            self.inner.height()
        )
    }
}

#[pymodule]
fn krosbalance_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("SOURCE_DIGEST", env!("KROSBALANCE_CORE_SOURCE_DIGEST"))?;
    m.add("MAX_CELLS", MAX_CELLS)?;
    m.add_class::<PySeedSequence>()?;
    m.add_class::<PyGenerator>()?;
    m.add_class::<PyBoard>()?;
    bindings::register(m)?;
    Ok(())
}
