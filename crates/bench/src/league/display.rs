//! The figures of one field, as `aboure bench league` prints them.

use std::fmt;

use aboure_stats::binomial::wilson;

use super::{FieldReport, IntervalCheck, Method, Outcome};

/// `x/n (lo-hi%)`, Wilson's 95% interval; `-` with no trials.
fn share(x: usize, n: usize) -> String {
    match wilson(x, n, 1.959_964) {
        Some((lo, hi)) => format!("{x}/{n} ({:.1}-{:.1}%)", 100.0 * lo, 100.0 * hi),
        None => "-".to_owned(),
    }
}

/// The `q` quantile of sorted `v` (nearest rank).
fn quantile(v: &[usize], q: f64) -> usize {
    let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1;
    v[i]
}

impl FieldReport {
    fn games_line(&self, runs: &[Outcome]) -> String {
        let mut games: Vec<usize> = runs.iter().map(|o| o.games).collect();
        games.sort_unstable();
        if games.is_empty() {
            return "-".to_owned();
        }
        let mean = games.iter().sum::<usize>() as f64 / games.len() as f64;
        format!(
            "median {} mean {:.0} (10% {}, 90% {})",
            quantile(&games, 0.5),
            mean,
            quantile(&games, 0.1),
            quantile(&games, 0.9)
        )
    }

    fn method_lines(&self, f: &mut fmt::Formatter<'_>, m: usize) -> fmt::Result {
        let runs = &self.runs[m];
        let seeds = runs.len();
        let stopped: Vec<&Outcome> = runs.iter().filter(|o| o.stopped).collect();
        let count = |it: &mut dyn Iterator<Item = &Outcome>, p: &dyn Fn(&Outcome) -> bool| {
            it.filter(|o| p(o)).count()
        };
        let set = count(&mut runs.iter(), &|o| self.set_right(o));
        let set_stopped = count(&mut stopped.iter().copied(), &|o| self.set_right(o));
        writeln!(
            f,
            "  {}: stopped itself {}; games {}; {:.1} s",
            Method::ALL[m].name(),
            share(stopped.len(), seeds),
            self.games_line(runs),
            self.time[m].as_secs_f64()
        )?;
        write!(
            f,
            "    top {} right as a set {} (of those that stopped {})",
            self.top,
            share(set, seeds),
            share(set_stopped, stopped.len())
        )?;
        if runs.iter().any(|o| o.claims_order) {
            let order = count(&mut runs.iter(), &|o| self.order_right(o));
            write!(f, "; in order {}", share(order, seeds))?;
        }
        writeln!(f)?;
        if runs.iter().any(|o| o.intervals.is_some()) {
            writeln!(f, "    95% intervals at the stop: {}", self.coverage(runs))?;
        }
        Ok(())
    }

    fn coverage(&self, runs: &[Outcome]) -> String {
        let checks: Vec<&IntervalCheck> =
            runs.iter().filter_map(|o| o.intervals.as_ref()).collect();
        let chosen = checks.iter().filter(|c| c.chosen).count();
        let mut classes = [(0, 0); 3];
        for c in &checks {
            for (sum, class) in classes.iter_mut().zip(c.classes) {
                *sum = (sum.0 + class.0, sum.1 + class.1);
            }
        }
        let all = classes.iter().fold((0, 0), |(c, t), x| (c + x.0, t + x.1));
        let pc = |(c, t): (usize, usize)| 100.0 * c as f64 / t as f64;
        let names = [
            format!("true top {}", self.top),
            "rest of the upper half".to_owned(),
            "lower half".to_owned(),
        ];
        // An empty class is left out, never shown as 0.0%.
        let by_class: Vec<String> = names
            .iter()
            .zip(classes)
            .filter(|(_, (_, t))| *t > 0)
            .map(|(name, c)| format!("{name} {:.1}%", pc(c)))
            .collect();
        let pooled = if all.1 > 0 {
            format!(
                "; pooled {:.1}% of {} ({})",
                pc(all),
                all.1,
                by_class.join(", ")
            )
        } else {
            String::new()
        };
        format!(
            "one entrant per seed {}{pooled}",
            share(chosen, checks.len())
        )
    }
}

impl fmt::Display for FieldReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seeds = self.runs.first().map_or(0, Vec::len);
        writeln!(
            f,
            "{} field: {} entrants, {}; the top {}; {seeds} seeds; cap {} pairs ({} games); {:.1} s",
            self.kind.name(),
            self.truth.len(),
            self.kind.describe(),
            self.top,
            self.cap,
            2 * self.cap,
            self.wall.as_secs_f64()
        )?;
        if self.truth.order.iter().copied().ne(0..self.truth.len()) {
            writeln!(
                f,
                "  true order by expected score against the field: {:?}",
                &self.truth.order[..(2 * self.top).min(self.truth.len())]
            )?;
        }
        for m in 0..self.runs.len() {
            self.method_lines(f, m)?;
        }
        Ok(())
    }
}
