#!/usr/bin/env bash
# Instructions two builds of hoshi execute on the same four searches, counted by
# `valgrind --tool=callgrind` (repeatable for the same binary and input, whatever else the
# machine is doing): a `reg_genmove b` after `play b e5`, `play w c3`, one thread, seed 1,
# engine start included. For a change that must not slow the search (docs/benchmarks.md).
#
#     bench/instructions.sh OLD_HOSHI NEW_HOSHI [OUT_DIR]
#
# Prints a markdown table: each search's instructions on both builds and their ratio.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_HOSHI NEW_HOSHI [OUT_DIR]" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"

# name | board | hoshi's options
searches=(
  "9x9, 3,000 visits, without the network|9|--visits 3000 --net none"
  "9x9, 3,000 visits, with the network|9|--visits 3000 --param value_mix=0 --param puct=0"
  "19x19, 1,000 visits, with the network|19|--visits 1000"
  "19x19, 300 visits, the network's value at every leaf, PUCT|19|--visits 300 --param value_mix=1 --param puct=1"
)

# The instructions of one run: BINARY BOARD OPTIONS...
count() {
  local bin=$1 size=$2
  shift 2
  local file
  file=$(mktemp "$out/callgrind.XXXXXX")
  printf 'boardsize %s\nclear_board\nplay b e5\nplay w c3\nreg_genmove b\nquit\n' "$size" |
    valgrind --tool=callgrind --callgrind-out-file="$file" "$bin" --threads 1 --seed 1 "$@" \
      >"$file.gtp" 2>"$file.log"
  grep -m1 '^summary:' "$file" | awk '{print $2}'
}

echo "| search | before | after | after / before |"
echo "|---|---|---|---|"
for search in "${searches[@]}"; do
  IFS='|' read -r name size options <<<"$search"
  # shellcheck disable=SC2086
  before=$(count "$old" "$size" $options)
  # shellcheck disable=SC2086
  after=$(count "$new" "$size" $options)
  ratio=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.4f", a / b }')
  printf '| %s | %s | %s | %s |\n' "$name" "$before" "$after" "$ratio"
done
