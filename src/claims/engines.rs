//! The engines' caches for one check run: a claim quantified over thousands of points asks for
//! the same payoffs, sequences and tables again and again.
//!
//! Each game's functions keep their results in a cache type of their own, defined next to them
//! in [`functions`](super::functions) (`ScoringCache`, `OctalCache`, `CandyCache`,
//! `CashCache`); [`Engines`] holds one of each that has been asked for, keyed by its type, so
//! that a new game's cache needs no field here.

use std::any::Any;

/// The caches of one check run. One per claim being checked; not shared between threads.
#[derive(Default)]
pub struct Engines {
    /// One cache per type, created when first asked for.
    caches: Vec<Box<dyn Any + Send>>,
}

impl Engines {
    /// Fresh engines with empty caches.
    pub fn new() -> Engines {
        Engines::default()
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
}
