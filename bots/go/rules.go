// The rules of Djenon-aboure (RULES.md), on their own: positions, sowing with
// relays, captures, endless sowings, legal moves and forced passes. Nothing
// here reads or writes anything, so the search and the tests can trust it.

package main

import (
	"fmt"
	"strconv"
	"strings"
)

const (
	pits  = 12 // 0..5 South's row, 6..11 North's, in sowing order
	row   = 6
	total = 48
	south = 0
	north = 1
	// pass is the move of a side with no sowing.
	pass = -1
)

// Position is the seeds in each pit, the side to move and each side's captures.
type Position struct {
	Pits     [pits]int
	Side     int
	Captured [2]int
}

// Child is a legal move (a pit, or pass), the position after it and the
// seeds it captured.
type Child struct {
	Move     int
	Position Position
	Taken    int
}

// Start is the opening position.
func Start() Position {
	var p Position
	for i := range p.Pits {
		p.Pits[i] = 4
	}
	return p
}

// ParsePosition reads the four fields `S0,..,S5/N6,..,N11 SIDE CAPS CAPN`.
func ParsePosition(fields []string) (Position, error) {
	var p Position
	if len(fields) != 4 {
		return p, fmt.Errorf("a position has 4 fields, found %d", len(fields))
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != 2 || len(strings.Split(rows[0], ",")) != row || len(strings.Split(rows[1], ",")) != row {
		return p, fmt.Errorf("board %s is not two rows of six pits", fields[0])
	}
	if fields[1] != "s" && fields[1] != "n" {
		return p, fmt.Errorf("side %s is neither s nor n", fields[1])
	}
	cells := append(strings.Split(rows[0]+","+rows[1], ","), fields[2], fields[3])
	sum := 0
	for i, c := range cells {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n > total || strconv.Itoa(n) != c {
			return p, fmt.Errorf("seed count %s is not a number from 0 to 48", c)
		}
		if i < pits {
			p.Pits[i] = n
		} else {
			p.Captured[i-pits] = n
		}
		sum += n
	}
	if sum != total {
		return p, fmt.Errorf("the seeds do not add up to 48")
	}
	if fields[1] == "n" {
		p.Side = north
	}
	return p, nil
}

func (p Position) String() string {
	cells := make([]string, pits)
	for i, n := range p.Pits {
		cells[i] = strconv.Itoa(n)
	}
	return fmt.Sprintf("%s/%s %c %d %d", strings.Join(cells[:row], ","), strings.Join(cells[row:], ","),
		"sn"[p.Side], p.Captured[0], p.Captured[1])
}

// Child is the position after the mover sows pit, or false when that is not
// a legal sowing (not the mover's pit, fewer than two seeds, or endless).
func (p Position) Child(pit int) (Child, bool) {
	if pit/row != p.Side || p.Pits[pit] < 2 {
		return Child{}, false
	}
	next := p
	taken, ends := sow(&next.Pits, pit)
	if !ends {
		return Child{}, false
	}
	next.Captured[p.Side] += taken
	next.Side = 1 - p.Side
	return Child{pit, next, taken}, true
}

// Children is the legal sowings, in pit order.
func (p Position) Children() []Child {
	var result []Child
	for pit := p.Side * row; pit < p.Side*row+row; pit++ {
		if c, ok := p.Child(pit); ok {
			result = append(result, c)
		}
	}
	return result
}

// Passed is the same position with the other side to move.
func (p Position) Passed() Position {
	p.Side = 1 - p.Side
	return p
}

// LegalMoves is the sowings, or a single pass when the mover has none but
// the opponent has, or nothing when the game is over.
func (p Position) LegalMoves() []Child {
	if sowings := p.Children(); len(sowings) > 0 {
		return sowings
	}
	if q := p.Passed(); len(q.Children()) > 0 {
		return []Child{{pass, q, 0}}
	}
	return nil
}

// Score is each side's captures plus the seeds in its own row.
func (p Position) Score() [2]int {
	s := p.Captured
	for i, n := range p.Pits {
		s[i/row] += n
	}
	return s
}

// MoveText is a move as the protocol writes it.
func MoveText(m int) string {
	if m == pass {
		return "pass"
	}
	return strconv.Itoa(m)
}

type state struct {
	board [pits]int
	pit   int
}

// sow sows from pit with relays; it returns the seeds captured, and false
// when the sowing never ends. Within one move no seed leaves the board, so a
// sowing that does not end comes back to a state it has been in (same board,
// same pit to sow): the set of states seen finds it.
func sow(board *[pits]int, pit int) (int, bool) {
	seen := map[state]bool{}
	for {
		s := state{*board, pit}
		if seen[s] {
			return 0, false
		}
		seen[s] = true
		seeds := board[pit]
		board[pit] = 0
		for i := range board {
			board[i] += seeds / pits
		}
		for i := 0; i < seeds%pits; i++ {
			board[(pit+i)%pits]++
		}
		last := (pit + seeds - 1) % pits
		switch board[last] {
		case 1:
			return 0, true
		case 2, 4:
			return capture(board, last), true
		}
		pit = last // it held 2, or 4 or more: relay from there
	}
}

// capture takes the seeds of last and of every pit before it (walking
// backwards across both rows, never twice) holding exactly 2 or 4.
func capture(board *[pits]int, last int) int {
	taken := board[last]
	board[last] = 0
	pit := last
	for i := 1; i < pits; i++ {
		pit = (pit + pits - 1) % pits
		if board[pit] != 2 && board[pit] != 4 {
			break
		}
		taken += board[pit]
		board[pit] = 0
	}
	return taken
}
