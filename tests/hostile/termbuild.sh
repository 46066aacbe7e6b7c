#!/bin/sh
# A build step that fails after printing OSC 52 (the terminal's clipboard),
# OSC 0 (its window's title), CSI 2J and a C1 CSI (U+009B), and a line that
# reads as one of aboure's own, for the run's error and `check-bot --build`,
# which quote the end of a failed build's output.
printf 'compiling \033]52;c;b3duZWQ=\007\033]0;title\007\033[2J\302\233K done\n'
printf 'built builder in 0.1 s (log: forged)\n' >&2
exit 1
