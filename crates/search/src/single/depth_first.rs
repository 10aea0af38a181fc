//! Depth-first searches: depth-capped DFS, iterative deepening and IDA*.

use std::time::Instant;

use tessera_core::Puzzle;

use super::memory::{FastMap, map_bytes, vec_bytes};
use super::{Options, SearchResult, SearchStats, Status, over_limit};

#[derive(Copy, Clone, PartialEq, Eq)]
enum Flow {
    Found,
    Continue,
    /// A node or time limit stopped the search (the status says which).
    Limit(Status),
}

/// What limits the depth of one pass.
enum Bound<'h, S> {
    /// DFS: a cap, and the shallowest depth each position was reached at.
    Cap { cap: u32, seen: FastMap<S, u32> },
    /// Iterative deepening: a depth limit; `cut` records that some node hit it.
    Depth { limit: u32, cut: bool },
    /// IDA*: an f bound; `next` collects the smallest f above it.
    F {
        bound: f64,
        next: f64,
        h: &'h mut dyn FnMut(&S) -> f64,
    },
}

struct Ctx<'p, 'h, P: Puzzle> {
    puzzle: &'p P,
    options: &'p Options,
    bound: Bound<'h, P::State>,
    path: Vec<P::Move>,
    on_path: Vec<P::State>,
    bufs: Vec<Vec<(P::Move, P::State)>>,
    stats: SearchStats,
    /// Heap bytes owned by the positions in `seen` (DFS); never decreases.
    heap_bytes: usize,
}

impl<P: Puzzle> Ctx<'_, '_, P> {
    fn visit(&mut self, s: &P::State, depth: u32, last: Option<P::Move>) -> Flow {
        match &mut self.bound {
            Bound::Cap { .. } | Bound::Depth { .. } => {}
            Bound::F { bound, next, h } => {
                let f = f64::from(depth) + h(s);
                if f > *bound {
                    if f < *next {
                        *next = f;
                    }
                    return Flow::Continue;
                }
            }
        }
        if self.puzzle.is_goal(s) {
            return Flow::Found;
        }
        match &mut self.bound {
            Bound::Cap { cap, .. } if depth >= *cap => return Flow::Continue,
            Bound::Depth { limit, cut } if depth >= *limit => {
                *cut = true;
                return Flow::Continue;
            }
            _ => {}
        }
        if let Some(stop) = over_limit(self.options, self.stats.expanded) {
            return Flow::Limit(stop);
        }
        self.stats.expanded += 1;
        let d = depth as usize;
        if self.bufs.len() <= d {
            self.bufs.push(Vec::new());
        }
        let mut buf = std::mem::take(&mut self.bufs[d]);
        self.puzzle.successors(s, &mut buf);
        let mut flow = Flow::Continue;
        for (m, t) in &buf {
            if self.options.skip_opposite && last.is_some_and(|l| self.puzzle.is_opposite(l, *m)) {
                continue;
            }
            self.stats.generated += 1;
            match &mut self.bound {
                Bound::Cap { seen, .. } => {
                    if seen.get(t).is_some_and(|&seen_at| seen_at <= depth + 1) {
                        continue;
                    }
                    if seen.insert(t.clone(), depth + 1).is_none() {
                        self.heap_bytes += self.puzzle.state_heap_bytes(t);
                    }
                }
                _ => {
                    if self.on_path.contains(t) {
                        continue; // a cycle on the current path
                    }
                }
            }
            let track = !matches!(self.bound, Bound::Cap { .. });
            if track {
                self.on_path.push(t.clone());
            }
            self.path.push(*m);
            flow = self.visit(t, depth + 1, Some(*m));
            if flow == Flow::Found {
                break;
            }
            self.path.pop();
            if track {
                self.on_path.pop();
            }
            if matches!(flow, Flow::Limit(_)) {
                break;
            }
        }
        self.bufs[d] = buf;
        flow
    }

    fn bytes(&self) -> usize {
        let bound = match &self.bound {
            Bound::Cap { seen, .. } => map_bytes(seen),
            _ => 0,
        };
        bound
            + vec_bytes(&self.path)
            + vec_bytes(&self.on_path)
            + vec_bytes(&self.bufs)
            + self.bufs.iter().map(vec_bytes).sum::<usize>()
            + self.heap_bytes
    }
}

fn finish<P: Puzzle>(ctx: Ctx<'_, '_, P>, flow: Flow, t0: Instant) -> SearchResult<P::Move> {
    let mut stats = ctx.stats;
    stats.peak_bytes = ctx.bytes();
    stats.elapsed = t0.elapsed();
    match flow {
        Flow::Found => SearchResult {
            status: Status::Solved,
            solution: Some(ctx.path),
            stats,
        },
        Flow::Limit(stop) => SearchResult {
            status: stop,
            solution: None,
            stats,
        },
        Flow::Continue => SearchResult {
            status: Status::NoSolution,
            solution: None,
            stats,
        },
    }
}

fn new_ctx<'p, 'h, P: Puzzle>(
    puzzle: &'p P,
    options: &'p Options,
    bound: Bound<'h, P::State>,
) -> Ctx<'p, 'h, P> {
    Ctx {
        puzzle,
        options,
        bound,
        path: Vec::new(),
        on_path: Vec::new(),
        bufs: Vec::new(),
        stats: SearchStats::default(),
        heap_bytes: 0,
    }
}

/// Depth-first search down to `options.dfs_depth_cap` moves (20 by default). A position is
/// searched again only when reached at a smaller depth than before, so the search is
/// complete within the cap; its solutions are usually not shortest.
pub fn dfs<P: Puzzle>(puzzle: &P, options: &Options) -> SearchResult<P::Move> {
    let t0 = Instant::now();
    let root = puzzle.initial();
    let mut seen = FastMap::default();
    seen.insert(root.clone(), 0);
    let cap = options.dfs_depth_cap;
    let mut ctx = new_ctx(puzzle, options, Bound::Cap { cap, seen });
    ctx.heap_bytes = puzzle.state_heap_bytes(&root);
    ctx.stats.iterations = 1;
    let flow = ctx.visit(&root, 0, None);
    finish(ctx, flow, t0)
}

/// Iterative deepening: depth-limited DFS with limits 0, 1, 2, ... up to
/// `options.max_depth`, rejecting positions already on the current path. Shortest
/// solutions in memory proportional to the depth; positions are re-expanded across and
/// within iterations.
pub fn iddfs<P: Puzzle>(puzzle: &P, options: &Options) -> SearchResult<P::Move> {
    let t0 = Instant::now();
    let root = puzzle.initial();
    let mut ctx = new_ctx(
        puzzle,
        options,
        Bound::Depth {
            limit: 0,
            cut: false,
        },
    );
    ctx.on_path.push(root.clone());
    let mut flow = Flow::Continue;
    for limit in 0..=options.max_depth {
        ctx.bound = Bound::Depth { limit, cut: false };
        ctx.stats.iterations += 1;
        flow = ctx.visit(&root, 0, None);
        let cut = matches!(ctx.bound, Bound::Depth { cut: true, .. });
        if flow != Flow::Continue || !cut {
            break;
        }
    }
    finish(ctx, flow, t0)
}

/// IDA*: depth-first passes bounded by f = g + h, the bound rising to the smallest f that
/// exceeded it, up to `options.max_depth`. With an admissible heuristic the solution is
/// shortest. Positions already on the current path are rejected; `f64::INFINITY` from the
/// heuristic prunes a position.
pub fn idastar<P, H>(puzzle: &P, mut heuristic: H, options: &Options) -> SearchResult<P::Move>
where
    P: Puzzle,
    H: FnMut(&P::State) -> f64,
{
    let t0 = Instant::now();
    let root = puzzle.initial();
    let mut bound = heuristic(&root);
    let h: &mut dyn FnMut(&P::State) -> f64 = &mut heuristic;
    let mut ctx = new_ctx(
        puzzle,
        options,
        Bound::F {
            bound,
            next: f64::INFINITY,
            h,
        },
    );
    ctx.on_path.push(root.clone());
    let mut flow = Flow::Continue;
    while bound <= f64::from(options.max_depth) {
        if let Bound::F { bound: b, next, .. } = &mut ctx.bound {
            *b = bound;
            *next = f64::INFINITY;
        }
        ctx.stats.iterations += 1;
        flow = ctx.visit(&root, 0, None);
        if flow != Flow::Continue {
            break;
        }
        let Bound::F { next, .. } = &ctx.bound else {
            break;
        };
        if !next.is_finite() {
            break;
        }
        bound = *next;
    }
    finish(ctx, flow, t0)
}
