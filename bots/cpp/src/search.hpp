// The move choice: a one-ply capture maximiser. Every legal sowing is played,
// the ones that capture the most seeds are kept, and a seeded random number
// picks among them, so the `seed` option gives a reproducible but varied bot.
// This is the part to make stronger (a deeper search, a better evaluation).
#pragma once

#include <cstdint>

#include "rules.hpp"

namespace aboure {

// mulberry32: a small, well-mixed 32-bit generator, the same in every kit.
class Random {
  public:
    explicit Random(uint32_t seed) : state_(seed) {}
    uint32_t next();
    uint32_t below(uint32_t n) { return next() % n; }

  private:
    uint32_t state_;
};

struct Choice {
    int move;   // a pit, or kPass when there is no sowing
    int score;  // the seed margin from the mover's view right after it
    int nodes;  // positions looked at
};

Choice choose(const Position& position, Random& rng);

}  // namespace aboure
