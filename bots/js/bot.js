#!/usr/bin/env node
// A Djenon-aboure bot in JavaScript (node, no packages): the entry point.
// It wires standard input and output to the protocol in protocol.js; the
// rules are in rules.js and the move choice in search.js.
//
// Run it: node bot.js. Check it: aboure check-bot -- node bot.js (in this folder)
"use strict";

const readline = require("readline");
const { Bot } = require("./protocol.js");

// Writes to a pipe are synchronous on Linux, so each line leaves at once.
const bot = new Bot((line) => process.stdout.write(line + "\n"));
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (!bot.handle(line)) process.exit(0);
});
input.on("close", () => process.exit(0));
