#!/usr/bin/env bash
# Rebuild the network (policy and value heads) from the shared game records, skipping the steps
# already done:
#
#   train/run.sh [extra train.py flags]        e.g. train/run.sh --samples 40000000
#
# 1. build hoshi (cargo build --release)
# 2. extract the games (GAMES_ARCHIVE) into WORK, unless WORK/go-games/Tom is there
# 3. write train/data/{train,test}.bin with `hoshi dataset`, unless both are there in format 2,
#    and train/data/ai.bin from go-games/AI likewise
# 4. make a Python venv (VENV) with train/requirements.txt, unless VENV/bin/python is there
# 5. train (or resume: the checkpoint is train/runs/NAME/checkpoint.pt; stopping with Ctrl-C
#    saves it, and running this again continues)
# 6. export weights/policy.hnet (OUT_NET)
#
# Settings (environment variables):
#   GAMES_ARCHIVE  the games archive (default ../shared/data/go-games.tar.xz from the repository)
#   WORK           where it is extracted (default train/data/games)
#   DATA           the dataset folder (default train/data)
#   VENV           the virtual environment (default train/venv; /work/venv style ones work too)
#   OUT_NET        the exported weights (default weights/policy.hnet)
#   TORCH_INDEX    pip index for torch (e.g. https://download.pytorch.org/whl/cpu for the small
#                  CPU-only wheels; default PyPI's, which bring CUDA)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
GAMES_ARCHIVE="${GAMES_ARCHIVE:-$ROOT/../shared/data/go-games.tar.xz}"
WORK="${WORK:-$ROOT/train/data/games}"
DATA="${DATA:-$ROOT/train/data}"
VENV="${VENV:-$ROOT/train/venv}"
OUT_NET="${OUT_NET:-$ROOT/weights/policy.hnet}"

step() { echo "== $*" >&2; }

step "building hoshi"
cargo build --release

GAMES="$WORK/go-games/Tom"
if [[ -f "$GAMES/Kifu.index" && -d "$GAMES/kifu" ]]; then
    step "games already in $GAMES"
else
    [[ -f "$GAMES_ARCHIVE" ]] || { echo "no games archive at $GAMES_ARCHIVE (set GAMES_ARCHIVE)" >&2; exit 1; }
    step "extracting $GAMES_ARCHIVE into $WORK"
    rm -rf "$WORK/.partial"
    mkdir -p "$WORK/.partial"
    tar -xJf "$GAMES_ARCHIVE" -C "$WORK/.partial"
    rm -rf "$WORK/go-games"
    mv "$WORK/.partial/go-games" "$WORK/go-games"
    rmdir "$WORK/.partial"
fi

# format 2 or 3 (HOSHIDS2, HOSHIDS3): the results the value head learns from; an older dataset is
# rebuilt (3 adds only the search's win rate, which people's games do not have)
format2() { [[ -s "$1" && "$(head -c 8 "$1")" =~ ^HOSHIDS[23]$ ]]; }
# dataset GAMES FILE...: writes the FILEs of `hoshi dataset --games GAMES` into DATA, all or none
dataset() {
    local games="$1"
    shift
    rm -rf "$DATA/.partial"
    mkdir -p "$DATA/.partial"
    target/release/hoshi dataset --games "$games" --out "$DATA/.partial"
    for file in "$@"; do mv "$DATA/.partial/$file" "$DATA/"; done
    rm -rf "$DATA/.partial"
}
if format2 "$DATA/train.bin" && format2 "$DATA/test.bin"; then
    step "dataset already in $DATA"
else
    step "writing the dataset into $DATA"
    dataset "$GAMES" train.bin test.bin
fi
# the programs' games, held out whole to measure on (train.py --evaluate)
if [[ -d "$WORK/go-games/AI" ]] && ! format2 "$DATA/ai.bin"; then
    step "writing $DATA/ai.bin"
    dataset "$WORK/go-games/AI" ai.bin
fi

if [[ -x "$VENV/bin/python" ]]; then
    step "using the venv $VENV"
else
    step "making the venv $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --upgrade pip
    if [[ -n "${TORCH_INDEX:-}" ]]; then
        "$VENV/bin/pip" install --index-url "$TORCH_INDEX" "$(grep '^torch==' train/requirements.txt)"
    fi
    "$VENV/bin/pip" install -r train/requirements.txt
fi

step "training (Ctrl-C saves the checkpoint; run again to resume)"
set +e
"$VENV/bin/python" -u train/train.py --data "$DATA" "$@"
status=$?
set -e
# 130: interrupted by Ctrl-C after saving; still export what there is
if [[ $status -ne 0 && $status -ne 130 ]]; then exit $status; fi

step "exporting $OUT_NET"
# the same run name as training: only the flags that choose it
name_flags=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --name|--checkpoint|--channels|--blocks) name_flags+=("$1" "$2"); shift 2 ;;
        --name=*|--checkpoint=*|--channels=*|--blocks=*) name_flags+=("$1"); shift ;;
        *) shift ;;
    esac
done
"$VENV/bin/python" train/train.py "${name_flags[@]}" --export "$OUT_NET"
