//! # tessera-qwirkle
//!
//! Qwirkle for 2-4 players under the official rules: 108 tiles (6 colours x 6 shapes x 3),
//! hands of 6, the first-move rule, placing and trading, scoring with the Qwirkle bonus, the
//! +6 for going out and the blocked-game end. The board is unbounded. Hands and the bag are
//! hidden: players see a [`QwirkleView`], agents get determinized states.
//!
//! - [`Qwirkle`]: the state, implementing [`tessera_core::Game`] (text and JSON forms).
//! - [`Move`], [`Placement`], [`Trade`], [`Tile`]: moves and their notation (`R1@0,0 R2@1,0`,
//!   `trade R1 O4`, `pass`).
//! - [`movegen`]: the complete generator of legal placements, with scores.
//! - [`bots`]: the seed's points bot and smarter bot, and a stronger lookahead bot.
//! - [`mc`]: the determinized Monte Carlo bot; [`seer`]: Monte Carlo with inference of the
//!   opponents' hands from what they did not play; [`sage`]: `seer` with play-outs to its own
//!   next turn at every table size, a leave value and an exact endgame search.
//!
//! ```
//! use tessera_core::{Game, play_game, Budget};
//! use tessera_qwirkle::{Qwirkle, bots::PointsBot};
//! let (mut a, mut b) = (PointsBot::new(), PointsBot::new());
//! let (end, record) = play_game(Qwirkle::new(2).unwrap(), &mut [&mut a, &mut b],
//!     &Budget::default(), 7, None, &mut ()).unwrap();
//! assert!(end.is_terminal());
//! assert!(record.num_actions() > 10);
//! ```

#![warn(missing_docs)]

pub mod action;
pub mod board;
pub mod bots;
pub mod error;
pub mod leave;
pub mod mc;
pub mod movegen;
pub mod sage;
pub mod seer;
pub mod state;
pub mod tile;

#[cfg(test)]
mod test_positions;

pub use action::{HAND_SIZE, Move, Placed, Placement, Trade};
pub use board::{Board, BoardTile};
pub use error::{DrawError, MoveError, ParseError};
pub use state::{End, Hand, Phase, Qwirkle, QwirkleView};
pub use tile::{Line, Tile, TileCounts};
