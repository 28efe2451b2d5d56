//! Last-resort guards of the `nimlab` process: a memory cap that every allocation is counted
//! against, and a clean exit when memory runs out.
//!
//! Why: every command estimates its memory before it starts and refuses work above
//! `--memory-limit` with the estimate. Estimates are models, though, and a model can be wrong;
//! and under `ulimit -v` the system may refuse memory well below the limit. Rust's default
//! reaction to a failed allocation is `abort` (exit 134, "memory allocation … failed"), which
//! leaves the user with nothing but a backtrace. [`GuardedAlloc`] counts the bytes in use and,
//! when the cap is passed or the system refuses, prints one clear line and exits with status 2 —
//! the status of every other refused input.
//!
//! The memory itself comes from jemalloc, not the C library's allocator: the proofs and the
//! claims' evaluator make many small short-lived allocations from both cores, and glibc's
//! malloc spent a third of a proof's time on them (15% of `nimlab check` in all). Unlike
//! mimalloc, jemalloc reserves no large address ranges up front, so `ulimit -v` still bounds
//! what a run may use.
//!
//! The count is kept per thread and folded into one global counter in steps of [`SLACK`] bytes,
//! so small allocations cost one thread-local addition and the cap is exact to within
//! `SLACK` bytes per thread; an allocation of `SLACK` bytes or more is counted at once.
//!
//! The out-of-memory path allocates nothing: the message is formatted into a stack buffer and
//! written with `write(2)`, cleanup hooks registered with [`on_out_of_memory`] run with the
//! counting switched off, and the process ends with `_exit(2)`.

use std::alloc::{GlobalAlloc, Layout};

use std::cell::Cell;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicPtr, Ordering};
use tikv_jemallocator::Jemalloc;

/// Bytes a thread may allocate (or free) before its count is folded into the global counter.
pub const SLACK: isize = 1 << 20;

/// The cap in bytes; `isize::MAX` until [`set_memory_cap`] is called.
static CAP: AtomicIsize = AtomicIsize::new(isize::MAX);
/// Bytes in use, as folded in by the threads.
static IN_USE: AtomicIsize = AtomicIsize::new(0);
/// Set once the process is on its way out: allocations are no longer counted or checked.
static EXITING: AtomicBool = AtomicBool::new(false);
/// A cleanup to run before exiting for lack of memory (e.g. removing temporary files).
static CLEANUP: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());

thread_local! {
    /// This thread's bytes not yet folded into [`IN_USE`] (negative after net frees).
    static UNFOLDED: Cell<isize> = const { Cell::new(0) };
}

/// Caps the memory the process may hold at `bytes` (counted over every allocation).
pub fn set_memory_cap(bytes: u64) {
    CAP.store(
        isize::try_from(bytes).unwrap_or(isize::MAX),
        Ordering::Relaxed,
    );
}

/// Registers a function to run (once, with allocation unchecked) before the process exits for
/// lack of memory. The last registration wins.
pub fn on_out_of_memory(cleanup: fn()) {
    CLEANUP.store(cleanup as *mut (), Ordering::Relaxed);
}

/// Share of the memory the system allows that a run may plan to use: the rest is left for the
/// allocator's own overhead, thread stacks and the program itself.
const PLANNED_SHARE: f64 = 0.8;

/// The memory a run may plan to use on this system, when the system sets a bound: the address
/// space left under `ulimit -v` (`RLIMIT_AS` less what the process has mapped already) and the
/// memory available (`MemAvailable` of `/proc/meminfo`), whichever is smaller, times
/// `PLANNED_SHARE`. `None` when neither is known.
pub fn system_allowance() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` writes into the struct it is given.
    let address_space = if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0
        && limit.rlim_cur != libc::RLIM_INFINITY
    {
        let mapped = proc_kib("/proc/self/status", "VmSize:").unwrap_or(0) * 1024;
        Some(limit.rlim_cur.saturating_sub(mapped))
    } else {
        None
    };
    let available = proc_kib("/proc/meminfo", "MemAvailable:").map(|kib| kib * 1024);
    let bound = match (address_space, available) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    Some(((bound as f64 * PLANNED_SHARE) as u64).max(1 << 20))
}

/// The number of KiB on the line of `file` that starts with `key`, e.g. `VmSize:  1234 kB`.
fn proc_kib(file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// The global allocator of the `nimlab` binary: the system allocator, counted and capped.
pub struct GuardedAlloc;

impl GuardedAlloc {
    /// Counts `delta` bytes (negative when freed); exits when the cap is passed.
    #[inline]
    fn count(delta: isize) {
        if EXITING.load(Ordering::Relaxed) {
            return;
        }
        let folded = UNFOLDED
            .try_with(|local| {
                let pending = local.get() + delta;
                if pending.abs() < SLACK {
                    local.set(pending);
                    None
                } else {
                    local.set(0);
                    Some(pending)
                }
            })
            // A thread whose locals are gone counts directly.
            .unwrap_or(Some(delta));
        if let Some(pending) = folded {
            let in_use = IN_USE.fetch_add(pending, Ordering::Relaxed) + pending;
            if pending > 0 && in_use > CAP.load(Ordering::Relaxed) {
                out_of_memory(Refusal::Cap, delta);
            }
        }
    }
}

// SAFETY: every method forwards to `Jemalloc` with the same layout and pointer; the counting has
// no effect on the memory returned.
unsafe impl GlobalAlloc for GuardedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::count(layout.size() as isize);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let p = unsafe { Jemalloc.alloc(layout) };
        if p.is_null() {
            out_of_memory(Refusal::System, layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::count(layout.size() as isize);
        // SAFETY: as for `alloc`.
        let p = unsafe { Jemalloc.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(Refusal::System, layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `Jemalloc` with `layout` (every path above forwards).
        unsafe { Jemalloc.dealloc(ptr, layout) };
        Self::count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grow = new_size as isize - layout.size() as isize;
        if grow > 0 {
            Self::count(grow);
        }
        // SAFETY: as for `dealloc`; `new_size` is the caller's.
        let p = unsafe { Jemalloc.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(Refusal::System, grow);
        }
        if grow < 0 {
            Self::count(grow);
        }
        p
    }
}

/// Who refused the memory.
#[derive(Clone, Copy)]
enum Refusal {
    /// The cap of [`set_memory_cap`] (`--memory-limit`, or the default).
    Cap,
    /// The system (e.g. `ulimit -v`, or no memory left).
    System,
}

/// A fixed buffer that formats without allocating; text past its end is dropped.
struct StackText {
    bytes: [u8; 640],
    len: usize,
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.bytes.len() - self.len;
        let n = s.len().min(room);
        self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Binary size units without allocating, e.g. `1.5 GiB`.
pub(super) struct Size(pub(super) u64);

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        let mut v = self.0 as f64;
        let mut unit = 0;
        while v >= 1024.0 && unit + 1 < UNITS.len() {
            v /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} {}", self.0, UNITS[0])
        } else {
            write!(f, "{v:.1} {}", UNITS[unit])
        }
    }
}

/// Prints why memory ran out, runs the cleanup and exits with status 2. Allocates nothing.
#[cold]
fn out_of_memory(refusal: Refusal, asked: isize) -> ! {
    if EXITING.swap(true, Ordering::Relaxed) {
        // A second thread ran out while the first is reporting: let the first finish.
        loop {
            std::thread::park();
        }
    }
    let in_use = Size(IN_USE.load(Ordering::Relaxed).max(0) as u64);
    let asked = Size(asked.max(0) as u64);
    let mut text = StackText {
        bytes: [0; 640],
        len: 0,
    };
    let _ = match refusal {
        Refusal::Cap => writeln!(
            text,
            "error: out of memory: this run went past the memory limit of {} ({in_use} in use, \
             {asked} more asked for); nothing was written. Its estimate was too low — try a \
             smaller input, or raise --memory-limit where the command has it",
            Size(CAP.load(Ordering::Relaxed) as u64),
        ),
        Refusal::System => writeln!(
            text,
            "error: out of memory: the system refused {asked} more with {in_use} in use \
             (check `ulimit -v` and free memory); nothing was written. Try a smaller input, \
             or a lower --memory-limit where the command has it so that it refuses up front",
        ),
    };
    // SAFETY: writing a valid buffer to the standard error descriptor.
    unsafe {
        libc::write(2, text.bytes.as_ptr().cast(), text.len);
    }
    let cleanup = CLEANUP.load(Ordering::Relaxed);
    if !cleanup.is_null() {
        // SAFETY: only `on_out_of_memory` stores into CLEANUP, always a `fn()`.
        let cleanup: fn() = unsafe { std::mem::transmute::<*mut (), fn()>(cleanup) };
        cleanup();
    }
    // SAFETY: `_exit` ends the process without running handlers that could allocate.
    unsafe { libc::_exit(2) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_format_without_allocating_text() {
        let mut t = StackText {
            bytes: [0; 640],
            len: 0,
        };
        write!(t, "{} {} {}", Size(12), Size(3 << 29), Size(8 << 30)).unwrap();
        assert_eq!(&t.bytes[..t.len], b"12 bytes 1.5 GiB 8.0 GiB");
    }

    #[test]
    fn stack_text_drops_what_does_not_fit() {
        let mut t = StackText {
            bytes: [0; 640],
            len: 0,
        };
        for _ in 0..100 {
            t.write_str("0123456789").unwrap();
        }
        assert_eq!(t.len, 640);
    }
}
