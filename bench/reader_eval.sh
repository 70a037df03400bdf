#!/usr/bin/env bash
# A trained reader over the TEST split of each benchmark: the flat first stage, the default
# composer and the reranked first stage in the same run (the reader's weight chosen on the tune
# splits with bench/tune_rerank.py). Writes results/reader/<dataset>.{json,md}.
# Usage: bash bench/reader_eval.sh READER_DIR [DATASET ...]
#   RERANK: the reranked systems as FIRST_STAGE,WEIGHT words (default "hybrid,0.5"; e.g.
#     RERANK="hybrid,1 hybrid:auto,0.2"), DEPTH (default 20),
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
read -r -a settings <<< "${RERANK:-hybrid,0.5}"
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
  systems=(-s hybrid -s hybrid:auto)
  for setting in "${settings[@]}"; do
    systems+=(-s "${setting%,*}+reader=$reader,depth=$depth,weight=${setting##*,}")
  done
  echo "== $ds (${systems[*]})"
  if [ "$ds" = comlq ]; then
    /usr/bin/time -f "$ds: %e s wall, %M KB max RSS" \
      python bench/comlq_generated.py --data "$DATA/comlq" --every "${COMLQ_EVERY:-1}" \
        "${systems[@]}" --runs-dir runs/reader/comlq \
        --out results/reader/comlq.json | tee results/reader/comlq.md
    continue
  fi
  /usr/bin/time -f "$ds: %e s wall, %M KB max RSS" \
    logir eval "$ds" --data "$DATA/${PATHS[$ds]}" --split logir-test "${limit[@]}" \
      "${systems[@]}" -m nDCG@10 -m MRR@10 -m R@100 \
      --out "results/reader/$ds.json" --markdown | tee "results/reader/$ds.md"
done
