//! Builds the evaluation weight files of `weights/` and the networks of
//! `networks/` into the binary: one `(variant, contents)` pair per
//! `weights/<variant>.txt` (see `src/weights.rs`) and per
//! `networks/<variant>.nnue` (see `src/nnue/mod.rs`).

use std::path::Path;

/// `(variant, include_*!(path))` for each file of `dir` ending in `.extension`.
fn built_in(dir: &str, extension: &str, include: &str, out_name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a file named after its variant");
        out += &format!("    ({name:?}, {include}!({:?})),\n", path.display().to_string());
    }
    out += "]\n";
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(out_name);
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

fn main() {
    built_in("weights", "txt", "include_str", "weight_files.rs");
    built_in("networks", "nnue", "include_bytes", "network_files.rs");
}
