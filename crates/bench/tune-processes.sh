#!/usr/bin/env bash
# The recovery of alphabeta's `row_weight` from -50 (its default is 50)
# through `aboure tune`: bot processes, the sandbox on (`auto`), `go nodes
# 1500`, `hash = 1`, as configs/tune.toml without its `confirm`. Each
# objective is run at its budget for seeds 1 to SEEDS (the seed changes
# the sample, the openings and the perturbations), each run under
# /usr/bin/time (user + system CPU, bots included: they are the tune's
# waited-for children), and each tuned value is then matched against the
# bad start by `aboure bench tune --elo-of` (200 game pairs, pentanomial
# 95% interval). Prints one line per run, the medians, and the ratio of the
# median CPU times.
#
#   cargo build --release && crates/bench/tune-processes.sh
#
# The budgets are those `aboure bench tune` found to recover on every seed
# in-process; change them with the variables below (OPTION, START and STEP
# tune another weight of alphabeta from another bad start, e.g.
# OPTION=mobility_weight START=-400 STEP=100).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
aboure=${ABOURE:-$root/target/release/aboure}
seeds=${SEEDS:-5}
accuracy_iterations=${ACCURACY_ITERATIONS:-4}
accuracy_r_end=${ACCURACY_R_END:-32}
positions=${POSITIONS:-200}
games_iterations=${GAMES_ITERATIONS:-90}
games_r_end=${GAMES_R_END:-1.2}
pairs=${PAIRS:-200}
option=${OPTION:-row_weight}
start=${START:--50}
step=${STEP:-10}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# config OBJECTIVE ITERATIONS R_END SEED: configs/tune.toml for that run
# (A left at its default, iterations / 10, as in `aboure bench tune`).
config() {
    local keep="s/^positions = .*/positions = $positions/"
    [ "$1" = accuracy ] || keep="/^positions/d"
    sed -e "s/^seed = .*/seed = $4/" \
        -e "/^confirm/d" \
        -e "s/^spsa = .*/spsa = { r-end = $3 }/" \
        -e "s/^iterations = .*/iterations = $2/" \
        -e "s/^objective = .*/objective = \"$1\"/" \
        -e "$keep" \
        -e "s/^parameters = .*/parameters = { $option = { start = $start, min = -1000, max = 1000, step = $step } }/" \
        "$root/configs/tune.toml" > "$work/$1-$4.toml"
    echo "$work/$1-$4.toml"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure OBJECTIVE ITERATIONS R_END: one line per seed, then the medians;
# the median CPU is left in $work/OBJECTIVE.cpu.
measure() {
    local values=()
    : > "$work/$1.cpus"
    for seed in $(seq 1 "$seeds"); do
        local file out
        file=$(config "$1" "$2" "$3" "$seed")
        out="$work/out-$1-$seed"
        /usr/bin/time -f "%U %S" -o "$work/time" "$aboure" tune "$file" --out "$out" -q \
            > "$work/values" 2> "$work/stderr" || { cat "$work/stderr" >&2; exit 2; }
        local value cpu
        value=$(sed -n "s/^$option = //p" "$work/values")
        cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")
        echo "$cpu" >> "$work/$1.cpus"
        values+=("$value")
        echo "$1 $2 iterations, seed $seed: $option $start -> $value, $cpu s CPU ($(awk '{ print $1 " user, " $2 " system" }' "$work/time"))"
    done
    local list
    list=$(IFS=,; echo "${values[*]}")
    "$aboure" bench tune --option "$option" --start "$start" --elo-of "$list" --pairs "$pairs" > "$work/elo"
    sed "s/^/  /" "$work/elo"
    local elo
    elo=$(sed -n 's/.*Elo \([-+0-9]*\) .*/\1/p' "$work/elo" | median)
    median < "$work/$1.cpus" > "$work/$1.cpu"
    echo "$1 $2 iterations over $seeds seeds: median $option $(printf '%s\n' "${values[@]}" | median), median Elo $elo, median CPU $(cat "$work/$1.cpu") s"
}

measure accuracy "$accuracy_iterations" "$accuracy_r_end"
measure games "$games_iterations" "$games_r_end"
awk -v a="$(cat "$work/accuracy.cpu")" -v g="$(cat "$work/games.cpu")" \
    'BEGIN { printf "median CPU, games / accuracy: %.1fx\n", g / a }'
