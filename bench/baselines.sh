#!/usr/bin/env bash
# Flat baselines (BM25, dense MiniLM, hybrid) on every dataset in ../shared/datasets.
# Writes results/baselines/<dataset>.{json,md} and runs/baselines/<dataset>/<system>.trec.
# Usage: bash bench/baselines.sh [DATASET ...]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/datasets.sh
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(comlq negconstraint boolquestions nevir excluir scifact demo)
mkdir -p results/baselines
for ds in "${sets[@]}"; do
  args=()
  [ "$ds" = demo ] || args=(--data "$DATA/${PATHS[$ds]}")
  echo "== $ds"
  /usr/bin/time -f "$ds: %e s wall, %M KB max RSS" \
    logir eval "$ds" "${args[@]}" -s bm25 -s dense -s hybrid \
      --runs-dir "runs/baselines/$ds" --out "results/baselines/$ds.json" --markdown \
      | tee "results/baselines/$ds.md"
done
