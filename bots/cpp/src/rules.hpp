// The rules of Djenon-aboure (RULES.md), on their own: positions, sowing with
// relays, captures, endless sowings, legal moves and forced passes. Nothing
// here reads or writes anything, so the search and the tests can trust it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace aboure {

constexpr int kPits = 12;  // 0..5 South's row, 6..11 North's, in sowing order
constexpr int kRow = 6;
constexpr int kTotal = 48;
enum Side { kSouth = 0, kNorth = 1 };


// A legal move (a pit, or kPass) and the position after it (below).
struct Child;

constexpr int kPass = -1;

struct Position {
    std::array<int, kPits> pits{};
    Side side = kSouth;
    std::array<int, 2> captured{};

    static Position start();
    // Parses the four fields `S0,..,S5/N6,..,N11 SIDE CAPS CAPN`; nullopt and
    // a reason in `error` when they are not a position.
    static std::optional<Position> parse(const std::vector<std::string>& fields, std::string& error);
    std::string str() const;

    // The position after the mover sows `pit` and the seeds it took, or
    // nullopt when that is not a legal sowing (not the mover's pit, fewer
    // than two seeds, or a sowing that never ends).
    std::optional<Child> child(int pit) const;
    // The legal sowings, in pit order.
    std::vector<Child> children() const;
    // Every legal move: the sowings, or a single pass when the mover has none
    // but the opponent has, or nothing when the game is over.
    std::vector<Child> legal_moves() const;
    Position passed() const;
    // Each side's captures plus the seeds in its own row.
    std::array<int, 2> score() const;
};

struct Child {
    int move;  // a pit, or kPass
    Position position;
    int taken;  // seeds captured by the move
};

// The text of a move: its pit number, or `pass`.
std::string move_text(int move);

}  // namespace aboure
