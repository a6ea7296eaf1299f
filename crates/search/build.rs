//! Builds the evaluation weight files of `weights/` into the binary: one
//! `(variant, text)` pair per `weights/<variant>.txt` (see `src/weights.rs`).

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "txt")).collect())
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a weights file named after its variant");
        out += &format!("    ({name:?}, include_str!({:?})),\n", path.display().to_string());
    }
    out += "]\n";
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("weight_files.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
