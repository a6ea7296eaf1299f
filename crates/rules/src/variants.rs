//! The variants Protean plays, defined as data in `variants.ini` (the
//! format users write, compiled in and read once), the names they go by,
//! and the variants loaded from users' files.

use crate::any::AnyRules;
use crate::variant::Variant;
use crate::variant_file::{self, VariantFileError};
use std::sync::{OnceLock, RwLock};

/// The built-in variants, a section each.
const BUILT_IN_FILE: &str = include_str!("../variants.ini");

/// The built-in variant of that own name, parsed once.
fn built_in(name: &str) -> &'static Variant {
    static BUILT_IN: OnceLock<Vec<Variant>> = OnceLock::new();
    let all = BUILT_IN.get_or_init(|| {
        variant_file::parse(BUILT_IN_FILE, |_| false).unwrap_or_else(|errors| panic!("variants.ini: {errors:?}"))
    });
    all.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("variants.ini has no [{name}]"))
}

/// Variants loaded from files (`load`), after the built-in ones.
static LOADED: RwLock<Vec<Variant>> = RwLock::new(Vec::new());

/// Loads the variants of a variant file (see `variant_file`), replacing
/// loaded ones of the same name, and returns their names. A file with any
/// mistake loads nothing: every mistake is returned, with its line.
pub fn load(text: &str) -> Result<Vec<String>, Vec<VariantFileError>> {
    load_from(text, None)
}

/// [`load`], the files a variant names (`EvalFiles`) taken from `dir`
/// where relative.
fn load_from(text: &str, dir: Option<&std::path::Path>) -> Result<Vec<String>, Vec<VariantFileError>> {
    let mut parsed = variant_file::parse(text, |name| names(name).is_some())?;
    if let Some(dir) = dir {
        parsed.iter_mut().for_each(|v| v.eval_files.relative_to(dir));
    }
    let mut loaded = LOADED.write().unwrap_or_else(|e| e.into_inner());
    let mut added = Vec::new();
    for v in parsed {
        loaded.retain(|l| !l.name.eq_ignore_ascii_case(&v.name));
        added.push(v.name.clone());
        loaded.push(v);
    }
    Ok(added)
}

/// Reads and loads a variant file; the errors as lines to show.
pub fn load_file(path: &std::path::Path) -> Result<Vec<String>, Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(|e| vec![format!("{}: {e}", path.display())])?;
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    load_from(&text, Some(dir)).map_err(|errors| errors.iter().map(|e| format!("{}: {e}", path.display())).collect())
}

/// Every variant's name as a protocol lists it: the built-ins' by
/// `name_of` (`|n| n.uci`), then the loaded ones' own.
pub fn listed(name_of: fn(&Names) -> &'static str) -> Vec<String> {
    VARIANTS.iter().map(|n| name_of(n).to_string()).chain(loaded_names()).collect()
}

/// The names of the variants loaded from files, in the order loaded.
pub fn loaded_names() -> Vec<String> {
    LOADED.read().unwrap_or_else(|e| e.into_inner()).iter().map(|v| v.name.clone()).collect()
}

fn loaded(name: &str) -> Option<Variant> {
    LOADED.read().unwrap_or_else(|e| e.into_inner()).iter().find(|v| v.name.eq_ignore_ascii_case(name)).cloned()
}

/// A variant's names. Protean's own is the one it writes in errors, help
/// and PGN; UCI and XBoard show theirs (the names their GUIs send); every
/// name and alias is accepted everywhere, in any case.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    pub name: &'static str,
    /// `UCI_Variant`'s value, as Fairy-Stockfish and python-chess name it.
    pub uci: &'static str,
    /// XBoard's `variant` name, as its protocol names it.
    pub xboard: &'static str,
    pub aliases: &'static [&'static str],
}

/// Every variant, in the order protocols list them.
pub const VARIANTS: &[Names] = &[
    Names { name: "standard", uci: "chess", xboard: "normal", aliases: &["chess", "normal"] },
    Names { name: "chess960", uci: "chess960", xboard: "fischerandom", aliases: &["fischerandom", "frc"] },
    Names { name: "perfect", uci: "perfect", xboard: "perfect", aliases: &["perfectchess"] },
    Names { name: "onedim", uci: "onedim", xboard: "onedim", aliases: &["1d"] },
    Names { name: "beyond", uci: "beyond", xboard: "beyond", aliases: &["beyondchess"] },
    Names { name: "flexichess", uci: "flexichess", xboard: "flexichess", aliases: &["flexi"] },
];

/// Every variant's own name, in the order protocols list them.
pub const NAMES: &[&str] = &["standard", "chess960", "perfect", "onedim", "beyond", "flexichess"];

/// The names of the variant called `name` (its own name or any alias).
pub fn names(name: &str) -> Option<&'static Names> {
    let name = name.to_ascii_lowercase();
    VARIANTS.iter().find(|n| n.name == name || n.uci == name || n.xboard == name || n.aliases.contains(&name.as_str()))
}

/// The variant called `name` (its own name or any alias, or a loaded
/// variant's name).
pub fn by_name(name: &str) -> Option<Variant> {
    built_in_by_name(name).cloned().or_else(|| loaded(name))
}

/// The built-in variant called `name` (its own name or any alias),
/// borrowed: no copy for a caller that only compares it.
pub fn built_in_by_name(name: &str) -> Option<&'static Variant> {
    names(name).map(|n| built_in(n.name))
}

/// A variant's own name, given any of its names: a built-in's, or a
/// loaded variant's as its file writes it.
pub fn own_name(name: &str) -> Option<String> {
    names(name).map(|n| n.name.to_string()).or_else(|| loaded(name).map(|v| v.name))
}

/// UCI's name of a variant given by any of its names (itself if unknown).
pub fn uci_name(name: &str) -> &str {
    names(name).map_or(name, |n| n.uci)
}

/// XBoard's name of a variant given by any of its names (itself if unknown).
pub fn xboard_name(name: &str) -> &str {
    names(name).map_or(name, |n| n.xboard)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown variant '{}' (known: {})", self.0, described())
    }
}
impl std::error::Error for UnknownVariant {}

impl AnyRules {
    /// The compiled rules of the variant called `name` (any of its names).
    pub fn by_name(name: &str) -> Result<AnyRules, UnknownVariant> {
        let variant = by_name(name).ok_or_else(|| UnknownVariant(name.to_string()))?;
        Ok(AnyRules::new(variant).expect("built-in and loaded variants compile"))
    }
}

/// Each variant with its aliases, for help texts: `standard (chess,
/// normal), ...`.
pub fn described() -> String {
    let builtin = VARIANTS.iter().map(|n| format!("{} ({})", n.name, n.aliases.join(", ")));
    builtin.chain(loaded_names()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variants_file_has_a_section_for_each_built_in_name() {
        let parsed = variant_file::parse(BUILT_IN_FILE, |_| false).expect("variants.ini reads");
        assert_eq!(parsed.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(), NAMES);
    }

    #[test]
    fn names_are_one_list() {
        assert_eq!(NAMES, VARIANTS.iter().map(|n| n.name).collect::<Vec<_>>());
        for n in VARIANTS {
            assert_eq!(by_name(n.name).expect("own name").name, n.name);
            for alias in n.aliases.iter().chain([&n.uci, &n.xboard]) {
                assert_eq!(by_name(&alias.to_ascii_uppercase()).expect("alias").name, n.name, "{alias}");
            }
        }
    }
}
