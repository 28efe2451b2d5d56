//! Outcome classes of scoring games (Stewart, Def. 5/6), from the two final scores.
//!
//! G_F^{SL} is the final score (Left's points − Right's) when Left moves first and both play
//! perfectly, G_F^{SR} when Right moves first. For an impartial position with value v (the
//! mover's best margin, Theorem 12) and a score S already on the board, G_F^{SL} = S + v and
//! G_F^{SR} = S − v; from S = 0 only N, P and T occur, with S ≠ 0 all five can.

use std::fmt;

use serde::Serialize;

use crate::num::Q;

/// The five outcome classes of Def. 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// Left wins whoever starts (or wins one way and ties the other).
    L,
    /// Right wins whoever starts (or wins one way and ties the other).
    R,
    /// The first player wins.
    N,
    /// The second player wins.
    P,
    /// A tie whoever starts.
    T,
}

impl Outcome {
    /// The class of a game with Left final score `left` and Right final score `right`.
    pub fn classify(left: &Q, right: &Q) -> Outcome {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match (left.signum().cmp(&0), right.signum().cmp(&0)) {
            (Greater, Greater) | (Greater, Equal) | (Equal, Greater) => Outcome::L,
            (Less, Less) | (Less, Equal) | (Equal, Less) => Outcome::R,
            (Greater, Less) => Outcome::N,
            (Less, Greater) => Outcome::P,
            (Equal, Equal) => Outcome::T,
        }
    }

    /// The class of an impartial position of value `value` with `score` already on the board.
    pub fn of_impartial(value: &Q, score: &Q) -> (Outcome, Q, Q) {
        let left = score + value;
        let right = score - value;
        (Outcome::classify(&left, &right), left, right)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::T => "T",
        };
        f.write_str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_definition_6() {
        let q = Q::int;
        assert_eq!(Outcome::classify(&q(1), &q(1)), Outcome::L);
        assert_eq!(Outcome::classify(&q(1), &q(0)), Outcome::L);
        assert_eq!(Outcome::classify(&q(0), &q(1)), Outcome::L);
        assert_eq!(Outcome::classify(&q(-1), &q(0)), Outcome::R);
        assert_eq!(Outcome::classify(&q(1), &q(-1)), Outcome::N);
        assert_eq!(Outcome::classify(&q(-1), &q(1)), Outcome::P);
        assert_eq!(Outcome::classify(&q(0), &q(0)), Outcome::T);
        // Stewart's remark: {a | G^S | b} with a large score on the board lands in L or R.
        assert_eq!(Outcome::of_impartial(&q(2), &q(5)).0, Outcome::L);
        assert_eq!(Outcome::of_impartial(&q(2), &q(0)).0, Outcome::N);
        assert_eq!(Outcome::of_impartial(&q(-2), &q(0)).0, Outcome::P);
    }
}
