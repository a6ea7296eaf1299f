//! `protean train-network` end to end: datagen's output trained into a
//! network file that the search reads back and that fits the variant, in
//! each variant with a board the network can have; bad arguments and data
//! named, with nothing written.

use protean_rules::AnyRules;
use protean_search::nnue::{Activation, Network};
use std::path::PathBuf;
use std::process::{Command, Output};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "protean-train-network-{}-{name}",
        std::process::id()
    ))
}

fn protean(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protean"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn datagen_output_trains_a_network_that_fits_its_variant() {
    // Perfect Chess's network with squared units, the others' clipped.
    for (variant, activation) in [("standard", "crelu"), ("perfect", "screlu"), ("onedim", "crelu")] {
        let (data, out) = (
            temp(&format!("{variant}.data")),
            temp(&format!("{variant}.nnue")),
        );
        let run = protean(&[
            "datagen",
            "--variant",
            variant,
            "--games",
            "16",
            "--nodes",
            "300",
            "--max-plies",
            "80",
            "--out",
            data.to_str().unwrap(),
        ]);
        assert!(
            run.status.success(),
            "{variant}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
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
            said.contains("epoch 3/3")
                && said.contains("held out")
                && said.contains("hand-made evaluation's loss"),
            "{variant}: {said}"
        );
        let net = Network::from_bytes(&std::fs::read(&out).unwrap())
            .unwrap_or_else(|e| panic!("{variant}: {e}"));
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
            "train-network", "--variant", variant, "--data", data.to_str().unwrap(), "--out", again.to_str().unwrap(),
            "--epochs", "0", "--batch", "64", "--mirror", "--init", out.to_str().unwrap(),
        ]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success() && said.contains("the starting network's loss on the positions held out"), "{variant}: {said}");
        assert_eq!(Network::from_bytes(&std::fs::read(&again).unwrap()).unwrap(), net, "{variant}");
        // A network alone does not start a training on top.
        let run = protean(&[
            "train-network", "--variant", variant, "--data", data.to_str().unwrap(), "--out", again.to_str().unwrap(),
            "--on-top", "--init", out.to_str().unwrap(),
        ]);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && said.contains("a network alone, where this training is on top"), "{variant}: {said}");
        for f in [data, out, again] {
            std::fs::remove_file(f).ok();
        }
    }
}

#[test]
fn bad_arguments_and_data_are_named_and_nothing_is_written() {
    let (data, out) = (temp("bad.data"), temp("bad.nnue"));
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5] 12\nnot a fen [1.0]\n",
    )
    .unwrap();
    let (d, o) = (data.to_str().unwrap(), out.to_str().unwrap());
    for (args, named) in [
        (vec!["--data", d, "--out", o], "line 2"),
        (
            vec!["--data", d, "--out", o, "--score-weight", "1.5"],
            "--score-weight",
        ),
        (vec!["--data", d, "--out", o, "--epochs", "0"], "--epochs"),
        (
            vec!["--data", d, "--out", o, "--learning-rate", "-1"],
            "--learning-rate",
        ),
        (vec!["--data", d, "--out", o, "--activation", "tanh"], "--activation tanh"),
        (vec!["--data", "/no/such/file", "--out", o], "/no/such/file"),
        (vec!["--data", d, "--out", o, "--init", "/no/such/net.nnue"], "--init /no/such/net.nnue"),
        (vec!["--variant", "perfect", "--data", d, "--out", o, "--init", d], "not a Protean network file"),
        (
            vec!["--variant", "nosuchchess", "--data", d, "--out", o],
            "nosuchchess",
        ),
    ] {
        let run = protean(&[&["train-network"], &args[..]].concat());
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            !run.status.success() && said.contains(named),
            "{args:?}: {said}"
        );
        assert!(!out.exists(), "{args:?} wrote {o}");
    }
    std::fs::write(
        &data,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5] 12\n",
    )
    .unwrap();
    let run = protean(&["train-network", "--data", d, "--out", o]);
    assert!(
        !run.status.success() && String::from_utf8_lossy(&run.stderr).contains("at least"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!out.exists());
    std::fs::remove_file(data).ok();
}
