//! The miner: patterns in generic sequences of exact values — periods and their window
//! certificates, periodic-linear closed forms and their certificates, quasi-polynomials in a
//! parameter, the shapes and closed forms of piecewise-linear functions, and closed forms along
//! families of them.
//! It knows nothing about games; callers say what recurrence produced the data (its look-back),
//! which is what turns an observation into a proof.

pub mod across;
pub mod certificate;
pub mod family;
#[cfg(test)]
mod fixtures;
pub mod linear;
pub mod period;
pub mod progressions;
pub mod pwl_form;
pub mod quasi;
pub mod shape;
pub mod window;

pub use across::{
    AcrossAnalysis, AcrossClass, AcrossFit, AcrossMember, FunctionAcross, InterceptsAcross,
    PieceAcross, TableForm, across_analysis,
};
pub use certificate::{Certificate, MAX_CERTIFICATE_INDEX, Recurrence, Rule, Term};
pub use family::{
    BreakpointForms, ClosedForm, FamilyForms, FamilyOptions, IrregularTail, QuantityFit, TailSide,
    irregular_tail, mine_family, mine_family_with, residue_index,
};
pub use linear::{
    FitOptions, FloorForm, FloorKind, PeriodicLinear, ResidueLine, affine_text, fit_periodic_linear,
};
pub use period::{
    ArithmeticPeriodicity, PeriodStatus, Periodicity, component_period, observe_arithmetic_period,
    observe_period, prove_octal_period, prove_period, prove_take_break_period,
};
pub use progressions::{
    Anomaly, KLine, NoProgressionForm, Progression, ProgressionFamily, Run, Shape,
    first_difference, mine_progressions, mine_progressions_confirmed,
};
pub use pwl_form::{
    AffineNumber, FamilyForm, GridForm, LinearParameter, PwlForm, PwlKind, family_form, grid_form,
    pwl_form,
};
pub use quasi::{QuasiOptions, QuasiPolynomial, fit_quasi_polynomial};
pub use shape::{PwlShape, Zigzag, pwl_shape, zigzag};
pub use window::{WindowCertificate, WindowError};
