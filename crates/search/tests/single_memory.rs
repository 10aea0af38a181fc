//! The solvers' memory figures (from container capacities) checked against a counting global
//! allocator. One test only: the allocator counts every thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use tessera_search::single::{self, Algorithm, Options};
use tessera_tiles::Heuristic;
use tessera_tiles::generator::{GenConfig, generate};

struct Counting;
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn reported_peak_matches_the_allocator() {
    let mut cfg = GenConfig::new(8, 3, 12);
    cfg.obstacle_density = 0.1;
    let level = generate(&cfg, &mut tessera_core::rng::seeded(5)).unwrap();
    let opts = Options::default();
    for algo in Algorithm::ALL {
        let base = CURRENT.load(Relaxed);
        PEAK.store(base, Relaxed);
        let r = single::solve(
            &level,
            algo,
            |s| Heuristic::Admissible.evaluate(&level, s),
            &opts,
        );
        let measured = PEAK.load(Relaxed) - base;
        let reported = r.stats.peak_bytes;
        // Growth briefly holds the old and the new buffer, so the allocator's peak may exceed
        // the containers' final size by up to about half; the solution vector is extra too.
        assert!(
            reported <= measured,
            "{algo}: reported {reported} > measured {measured}"
        );
        assert!(
            reported * 2 >= measured,
            "{algo}: reported {reported} << measured {measured}"
        );
        eprintln!("{algo}: reported {reported} measured {measured}");
        assert!(r.solution.is_some());
    }
}
