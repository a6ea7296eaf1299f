use super::*;
use crate::evaluate::EvalTables;
use crate::weights::Weights;
use protean_rules::AnyRules;

/// The variants of variant-file text `text`, which must read.
fn parse(text: &str) -> Vec<Variant> {
    variants_of(text).unwrap_or_else(|errors| panic!("{errors:?}"))
}

/// The text of the built-in variant file `file`.
fn text_of(file: &str) -> &'static str {
    let bytes = named(Some(std::path::Path::new(file))).unwrap_or_else(|| panic!("{file} is built in"));
    std::str::from_utf8(bytes).expect("UTF-8")
}

/// The variant of the built-in file `file` called `name`.
fn variant_of(file: &str, name: &str) -> Variant {
    parse(text_of(file)).into_iter().find(|v| v.name == name).unwrap_or_else(|| panic!("{file} has {name}"))
}

/// The built-in network and weights `variant` evaluates with, the network
/// as an address to compare.
fn files_of(variant: Variant) -> (Option<*const Network>, Option<&'static str>) {
    let rules = AnyRules::new(variant).expect("the variant makes rules");
    protean_rules::with_position!(&rules.start(), p => (
        crate::nnue::built_in(p.rules()).map(|net| net as *const Network),
        Weights::built_in(&p.rules().variant),
    ))
}

#[test]
fn every_variant_file_reads_and_every_file_it_names_is_built_in_and_reads() {
    let mut fitted_files = 0;
    for (file, bytes) in FILES.iter().filter(|(f, _)| f.ends_with(".ini")) {
        let text = std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        for variant in parse(text) {
            let files = variant.eval_files.clone();
            let rules = AnyRules::new(variant).unwrap_or_else(|e| panic!("{file}: {e:?}"));
            if let Some(path) = &files.weights {
                let bytes = named(Some(path)).unwrap_or_else(|| panic!("{file}: {} is built in", path.display()));
                let text = std::str::from_utf8(bytes).expect("weights are text");
                protean_rules::with_position!(&rules.start(), p => {
                    EvalTables::with_weights(p.rules(), text).unwrap_or_else(|e| panic!("{file}: {e}"));
                });
                fitted_files += 1;
            }
            if let Some(path) = &files.network {
                let bytes = named(Some(path)).unwrap_or_else(|| panic!("{file}: {} is built in", path.display()));
                let net = Network::from_bytes(bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
                protean_rules::with_position!(&rules.start(), p => assert!(net.fits(p.rules()), "{file}"));
                fitted_files += 1;
            }
        }
    }
    // The weights and networks of the variant files docs/variants.md
    // names ("Files in the repository"), two each.
    assert!(fitted_files >= 18, "{fitted_files}");
}

#[test]
fn a_variant_that_evaluates_as_a_fitted_one_takes_its_files_and_no_other_does() {
    let capablanca = files_of(variant_of("capablanca.ini", "capablanca"));
    assert!(capablanca.0.is_some() && capablanca.1.is_some());
    // The same board and pieces in another order, castling elsewhere:
    // Gothic chess has files of its own, both of which a user's Gothic
    // chess under another name takes (neither of Capablanca chess's);
    // Embassy chess, which starts where neither does, takes the first
    // (Capablanca chess's).
    let gothic = files_of(variant_of("gothic.ini", "gothic"));
    assert!(gothic.0.is_some() && gothic.1.is_some());
    assert!(gothic.0 != capablanca.0 && gothic.1 != capablanca.1);
    let my_gothic: String = text_of("gothic.ini")
        .lines()
        .filter(|line| !line.starts_with("weightsFile") && !line.starts_with("evalFile"))
        .map(|line| format!("{}\n", line.replace("[gothic:", "[mygothic:")))
        .collect();
    assert_eq!(files_of(parse(&my_gothic).remove(0)), gothic);
    assert_eq!(files_of(variant_of("embassy.ini", "embassy")), capablanca);
    // Janus chess's board and pieces as a user writes them, named `name`
    // and promoting to `promotion`.
    let janus_like = |name: &str, promotion: &str| {
        let text = format!("[{name}:chess]\nmaxFile = j\narchbishop = j\nstartFen = rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1\npromotionPieceTypes = {promotion}\n");
        files_of(parse(&text).into_iter().next().unwrap())
    };
    // A user's file of Janus chess under another name: both files.
    let janus = janus_like("myjanus", "qrbnj");
    assert!(janus.0.is_some() && janus.1.is_some());
    assert_ne!(janus.0, capablanca.0);
    // Called janus but promoting otherwise: matched by rules, not name.
    assert_eq!(janus_like("janus", "qj"), (None, None));
}

#[test]
fn a_game_under_other_letters_is_lent_its_network_and_a_changed_piece_is_not() {
    // Capablanca chess with its compounds lettered y and z: its network,
    // read through the kinds, evaluates the start as Capablanca chess's
    // does; its weights name the pieces by letter and are not lent.
    let relettered = "[capzero:chess]\nmaxFile = j\narchbishop = y\nchancellor = z\nstartFen = rnybqkbznr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNYBQKBZNR w KQkq - 0 1\npromotionPieceTypes = qrbnyz\ncastlingKingsideFile = i\ncastlingQueensideFile = c\n";
    let start_eval = |variant: Variant| {
        let rules = AnyRules::new(variant).expect("the variant makes rules");
        protean_rules::with_position!(&rules.start(), p => crate::nnue::built_in(p.rules()).map(|net| net.evaluate(p)))
    };
    let capablanca = variant_of("capablanca.ini", "capablanca");
    assert!(start_eval(capablanca.clone()).is_some());
    assert_eq!(start_eval(parse(relettered).remove(0)), start_eval(capablanca));
    assert_eq!(files_of(parse(relettered).remove(0)).1, None);
    // Chancellor chess is Modern chess with a chancellor for the minister:
    // it plays with its own network (standard chess's, stretched and
    // refined), not Modern chess's.
    let chancellor = files_of(variant_of("chancellor.ini", "chancellor"));
    assert!(chancellor.0.is_some() && chancellor.1.is_none());
    assert_ne!(chancellor.0, files_of(variant_of("modern.ini", "modern")).0);
    // Capablanca chess with a camel for the archbishop: a learnt network
    // is not lent through a changed piece (Modern chess's lent to
    // Chancellor chess lost its gate).
    let camel = "[capcamel:chess]\nmaxFile = j\ncustomPiece1 = l:C\nchancellor = c\nstartFen = rnlbqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNLBQKBCNR w KQkq - 0 1\npromotionPieceTypes = qrbnlc\ncastlingKingsideFile = i\ncastlingQueensideFile = c\n";
    assert_eq!(files_of(parse(camel).remove(0)), (None, None));
}

#[test]
fn a_training_starts_from_another_variant_files_network_never_its_own() {
    // The lender `--stretched` starts `variant` from.
    let lender = |variant: Variant| {
        let rules = AnyRules::new(variant).expect("the variant makes rules");
        protean_rules::with_position!(&rules.start(), p => crate::nnue::lent_across_boards(p.rules()).map(|(l, _)| l))
    };
    // Capablanca and Gothic chess have the same board and pieces: each
    // starts from the other's network, not from standard chess's (two
    // kinds read as others) nor its own.
    assert_eq!(lender(variant_of("capablanca.ini", "capablanca")), Some("gothic"));
    assert_eq!(lender(variant_of("gothic.ini", "gothic")), Some("capablanca"));
    // Embassy chess plays with Capablanca chess's: it starts from Gothic
    // chess's. Hoppel-Poppel matches no file's better than standard
    // chess's, which wins the tie with Perfect Chess's by its board.
    assert_eq!(lender(variant_of("embassy.ini", "embassy")), Some("gothic"));
    assert_eq!(lender(variant_of("hoppelpoppel.ini", "hoppelpoppel")), Some("standard"));
}
