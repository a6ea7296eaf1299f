//! Builds the evaluation weight files of `weights/` and the networks of
//! `networks/` into the binary: one `(variant, contents)` pair per
//! `weights/<variant>.txt` (see `src/weights.rs`) and per
//! `networks/<variant>.nnue` (see `src/nnue/mod.rs`); and the variant
//! files of the repository's `epd/variants/` with the fitted files they
//! name, one `(file name, contents)` pair each (see `src/variant_files.rs`).

use std::path::Path;

/// `(name, include_*!(path))` for each file of `dir` (from this crate's
/// directory) ending in one of `extensions`, named by its stem or, with
/// `whole_names`, by its whole file name.
fn built_in(dir: &str, extensions: &[&str], whole_names: bool, include: &str, out_name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = if whole_names { path.file_name() } else { path.file_stem() };
        let name = name.and_then(|s| s.to_str()).expect("a file name in UTF-8");
        out += &format!("    ({name:?}, {include}!({:?})),\n", path.display().to_string());
    }
    out += "]\n";
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(out_name);
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

fn main() {
    built_in("weights", &["txt"], false, "include_str", "weight_files.rs");
    built_in("networks", &["nnue"], false, "include_bytes", "network_files.rs");
    built_in("../../epd/variants", &["ini", "weights", "nnue"], true, "include_bytes", "variant_files.rs");
}
