//! docs/architecture.md's table of arrows (each crate's workspace dependencies) against the
//! manifests: the document states what the code does, or this test fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Package name -> its normal dependencies on workspace crates, read from every
/// crates/*/Cargo.toml (the `[dependencies]` table only: dev-dependencies are not arrows).
fn manifests() -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/") {
        let manifest = entry.expect("a crate folder").path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let mut name = None;
        let mut deps = BTreeSet::new();
        let mut section = String::new();
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                section = line.to_string();
                continue;
            }
            let key = line.split(['=', '.', ' ']).next().unwrap_or("");
            if section == "[package]" && key == "name" {
                name = line.split('"').nth(1).map(str::to_string);
            }
            if section == "[dependencies]" && key.starts_with("tessera-") {
                deps.insert(key.to_string());
            }
        }
        let name = name.unwrap_or_else(|| panic!("{}: no package name", manifest.display()));
        out.insert(name, deps);
    }
    out
}

/// The table between `<!-- arrows-begin -->` and `<!-- arrows-end -->`.
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let start = text
        .find("<!-- arrows-begin -->")
        .expect("the arrows table's start");
    let end = text
        .find("<!-- arrows-end -->")
        .expect("the arrows table's end");
    let names = |cell: &str| -> Vec<String> {
        cell.split(',')
            .filter_map(|c| c.split('`').nth(1))
            .map(str::to_string)
            .collect()
    };
    text[start..end]
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            let name = names(cells[1]).remove(0);
            (name, names(cells[2]).into_iter().collect())
        })
        .collect()
}

#[test]
fn the_documented_arrows_are_the_manifests() {
    let actual = manifests();
    let doc = documented();
    assert_eq!(
        doc, actual,
        "docs/architecture.md's arrows table vs the manifests"
    );
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let words = [
        "", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    let count = format!("workspace of {} crates", words[actual.len()]);
    assert!(text.contains(&count), "the doc should say '{count}'");
}

#[test]
fn games_and_searches_depend_on_core_only_and_nothing_on_a_front_end_but_the_cli() {
    let m = manifests();
    for low in [
        "tessera-azul",
        "tessera-qwirkle",
        "tessera-tiles",
        "tessera-search",
    ] {
        let allowed: BTreeSet<String> = ["tessera-core".to_string()].into();
        assert_eq!(m[low], allowed, "{low}");
    }
    for (name, deps) in &m {
        for front in ["tessera-web", "tessera-python", "tessera"] {
            if deps.contains(front) {
                assert_eq!(
                    (name.as_str(), front),
                    ("tessera", "tessera-web"),
                    "only the cli embeds a front end"
                );
            }
        }
    }
}
