#include "protocol.hpp"

#include <chrono>
#include <sstream>
#include <stdexcept>

namespace aboure {

namespace {

const char* kName = "C++ Sower 1.0";
const char* kAuthor = "The aboure authors";
const long kSeedMax = 2147483647;

// A line that cannot be acted on; the bot says so with `info string`.
struct BadLine : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> result;
    for (std::string w; in >> w;) result.push_back(w);
    return result;
}

bool is_number(const std::string& s, bool sign) {
    size_t start = sign && !s.empty() && s[0] == '-' ? 1 : 0;
    if (s.size() == start || s.size() - start > 18) return false;
    for (size_t i = start; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

Position parse_or_throw(const std::vector<std::string>& fields) {
    std::string error;
    auto p = Position::parse(fields, error);
    if (!p) throw BadLine(error);
    return *p;
}

}  // namespace

Bot::Bot(std::function<void(const std::string&)> send) : send_(std::move(send)) {}

void Bot::complain(const std::string& text) {
    std::string one_line;
    for (const auto& w : words(text)) one_line += (one_line.empty() ? "" : " ") + w;
    send_("info string " + one_line);
}

bool Bot::handle(const std::string& line) {
    auto w = words(line);
    if (w.empty()) return true;
    std::string command = w[0];
    std::vector<std::string> args(w.begin() + 1, w.end());
    try {
        if (command == "quit") return false;
        if (command == "aboure") {
            handshake(args);
        } else if (command == "isready") {
            send_("readyok");
        } else if (command == "setoption") {
            set_option(args);
        } else if (command == "newgame") {
            rng_ = Random(seed_);
        } else if (command == "position") {
            set_position(args);
        } else if (command == "go") {
            go(args);
        } else if (command == "stop") {
            if (pending_) send_("bestmove " + move_text(*pending_));
            pending_.reset();
        } else if (command == "moves") {
            list_moves(args);
        } else {
            complain("ignored unknown command: " + line);
        }
    } catch (const BadLine& e) {
        complain("ignored " + line + ": " + e.what());
    }
    return true;
}

void Bot::handshake(const std::vector<std::string>& args) {
    if (args.size() != 1 || args[0] != "1") complain("expected protocol version 1");
    send_(std::string("id name ") + kName);
    send_(std::string("id author ") + kAuthor);
    send_("option name seed type int default 1 min 0 max " + std::to_string(kSeedMax));
    send_("aboureok");
}

void Bot::set_option(const std::vector<std::string>& args) {
    // setoption name NAME value VALUE (the value is the rest of the line)
    if (args.size() < 3 || args[0] != "name" || args[2] != "value")
        throw BadLine("expected setoption name NAME value VALUE");
    if (args[1] != "seed") throw BadLine("no option named " + args[1]);
    if (args.size() != 4 || !is_number(args[3], true) || std::stol(args[3]) < 0 ||
        std::stol(args[3]) > kSeedMax)
        throw BadLine("seed takes a whole number from 0 to " + std::to_string(kSeedMax));
    seed_ = static_cast<uint32_t>(std::stol(args[3]));
    rng_ = Random(seed_);
}

void Bot::set_position(const std::vector<std::string>& args) {
    // position startpos [moves ...] | position set F1 F2 F3 F4 [moves ...]
    Position p;
    size_t rest;
    if (!args.empty() && args[0] == "startpos") {
        p = Position::start();
        rest = 1;
    } else if (!args.empty() && args[0] == "set" && args.size() >= 5) {
        p = parse_or_throw({args.begin() + 1, args.begin() + 5});
        rest = 5;
    } else {
        throw BadLine("expected startpos or set and a position");
    }
    if (rest < args.size() && args[rest] != "moves") throw BadLine("expected moves, found " + args[rest]);
    for (size_t i = rest + 1; i < args.size(); ++i) {
        const std::string& m = args[i];
        if (m == "pass") {
            p = p.passed();  // taken on trust: the arbiter plays only forced passes
            continue;
        }
        auto c = is_number(m, false) && m.size() <= 2 ? p.child(std::stoi(m)) : std::nullopt;
        if (!c) throw BadLine("move " + m + " is not legal in " + p.str());
        p = c->position;
    }
    position_ = p;
}

void Bot::go(const std::vector<std::string>& args) {
    static const std::vector<std::string> limits = {"stime",    "ntime", "sinc", "ninc",
                                                    "movetime", "depth", "nodes"};
    bool limited = false;
    for (size_t i = 0; i < args.size(); i += 2) {
        bool known = false;
        for (const auto& l : limits) known = known || args[i] == l;
        if (known && i + 1 < args.size() && is_number(args[i + 1], false))
            limited = true;
        else
            complain("ignored go limit " + args[i]);
    }
    auto started = std::chrono::steady_clock::now();
    Choice c = choose(position_, rng_);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    send_("info depth 1 score " + std::to_string(c.score) + " nodes " + std::to_string(c.nodes) + " time " +
          std::to_string(ms.count()) + " pv " + move_text(c.move));
    if (limited)
        send_("bestmove " + move_text(c.move));
    else
        pending_ = c.move;
}

void Bot::list_moves(const std::vector<std::string>& args) {
    std::string error;
    if (auto p = Position::parse(args, error)) {
        for (const auto& c : p->legal_moves()) send_("move " + move_text(c.move) + " " + c.position.str());
    } else {
        complain("ignored moves: " + error);
    }
    send_("movesok");
}

}  // namespace aboure
