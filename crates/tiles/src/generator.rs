//! A seeded generator of random solvable levels with a wanted optimum.
//!
//! Method: draw obstacles (each cell with probability `obstacle_density`) and start cells for
//! the pieces, list every position reachable from the start by breadth-first search, and put
//! the targets on the cells of a position at distance exactly `optimal` (drawn at random among
//! them, avoiding the start cells so the level can be written in the text format). With one
//! target per piece the only solved position is that one, so the level's optimum is exactly
//! `optimal`. Layouts with no position at that distance are redrawn.

use rand::Rng;
use rand::seq::SliceRandom;
use tessera_core::GameRng;

use crate::model::{Colour, Level, MAX_PIECES, MAX_SIDE};

/// Colour letters used by the generator, in order.
pub const COLOUR_LETTERS: [char; MAX_PIECES] = ['P', 'O', 'R', 'G', 'B', 'Y', 'C', 'W'];

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenConfig {
    /// Columns (1 to 16).
    pub width: usize,
    /// Rows (1 to 16).
    pub height: usize,
    /// Number of colours (1 to 8).
    pub colours: usize,
    /// Pieces per colour (colours x this is at most 8).
    pub pieces_per_colour: usize,
    /// Probability that a cell is an obstacle, in [0, 0.9].
    pub obstacle_density: f64,
    /// The wanted optimal number of moves (at least 1).
    pub optimal: u32,
    /// Layouts drawn before giving up.
    pub max_attempts: u32,
    /// Largest number of positions explored per layout.
    pub state_limit: usize,
}

impl GenConfig {
    /// A square level of `side` with `colours` colours (one piece each), 15% obstacles and
    /// optimum `optimal`.
    pub fn new(side: usize, colours: usize, optimal: u32) -> GenConfig {
        GenConfig {
            width: side,
            height: side,
            colours,
            pieces_per_colour: 1,
            obstacle_density: 0.15,
            optimal,
            max_attempts: 1000,
            state_limit: 2_000_000,
        }
    }
}

/// Why no level was generated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenError {
    /// The configuration is impossible.
    #[error("bad generator settings: {0}")]
    BadConfig(String),
    /// No layout with a position at the wanted distance was found.
    #[error(
        "no level with optimum {optimal} found in {attempts} attempts; try a smaller optimum, a larger grid or another density"
    )]
    NotFound {
        /// The wanted optimum.
        optimal: u32,
        /// Layouts tried.
        attempts: u32,
    },
}

/// Draws a random level with exactly the wanted optimum.
///
/// ```
/// use tessera_tiles::generator::{generate, GenConfig};
/// let mut rng = tessera_core::rng::seeded(1);
/// let level = generate(&GenConfig::new(5, 2, 6), &mut rng)?;
/// assert_eq!(level.optimal_length().unwrap(), Some(6));
/// # Ok::<(), tessera_tiles::generator::GenError>(())
/// ```
pub fn generate(cfg: &GenConfig, rng: &mut GameRng) -> Result<Level, GenError> {
    let k = cfg.colours * cfg.pieces_per_colour;
    let n = cfg.width * cfg.height;
    if cfg.width == 0 || cfg.height == 0 || cfg.width > MAX_SIDE || cfg.height > MAX_SIDE {
        return Err(GenError::BadConfig(format!(
            "size {}x{} is not 1..=16",
            cfg.width, cfg.height
        )));
    }
    if k == 0 || k > MAX_PIECES {
        return Err(GenError::BadConfig(format!(
            "{k} pieces: need 1 to {MAX_PIECES}"
        )));
    }
    if 2 * k > n {
        return Err(GenError::BadConfig("too many pieces for the grid".into()));
    }
    if !(0.0..=0.9).contains(&cfg.obstacle_density) {
        return Err(GenError::BadConfig(
            "obstacle density must be in [0, 0.9]".into(),
        ));
    }
    if cfg.optimal == 0 {
        return Err(GenError::BadConfig("the optimum must be at least 1".into()));
    }
    let colours: Vec<Colour> = (0..k)
        .map(|i| {
            Colour::from_letter(COLOUR_LETTERS[i / cfg.pieces_per_colour])
                .unwrap_or_else(|| unreachable!())
        })
        .collect();
    let mut cells: Vec<usize> = (0..n).collect();
    for _ in 0..cfg.max_attempts {
        let obstacles: Vec<bool> = (0..n)
            .map(|_| rng.random_bool(cfg.obstacle_density))
            .collect();
        let mut free: Vec<usize> = cells.iter().copied().filter(|&c| !obstacles[c]).collect();
        if free.len() < 2 * k {
            continue;
        }
        free.shuffle(rng);
        let pieces: Vec<(usize, Colour)> = free[..k]
            .iter()
            .copied()
            .zip(colours.iter().copied())
            .collect();
        // A placeholder target set so the level can be built; replaced below.
        let dummy: Vec<(usize, Colour)> = free[k..2 * k]
            .iter()
            .copied()
            .zip(colours.iter().copied())
            .collect();
        let Ok(probe) = Level::new(cfg.width, cfg.height, obstacles.clone(), &pieces, &dummy)
        else {
            continue;
        };
        let start = probe.start();
        let Ok(reach) = probe.distances(&start, cfg.optimal, cfg.state_limit) else {
            continue;
        };
        let start_cells: Vec<usize> = start.cells().collect();
        let mut far: Vec<_> = reach
            .iter()
            .filter(|(s, d)| *d == cfg.optimal && s.cells().all(|c| !start_cells.contains(&c)))
            .map(|(s, _)| *s)
            .collect();
        if far.is_empty() {
            continue;
        }
        let goal = far.swap_remove(rng.random_range(0..far.len()));
        let targets: Vec<(usize, Colour)> = goal
            .cells()
            .enumerate()
            .map(|(i, c)| (c, probe.piece_colour(i)))
            .collect();
        let Ok(mut level) = Level::new(cfg.width, cfg.height, obstacles, &pieces, &targets) else {
            continue;
        };
        level.set_known(Some(cfg.optimal), None);
        cells.clear();
        return Ok(level);
    }
    Err(GenError::NotFound {
        optimal: cfg.optimal,
        attempts: cfg.max_attempts,
    })
}
