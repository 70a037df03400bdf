#!/usr/bin/env bash
# Train the default logir models on NevIR train + ExcluIR train triplets (never a test split).
# Writes runs/train/<kind>/ (a model folder; rerunning the same command resumes a killed run).
# Usage: bash bench/train.sh [reader|dense ...] [-- TRAINER OPTIONS]   (default: reader dense)
#   RECIPE=cpu (default without a GPU): sized to finish in about 30 minutes on an idle 2-core
#     CPU (110 steps of 16 examples, about 0.4 epoch; see BENCHMARKS.md for the measured cost).
#   RECIPE=gpu (default when torch sees a GPU): 8 epochs; about 8 steps/s on one H200.
# Only torch, transformers, sentence-transformers and numpy are needed (python -m
# logir.train.run), so it runs on a machine without logir's CLI dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${LOGIR_SHARED_DATASETS:-../shared/datasets}
PY=${PYTHON:-python}
kinds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do kinds+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ ${#kinds[@]} -gt 0 ] || kinds=(reader dense)
if [ -z "${RECIPE:-}" ]; then
  RECIPE=$("$PY" -c 'import torch; print("gpu" if torch.cuda.is_available() else "cpu")')
fi
data=(--data "$DATA/nevir-train" --data "$DATA/excluir-train/train-triplets.jsonl")
declare -A RECIPES=(
  [cpu-reader]="--batch-size 16 --others 0 --max-length 192 --max-steps 110 --lr 3e-5 --holdout-max 100 --checkpoint-every 10"
  [cpu-dense]="--batch-size 16 --max-length 192 --max-steps 110 --lr 3e-5 --holdout-max 100 --checkpoint-every 10"
  [gpu-reader]="--batch-size 32 --others 2 --max-length 256 --epochs 8 --lr 2e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-dense]="--batch-size 64 --max-length 256 --epochs 8 --lr 2e-5 --holdout-max 300 --checkpoint-every 200"
)
mkdir -p runs/train
for kind in "${kinds[@]}"; do
  recipe=${RECIPES[$RECIPE-$kind]:?"no $RECIPE recipe for $kind (reader, dense)"}
  echo "== $kind ($RECIPE recipe)"
  # shellcheck disable=SC2086  # the recipe is a word list
  /usr/bin/time -f "$kind: %e s wall, %M KB max RSS" \
    "$PY" -m logir.train.run "$kind" "${data[@]}" --out "runs/train/$kind" $recipe "$@"
done
echo "evaluate: logir eval nevir --data $DATA/nevir -s dense --model runs/train/dense"
