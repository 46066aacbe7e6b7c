#include "search.hpp"

#include <algorithm>

namespace aboure {

uint32_t Random::next() {
    state_ += 0x6d2b79f5u;
    uint32_t t = state_;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

Choice choose(const Position& position, Random& rng) {
    auto moves = position.children();
    if (moves.empty()) return {kPass, 0, 0};
    int most = 0;
    for (const auto& c : moves) most = std::max(most, c.taken);
    std::vector<const Child*> best;
    for (const auto& c : moves)
        if (c.taken == most) best.push_back(&c);
    const Child& pick = *best[rng.below(static_cast<uint32_t>(best.size()))];
    auto s = pick.position.score();
    int me = position.side;
    return {pick.move, s[me] - s[1 - me], static_cast<int>(moves.size())};
}

}  // namespace aboure
