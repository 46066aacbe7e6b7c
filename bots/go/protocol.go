// The aboure protocol (PROTOCOL.md), one line at a time: the handshake,
// options, positions, `go` with its limits, `stop`, `isready` and `quit`,
// plus one debug command outside the protocol, `moves POSITION`, which lists
// every legal move with the position after it (see README.md).
//
// The search takes microseconds, so `go` with a limit is answered at once;
// `go` without limits keeps its answer until `stop`, as the protocol asks,
// and `isready` is answered meanwhile because this loop keeps reading.

package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const (
	botName   = "Go Sower 1.0"
	botAuthor = "The aboure authors"
	seedMax   = 2147483647
)

var limitNames = map[string]bool{
	"stime": true, "ntime": true, "sinc": true, "ninc": true, "movetime": true, "depth": true, "nodes": true,
}

var setOptionLine = regexp.MustCompile(`^\s*setoption\s+name\s+(\S+)\s+value(?:\s+(.*?))?\s*$`)

// Bot holds what the protocol has told the bot so far.
type Bot struct {
	send     func(string) // writes one line and flushes it
	seed     uint32
	rng      Random
	position Position
	pending  *int // the bestmove of a go without limits, until stop
}

// NewBot is a bot with default options at the start position.
func NewBot(send func(string)) *Bot {
	return &Bot{send: send, seed: 1, rng: Random{1}, position: Start()}
}

func (b *Bot) complain(text string) {
	b.send("info string " + strings.Join(strings.Fields(text), " "))
}

// Handle acts on one line; it returns false on quit.
func (b *Bot) Handle(line string) bool {
	words := strings.Fields(line)
	if len(words) == 0 {
		return true
	}
	args := words[1:]
	var err error
	switch words[0] {
	case "quit":
		return false
	case "aboure":
		b.handshake(args)
	case "isready":
		b.send("readyok")
	case "setoption":
		err = b.setOption(line)
	case "newgame":
		b.rng = Random{b.seed}
	case "position":
		var p Position
		if p, err = readPosition(args); err == nil {
			b.position = p
		}
	case "go":
		b.goSearch(args)
	case "stop":
		if b.pending != nil {
			b.send("bestmove " + MoveText(*b.pending))
		}
		b.pending = nil
	case "moves":
		b.listMoves(args)
	default:
		b.complain("ignored unknown command: " + line)
	}
	if err != nil {
		b.complain(fmt.Sprintf("ignored %s: %v", line, err))
	}
	return true
}

func (b *Bot) handshake(args []string) {
	if len(args) != 1 || args[0] != "1" {
		b.complain("expected protocol version 1")
	}
	b.send("id name " + botName)
	b.send("id author " + botAuthor)
	b.send(fmt.Sprintf("option name seed type int default 1 min 0 max %d", seedMax))
	b.send("aboureok")
}

func (b *Bot) setOption(line string) error {
	m := setOptionLine.FindStringSubmatch(line)
	if m == nil {
		return fmt.Errorf("expected setoption name NAME value VALUE")
	}
	if m[1] != "seed" {
		return fmt.Errorf("no option named %s", m[1])
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil || n < 0 || n > seedMax {
		return fmt.Errorf("seed takes a whole number from 0 to %d", seedMax)
	}
	b.seed = uint32(n)
	b.rng = Random{b.seed}
	return nil
}

// readPosition reads `startpos [moves ...]` or `set F1 F2 F3 F4 [moves ...]`.
func readPosition(args []string) (Position, error) {
	var p Position
	var rest []string
	switch {
	case len(args) > 0 && args[0] == "startpos":
		p, rest = Start(), args[1:]
	case len(args) >= 5 && args[0] == "set":
		var err error
		if p, err = ParsePosition(args[1:5]); err != nil {
			return p, err
		}
		rest = args[5:]
	default:
		return p, fmt.Errorf("expected startpos or set and a position")
	}
	if len(rest) > 0 && rest[0] != "moves" {
		return p, fmt.Errorf("expected moves, found %s", rest[0])
	}
	for i := 1; i < len(rest); i++ {
		if rest[i] == "pass" {
			p = p.Passed() // taken on trust: the arbiter plays only forced passes
			continue
		}
		pit, err := strconv.Atoi(rest[i])
		var c Child
		ok := err == nil && pit >= 0 && pit < pits && strconv.Itoa(pit) == rest[i]
		if ok {
			c, ok = p.Child(pit)
		}
		if !ok {
			return p, fmt.Errorf("move %s is not legal in %v", rest[i], p)
		}
		p = c.Position
	}
	return p, nil
}

func (b *Bot) goSearch(args []string) {
	limited := false
	for i := 0; i < len(args); i += 2 {
		if _, err := strconv.ParseUint(at(args, i+1), 10, 63); limitNames[args[i]] && err == nil {
			limited = true
		} else {
			b.complain("ignored go limit " + args[i])
		}
	}
	started := time.Now()
	c := Choose(b.position, &b.rng)
	b.send(fmt.Sprintf("info depth 1 score %d nodes %d time %d pv %s", c.Score, c.Nodes,
		time.Since(started).Milliseconds(), MoveText(c.Move)))
	if limited {
		b.send("bestmove " + MoveText(c.Move))
	} else {
		b.pending = &c.Move
	}
}

func at(words []string, i int) string {
	if i < len(words) {
		return words[i]
	}
	return ""
}

func (b *Bot) listMoves(args []string) {
	if p, err := ParsePosition(args); err != nil {
		b.complain("ignored moves: " + err.Error())
	} else {
		for _, c := range p.LegalMoves() {
			b.send(fmt.Sprintf("move %s %v", MoveText(c.Move), c.Position))
		}
	}
	b.send("movesok")
}
