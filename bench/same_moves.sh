#!/usr/bin/env bash
# Whether two builds of hoshi play the same moves: eight seeded GTP sessions (one thread,
# counted visits, so the answers depend on the code alone), each run on both builds; every
# answer and every move's log line (visits, best move, win rate, lead, komi shift) compared.
# For a refactoring, which must change no move.
#
#     bench/same_moves.sh OLD_HOSHI NEW_HOSHI [OUT_DIR]
#
# Prints one line a session (`same` or `DIFFERENT`) and exits 1 if any differs.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_HOSHI NEW_HOSHI [OUT_DIR]" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"

# The GTP script of a session: SIZE MOVES HANDICAP.
script() {
  echo "boardsize $1"
  echo "clear_board"
  local color=b
  if [ "$3" != 0 ]; then
    echo "fixed_handicap $3"
    color=w
  fi
  for _ in $(seq 1 "$2"); do
    echo "genmove $color"
    if [ $color = b ]; then color=w; else color=b; fi
  done
  printf 'reg_genmove %s\nhoshi-evaluate\nfinal_score\nfinal_status_list dead\nestimate_score\nquit\n' $color
}

# name size moves handicap, then hoshi's options.
sessions=(
  "a 9 24 0 --playouts 1500 --threads 1 --seed 3"
  "b 19 10 0 --playouts 800 --threads 1 --seed 3"
  "c 19 10 0 --playouts 300 --threads 1 --seed 5 --param value_mix=1 --param puct=1"
  "d 9 16 0 --playouts 600 --threads 1 --seed 7 --param value_mix=0.5 --param net_value_games=12"
  "e 13 20 0 --rank 20k --threads 1 --seed 9"
  "f 9 20 4 --playouts 1000 --threads 1 --seed 11 --komi 0.5"
  "g 19 12 0 --level beginner --threads 1 --seed 13"
  "h 19 8 0 --playouts 400 --threads 1 --seed 17 --param sight=0.5 --param point_loss=2"
)

for build in old new; do
  bin=$old
  [ $build = new ] && bin=$new
  for session in "${sessions[@]}"; do
    read -r name size moves handicap options <<<"$session"
    # shellcheck disable=SC2086
    script "$size" "$moves" "$handicap" |
      RUST_LOG=info "$bin" $options >"$out/$build.$name.out" 2>"$out/$build.$name.log" &
  done
  wait
done

# The move log lines without their times.
moves_logged() {
  grep -o 'move [0-9]*: [0-9]* \(visits\|playouts\).*' "$1" |
    sed 's/ \(visits\|playouts\) in [^(]*([0-9]*\/s)/ VISITS/'
}

status=0
for session in "${sessions[@]}"; do
  read -r name _ <<<"$session"
  if cmp -s "$out/old.$name.out" "$out/new.$name.out" &&
    diff -q <(moves_logged "$out/old.$name.log") <(moves_logged "$out/new.$name.log") >/dev/null; then
    echo "$name: same ($(grep -c '^= [A-Z][0-9]' "$out/new.$name.out") moves) -- $session"
  else
    echo "$name: DIFFERENT -- $session (see $out)"
    status=1
  fi
done
exit $status
