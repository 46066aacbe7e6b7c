// The move choice: a one-ply capture maximiser. Every legal sowing is played,
// the ones that capture the most seeds are kept, and a seeded random number
// picks among them, so a `seed` option gives a reproducible but varied bot.
// This is the part to make stronger (a deeper search, a better evaluation).
"use strict";

// mulberry32: a small, well-mixed 32-bit generator, the same in every kit.
class Random {
  constructor(seed) {
    this.state = seed >>> 0;
  }

  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  below(n) {
    return this.next() % n;
  }
}

// The chosen move and what the search saw: { move, score, nodes }, where
// score is the seed margin from the mover's view right after the move.
function choose(position, rng) {
  const moves = position.children();
  if (moves.length === 0) return { move: "pass", score: 0, nodes: 0 };
  const most = Math.max(...moves.map((m) => m.taken));
  const best = moves.filter((m) => m.taken === most);
  const pick = best[rng.below(best.length)];
  const s = pick.position.score();
  return { move: pick.move, score: s[position.side] - s[1 - position.side], nodes: moves.length };
}

module.exports = { Random, choose };
