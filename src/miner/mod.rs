//! The miner: patterns in generic sequences of exact values — periods now, closed forms later.
//! It knows nothing about games; callers say what recurrence produced the data (its look-back),
//! which is what turns an observation into a proof.

pub mod period;

pub use period::{
    PeriodStatus, Periodicity, component_period, observe_period, prove_octal_period, prove_period,
};
