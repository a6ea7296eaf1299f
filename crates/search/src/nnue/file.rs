//! The network file, all numbers little-endian: the magic `PRTNNUE3`, then kinds,
//! cells, the hidden size, whether the network is on top of the
//! hand-made evaluation (1) or alone (0), its activation (0 clipped, 1
//! clipped and squared) and its output scale as `u32`s, then the hidden
//! layer's weights (`i16`, input by input, each input's `HIDDEN` units
//! together), its biases (`i16`), the output's weights (`i16`, the side
//! to move's units first) and the output's bias (`i32`). The earlier
//! forms have no output scale word (64): `PRTNNUE2`, and `PRTNNUE1`,
//! which has no activation word either, its units clipped.

use super::{Activation, Network, NetworkError, HIDDEN};

/// The output scale of the files written before it was a word of the
/// file. A squared unit's rounding at this scale cost a network 0.56% of
/// its held-out loss, at [`QB`](super::QB) 0.04%.
const QB_EARLIER_FORMS: i32 = 64;
const MAGIC: &[u8; 8] = b"PRTNNUE3";
/// The second form: no output scale word.
const MAGIC_SECOND: &[u8; 8] = b"PRTNNUE2";
/// The first form of the file: no activation word, units clipped.
const MAGIC_CLIPPED: &[u8; 8] = b"PRTNNUE1";

impl Network {
    /// Reads a network file from disk; the error names the file.
    pub fn from_file(path: &std::path::Path) -> Result<Network, NetworkError> {
        let named = |e: &dyn std::fmt::Display| NetworkError(format!("{}: {e}", path.display()));
        let bytes = std::fs::read(path).map_err(|e| named(&e))?;
        Network::from_bytes(&bytes).map_err(|e| named(&e))
    }
    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], NetworkError> {
            let part = bytes.get(at..at + n).ok_or_else(|| {
                NetworkError(format!(
                    "the file ends at byte {} where {} more were expected",
                    bytes.len(),
                    at + n - bytes.len()
                ))
            })?;
            at += n;
            Ok(part)
        };
        // How many of the words after on_top (activation, output scale)
        // the file's form has.
        let later_words = match take(MAGIC.len()) {
            Ok(m) if m == MAGIC => 2,
            Ok(m) if m == MAGIC_SECOND => 1,
            Ok(m) if m == MAGIC_CLIPPED => 0,
            _ => {
                return Err(NetworkError(
                    "not a Protean network file (it does not start with PRTNNUE3, PRTNNUE2 or PRTNNUE1)".into(),
                ))
            }
        };
        let mut word = || -> Result<usize, NetworkError> {
            Ok(u32::from_le_bytes(take(4)?.try_into().expect("four bytes")) as usize)
        };
        let (kinds, cells, hidden, on_top) = (word()?, word()?, word()?, word()?);
        let activation = if later_words >= 1 { word()? } else { 0 };
        let output_scale = if later_words >= 2 { word()? } else { QB_EARLIER_FORMS as usize };
        let activation = *Activation::ALL.get(activation).ok_or_else(|| {
            NetworkError(format!("activation {activation} where 0 (clipped) or 1 (clipped and squared) was expected"))
        })?;
        if hidden != HIDDEN {
            return Err(NetworkError(format!("a hidden layer of {hidden} units where this build has {HIDDEN}")));
        }
        if on_top > 1 {
            return Err(NetworkError(format!(
                "{on_top} where 0 (alone) or 1 (on top of the hand-made evaluation) was expected"
            )));
        }
        if kinds == 0 || cells == 0 || kinds > 64 || cells > protean_rules::geometry::MAX_CELLS {
            return Err(NetworkError(format!("{kinds} kinds on {cells} cells is no board")));
        }
        let mut units = || -> Result<[i16; HIDDEN], NetworkError> {
            let raw = take(2 * HIDDEN)?;
            Ok(std::array::from_fn(|i| i16::from_le_bytes([raw[2 * i], raw[2 * i + 1]])))
        };
        let hidden_weights = (0..2 * kinds * cells).map(|_| units()).collect::<Result<Vec<_>, _>>()?;
        let hidden_biases = units()?;
        let output_weights = [units()?, units()?];
        let output_bias = i32::from_le_bytes(take(4)?.try_into().expect("four bytes"));
        if at != bytes.len() {
            return Err(NetworkError(format!("{} bytes after the network's end", bytes.len() - at)));
        }
        Network::new(
            kinds,
            cells,
            on_top == 1,
            activation,
            hidden_weights,
            hidden_biases,
            output_weights,
            output_bias,
            i32::try_from(output_scale).unwrap_or(i32::MAX),
        )
    }

    /// The network as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in
            [self.kinds, self.cells, HIDDEN, self.on_top as usize, self.activation as usize, self.output_scale as usize]
        {
            out.extend((n as u32).to_le_bytes());
        }
        let units = self.hidden_weights.iter().chain([&self.hidden_biases]).chain(&self.output_weights);
        for unit in units.flatten() {
            out.extend(unit.to_le_bytes());
        }
        out.extend(self.output_bias.to_le_bytes());
        out
    }
}
