//! The engines' caches for one check run: a claim quantified over thousands of points asks for
//! the same payoffs, sequences and tables again and again.
//!
//! Each game's functions keep their results in a cache type of their own, defined next to them
//! in [`functions`](super::functions) (`ScoringCache`, `OctalCache`, `CandyCache`,
//! `CashCache`); [`Engines`] holds one of each that has been asked for, keyed by its type, so
//! that a new game's cache needs no field here.
//!
//! The claims of one file are checked side by side, each with engines of its own. A table that
//! several of them build alike (Candy Nim's 3-heap table) is worth building once: `Shared`
//! holds such results for every claim of a run, each kind in a thread-safe slot of its own type,
//! found with [`Engines::shared`].

use std::any::Any;
use std::sync::{Arc, Mutex};

/// The caches of one claim being checked; not shared between threads.
#[derive(Default)]
pub struct Engines {
    /// One cache per type, created when first asked for.
    caches: Vec<Box<dyn Any + Send>>,
    /// What the claims of this run share.
    shared: Arc<Shared>,
}

/// Results shared by the claims of one check run: one slot per type, created when first asked
/// for. A slot type does its own locking.
#[derive(Default)]
pub(crate) struct Shared {
    slots: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
}

impl Engines {
    /// Fresh engines with empty caches, sharing nothing.
    pub fn new() -> Engines {
        Engines::default()
    }

    /// Fresh engines with empty caches, sharing `shared` with the other claims of a run.
    pub(crate) fn sharing(shared: Arc<Shared>) -> Engines {
        Engines {
            caches: Vec::new(),
            shared,
        }
    }

    /// The run's slot of type `S`, empty the first time any claim of the run asks for it.
    pub fn shared<S: Default + Send + Sync + 'static>(&self) -> Arc<S> {
        let mut slots = self.shared.slots.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slot) = slots.iter().find_map(|s| s.clone().downcast::<S>().ok()) {
            return slot;
        }
        let slot = Arc::new(S::default());
        slots.push(slot.clone());
        slot
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
    fn a_shared_slot_is_one_per_type_and_run() {
        let run = Arc::new(Shared::default());
        let (a, b) = (Engines::sharing(run.clone()), Engines::sharing(run));
        a.shared::<Mutex<Vec<u32>>>().lock().unwrap().push(7);
        b.shared::<Mutex<Vec<u32>>>().lock().unwrap().push(8);
        assert_eq!(*b.shared::<Mutex<Vec<u32>>>().lock().unwrap(), [7, 8]);
        assert!(b.shared::<Mutex<String>>().lock().unwrap().is_empty());
        // Another run shares nothing with this one.
        assert!(
            Engines::new()
                .shared::<Mutex<Vec<u32>>>()
                .lock()
                .unwrap()
                .is_empty()
        );
    }
}
