//! Search for Protean: parallel alpha-beta over a shared transposition
//! table. Empty until the engine issue (#3) lands; the crate exists now so
//! that the workspace has its final, one-way shape: `rules` <- `search` <-
//! `protocol` <- `protean`.
