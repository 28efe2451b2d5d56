//! The engines' caches for one check run: a claim quantified over thousands of points asks for
//! the same payoffs, sequences and tables again and again.
//!
//! Each game's functions keep their results in a cache type of their own, defined next to them
//! in [`functions`](super::functions) (`ScoringCache`, `OctalCache`, `CandyCache`,
//! `CashCache`); [`Engines`] holds one of each that has been asked for, keyed by its type, so
//! that a new game's cache needs no field here.
//!
//! The claims of one run are checked in parallel, each with its own engines; what one claim
//! solves may still spare another the work. [`Shared`] holds such results for the whole run,
//! again one value per type, behind a lock: each game decides what it shares (Candy Nim shares
//! its largest 3-heap table, which seeds the tables of later claims without making any of them
//! larger than it needs).

use std::any::Any;
use std::sync::{Arc, Mutex};

/// The caches of one check run. One per claim being checked; not shared between threads.
#[derive(Default)]
pub struct Engines {
    /// One cache per type, created when first asked for.
    caches: Vec<Box<dyn Any + Send>>,
    /// What the claims of the run share.
    shared: Arc<Shared>,
}

/// Results shared by the claims of one run, one value per type (see the module doc).
#[derive(Default)]
pub(crate) struct Shared {
    values: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
}

impl Shared {
    /// The shared value of type `S`, created (empty) the first time it is asked for.
    pub fn get<S: Default + Send + Sync + 'static>(&self) -> Arc<S> {
        let mut values = self.values.lock().unwrap_or_else(|e| e.into_inner());
        let i = match values.iter().position(|v| v.is::<S>()) {
            Some(i) => i,
            None => {
                values.push(Arc::new(S::default()));
                values.len() - 1
            }
        };
        Arc::clone(&values[i])
            .downcast()
            .unwrap_or_else(|_| unreachable!("each shared value is stored under its own type"))
    }
}

impl Engines {
    /// Fresh engines with empty caches, sharing nothing.
    pub fn new() -> Engines {
        Engines::default()
    }

    /// Fresh engines with empty caches that share `shared` with the other claims of a run.
    pub(crate) fn sharing(shared: &Arc<Shared>) -> Engines {
        Engines {
            caches: Vec::new(),
            shared: Arc::clone(shared),
        }
    }

    /// The run's shared value of type `S` (see `Shared::get`).
    pub fn shared<S: Default + Send + Sync + 'static>(&self) -> Arc<S> {
        self.shared.get()
    }

    /// The cache of type `C`, empty the first time it is asked for.
    pub fn cache<C: Default + Send + 'static>(&mut self) -> &mut C {
        // A handful of caches: a linear search by type beats hashing.
        let i = match self.caches.iter().position(|c| c.is::<C>()) {
            Some(i) => i,
            None => {
                self.caches.push(Box::new(C::default()));
                self.caches.len() - 1
            }
        };
        self.caches[i]
            .downcast_mut()
            .expect("each cache is stored under its own type")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cache_type_is_kept_once() {
        let mut engines = Engines::new();
        engines.cache::<Vec<u32>>().push(7);
        engines.cache::<String>().push('x');
        engines.cache::<Vec<u32>>().push(8);
        assert_eq!(engines.cache::<Vec<u32>>(), &[7, 8]);
        assert_eq!(engines.cache::<String>(), "x");
        assert_eq!(engines.caches.len(), 2);
    }

    #[test]
    fn engines_sharing_a_run_see_one_shared_value_per_type() {
        let shared = Arc::new(Shared::default());
        let (a, b) = (Engines::sharing(&shared), Engines::sharing(&shared));
        a.shared::<Mutex<Vec<u32>>>().lock().unwrap().push(7);
        assert_eq!(*b.shared::<Mutex<Vec<u32>>>().lock().unwrap(), [7]);
        assert!(b.shared::<Mutex<String>>().lock().unwrap().is_empty());
        assert!(
            Engines::new()
                .shared::<Mutex<Vec<u32>>>()
                .lock()
                .unwrap()
                .is_empty()
        );
    }
}
