//! Training for Protean: what the search's evaluation is fitted with, kept
//! out of the search crate, which keeps evaluation and inference only.
//! This crate knows positions (`rules`) and the evaluation's terms,
//! weights and network layout (`search`), and nothing of protocols or of
//! how games are played: datagen plays them and writes records.
//!
//! One subsystem a file: `records` (datagen's lines, written and read),
//! `texel` (fitting the hand-made evaluation's weights to results),
//! `tuning` (records to a weights file, `protean tune`), `network` (the
//! network in floating point, trained by Adam) and `network_training`
//! (records to a network file, `protean train-network`).
//!
//! Two layers are public: the jobs, from record files to a file the
//! search builds in ([`tune`], [`train_network`]), and beneath them the
//! fits, for data from elsewhere ([`DataSet`] and [`fit`]; [`TrainingSet`]
//! and [`train`]).

mod network;
mod network_training;
mod records;
mod texel;
mod tuning;

pub use network::{expected_result, train, EpochReport, FloatNetwork, Start, TrainOptions, TrainingSet};
pub use network_training::{train_network, Init, NetworkTraining, TrainingProgress};
pub use records::{format_record, parse_record, read_records};
pub use texel::{fit, unused_terms, DataSet, Fit, Freedom};
pub use tuning::{tune, Fitted, TuneProgress, Tuning};
