#!/usr/bin/env bash
# What one short GPU lease runs for issue 13, as one command: train the `gpu` recipes of the
# reader and the dense model (bench/train.sh, NevIR train + ExcluIR train triplets only), score
# a reader table recorded beforehand on the CPU machine (bench/reader_table.py), evaluate the
# trained dense model flat against its base on the test splits, and pack what comes back.
# Usage: OUT=DIR ASSETS=.gpu bash bench/gpu_lease.sh
#   ASSETS holds: minilm.tar.xz and splade.tar.xz (the base models' folders, weights as
#   model.fp16.safetensors: bench/model_parts.py widens them), train-data.tar.xz (nevir-train, excluir-train), test-data.tar.xz (test dataset folders),
#   pairs.json.xz (the recorded reader table). Wheels in .whl/ are installed first if present.
#   KINDS (default "reader dense splade snrelu"; bench/train.sh's names), DENSE_EVAL (datasets;
#   default nevir negconstraint excluir boolquestions), DENSE_SYSTEMS (run with the trained
#   dense model and its base; default "dense dense:auto hybrid hybrid:auto"), SPLADE_EVAL
#   (default nevir negconstraint), DENSE_MODELS and SPLADE_MODELS (the model folders evaluated;
#   default the trained dense, splade and snrelu and their bases), TRAIN_TIMEOUT (seconds per trainer; default 300), EVAL_TIMEOUT
#   (seconds per evaluation; default 150), EVAL_ARGS (more `logir eval` options, e.g. "--limit
#   5"), BRING_BACK (the trained model whose weights come back; default reader), TRAIN_ARGS (more
#   trainer options, after the recipe's: a quick trial on a CPU, e.g. "--max-steps 2 --batch-size 4").
#   Readers (reader, nreader) are also scored alone on NevIR's pairs (bench/reader_pairwise.py).
# Seen on one H200 (BENCHMARKS.md, "Learned logic on one H200"): the four trainers side by side
# took 183-263 s. Writes OUT/results.tar.gz (logs, eval JSON, model metadata, table scores) and
# OUT/MODEL/model.fp16.safetensors.partN (bench/model_parts.py join puts the model back).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:?set OUT}
ASSETS=${ASSETS:-.gpu}
PY=${PYTHON:-python3}
read -r -a kinds <<< "${KINDS:-reader dense splade snrelu}"
read -r -a dense_eval <<< "${DENSE_EVAL:-nevir negconstraint excluir boolquestions}"
read -r -a splade_eval <<< "${SPLADE_EVAL:-nevir negconstraint}"
declare -A BASE=([reader]=minilm [nreader]=minilm [dense]=minilm [ndense]=minilm [splade]=splade
  [snrelu]=splade [nsplade]=splade [nsnrelu]=splade)
declare -A FOLDER=([nevir]=nevir [negconstraint]=negconstraint [excluir]=excluir
  [boolquestions]=boolquestions-not [scifact]=scifact [comlq]=comlq)
# shellcheck source=bench/lease_lib.sh
. bench/lease_lib.sh
lease_start lease.log

pack() {
  say "packing"
  for kind in "${kinds[@]}"; do
    [ -f "runs/train/$kind/logir.json" ] && cp "runs/train/$kind/logir.json" "$R/$kind.logir.json"
  done
  local back=${BRING_BACK:-reader}
  if [ -f "runs/train/$back/model.safetensors" ] && [ -f "runs/train/$back/logir.json" ]; then
    lease_bring_back "runs/train/$back" "$back"
  fi
  lease_pack
}
trap pack EXIT

if compgen -G ".whl/*.whl" > /dev/null; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
lease_data || exit 1
for m in minilm splade; do
  [ -f "$ASSETS/$m.tar.xz" ] || continue
  lease_widen "$m" "/tmp/base/base-$m" || exit 1
done
"$PY" -c "import torch, transformers, sentence_transformers as s; print('torch', torch.__version__, 'transformers', transformers.__version__, 'sentence-transformers', s.__version__, torch.cuda.get_device_name(0))" >> "$R/gpu.txt" 2>&1
say "assets ready"

for kind in "${kinds[@]}"; do
  LOGIR_SHARED_DATASETS=/tmp/data PYTHON=$PY timeout "${TRAIN_TIMEOUT:-300}" \
    bash bench/train.sh "$kind" -- --base "/tmp/base/base-${BASE[$kind]}" --quiet ${TRAIN_ARGS:-} > "$R/train-$kind.log" 2>&1 &
done
wait
say "trained: $(grep -h "trained\|s wall" "$R"/train-*.log | tr '\n' ' ')"

if [ -f runs/train/reader/logir.json ] && [ -f "$ASSETS/pairs.json.xz" ]; then
  timeout "${EVAL_TIMEOUT:-150}" "$PY" bench/reader_table.py score --reader runs/train/reader --pairs "$ASSETS/pairs.json.xz" \
    --out "$R/scores.npy" > "$R/score.log" 2>&1 &
fi
for kind in reader nreader; do  # a reader alone on NevIR's pairs, its own measure
  [ -f "runs/train/$kind/logir.json" ] || continue
  for split in all logir-test; do
    timeout "${EVAL_TIMEOUT:-150}" "$PY" bench/reader_pairwise.py --reader "runs/train/$kind" \
      --data /tmp/data/nevir --split "$split" --out "$R/pairwise-$kind-$split.json" >> "$R/pairwise.log" 2>&1
  done &
done
evaluate() {  # RETRIEVER_OPTION MODEL DATASET SYSTEM...: systems on a test split
  local option=$1 model=$2 ds=$3 name; shift 3; name=$(basename "$model")
  local systems=(); for s in "$@"; do systems+=(-s "$s"); done
  timeout "${EVAL_TIMEOUT:-150}" "$PY" -c "from logir.cli import main; main()" eval "$ds" --data "/tmp/data/${FOLDER[$ds]}" \
    --split logir-test "${systems[@]}" "$option" "$model" ${EVAL_ARGS:-} \
    --out "$R/$ds-$name.json" --markdown --quiet > "$R/$ds-$name.md" 2>&1
}
read -r -a dense_systems <<< "${DENSE_SYSTEMS:-dense dense:auto hybrid hybrid:auto}"
export OMP_NUM_THREADS=${EVAL_THREADS:-2}  # one background job per dataset and model
read -r -a dense_models <<< "${DENSE_MODELS:-runs/train/dense /tmp/base/base-minilm}"
read -r -a splade_models <<< "${SPLADE_MODELS:-runs/train/splade runs/train/snrelu /tmp/base/base-splade}"
for ds in "${dense_eval[@]}"; do
  for model in "${dense_models[@]}"; do
    [ -f "$model/config.json" ] && evaluate --model "$model" "$ds" "${dense_systems[@]}" &
  done
done
for ds in "${splade_eval[@]}"; do
  for model in "${splade_models[@]}"; do
    [ -f "$model/config.json" ] && evaluate --splade-model "$model" "$ds" splade &
  done
done
wait
say "done"
