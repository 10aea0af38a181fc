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

/// The `crate::MODULE` names a file of `tessera-core` refers to (its `use` lines and paths).
fn core_imports() -> BTreeMap<String, BTreeSet<String>> {
    let dir = root().join("crates/core/src");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("crates/core/src") {
        let path = entry.expect("a file").path();
        let Some(name) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        if name == "lib" || path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        // Only the code above the unit tests (a test may use anything), without comments
        // (a doc link is not an import).
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or("")
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut deps = BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let module: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let braced = rest.starts_with('{');
            if braced {
                let inner = &rest[1..rest.find('}').unwrap_or(1)];
                for part in inner.split(',') {
                    let m = part.trim().split("::").next().unwrap_or("").to_string();
                    if !m.is_empty() && m != name {
                        deps.insert(m);
                    }
                }
            } else if !module.is_empty() && module != name {
                deps.insert(module);
            }
        }
        out.insert(name, deps);
    }
    out
}

#[test]
fn core_files_import_no_circle() {
    let graph = core_imports();
    assert!(graph.contains_key("table") && graph.contains_key("agent"));
    // Depth-first search for a cycle among the files.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(n) {
            return;
        }
        if let Some(i) = path.iter().position(|p| p == n) {
            panic!("an import circle in tessera-core: {:?} -> {n}", &path[i..]);
        }
        path.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            if g.contains_key(m) {
                visit(m, g, path, done);
            }
        }
        path.pop();
        done.insert(n.to_string());
    }
    let mut done = BTreeSet::new();
    for n in graph.keys() {
        visit(n, &graph, &mut Vec::new(), &mut done);
    }
    // The test sees imports: table uses agent and record.
    assert!(graph["table"].contains("agent") && graph["table"].contains("record"));
}
