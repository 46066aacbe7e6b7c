// The aboure protocol (PROTOCOL.md), one line at a time: the handshake,
// options, positions, `go` with its limits, `stop`, `isready` and `quit`,
// plus one debug command outside the protocol, `moves POSITION`, which lists
// every legal move with the position after it (see README.md).
//
// The search takes microseconds, so `go` with a limit is answered at once;
// `go` without limits keeps its answer until `stop`, as the protocol asks,
// and `isready` is answered meanwhile because this loop keeps reading.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rules.hpp"
#include "search.hpp"

namespace aboure {

class Bot {
  public:
    // `send` writes one line (without its newline) and flushes it.
    explicit Bot(std::function<void(const std::string&)> send);
    // Handles one line; returns false on `quit`.
    bool handle(const std::string& line);

  private:
    void handshake(const std::vector<std::string>& args);
    void set_option(const std::vector<std::string>& args);
    void set_position(const std::vector<std::string>& args);
    void go(const std::vector<std::string>& args);
    void list_moves(const std::vector<std::string>& args);
    void complain(const std::string& text);

    std::function<void(const std::string&)> send_;
    uint32_t seed_ = 1;
    Random rng_{1};
    Position position_ = Position::start();
    std::optional<int> pending_;  // the bestmove of a `go` without limits, until `stop`
};

}  // namespace aboure
