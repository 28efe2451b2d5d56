//! The miner: patterns in generic sequences of exact values — periods, periodic-linear closed
//! forms and their certificates, the shapes of piecewise-linear functions, and closed forms
//! along one-parameter families.
//! It knows nothing about games; callers say what recurrence produced the data (its look-back),
//! which is what turns an observation into a proof.

pub mod certificate;
pub mod family;
pub mod linear;
pub mod period;
pub mod shape;

pub use certificate::{Certificate, Recurrence, Rule, Term};
pub use family::{BreakpointForms, FamilyForms, QuantityFit, ZigzagForm, mine_family};
pub use linear::{
    FitOptions, FloorForm, FloorKind, PeriodicLinear, ResidueLine, affine_text, fit_periodic_linear,
};
pub use period::{
    PeriodStatus, Periodicity, component_period, observe_period, prove_octal_period, prove_period,
};
pub use shape::{PwlShape, Zigzag, pwl_shape, zigzag};
