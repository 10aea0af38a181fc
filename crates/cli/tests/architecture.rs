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

/// One crate's source files as modules: `src/a.rs` and `src/a/mod.rs` are `a`, `src/a/b.rs`
/// is `a::b`, the crate root (`lib.rs`, `main.rs`) is the empty path.
fn module_files(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("a file").path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let join = |name: &str| {
                if prefix.is_empty() {
                    name.to_string()
                } else {
                    format!("{prefix}::{name}")
                }
            };
            if path.is_dir() {
                // src/bin/ holds separate binaries, not modules.
                if !(prefix.is_empty() && stem == "bin") {
                    walk(&path, &join(stem), out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let module = match stem {
                    "lib" | "main" if prefix.is_empty() => String::new(),
                    "mod" => prefix.to_string(),
                    _ => join(stem),
                };
                out.insert(module, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, "", &mut out);
    out
}

/// A file's code above its unit tests (a test may use anything), without comment lines (a doc
/// link is not an import).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file");
    text.split("#[cfg(test)]")
        .next()
        .unwrap_or("")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths written after a `crate::`-like start at `text` (`a::b`, `{a, b::{c, d}}`), each as
/// its segments.
fn paths_at(text: &str) -> Vec<Vec<String>> {
    fn parse(t: &[char], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            while *i < t.len() && t[*i].is_whitespace() {
                *i += 1;
            }
            if *i < t.len() && t[*i] == '{' {
                *i += 1;
                loop {
                    parse(t, i, path.clone(), out);
                    while *i < t.len() && (t[*i].is_whitespace() || t[*i] == ',') {
                        *i += 1;
                    }
                    if *i >= t.len() || t[*i] == '}' {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < t.len() && is_ident(t[*i]) {
                *i += 1;
            }
            if *i > start {
                path.push(t[start..*i].iter().collect());
            }
            if t.get(*i) == Some(&':') && t.get(*i + 1) == Some(&':') {
                *i += 2;
                continue;
            }
            // The rest of a `use` item (`as name`) names nothing more.
            out.push(path);
            return;
        }
    }
    let chars: Vec<char> = text.chars().take(4000).collect();
    let mut out = Vec::new();
    parse(&chars, &mut 0, Vec::new(), &mut out);
    out
}

/// Which module files each module file of the crate at `src` refers to: its `crate::`,
/// `super::` and `self::` paths (and a parent's paths into its own child modules), each
/// resolved to the longest module file it names. A module's `pub use` of its own child is a
/// re-export, not an import: a path to a re-exported item (`crate::Name`, `super::Name`)
/// counts as the file that defines it.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = module_files(src);
    // (module, item) -> the descendant module the module re-exports it from.
    let mut reexports: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut uses: BTreeMap<String, Vec<(Vec<String>, bool)>> = BTreeMap::new();
    for (module, path) in &files {
        let code = code_of(path);
        let here: Vec<String> = if module.is_empty() {
            Vec::new()
        } else {
            module.split("::").map(str::to_string).collect()
        };
        let children: Vec<String> = files
            .keys()
            .filter_map(|m| {
                if module.is_empty() {
                    Some(m.as_str())
                } else {
                    m.strip_prefix(&format!("{module}::"))
                }
            })
            .filter(|rest| !rest.is_empty() && !rest.contains("::"))
            .map(str::to_string)
            .collect();
        let chars: Vec<(usize, char)> = code.char_indices().collect();
        let mut found = Vec::new();
        for (k, &(i, _)) in chars.iter().enumerate() {
            if k > 0 && (is_ident(chars[k - 1].1) || chars[k - 1].1 == ':') {
                continue;
            }
            let rest = &code[i..];
            // The module a relative path starts from, and the text after its start.
            let mut base: Vec<String>;
            let mut tail;
            if let Some(t) = rest.strip_prefix("crate::") {
                base = Vec::new();
                tail = t;
            } else if rest.starts_with("super::") || rest.starts_with("self::") {
                // A file `a/b.rs` is module a::b: `super` is a, `self` is a::b.
                base = here.clone();
                tail = rest;
                loop {
                    if let Some(t) = tail.strip_prefix("super::") {
                        base.pop();
                        tail = t;
                    } else if let Some(t) = tail.strip_prefix("self::") {
                        tail = t;
                    } else {
                        break;
                    }
                }
            } else if children.iter().any(|c| rest.starts_with(&format!("{c}::"))) {
                base = here.clone();
                tail = rest;
            } else {
                continue;
            }
            let line_start = code[..i].rfind('\n').map_or(0, |n| n + 1);
            let before = code[line_start..i].trim();
            let reexport = before == "pub use" || before == "pub(crate) use";
            for p in paths_at(tail) {
                let full: Vec<String> = base.iter().cloned().chain(p).collect();
                found.push((full, reexport));
            }
        }
        for (full, reexport) in &found {
            if *reexport
                && full.len() > here.len() + 1
                && full[..here.len()] == here[..]
                && files.contains_key(&full[..here.len() + 1].join("::"))
            {
                let item = full.last().expect("a segment").clone();
                let target = (here.len() + 1..full.len())
                    .rev()
                    .map(|n| full[..n].join("::"))
                    .find(|m| files.contains_key(m))
                    .expect("a child");
                reexports.insert((module.clone(), item), target);
            }
        }
        uses.insert(module.clone(), found);
    }
    let resolve = |segments: &[String]| -> Option<String> {
        let mut n = segments.len();
        while n > 0 && !files.contains_key(&segments[..n].join("::")) {
            n -= 1;
        }
        let mut m = segments[..n].join("::");
        // Follow re-exports of the item named next.
        let mut rest = &segments[n..];
        while let Some(item) = rest.first() {
            match reexports.get(&(m.clone(), item.clone())) {
                Some(t) if *t != m => {
                    m = t.clone();
                    rest = &rest[1..];
                }
                _ => break,
            }
        }
        Some(m)
    };
    let mut out = BTreeMap::new();
    for (module, found) in &uses {
        if module.is_empty() {
            continue;
        }
        let mut deps = BTreeSet::new();
        for (full, reexport) in found {
            if *reexport
                && full.starts_with(&module.split("::").map(str::to_string).collect::<Vec<_>>())
            {
                continue;
            }
            if let Some(m) = resolve(full)
                && m != *module
                && !m.is_empty()
            {
                deps.insert(m);
            }
        }
        out.insert(module.clone(), deps);
    }
    out
}

/// Every import circle among a crate's files, each as the files around it.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        if done.contains(n) {
            return;
        }
        if let Some(i) = path.iter().position(|p| p == n) {
            let mut circle = path[i..].to_vec();
            circle.push(n.to_string());
            found.push(circle);
            return;
        }
        path.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            if g.contains_key(m) {
                visit(m, g, path, done, found);
            }
        }
        path.pop();
        done.insert(n.to_string());
    }
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for n in graph.keys() {
        visit(n, graph, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn no_crate_has_an_import_circle_among_its_files() {
    let mut all = Vec::new();
    let mut crates = 0;
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/") {
        let dir = entry.expect("a crate folder").path();
        let src = dir.join("src");
        if !src.is_dir() {
            continue;
        }
        crates += 1;
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        for c in circles(&imports(&src)) {
            all.push(format!("crates/{name}: {}", c.join(" -> ")));
        }
    }
    assert!(crates >= 10, "read {crates} crates");
    assert!(
        all.is_empty(),
        "import circles among files (move the shared type down into a file below both):\n{}",
        all.join("\n")
    );
}

#[test]
fn the_import_graph_sees_uses_paths_and_nested_modules() {
    let core = imports(&root().join("crates/core/src"));
    // table uses agent and record.
    assert!(core["table"].contains("agent") && core["table"].contains("record"));
    let house = imports(&root().join("crates/house/src"));
    // registry/azul.rs: `use super::{AgentEntry, ...}` is the registry, `crate::game::...`
    // the game traits' file.
    assert!(house["registry::azul"].contains("registry"), "{house:?}");
    assert!(house["registry::azul"].contains("game"));
    // A path to an item a parent re-exports counts as the child that defines it: tree.rs's
    // `super::value::Value`, and the searches' `Value` in adversarial/mod.rs from `value`.
    let search = imports(&root().join("crates/search/src"));
    assert!(search["adversarial::tree"].contains("adversarial::value"));
    assert!(!search["adversarial::tree"].contains("adversarial"));
    // A circle is found and named.
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), ["b".to_string()].into()),
        ("b".to_string(), ["c".to_string()].into()),
        ("c".to_string(), ["a".to_string()].into()),
    ]
    .into();
    assert_eq!(circles(&g), vec![vec!["a", "b", "c", "a"]]);
    assert_eq!(
        paths_at("{a, b::{c, d}} rest"),
        vec![vec!["a"], vec!["b", "c"], vec!["b", "d"]]
    );
}

/// The names declared by `struct`, `enum`, `trait`, `type` and `union` items in `text`, each
/// with its keyword (whatever the visibility: `pub`, `pub(crate)` or none).
fn type_declarations(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        // Visibility: `pub`, `pub(crate)`, `pub(super)`, `pub(in path)`.
        let line = match line.strip_prefix("pub") {
            Some(rest) if rest.starts_with('(') => rest.split_once(')').map_or("", |(_, r)| r),
            Some(rest) => rest,
            None => line,
        };
        let line = line.trim_start();
        if !line.starts_with(is_ident) {
            continue;
        }
        let mut words = line.split(|c: char| !is_ident(c)).filter(|w| !w.is_empty());
        let word = words.next();
        let Some(kind) = word else { continue };
        if !matches!(kind, "struct" | "enum" | "trait" | "type" | "union") {
            continue;
        }
        if let Some(name) = words.next() {
            out.push((kind.to_string(), name.to_string()));
        }
    }
    out
}

/// Every `.rs` file under crates/ (sources, tests, benches, examples).
fn rust_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("a file").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("crates"), &mut out);
    out
}

/// `Session` once named four different things (a live web game, an engine-protocol server,
/// a Python game with its chance stream, the terminal tiles game); each now has its own name,
/// and this keeps the word from meaning two things again.
#[test]
fn the_name_session_names_at_most_one_type() {
    let files = rust_files();
    assert!(files.len() > 100, "read only {} files", files.len());
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file");
        for (kind, name) in type_declarations(&text) {
            if name == "Session" {
                found.push(format!("{kind} Session in {}", path.display()));
            }
        }
    }
    assert!(
        found.len() <= 1,
        "`Session` names {} types; give each meaning its own name:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn type_declarations_are_found_whatever_their_visibility() {
    let text = [
        "pub struct Session<G: WebGame> {",
        "    struct Session {",
        "pub(crate) enum Mode { A }",
        "pub(in crate::x) trait Session {",
        "pub type Alias = u8;",
        "// struct Commented",
        "let session = Session::new();",
        "\"struct Quoted\"",
        "impl Session {}",
        "fn structure() {}",
    ]
    .join("\n");
    assert_eq!(
        type_declarations(&text),
        [
            ("struct", "Session"),
            ("struct", "Session"),
            ("enum", "Mode"),
            ("trait", "Session"),
            ("type", "Alias"),
        ]
        .map(|(k, n)| (k.to_string(), n.to_string()))
    );
}
