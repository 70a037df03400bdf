#!/usr/bin/env bash
# A trained reader over the TEST split of each benchmark: the flat first stage, the default
# composer and the reranked first stage in the same run (the reader's weight chosen on the tune
# splits with bench/tune_rerank.py). Writes results/reader/<dataset>.{json,md}.
# Usage: bash bench/reader_eval.sh READER_DIR [DATASET ...]
#   FIRST (first stage, default hybrid), DEPTH (default 20), WEIGHT (default 0.5),
#   NEVIR_DEPTH (default 10; bench/pair_depth.py shows how many pairs the flat top N holds whole),
#   LIMIT (first N test queries of NegConstraint, ExcluIR, BoolQuestions, SciFact; default all),
#   NEVIR_LIMIT (first N NevIR test queries, whole pairs; default all),
#   COMLQ_EVERY (every Nth ComLQ test query, each type kept; default 1: all).
# ComLQ goes through bench/comlq_generated.py (with and without its LLM-written passages).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/datasets.sh
reader=${1:?usage: bash bench/reader_eval.sh READER_DIR [DATASET ...]}
shift
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(negconstraint excluir boolquestions nevir scifact comlq)
FIRST=${FIRST:-hybrid}
mkdir -p results/reader
for ds in "${sets[@]}"; do
  depth=${DEPTH:-20}
  limit=()
  if [ "$ds" = nevir ]; then
    depth=${NEVIR_DEPTH:-10}
    [ -z "${NEVIR_LIMIT:-}" ] || limit=(--limit "$NEVIR_LIMIT")
  elif [ -n "${LIMIT:-}" ]; then
    limit=(--limit "$LIMIT")
  fi
  reranked="$FIRST+reader=$reader,depth=$depth,weight=${WEIGHT:-0.5}"
  echo "== $ds ($reranked)"
  if [ "$ds" = comlq ]; then
    /usr/bin/time -f "$ds: %e s wall, %M KB max RSS" \
      python bench/comlq_generated.py --data "$DATA/comlq" --every "${COMLQ_EVERY:-1}" \
        -s hybrid -s hybrid:auto -s "$reranked" --runs-dir runs/reader/comlq \
        --out results/reader/comlq.json | tee results/reader/comlq.md
    continue
  fi
  /usr/bin/time -f "$ds: %e s wall, %M KB max RSS" \
    logir eval "$ds" --data "$DATA/${PATHS[$ds]}" --split logir-test "${limit[@]}" \
      -s hybrid -s hybrid:auto -s "$reranked" -m nDCG@10 -m MRR@10 -m R@100 \
      --out "results/reader/$ds.json" --markdown | tee "results/reader/$ds.md"
done
