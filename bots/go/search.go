// The move choice: a one-ply capture maximiser. Every legal sowing is played,
// the ones that capture the most seeds are kept, and a seeded random number
// picks among them, so the seed option gives a reproducible but varied bot.
// This is the part to make stronger (a deeper search, a better evaluation).

package main

// Random is mulberry32: a small, well-mixed 32-bit generator, the same in
// every kit.
type Random struct{ state uint32 }

func (r *Random) next() uint32 {
	r.state += 0x6d2b79f5
	t := r.state
	t = (t ^ (t >> 15)) * (t | 1)
	t ^= t + (t^(t>>7))*(t|61)
	return t ^ (t >> 14)
}

func (r *Random) below(n int) int { return int(r.next() % uint32(n)) }

// Choice is the move chosen, the seed margin from the mover's view right
// after it, and the positions looked at.
type Choice struct {
	Move, Score, Nodes int
}

// Choose picks the biggest capture, ties broken by rng.
func Choose(p Position, rng *Random) Choice {
	moves := p.Children()
	if len(moves) == 0 {
		return Choice{pass, 0, 0}
	}
	most := 0
	for _, c := range moves {
		if c.Taken > most {
			most = c.Taken
		}
	}
	var best []Child
	for _, c := range moves {
		if c.Taken == most {
			best = append(best, c)
		}
	}
	pick := best[rng.below(len(best))]
	s := pick.Position.Score()
	return Choice{pick.Move, s[p.Side] - s[1-p.Side], len(moves)}
}
