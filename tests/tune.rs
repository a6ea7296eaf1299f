//! `protean tune` end to end: datagen's output in every variant fitted into
//! a weights file that the evaluation reads back, and bad data named by
//! file and line with nothing written.

use protean_rules::AnyRules;
use protean_search::evaluate::EvalTables;
use protean_search::weights::{per_kind, scalar, Layout, PerKind, Scalar, Score, Weights};
use std::path::PathBuf;
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protean-tune-{}-{name}", std::process::id()))
}

fn protean(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protean")).args(args).output().unwrap()
}

fn datagen(variant: &str, games: &str, nodes: &str, out: &std::path::Path) {
    let run = protean(&[
        "datagen",
        "--variant",
        variant,
        "--games",
        games,
        "--nodes",
        nodes,
        "--max-plies",
        "80",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{variant}: {}", String::from_utf8_lossy(&run.stderr));
}

/// `protean tune` of `variant`'s `data` into `out` for 30 epochs, with
/// `extra` options.
fn tune(variant: &str, data: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> Output {
    let args = ["tune", "--variant", variant, "--data", data.to_str().unwrap(), "--out", out.to_str().unwrap()];
    protean(&[&args[..], &["--epochs", "30"], extra].concat())
}

#[test]
fn every_variant_fits_a_file_the_evaluation_reads() {
    for variant in ["standard", "perfect", "onedim", "beyond", "flexichess"] {
        let (data, out) = (temp(&format!("{variant}.data")), temp(&format!("{variant}.txt")));
        // Beyond Chess games at few nodes end early by the shuttle limit,
        // with few quiet positions: more games, deeper. Flexichess games
        // at 300 nodes hold about 8 quiet positions each: twice the games.
        let (games, nodes) = match variant {
            "beyond" => ("24", "1000"),
            "flexichess" => ("24", "300"),
            _ => ("12", "300"),
        };
        datagen(variant, games, nodes, &data);
        let run = tune(variant, &data, &out, &[]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{variant}: {said}");
        assert!(said.contains("epoch 30/30") && said.contains("held out"), "{variant}: {said}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.starts_with(&format!(
                "# Evaluation weights for {}",
                AnyRules::by_name(variant).unwrap().variant().name
            )),
            "{text}"
        );
        let v = AnyRules::by_name(variant).unwrap().variant().clone();
        let layout = Layout::of(&v);
        let zero = Weights::defaults(
            &vec![(protean_rules::variant::Role::Other, Score::default()); v.pieces.len()],
            layout.squares(),
        );
        let read = Weights::parse(&text, &v, zero.clone()).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_ne!(read, zero, "{variant}: the file gives weights");
        // Thirty steps of at most about one centipawn each from the
        // starting weights: the fit moved, and not wildly.
        let start = Weights::parse(Weights::built_in(&v).unwrap_or(""), &v, zero).unwrap();
        let moved = read.terms.iter().zip(&start.terms).filter(|(a, b)| a != b).count();
        assert!(moved > 0, "{variant}: nothing was fitted");
        let squares_moved = layout.square_terms().filter(|&i| read.terms[i] != start.terms[i]).count();
        assert!(squares_moved > 0, "{variant}: no piece-square weight was fitted");
        // Held terms keep their starting weights: every kind's value,
        // every piece-square weight and the tempo.
        let held_out = temp(&format!("{variant}-held.txt"));
        let run = tune(variant, &data, &held_out, &["--hold", "value", "square", "tempo"]);
        assert!(run.status.success(), "{variant}: {}", String::from_utf8_lossy(&run.stderr));
        let held = Weights::parse(&std::fs::read_to_string(&held_out).unwrap(), &v, start.clone()).unwrap();
        // The tuner starts from the evaluation's weights: the built-in file
        // over the defaults.
        let pos = AnyRules::by_name(variant).unwrap().start();
        let initial = protean_rules::with_position!(&pos, p => EvalTables::new(p.rules()).weights().to_vec());
        let tempo = scalar(Scalar::Tempo);
        let is_value = |i: usize| (0..v.pieces.len()).any(|k| i == per_kind(PerKind::Value, k));
        for (i, (h, s)) in held.terms.iter().zip(&initial).enumerate() {
            if i == tempo || layout.square_terms().contains(&i) || is_value(i) {
                assert_eq!(h, s, "{variant}: term {i} was held");
            }
        }
        // Fitted alone, the values move and nothing else does.
        let run = tune(variant, &data, &held_out, &["--only", "value"]);
        assert!(run.status.success(), "{variant}: {}", String::from_utf8_lossy(&run.stderr));
        let values = Weights::parse(&std::fs::read_to_string(&held_out).unwrap(), &v, start.clone()).unwrap();
        let moved: Vec<usize> = (0..initial.len()).filter(|&i| values.terms[i] != initial[i]).collect();
        assert!(!moved.is_empty() && moved.iter().all(|&i| is_value(i)), "{variant}: terms {moved:?} moved");
        let _ = std::fs::remove_file(&held_out);
        let _ = std::fs::remove_file(&data);
        let _ = std::fs::remove_file(&out);
    }
}

#[test]
fn bad_data_is_named_by_file_and_line_and_nothing_is_written() {
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 [0.5]";
    for (name, lines, needle) in [
        ("noresult", vec![good, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"], "line 2: no [result]"),
        (
            "badresult",
            vec![good, good, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [2.0]"],
            "line 3: result 2.0",
        ),
        ("badfen", vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1 [1.0]"], "line 1:"),
        ("few", vec![good; 5], "5 positions to fit on"),
    ] {
        let (data, out) = (temp(&format!("{name}.data")), temp(&format!("{name}.txt")));
        std::fs::write(&data, lines.join("\n")).unwrap();
        let run = protean(&["tune", "--data", data.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{name}: accepted");
        assert!(said.contains(needle), "{name}: {said}");
        assert!(!said.contains("panicked"), "{name}: {said}");
        assert!(!out.exists(), "{name}: wrote {}", out.display());
        let _ = std::fs::remove_file(&data);
    }
    let out = temp("nofile.txt");
    let run = protean(&["tune", "--data", "/nonexistent/data.txt", "--out", out.to_str().unwrap()]);
    assert!(!run.status.success() && String::from_utf8_lossy(&run.stderr).contains("/nonexistent/data.txt"));
    let run = protean(&["tune", "--variant", "nosuch", "--data", "x", "--out", out.to_str().unwrap()]);
    assert!(!run.status.success() && String::from_utf8_lossy(&run.stderr).contains("nosuch"));
    let run = protean(&["tune", "--data", "x", "--out", out.to_str().unwrap(), "--hold", "valu"]);
    assert!(!run.status.success() && String::from_utf8_lossy(&run.stderr).contains("--hold: no term valu"));
    let run = protean(&["tune", "--data", "x", "--out", out.to_str().unwrap(), "--only", "value", "valu"]);
    assert!(!run.status.success() && String::from_utf8_lossy(&run.stderr).contains("--only: no term valu"));
    let run = protean(&["tune", "--data", "x", "--out", out.to_str().unwrap(), "--only", "value", "--hold", "tempo"]);
    assert!(!run.status.success() && String::from_utf8_lossy(&run.stderr).contains("--hold"));
    let run = protean(&["tune", "--data", "x", "--out", out.to_str().unwrap(), "--square-penalty=-1"]);
    assert!(
        !run.status.success() && String::from_utf8_lossy(&run.stderr).contains("--square-penalty -1 must be 0 or more")
    );
    assert!(!out.exists());
}
