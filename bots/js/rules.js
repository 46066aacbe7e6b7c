// The rules of Djenon-aboure (RULES.md), on their own: positions, sowing with
// relays, captures, endless sowings, legal moves and forced passes. Nothing
// here reads or writes anything, so the search and the tests can trust it.
"use strict";

const PITS = 12; // 0..5 South's row, 6..11 North's, in sowing order
const ROW = 6;
const TOTAL = 48;
const SOUTH = 0;
const NORTH = 1;

class Position {
  constructor(pits, side, captured) {
    this.pits = pits; // 12 seed counts
    this.side = side; // SOUTH or NORTH, the side to move
    this.captured = captured; // [south, north]
  }

  static start() {
    return new Position(new Array(PITS).fill(4), SOUTH, [0, 0]);
  }

  // Parses the four fields `S0,..,S5/N6,..,N11 SIDE CAPS CAPN`; throws an
  // Error that says which field is wrong.
  static parse(fields) {
    if (fields.length !== 4) throw new Error(`a position has 4 fields, found ${fields.length}`);
    const rows = fields[0].split("/");
    if (rows.length !== 2 || rows.some((r) => r.split(",").length !== ROW)) {
      throw new Error(`board ${fields[0]} is not two rows of six pits`);
    }
    if (fields[1] !== "s" && fields[1] !== "n") throw new Error(`side ${fields[1]} is neither s nor n`);
    const numbers = rows.join(",").split(",").concat(fields.slice(2));
    for (const n of numbers) {
      if (!/^(0|[1-9][0-9]?)$/.test(n) || Number(n) > TOTAL) {
        throw new Error(`seed count ${n} is not a number from 0 to 48`);
      }
    }
    const pits = numbers.slice(0, PITS).map(Number);
    const captured = [Number(fields[2]), Number(fields[3])];
    if (pits.reduce((a, b) => a + b, 0) + captured[0] + captured[1] !== TOTAL) {
      throw new Error("the seeds do not add up to 48");
    }
    return new Position(pits, fields[1] === "s" ? SOUTH : NORTH, captured);
  }

  toString() {
    const south = this.pits.slice(0, ROW).join(",");
    const north = this.pits.slice(ROW).join(",");
    return `${south}/${north} ${"sn"[this.side]} ${this.captured[0]} ${this.captured[1]}`;
  }

  // The position after the mover sows `pit`, with the seeds it captured, or
  // null when that is not a legal sowing (not the mover's pit, fewer than two
  // seeds, or a sowing that never ends).
  child(pit) {
    if (Math.floor(pit / ROW) !== this.side || this.pits[pit] < 2) return null;
    const sown = sow(this.pits, pit);
    if (sown === null) return null;
    const captured = this.captured.slice();
    captured[this.side] += sown.taken;
    return { position: new Position(sown.board, 1 - this.side, captured), taken: sown.taken };
  }

  // The legal sowings as [{ move, position, taken }], in pit order.
  children() {
    const result = [];
    for (let pit = this.side * ROW; pit < this.side * ROW + ROW; pit++) {
      const c = this.child(pit);
      if (c !== null) result.push({ move: String(pit), position: c.position, taken: c.taken });
    }
    return result;
  }

  passed() {
    return new Position(this.pits.slice(), 1 - this.side, this.captured.slice());
  }

  // Every legal move with the position after it: the sowings, or a single
  // "pass" when the mover has none but the opponent has, or [] when the game
  // is over.
  legalMoves() {
    const sowings = this.children();
    if (sowings.length > 0) return sowings;
    const passed = this.passed();
    return passed.children().length > 0 ? [{ move: "pass", position: passed, taken: 0 }] : [];
  }

  // The position after `move` (a pit number as text, or "pass"); throws when
  // the sowing is not legal. A pass is taken on trust: the arbiter plays only
  // forced ones.
  play(move) {
    if (move === "pass") return this.passed();
    if (!/^(0|[1-9]|1[01])$/.test(move)) throw new Error(`${move} is not a move`);
    const c = this.child(Number(move));
    if (c === null) throw new Error(`move ${move} is not legal in ${this}`);
    return c.position;
  }

  // Each side's captures plus the seeds in its own row.
  score() {
    const sum = (a) => a.reduce((x, y) => x + y, 0);
    return [this.captured[0] + sum(this.pits.slice(0, ROW)), this.captured[1] + sum(this.pits.slice(ROW))];
  }
}

// Sows from `pit` with relays: returns { board, taken }, or null when the
// sowing never ends (within one move no seed leaves the board, so a sowing
// that does not end comes back to a state it has been in: same board, same
// pit to sow).
function sow(pits, pit) {
  const board = pits.slice();
  const seen = new Set();
  for (;;) {
    const state = board.join(",") + ":" + pit;
    if (seen.has(state)) return null;
    seen.add(state);
    const seeds = board[pit];
    board[pit] = 0;
    const rounds = Math.floor(seeds / PITS);
    for (let i = 0; i < PITS; i++) board[i] += rounds;
    for (let i = 0; i < seeds % PITS; i++) board[(pit + i) % PITS] += 1;
    const last = (pit + seeds - 1) % PITS;
    if (board[last] === 1) return { board, taken: 0 };
    if (board[last] === 2 || board[last] === 4) return { board, taken: capture(board, last) };
    pit = last; // it held 2, or 4 or more: relay from there
  }
}

// Takes the seeds of `last` and of every pit before it (walking backwards
// across both rows, never twice) holding exactly 2 or 4; returns the total.
function capture(board, last) {
  let taken = board[last];
  board[last] = 0;
  let pit = last;
  for (let i = 1; i < PITS; i++) {
    pit = (pit + PITS - 1) % PITS;
    if (board[pit] !== 2 && board[pit] !== 4) break;
    taken += board[pit];
    board[pit] = 0;
  }
  return taken;
}

module.exports = { Position, SOUTH, NORTH };
