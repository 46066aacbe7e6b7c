// The aboure protocol (PROTOCOL.md), one line at a time: the handshake,
// options, positions, `go` with its limits, `stop`, `isready` and `quit`,
// plus one debug command outside the protocol, `moves POSITION`, which lists
// every legal move with the position after it (see README.md).
//
// The search takes well under a millisecond, so `go` with a limit is answered
// at once; `go` without limits keeps its answer until `stop`, as the protocol
// asks, and `isready` is answered meanwhile because this loop keeps reading.
"use strict";

const { Position } = require("./rules.js");
const { Random, choose } = require("./search.js");

const NAME = "JavaScript Sower 1.0";
const AUTHOR = "The aboure authors";
const SEED = { min: 0, max: 2147483647, default: 1 };
const LIMITS = ["stime", "ntime", "sinc", "ninc", "movetime", "depth", "nodes"];

class Bot {
  constructor(send) {
    this.send = send; // writes one line
    this.seed = SEED.default;
    this.rng = new Random(this.seed);
    this.position = Position.start();
    this.pending = null; // the bestmove of a `go` without limits, until `stop`
  }

  complain(text) {
    this.send("info string " + text.split(/\s+/).join(" "));
  }

  // Handles one line; returns false on `quit`.
  handle(line) {
    const words = line.trim().split(/[ \t]+/).filter((w) => w !== "");
    if (words.length === 0) return true;
    const [command, ...args] = words;
    try {
      switch (command) {
        case "quit":
          return false;
        case "aboure":
          this.handshake(args);
          break;
        case "isready":
          this.send("readyok");
          break;
        case "setoption":
          this.setOption(line);
          break;
        case "newgame":
          this.rng = new Random(this.seed);
          break;
        case "position":
          this.position = readPosition(args);
          break;
        case "go":
          this.go(args);
          break;
        case "stop":
          if (this.pending !== null) this.send("bestmove " + this.pending);
          this.pending = null;
          break;
        case "moves":
          this.listMoves(args);
          break;
        default:
          this.complain("ignored unknown command: " + line);
      }
    } catch (e) {
      this.complain(`ignored ${line.trim()}: ${e.message}`);
    }
    return true;
  }

  handshake(args) {
    if (args[0] !== "1") this.complain("expected protocol version 1");
    this.send("id name " + NAME);
    this.send("id author " + AUTHOR);
    this.send(`option name seed type int default ${SEED.default} min ${SEED.min} max ${SEED.max}`);
    this.send("aboureok");
  }

  setOption(line) {
    const m = /^\s*setoption\s+name\s+(\S+)\s+value(?:\s+(.*?))?\s*$/.exec(line);
    if (m === null) throw new Error("expected setoption name NAME value VALUE");
    const [, name, value = ""] = m;
    if (name !== "seed") throw new Error("no option named " + name);
    const n = Number(value);
    if (!/^-?[0-9]+$/.test(value) || n < SEED.min || n > SEED.max) {
      throw new Error(`seed takes a whole number from ${SEED.min} to ${SEED.max}`);
    }
    this.seed = n;
    this.rng = new Random(n);
  }

  go(args) {
    let limited = false;
    for (let i = 0; i < args.length; i += 2) {
      if (LIMITS.includes(args[i]) && /^[0-9]+$/.test(args[i + 1] ?? "")) limited = true;
      else this.complain(`ignored go limit ${args.slice(i, i + 2).join(" ")}`);
    }
    const started = Date.now();
    const found = choose(this.position, this.rng);
    const time = Date.now() - started;
    this.send(`info depth 1 score ${found.score} nodes ${found.nodes} time ${time} pv ${found.move}`);
    if (limited) this.send("bestmove " + found.move);
    else this.pending = found.move;
  }

  listMoves(args) {
    try {
      for (const m of Position.parse(args).legalMoves()) this.send(`move ${m.move} ${m.position}`);
    } catch (e) {
      this.complain(`ignored moves ${args.join(" ")}: ${e.message}`);
    }
    this.send("movesok");
  }
}

// `startpos [moves ...]` or `set F1 F2 F3 F4 [moves ...]`.
function readPosition(args) {
  let position;
  let rest;
  if (args[0] === "startpos") {
    position = Position.start();
    rest = args.slice(1);
  } else if (args[0] === "set") {
    position = Position.parse(args.slice(1, 5));
    rest = args.slice(5);
  } else {
    throw new Error("expected startpos or set");
  }
  if (rest.length > 0 && rest[0] !== "moves") throw new Error("expected moves, found " + rest[0]);
  for (const move of rest.slice(1)) position = position.play(move);
  return position;
}

module.exports = { Bot };
