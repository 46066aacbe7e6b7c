#!/bin/sh
# Reports on stderr what it inherited: descriptor 7 (the test leaves one open
# in the arbiter), the secret in the arbiter's environment, no_new_privs and
# its effective capabilities; then tries to regain privileges, and plays
# honest moves.
# usage: leaks.sh MARKER TESTBOT
if [ -e /proc/$$/fd/7 ]; then fd=open; else fd=closed; fi
secret=${ABOURE_TEST_SECRET:-absent}
nnp=$(awk '/^NoNewPrivs/ {print $2}' /proc/self/status)
cap=$(awk '/^CapEff/ {print $2}' /proc/self/status)
echo "leaks: fd7=$fd secret=$secret nnp=$nnp capeff=$cap home=$HOME" >&2
exec "$2" random --seed 15
