// A Djenon-aboure bot in Go (standard library only): the entry point. It
// wires standard input and output to the protocol in protocol.go; the rules
// are in rules.go and the move choice in search.go.
//
// Build it: go build -o build/bot . (in this folder).
// Check it: aboure check-bot -- bots/go/build/bot
package main

import (
	"bufio"
	"os"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	bot := NewBot(func(line string) {
		out.WriteString(line + "\n")
		out.Flush()
	})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 1024*1024)
	for in.Scan() {
		if !bot.Handle(in.Text()) {
			return
		}
	}
}
