//! A book: openings drawn from the positions whose exact value and
//! sharpness lie in the asked bands.
//!
//! Every position at the asked depth is appraised (one solver, its table
//! shared, so positions that transpose into one another cost once), the
//! ones in both bands are shuffled by the seed, and the first
//! [`BookSpec::count`] are the book. Asking for more than qualify is an
//! error that says how many do, never a shorter book or a repeated line.

use std::fmt;

use aboure_engine::Position;
use aboure_solver::Solver;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::appraisal::{appraise, Appraisal};
use crate::band::Band;
use crate::reach::{reach, Reached};

/// The deepest opening a book may have: past it the positions to appraise
/// grow into the millions.
pub const MAX_PLIES: u32 = 8;

/// Megabytes of the solver's table while a book is made.
const TABLE_MB: usize = 64;

/// Which positions may be in a book: their depth and the bands of their
/// value and sharpness.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// The band of values.
    pub value: Band<i32>,
    /// The band of random-move losses, if any.
    pub sharpness: Option<Band<f64>>,
    /// Plies from the start.
    pub plies: u32,
}

impl Selection {
    /// Whether an appraised position belongs in the book.
    pub fn admits(&self, a: &Appraisal) -> bool {
        self.value.contains(a.value) && self.sharpness.is_none_or(|s| s.contains(a.random_loss))
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value {}", self.value)?;
        if let Some(s) = self.sharpness {
            write!(f, ", random-move loss {s}")?;
        }
        write!(f, ", {} plies", self.plies)
    }
}

/// What book to make, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct BookSpec {
    selection: Selection,
    count: usize,
    seed: u64,
}

/// A book that cannot be made as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BookError {
    /// `count` is 0.
    #[error("a book needs at least one opening (count 0)")]
    NoCount,
    /// The depth is 0 or past [`MAX_PLIES`].
    #[error("plies {0} is out of range: openings are 1 to {MAX_PLIES} plies deep")]
    Plies(u32),
    /// Fewer positions qualify than were asked for.
    #[error(
        "only {qualified} of the {reached} positions {plies} plies deep have a value in {value}{sharpness}; \
         {count} were asked for: widen a band, ask for fewer or change the plies"
    )]
    TooFew {
        /// Openings asked for.
        count: usize,
        /// Positions in both bands.
        qualified: usize,
        /// Positions at that depth.
        reached: usize,
        /// The depth.
        plies: u32,
        /// The value band.
        value: Band<i32>,
        /// `" and a random-move loss in LO..HI"`, or nothing.
        sharpness: String,
    },
}

impl BookSpec {
    /// `count` openings `plies` deep whose value lies in `value` and, if
    /// given, whose random-move loss lies in `sharpness`, drawn by `seed`.
    pub fn new(
        count: usize,
        value: Band<i32>,
        sharpness: Option<Band<f64>>,
        plies: u32,
        seed: u64,
    ) -> Result<BookSpec, BookError> {
        if count == 0 {
            return Err(BookError::NoCount);
        }
        if plies == 0 || plies > MAX_PLIES {
            return Err(BookError::Plies(plies));
        }
        Ok(BookSpec {
            selection: Selection {
                value,
                sharpness,
                plies,
            },
            count,
            seed,
        })
    }

    /// Openings asked for.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The positions it draws from.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }
}

impl fmt::Display for BookSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} openings, {}, seed {}",
            self.count, self.selection, self.seed
        )
    }
}

/// One opening of a book and what the solver says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct BookEntry {
    /// The position the game starts from.
    pub position: Position,
    /// The first line found from the start to it.
    pub line: Vec<aboure_engine::Move>,
    /// Its exact value and sharpness.
    pub appraisal: Appraisal,
}

/// The line an `[openings] file` reads: the position, then its figures in a
/// comment.
impl fmt::Display for BookEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.appraisal;
        write!(
            f,
            "{} # value {} random-loss {:.2} keeping {}/{} line",
            self.position,
            a.value,
            a.random_loss,
            a.keeping,
            a.moves.len()
        )?;
        for m in &self.line {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

/// A made book.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    spec: BookSpec,
    reached: usize,
    qualified: usize,
    entries: Vec<BookEntry>,
}

impl Book {
    /// The openings, in the order a tournament plays them.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Distinct positions at the book's depth, and how many were in both
    /// bands.
    pub fn counts(&self) -> (usize, usize) {
        (self.reached, self.qualified)
    }

    /// The whole file: a header of comments naming how it was made, then
    /// one opening a line.
    pub fn to_file(&self) -> String {
        let mut text = format!(
            "# aboure openings: {}\n# {} of {} distinct positions qualified; \
             value: final seed margin for the side to move under perfect play\n",
            self.spec, self.qualified, self.reached
        );
        for e in &self.entries {
            text.push_str(&e.to_string());
            text.push('\n');
        }
        text
    }
}

/// Every position `plies` deep where the game goes on, appraised, in the
/// order [`reach`] finds them.
pub fn appraised(plies: u32) -> Vec<BookEntry> {
    let mut solver = Solver::new(TABLE_MB);
    reach(plies)
        .into_iter()
        .map(|Reached { position, line }| BookEntry {
            appraisal: appraise(&mut solver, &position),
            position,
            line,
        })
        .collect()
}

/// Makes the book `spec` asks for.
pub fn choose(spec: &BookSpec) -> Result<Book, BookError> {
    choose_from(spec, appraised(spec.selection.plies))
}

/// Makes the book `spec` asks for from `all`, the positions
/// [`appraised`] at its depth.
pub fn choose_from(spec: &BookSpec, all: Vec<BookEntry>) -> Result<Book, BookError> {
    let reached = all.len();
    let selection = &spec.selection;
    let mut qualified: Vec<BookEntry> = all
        .into_iter()
        .filter(|e| selection.admits(&e.appraisal))
        .collect();
    if qualified.len() < spec.count {
        return Err(BookError::TooFew {
            count: spec.count,
            qualified: qualified.len(),
            reached,
            plies: selection.plies,
            value: selection.value,
            sharpness: selection
                .sharpness
                .map(|s| format!(" and a random-move loss in {s}"))
                .unwrap_or_default(),
        });
    }
    let count = qualified.len();
    qualified.shuffle(&mut ChaCha8Rng::seed_from_u64(spec.seed));
    qualified.truncate(spec.count);
    Ok(Book {
        spec: spec.clone(),
        reached,
        qualified: count,
        entries: qualified,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(count: usize, value: (i32, i32), plies: u32, seed: u64) -> BookSpec {
        BookSpec::new(
            count,
            Band::new(value.0, value.1).unwrap(),
            None,
            plies,
            seed,
        )
        .unwrap()
    }

    #[test]
    fn a_book_holds_distinct_positions_in_its_band_and_a_seed_fixes_it() {
        let book = choose(&spec(10, (-3, 3), 3, 7)).unwrap();
        let positions: std::collections::HashSet<_> =
            book.entries().iter().map(|e| e.position).collect();
        assert_eq!(positions.len(), 10);
        assert!(book
            .entries()
            .iter()
            .all(|e| (-3..=3).contains(&e.appraisal.value)));
        assert_eq!(book, choose(&spec(10, (-3, 3), 3, 7)).unwrap());
        assert_ne!(book, choose(&spec(10, (-3, 3), 3, 8)).unwrap());
    }

    #[test]
    fn asking_for_more_than_qualify_says_how_many_do() {
        let err = choose(&spec(1_000, (40, 48), 2, 1)).unwrap_err();
        let BookError::TooFew {
            qualified, reached, ..
        } = &err
        else {
            panic!("{err}");
        };
        assert!(qualified < reached);
        assert!(err.to_string().contains("widen a band"));
    }

    #[test]
    fn the_sharpness_band_filters_on_the_random_move_loss() {
        let sharp = Band::new(3.0, 100.0).unwrap();
        let spec = BookSpec::new(5, Band::new(-48, 48).unwrap(), Some(sharp), 3, 2).unwrap();
        for e in choose(&spec).unwrap().entries() {
            assert!(e.appraisal.random_loss >= 3.0, "{e}");
        }
    }

    #[test]
    fn bad_specs_are_refused() {
        let any = Band::new(-48, 48).unwrap();
        assert_eq!(BookSpec::new(0, any, None, 4, 1), Err(BookError::NoCount));
        assert_eq!(BookSpec::new(1, any, None, 0, 1), Err(BookError::Plies(0)));
        assert_eq!(BookSpec::new(1, any, None, 9, 1), Err(BookError::Plies(9)));
    }
}
