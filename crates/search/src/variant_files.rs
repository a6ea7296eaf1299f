//! The fitted files of the repository's variant files, built in: each
//! variant of `epd/variants/*.ini` that names a weights file or a network
//! (`weightsFile`, `evalFile`: what `protean learn` writes) lends them to
//! every variant that evaluates as it (`Variant::evaluates_as`: the same
//! board, pieces and promotion, another start or castling). So Embassy
//! chess, and a user's own Capablanca chess file, evaluate with Capablanca
//! chess's files without naming them, as Chess960 does with standard
//! chess's; a variant that evaluates as several takes the files of the one
//! that starts where it does, else of the first by file name.
//!
//! They are matched by the rules alone, never by name: a user's variant
//! called `janus` that moves otherwise gets nothing. The variant a file
//! was fitted for reads its own files from disk by its keys, which come
//! first (see the protocol's `EvalFile`); these serve the others.

use crate::nnue::Network;
use protean_rules::{variant_file, Variant};
use std::sync::LazyLock;

/// Every file of `epd/variants/` (variant files, weights, networks), by
/// its file name.
const FILES: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/variant_files.rs"));

/// A variant of those files with the fitted files it names.
struct Fitted {
    variant: Variant,
    weights: Option<&'static str>,
    network: Option<Network>,
}

/// The contents of the built-in file that `path` (as a variant file
/// names it, relative to its directory) names.
fn named(path: Option<&std::path::Path>) -> Option<&'static [u8]> {
    let name = path?.file_name()?.to_str()?;
    FILES.iter().find(|(file, _)| *file == name).map(|&(_, bytes)| bytes)
}

/// The variants of variant-file text `text`, whose parents may be the
/// built-in variants.
fn variants_of(text: &str) -> Result<Vec<Variant>, Vec<variant_file::VariantFileError>> {
    variant_file::parse(text, |name| protean_rules::variants::built_in_by_name(name).is_some())
}

/// The variants that name fitted files, read once per process. Every one
/// reads (a unit test holds it to that); one that did not would lend
/// nothing rather than stop the engine.
static FITTED: LazyLock<Vec<Fitted>> = LazyLock::new(|| {
    let texts = FILES.iter().filter(|(name, _)| name.ends_with(".ini"));
    let variants = texts
        .filter_map(|(_, bytes)| std::str::from_utf8(bytes).ok())
        .flat_map(|text| variants_of(text).unwrap_or_default());
    variants
        .filter_map(|variant| {
            let files = &variant.eval_files;
            let weights = named(files.weights.as_deref()).and_then(|b| std::str::from_utf8(b).ok());
            let network = named(files.network.as_deref()).and_then(|b| Network::from_bytes(b).ok());
            (weights.is_some() || network.is_some()).then_some(Fitted { variant, weights, network })
        })
        .collect()
});

/// The fitted variant whose files `variant` evaluates with: of those it
/// evaluates as, the one that starts where it does (the same game under
/// another name, such as a user's own Gothic chess file), else the first.
/// Its weights and network go together: a network is trained on top of
/// its own variant's weights, so Capablanca chess's network never meets
/// Gothic chess's weights.
fn fitted_as(variant: &Variant) -> Option<&'static Fitted> {
    let alike = || FITTED.iter().filter(move |f| variant.evaluates_as(&f.variant));
    alike().find(|f| f.variant.start_fen == variant.start_fen).or_else(|| alike().next())
}

/// The built-in weights file of the fitted variant `variant` evaluates
/// with ([`fitted_as`]).
pub(crate) fn weights_for(variant: &Variant) -> Option<&'static str> {
    fitted_as(variant)?.weights
}

/// The built-in network of the fitted variant `variant` evaluates with
/// (whether it fits the board is the caller's test).
pub(crate) fn network_for(variant: &Variant) -> Option<&'static Network> {
    fitted_as(variant)?.network.as_ref()
}

/// Every variant of those files with a network, and its network.
pub(crate) fn networks() -> impl Iterator<Item = (&'static Variant, &'static Network)> {
    FITTED.iter().filter_map(|f| Some((&f.variant, f.network.as_ref()?)))
}

#[cfg(test)]
mod tests;
