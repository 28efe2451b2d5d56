//! Game engines. Each computes exact values over positions and families of positions; nothing
//! here formats output or knows about the miner or reports.

pub mod candy;
pub mod cash;
pub mod certificate_file;
pub mod normal_play;
pub mod scoring;
