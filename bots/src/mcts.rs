//! `mcts`: UCT Monte Carlo tree search over the engine's random playouts.
//!
//! Each iteration walks down the tree by UCB1, expands a leaf on its second
//! visit, plays one random game to the end from there and credits every node
//! on the way with the result, from the view of the side that moved into it.
//! The reward mixes the result (1 win, 1/2 draw, 0 loss) with the final
//! seed margin scaled to 0..1, at [`DEFAULT_MARGIN_SHARE`] of margin:
//! against the solver's exact values, a share of 0.6 lost fewer seeds a
//! move than 0.1 or 0.3 and no more results, while 1 (margin only) began to
//! lose results. The move played is the most visited.
//!
//! Nodes keep no positions: the walk replays moves from the root, which
//! costs less than the memory would. The tree stops growing at
//! [`MAX_NODES`]; the search then goes on with playouts from its leaves.

use aboure_engine::{playout, Move, Position, Side};
use aboure_protocol::{OptionSpec, Player, Search, SearchInfo, SearchLimits, SetOptionError};
use rand::rngs::SmallRng;

use crate::budget::SearchBudget;
use crate::identity::{id_name, AUTHOR};
use crate::options::{rng_for, unknown, FloatOption, IntOption, FRESH_SEED, SEED};

/// The largest tree, in nodes (24 bytes each).
pub const MAX_NODES: usize = 1 << 21;
/// Default exploration constant.
pub const DEFAULT_EXPLORATION: f64 = 0.5;
/// `exploration`: the UCT constant itself, a float option (it was an int
/// in hundredths, over the same range 0 to 10).
const EXPLORATION: FloatOption = FloatOption {
    name: "exploration",
    default: DEFAULT_EXPLORATION,
    min: 0.0,
    max: 10.0,
};
/// Default share of the final margin in a playout's reward (the rest is the
/// result).
pub const DEFAULT_MARGIN_SHARE: f64 = 0.6;
/// `margin_share`: [`DEFAULT_MARGIN_SHARE`] in hundredths.
const MARGIN_SHARE: IntOption = IntOption {
    name: "margin_share",
    default: 60,
    min: 0,
    max: 100,
};
/// Default visits a leaf takes before it grows children.
pub const DEFAULT_EXPAND_AFTER: u32 = 1;
/// `expand_after`: visits a leaf takes before it grows children.
const EXPAND_AFTER: IntOption = IntOption {
    name: "expand_after",
    default: DEFAULT_EXPAND_AFTER as i64,
    min: 0,
    max: 1000,
};
/// Iterations between two looks at the clock and the stop flag (a power of
/// two).
const POLL_EVERY: u64 = 32;
/// Playouts for a `go depth D` with no time or node limit, per ply of depth.
pub const PLAYOUTS_PER_DEPTH: u64 = 10_000;

#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    parent: u32,
    first: u32,
    children: u8,
    expanded: bool,
    visits: u32,
    /// Sum of rewards for the side that moved into this node.
    reward: f32,
    /// Sum of final margins for that side.
    margin: f32,
}

impl Node {
    fn new(mv: Move, parent: u32) -> Node {
        Node {
            mv,
            parent,
            first: 0,
            children: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
            margin: 0.0,
        }
    }
}

/// UCT Monte Carlo tree search.
///
/// Options:
/// - `exploration` (float, 0 to 10, default 0.5): the UCB1 exploration
///   constant c in `q + c * sqrt(ln N / n)`, rewards being in 0..1
///   (matches against `alphabeta` favoured 0.3 to 0.6 over 1 and more).
/// - `margin_share` (int, hundredths, default 60): the share of the final
///   margin in a playout's reward, the rest being the result.
/// - `expand_after` (int, default 1): playouts a leaf takes before it grows
///   children (more: a smaller, better-founded tree).
/// - `seed` (int, default 0): as for `random`.
///
/// Limits: `nodes` counts playouts. `depth D` keeps the tree within D plies
/// of the root and, without a time or node limit, allows
/// 10,000 x D playouts.
pub struct MctsPlayer {
    rng: SmallRng,
    exploration: f64,
    margin_share: f64,
    expand_after: u32,
    nodes: Vec<Node>,
}

impl MctsPlayer {
    /// A player with exploration constant `exploration` and `seed`.
    pub fn new(exploration: f64, seed: i64) -> MctsPlayer {
        MctsPlayer {
            rng: rng_for(seed),
            exploration,
            margin_share: DEFAULT_MARGIN_SHARE,
            expand_after: DEFAULT_EXPAND_AFTER,
            // Reserved, not touched: pages are mapped as the tree grows, and
            // the search never stops to copy the tree to a bigger vector.
            nodes: Vec::with_capacity(MAX_NODES),
        }
    }

    /// Sets the share (0..=1) of the final margin in a playout's reward; the
    /// rest is the result (1 win, 1/2 draw, 0 loss).
    pub fn with_margin_share(mut self, share: f64) -> MctsPlayer {
        self.margin_share = share.clamp(0.0, 1.0);
        self
    }

    fn reward(&self, score: [u8; 2], side: Side) -> (f32, f32) {
        let margin = score[side.index()] as f64 - score[(!side).index()] as f64;
        let result = if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            0.5
        };
        let share = self.margin_share;
        let r = (1.0 - share) * result + share * (0.5 + margin / 96.0);
        (r as f32, margin as f32)
    }

    fn select(&self, parent: usize) -> usize {
        let p = &self.nodes[parent];
        let first = p.first as usize;
        let log_n = (p.visits.max(1) as f64).ln();
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for i in first..first + p.children as usize {
            let c = &self.nodes[i];
            if c.visits == 0 {
                return i;
            }
            let n = c.visits as f64;
            let value = c.reward as f64 / n + self.exploration * (log_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    fn expand(&mut self, leaf: usize, pos: &Position) {
        let (moves, _, n) = pos.children();
        let first = self.nodes.len() as u32;
        for &m in &moves[..n] {
            self.nodes.push(Node::new(m, leaf as u32));
        }
        let node = &mut self.nodes[leaf];
        node.first = first;
        node.children = n as u8;
        node.expanded = true;
    }

    /// One iteration from `root`.
    fn iterate(&mut self, root: &Position, max_depth: u32) {
        let mut pos = *root;
        let mut i = 0;
        let mut depth = 0;
        while self.nodes[i].expanded && self.nodes[i].children > 0 {
            i = self.select(i);
            pos.play_unchecked(self.nodes[i].mv);
            depth += 1;
        }
        if !self.nodes[i].expanded
            && (self.nodes[i].visits >= self.expand_after || i == 0)
            && depth < max_depth
            && self.nodes.len() + 6 <= MAX_NODES
        {
            self.expand(i, &pos);
            if self.nodes[i].children > 0 {
                i = self.nodes[i].first as usize;
                pos.play_unchecked(self.nodes[i].mv);
            }
        }
        let score = playout(&pos, &mut self.rng).outcome.score;
        // Walk back up, crediting each node for the side that moved into it
        // (the side to move at its parent).
        let mut side_after = pos.side_to_move();
        loop {
            let parent = self.nodes[i].parent as usize;
            let node_is_root = i == 0;
            // The mover into node i: the side to move at its parent. Moves
            // always alternate sides (a pass included), so it is the
            // opposite of the side to move at node i.
            let mover = !side_after;
            let (r, m) = self.reward(score, mover);
            let node = &mut self.nodes[i];
            node.visits += 1;
            node.reward += r;
            node.margin += m;
            if node_is_root {
                break;
            }
            side_after = !side_after;
            i = parent;
        }
    }

    /// The root's children, most visited first.
    fn ranked(&self) -> Vec<usize> {
        let r = &self.nodes[0];
        let mut kids: Vec<usize> =
            (r.first as usize..(r.first + r.children as u32) as usize).collect();
        kids.sort_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            y.visits.cmp(&x.visits).then(
                (y.reward / y.visits.max(1) as f32).total_cmp(&(x.reward / x.visits.max(1) as f32)),
            )
        });
        kids
    }

    fn principal_variation(&self, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut i = 0;
        while pv.len() < max && self.nodes[i].expanded && self.nodes[i].children > 0 {
            let n = &self.nodes[i];
            let first = n.first as usize;
            i = (first..first + n.children as usize)
                .max_by_key(|&k| self.nodes[k].visits)
                .expect("children");
            if self.nodes[i].visits == 0 {
                break;
            }
            pv.push(self.nodes[i].mv);
        }
        pv
    }

    fn report(
        &self,
        root: &Position,
        search: &mut dyn Search,
        budget: &SearchBudget,
        playouts: u64,
    ) {
        let Some(&best) = self.ranked().first() else {
            return;
        };
        let b = &self.nodes[best];
        let score = (b.margin as f64 / b.visits.max(1) as f64).round() as i32;
        let _ = root;
        let pv = self.principal_variation(32);
        search.info(&SearchInfo {
            depth: Some(pv.len() as u32),
            score: Some(score),
            nodes: Some(playouts),
            time: Some(budget.elapsed()),
            pv,
            string: None,
        });
    }
}

impl Default for MctsPlayer {
    fn default() -> MctsPlayer {
        MctsPlayer::new(DEFAULT_EXPLORATION, FRESH_SEED)
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        id_name("mcts")
    }

    fn author(&self) -> String {
        AUTHOR.to_owned()
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![
            EXPLORATION.spec(),
            MARGIN_SHARE.spec(),
            EXPAND_AFTER.spec(),
            SEED.spec(),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        match name {
            "exploration" => self.exploration = EXPLORATION.parse(value)?,
            "margin_share" => self.margin_share = MARGIN_SHARE.parse(value)? as f64 / 100.0,
            "expand_after" => self.expand_after = EXPAND_AFTER.parse(value)? as u32,
            "seed" => self.rng = rng_for(SEED.parse(value)?),
            _ => return Err(unknown("mcts", name)),
        }
        Ok(())
    }

    fn choose(
        &mut self,
        position: &Position,
        _history: &[Position],
        limits: &SearchLimits,
        search: &mut dyn Search,
    ) -> Move {
        let moves = position.legal_moves();
        if moves.len() <= 1 {
            return moves.first().copied().unwrap_or(Move::Pass);
        }
        let mut budget = SearchBudget::new(limits, search.started());
        let max_depth = limits.depth.unwrap_or(u32::MAX).max(1);
        if let (Some(d), None, None, None) =
            (limits.depth, limits.nodes, limits.movetime, limits.clock)
        {
            budget.nodes = Some(PLAYOUTS_PER_DEPTH * d.max(1) as u64);
        }
        self.nodes.clear();
        self.nodes.push(Node::new(Move::Pass, 0));
        let mut playouts = 0u64;
        let mut next_report = 1u64 << 12;
        loop {
            if budget.out_of_nodes(playouts) {
                break;
            }
            if playouts & (POLL_EVERY - 1) == 0 && playouts > 0 {
                if search.stopped() || budget.past_soft() {
                    break;
                }
                if playouts >= next_report {
                    self.report(position, search, &budget, playouts);
                    next_report *= 4;
                }
            }
            self.iterate(position, max_depth);
            playouts += 1;
        }
        self.report(position, search, &budget, playouts);
        if budget.is_infinite() {
            while !search.stopped() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        match self.ranked().first() {
            Some(&i) => self.nodes[i].mv,
            None => moves[0],
        }
    }
}
