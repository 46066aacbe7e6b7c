//! `[time-control]` and a bot's `[bot.time-control]`: one kind of limit
//! (a Fischer clock, `movetime`, `depth` or `nodes`), the margin, and how a
//! bot's table overlays the tournament's and both overlay the base layer.

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::Validator;
use crate::error::ConfigError;
use crate::time_control::{Limit, TimeControl};

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawTimeControl {
    base: Option<Spanned<String>>,
    increment: Option<Spanned<String>>,
    movetime: Option<Spanned<String>>,
    depth: Option<Spanned<i64>>,
    nodes: Option<Spanned<i64>>,
    timeout: Option<Spanned<String>>,
    margin: Option<Spanned<String>>,
}

/// Which kind of limit a time-control table sets, if any: a clock (`base`,
/// `increment`), `movetime`, `depth` or `nodes`.
fn limit_kind(tc: &RawTimeControl) -> Option<&'static str> {
    if tc.movetime.is_some() {
        Some("movetime")
    } else if tc.depth.is_some() {
        Some("depth")
    } else if tc.nodes.is_some() {
        Some("nodes")
    } else if tc.base.is_some() || tc.increment.is_some() {
        Some("clock")
    } else {
        None
    }
}

/// A bot's `[bot.time-control]` over the tournament's `[time-control]`: each
/// key the bot's table gives replaces the tournament's; a different kind of
/// limit (say `movetime` where the tournament has a clock) drops the
/// tournament's limit keys, so `margin = "200ms"` alone keeps the clock and
/// only widens the margin.
pub(super) fn overlay(global: &RawTimeControl, bot: &RawTimeControl) -> RawTimeControl {
    let mut merged = global.clone();
    if let Some(kind) = limit_kind(bot) {
        // A tournament table without a limit has the default clock.
        if limit_kind(global).unwrap_or("clock") != kind {
            merged = RawTimeControl {
                margin: global.margin.clone(),
                ..RawTimeControl::default()
            };
        }
    }
    let take = |mine: &Option<Spanned<String>>, theirs: &Option<Spanned<String>>| {
        mine.clone().or_else(|| theirs.clone())
    };
    RawTimeControl {
        base: take(&bot.base, &merged.base),
        increment: take(&bot.increment, &merged.increment),
        movetime: take(&bot.movetime, &merged.movetime),
        depth: bot.depth.clone().or(merged.depth),
        nodes: bot.nodes.clone().or(merged.nodes),
        timeout: take(&bot.timeout, &merged.timeout),
        margin: take(&bot.margin, &merged.margin),
    }
}

impl RawTimeControl {
    /// This table over the base layer's: the limit is one value, so a table
    /// that gives any of its keys replaces the base layer's whole limit
    /// (`base = "1s"` alone is a clock with no increment); `timeout` and
    /// `margin` are taken key by key.
    pub(super) fn over(&self, base: &RawTimeControl) -> RawTimeControl {
        let limit = match limit_kind(self) {
            Some(_) => self,
            None => base,
        };
        let take = |mine: &Option<Spanned<String>>, theirs: &Option<Spanned<String>>| {
            mine.clone().or_else(|| theirs.clone())
        };
        RawTimeControl {
            base: limit.base.clone(),
            increment: limit.increment.clone(),
            movetime: limit.movetime.clone(),
            depth: limit.depth.clone(),
            nodes: limit.nodes.clone(),
            timeout: take(&self.timeout, &base.timeout),
            margin: take(&self.margin, &base.margin),
        }
    }
}

/// The tournament's `[time-control]` as the user wrote it and the base
/// layer's, which every bot's table is laid over.
#[derive(Clone, Copy)]
pub(super) struct TimeControls<'a> {
    pub(super) user: &'a RawTimeControl,
    pub(super) base: &'a RawTimeControl,
}

impl TimeControls<'_> {
    /// A bot's table over the user's tournament table, then over the base
    /// layer (a bot's keys overlay what the user wrote, not the defaults).
    pub(super) fn of_bot(&self, bot: &RawTimeControl) -> RawTimeControl {
        overlay(self.user, bot).over(self.base)
    }
}

impl Validator<'_> {
    /// A time control laid over the base layer (so its margin, timeout and,
    /// without a limit of its own, its clock are there).
    pub(super) fn time_control(
        &self,
        raw: &RawTimeControl,
        key: &str,
    ) -> Result<TimeControl, ConfigError> {
        let k = |name: &str| format!("{key}.{name}");
        let margin = self.duration(self.required(&raw.margin, &k("margin"))?, &k("margin"))?;
        let timeout = self.required(&raw.timeout, &k("timeout"))?;
        let timeout = self.positive_duration(timeout, &k("timeout"))?;
        let given: Vec<(&str, std::ops::Range<usize>)> = [
            raw.base.as_ref().map(|v| ("base", v.span())),
            raw.movetime.as_ref().map(|v| ("movetime", v.span())),
            raw.depth.as_ref().map(|v| ("depth", v.span())),
            raw.nodes.as_ref().map(|v| ("nodes", v.span())),
        ]
        .into_iter()
        .flatten()
        .collect();
        if given.len() > 1 {
            return Err(self.at(
                given[1].1.clone(),
                key,
                format!(
                    "give one of base, movetime, depth or nodes, not both {} and {}",
                    given[0].0, given[1].0
                ),
            ));
        }
        if let (Some(inc), None) = (&raw.increment, &raw.base) {
            return Err(self.at(inc.span(), &k("increment"), "increment needs base"));
        }
        let searched = raw.depth.is_some() || raw.nodes.is_some();
        if let (Some(t), false) = (self.given(&raw.timeout), searched) {
            return Err(self.at(
                t.span(),
                &k("timeout"),
                "timeout only applies to depth or nodes",
            ));
        }
        let limit = if let Some(m) = &raw.movetime {
            Limit::Movetime(self.positive_duration(m, &k("movetime"))?)
        } else if let Some(d) = &raw.depth {
            Limit::Depth {
                depth: self.range(d, &k("depth"), 1, 1000)? as u32,
                timeout,
            }
        } else if let Some(n) = &raw.nodes {
            Limit::Nodes {
                nodes: self.range(n, &k("nodes"), 1, i64::MAX)? as u64,
                timeout,
            }
        } else {
            let base = self.positive_duration(self.required(&raw.base, &k("base"))?, &k("base"))?;
            let increment = match &raw.increment {
                Some(i) => self.duration(i, &k("increment"))?,
                None => Duration::ZERO,
            };
            Limit::Fischer { base, increment }
        };
        Ok(TimeControl { limit, margin })
    }
}
