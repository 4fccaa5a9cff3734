#!/bin/bash
# Whether resignations were sound: for every game of the given `hoshi match` directories
# (each with its results.tsv and game-NNNN.sgf) that ended by resignation, GNU Go 3.8's
# estimate_score of the final position, beside the result. A line whose estimate names the
# other side than the result is a resignation in a position GNU Go thinks was not lost.
#
#     bench/resign_check.sh calibration/*/ > resignations.tsv
#     awk -F'\t' 'substr($2,1,1) != substr($3,1,1)' resignations.tsv
#
# GNU Go is `gnugo` on the PATH or $GNUGO; it counts by area (--chinese-rules).
gnugo=${GNUGO:-gnugo}
for dir in "$@"; do
  dir=${dir%/}
  [ -f "$dir/results.tsv" ] || { echo "$dir: no results.tsv" >&2; continue; }
  tail -n +2 "$dir/results.tsv" | while IFS=$'\t' read -r game _black _white result _rest; do
    case "$result" in *+R) ;; *) continue ;; esac
    sgf=$(printf "%s/game-%04d.sgf" "$dir" "$game")
    estimate=$(printf 'loadsgf %s\nestimate_score\nquit\n' "$sgf" |
      timeout 120 "$gnugo" --mode gtp --chinese-rules 2>/dev/null | grep '^= [BW]' | head -1 | cut -c3-)
    printf '%s\t%s\t%s\n' "$sgf" "$result" "$estimate"
  done
done
