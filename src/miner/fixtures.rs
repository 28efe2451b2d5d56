//! Sequences the miner's unit tests share.

/// a(n) = max over s in S, s ≤ n, of (s − a(n − s)), a(n) = 0 without a move: the scoring
/// subtraction game with p_s = s, look-back max S from n = max S on.
pub fn subtraction(set: &[usize], n: usize) -> Vec<i64> {
    let mut a = vec![0i64; n];
    for m in 0..n {
        a[m] = set
            .iter()
            .filter(|&&s| s <= m)
            .map(|&s| s as i64 - a[m - s])
            .max()
            .unwrap_or(0);
    }
    a
}
