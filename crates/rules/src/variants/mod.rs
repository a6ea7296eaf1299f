//! The variants Protean plays, each defined as data in its own file, and
//! the names they go by.

mod beyond;
mod chess960;
pub mod flexichess;
mod onedim;
mod perfect;
mod standard;

use crate::variant::Variant;

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
    make: fn() -> Variant,
}

/// Every variant, in the order protocols list them.
pub const VARIANTS: &[Names] = &[
    Names { name: "standard", uci: "chess", xboard: "normal", aliases: &["chess", "normal"], make: standard::variant },
    Names { name: "chess960", uci: "chess960", xboard: "fischerandom", aliases: &["fischerandom", "frc"], make: chess960::variant },
    Names { name: "perfect", uci: "perfect", xboard: "perfect", aliases: &["perfectchess"], make: perfect::variant },
    Names { name: "onedim", uci: "onedim", xboard: "onedim", aliases: &["1d"], make: onedim::variant },
    Names { name: "beyond", uci: "beyond", xboard: "beyond", aliases: &["beyondchess"], make: beyond::variant },
    Names { name: "flexichess", uci: "flexichess", xboard: "flexichess", aliases: &["flexi"], make: flexichess::variant },
];

/// Every variant's own name, in the order protocols list them.
pub const NAMES: &[&str] = &["standard", "chess960", "perfect", "onedim", "beyond", "flexichess"];

/// The names of the variant called `name` (its own name or any alias).
pub fn names(name: &str) -> Option<&'static Names> {
    let name = name.to_ascii_lowercase();
    VARIANTS.iter().find(|n| n.name == name || n.uci == name || n.xboard == name || n.aliases.contains(&name.as_str()))
}

/// The variant called `name` (its own name or any alias).
pub fn by_name(name: &str) -> Option<Variant> {
    names(name).map(|n| (n.make)())
}

/// UCI's name of a variant given by any of its names (itself if unknown).
pub fn uci_name(name: &str) -> &str {
    names(name).map_or(name, |n| n.uci)
}

/// XBoard's name of a variant given by any of its names (itself if unknown).
pub fn xboard_name(name: &str) -> &str {
    names(name).map_or(name, |n| n.xboard)
}

/// Each variant with its aliases, for help texts: `standard (chess,
/// normal), ...`.
pub fn described() -> String {
    VARIANTS.iter().map(|n| format!("{} ({})", n.name, n.aliases.join(", "))).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
