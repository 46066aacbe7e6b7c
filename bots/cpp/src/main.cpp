// A Djenon-aboure bot in C++17 (standard library only): the entry point. It
// wires standard input and output to the protocol in protocol.cpp; the rules
// are in rules.cpp and the move choice in search.cpp.
//
// Build it: make (or cmake). Check it: aboure check-bot -- bots/cpp/build/bot
#include <iostream>
#include <string>

#include "protocol.hpp"

int main() {
    std::ios::sync_with_stdio(false);
    aboure::Bot bot([](const std::string& line) { std::cout << line << std::endl; });
    for (std::string line; std::getline(std::cin, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!bot.handle(line)) break;
    }
    return 0;
}
