//! The rules crate is built in one-way layers (geometry and Betza, then
//! variants, compiled tables, positions, move generation, notation): no
//! module uses one that uses it back, directly or through others. Read
//! from the sources, as a reviewer would: every `crate::name` path in a
//! module's files outside its tests.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name -> the modules its code names.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().expect("name").to_string_lossy().to_string();
        if path.is_dir() {
            // A directory module counts as one: all its files.
            let text = std::fs::read_dir(&path).expect("dir").map(|e| std::fs::read_to_string(e.expect("entry").path()).unwrap_or_default()).collect();
            texts.insert(name, text);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            texts.insert(name, std::fs::read_to_string(&path).expect("read"));
        }
    }
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    texts
        .iter()
        .map(|(name, text)| {
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            (name.clone(), paths_named(code).into_iter().filter(|m| m != name && modules.contains(m)).collect())
        })
        .collect()
}

/// The first segment of every `crate::` path, including each item of a
/// `use crate::{a, b::c}` group.
fn paths_named(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's items: split at its own commas, not at those of
            // groups inside it.
            let (mut depth, mut item_start) = (0, true);
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        item_start = false;
                        found.insert(ident(&group[j..]));
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found
}

/// A cycle through `start`, if any, as the modules on it.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(graph: &BTreeMap<String, BTreeSet<String>>, at: &str, start: &str, path: &mut Vec<String>, seen: &mut BTreeSet<String>) -> bool {
        for next in &graph[at] {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(graph, start, start, &mut path, &mut BTreeSet::new()).then(|| {
        path.push(start.to_string());
        path
    })
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let graph = module_graph();
    let cycles: Vec<String> = graph.keys().filter_map(|m| cycle(&graph, m)).map(|c| c.join(" -> ")).collect();
    assert!(cycles.is_empty(), "import loops:\n{}", cycles.join("\n"));
}

#[test]
fn the_reader_sees_imports_and_loops() {
    // The checker itself: grouped imports are read, and a loop is found.
    let named = paths_named("use crate::{fen::{self, FenError}, position::Position};\nlet x = crate::tables::RING;");
    assert_eq!(named, ["fen", "position", "tables"].map(String::from).into_iter().collect());
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])].into_iter().map(|(m, to)| (m.to_string(), to.into_iter().map(String::from).collect())).collect();
    assert_eq!(cycle(&graph, "a"), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    assert_eq!(cycle(&graph, "d"), None);
    // And the real crate has the layers it should: tables below positions.
    let real = module_graph();
    assert!(real["position"].contains("tables") && !real["tables"].contains("position"));
}
