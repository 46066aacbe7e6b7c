#include "rules.hpp"

#include <numeric>
#include <set>

namespace aboure {

namespace {

// Takes the seeds of `last` and of every pit before it (walking backwards
// across both rows, never twice) holding exactly 2 or 4; returns the total.
int capture(std::array<int, kPits>& board, int last) {
    int taken = board[last];
    board[last] = 0;
    int pit = last;
    for (int i = 1; i < kPits; ++i) {
        pit = (pit + kPits - 1) % kPits;
        if (board[pit] != 2 && board[pit] != 4) break;
        taken += board[pit];
        board[pit] = 0;
    }
    return taken;
}

// Sows from `pit` with relays into `board`; returns the seeds captured, or
// -1 when the sowing never ends. Within one move no seed leaves the board,
// so a sowing that does not end comes back to a state it has been in (same
// board, same pit to sow): the set of states seen finds it.
int sow(std::array<int, kPits>& board, int pit) {
    std::set<std::pair<std::array<int, kPits>, int>> seen;
    for (;;) {
        if (!seen.emplace(board, pit).second) return -1;
        int seeds = board[pit];
        board[pit] = 0;
        for (int& n : board) n += seeds / kPits;
        for (int i = 0; i < seeds % kPits; ++i) board[(pit + i) % kPits] += 1;
        int last = (pit + seeds - 1) % kPits;
        if (board[last] == 1) return 0;
        if (board[last] == 2 || board[last] == 4) return capture(board, last);
        pit = last;  // it held 2, or 4 or more: relay from there
    }
}

bool is_count(const std::string& s) {
    if (s.empty() || s.size() > 2) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return !(s.size() == 2 && s[0] == '0') && std::stoi(s) <= kTotal;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts(1);
    for (char c : s) {
        if (c == sep)
            parts.emplace_back();
        else
            parts.back() += c;
    }
    return parts;
}

}  // namespace

Position Position::start() {
    Position p;
    p.pits.fill(4);
    return p;
}

std::optional<Position> Position::parse(const std::vector<std::string>& fields, std::string& error) {
    if (fields.size() != 4) {
        error = "a position has 4 fields, found " + std::to_string(fields.size());
        return std::nullopt;
    }
    auto rows = split(fields[0], '/');
    if (rows.size() != 2 || split(rows[0], ',').size() != kRow || split(rows[1], ',').size() != kRow) {
        error = "board " + fields[0] + " is not two rows of six pits";
        return std::nullopt;
    }
    if (fields[1] != "s" && fields[1] != "n") {
        error = "side " + fields[1] + " is neither s nor n";
        return std::nullopt;
    }
    auto cells = split(rows[0] + "," + rows[1], ',');
    cells.push_back(fields[2]);
    cells.push_back(fields[3]);
    Position p;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (!is_count(cells[i])) {
            error = "seed count " + cells[i] + " is not a number from 0 to 48";
            return std::nullopt;
        }
        int n = std::stoi(cells[i]);
        if (i < kPits)
            p.pits[i] = n;
        else
            p.captured[i - kPits] = n;
    }
    int sum = std::accumulate(p.pits.begin(), p.pits.end(), 0) + p.captured[0] + p.captured[1];
    if (sum != kTotal) {
        error = "the seeds do not add up to 48";
        return std::nullopt;
    }
    p.side = fields[1] == "s" ? kSouth : kNorth;
    return p;
}

std::string Position::str() const {
    std::string s;
    for (int i = 0; i < kPits; ++i) {
        s += std::to_string(pits[i]);
        s += i == kRow - 1 ? "/" : (i == kPits - 1 ? " " : ",");
    }
    s += side == kSouth ? "s " : "n ";
    return s + std::to_string(captured[0]) + " " + std::to_string(captured[1]);
}

std::optional<Child> Position::child(int pit) const {
    if (pit / kRow != side || pits[pit] < 2) return std::nullopt;
    Position next = *this;
    int taken = sow(next.pits, pit);
    if (taken < 0) return std::nullopt;
    next.captured[side] += taken;
    next.side = side == kSouth ? kNorth : kSouth;
    return Child{pit, next, taken};
}

std::vector<Child> Position::children() const {
    std::vector<Child> result;
    for (int pit = side * kRow; pit < side * kRow + kRow; ++pit)
        if (auto c = child(pit)) result.push_back(*c);
    return result;
}

Position Position::passed() const {
    Position p = *this;
    p.side = side == kSouth ? kNorth : kSouth;
    return p;
}

std::vector<Child> Position::legal_moves() const {
    auto sowings = children();
    if (!sowings.empty()) return sowings;
    Position p = passed();
    if (p.children().empty()) return {};
    return {Child{kPass, p, 0}};
}

std::array<int, 2> Position::score() const {
    int south = std::accumulate(pits.begin(), pits.begin() + kRow, captured[0]);
    int north = std::accumulate(pits.begin() + kRow, pits.end(), captured[1]);
    return {south, north};
}

std::string move_text(int move) { return move == kPass ? "pass" : std::to_string(move); }

}  // namespace aboure
