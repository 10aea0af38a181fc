//! Breadth-first search.

use std::collections::hash_map::Entry;
use std::time::Instant;

use tessera_core::Puzzle;

use super::memory::{FastMap, map_bytes, vec_bytes};
use super::{Node, Options, SearchResult, SearchStats, Status, over_limit, path_from};

/// Breadth-first search: shortest solutions. The node arena is the FIFO queue; the goal test
/// is applied when a position is first generated.
pub fn bfs<P: Puzzle>(puzzle: &P, options: &Options) -> SearchResult<P::Move> {
    let t0 = Instant::now();
    let root = puzzle.initial();
    let mut stats = SearchStats {
        iterations: 1,
        ..SearchStats::default()
    };
    let mut state_heap = 2 * puzzle.state_heap_bytes(&root);
    let mut nodes: Vec<Node<P::State, P::Move>> = vec![Node {
        state: root.clone(),
        parent: u32::MAX,
        mv: None,
        g: 0,
    }];
    let mut index: FastMap<P::State, u32> = FastMap::default();
    index.insert(root.clone(), 0);
    let mut buf = Vec::new();
    let mut found = puzzle.is_goal(&root).then_some(0u32);
    let mut status = Status::NoSolution;
    let mut head = 0usize;
    while found.is_none() && head < nodes.len() {
        if let Some(stop) = over_limit(options, stats.expanded) {
            status = stop;
            break;
        }
        let state = nodes[head].state.clone();
        let last = nodes[head].mv;
        let g = nodes[head].g;
        stats.expanded += 1;
        puzzle.successors(&state, &mut buf);
        for (m, t) in buf.drain(..) {
            if options.skip_opposite && last.is_some_and(|l| puzzle.is_opposite(l, m)) {
                continue;
            }
            stats.generated += 1;
            let id = nodes.len() as u32;
            match index.entry(t.clone()) {
                Entry::Occupied(_) => continue,
                Entry::Vacant(v) => {
                    v.insert(id);
                }
            }
            state_heap += 2 * puzzle.state_heap_bytes(&t);
            let goal = puzzle.is_goal(&t);
            nodes.push(Node {
                state: t,
                parent: head as u32,
                mv: Some(m),
                g: g + 1,
            });
            if goal {
                found = Some(id);
                break;
            }
        }
        head += 1;
    }
    stats.peak_bytes = vec_bytes(&nodes) + map_bytes(&index) + vec_bytes(&buf) + state_heap;
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
