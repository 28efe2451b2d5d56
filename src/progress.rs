//! Progress of long work, reported as it goes: one small trait that every engine, the claims
//! checker and the report renderer call, and that each front end implements its own way (the
//! CLI draws a progress bar on stderr; a library caller may log, or ignore it with [`Silent`]).
//!
//! Work is counted in units the caller names (positions, terms, evaluation steps, files). Some
//! work knows its size up front ([`Progress::start`]), some discovers it as it goes
//! ([`Progress::add_work`]); both then count what is finished ([`Progress::advance`]). Every
//! method does nothing by default, so an implementation picks only what it shows.

/// Where long work reports how far it is. Implementations must be cheap: engines call
/// [`advance`](Progress::advance) from their inner loops (in batches) and from several threads.
pub trait Progress: Sync {
    /// The work is `total` units in all; a later call revises the estimate.
    fn start(&self, _total: u64) {}
    /// `n` more units of work are coming (for work announced as it becomes known).
    fn add_work(&self, _n: u64) {}
    /// `n` more units of work are finished.
    fn advance(&self, _n: u64) {}
    /// A new stage of the work begins, named in words.
    fn stage(&self, _what: &str) {}
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// Records every call, as a front end would see it.
    #[derive(Default)]
    struct Log(Mutex<Vec<String>>);

    impl Progress for Log {
        fn start(&self, total: u64) {
            self.0.lock().unwrap().push(format!("start {total}"));
        }
        fn advance(&self, n: u64) {
            self.0.lock().unwrap().push(format!("advance {n}"));
        }
    }

    #[test]
    fn an_implementation_sees_only_what_it_implements() {
        let log = Log::default();
        let p: &dyn Progress = &log;
        p.start(10);
        p.stage("ignored");
        p.add_work(5);
        p.advance(3);
        assert_eq!(*log.0.lock().unwrap(), ["start 10", "advance 3"]);
        let silent: &dyn Progress = &Silent;
        silent.start(1);
        silent.advance(1);
    }
}
