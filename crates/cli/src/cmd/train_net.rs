//! `tessera train azul-board-net`: fit augur's board network (`tessera_azul::board_net`)
//! from a self-play run's rows and observations.
//!
//! The rows (`tessera train azul-augur --data ROWS`) and the observations (`--observations
//! OBS`, one line per position and seat) of one run are read, every row is joined to its
//! pair's two observation lines, and per stage: the games with index `mod 10 = 9` are held
//! out, those with `mod 10 = 8` choose the epoch, and the network is fitted on the rest by
//! [`tessera_search::learn::net::fit_pair_net`], its linear weights starting at the
//! logistic fit of the same rows. The printed table gives, on the held-out rows, the
//! logistic fit on the 14 base features and on all 17 (fitted on every row not held out, as
//! `azul-augur --fit` does) beside the network's. The file carries, per stage, three held-out
//! observations with the trainer's values, which the engine recomputes when it loads it.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tessera_azul::augur::{
    BASE_FEATURES, NUM_FEATURES, NUM_STAGES, TrainingRow, net_names, shipped_net,
};
use tessera_azul::board_net::{BoardNet, FileCheck, FileHeldOut, FileStage, NET_FORMAT, NetFile};
use tessera_azul::observation::observation_len;
use tessera_search::learn::net::{NetConfig, Observations, PairRows, fit_pair_net};
use tessera_search::learn::{Dataset, evaluate_logistic, fit_logistic, softplus};

/// What the fit needs beyond the rows.
pub struct NetSettings<'a> {
    /// The self-play table's size.
    pub players: usize,
    /// The row files, as given (recorded in the file).
    pub rows: &'a [PathBuf],
    /// The observation files, one per row file.
    pub observations: &'a [PathBuf],
    /// The network fit's settings.
    pub config: NetConfig,
    /// L2 of the logistic fits.
    pub l2: f64,
    /// The file to write.
    pub out: &'a Path,
    /// A network (its name as given, and the network) whose held-out log loss on the same
    /// rows is printed beside the fit's.
    pub compare: Option<(&'a str, &'a BoardNet)>,
}

/// The network `--compare` names: a shipped network by name, or a board network file;
/// fitted for `players`.
pub fn compared_net(name: &str, players: usize) -> Result<BoardNet> {
    let text = match shipped_net(name) {
        Some(text) => text.to_owned(),
        None => std::fs::read_to_string(name).with_context(|| {
            format!(
                "--compare {name}: expected a board network file or one of {}",
                net_names()
            )
        })?,
    };
    let net = BoardNet::parse(&text)
        .with_context(|| format!("--compare {name}: expected a board network file"))?;
    if net.players() != players {
        bail!(
            "--compare {name}: a network for {} players, expected one for {players} (the rows' --players)",
            net.players()
        );
    }
    Ok(net)
}

/// The held-out log loss of `net` at stage `stage` on `rows` (the model the fit's is: the
/// linear weights on the differences plus `V` of the first seat less `V` of the second).
fn compared_loss(net: &BoardNet, stage: usize, rows: &PairRows, obs: &Observations) -> f64 {
    let mut line = vec![0.0f32; obs.dim()];
    let mut value = |i: usize| {
        for (x, &o) in line.iter_mut().zip(obs.line(i)) {
            *x = f32::from(o);
        }
        f64::from(net.value(stage, &line))
    };
    let linear = net.linear(stage);
    let mut loss = 0.0;
    for i in 0..rows.len() {
        let lin: f64 = rows
            .differences(i)
            .iter()
            .zip(linear)
            .map(|(&d, &w)| d * f64::from(w))
            .sum();
        let z = lin + value(rows.first_line(i)) - value(rows.second_line(i));
        let y = rows.share(i);
        loss += y * softplus(-z) + (1.0 - y) * softplus(z);
    }
    loss / rows.len().max(1) as f64
}

/// The observation lines of every file read.
struct ObsStore {
    obs: Observations,
    /// Per line: the stage and the seat's share of the game's result.
    stage: Vec<u8>,
    share: Vec<f32>,
}

/// One line of an observations file: `GAME PLY SEAT STAGE SHARE` and the observation.
fn parse_line(
    line: &str,
    len: usize,
    players: usize,
    numbers: &mut Vec<u16>,
) -> Result<(u64, u32, usize, u8, f32)> {
    let mut t = line.split_ascii_whitespace();
    let mut head = || {
        t.next()
            .context("the line ends before its five header numbers")
    };
    let game: u64 = head()?.parse().context("GAME is not a whole number")?;
    let ply: u32 = head()?.parse().context("PLY is not a whole number")?;
    let seat: usize = head()?.parse().context("SEAT is not a whole number")?;
    let stage: u8 = head()?.parse().context("STAGE is not a whole number")?;
    let share: f32 = head()?.parse().context("SHARE is not a number")?;
    if seat >= players || usize::from(stage) >= NUM_STAGES || !(0.0..=1.0).contains(&share) {
        bail!(
            "seat {seat}, stage {stage}, share {share}: expected a seat below {players}, a stage below {NUM_STAGES} and a share in 0-1"
        );
    }
    numbers.clear();
    for x in t {
        numbers.push(x.parse().with_context(|| {
            format!("observation number '{x}' is not a whole number in 0-65535")
        })?);
    }
    if numbers.len() != len {
        bail!(
            "{} observation numbers, expected {len} (the observation at {players} players); pass the --players of the self-play run",
            numbers.len()
        );
    }
    Ok((game, ply, seat, stage, share))
}

/// Reads one observations file into `store`; returns where each position's lines start
/// (`(game, ply)` to its seat 0's line).
fn read_observations(
    path: &Path,
    players: usize,
    store: &mut ObsStore,
) -> Result<HashMap<(u64, u32), u32>> {
    let len = observation_len(players);
    let mut first = HashMap::new();
    let mut numbers = Vec::with_capacity(len);
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open the observations file {}", path.display()))?;
    // The position being read and the seat expected next.
    let mut at: Option<(u64, u32, usize)> = None;
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let whr = || format!("{}:{}", path.display(), i + 1);
        let (game, ply, seat, stage, share) =
            parse_line(&line, len, players, &mut numbers).with_context(whr)?;
        match at {
            Some((g, p, next)) if next < players => {
                if (g, p, next) != (game, ply, seat) {
                    bail!(
                        "{}: expected seat {next} of game {g} position {p}: each position has one line per seat, in seat order",
                        whr()
                    );
                }
            }
            _ => {
                if seat != 0 {
                    bail!(
                        "{}: a position's lines start with seat 0, found seat {seat}",
                        whr()
                    );
                }
                let index = u32::try_from(store.obs.len())
                    .context("more than 4 billion observation lines")?;
                if first.insert((game, ply), index).is_some() {
                    bail!(
                        "{}: game {game} position {ply} appears twice in the file",
                        whr()
                    );
                }
            }
        }
        at = Some((game, ply, seat + 1));
        store.obs.push(&numbers);
        store.stage.push(stage);
        store.share.push(share);
    }
    if let Some((g, p, next)) = at
        && next < players
    {
        bail!(
            "{}: game {g} position {p} ends after seat {}: each position has one line per seat",
            path.display(),
            next - 1
        );
    }
    Ok(first)
}

/// Reads a rows file (`tessera train azul-augur --data`).
pub fn read_rows(path: &Path) -> Result<Vec<TrainingRow>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open the rows file {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        rows.push(
            TrainingRow::parse(&line).with_context(|| format!("{}:{}", path.display(), i + 1))?,
        );
    }
    Ok(rows)
}

/// The seats `(p, q)` of each pair index at `n` players, as the rows number them.
fn pair_seats(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|p| (p + 1..n).map(move |q| (p, q)))
        .collect()
}

/// The rows of one stage in the four roles of the fit.
struct Split {
    /// Logistic data: every row not held out (17 and 14 features), the training rows.
    fit17: Dataset,
    fit14: Dataset,
    train17: Dataset,
    /// Logistic data of the held-out rows.
    test17: Dataset,
    test14: Dataset,
    /// Pair rows for the network.
    train: PairRows,
    choose: PairRows,
    test: PairRows,
}

impl Split {
    fn new() -> Self {
        Split {
            fit17: Dataset::new(NUM_FEATURES),
            fit14: Dataset::new(BASE_FEATURES),
            train17: Dataset::new(NUM_FEATURES),
            test17: Dataset::new(NUM_FEATURES),
            test14: Dataset::new(BASE_FEATURES),
            train: PairRows::new(NUM_FEATURES),
            choose: PairRows::new(NUM_FEATURES),
            test: PairRows::new(NUM_FEATURES),
        }
    }
}

/// Fits the board network on the settings' row and observation files (file `k`'s rows
/// joined to file `k`'s observations, so slices and runs with overlapping game numbers can
/// be fitted together; the same files in the same order give the same network), prints the
/// per-stage figures and writes the network file (after checking that it loads).
pub fn fit_net(s: &NetSettings) -> Result<()> {
    if s.rows.len() != s.observations.len() {
        bail!(
            "{} row files and {} observation files: give one observations file per rows file, in the same order",
            s.rows.len(),
            s.observations.len()
        );
    }
    let mut given = std::collections::HashSet::new();
    if let Some(twice) = s
        .rows
        .iter()
        .chain(s.observations)
        .find(|p| !given.insert(*p))
    {
        bail!("{} is given twice", twice.display());
    }
    let start = std::time::Instant::now();
    let mut store = ObsStore {
        obs: Observations::new(observation_len(s.players)),
        stage: Vec::new(),
        share: Vec::new(),
    };
    let seats = pair_seats(s.players);
    let mut splits: Vec<Split> = (0..NUM_STAGES).map(|_| Split::new()).collect();
    let mut x = [0.0f64; NUM_FEATURES];
    // Games counted per file (its rows are sorted by game).
    let mut games = 0usize;
    for (rows_path, obs_path) in s.rows.iter().zip(s.observations) {
        let first = read_observations(obs_path, s.players, &mut store)?;
        let mut rows = read_rows(rows_path)?;
        rows.sort_by_key(|r| (r.game, r.ply, r.pair));
        if let Some(w) = rows
            .windows(2)
            .find(|w| (w[0].game, w[0].ply, w[0].pair) == (w[1].game, w[1].ply, w[1].pair))
        {
            bail!(
                "{}: two rows for game {}, position {}, pair {}",
                rows_path.display(),
                w[0].game,
                w[0].ply,
                w[0].pair
            );
        }
        games += rows
            .iter()
            .enumerate()
            .filter(|&(i, r)| i == 0 || rows[i - 1].game != r.game)
            .count();
        for r in &rows {
            let missing = || {
                format!(
                    "{}: the row of game {} position {} has no observations in {}: give each rows file with the observations file of the same self-play slice",
                    rows_path.display(),
                    r.game,
                    r.ply,
                    obs_path.display()
                )
            };
            let &first = first.get(&(r.game, r.ply)).with_context(missing)?;
            let &(p, q) = seats.get(usize::from(r.pair)).with_context(|| {
                format!(
                    "{}: a row of game {} has pair {}: the rows come from more than {} players; pass the --players of the self-play run",
                    rows_path.display(),
                    r.game,
                    r.pair,
                    s.players
                )
            })?;
            let (a, b) = (first as usize + p, first as usize + q);
            let (sp, sq) = (f64::from(store.share[a]), f64::from(store.share[b]));
            let agrees = sp + sq > 0.0 && (sp / (sp + sq) - r.label).abs() <= 1e-4;
            if usize::from(store.stage[a]) != r.stage || !agrees {
                bail!(
                    "{}: game {} position {}: the observations' stage or shares differ from the row's (stage {} vs {}, label {} vs shares {sp} and {sq}): give each rows file with the observations file of the same slice",
                    rows_path.display(),
                    r.game,
                    r.ply,
                    store.stage[a],
                    r.stage,
                    r.label
                );
            }
            for (xi, d) in x.iter_mut().zip(r.diff) {
                *xi = f64::from(d);
            }
            let sp = &mut splits[r.stage];
            let (a, b) = (a as u32, b as u32);
            match r.game % 10 {
                9 => {
                    sp.test17.push(&x, r.label);
                    sp.test14.push(&x, r.label);
                    sp.test.push(&x, r.label, a, b);
                }
                k => {
                    sp.fit17.push(&x, r.label);
                    sp.fit14.push(&x, r.label);
                    if k == 8 {
                        sp.choose.push(&x, r.label, a, b);
                    } else {
                        sp.train17.push(&x, r.label);
                        sp.train.push(&x, r.label, a, b);
                    }
                }
            }
        }
    }
    eprintln!(
        "{games} games, {} observation lines read in {:.0} s",
        store.obs.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "stage | rows | held-out rows | held-out log loss: 14 features | 17 features | with the network (epoch) | network by epoch{}",
        s.compare
            .map(|(name, _)| format!(" | {name}"))
            .unwrap_or_default()
    );
    let mut stages = Vec::with_capacity(NUM_STAGES);
    for (st, sp) in splits.iter().enumerate() {
        if sp.train.is_empty() || sp.choose.is_empty() || sp.test.is_empty() {
            bail!(
                "stage {st} has {} training, {} epoch-choosing and {} held-out rows: each needs some (games with index mod 10 below 8, = 8 and = 9); play more games",
                sp.train.len(),
                sp.choose.len(),
                sp.test.len()
            );
        }
        let lin17 = evaluate_logistic(&sp.test17, &fit_logistic(&sp.fit17, s.l2, 50).weights).0;
        let lin14 = evaluate_logistic(&sp.test14, &fit_logistic(&sp.fit14, s.l2, 50).weights).0;
        let start_w = fit_logistic(&sp.train17, s.l2, 50).weights;
        let config = NetConfig {
            linear_l2: s.l2,
            ..s.config
        };
        let fit = fit_pair_net(
            &sp.train,
            &[&sp.choose, &sp.test],
            &store.obs,
            &start_w,
            &config,
        )
        .with_context(|| format!("stage {st}"))?;
        let net_loss = fit.losses[fit.chosen][1];
        let compared = s
            .compare
            .map(|(_, net)| format!(" | {:.4}", compared_loss(net, st, &sp.test, &store.obs)))
            .unwrap_or_default();
        println!(
            "{st} | {} | {} | {lin14:.4} | {lin17:.4} | {net_loss:.4} ({}) | {}{compared}",
            sp.fit17.len() + sp.test17.len(),
            sp.test.len(),
            fit.chosen + 1,
            fit.losses
                .iter()
                .map(|l| format!("{:.4}", l[1]))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let step = (sp.test.len() / 3).max(1);
        let checks = (0..sp.test.len())
            .step_by(step)
            .take(3)
            .map(|i| {
                let line = store.obs.line(sp.test.first_line(i));
                FileCheck {
                    input: line.iter().map(|&o| f32::from(o)).collect(),
                    value: fit.net.value(line),
                }
            })
            .collect();
        let (w1, b1) = fit.net.folded();
        stages.push(FileStage {
            linear: fit.net.linear.clone(),
            w1: w1.iter().map(|&w| w as f32).collect(),
            b1: b1.iter().map(|&b| b as f32).collect(),
            w2: fit.net.w2.clone(),
            checks,
            heldout: Some(FileHeldOut {
                linear14: lin14,
                linear17: lin17,
                network: net_loss,
            }),
        });
    }
    let list = |v: &[PathBuf]| {
        v.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let c = &s.config;
    let file = NetFile {
        format: NET_FORMAT,
        players: s.players,
        inputs: observation_len(s.players),
        hidden: c.hidden,
        stages,
        training: Some(serde_json::json!({
            "command": format!(
                "tessera train azul-board-net --players {} --fit {} --observations {} --hidden {} --epochs {} --seed {} --decay {} --lr {} --l2 {}",
                s.players, list(s.rows), list(s.observations), c.hidden, c.epochs, c.seed, c.decay, c.lr, s.l2
            ),
            "heldout": "games with index mod 10 = 9 held out, mod 10 = 8 choose the epoch; each stage's held-out log loss is in its 'heldout'",
        })),
    };
    let text = file.to_json();
    BoardNet::parse(&text).context("the fitted network does not load as augur's board network")?;
    std::fs::write(s.out, text + "\n")
        .with_context(|| format!("cannot write {}", s.out.display()))?;
    println!(
        "network written to {} ({:.0} s)",
        s.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observation_lines_are_parsed_or_refused_with_the_reason() {
        let len = observation_len(2);
        let mut n = Vec::new();
        let good = format!("12 3 1 4 0.5{}", " 7".repeat(len));
        assert_eq!(
            parse_line(&good, len, 2, &mut n).unwrap(),
            (12, 3, 1, 4, 0.5)
        );
        assert_eq!(n, vec![7; len]);
        let short = format!("12 3 1 4 0.5{}", " 7".repeat(len - 1));
        let err = format!("{:#}", parse_line(&short, len, 2, &mut n).unwrap_err());
        assert!(
            err.contains("expected 158") && err.contains("--players"),
            "{err}"
        );
        let frac = format!("12 3 1 4 0.5 1.5{}", " 7".repeat(len - 1));
        let err = format!("{:#}", parse_line(&frac, len, 2, &mut n).unwrap_err());
        assert!(err.contains("'1.5' is not a whole number"), "{err}");
        let seat = format!("12 3 2 4 0.5{}", " 7".repeat(len));
        let err = format!("{:#}", parse_line(&seat, len, 2, &mut n).unwrap_err());
        assert!(err.contains("seat below 2"), "{err}");
        let err = format!("{:#}", parse_line("12 3", len, 2, &mut n).unwrap_err());
        assert!(err.contains("five header numbers"), "{err}");
    }

    #[test]
    fn pairs_are_numbered_as_the_rows_number_them() {
        assert_eq!(pair_seats(2), vec![(0, 1)]);
        assert_eq!(
            pair_seats(4),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
    }
}
