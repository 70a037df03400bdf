#!/usr/bin/env bash
# Composers vs flat on the TEST split of every dataset (parameters were chosen on the tune split).
# Writes results/composers/<dataset>.{json,md}.   Usage: bash bench/composers.sh [DATASET ...]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/datasets.sh
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(negconstraint boolquestions excluir nevir scifact comlq)
SYSTEMS=(-s hybrid -s bm25 -s dense -s bm25:fuzzy -s dense:fuzzy -s bm25:sets
         -s hybrid:exclusion -s hybrid:auto -s dense:auto -s bm25:auto)
mkdir -p results/composers
for ds in "${sets[@]}"; do
  echo "== $ds"
  logir eval "$ds" --data "$DATA/${PATHS[$ds]}" --split logir-test "${SYSTEMS[@]}" \
    --out "results/composers/$ds.json" --markdown | tee "results/composers/$ds.md"
done
