//! The variants Protean plays, each defined as data in its own file.

mod beyond;
pub mod flexichess;
mod onedim;
mod perfect;
mod standard;

use crate::variant::Variant;

/// Every variant name the engine accepts, in the order protocols list them.
pub const NAMES: &[&str] = &["standard", "perfect", "onedim", "beyond", "flexichess"];

/// The variant of that name (`chess` and `normal` are accepted for standard).
pub fn by_name(name: &str) -> Option<Variant> {
    match name.to_ascii_lowercase().as_str() {
        "standard" | "chess" | "normal" => Some(standard::variant()),
        "perfect" | "perfectchess" => Some(perfect::variant()),
        "onedim" | "1d" => Some(onedim::variant()),
        "beyond" | "beyondchess" => Some(beyond::variant()),
        "flexichess" | "flexi" => Some(flexichess::variant()),
        _ => None,
    }
}
