#!/usr/bin/env bash
# Rebuild the policy network from the shared game records, skipping the steps already done:
#
#   train/run.sh [extra train.py flags]        e.g. train/run.sh --samples 40000000
#
# 1. build hoshi (cargo build --release)
# 2. extract the games (GAMES_ARCHIVE) into WORK, unless WORK/go-games/Tom is there
# 3. write train/data/{train,test}.bin with `hoshi dataset`, unless both are there
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

if [[ -s "$DATA/train.bin" && -s "$DATA/test.bin" ]]; then
    step "dataset already in $DATA"
else
    step "writing the dataset into $DATA"
    rm -rf "$DATA/.partial"
    mkdir -p "$DATA/.partial"
    target/release/hoshi dataset --games "$GAMES" --out "$DATA/.partial"
    mv "$DATA/.partial/train.bin" "$DATA/.partial/test.bin" "$DATA/"
    rm -rf "$DATA/.partial"
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
