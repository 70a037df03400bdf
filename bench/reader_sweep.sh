#!/usr/bin/env bash
# Reader recipes for NevIR, side by side on one GPU lease (issue 13, acceptance 1). Earlier
# leases trained the reader on NevIR train at lr 2e-5 to 3e-5 and its loss never left ln 2
# (BENCHMARKS.md, "Learned logic on one H200, second lease"). This trains several recipes at
# once (higher learning rates, more epochs, fp32, one other passage per list, ExcluIR mixed
# in), scores each alone on NevIR's pairs (bench/reader_pairwise.py) on logir-tune, which
# chooses, and on logir-test, which reports, and brings back the chosen reader's weights.
# Training data: NevIR train and ExcluIR train triplets only.
# Usage: OUT=DIR ASSETS=.gpu bash bench/reader_sweep.sh
#   ASSETS holds minilm.tar.xz (the base model's folder, weights as model.fp16.safetensors),
#   train-data.tar.xz (nevir-train, excluir-train) and test-data.tar.xz (with nevir/).
#   RUNS (names from the table below; default all), TRAIN_TIMEOUT (seconds; default 400),
#   EVAL_TIMEOUT (seconds per scoring; default 90), TRAIN_ARGS (more trainer options after
#   the recipe's: a quick trial on a CPU, e.g. "--max-steps 2 --batch-size 4"), PAIR_ARGS
#   (more bench/reader_pairwise.py options, e.g. "--limit 3").
# Rerun on the same machine, it resumes a killed run from its last checkpoint (every 400 steps)
# and keeps a finished one (its log says so), then scores them all again.
# Writes OUT/results.tar.gz (logs, the models' logir.json, pairwise JSON, choice.txt) and
# OUT/chosen/model.fp16.safetensors.partN (bench/model_parts.py join puts the model back).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:?set OUT}
ASSETS=${ASSETS:-.gpu}
PY=${PYTHON:-python3}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
# shellcheck source=bench/lease_lib.sh
. bench/lease_lib.sh
lease_start sweep.log

N=/tmp/data/nevir-train
E=/tmp/data/excluir-train/train-triplets.jsonl
COMMON="--batch-size 16 --others 0 --max-length 256 --warmup 0.1 --holdout-max 200 --checkpoint-every 400 --threads 2 --quiet"
declare -A RECIPE=(
  [n-lr5e5]="--data $N --lr 5e-5 --epochs 12"
  [n-lr1e4]="--data $N --lr 1e-4 --epochs 12"
  [n-lr2e4]="--data $N --lr 2e-4 --epochs 12"
  [n-lr1e4-fp32]="--data $N --lr 1e-4 --epochs 12 --precision fp32"
  [n-lr1e4-o1]="--data $N --lr 1e-4 --epochs 12 --others 1"
  [ne-lr1e4]="--data $N --data $E --lr 1e-4 --epochs 5"
)
read -r -a runs <<< "${RUNS:-n-lr5e5 n-lr1e4 n-lr2e4 n-lr1e4-fp32 n-lr1e4-o1 ne-lr1e4}"

pack() {
  say "packing"
  for name in "${runs[@]}"; do
    [ -f "runs/sweep/$name/logir.json" ] && cp "runs/sweep/$name/logir.json" "$R/$name.logir.json"
  done
  local chosen
  chosen=$(cat "$R/choice.txt" 2>/dev/null | head -1)
  if [ -n "$chosen" ] && [ -f "runs/sweep/$chosen/model.safetensors" ]; then
    lease_bring_back "runs/sweep/$chosen" chosen
  fi
  lease_pack
}
trap pack EXIT

lease_data || exit 1
lease_widen minilm /tmp/base-minilm || exit 1
"$PY" -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__, torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'cpu')" >> "$R/gpu.txt" 2>&1
# cuDNN's attention stopped a reader with other jobs on the GPU in session 20
# (mha_graph.execute ... is_good()): every Python here runs without it
mkdir -p /tmp/sitefix
printf '%s\n' 'try:' '    import torch' '    torch.backends.cuda.enable_cudnn_sdp(False)' 'except Exception:' '    pass' \
  > /tmp/sitefix/sitecustomize.py
export PYTHONPATH=/tmp/sitefix:$PYTHONPATH
say "assets ready"

for name in "${runs[@]}"; do
  recipe=${RECIPE[$name]:?"no recipe $name (recipes: ${!RECIPE[*]})"}
  timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f "$name: %e s wall, %M KB max RSS")
  # shellcheck disable=SC2086  # recipes are word lists
  timeout "${TRAIN_TIMEOUT:-400}" "${timer[@]}" "$PY" -m logir.train.run reader $COMMON $recipe \
    --base /tmp/base-minilm --out "runs/sweep/$name" ${TRAIN_ARGS:-} > "$R/train-$name.log" 2>&1 &
done
wait
say "trained: $(for n in "${runs[@]}"; do [ -f "runs/sweep/$n/logir.json" ] && printf "%s " "$n"; done)"

export OMP_NUM_THREADS=2
for name in "${runs[@]}"; do
  [ -f "runs/sweep/$name/logir.json" ] || continue
  for split in logir-tune logir-test; do
    # shellcheck disable=SC2086
    timeout "${EVAL_TIMEOUT:-90}" "$PY" bench/reader_pairwise.py --reader "runs/sweep/$name" \
      --data /tmp/data/nevir --split "$split" --out "$R/pairwise-$name-$split.json" ${PAIR_ARGS:-} \
      > "$R/pairwise-$name-$split.log" 2>&1
  done &
done
wait
# the choice: the best pair accuracy on logir-tune (ties: the earlier run in RUNS)
"$PY" - "$R" "${runs[@]}" > "$R/choice.txt" <<'EOF'
import json, sys
from pathlib import Path
root, names = Path(sys.argv[1]), sys.argv[2:]
best = None
for name in names:
    f = root / f"pairwise-{name}-logir-tune.json"
    if f.exists():
        acc = json.loads(f.read_text())["pair_accuracy"]
        if best is None or acc > best[1]:
            best = (name, acc)
print(best[0] if best else "")
EOF
say "chosen on logir-tune: $(cat "$R/choice.txt")"
say "done"
