// The move choice: a one-ply capture maximiser. Every legal sowing is played,
// the ones that capture the most seeds are kept, and a seeded random number
// picks among them, so the `seed` option gives a reproducible but varied bot.
// This is the part to make stronger (a deeper search, a better evaluation).

import java.util.ArrayList;
import java.util.List;

final class Search {
    private Search() {}

    /** mulberry32: a small, well-mixed 32-bit generator, the same in every kit. */
    static final class Random {
        private int state;

        Random(int seed) {
            state = seed;
        }

        int next() {
            state += 0x6d2b79f5;
            int t = state;
            t = (t ^ (t >>> 15)) * (t | 1);
            t ^= t + (t ^ (t >>> 7)) * (t | 61);
            return t ^ (t >>> 14);
        }

        int below(int n) {
            return (int) (Integer.toUnsignedLong(next()) % n);
        }
    }

    /** The move chosen, the seed margin from the mover's view right after it, positions looked at. */
    static final class Choice {
        final int move;
        final int score;
        final int nodes;

        Choice(int move, int score, int nodes) {
            this.move = move;
            this.score = score;
            this.nodes = nodes;
        }
    }

    /** The biggest capture, ties broken by `rng`. */
    static Choice choose(Position position, Random rng) {
        List<Position.Child> moves = position.children();
        if (moves.isEmpty()) {
            return new Choice(Position.PASS, 0, 0);
        }
        int most = 0;
        for (Position.Child c : moves) {
            most = Math.max(most, c.taken);
        }
        List<Position.Child> best = new ArrayList<>();
        for (Position.Child c : moves) {
            if (c.taken == most) {
                best.add(c);
            }
        }
        Position.Child pick = best.get(rng.below(best.size()));
        int[] s = pick.position.score();
        return new Choice(pick.move, s[position.side] - s[1 - position.side], moves.size());
    }
}
