//! What the scheduler is given: the entrants and every game pair recorded
//! so far, checked once so the rules after it can index without fear.
//!
//! The field is the whole input of a decision (with the seed): nothing is
//! remembered between calls, so a league resumed from its records makes
//! exactly the decisions an uninterrupted one would have made.

use aboure_stats::{Game, PlayerResult};

use crate::error::LeagueError;

/// One entrant of the league.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// How many game pairs had been recorded when it joined (0 for the
    /// founding entrants). Placement serves earlier entrants first.
    pub joined: usize,
    /// A retired entrant keeps its games and its place in the table but is
    /// scheduled no more.
    pub retired: bool,
}

impl Entrant {
    /// An active entrant that joined after `joined` recorded pairs.
    pub fn active(joined: usize) -> Entrant {
        Entrant {
            joined,
            retired: false,
        }
    }
}

/// One game pair played: the same opening twice, colours swapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedPair {
    /// The entrant who was South in the pair's first game.
    pub south_first: usize,
    /// Its opponent (South in the second game).
    pub north_first: usize,
    /// Both games' results from `south_first`'s view, first game first.
    pub results: [PlayerResult; 2],
}

impl PlayedPair {
    /// The pair's two games, as the ratings count them.
    pub fn games(&self) -> [Game; 2] {
        [
            Game::new(self.south_first, self.north_first, self.results[0]),
            Game::new(self.north_first, self.south_first, !self.results[1]),
        ]
    }

    /// True when `entrant` played in this pair.
    pub fn involves(&self, entrant: usize) -> bool {
        self.south_first == entrant || self.north_first == entrant
    }

    /// Points `entrant` scored in this pair (0 if it did not play).
    pub fn points_of(&self, entrant: usize) -> f64 {
        let own: f64 = self.results.iter().map(|r| r.points()).sum();
        if entrant == self.south_first {
            own
        } else if entrant == self.north_first {
            2.0 - own
        } else {
            0.0
        }
    }
}

/// The entrants and their recorded pairs, checked.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    entrants: &'a [Entrant],
    pairs: &'a [PlayedPair],
}

impl<'a> Field<'a> {
    /// Checks that every pair names two different entrants of the list.
    pub fn new(entrants: &'a [Entrant], pairs: &'a [PlayedPair]) -> Result<Field<'a>, LeagueError> {
        for (index, p) in pairs.iter().enumerate() {
            for entrant in [p.south_first, p.north_first] {
                if entrant >= entrants.len() {
                    return Err(LeagueError::UnknownEntrant {
                        pair: index,
                        entrant,
                        entrants: entrants.len(),
                    });
                }
            }
            if p.south_first == p.north_first {
                return Err(LeagueError::SelfPair {
                    pair: index,
                    entrant: p.south_first,
                });
            }
        }
        Ok(Field { entrants, pairs })
    }

    /// The entrants.
    pub fn entrants(&self) -> &'a [Entrant] {
        self.entrants
    }

    /// The recorded pairs, in the order they were played.
    pub fn pairs(&self) -> &'a [PlayedPair] {
        self.pairs
    }

    /// Indices of the entrants still scheduled.
    pub fn active(&self) -> Vec<usize> {
        (0..self.entrants.len())
            .filter(|&i| !self.entrants[i].retired)
            .collect()
    }

    /// Every recorded game, two per pair.
    pub fn games(&self) -> Vec<Game> {
        self.pairs.iter().flat_map(|p| p.games()).collect()
    }

    /// Pairs each entrant played.
    pub fn pair_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.entrants.len()];
        for p in self.pairs {
            counts[p.south_first] += 1;
            counts[p.north_first] += 1;
        }
        counts
    }

    /// Pairs each entrant began as South.
    pub fn south_first_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.entrants.len()];
        for p in self.pairs {
            counts[p.south_first] += 1;
        }
        counts
    }

    /// Points each entrant scored over all its games.
    pub fn points(&self) -> Vec<f64> {
        let mut points = vec![0.0; self.entrants.len()];
        for p in self.pairs {
            points[p.south_first] += p.points_of(p.south_first);
            points[p.north_first] += p.points_of(p.north_first);
        }
        points
    }

    /// Pairs played between `a` and `b`.
    pub fn pairs_between(&self, a: usize, b: usize) -> usize {
        self.pairs
            .iter()
            .filter(|p| p.involves(a) && p.involves(b))
            .count()
    }
}
