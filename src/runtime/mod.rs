//! Runtime: the per-process `World`, configuration, PMI client, progress, errors.
pub mod pmi;
