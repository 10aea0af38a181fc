//! One module per subcommand; each owns its arguments and its `run`.

pub mod agents;
pub mod analyze_endgame;
pub mod analyze_search;
pub mod analyze_wall;
pub mod engine;
pub mod export;
pub mod games;
pub mod merge;
pub mod play_azul;
pub mod play_generic;
pub mod play_qwirkle;
pub mod play_tiles;
pub mod report;
pub mod serve;
pub mod solve_tiles;
pub mod split;
pub mod tournament;
pub mod train;
pub mod train_net;
pub mod values;
