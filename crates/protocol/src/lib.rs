//! UCI and XBoard for Protean. Empty until the engine issue (#3) and the
//! XBoard issue (#4) land; it will depend on `search` and `rules`, never the
//! other way round.
