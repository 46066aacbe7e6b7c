#!/usr/bin/env bash
# A kit bot against a reference bot through real processes: the Python
# starter kit (bots/python, iterative-deepening alpha-beta) against the
# reference alphabeta, both at `go depth 3`, from random 4-ply openings
# (the tournament default) and from the book of every position 4 plies deep
# within 2 seeds of a draw (`aboure openings --value=-2..2 --plies 4`, the
# recipe `aboure bench openings` measures in-process). For each source it
# prints the pentanomial counts of PAIRS game pairs and the pairs of RUNS
# real SPRTs of [0, 10] nElo (alpha = beta = 0.05, as the report names
# the pair: whether the kit is better; it is not, so H0 is the verdict), each
# on its own seed: the random openings' `[tournament] seed`, the book's order
# (`aboure openings --seed`). The seeds are 101 and up, not the ones the
# recipe was chosen on.
#
#   cargo build --release && crates/bench/openings-processes.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
aboure=${ABOURE:-$root/target/release/aboure}
pairs=${PAIRS:-150}
runs=${RUNS:-6}
cap=${CAP:-2000}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# config SOURCE SEED FORMAT PAIRS: the tournament file of one run.
config() {
    local openings
    if [ "$1" = random ]; then
        openings="plies = 4"
    else
        "$aboure" openings --count 114 --value=-2..2 --plies 4 --seed "$2" \
            --out "$work/book-$2.txt" > /dev/null
        openings="file = \"$work/book-$2.txt\""
    fi
    cat > "$work/$1-$2-$3.toml" <<TOML
[tournament]
format = "$3"
pairs = $4
seed = $2
concurrency = 2

[openings]
$openings

[time-control]
depth = 3

[sprt]
elo0 = 0.0
elo1 = 10.0
alpha = 0.05
beta = 0.05
model = "normalized"

[[bot]]
name = "alphabeta"
builtin = "alphabeta"

[[bot]]
name = "python"
command = ["python3", "$root/bots/python/bot.py"]
memory-limit = "512MiB"
TOML
    echo "$work/$1-$2-$3.toml"
}

# pairs_line OUT: the pentanomial line of the head-to-head.
pairs_line() {
    grep -m1 -E '^  pairs: ' "$1" | sed 's/^ *//'
}

for source in random book; do
    file=$(config $source 101 round-robin "$pairs")
    "$aboure" run "$file" --out "$work/$source-measure" -q > "$work/$source-measure.txt"
    echo "$source: $(pairs_line "$work/$source-measure.txt")"
    total=0
    for seed in $(seq 102 $((101 + runs))); do
        file=$(config $source "$seed" sprt "$cap")
        "$aboure" run "$file" --out "$work/$source-sprt-$seed" -q > "$work/$source-sprt-$seed.txt"
        # "  LLR -2.951 in [-2.944, 2.944] after 37 pairs: H0 accepted"
        verdict=$(grep -m1 -E '^  LLR .* after [0-9]+ pairs: ' "$work/$source-sprt-$seed.txt")
        played=$(echo "$verdict" | sed -E 's/.* after ([0-9]+) pairs.*/\1/')
        echo "  SPRT seed $seed: ${verdict#  }"
        total=$((total + played))
    done
    echo "  $source: mean $(awk -v t=$total -v n=$runs 'BEGIN { printf "%.1f", t / n }') pairs to a verdict over $runs SPRTs"
done
