#!/usr/bin/env bash
# Train the default logir models on NevIR train + ExcluIR train triplets (never a test split).
# Writes runs/train/<kind>/ (a model folder; rerunning the same command resumes a killed run).
# Usage: bash bench/train.sh [reader|dense|splade|snrelu ...] [-- TRAINER OPTIONS]
#   (default: all four; snrelu is `splade --activation snrelu`, written to runs/train/snrelu;
#   nreader, ndense, nsplade and nsnrelu are the gpu recipes trained on NevIR train alone, the
#   set-compositional paper's setting, written to runs/train/n*; not in the default)
#   RECIPE=cpu (default without a GPU): sized from the measured CPU time per step to finish in
#     about 30 minutes on an idle 2-core CPU (reader, dense: 110 steps of 16 examples, about 0.4
#     epoch; splade-tiny: 200 steps; see BENCHMARKS.md).
#     The reader's CPU recipe is the one measured in BENCHMARKS.md ("Learned logic: trained
#     reader"): one passage of another query per list, lr 1e-4; with only the hard negative and
#     lr 3e-5 its loss stayed at ln 2 for 31 steps.
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
[ ${#kinds[@]} -gt 0 ] || kinds=(reader dense splade snrelu)
if [ -z "${RECIPE:-}" ]; then
  RECIPE=$("$PY" -c 'import torch; print("gpu" if torch.cuda.is_available() else "cpu")')
fi
both=(--data "$DATA/nevir-train" --data "$DATA/excluir-train/train-triplets.jsonl")
declare -A RECIPES=(
  [cpu-reader]="--batch-size 16 --others 1 --max-length 160 --max-steps 110 --lr 1e-4 --warmup 0.1 --holdout-max 100 --checkpoint-every 10"
  [cpu-dense]="--batch-size 16 --max-length 192 --max-steps 110 --lr 3e-5 --holdout-max 100 --checkpoint-every 10"
  [gpu-reader]="--batch-size 32 --others 2 --max-length 256 --epochs 8 --lr 2e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-dense]="--batch-size 64 --max-length 256 --epochs 8 --lr 2e-5 --holdout-max 300 --checkpoint-every 200"
  [cpu-splade]="--batch-size 16 --max-length 192 --max-steps 200 --lr 5e-5 --holdout-max 100 --checkpoint-every 20"
  [cpu-snrelu]="--activation snrelu --batch-size 16 --max-length 192 --max-steps 200 --lr 5e-5 --holdout-max 100 --checkpoint-every 20"
  [gpu-splade]="--batch-size 32 --max-length 256 --epochs 8 --lr 5e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-snrelu]="--activation snrelu --batch-size 32 --max-length 256 --epochs 8 --lr 5e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-ndense]="--batch-size 64 --max-length 256 --epochs 8 --lr 2e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-nsplade]="--batch-size 32 --max-length 256 --epochs 8 --lr 5e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-nsnrelu]="--activation snrelu --batch-size 32 --max-length 256 --epochs 8 --lr 5e-5 --holdout-max 300 --checkpoint-every 200"
  [gpu-nreader]="--batch-size 16 --others 0 --max-length 320 --epochs 10 --lr 3e-5 --warmup 0.1 --holdout-max 200 --checkpoint-every 200"
)
declare -A TRAINER=([reader]=reader [dense]=dense [splade]=splade [snrelu]=splade [nreader]=reader [ndense]=dense [nsplade]=splade [nsnrelu]=splade)
mkdir -p runs/train
for kind in "${kinds[@]}"; do
  recipe=${RECIPES[$RECIPE-$kind]:?"no $RECIPE recipe for $kind (kinds: ${!TRAINER[*]})"}
  data=("${both[@]}")
  case $kind in n*) data=(--data "$DATA/nevir-train") ;; esac
  echo "== $kind ($RECIPE recipe)"
  timer=()  # wall time and peak memory where GNU time is installed
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f "$kind: %e s wall, %M KB max RSS")
  # shellcheck disable=SC2086  # the recipe is a word list
  "${timer[@]}" "$PY" -m logir.train.run "${TRAINER[$kind]}" "${data[@]}" --out "runs/train/$kind" $recipe "$@"
done
echo "evaluate: logir eval nevir --data $DATA/nevir -s dense --model runs/train/dense"
echo "          logir index CORPUS --out IDX -r splade --splade-model runs/train/snrelu"
