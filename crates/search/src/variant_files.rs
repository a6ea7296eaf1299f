//! The fitted files of the repository's variant files, built in: each
//! variant of `epd/variants/*.ini` that names a weights file or a network
//! (`weightsFile`, `evalFile`: what `protean learn` writes) lends them to
//! every variant that evaluates as it (`Variant::evaluates_as`: the same
//! board, pieces and promotion, another start or castling). So Gothic and
//! Embassy chess, and a user's own Capablanca chess file, evaluate with
//! Capablanca chess's network without naming it, as Chess960 does with
//! standard chess's.
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

/// The fitted variant `variant` evaluates as, where one names files.
fn fitted_as(variant: &Variant) -> impl Iterator<Item = &'static Fitted> + '_ {
    FITTED.iter().filter(move |f| variant.evaluates_as(&f.variant))
}

/// The built-in weights file of a variant file's variant that `variant`
/// evaluates as.
pub(crate) fn weights_for(variant: &Variant) -> Option<&'static str> {
    fitted_as(variant).find_map(|f| f.weights)
}

/// The built-in network of a variant file's variant that `variant`
/// evaluates as (whether it fits the board is the caller's test).
pub(crate) fn network_for(variant: &Variant) -> Option<&'static Network> {
    fitted_as(variant).find_map(|f| f.network.as_ref())
}

#[cfg(test)]
mod tests;
