//! `tessera train azul-augur`: regenerate `augur`'s win-chance weights from a seed.
//!
//! Two steps, so self-play scales out like a tournament:
//! 1. self-play: `--seed S --games N [--shard K/N] --data rows-K.txt` plays the games of
//!    slice K (game `i` belongs to slice `i mod N + 1`; each game from its own seed
//!    `derive_seed(S, i)`, on a `Table` with per-seat generators as in a tournament; players
//!    are reset between games, so a slice's games do not depend on the others) and writes
//!    one training row per position;
//! 2. fit: `--fit rows-1.txt,rows-2.txt --out weights.json` reads the slices (in any order:
//!    rows are sorted by game and position first), fits one logistic regression per game
//!    stage, prints held-out figures (games with `i mod 10 = 9` left out) and writes the
//!    weights fitted on every row.
//!
//! Without `--fit`, with `--out` and the whole run (`--shard 1/1`), both steps run at once.
//!
//! `tessera train azul-board-net --fit ROWS --observations OBS --out NET.json` fits augur's
//! board network on a self-play run's rows and observations ([`super::train_net`]).

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tessera_arena::schedule::Shard;
use tessera_azul::augur::{
    BASE_FEATURES, NUM_STAGES, TrainingInfo, TrainingRow, WeightsFile, result_shares, stage,
};
use tessera_azul::observation::{observation_len, write_observation};
use tessera_azul::{AzulState, Phase};
use tessera_core::record::{Event, GameSeeds, Observer};
use tessera_core::rng::derive_seed;
use tessera_core::{Agent, Blundering, Game, PlayerId, Seat, Table};
use tessera_house::games::ArenaGame;
use tessera_house::spec::AgentSpec;
use tessera_search::learn::{Dataset, evaluate_logistic, fit_logistic};

use super::train_net::read_rows;

/// Arguments of `tessera train`: what to train, each with its own flags (a flag of the other
/// model is refused by name, not ignored).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to train.
    #[command(subcommand)]
    pub model: Model,
}

/// The models `tessera train` fits.
#[derive(clap::Subcommand, Debug)]
pub enum Model {
    /// Azul's augur: a logistic evaluation fitted on self-play positions.
    #[command(after_help = "Examples:
  tessera train azul-augur --seed 1 --games 2000 --data rows.txt --out crates/azul/weights/augur-v1.json
  tessera train azul-augur --seed 1 --games 2000 --shard 2/4 --data rows-2.txt
  tessera train azul-augur --fit rows-1.txt,rows-2.txt,rows-3.txt,rows-4.txt --seed 1 --games 2000 --out augur.json
  tessera train azul-augur --players 3 --seed 3 --games 3000 --player augur:nodes=2000 --data rows3p.txt --out augur-3p.json
  tessera train azul-augur --seed 31 --games 8000 --player augur:nodes=2000 --features 17 --shard 1/2 --data rows-1.txt --observations obs-1.txt")]
    AzulAugur(AugurArgs),
    /// augur's board network: a network on the whole observation beside the 17 features'
    /// weights, fitted on a self-play run's rows and observations (`augur:weights=v7`'s kind).
    #[command(
        after_help = "Example (rows and observations from `tessera train azul-augur --features 17 --data rows-K.txt --observations obs-K.txt`):
  tessera train azul-board-net --fit rows-1.txt,rows-2.txt --observations obs-1.txt,obs-2.txt --out net.json"
    )]
    AzulBoardNet(NetArgs),
    /// Qwirkle's learned leave (`sage:lleave=W`): the points a player scores on its next
    /// turn as a linear function of the tiles it kept, fitted by least squares on seeded games
    /// of the `points` policy against itself.
    #[command(after_help = "Example (the shipped weights):
  tessera train qwirkle-leave --games 20000 --seed 4242 --check")]
    QwirkleLeave(LeaveArgs),
}

/// `tessera train qwirkle-leave`.
#[derive(clap::Args, Debug)]
pub struct LeaveArgs {
    /// Master seed of the games.
    #[arg(long, default_value_t = 4242)]
    pub seed: u64,
    /// Games of `points` against itself (with exploration among its six best placements).
    #[arg(long, default_value_t = 20000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Fail unless the fitted weights equal the shipped ones (to the thousandth).
    #[arg(long)]
    pub check: bool,
}

/// `tessera train azul-augur`.
#[derive(clap::Args, Debug)]
pub struct AugurArgs {
    /// Master seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players at the self-play table (2-4). With more than two, each position gives a row
    /// per pair of players in which one won (a pairwise fit of the conditional logit).
    #[arg(long, default_value_t = 2, value_parser = super::values::players_of(&AzulState::INFO))]
    pub players: usize,
    /// Self-play games in the whole run (all slices).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// Play only slice K of N of the games, e.g. 2/8.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// The self-play player (any Azul registry spec; use a node budget for reproducibility),
    /// or one spec per seat, comma-separated (as many as --players): game i seats spec k at
    /// seat (k + i) mod players, so every spec plays from every seat.
    #[arg(long, default_value = "strong:nodes=1500", value_delimiter = ',')]
    pub player: Vec<AgentSpec>,
    /// Chance of a uniformly random move instead of the player's (for varied positions).
    #[arg(long, default_value_t = 0.05)]
    pub epsilon: f64,
    /// The training rows file to write (self-play).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// With --data: also write, for the same positions, one line per position and seat:
    /// `GAME PLY SEAT STAGE SHARE` and the seat's observation vector (every number on the
    /// table, its own board first; layout in docs/python.md), for learning a value of the
    /// whole board (`tessera train azul-board-net`).
    #[arg(long, value_delimiter = ',')]
    pub observations: Option<Vec<PathBuf>>,
    /// Fit from these comma-separated row files instead of playing.
    #[arg(long, value_delimiter = ',')]
    pub fit: Option<Vec<PathBuf>>,
    /// The weights file to write.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// With --fit: also print the held-out log loss of this weights file (for example the
    /// shipped one) on the same held-out rows, beside the new fit's.
    #[arg(long)]
    pub compare: Option<PathBuf>,
    /// L2 regularisation of the fit.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Fit the first K features: 14 (the base features, as every file before 2026-11-25)
    /// up to 17 (with the three features of the tiles on the table).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u8).range(14..=17))]
    pub features: u8,
}

/// `tessera train azul-board-net`.
#[derive(clap::Args, Debug)]
pub struct NetArgs {
    /// The self-play run's comma-separated row files (`azul-augur --data`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub fit: Vec<PathBuf>,
    /// The run's comma-separated observation files (`azul-augur --observations`), one per
    /// --fit file, in the same order.
    #[arg(long, value_delimiter = ',', required = true)]
    pub observations: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Players at the self-play table of the rows (2-4).
    #[arg(long, default_value_t = 2, value_parser = super::values::players_of(&AzulState::INFO))]
    pub players: usize,
    /// Seed of the network's first weights and of the order of its training rows.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hidden units of the network.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=tessera_azul::board_net::MAX_HIDDEN as i64))]
    pub hidden: u16,
    /// Passes over the training rows (the best on the epoch-choosing games is kept).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub epochs: u16,
    /// L2 on the network's first layer.
    #[arg(long, default_value_t = 1e-3)]
    pub decay: f64,
    /// Adam's step size.
    #[arg(long, default_value_t = 5e-4)]
    pub lr: f64,
    /// L2 of the 17 features' logistic fit (the network's linear part starts there).
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Also print, per stage, the held-out log loss of this network on the same held-out
    /// rows: a board network file, or a shipped one by name (net1, net2-3p, net3, net4-3p,
    /// net5), fitted for the same table size.
    #[arg(long)]
    pub compare: Option<String>,
}

// The --features range above is written out: it must be the base features to all of them.
const _: () = assert!(BASE_FEATURES == 14 && tessera_azul::augur::NUM_FEATURES == 17);

/// Runs `tessera train`.
pub fn run(a: Args) -> Result<()> {
    match a.model {
        Model::AzulAugur(a) => augur(a),
        Model::AzulBoardNet(a) => board_net(&a),
        Model::QwirkleLeave(a) => qwirkle_leave(&a),
    }
}

/// `tessera train qwirkle-leave`: prints the weights, and with `--check` compares them with
/// the shipped ones.
fn qwirkle_leave(a: &LeaveArgs) -> Result<()> {
    use tessera_qwirkle::leave;
    let eq = leave::normal_equations(a.games, a.seed).context("playing the games")?;
    let w = tessera_search::learn::solve_spd(&eq.ridged(leave::RIDGE), &eq.b, leave::FEATURES)
        .context("the leave's least squares has no unique solution")?;
    println!(
        "# {} leaves from {} games of points against itself, seed {}",
        eq.samples, a.games, a.seed
    );
    for (name, (v, shipped)) in leave::NAMES.iter().zip(w.iter().zip(&leave::WEIGHTS)) {
        println!("{name:>9} {v:+.3} (shipped {shipped:+.3})");
    }
    let rounded: Vec<String> = w.iter().map(|v| format!("{v:.3}")).collect();
    println!("weights: [{}]", rounded.join(", "));
    if a.check {
        let differ: Vec<&str> = leave::NAMES
            .iter()
            .zip(w.iter().zip(&leave::WEIGHTS))
            .filter(|(_, (v, s))| (*v - *s).abs() > 0.0005)
            .map(|(n, _)| *n)
            .collect();
        if !differ.is_empty() {
            bail!(
                "the fitted weights differ from the shipped ones in {}",
                differ.join(", ")
            );
        }
        println!("the fitted weights equal the shipped ones");
    }
    Ok(())
}

/// `tessera train azul-augur`.
fn augur(a: AugurArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&a.epsilon) {
        bail!("--epsilon {}: expected a probability in 0-1", a.epsilon);
    }
    if !(a.l2 >= 0.0 && a.l2.is_finite()) {
        bail!("--l2 {}: expected a number >= 0", a.l2);
    }
    if let Some(list) = &a.fit {
        if a.observations.is_some() {
            bail!(
                "--observations is written while playing: give it with --data, not --fit (azul-board-net reads it)"
            );
        }
        let out = a
            .out
            .as_ref()
            .context("--fit needs --out FILE for the weights")?;
        let mut rows = Vec::new();
        for f in list {
            rows.extend(read_rows(f)?);
        }
        return fit_and_write(&a, rows, out);
    }
    let data = a
        .data
        .as_ref()
        .context("self-play needs --data FILE for the training rows (or --fit FILES)")?;
    let shard = a.shard;
    let rows = self_play(&a, shard, data)?;
    if let Some(out) = &a.out {
        if shard != Shard::ALL {
            bail!("--out with --shard {shard}: fit the merged slices with --fit instead");
        }
        fit_and_write(&a, rows, out)?;
    }
    Ok(())
}

/// Every state of a game, after each event (deal or move).
struct States(Vec<AzulState>);

impl Observer<AzulState> for States {
    fn on_event(&mut self, state: &AzulState, _: &Event<<AzulState as Game>::Chance>) {
        self.0.push(state.clone());
    }
}

/// Plays the slice's games, writes their rows to `path` and returns them.
///
/// Each game is a [`Table`] as in a tournament: set up from the game's setup stream, its
/// deals from the chance stream, each seat thinking with its own generator within its
/// plan's budget. `--epsilon` is the seat's chance of a blunder ([`Blundering`], from the
/// seat's generator). One agent per spec, reset between games (as tournament workers do).
fn self_play(a: &AugurArgs, shard: Shard, path: &PathBuf) -> Result<Vec<TrainingRow>> {
    let registry = tessera_house::registry::azul::registry();
    let specs = seat_specs(&a.player, a.players)?;
    let plans = specs
        .iter()
        .map(|spec| {
            registry
                .parse(spec)
                .with_context(|| format!("--player {spec}"))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut agents = plans
        .iter()
        .zip(&specs)
        .map(|(plan, spec)| {
            let agent = plan.build().with_context(|| format!("--player {spec}"))?;
            Ok(match a.epsilon {
                e if e > 0.0 => Box::new(Blundering::new(agent, e)) as Box<dyn Agent<AzulState>>,
                _ => agent,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let file = std::fs::File::create(path)
        .with_context(|| format!("cannot create the rows file {}", path.display()))?;
    let mut w = BufWriter::new(file);
    let mut obs_out = match a.observations.as_deref() {
        Some([p]) => Some(BufWriter::new(std::fs::File::create(p).with_context(
            || format!("cannot create the observations file {}", p.display()),
        )?)),
        Some(list) => bail!(
            "--observations: {} files; self-play writes one, beside its --data",
            list.len()
        ),
        None => None,
    };
    let mut obs = vec![0.0f32; observation_len(a.players)];
    let mut line = String::new();
    let mut all = Vec::new();
    let start = std::time::Instant::now();
    let mut played = 0u64;
    for game in 0..a.games {
        if game % u64::from(shard.count) != u64::from(shard.index - 1) {
            continue;
        }
        let seed = derive_seed(a.seed, game);
        let initial = AzulState::new_game(a.players, &mut GameSeeds { seed }.setup_rng());
        // Spec k sits at seat (k + game) mod players: each spec once per game.
        let mut free: Vec<Option<&mut Box<dyn Agent<AzulState>>>> =
            agents.iter_mut().map(Some).collect();
        let mut seats = Vec::with_capacity(a.players);
        for seat in 0..a.players {
            let k = seat_spec(seat, game, a.players);
            let agent = free[k].take().context("each spec sits once per game")?;
            agent.reset();
            seats.push(Seat::agent(Box::new(agent.as_mut()), plans[k].budget()));
        }
        let mut table = Table::new(initial, seats, seed)?;
        let mut states = States(Vec::new());
        table.play_out(Some(AzulState::MAX_ACTIONS), &mut states)?;
        let s = table.state().clone();
        drop(table);
        let states = states.0;
        let shares = result_shares(&s).context("a finished game has a result")?;
        for (ply, st) in states.iter().enumerate() {
            for row in TrainingRow::of(st, game, ply as u32, &shares) {
                writeln!(w, "{}", row.to_line())?;
                all.push(row);
            }
            // The positions that give rows: those before the game is over (a finished game's
            // value is exact). Only the stage is needed, not the features.
            if let Some(out) = obs_out.as_mut()
                && st.phase() != Phase::Over
            {
                let stage = stage(st);
                for p in PlayerId::all(a.players) {
                    write_observation(st, p, &mut obs);
                    line.clear();
                    write!(
                        line,
                        "{game} {ply} {} {} {}",
                        p.index(),
                        stage,
                        shares[p.index()]
                    )?;
                    for x in &obs {
                        write!(line, " {x}")?;
                    }
                    writeln!(out, "{line}")?;
                }
            }
        }
        played += 1;
        if played.is_multiple_of(50) {
            eprintln!(
                "{played} games, {} rows, {:.0} s",
                all.len(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    w.flush()?;
    if let Some(out) = obs_out.as_mut() {
        out.flush()?;
    }
    eprintln!(
        "slice {shard}: {played} games, {} rows written to {} in {:.0} s",
        all.len(),
        path.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(all)
}

/// `--player` as given: the specs, comma-separated.
fn player_text(player: &[AgentSpec]) -> String {
    let texts: Vec<&str> = player.iter().map(|s| s.text.as_str()).collect();
    texts.join(",")
}

/// The specs of `--player` (each checked as the arguments were read): one for every seat,
/// or exactly one per seat.
fn seat_specs(player: &[AgentSpec], players: usize) -> Result<Vec<String>> {
    let specs: Vec<String> = player.iter().map(|s| s.text.clone()).collect();
    match specs.as_slice() {
        [one] => Ok(vec![one.clone(); players]),
        all if all.len() == players => Ok(specs),
        all => bail!(
            "--player {}: {} specs for {players} players; expected one spec, or one per seat",
            player_text(player),
            all.len()
        ),
    }
}

/// Which of the seat specs plays at `seat` in game `game`: spec k sits at seat
/// `(k + game) mod players`.
fn seat_spec(seat: usize, game: u64, players: usize) -> usize {
    let shift = (game % players as u64) as usize;
    (seat + players - shift) % players
}

fn datasets(rows: &[TrainingRow], k: usize, keep: impl Fn(&TrainingRow) -> bool) -> Vec<Dataset> {
    let mut sets: Vec<Dataset> = (0..NUM_STAGES).map(|_| Dataset::new(k)).collect();
    let mut x = vec![0.0f64; k];
    for r in rows.iter().filter(|r| keep(r)) {
        for (xi, d) in x.iter_mut().zip(r.diff) {
            *xi = f64::from(d);
        }
        sets[r.stage].push(&x, r.label);
    }
    sets
}

/// Sorts the rows by game, position and pair, drops exact repeats (a slice given twice) and
/// refuses rows of different runs under one key or of more players than `players`.
fn prepare_rows(mut rows: Vec<TrainingRow>, players: usize) -> Result<Vec<TrainingRow>> {
    if rows.is_empty() {
        bail!("no training rows");
    }
    rows.sort_by_key(|r| (r.game, r.ply, r.pair));
    // A slice given twice repeats its rows exactly, and the copies go. Two different rows
    // under one (game, position, pair) come from different self-play runs (other seeds or
    // players) whose game numbers overlap: keeping one would silently drop the other.
    if let Some(w) = rows.windows(2).find(|w| {
        (w[0].game, w[0].ply, w[0].pair) == (w[1].game, w[1].ply, w[1].pair) && w[0] != w[1]
    }) {
        bail!(
            "two different rows for game {}, position {}, pair {}: the row files come from different self-play runs (fit one run's slices together)",
            w[0].game,
            w[0].ply,
            w[0].pair
        );
    }
    rows.dedup_by_key(|r| (r.game, r.ply, r.pair));
    // A table of n players has n(n-1)/2 pairs: a higher pair index means the rows came from
    // more players than --players says (the weights file would record the wrong table).
    let pairs = players * (players - 1) / 2;
    if let Some(r) = rows.iter().find(|r| usize::from(r.pair) >= pairs) {
        bail!(
            "row of game {} has pair {}: the rows come from more than {} players; pass the --players of the self-play run",
            r.game,
            r.pair,
            players
        );
    }
    Ok(rows)
}

/// `tessera train azul-board-net`.
fn board_net(a: &NetArgs) -> Result<()> {
    for (name, x) in [("--l2", a.l2), ("--decay", a.decay)] {
        if !(x >= 0.0 && x.is_finite()) {
            bail!("{name} {x}: expected a number >= 0");
        }
    }
    if !(a.lr > 0.0 && a.lr.is_finite()) {
        bail!("--lr {}: expected a step size > 0", a.lr);
    }
    let compare = a
        .compare
        .as_deref()
        .map(|name| super::train_net::compared_net(name, a.players).map(|net| (name, net)))
        .transpose()?;
    super::train_net::fit_net(&super::train_net::NetSettings {
        players: a.players,
        rows: &a.fit,
        observations: &a.observations,
        config: tessera_search::learn::net::NetConfig {
            hidden: usize::from(a.hidden),
            epochs: usize::from(a.epochs),
            seed: a.seed,
            decay: a.decay,
            linear_l2: a.l2,
            lr: a.lr,
            batch: 512,
        },
        l2: a.l2,
        out: &a.out,
        compare: compare.as_ref().map(|(name, net)| (*name, net)),
    })
}

fn fit_and_write(a: &AugurArgs, rows: Vec<TrainingRow>, out: &PathBuf) -> Result<()> {
    let rows = prepare_rows(rows, a.players)?;
    let compare = match &a.compare {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --compare {}", path.display()))?;
            Some(
                WeightsFile::parse(&text)
                    .with_context(|| format!("--compare {}", path.display()))?,
            )
        }
        None => None,
    };
    let k = usize::from(a.features);
    if let Some(other) = &compare
        && other.features.len() > k
    {
        bail!(
            "--compare has {} features and the fit {}: pass --features {} to compare on the same features",
            other.features.len(),
            k,
            other.features.len()
        );
    }
    let held = |r: &TrainingRow| r.game % 10 == 9;
    let train = datasets(&rows, k, |r| !held(r));
    let test = datasets(&rows, k, held);
    let all = datasets(&rows, k, |_| true);
    let mut report = String::new();
    let _ = write!(
        report,
        "stage | rows | held-out rows | held-out log loss | held-out accuracy | log loss (all rows)"
    );
    match &a.compare {
        Some(path) => {
            let _ = writeln!(report, " | held-out log loss of {}", path.display());
        }
        None => report.push('\n'),
    }
    let mut stages = Vec::new();
    let mut info = TrainingInfo {
        command: format!(
            "tessera train azul-augur{} --seed {} --games {} --player {} --epsilon {} --l2 {}{}",
            if a.players == 2 {
                String::new()
            } else {
                format!(" --players {}", a.players)
            },
            a.seed,
            a.games,
            player_text(&a.player),
            a.epsilon,
            a.l2,
            if k == BASE_FEATURES {
                String::new()
            } else {
                format!(" --features {k}")
            }
        ),
        seed: a.seed,
        games: rows
            .iter()
            .map(|r| r.game)
            .collect::<std::collections::BTreeSet<_>>()
            .len() as u64,
        player: player_text(&a.player),
        rows: Vec::new(),
        log_loss: Vec::new(),
        l2: a.l2,
        players: a.players as u8,
    };
    for st in 0..NUM_STAGES {
        let held_fit = fit_logistic(&train[st], a.l2, 50);
        let (tl, ta) = evaluate_logistic(&test[st], &held_fit.weights);
        let fit = fit_logistic(&all[st], a.l2, 50);
        let _ = write!(
            report,
            "{st} | {} | {} | {tl:.4} | {:.1}% | {:.4}",
            all[st].len(),
            test[st].len(),
            100.0 * ta,
            fit.log_loss
        );
        match &compare {
            Some(other) => {
                // A file of fewer features weighs the others 0.
                let mut w = other.stages[st].clone();
                w.resize(k, 0.0);
                let (ol, _) = evaluate_logistic(&test[st], &w);
                let _ = writeln!(report, " | {ol:.4}");
            }
            None => report.push('\n'),
        }
        info.rows.push(all[st].len() as u64);
        info.log_loss.push(fit.log_loss);
        stages.push(fit.weights);
    }
    print!("{report}");
    let file = WeightsFile::new(stages, info);
    std::fs::write(out, file.to_json() + "\n")
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("weights written to {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seat_spec_plays_from_every_seat_in_turn() {
        // Game 0: spec k at seat k; game 1: spec 0 at seat 1; game 2: spec 0 at seat 2.
        assert_eq!(
            (0..3).map(|s| seat_spec(s, 0, 3)).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(
            (0..3).map(|s| seat_spec(s, 1, 3)).collect::<Vec<_>>(),
            [2, 0, 1]
        );
        assert_eq!(
            (0..3).map(|s| seat_spec(s, 5, 3)).collect::<Vec<_>>(),
            [1, 2, 0]
        );
        for players in 2..=4 {
            for game in 0..8u64 {
                let mut seats: Vec<usize> =
                    (0..players).map(|s| seat_spec(s, game, players)).collect();
                seats.sort_unstable();
                assert_eq!(seats, (0..players).collect::<Vec<_>>(), "a permutation");
                assert_eq!(seat_spec(game as usize % players, game, players), 0);
            }
        }
    }

    /// `--player TEXT` as clap reads it.
    fn player(text: &str) -> Result<Vec<AgentSpec>, clap::Error> {
        use clap::{FromArgMatches, Parser};
        #[derive(Parser)]
        struct T {
            #[command(flatten)]
            a: Args,
        }
        let m = <T as clap::CommandFactory>::command().try_get_matches_from([
            "t",
            "azul-augur",
            "--player",
            text,
        ])?;
        match T::from_arg_matches(&m)?.a.model {
            Model::AzulAugur(a) => Ok(a.player),
            Model::AzulBoardNet(_) | Model::QwirkleLeave(_) => {
                panic!("azul-augur was asked for")
            }
        }
    }

    #[test]
    fn player_specs_are_one_or_one_per_seat() {
        assert_eq!(
            seat_specs(&player("greedy").unwrap(), 3).unwrap(),
            ["greedy"; 3]
        );
        let mixed = player("augur:nodes=9, strong,strong").unwrap();
        assert_eq!(
            seat_specs(&mixed, 3).unwrap(),
            ["augur:nodes=9", "strong", "strong"]
        );
        assert_eq!(player_text(&mixed), "augur:nodes=9,strong,strong");
        let err = seat_specs(&player("a,b").unwrap(), 3)
            .unwrap_err()
            .to_string();
        assert!(err.contains("2 specs for 3 players"), "{err}");
        // An empty spec is clap's error, naming the argument.
        let err = player("a,,b").unwrap_err().to_string();
        assert!(err.contains("for '--player <PLAYER>'"), "{err}");
    }
}
