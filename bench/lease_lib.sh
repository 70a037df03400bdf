# What the GPU lease scripts share (bench/gpu_lease.sh, bench/reader_sweep.sh); sourced, not run.
# Needs OUT (the folder that comes back), ASSETS (what travelled) and PY (the Python to use).
#   lease_start LOG      results folder R under OUT, the log R/LOG, say MESSAGE (timed lines to
#                        the log and stdout), the machine's GPU in R/gpu.txt
#   lease_data           every ASSETS/*-data.tar.xz unpacked into /tmp/data
#   lease_widen NAME DIR ASSETS/NAME.tar.xz (a model folder, float16 weights) as a float32
#                        model folder DIR (bench/model_parts.py widen)
#   lease_bring_back MODEL NAME
#                        MODEL's weights as float16 parts in OUT/NAME, its small files in R/NAME
#                        (bench/model_parts.py join puts them back together)
#   lease_pack           R as OUT/results.tar.gz

lease_start() {
  export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
  R=$OUT/results
  LEASE_LOG=$R/$1
  mkdir -p "$R"
  LEASE_T0=$(date +%s)
  say "start on $(hostname)"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$R/gpu.txt" 2>&1
}

say() { echo "[$(($(date +%s) - LEASE_T0)) s] $*" | tee -a "$LEASE_LOG"; }

lease_data() {
  mkdir -p /tmp/data
  local f
  for f in "$ASSETS"/*-data.tar.xz; do tar xJf "$f" -C /tmp/data || return 1; done
}

lease_widen() {
  mkdir -p /tmp/half
  tar xJf "$ASSETS/$1.tar.xz" -C /tmp/half || return 1
  "$PY" bench/model_parts.py widen "/tmp/half/$1" "$2" >> "$LEASE_LOG" 2>&1
}

lease_bring_back() {
  local parts=/tmp/$2-parts
  "$PY" bench/model_parts.py narrow "$1" "$parts" --part-mb 16 >> "$LEASE_LOG" 2>&1
  mkdir -p "$OUT/$2" "$R/$2"
  mv "$parts"/model.fp16.safetensors.part* "$OUT/$2/"
  cp -r "$parts/." "$R/$2/"
}

lease_pack() {
  tar czf "$OUT/results.tar.gz" -C "$OUT" results && rm -rf "$R"
}
