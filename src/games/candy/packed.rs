//! Positions packed into one integer, and a memo of P-position values keyed by them: the
//! allocation survey looks up billions of sub-positions, and a key that is a sorted `Vec` costs
//! an allocation, a sort and a long hash each time.
//!
//! # The code
//! A position is a multiset of non-empty heaps; list them increasingly, a₀ ≤ a₁ ≤ … ≤ a_{k−1},
//! and set bit aᵢ + i for each i:
//!
//!   code = Σᵢ 2^(aᵢ + i).
//!
//! The bit positions strictly increase (a_{i+1} + i + 1 > aᵢ + i), so the i-th set bit from the
//! bottom, at p, gives back aᵢ = p − i: the code is injective, and the order of the heaps and the
//! empty heaps do not matter. Its top bit is a_{k−1} + k − 1 ≤ N − 1 for N candies in all (the
//! other k − 1 heaps hold at least one each), so every position of at most
//! [`PACKED_TOTAL`] candies fits below bit 112 — and the allocation survey's (≤ 100) all do. A
//! larger position is *checked* against the bound and kept elsewhere by the caller.
//!
//! Changing one heap is a deletion and an insertion of one bit. Deleting a copy of a: its
//! copies occupy consecutive bits, so deleting the bit of the last one, a + #(heaps ≤ a) − 1,
//! and shifting the bits above down by one gives the code of the rest (the heaps above a lose
//! one from their index). Inserting b ≥ 1 after its equals: its index is #(heaps ≤ b), so bit
//! b + #(heaps ≤ b) is set and the bits from there on move up by one (no heap ≤ b sits that
//! high: its bit is at most b + #(heaps ≤ b) − 1).
//!
//! # The memo
//! A P-position's value satisfies |V| ≤ N, and a packed one has N ≤ k·(112 − k) ≤ 3136 candies
//! (each heap is at most 112 − k), so V fits an `i16`: each entry is one `u128`, the code in
//! the high 112 bits and V in the low 16, stored in an open-addressing array (linear probing,
//! hashed with foldhash, at most 7/8 full). The array rather than a general hash map because
//! the look-ups are what the survey spends its time on, nearly all of them missing every cache:
//! an entry sits in its own slot (one cache line, not a control byte and then a bucket), and
//! [`PackedValues::get_many`] first touches the home slot of every code of a batch, so the
//! memory waits of a batch overlap instead of following one another. The empty position (code
//! 0, V = 0) is never stored, so a zero slot is an empty one.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;

use super::Candies;

/// Positions with at most this many candies always fit a code (see the module doc).
pub const PACKED_TOTAL: u64 = 112;

/// Bits of a code: the top bit of a fitting position is below this.
const CODE_BITS: u32 = 112;

/// Bits of V beside the code in a memo entry.
const VALUE_BITS: u32 = 16;

/// The code of a position given increasingly (zeros allowed first), `None` when it does not fit
/// below bit 112.
pub fn pack_sorted(increasing: &[Candies]) -> Option<u128> {
    let mut code = 0u128;
    for (i, &a) in increasing.iter().skip_while(|&&a| a == 0).enumerate() {
        let bit = u64::from(a) + i as u64;
        if bit >= u64::from(CODE_BITS) {
            return None;
        }
        code |= 1 << bit;
    }
    Some(code)
}

/// The heaps of a code, increasingly, written to the front of `out`; their number is returned.
///
/// # Panics
/// If `out` is shorter than the number of heaps.
pub fn unpack(code: u128, out: &mut [Candies]) -> usize {
    let mut rest = code;
    let mut k = 0;
    while rest != 0 {
        out[k] = rest.trailing_zeros() - k as u32;
        rest &= rest - 1;
        k += 1;
    }
    k
}

/// The code without bit `p`, the bits above it moved down by one.
pub fn delete_bit(code: u128, p: u32) -> u128 {
    let below = code & ((1 << p) - 1);
    below | ((code >> (p + 1)) << p)
}

/// The code with a set bit inserted at `p`, the bits from `p` on moved up by one.
pub fn insert_bit(code: u128, p: u32) -> u128 {
    let below = code & ((1 << p) - 1);
    below | (1 << p) | ((code >> p) << (p + 1))
}

/// V of P-positions by code: one `u128` an entry (see the module doc).
#[derive(Debug)]
pub struct PackedValues {
    /// Entries `code << 16 | V`, 0 for an empty slot; a power-of-two number of them.
    slots: Vec<u128>,
    len: usize,
    hasher: FixedState,
}

impl Default for PackedValues {
    fn default() -> PackedValues {
        PackedValues::with_capacity(0)
    }
}

impl PackedValues {
    /// Slots for `entries`: a power of two at most 7/8 full.
    fn slots_for(entries: u128) -> u128 {
        (entries * 8 / 7 + 1).next_power_of_two().max(8)
    }

    /// An empty memo with room for `entries` without growing.
    pub fn with_capacity(entries: usize) -> PackedValues {
        PackedValues {
            slots: vec![0; Self::slots_for(entries as u128) as usize],
            len: 0,
            hasher: FixedState::default(),
        }
    }

    /// Bytes of a memo sized for `entries`.
    pub fn bytes(entries: u128) -> u128 {
        Self::slots_for(entries) * std::mem::size_of::<u128>() as u128
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The slot a code's probe starts at.
    fn home(&self, code: u128) -> usize {
        self.hasher.hash_one(code) as usize & (self.slots.len() - 1)
    }

    /// V of the position with this code, probing from `slot` (whose entry is `entry`).
    fn probe(&self, code: u128, mut slot: usize, mut entry: u128) -> Option<i16> {
        loop {
            if entry == 0 {
                return None;
            }
            if entry >> VALUE_BITS == code {
                return Some(entry as u16 as i16);
            }
            slot = (slot + 1) & (self.slots.len() - 1);
            entry = self.slots[slot];
        }
    }

    /// V of the position with this code, if stored (the empty position's is 0).
    pub fn get(&self, code: u128) -> Option<i16> {
        if code == 0 {
            return Some(0);
        }
        let slot = self.home(code);
        self.probe(code, slot, self.slots[slot])
    }

    /// [`get`](Self::get) of every code of `codes`, into `values` (as long); `homes` is room
    /// for the probes' start (as long too). The home slots are all read before any is
    /// examined, so their cache misses overlap.
    ///
    /// # Panics
    /// If a code is not stored, or the slices differ in length.
    pub fn get_many(&self, codes: &[u128], homes: &mut [(usize, u128)], values: &mut [i16]) {
        assert!(codes.len() == homes.len() && codes.len() == values.len());
        for (home, &code) in homes.iter_mut().zip(codes) {
            let slot = self.home(code);
            *home = (slot, self.slots[slot]);
        }
        for ((value, &code), &(slot, entry)) in values.iter_mut().zip(codes).zip(&*homes) {
            *value = match code {
                0 => 0,
                _ => self.probe(code, slot, entry).expect("the code is stored"),
            };
        }
    }

    /// Stores V of the position with this code (a code is stored once; the empty position's
    /// is not stored), growing when 7/8 full.
    ///
    /// # Panics
    /// If the code has a bit at 112 or above (it does not fit).
    pub fn insert(&mut self, code: u128, v: i16) {
        assert!(code >> CODE_BITS == 0, "a code fits below bit {CODE_BITS}");
        if code == 0 {
            return;
        }
        if (self.len as u128 + 1) * 8 > self.slots.len() as u128 * 7 {
            let old = std::mem::take(&mut self.slots);
            self.slots = vec![0; old.len() * 2];
            self.len = 0;
            for entry in old.into_iter().filter(|&e| e != 0) {
                self.insert(entry >> VALUE_BITS, entry as u16 as i16);
            }
        }
        let mut slot = self.home(code);
        while self.slots[slot] != 0 {
            slot = (slot + 1) & (self.slots.len() - 1);
        }
        self.slots[slot] = (code << VALUE_BITS) | u128::from(v as u16);
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code of a position in any order.
    fn pack(heaps: &[Candies]) -> Option<u128> {
        let mut sorted = heaps.to_vec();
        sorted.sort_unstable();
        pack_sorted(&sorted)
    }

    #[test]
    fn codes_round_trip_and_ignore_order_and_zeros() {
        let mut out = [0; 64];
        for heaps in [
            vec![],
            vec![1],
            vec![3, 1, 1],
            vec![0, 7, 0, 2, 7],
            vec![50, 50, 11],
        ] {
            let code = pack(&heaps).unwrap();
            let mut expected: Vec<Candies> = heaps.iter().copied().filter(|&h| h > 0).collect();
            expected.sort_unstable();
            let k = unpack(code, &mut out);
            assert_eq!(&out[..k], &expected[..], "{heaps:?}");
        }
        assert_eq!(pack(&[2, 1]), pack(&[1, 2]));
        assert_ne!(pack(&[1, 1, 2]), pack(&[1, 2, 2]));
        // The top bit is the largest heap plus the others' number: 112 candies always fit.
        assert!(pack(&[56, 56]).is_some() && pack(&[1; 112]).is_none());
        assert!(pack(&[1; 111]).is_some() && pack(&[112]).is_none() && pack(&[1, 111]).is_none());
    }

    #[test]
    fn one_heap_changed_is_one_bit_deleted_and_one_inserted() {
        // [1, 3, 3, 6] → [1, 3, 5, 6]: delete the last 3, insert 5 after the heaps ≤ 5.
        let code = pack(&[1, 3, 3, 6]).unwrap();
        let without = delete_bit(code, 3 + 3 - 1);
        assert_eq!(Some(without), pack(&[1, 3, 6]));
        assert_eq!(Some(insert_bit(without, 5 + 2)), pack(&[1, 3, 5, 6]));
        assert_eq!(Some(insert_bit(without, 3 + 2)), pack(&[1, 3, 3, 6]));
    }

    #[test]
    fn the_memo_gives_back_what_it_holds() {
        let mut memo = PackedValues::with_capacity(4);
        let codes: Vec<u128> = [vec![1, 1], vec![1, 2, 3], vec![55, 56, 1]]
            .iter()
            .map(|h| pack(h).unwrap())
            .collect();
        for (&c, v) in codes.iter().zip([0, -3, i16::MAX]) {
            memo.insert(c, v);
        }
        assert_eq!(memo.len(), 3);
        assert_eq!(memo.get(codes[1]), Some(-3));
        assert_eq!(memo.get(codes[2]), Some(i16::MAX));
        assert_eq!(memo.get(pack(&[2, 2]).unwrap()), None);
        assert_eq!(memo.get(0), Some(0));
        let (mut homes, mut values) = ([(0, 0); 4], [9; 4]);
        let batch = [codes[2], 0, codes[0], codes[1]];
        memo.get_many(&batch, &mut homes, &mut values);
        assert_eq!(values, [i16::MAX, 0, 0, -3]);
        // Growing keeps every entry.
        let mut grown = PackedValues::with_capacity(0);
        let many: Vec<u128> = (1..=40u32).map(|h| pack(&[h, h]).unwrap()).collect();
        for (i, &c) in many.iter().enumerate() {
            grown.insert(c, i as i16);
        }
        assert_eq!(grown.len(), 40);
        assert!(
            many.iter()
                .enumerate()
                .all(|(i, &c)| grown.get(c) == Some(i as i16))
        );
        assert_eq!(PackedValues::bytes(7), 16 * 16);
        assert_eq!(PackedValues::bytes(100), 128 * 16);
    }
}
