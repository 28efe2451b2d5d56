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

/// One of several parts of a piece of work that report side by side to one shared
/// [`Progress`] (the reports of `nimlab report`, built in parallel).
///
/// Each computation a part runs announces its own size with [`Progress::start`]; passed on to
/// a shared bar, that would replace the sizes of all the others while their finished work
/// stayed counted (a cold `report` read "2771461369/164614494 steps (1683%)"). A part turns
/// each `start` into work *added* to the shared total: a new `start` opens a new computation,
/// and what the previous one announced but did not finish is counted as finished. A
/// computation that finishes more than it announced adds the excess to the total. So the
/// shared position never passes the shared total, whatever the parts do.
pub struct Part<'a> {
    shared: &'a dyn Progress,
    /// Work announced and finished by the part's current computation.
    current: std::sync::Mutex<(u64, u64)>,
}

impl<'a> Part<'a> {
    /// A part reporting to `shared`.
    pub fn new(shared: &'a dyn Progress) -> Part<'a> {
        Part {
            shared,
            current: std::sync::Mutex::new((0, 0)),
        }
    }

    fn current(&self) -> std::sync::MutexGuard<'_, (u64, u64)> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Progress for Part<'_> {
    fn start(&self, total: u64) {
        let mut current = self.current();
        let (announced, finished) = *current;
        self.shared.advance(announced.saturating_sub(finished));
        *current = (total, 0);
        self.shared.add_work(total);
    }

    fn add_work(&self, n: u64) {
        self.current().0 += n;
        self.shared.add_work(n);
    }

    fn advance(&self, n: u64) {
        let mut current = self.current();
        let (announced, finished) = *current;
        let excess = (finished + n).saturating_sub(announced);
        if excess > 0 {
            self.shared.add_work(excess);
            current.0 += excess;
        }
        current.1 += n;
        self.shared.advance(n);
    }

    fn stage(&self, what: &str) {
        self.shared.stage(what);
    }
}

/// Work over the numbered items `items`, computed `chunk` at a time in parallel and handed to
/// `each` a batch at a time in item order, one unit of progress per item: a survey's shard,
/// held in memory one batch at a time. The first error (of `compute` or of `each`) stops it.
pub fn in_parallel_batches<T: Send>(
    items: std::ops::Range<u64>,
    chunk: usize,
    progress: &dyn Progress,
    compute: impl Fn(u64) -> crate::error::Result<T> + Sync,
    mut each: impl FnMut(Vec<T>) -> crate::error::Result<()>,
) -> crate::error::Result<()> {
    use rayon::prelude::*;
    progress.start(items.end.saturating_sub(items.start));
    let mut next = items.start;
    while next < items.end {
        let end = next.saturating_add(chunk.max(1) as u64).min(items.end);
        let batch = (next..end)
            .into_par_iter()
            .map(|item| {
                let done = compute(item);
                progress.advance(1);
                done
            })
            .collect::<crate::error::Result<Vec<_>>>()?;
        each(batch)?;
        next = end;
    }
    Ok(())
}

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

    /// A bar's length and position, as the CLI's bar keeps them.
    #[derive(Default)]
    struct Totals(Mutex<(u64, u64)>);

    impl Progress for Totals {
        fn add_work(&self, n: u64) {
            self.0.lock().unwrap().0 += n;
        }
        fn advance(&self, n: u64) {
            let mut t = self.0.lock().unwrap();
            t.1 += n;
            assert!(t.1 <= t.0, "position {} past the total {}", t.1, t.0);
        }
    }

    #[test]
    fn parts_add_their_computations_and_never_pass_the_shared_total() {
        let shared = Totals::default();
        let (a, b) = (Part::new(&shared), Part::new(&shared));
        a.start(100);
        b.start(10);
        a.advance(60);
        b.advance(10);
        // b's next computation, smaller than what a has done; a's next before it finished.
        b.start(5);
        b.advance(5);
        a.start(20);
        // More than announced, and work found as it goes.
        a.advance(30);
        a.add_work(7);
        a.advance(7);
        assert_eq!(
            *shared.0.lock().unwrap(),
            (100 + 10 + 5 + 20 + 10 + 7, 60 + 10 + 5 + 40 + 30 + 7)
        );
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
