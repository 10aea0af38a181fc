//! Greedy best-first search and A*.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

use tessera_core::Puzzle;

use super::memory::{FastMap, heap_bytes, map_bytes, vec_bytes};
use super::{Node, Options, SearchResult, SearchStats, Status, over_limit, path_from};

/// An open-list entry: smallest key first, then smallest h, then first pushed.
struct Entry {
    key: f64,
    h: f64,
    seq: u64,
    node: u32,
    g: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Entry) -> Ordering {
        // Reversed: BinaryHeap is a max-heap.
        other
            .key
            .total_cmp(&self.key)
            .then(other.h.total_cmp(&self.h))
            .then(other.seq.cmp(&self.seq))
    }
}

/// Greedy best-first search: always expands the open position with the smallest heuristic
/// value. Fast, not optimal. The goal test is applied when a position is first generated;
/// positions are never reopened.
pub fn greedy<P, H>(puzzle: &P, heuristic: H, options: &Options) -> SearchResult<P::Move>
where
    P: Puzzle,
    H: FnMut(&P::State) -> f64,
{
    best_first(puzzle, heuristic, options, false)
}

/// A*: expands the open position with the smallest g + h (ties: smaller h, then first
/// pushed). A position reached again by a shorter path is reopened, so an admissible
/// heuristic gives a shortest solution even when it is not consistent. The goal test is
/// applied when a position is taken from the open list.
pub fn astar<P, H>(puzzle: &P, heuristic: H, options: &Options) -> SearchResult<P::Move>
where
    P: Puzzle,
    H: FnMut(&P::State) -> f64,
{
    best_first(puzzle, heuristic, options, true)
}

fn best_first<P, H>(
    puzzle: &P,
    mut heuristic: H,
    options: &Options,
    astar: bool,
) -> SearchResult<P::Move>
where
    P: Puzzle,
    H: FnMut(&P::State) -> f64,
{
    let t0 = Instant::now();
    let root = puzzle.initial();
    let mut stats = SearchStats {
        iterations: 1,
        ..SearchStats::default()
    };
    let mut state_heap = 2 * puzzle.state_heap_bytes(&root);
    let h0 = heuristic(&root);
    let mut nodes: Vec<Node<P::State, P::Move>> = vec![Node {
        state: root.clone(),
        parent: u32::MAX,
        mv: None,
        g: 0,
    }];
    let mut hs: Vec<f64> = vec![h0];
    let mut index: FastMap<P::State, u32> = FastMap::default();
    index.insert(root.clone(), 0);
    let mut open = BinaryHeap::new();
    let mut seq = 0u64;
    let mut buf = Vec::new();
    let mut found = None;
    let mut status = Status::NoSolution;
    if puzzle.is_goal(&root) {
        found = Some(0);
    } else if h0.is_finite() {
        open.push(Entry {
            key: h0,
            h: h0,
            seq,
            node: 0,
            g: 0,
        });
    }
    while found.is_none() {
        let Some(e) = open.pop() else { break };
        let id = e.node as usize;
        if e.g > nodes[id].g {
            continue; // stale: the position was reached by a shorter path since
        }
        if astar && puzzle.is_goal(&nodes[id].state) {
            found = Some(e.node);
            break;
        }
        if let Some(stop) = over_limit(options, stats.expanded) {
            status = stop;
            break;
        }
        let state = nodes[id].state.clone();
        let last = nodes[id].mv;
        let g = nodes[id].g + 1;
        stats.expanded += 1;
        puzzle.successors(&state, &mut buf);
        for (m, t) in buf.drain(..) {
            if options.skip_opposite && last.is_some_and(|l| puzzle.is_opposite(l, m)) {
                continue;
            }
            stats.generated += 1;
            let child = match index.get(&t) {
                Some(&j) => {
                    let j = j as usize;
                    if !astar || g >= nodes[j].g || !hs[j].is_finite() {
                        continue;
                    }
                    nodes[j].g = g;
                    nodes[j].parent = e.node;
                    nodes[j].mv = Some(m);
                    j
                }
                None => {
                    let h = heuristic(&t);
                    let j = nodes.len();
                    state_heap += 2 * puzzle.state_heap_bytes(&t);
                    let goal = !astar && puzzle.is_goal(&t);
                    index.insert(t.clone(), j as u32);
                    nodes.push(Node {
                        state: t,
                        parent: e.node,
                        mv: Some(m),
                        g,
                    });
                    hs.push(h);
                    if goal {
                        found = Some(j as u32);
                        break;
                    }
                    if !h.is_finite() {
                        continue;
                    }
                    j
                }
            };
            seq += 1;
            let h = hs[child];
            let key = if astar { f64::from(g) + h } else { h };
            open.push(Entry {
                key,
                h,
                seq,
                node: child as u32,
                g,
            });
        }
    }
    stats.peak_bytes = vec_bytes(&nodes)
        + vec_bytes(&hs)
        + map_bytes(&index)
        + heap_bytes(&open)
        + vec_bytes(&buf)
        + state_heap;
    stats.elapsed = t0.elapsed();
    match found {
        Some(id) => SearchResult {
            status: Status::Solved,
            solution: Some(path_from(&nodes, id)),
            stats,
        },
        None => SearchResult {
            status,
            solution: None,
            stats,
        },
    }
}
