//! The rules crate is built in one-way layers (geometry and Betza, then
//! variants, compiled tables, positions, move generation, notation): no
//! module uses one that uses it back, directly or through others. Read
//! from the sources, as a reviewer would, outside tests: every
//! `crate::name` path in a module's files, and every `self.method(` call
//! in its `impl Position` blocks to a method another module's `impl
//! Position` defines (a position's methods are spread over the modules of
//! each rule system, so a call is a use as much as an import is).

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
            let text = std::fs::read_dir(&path)
                .expect("dir")
                .map(|e| std::fs::read_to_string(e.expect("entry").path()).unwrap_or_default())
                .collect();
            texts.insert(name, text);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            texts.insert(name, std::fs::read_to_string(&path).expect("read"));
        }
    }
    let modules: BTreeSet<String> = texts.keys().cloned().collect();
    let code = |text: &str| text.split("#[cfg(test)]").next().unwrap_or("").to_string();
    // Which module defines each method of `Position`.
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    for (name, text) in &texts {
        for block in position_impls(&code(text)) {
            for method in methods_defined(&block) {
                owner.insert(method, name.clone());
            }
        }
    }
    texts
        .iter()
        .map(|(name, text)| {
            let code = code(text);
            let mut used: BTreeSet<String> = paths_named(&code);
            for block in position_impls(&code) {
                used.extend(self_calls(&block).into_iter().filter_map(|m| owner.get(&m).cloned()));
            }
            (name.clone(), used.into_iter().filter(|m| m != name && modules.contains(m)).collect())
        })
        .collect()
}

/// The bodies of `impl ... Position<B> {` blocks.
fn position_impls(code: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    for (i, _) in code.match_indices("impl<B: Bitboard> Position<B> {") {
        let body = &code[i + "impl<B: Bitboard> Position<B> {".len()..];
        let mut depth = 1;
        let end = body
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(body.len(), |(j, _)| j);
        blocks.push(body[..end].to_string());
    }
    blocks
}

fn ident(s: &str) -> String {
    s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// Names after `fn ` in a block.
fn methods_defined(block: &str) -> BTreeSet<String> {
    block.match_indices("fn ").map(|(i, _)| ident(&block[i + 3..])).filter(|n| !n.is_empty()).collect()
}

/// Names called as `self.name(` in a block.
fn self_calls(block: &str) -> BTreeSet<String> {
    block
        .match_indices("self.")
        .map(|(i, _)| ident(&block[i + 5..]))
        .filter(|n| !n.is_empty() && block.contains(&format!("self.{n}(")))
        .collect()
}

/// The first segment of every `crate::` path, including each item of a
/// `use crate::{a, b::c}` group.
fn paths_named(code: &str) -> BTreeSet<String> {
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
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
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
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(m, to)| (m.to_string(), to.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(cycle(&graph, "a"), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    assert_eq!(cycle(&graph, "d"), None);
    // Calls between a position's methods are read too.
    let block = &position_impls(
        "impl<B: Bitboard> Position<B> {\n    fn a(&self) { self.b(); let x = self.rules; }\n}\nfn c() {}",
    )[0];
    assert_eq!(methods_defined(block), ["a"].map(String::from).into_iter().collect());
    assert_eq!(self_calls(block), ["b"].map(String::from).into_iter().collect());
    // And the real crate has the layers it should: tables below positions,
    // every generator asking `attacks`, `legal` asking the generators.
    let real = module_graph();
    assert!(real["position"].contains("tables") && !real["tables"].contains("position"));
    assert!(real["tiles"].contains("attacks") && real["redefine"].contains("attacks"));
    assert!(["movegen", "tiles", "redefine"].iter().all(|m| real["legal"].contains(*m)));
}
