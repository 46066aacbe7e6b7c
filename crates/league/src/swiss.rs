//! A Swiss system as chess plays it, the second baseline: each round
//! pairs entrants with equal or nearest scores, the top half of a score
//! group against its bottom half (the Dutch system's rule), never twice
//! the same opponents while another pairing exists, and South first to
//! whichever has begun fewer pairs as South (colour balance by pairs).
//!
//! Scores are points over all games; ties in the order go to the lower
//! index (an entrant's seeding number). With an odd number of active
//! entrants, the lowest-placed of those who have played the most pairs
//! sits the round out (a bye, which moves round the field). Once every
//! pairing has been played the round allows one repeat more, and so on,
//! so a Swiss league can run as long as a round robin.

use crate::field::Field;
use crate::seed::mix;

/// Backtracking steps before a round allows one more repeat.
const SEARCH_STEPS: usize = 20_000;

/// The next round's pairs over the active entrants of `field`, each as
/// `(south_first, north_first)`, from the top board down.
pub fn next_round(field: &Field, seed: u64) -> Vec<(usize, usize)> {
    let points = field.points();
    let counts = field.pair_counts();
    let mut players = field.active();
    players.sort_by(|&a, &b| points[b].total_cmp(&points[a]).then(a.cmp(&b)));
    if players.len() % 2 == 1 {
        let most = players.iter().map(|&p| counts[p]).max().unwrap_or(0);
        if let Some(pos) = players.iter().rposition(|&p| counts[p] == most) {
            players.remove(pos);
        }
    }
    let n = field.entrants().len();
    let mut met = vec![0usize; n * n];
    for p in field.pairs() {
        met[p.south_first * n + p.north_first] += 1;
        met[p.north_first * n + p.south_first] += 1;
    }
    let fewest = |a: usize| {
        players
            .iter()
            .filter(|&&b| b != a)
            .map(|&b| met[a * n + b])
            .min()
            .unwrap_or(0)
    };
    let floor = players.iter().map(|&a| fewest(a)).max().unwrap_or(0);
    let south = field.south_first_counts();
    for repeats in floor.. {
        let mut search = Search {
            points: &points,
            met: &met,
            n,
            repeats,
            steps: 0,
        };
        if let Some(pairs) = search.pair(&players) {
            return pairs
                .into_iter()
                .map(|(a, b)| {
                    let a_first = match south[a].cmp(&south[b]) {
                        std::cmp::Ordering::Less => true,
                        std::cmp::Ordering::Greater => false,
                        std::cmp::Ordering::Equal => {
                            mix(seed, &[field.pairs().len() as u64, a as u64]) & 1 == 0
                        }
                    };
                    if a_first {
                        (a, b)
                    } else {
                        (b, a)
                    }
                })
                .collect();
        }
    }
    Vec::new()
}

struct Search<'a> {
    points: &'a [f64],
    met: &'a [usize],
    n: usize,
    /// Most meetings a pair may have had before this round.
    repeats: usize,
    steps: usize,
}

impl Search<'_> {
    /// Pairs `rest` (in score order) or `None` if no pairing within the
    /// repeat limit was found in the allowed steps.
    fn pair(&mut self, rest: &[usize]) -> Option<Vec<(usize, usize)>> {
        let Some((&top, others)) = rest.split_first() else {
            return Some(Vec::new());
        };
        // The Dutch preference: the entrant half a score group below top,
        // then the ones next to it, lower first.
        let group = others
            .iter()
            .take_while(|&&o| self.points[o] == self.points[top])
            .count();
        let ideal = group.div_ceil(2);
        let mut order: Vec<usize> = (0..others.len()).collect();
        order.sort_by_key(|&i| (i.abs_diff(ideal.saturating_sub(1)), i < ideal));
        for i in order {
            let o = others[i];
            if self.met[top * self.n + o] > self.repeats {
                continue;
            }
            self.steps += 1;
            if self.steps > SEARCH_STEPS {
                return None;
            }
            let remaining: Vec<usize> = others.iter().copied().filter(|&x| x != o).collect();
            if let Some(mut pairs) = self.pair(&remaining) {
                pairs.insert(0, (top, o));
                return Some(pairs);
            }
        }
        None
    }
}
