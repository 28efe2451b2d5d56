//! nimlab's integration tests, one binary with a module per theme (one link of the whole
//! dependency tree instead of one per file). `cargo test --test tests <module>::` runs one theme.

mod common;

mod candy;
mod cash;
mod cash_win_condition;
mod claims;
mod claims_cash;
mod claims_findings;
mod claims_octal;
mod cli_candy;
mod cli_cash;
mod cli_check;
mod cli_conventions;
mod cli_discover;
mod cli_io;
mod cli_normal_play;
mod cli_octal;
mod cli_scoring;
mod cli_sweep;
mod mine_octal_cert;
mod mine_progressions;
mod mine_pwl_forms;
mod octal;
mod process_guards;
mod prove;
mod report;
mod robustness;
mod scoring;
mod study;
mod study_run;
mod typeset;
