//! Agents built once per worker and reused from game to game (reset between games) play
//! exactly the games that agents built afresh for every game play: same records, same
//! tables.

use tessera_arena::runner::{RunOptions, run_tournament};
use tessera_arena::schedule::RunParams;
use tessera_arena::store::Store;
use tessera_arena::{driver, report};

fn run(
    game: &str,
    agents: &[&str],
    players: usize,
    games: u64,
    fresh: bool,
) -> (Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("runs.sqlite")).unwrap();
    let params = RunParams::new(game, agents, players, games, 1, 11);
    let d = driver(game).unwrap();
    let opts = RunOptions {
        jobs: 2,
        fresh_agents: fresh,
        ..RunOptions::default()
    };
    let r = run_tournament(d.as_ref(), &params, &mut store, &opts, &mut ()).unwrap();
    let records = store
        .games(r.run.id)
        .unwrap()
        .into_iter()
        .map(|g| g.game.record)
        .collect();
    let table = report::render(&r.run, &r.summary, &r.analysis, report::Format::Csv);
    (records, table)
}

#[test]
fn reused_agents_play_the_same_games_as_fresh_ones() {
    // Search players with node budgets (deterministic, and `strong` keeps a transposition
    // table across moves), the thesis' heuristics and a random player, in a round robin.
    let agents = ["strong:nodes=1500", "presort:nodes=800", "greedy", "random"];
    let (reused, t1) = run("azul", &agents, 2, 4, false);
    let (fresh, t2) = run("azul", &agents, 2, 4, true);
    assert_eq!(reused.len(), 24);
    assert_eq!(reused, fresh);
    assert_eq!(t1, t2);
    // Three seats, multi-player search.
    let agents = ["presort:nodes=500:multi=maxn", "strategic", "random"];
    let (reused, _) = run("azul", &agents, 3, 3, false);
    let (fresh, _) = run("azul", &agents, 3, 3, true);
    assert_eq!(reused, fresh);
    // Qwirkle's bots (hidden hands: agents see determinized states).
    let agents = ["lookahead:samples=2:candidates=3", "smarter", "points"];
    let (reused, _) = run("qwirkle", &agents, 2, 2, false);
    let (fresh, _) = run("qwirkle", &agents, 2, 2, true);
    assert_eq!(reused, fresh);
}
