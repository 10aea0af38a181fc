//! The search tree kept between iterations by alpha-beta with presorting: every node visited
//! stores its children (contiguously) with their last values, and children are sorted best
//! first after each visit, so the next, deeper iteration tries the most promising move first.

use super::value::Value;

#[derive(Clone, Debug)]
struct Node<A> {
    action: Option<A>,
    value: Value,
    visited: bool,
    expanded: bool,
    /// Children visited by the last finished visit (they are sorted first); 0 before.
    ranked: u32,
    first: u32,
    len: u32,
}

/// An arena of nodes; node 0 is the root.
#[derive(Clone, Debug)]
pub(crate) struct Tree<A> {
    nodes: Vec<Node<A>>,
}

impl<A: Copy> Tree<A> {
    pub(crate) fn new() -> Self {
        Tree { nodes: Vec::new() }
    }

    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
    }

    pub(crate) fn init_root(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node {
            action: None,
            value: 0,
            visited: false,
            expanded: false,
            ranked: 0,
            first: 0,
            len: 0,
        });
    }

    #[inline]
    pub(crate) fn expanded(&self, t: u32) -> bool {
        self.nodes[t as usize].expanded
    }

    /// Stores `actions` as the children of `t`, unless the tree would exceed `cap` nodes (the
    /// subtree is then searched without a tree).
    pub(crate) fn expand(&mut self, t: u32, actions: &[A], cap: usize) {
        if self.nodes.len() + actions.len() > cap
            || self.nodes.len() + actions.len() > u32::MAX as usize
        {
            return;
        }
        let first = self.nodes.len() as u32;
        self.nodes.extend(actions.iter().map(|&a| Node {
            action: Some(a),
            value: 0,
            visited: false,
            expanded: false,
            ranked: 0,
            first: 0,
            len: 0,
        }));
        let n = &mut self.nodes[t as usize];
        n.expanded = true;
        n.first = first;
        n.len = actions.len() as u32;
    }

    /// `(first, len)` of `t`'s children, if expanded.
    #[inline]
    pub(crate) fn children(&self, t: u32) -> Option<(u32, u32)> {
        let n = &self.nodes[t as usize];
        n.expanded.then_some((n.first, n.len))
    }

    #[inline]
    pub(crate) fn action(&self, t: u32) -> A {
        self.nodes[t as usize]
            .action
            .expect("only the root has no action")
    }

    /// How many of `t`'s children the last finished visit searched (they now come first,
    /// best first); 0 if none finished.
    #[inline]
    pub(crate) fn ranked(&self, t: u32) -> u32 {
        self.nodes[t as usize].ranked
    }

    /// Marks `t` as visited with the value it already has (a child skipped by forward
    /// pruning keeps its rank).
    #[inline]
    pub(crate) fn keep_value(&mut self, t: u32) {
        self.nodes[t as usize].visited = true;
    }

    #[inline]
    pub(crate) fn set_value(&mut self, t: u32, v: Value) {
        let n = &mut self.nodes[t as usize];
        n.value = v;
        n.visited = true;
    }

    /// Sorts `t`'s children: visited ones first, best first for the player to move
    /// (descending values at a maximising node, ascending at a minimising one), then the
    /// unvisited (pruned) ones in their previous order. Stable insertion sort: in place,
    /// no allocation, fast on the nearly sorted blocks of later iterations.
    pub(crate) fn sort_children(&mut self, t: u32, maximize: bool) {
        let Some((first, len)) = self.children(t) else {
            return;
        };
        let block = &mut self.nodes[first as usize..(first + len) as usize];
        let ranked = block.iter().filter(|n| n.visited).count() as u32;
        let key = |n: &Node<A>| -> (u8, Value) {
            if !n.visited {
                (1, 0)
            } else if maximize {
                (0, -n.value)
            } else {
                (0, n.value)
            }
        };
        for i in 1..block.len() {
            let mut j = i;
            while j > 0 && key(&block[j - 1]) > key(&block[j]) {
                block.swap(j - 1, j);
                j -= 1;
            }
        }
        for n in block.iter_mut() {
            n.visited = false;
        }
        self.nodes[t as usize].ranked = ranked;
    }
}
