#!/bin/sh
# What the limits cost (BENCHMARKS.md, "Limits"): the same workloads run by
# two release builds of yose, alternately, the one as shipped (counting
# allocator; every store step checks the memory limit, the stack guard and
# the tables' growth) and one built with `--features bench-uncounted` (none
# of that). Prints each run's CPU seconds (user + system, which a loaded
# machine disturbs less than wall time) and the medians.
#
#   cargo build --release
#   CARGO_TARGET_DIR=/tmp/yose-uncounted cargo build --release --features bench-uncounted
#   sh benches/limits-cost.sh ./target/release/yose /tmp/yose-uncounted/release/yose 7
set -eu
counted=$1
uncounted=$2
rounds=${3:-7}
p='go(". a o O X X\n. x . . o .\nX . . o . .")'
run() { # binary, workload number -> CPU seconds
    case $2 in
    1) set -- "$1" check examples ;;
    2) set -- "$1" eval "canonical(sum(map(fn(k) = {k | -k/2}, 1..=20)))" ;;
    3) set -- "$1" eval "solve([$p, +-2], budget: 1000000)" ;;
    esac
    /usr/bin/time -f "%U %S" -o /tmp/limits-cost-t.$$ "$@" >/dev/null 2>&1 || true
    # A failing command adds a first line "Command exited with …".
    tail -n 1 /tmp/limits-cost-t.$$ | awk '{print $1 + $2}'
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for w in 1 2 3; do
    : >/tmp/limits-cost-a.$$
    : >/tmp/limits-cost-b.$$
    i=0
    while [ $i -lt "$rounds" ]; do
        run "$counted" $w >>/tmp/limits-cost-a.$$
        run "$uncounted" $w >>/tmp/limits-cost-b.$$
        i=$((i + 1))
    done
    a=$(median </tmp/limits-cost-a.$$)
    b=$(median </tmp/limits-cost-b.$$)
    echo "workload $w: counted $(tr '\n' ' ' </tmp/limits-cost-a.$$)| uncounted $(tr '\n' ' ' </tmp/limits-cost-b.$$)"
    echo "workload $w: medians counted $a s, uncounted $b s, ratio $(echo "scale=3; $a / $b" | bc)"
done
rm -f /tmp/limits-cost-a.$$ /tmp/limits-cost-b.$$ /tmp/limits-cost-t.$$
