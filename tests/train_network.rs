//! `protean train-network` end to end: datagen's output trained into a
//! network file that the search reads back and that fits the variant, in
//! each variant with a board the network can have; bad arguments and data
//! named, with nothing written; `--held-out` files held out whole;
//! `--teacher`'s targets taken from the evaluation, not the data;
//! `--from-built-in` starting from the network the variant plays with.

use protean_rules::AnyRules;
use protean_search::nnue::{Activation, Network};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("protean-train-network-{}-{name}", std::process::id()))
}

fn protean(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protean")).args(args).output().unwrap()
}

/// `games` short games of `variant` at 300 nodes a move, written by
/// datagen to `out`.
fn datagen(variant: &str, games: usize, out: &Path) {
    datagen_loading(&[], variant, games, out);
}

/// The same, `protean` given `before` ahead of the command (`--variants
/// FILE`).
fn datagen_loading(before: &[&str], variant: &str, games: usize, out: &Path) {
    let games = games.to_string();
    let args = ["datagen", "--variant", variant, "--games", &games, "--nodes", "300", "--max-plies", "80", "--out"];
    let run = protean(&[before, &args[..], &[out.to_str().unwrap()]].concat());
    assert!(run.status.success(), "{variant}: {}", String::from_utf8_lossy(&run.stderr));
}

#[test]
fn datagen_output_trains_a_network_that_fits_its_variant() {
    // Perfect Chess's network with squared units, the others' clipped.
    for (variant, activation) in [("standard", "crelu"), ("perfect", "screlu"), ("onedim", "crelu")] {
        let (data, out) = (temp(&format!("{variant}.data")), temp(&format!("{variant}.nnue")));
        datagen(variant, 16, &data);
        let run = protean(&[
            "train-network",
            "--variant",
            variant,
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "3",
            "--batch",
            "64",
            "--mirror",
            "--activation",
            activation,
        ]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{variant}: {said}");
        assert!(
            said.contains("epoch 3/3") && said.contains("held out") && said.contains("hand-made evaluation's loss"),
            "{variant}: {said}"
        );
        let net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(Some(net.activation), Activation::by_name(activation), "{variant}");
        let pos = AnyRules::by_name(variant).unwrap().start();
        protean_rules::with_position!(&pos, p => {
            assert!(net.fits(p.rules()), "{variant}");
            // Three epochs from small random weights: an evaluation near
            // even, not a mate.
            assert!(net.evaluate(p).abs() < 1000, "{variant}: {}", net.evaluate(p));
        });
        // Training goes on from the file (`--init`): its loss is told first,
        // and with no epochs the same network is written again.
        let again = temp(&format!("{variant}-again.nnue"));
        let run = protean(&[
            "train-network",
            "--variant",
            variant,
            "--data",
            data.to_str().unwrap(),
            "--out",
            again.to_str().unwrap(),
            "--epochs",
            "0",
            "--batch",
            "64",
            "--mirror",
            "--init",
            out.to_str().unwrap(),
        ]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            run.status.success() && said.contains("the starting network's loss on the positions held out"),
            "{variant}: {said}"
        );
        assert_eq!(Network::from_bytes(&std::fs::read(&again).unwrap()).unwrap(), net, "{variant}");
        // A network alone does not start a training on top.
        let run = protean(&[
            "train-network",
            "--variant",
            variant,
            "--data",
            data.to_str().unwrap(),
            "--out",
            again.to_str().unwrap(),
            "--on-top",
            "--init",
            out.to_str().unwrap(),
        ]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            !run.status.success() && said.contains("a network alone, where this training is on top"),
            "{variant}: {said}"
        );
        for f in [data, out, again] {
            std::fs::remove_file(f).ok();
        }
    }
}

/// The number after `label` in `said`, e.g. the loss in `...: 0.0123`.
fn figure_after(said: &str, label: &str) -> String {
    let at = said.find(label).unwrap_or_else(|| panic!("no {label:?} in {said}")) + label.len();
    said[at..].split_whitespace().next().unwrap().trim_end_matches(',').to_string()
}

#[test]
fn the_few_positions_under_the_variants_own_rules_are_held_out_too() {
    // Flexichess data of which one line in 23 stands under the variant's
    // own rules (no rule change: `-`): the network learns those alone.
    // Runs of 20 lines are held out, one in twenty; counted among the 348
    // kept positions rather than the lines, no run would reach the first
    // held out and the held-out loss would be of nothing.
    let (data, net) = (temp("flexichess.data"), temp("flexichess.nnue"));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let lines: String =
        (0..8000).map(|i| format!("{start} {} [0.5] 12\n", if i % 23 == 0 { "-" } else { "N=QN" })).collect();
    std::fs::write(&data, lines).unwrap();
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    let run = protean(&["train-network", "--variant", "flexichess", "--data", d, "--out", n, "--epochs", "1"]);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{said}");
    let held_out: usize = figure_after(&said, "positions to train on,").parse().unwrap();
    assert!((10..=25).contains(&held_out), "{said}");
    let loss: f64 = figure_after(&said, "loss on the positions held out:").parse().unwrap();
    assert!(loss.is_finite(), "{said}");
    for file in [data, net] {
        std::fs::remove_file(file).ok();
    }
}

#[test]
fn held_out_files_are_held_out_whole_and_nothing_of_the_data() {
    let (data, first, second, net, again) =
        (temp("ho.data"), temp("ho-first.data"), temp("ho-second.data"), temp("ho.nnue"), temp("ho-again.nnue"));
    datagen("standard", 16, &data);
    let lines: Vec<String> = std::fs::read_to_string(&data).unwrap().lines().map(String::from).collect();
    let half = lines.len() / 2;
    assert!(half >= 100, "{} positions", lines.len());
    std::fs::write(&first, lines[..half].join("\n") + "\n").unwrap();
    std::fs::write(&second, lines[half..].join("\n") + "\n").unwrap();
    let (f, s, n, a) =
        (first.to_str().unwrap(), second.to_str().unwrap(), net.to_str().unwrap(), again.to_str().unwrap());
    let run = protean(&[
        "train-network",
        "--data",
        f,
        "--held-out",
        s,
        "--out",
        n,
        "--epochs",
        "1",
        "--batch",
        "64",
        "--mirror",
    ]);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{said}");
    // Every position of the first file trained on (with its mirror), every
    // one of the second held out.
    assert!(
        said.contains(&format!("{} positions to train on, {} held out", 2 * half, 2 * (lines.len() - half))),
        "{said}"
    );
    // The starting network's loss on what `data_args` hold out.
    let held_out_loss = |data_args: &[&str]| {
        let run = protean(&[&["train-network"], data_args, &["--out", a, "--epochs", "0", "--init", n]].concat());
        let said = String::from_utf8_lossy(&run.stderr).to_string();
        assert!(run.status.success(), "{said}");
        figure_after(&said, "the starting network's loss on the positions held out:")
    };
    // The loss on the held-out file is the same whatever is trained on.
    let on_second = held_out_loss(&["--data", f, "--held-out", s]);
    assert_eq!(on_second, held_out_loss(&["--data", f, f, "--held-out", s]));
    // Without --held-out a twentieth of the first file is held out, so
    // the loss is another one.
    assert_ne!(held_out_loss(&["--data", f]), on_second);
    for file in [data, first, second, net, again] {
        std::fs::remove_file(file).ok();
    }
}

#[test]
fn bad_arguments_and_data_are_named_and_nothing_is_written() {
    let (data, out) = (temp("bad.data"), temp("bad.nnue"));
    std::fs::write(&data, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5] 12\nnot a fen [1.0]\n")
        .unwrap();
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    for (args, named) in [
        (vec!["--data", d, "--out", o], "line 2"),
        (vec!["--data", d, "--out", o, "--score-weight", "1.5"], "--score-weight"),
        (vec!["--data", d, "--out", o, "--epochs", "0"], "--epochs"),
        (vec!["--data", d, "--out", o, "--learning-rate", "-1"], "--learning-rate"),
        (vec!["--data", d, "--out", o, "--activation", "tanh"], "--activation tanh"),
        (vec!["--data", "/no/such/file", "--out", o], "/no/such/file"),
        (vec!["--data", d, "--out", o, "--held-out", "/no/such/held"], "/no/such/held"),
        (vec!["--data", d, "--out", o, "--init", "/no/such/net.nnue"], "--init /no/such/net.nnue"),
        (vec!["--variant", "perfect", "--data", d, "--out", o, "--init", d], "not a Protean network file"),
        (vec!["--variant", "nosuchchess", "--data", d, "--out", o], "nosuchchess"),
    ] {
        let run = protean(&[&["train-network"], &args[..]].concat());
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && said.contains(named), "{args:?}: {said}");
        assert!(!out.exists(), "{args:?} wrote {o}");
    }
    std::fs::write(&data, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5] 12\n").unwrap();
    let run = protean(&["train-network", "--data", d, "--out", o]);
    assert!(
        !run.status.success() && String::from_utf8_lossy(&run.stderr).contains("at least"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!out.exists());
    std::fs::remove_file(data).ok();
}

#[test]
fn a_teacher_gives_the_targets_whatever_the_data_say() {
    let (data, lying, net) = (temp("teacher.data"), temp("teacher-lying.data"), temp("teacher.nnue"));
    datagen("standard", 8, &data);
    // Every position said won by White and scored +30 pawns for White:
    // a target from these data is far from any evaluation of them.
    let text = std::fs::read_to_string(&data).unwrap();
    let lied: Vec<String> = text.lines().map(|l| format!("{} [1.0] 3000", &l[..l.find(" [").unwrap()])).collect();
    std::fs::write(&lying, lied.join("\n") + "\n").unwrap();
    let (l, n) = (lying.to_str().unwrap(), net.to_str().unwrap());
    let hand_made_loss = |extra: &[&str]| {
        let run =
            protean(&[&["train-network", "--data", l, "--out", n, "--epochs", "1", "--batch", "64"], extra].concat());
        let said = String::from_utf8_lossy(&run.stderr).to_string();
        assert!(run.status.success(), "{said}");
        figure_after(&said, "the hand-made evaluation's loss on the positions held out:").parse::<f64>().unwrap()
    };
    // Against the data, the hand-made evaluation is wrong by about half a
    // game a position; against the teacher (itself with the network on
    // top) it is wrong by only what the network adds.
    let (against_data, against_teacher) = (hand_made_loss(&[]), hand_made_loss(&["--teacher"]));
    assert!(against_data > 0.1, "{against_data}");
    assert!(against_teacher < 0.03, "{against_teacher}");
    assert!(Network::from_file(&net).is_ok_and(|n| !n.on_top));
    // Nothing to learn from where no network is built in on top, and
    // nothing to learn on top of.
    for (args, named) in
        [(vec!["--variant", "beyond"], "beyond has no built-in network"), (vec!["--on-top"], "--on-top")]
    {
        std::fs::remove_file(&net).ok();
        let run = protean(&[&["train-network", "--data", l, "--out", n, "--teacher"], &args[..]].concat());
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && said.contains(named), "{args:?}: {said}");
        assert!(!net.exists());
    }
    for file in [data, lying, net] {
        std::fs::remove_file(file).ok();
    }
}

#[test]
fn from_built_in_starts_from_the_network_the_variant_plays_with() {
    let (data, net) = (temp("fb.data"), temp("fb.nnue"));
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    let train = |pre: &[&str], extra: &[&str]| {
        let run = protean(&[pre, &["train-network", "--data", d, "--out", n, "--batch", "64"], extra].concat());
        (run.status.success(), String::from_utf8_lossy(&run.stderr).to_string())
    };
    let starting = "the starting network's loss on the positions held out:";
    datagen("standard", 16, &data);
    // Standard chess's built-in network, on top: the file it is built from.
    let (ok, from_built_in) = train(&[], &["--on-top", "--epochs", "0", "--from-built-in"]);
    assert!(ok, "{from_built_in}");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/search/networks/standard.nnue");
    let (ok, from_file) = train(&[], &["--on-top", "--epochs", "0", "--init", file]);
    assert!(ok, "{from_file}");
    assert_eq!(figure_after(&from_built_in, starting), figure_after(&from_file, starting));
    // None alone: random weights, said; with no epochs, an error and no file.
    std::fs::remove_file(&net).unwrap();
    let (ok, said) = train(&[], &["--epochs", "1", "--from-built-in"]);
    assert!(ok && said.contains("standard plays with no network alone: random weights") && !said.contains(starting));
    std::fs::remove_file(&net).unwrap();
    let (ok, said) = train(&[], &["--epochs", "0", "--from-built-in"]);
    assert!(!ok && said.contains("standard plays with no network alone to start from"), "{said}");
    assert!(!net.exists());
    let (ok, said) = train(&[], &["--epochs", "1", "--from-built-in", "--init", file]);
    assert!(!ok && said.contains("--init"), "{said}");

    // Chess with an archbishop for the queen (no repository file has that
    // game) is lent standard chess's network through its kinds, and
    // starts from it.
    let lent_file = temp("lent.ini");
    let start = "startFen = rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1";
    let text = format!("[lent:chess]\nqueen = -\narchbishop = a\n{start}\npromotionPieceTypes = arbn\n");
    std::fs::write(&lent_file, text).unwrap();
    let pre = ["--variants", lent_file.to_str().unwrap()];
    datagen_loading(&pre, "lent", 8, &data);
    let (ok, said) = train(&pre, &["--variant", "lent", "--on-top", "--epochs", "0", "--from-built-in"]);
    assert!(ok && said.contains(starting), "{said}");

    // Chess on 9x9 with a chancellor, promoting to neither it nor the
    // queen (so no file's network reaches it), plays with no network; it
    // starts from Chancellor chess's file's network, whose pieces are
    // its own, on top only.
    let nine = "[ninebynine:chess]\nmaxRank = 9\nmaxFile = i\nchancellor = c\n\
                startFen = rnbqkcnbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKCNBR w - - 0 1\n\
                promotionPieceTypes = rbn\npromotionRegionWhite = *9\npromotionRegionBlack = *1\n\
                doubleStepRegionWhite = *2\ndoubleStepRegionBlack = *8\n";
    std::fs::write(&lent_file, nine).unwrap();
    let pre = ["--variants", lent_file.to_str().unwrap()];
    datagen_loading(&pre, "ninebynine", 8, &data);
    let (ok, said) = train(&pre, &["--variant", "ninebynine", "--on-top", "--epochs", "0", "--from-built-in"]);
    assert!(ok && said.contains("chancellor's, stretched to its board and kinds") && said.contains(starting), "{said}");
    let (ok, said) = train(&pre, &["--variant", "ninebynine", "--epochs", "0", "--from-built-in"]);
    assert!(!ok && said.contains("ninebynine plays with no network alone to start from"), "{said}");

    // Capablanca chess plays with a network of its own; `--stretched`
    // starts from Gothic chess's (the same board and pieces) instead.
    let capablanca = concat!(env!("CARGO_MANIFEST_DIR"), "/epd/variants/capablanca.ini");
    let pre = ["--variants", capablanca];
    datagen_loading(&pre, "capablanca", 8, &data);
    let (ok, own) = train(&pre, &["--variant", "capablanca", "--on-top", "--epochs", "0", "--from-built-in"]);
    assert!(ok && !own.contains("stretched"), "{own}");
    let (ok, stretched) = train(&pre, &["--variant", "capablanca", "--on-top", "--epochs", "0", "--stretched"]);
    let said = "capablanca starts from gothic's network, stretched to its board and kinds";
    assert!(ok && stretched.contains(said), "{stretched}");
    assert_ne!(figure_after(&own, starting), figure_after(&stretched, starting));
    // Not alone, and not to a board of one rank: errors, no file.
    std::fs::remove_file(&net).unwrap();
    let (ok, said) = train(&pre, &["--variant", "capablanca", "--epochs", "0", "--stretched"]);
    assert!(!ok && said.contains("--on-top"), "{said}");
    let (ok, said) = train(&[], &["--variant", "onedim", "--on-top", "--epochs", "0", "--stretched"]);
    assert!(!ok && said.contains("no other game's network on top stretches to onedim"), "{said}");
    assert!(!net.exists());
    for file in [data, net, lent_file] {
        std::fs::remove_file(file).ok();
    }
}
