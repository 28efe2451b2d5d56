//! Solving scoring positions: the payoff f_N(p) for all N at once.
//!
//! f(p) = −N when p has no move, else max over moves (points − f(p′)). Every move removes a bean,
//! so positions ordered by total beans form layers that only depend on lower layers; each layer
//! is evaluated in parallel. The recursion runs over one of two payoff algebras:
//! - [`Method::Exact`]: [`Pwl`] over rationals, exact for any rational points — the reference;
//! - [`Method::Grid`]: the checked integer-grid fast path of [`super::grid`].
//!
//! [`Method::Auto`] tries the grid and falls back to the exact path when the grid's checks refuse.

use std::collections::HashMap as StdHashMap;

use foldhash::fast::FixedState;

/// Maps hashed with foldhash: the keys are positions and payoffs looked up in the inner loops,
/// where SipHash cost more than the lookups themselves.
type HashMap<K, V> = StdHashMap<K, V, FixedState>;
use std::sync::Arc;

use num_traits::ToPrimitive;
use rayon::prelude::*;

use super::grid::{GRID_LIMIT, GridError, GridFn, GridSummary};
use super::partition::{PartitionIndex, solve_partition_values};
use super::position::{CACHED_MOVE_BYTES, Heap, Ordered, Position, RulesId, ScoringGame};
use super::ruleset::HeapSize;
use crate::error::{Error, Result};
use crate::num::{Pwl, Q, common_denominator};
use crate::progress::{Progress, Silent};

/// Resource limits for a solve.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Refuse work whose estimated memory exceeds this many bytes.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_bytes: 8 << 30 }
    }
}

/// Which payoff algebra to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// The grid fast path, falling back to exact when its checks refuse.
    #[default]
    Auto,
    /// Only the grid fast path (errors when it refuses).
    Grid,
    /// Only the exact rational PWL path.
    Exact,
}

/// Payoffs of a set of positions, in the representation the solve produced.
#[derive(Clone, Debug)]
pub enum Payoffs {
    /// Grid payoffs at a common scale s (M = s·N).
    Grid {
        /// The scale s.
        scale: i64,
        /// One function per position.
        fns: Vec<GridFn>,
    },
    /// Exact PWL payoffs.
    Exact(Vec<Pwl>),
}

/// One payoff of a [`Payoffs`], borrowed: what a row of a table shows is read through it.
#[derive(Clone, Copy, Debug)]
pub enum PayoffRef<'a> {
    /// A grid payoff at scale s (M = s·N).
    Grid {
        /// The scale s.
        scale: i64,
        /// The function on the grid.
        f: &'a GridFn,
    },
    /// An exact PWL payoff.
    Exact(&'a Pwl),
}

impl PayoffRef<'_> {
    /// The exact payoff.
    pub fn pwl(self) -> Pwl {
        match self {
            PayoffRef::Grid { scale, f } => f.to_pwl(scale),
            PayoffRef::Exact(p) => p.clone(),
        }
    }

    /// f_N at one N.
    pub fn value(self, n: &Q) -> Q {
        match self {
            PayoffRef::Grid { scale, f } => f.eval(n, scale),
            PayoffRef::Exact(p) => p.eval(n),
        }
    }

    /// Breakpoint count, c∓ and display text, without building a [`Pwl`] on the grid.
    pub fn summary(self) -> GridSummary {
        match self {
            PayoffRef::Grid { scale, f } => f.summary(scale),
            PayoffRef::Exact(p) => GridSummary {
                breakpoints: p.breakpoints().len(),
                c_minus: p.left_intercept(),
                c_plus: p.right_intercept(),
                text: p.to_string(),
            },
        }
    }
}

impl Payoffs {
    /// The payoff of position `i`, borrowed.
    pub fn get(&self, i: usize) -> PayoffRef<'_> {
        match self {
            Payoffs::Grid { scale, fns } => PayoffRef::Grid {
                scale: *scale,
                f: &fns[i],
            },
            Payoffs::Exact(p) => PayoffRef::Exact(&p[i]),
        }
    }

    /// The exact payoff of position `i`.
    pub fn pwl(&self, i: usize) -> Pwl {
        self.get(i).pwl()
    }

    /// f_N of position `i` at one N.
    pub fn value(&self, i: usize, n: &Q) -> Q {
        self.get(i).value(n)
    }

    /// Breakpoint count, c∓ and display text of position `i`'s payoff, without building a
    /// [`Pwl`] when the payoffs are on the grid.
    pub fn summary(&self, i: usize) -> GridSummary {
        self.get(i).summary()
    }

    /// How these payoffs were computed, for provenance.
    pub fn method(&self) -> String {
        match self {
            Payoffs::Grid { scale, .. } => format!("integer grid, scale {scale} (checked)"),
            Payoffs::Exact(_) => "exact rational PWL".to_string(),
        }
    }
}

/// A payoff algebra: how to represent payoffs and take one recursion step.
pub(crate) trait Algebra: Sync {
    type Points: Clone + Send + Sync;
    type Fn: Send + Sync;
    fn terminal(&self) -> Self::Fn;
    fn combine(&self, cands: &[(Self::Points, &Self::Fn)]) -> Result<Self::Fn, GridError>;
}

pub(crate) struct GridAlgebra;

impl Algebra for GridAlgebra {
    type Points = i64;
    type Fn = GridFn;
    fn terminal(&self) -> GridFn {
        GridFn::terminal()
    }
    fn combine(&self, cands: &[(i64, &GridFn)]) -> Result<GridFn, GridError> {
        GridFn::combine(cands)
    }
}

pub(crate) struct ExactAlgebra;

impl Algebra for ExactAlgebra {
    type Points = Q;
    type Fn = Pwl;
    fn terminal(&self) -> Pwl {
        Pwl::linear(Q::int(-1), Q::zero())
    }
    fn combine(&self, cands: &[(Q, &Pwl)]) -> Result<Pwl, GridError> {
        let lines: Vec<Pwl> = cands.iter().map(|(p, f)| f.const_minus(p)).collect();
        Ok(Pwl::max_all(&lines).expect("combine needs at least one candidate"))
    }
}

/// Evaluates positions `0..n` layer by layer; `children(i, out)` lists (points, child) of i.
pub(crate) fn evaluate_layers<A, C>(
    alg: &A,
    n: usize,
    layers: &[Vec<u32>],
    children: C,
    progress: &dyn Progress,
) -> Result<Vec<A::Fn>, GridError>
where
    A: Algebra,
    C: Fn(u32, &mut Vec<(A::Points, u32)>) + Sync,
{
    evaluate_layers_after(alg, n, layers, children, progress, Vec::new())
}

/// [`evaluate_layers`] with the values of positions `0..known.len()` given (those of a smaller
/// ranked table, whose positions keep their indices in a larger one): a layer is evaluated only
/// at its other positions.
pub(crate) fn evaluate_layers_after<A, C>(
    alg: &A,
    n: usize,
    layers: &[Vec<u32>],
    children: C,
    progress: &dyn Progress,
    known: Vec<A::Fn>,
) -> Result<Vec<A::Fn>, GridError>
where
    A: Algebra,
    C: Fn(u32, &mut Vec<(A::Points, u32)>) + Sync,
{
    let first_new = known.len();
    let mut done: Vec<Option<A::Fn>> = known
        .into_iter()
        .map(Some)
        .chain((first_new..n).map(|_| None))
        .collect();
    for layer in layers {
        let fresh: Vec<u32>;
        let layer = if layer.iter().any(|&i| (i as usize) < first_new) {
            fresh = layer
                .iter()
                .copied()
                .filter(|&i| i as usize >= first_new)
                .collect();
            &fresh
        } else {
            layer
        };
        let computed: Vec<Result<A::Fn, GridError>> = layer
            .par_iter()
            .with_min_len(8)
            .map_init(Vec::new, |edges, &i| {
                edges.clear();
                children(i, edges);
                if edges.is_empty() {
                    return Ok(alg.terminal());
                }
                let cands: Vec<(A::Points, &A::Fn)> = edges
                    .iter()
                    .map(|(p, c)| {
                        (
                            p.clone(),
                            done[*c as usize]
                                .as_ref()
                                .expect("children lie in lower layers"),
                        )
                    })
                    .collect();
                alg.combine(&cands)
            })
            .collect();
        for (&i, f) in layer.iter().zip(computed) {
            done[i as usize] = Some(f?);
        }
        progress.advance(layer.len() as u64);
    }
    Ok(done
        .into_iter()
        .map(|f| f.expect("every position lies in a layer"))
        .collect())
}

/// Groups position indices by a key (total beans), in increasing key order.
pub(crate) fn layers_by(totals: impl Iterator<Item = u64>) -> Vec<Vec<u32>> {
    let mut by_total: std::collections::BTreeMap<u64, Vec<u32>> = Default::default();
    for (i, t) in totals.enumerate() {
        by_total.entry(t).or_default().push(i as u32);
    }
    by_total.into_values().collect()
}

/// Scales distinct point values for the grid; `None` when they do not fit.
pub(crate) fn scaled_points(points: &[Q], scale: i64) -> Result<Vec<i64>, GridError> {
    let s = Q::int(scale);
    points
        .iter()
        .map(|p| {
            let v = (p * &s).to_i64().ok_or(GridError::NotInteger)?;
            if v.abs() > GRID_LIMIT {
                Err(GridError::Range)
            } else {
                Ok(v)
            }
        })
        .collect()
}

/// The base grid scale q: the common denominator of all points, if it is small enough.
pub(crate) fn base_scale(points: &[Q]) -> Option<i64> {
    common_denominator(points)
        .to_i64()
        .filter(|&q| 2 * q <= GRID_LIMIT)
}

/// Runs the grid algebra at scale q, then 2q on a parity refusal.
pub(crate) fn solve_on_grid<C>(
    points: &[Q],
    n: usize,
    layers: &[Vec<u32>],
    children: C,
    progress: &dyn Progress,
) -> Result<Payoffs, GridError>
where
    C: Fn(&[i64], u32, &mut Vec<(i64, u32)>) + Sync,
{
    let q = base_scale(points).ok_or(GridError::Range)?;
    for scale in [q, 2 * q] {
        let scaled = scaled_points(points, scale)?;
        match evaluate_layers(
            &GridAlgebra,
            n,
            layers,
            |i, out| children(&scaled, i, out),
            progress,
        ) {
            Ok(fns) => return Ok(Payoffs::Grid { scale, fns }),
            Err(GridError::Parity) if scale == q => continue,
            Err(e) => return Err(e),
        }
    }
    Err(GridError::Parity)
}

/// Lists position `i`'s (point id, child) edges into a reused per-thread buffer and pushes them
/// with each point id mapped to the algebra's points (one allocation per thread, not per position).
fn children_mapped<C, P>(children: &C, i: u32, out: &mut Vec<(P, u32)>, point: impl Fn(u32) -> P)
where
    C: Fn(u32, &mut Vec<(u32, u32)>),
{
    thread_local! {
        static IDS: std::cell::RefCell<Vec<(u32, u32)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        ids.clear();
        children(i, &mut ids);
        out.extend(ids.iter().map(|&(pid, c)| (point(pid), c)));
    });
}

/// Chooses and runs an algebra; `children` receives point ids (indices into `points`).
pub(crate) fn solve_with<C>(
    method: Method,
    points: &[Q],
    n: usize,
    layers: &[Vec<u32>],
    children: C,
    progress: &dyn Progress,
) -> Result<Payoffs>
where
    C: Fn(u32, &mut Vec<(u32, u32)>) + Sync,
{
    let grid_children = |scaled: &[i64], i: u32, out: &mut Vec<(i64, u32)>| {
        children_mapped(&children, i, out, |pid| scaled[pid as usize]);
    };
    if method != Method::Exact {
        match solve_on_grid(points, n, layers, grid_children, progress) {
            Ok(p) => return Ok(p),
            Err(e) if method == Method::Grid => {
                return Err(Error::invalid(format!(
                    "the integer-grid method cannot solve this exactly: {e}; use the exact method"
                )));
            }
            Err(_) => {}
        }
    }
    let exact_children = |i: u32, out: &mut Vec<(Q, u32)>| {
        children_mapped(&children, i, out, |pid| points[pid as usize].clone());
    };
    let fns = evaluate_layers(&ExactAlgebra, n, layers, exact_children, progress)
        .expect("the exact algebra never refuses");
    Ok(Payoffs::Exact(fns))
}

/// Interns point values so edges store a small id.
#[derive(Default, Debug)]
pub(crate) struct PointIds {
    pub values: Vec<Q>,
    ids: HashMap<Q, u32>,
}

impl PointIds {
    pub fn id(&mut self, q: &Q) -> u32 {
        if let Some(&i) = self.ids.get(q) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(q.clone());
        self.ids.insert(q.clone(), i);
        i
    }
}

/// The payoffs of some positions and of every position reachable from them.
#[derive(Debug, Clone)]
pub struct Solution {
    game: ScoringGame,
    root: Position,
    index: HashMap<Position, u32>,
    payoffs: Payoffs,
}

/// The positions reachable from a set of roots, with their moves as (point id, child) edges.
struct Graph {
    positions: Vec<Position>,
    index: HashMap<Position, u32>,
    edge_start: Vec<u32>,
    edges: Vec<(u32, u32)>,
    points: PointIds,
}

impl Graph {
    fn layers(&self) -> Vec<Vec<u32>> {
        layers_by(self.positions.iter().map(Position::total))
    }

    fn children(&self, i: u32, out: &mut Vec<(u32, u32)>) {
        let (a, b) = (
            self.edge_start[i as usize] as usize,
            self.edge_start[i as usize + 1] as usize,
        );
        out.extend_from_slice(&self.edges[a..b]);
    }
}

/// Bytes per reachable position besides its edges: the key (heaps), the index entry and a
/// payoff of `payoff_bytes`.
fn bytes_per_position(max_heaps: u64, payoff_bytes: u64) -> u64 {
    120 + 8 * max_heaps + payoff_bytes
}

/// Bytes per stored move (a (point id, child) pair), with room for the vector's growth.
const EDGE_BYTES: u64 = 12;

/// Positions explored between two progress reports.
const EXPLORE_REPORT: u64 = 4096;

/// Estimated bytes of one payoff of a position with at most `total` beans. A grid payoff is a
/// window of `i32`s over its breakpoints, which lie within about ±`total` for Nim (observed:
/// (50,49,48,47) has them on −94..93); an exact payoff holds two rationals per breakpoint.
fn payoff_bytes(method: Method, total: u64) -> u64 {
    let window = total.saturating_add(2);
    match method {
        Method::Exact => window.saturating_mul(32).saturating_add(96),
        Method::Auto | Method::Grid => window.saturating_mul(4).saturating_add(48),
    }
}

/// What a solve will cost, estimated from its roots before any work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveCost {
    /// Reachable positions (an upper bound: equal heaps are counted as multisets).
    pub positions: u64,
    /// Moves walked and stored, one per (position, move).
    pub edges: u64,
    /// Moves the engine's per-heap move cache will hold.
    pub cached_moves: u64,
    /// Estimated peak memory in bytes (saturating).
    pub bytes: u64,
}

/// C(n + m, m) — the multisets of m elements from n + 1 — as a u64, saturating; m steps.
pub(crate) fn multisets(n: u64, m: u64) -> u64 {
    let mut c: u128 = 1;
    for j in 1..=u128::from(m) {
        // c = C(n + j − 1, j − 1) < 2^64 and n + j < 2^65, so the product fits in u128, and
        // C(n + j, j) = C(n + j − 1, j − 1)·(n + j)/j exactly.
        c = c * (u128::from(n) + j) / j;
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// The cost of solving `roots` (heap lists as given, zeros allowed), when it can be told in
/// advance: every ruleset met never splits heaps and bounds its moves
/// ([`Ruleset::moves_up_to`](super::Ruleset::moves_up_to)). Needs no move to be generated, so
/// it is instant even for heaps of 2³² beans. `None` when it cannot be told.
pub fn solve_cost(game: &ScoringGame, roots: &[Vec<Heap>], method: Method) -> Option<SolveCost> {
    if game.splits() {
        return None;
    }
    let moves_up_to = |h: &Heap| {
        game.rulesets()
            .get(usize::from(h.rules))?
            .moves_up_to(h.size)
    };
    let mut largest: HashMap<u16, Heap> = HashMap::default();
    let (mut positions, mut edges, mut max_heaps, mut max_total) = (0u64, 0u64, 0u64, 0u64);
    for root in roots {
        let mut heaps: Vec<Heap> = root.iter().copied().filter(|h| h.size > 0).collect();
        heaps.sort_unstable();
        // Positions reachable from one root: each group of m equal heaps of size h gives at most
        // C(h + m, m) multisets, and the root's positions are among the products of those.
        let mut reach = 1u64;
        let mut average_moves = 0u64;
        for group in heaps.chunk_by(|a, b| a == b) {
            let h = group[0];
            reach = reach.saturating_mul(multisets(u64::from(h.size), group.len() as u64));
            // A heap met along the way has on average (moves of 1..=h)/(h + 1) moves.
            let per_heap = moves_up_to(&h)? / (u64::from(h.size) + 1);
            average_moves =
                average_moves.saturating_add(per_heap.saturating_mul(group.len() as u64));
            let l = largest.entry(h.rules).or_insert(h);
            l.size = l.size.max(h.size);
        }
        positions = positions.saturating_add(reach);
        edges = edges.saturating_add(reach.saturating_mul(average_moves.max(1)));
        max_heaps = max_heaps.max(heaps.len() as u64);
        max_total = max_total.max(heaps.iter().map(|h| u64::from(h.size)).sum());
    }
    let mut cached_moves = 0u64;
    for h in largest.values() {
        cached_moves = cached_moves.saturating_add(moves_up_to(h)?);
    }
    let per_position = bytes_per_position(max_heaps, payoff_bytes(method, max_total));
    let bytes = cached_moves
        .saturating_mul(CACHED_MOVE_BYTES)
        .saturating_add(positions.saturating_mul(per_position))
        .saturating_add(edges.saturating_mul(EDGE_BYTES));
    Some(SolveCost {
        positions,
        edges,
        cached_moves,
        bytes,
    })
}

/// The heaps of the roots for messages: `(5,4,2)`, or the first and how many more.
fn show_roots(roots: &[Vec<Heap>]) -> String {
    let first = Ordered(roots.first().cloned().unwrap_or_default()).to_string();
    match roots.len() {
        0 | 1 => first,
        n => format!("{first} and {} more positions", n - 1),
    }
}

/// Refuses a solve whose estimated cost is over the limit, before any move is generated.
fn check_cost(cost: &SolveCost, roots: &[Vec<Heap>], limits: &Limits) -> Result<()> {
    if cost.bytes <= limits.max_bytes {
        return Ok(());
    }
    Err(Error::TooLarge {
        what: format!(
            "solving {} (up to {} positions, {} moves, {} cached heap moves)",
            show_roots(roots),
            cost.positions,
            cost.edges,
            cost.cached_moves
        ),
        needed_bytes: cost.bytes,
        limit_bytes: limits.max_bytes,
        suggestion: "try smaller heaps or fewer heaps, or raise --memory-limit".to_string(),
    })
}

/// Breadth-first search from the roots, refusing to grow past `limits` (positions, moves and
/// the game's move cache all counted), reporting each explored position to `progress`.
fn explore(
    game: &ScoringGame,
    roots: &[Position],
    payoff_bytes: u64,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Graph> {
    // A heap under a breaking ruleset may become as many heaps as it has beans; others stay one.
    let max_heaps = roots
        .iter()
        .map(|r| {
            r.heaps()
                .iter()
                .map(|h| {
                    if game.rulesets()[usize::from(h.rules)].splits() {
                        u64::from(h.size)
                    } else {
                        1
                    }
                })
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    let per_position = bytes_per_position(max_heaps, payoff_bytes);
    // Refuse hopeless requests before searching: above its uniform tail a heap loses at most
    // `above` beans per move, so it alone passes through at least (size − above)/above positions.
    let at_least = roots
        .iter()
        .flat_map(|r| r.heaps())
        .filter_map(|h| {
            let tail = game.rulesets()[usize::from(h.rules)].uniform_tail()?;
            let above = u64::from(tail.above.max(1));
            Some(u64::from(h.size).saturating_sub(above) / above)
        })
        .max()
        .unwrap_or(0);
    if at_least.saturating_mul(per_position) > limits.max_bytes {
        let root = roots.iter().max_by_key(|r| r.total()).expect("non-empty");
        return Err(too_large(
            root,
            at_least,
            at_least.saturating_mul(per_position),
            limits,
        ));
    }
    let mut g = Graph {
        positions: Vec::new(),
        index: HashMap::default(),
        edge_start: vec![0],
        edges: Vec::new(),
        points: PointIds::default(),
    };
    for r in roots {
        if !g.index.contains_key(r) {
            g.index.insert(r.clone(), g.positions.len() as u32);
            g.positions.push(r.clone());
        }
    }
    let mut next = 0usize;
    let cache_bytes = || game.cached_moves().saturating_mul(CACHED_MOVE_BYTES);
    while next < g.positions.len() {
        let pos = g.positions[next].clone();
        for (points, child) in game.successors(&pos)? {
            let id = match g.index.get(&child) {
                Some(&id) => id,
                None => {
                    let id = g.positions.len() as u32;
                    let bytes = (id as u64 + 1) * per_position
                        + EDGE_BYTES * g.edges.len() as u64
                        + cache_bytes();
                    if bytes > limits.max_bytes || id == u32::MAX {
                        return Err(too_large(
                            roots.iter().max_by_key(|r| r.total()).expect("non-empty"),
                            id as u64,
                            bytes,
                            limits,
                        ));
                    }
                    g.index.insert(child.clone(), id);
                    g.positions.push(child);
                    id
                }
            };
            g.edges.push((g.points.id(&points), id));
        }
        let bytes = g.positions.len() as u64 * per_position
            + EDGE_BYTES * g.edges.len() as u64
            + cache_bytes();
        if bytes > limits.max_bytes || g.edges.len() >= u32::MAX as usize {
            return Err(too_large(
                roots.iter().max_by_key(|r| r.total()).expect("non-empty"),
                g.positions.len() as u64,
                bytes,
                limits,
            ));
        }
        g.edge_start.push(g.edges.len() as u32);
        next += 1;
        if (next as u64).is_multiple_of(EXPLORE_REPORT) {
            progress.advance(EXPLORE_REPORT);
        }
    }
    progress.advance(next as u64 % EXPLORE_REPORT);
    Ok(g)
}

/// Canonical roots of heap lists; errors when there are none.
fn canonical_roots(game: &ScoringGame, roots: &[Vec<Heap>]) -> Result<Vec<Position>> {
    if roots.is_empty() {
        return Err(Error::invalid("nothing to solve: no position given"));
    }
    roots.iter().map(|r| game.canonical(r)).collect()
}

/// Solves `heaps` (any order, zeros allowed) and everything reachable from it.
pub fn solve(
    game: &ScoringGame,
    heaps: &[Heap],
    method: Method,
    limits: &Limits,
) -> Result<Solution> {
    solve_many(game, &[heaps.to_vec()], method, limits)
}

/// Solves several positions and everything reachable from any of them, sharing the work.
pub fn solve_many(
    game: &ScoringGame,
    roots: &[Vec<Heap>],
    method: Method,
    limits: &Limits,
) -> Result<Solution> {
    solve_many_reporting(game, roots, method, limits, &Silent)
}

/// [`solve_many`], refusing at once when [`solve_cost`] is over the limit and reporting
/// progress: the work is two steps per position (explore, then evaluate).
pub fn solve_many_reporting(
    game: &ScoringGame,
    roots: &[Vec<Heap>],
    method: Method,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Solution> {
    // The estimate comes first: making the roots canonical already lists their heaps' moves.
    if let Some(cost) = solve_cost(game, roots, method) {
        check_cost(&cost, roots, limits)?;
        progress.start(cost.positions.saturating_mul(2));
    }
    let roots = canonical_roots(game, roots)?;
    let total = roots.iter().map(Position::total).max().unwrap_or(0);
    let g = explore(game, &roots, payoff_bytes(method, total), limits, progress)?;
    let n = g.positions.len() as u64;
    progress.start(2 * n);
    let payoffs = solve_with(
        method,
        &g.points.values,
        g.positions.len(),
        &g.layers(),
        |i, out| g.children(i, out),
        progress,
    )?;
    Ok(Solution {
        game: game.clone(),
        root: roots[0].clone(),
        index: g.index,
        payoffs,
    })
}

fn too_large(root: &Position, seen: u64, bytes: u64, limits: &Limits) -> Error {
    Error::TooLarge {
        what: format!("solving {root} (more than {seen} reachable positions)"),
        needed_bytes: bytes,
        limit_bytes: limits.max_bytes,
        suggestion: "try smaller heaps or fewer heaps, or raise --memory-limit".to_string(),
    }
}

/// Values f_N at one fixed bonus N: scaled machine integers when they fit, else rationals.
#[derive(Clone, Debug)]
pub(crate) enum FixedValues {
    /// Values times a common denominator `scale`, checked against overflow.
    Scaled { scale: i64, values: Vec<i64> },
    /// Exact rationals.
    Exact(Vec<Q>),
}

/// f_N at one fixed N (N = 0: Stewart's G_s) of some positions and everything reachable from them.
/// Much lighter than a [`Solution`] when only one N matters: one number per position.
#[derive(Debug, Clone)]
pub struct ValueSolution {
    game: ScoringGame,
    bonus: Q,
    lookup: Lookup,
    values: FixedValues,
}

/// Where a position's value is stored.
#[derive(Debug, Clone)]
enum Lookup {
    /// Positions found by search.
    Map(HashMap<Position, u32>),
    /// Every position of one ruleset up to a total, ranked.
    Partitions(Arc<PartitionIndex>),
}

/// The scalar recursion at a fixed N on scaled integers; overflow refuses (exact path takes over).
struct ScaledAlgebra {
    bonus: i64,
}

impl Algebra for ScaledAlgebra {
    type Points = i64;
    type Fn = i64;
    fn terminal(&self) -> i64 {
        -self.bonus
    }
    fn combine(&self, cands: &[(i64, &i64)]) -> Result<i64, GridError> {
        let mut best: Option<i64> = None;
        for &(p, &v) in cands {
            let c = p.checked_sub(v).ok_or(GridError::Range)?;
            best = Some(best.map_or(c, |b| b.max(c)));
        }
        Ok(best.expect("combine needs at least one candidate"))
    }
}

/// The scalar recursion at a fixed N over rationals.
struct RationalAlgebra {
    bonus: Q,
}

impl Algebra for RationalAlgebra {
    type Points = Q;
    type Fn = Q;
    fn terminal(&self) -> Q {
        -&self.bonus
    }
    fn combine(&self, cands: &[(Q, &Q)]) -> Result<Q, GridError> {
        Ok(cands
            .iter()
            .map(|(p, v)| p - *v)
            .max()
            .expect("combine needs at least one candidate"))
    }
}

/// f_N at a fixed N for several positions and everything reachable from them.
pub fn solve_values(
    game: &ScoringGame,
    roots: &[Vec<Heap>],
    bonus: &Q,
    limits: &Limits,
) -> Result<ValueSolution> {
    solve_values_reporting(game, roots, bonus, limits, &Silent)
}

/// [`solve_values`], reporting progress on the ranked-table path (the long one).
pub fn solve_values_reporting(
    game: &ScoringGame,
    roots: &[Vec<Heap>],
    bonus: &Q,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<ValueSolution> {
    solve_values_extending(game, roots, bonus, limits, progress, None)
}

/// [`solve_values_reporting`], reusing `earlier` (a solve of the same game at the same N) where
/// it can: when both are ranked tables of one ruleset that breaks heaps, the positions of the
/// earlier, smaller table keep their indices and values, and only the larger totals are solved.
pub(crate) fn solve_values_extending(
    game: &ScoringGame,
    roots: &[Vec<Heap>],
    bonus: &Q,
    limits: &Limits,
    progress: &dyn Progress,
    earlier: Option<ValueSolution>,
) -> Result<ValueSolution> {
    let roots = canonical_roots(game, roots)?;
    if let Some(rules) = single_breaking_ruleset(game, &roots) {
        // Breaking reaches almost every multiset of smaller heaps: rank them all instead.
        let total = roots.iter().map(Position::total).max().unwrap_or(0);
        let total = HeapSize::try_from(total)
            .map_err(|_| Error::invalid(format!("{total} beans in all is too many")))?;
        return solve_partition_values(game, rules, total, bonus, limits, progress, earlier);
    }
    search_values_of(game, &roots, bonus, limits, progress)
}

/// [`solve_values`] by search from the roots only (a hash map of reachable positions), never
/// through the ranked table of all positions.
pub fn search_values(
    game: &ScoringGame,
    roots: &[Vec<Heap>],
    bonus: &Q,
    limits: &Limits,
) -> Result<ValueSolution> {
    search_values_of(game, &canonical_roots(game, roots)?, bonus, limits, &Silent)
}

fn search_values_of(
    game: &ScoringGame,
    roots: &[Position],
    bonus: &Q,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<ValueSolution> {
    // Progress counts positions expanded by the search, the bulk of the work.
    let g = explore(game, roots, 8, limits, progress)?;
    let values = solve_values_with(
        &g.points.values,
        g.positions.len(),
        &g.layers(),
        |i, out| g.children(i, out),
        bonus,
        &Silent,
        None,
    );
    Ok(ValueSolution {
        game: game.clone(),
        bonus: bonus.clone(),
        lookup: Lookup::Map(g.index),
        values,
    })
}

/// The ruleset of every heap in `roots`, when there is one and it breaks heaps.
fn single_breaking_ruleset(game: &ScoringGame, roots: &[Position]) -> Option<u16> {
    let mut heaps = roots.iter().flat_map(|r| r.heaps());
    let rules = heaps.next()?.rules;
    (heaps.all(|h| h.rules == rules) && game.rulesets()[usize::from(rules)].splits())
        .then_some(rules)
}

/// The fixed-N recursion over positions `0..n` in layers: scaled machine integers when every
/// point and N share a denominator that fits and nothing overflows, else exact rationals.
/// Given `known`, the values of positions `0..k` (a solve of the same game at the same N over a
/// smaller ranked table; see [`evaluate_layers_after`]), only the others are evaluated; values
/// scaled by another denominator than this solve's are not reused.
pub(crate) fn solve_values_with<C>(
    points: &[Q],
    n: usize,
    layers: &[Vec<u32>],
    children: C,
    bonus: &Q,
    progress: &dyn Progress,
    known: Option<FixedValues>,
) -> FixedValues
where
    C: Fn(u32, &mut Vec<(u32, u32)>) + Sync,
{
    let mut known = known;
    let mut all = points.to_vec();
    all.push(bonus.clone());
    let scaled = common_denominator(&all).to_i64().and_then(|scale| {
        let s = Q::int(scale);
        let pts: Option<Vec<i64>> = points.iter().map(|p| (p * &s).to_i64()).collect();
        Some((scale, pts?, (bonus * &s).to_i64()?))
    });
    if let Some((scale, pts, b)) = scaled {
        let prefix = match known.take() {
            Some(FixedValues::Scaled {
                scale: earlier,
                values,
            }) if earlier == scale => values,
            other => {
                known = other;
                Vec::new()
            }
        };
        let run = evaluate_layers_after(
            &ScaledAlgebra { bonus: b },
            n,
            layers,
            |i, out| children_mapped(&children, i, out, |pid| pts[pid as usize]),
            progress,
            prefix,
        );
        if let Ok(values) = run {
            return FixedValues::Scaled { scale, values };
        }
    }
    let alg = RationalAlgebra {
        bonus: bonus.clone(),
    };
    let prefix = match known {
        Some(FixedValues::Exact(values)) => values,
        _ => Vec::new(),
    };
    let values = evaluate_layers_after(
        &alg,
        n,
        layers,
        |i, out| children_mapped(&children, i, out, |pid| points[pid as usize].clone()),
        progress,
        prefix,
    )
    .expect("the rational algebra never refuses");
    FixedValues::Exact(values)
}

impl ValueSolution {
    /// The ranked table and its values, when this is a ranked solve of ruleset `rules` at N =
    /// `bonus` (what a larger ranked solve of the same game can start from).
    pub(crate) fn into_ranked(
        self,
        rules: RulesId,
        bonus: &Q,
    ) -> Option<(Arc<PartitionIndex>, FixedValues)> {
        match self.lookup {
            Lookup::Partitions(index) if index.rules() == rules && self.bonus == *bonus => {
                Some((index, self.values))
            }
            _ => None,
        }
    }

    /// Whether the values are those of a ranked table (every multiset of one breaking ruleset
    /// up to a total), which a larger solve extends instead of starting over.
    pub fn is_ranked(&self) -> bool {
        matches!(self.lookup, Lookup::Partitions(_))
    }

    pub(crate) fn from_partitions(
        game: ScoringGame,
        bonus: Q,
        index: Arc<PartitionIndex>,
        values: FixedValues,
    ) -> ValueSolution {
        ValueSolution {
            game,
            bonus,
            lookup: Lookup::Partitions(index),
            values,
        }
    }

    /// The bonus N these values are for.
    pub fn bonus(&self) -> &Q {
        &self.bonus
    }

    /// Number of positions solved.
    pub fn positions(&self) -> usize {
        match &self.lookup {
            Lookup::Map(m) => m.len(),
            Lookup::Partitions(p) => p.len(),
        }
    }

    /// The canonical positions solved, sorted.
    pub fn solved(&self) -> Vec<Position> {
        let mut out: Vec<Position> = match &self.lookup {
            Lookup::Map(m) => m.keys().cloned().collect(),
            Lookup::Partitions(p) => p.positions().collect(),
        };
        out.sort();
        out
    }

    /// f_N of a reachable position.
    pub fn value(&self, heaps: &[Heap]) -> Result<Q> {
        let pos = self.game.canonical(heaps)?;
        let missing =
            || Error::invalid(format!("position {pos} is not among the positions solved"));
        let i = match &self.lookup {
            Lookup::Map(m) => *m.get(&pos).ok_or_else(missing)? as usize,
            Lookup::Partitions(p) => {
                if pos.heaps().iter().any(|h| h.rules != p.rules()) {
                    return Err(missing());
                }
                let sizes: Vec<HeapSize> = pos.heaps().iter().map(|h| h.size).collect();
                p.index_of(&sizes).ok_or_else(missing)?
            }
        };
        Ok(match &self.values {
            FixedValues::Scaled { scale, values } => Q::frac(values[i], *scale),
            FixedValues::Exact(v) => v[i].clone(),
        })
    }
}

impl Solution {
    /// The game solved.
    pub fn game(&self) -> &ScoringGame {
        &self.game
    }

    /// The canonical root position.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Number of positions solved.
    pub fn positions(&self) -> usize {
        self.index.len()
    }

    /// How the payoffs were computed.
    pub fn method(&self) -> String {
        self.payoffs.method()
    }

    fn lookup(&self, heaps: &[Heap]) -> Result<usize> {
        let pos = self.game.canonical(heaps)?;
        self.index.get(&pos).map(|&i| i as usize).ok_or_else(|| {
            Error::invalid(format!(
                "position {pos} is not reachable from {}",
                self.root
            ))
        })
    }

    /// Every position solved with its exact payoff, in no particular order.
    pub fn payoffs(&self) -> impl Iterator<Item = (&Position, Pwl)> + '_ {
        self.index
            .iter()
            .map(|(pos, &i)| (pos, self.payoffs.pwl(i as usize)))
    }

    /// The exact payoff of a reachable position as a function of N.
    pub fn payoff(&self, heaps: &[Heap]) -> Result<Pwl> {
        Ok(self.payoffs.pwl(self.lookup(heaps)?))
    }

    /// f_N of a reachable position.
    pub fn value(&self, heaps: &[Heap], n: &Q) -> Result<Q> {
        Ok(self.payoffs.value(self.lookup(heaps)?, n))
    }
}
