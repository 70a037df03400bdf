"""Training throughput and exact resume of `logir train` on any device, without the data or
the weights: a machine that has only torch, transformers and sentence-transformers runs it.

The base model is all-MiniLM-L6-v2's architecture (6 layers, 384 wide, 12 heads, 30,522-entry
vocabulary) with random weights and a synthetic one-token-per-word vocabulary; the triplets are
synthetic too, with the mean lengths of the default recipe's data (NevIR train + ExcluIR
triplets: query 20 words, passages 130 words, so about 150 tokens with the query). Steps cost
what the real recipe's steps cost on the same device; the losses and accuracies mean nothing.

For each kind: ``--steps`` steps through ``python -m logir.train.run`` (the real entry point, a
subprocess), steps/s timed from the trainer's own log (``PlainProgress``); then a 6-step run
straight and a 3 + 3 run stopped and resumed from its checkpoint, compared tensor by tensor.

Usage: python bench/train_probe.py --device cuda --steps 60 [--batch-size 16] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VOCAB = 30522


def _base(folder: Path, layers: int, width: int) -> Path:
    import torch
    import transformers

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    words += [f"w{i}" for i in range(VOCAB - len(words))]
    tokenizer = transformers.BertTokenizerFast(vocab={w: i for i, w in enumerate(words)})
    config = transformers.BertConfig(
        vocab_size=VOCAB,
        hidden_size=width,
        num_hidden_layers=layers,
        num_attention_heads=12,
        intermediate_size=4 * width,
        max_position_embeddings=512,
    )
    torch.manual_seed(0)
    transformers.BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _triplets(path: Path, n: int) -> Path:
    rng = random.Random(0)

    def text(words: int) -> str:
        return " ".join(f"w{rng.randrange(VOCAB - 5)}" for _ in range(words))

    with path.open("w", encoding="utf-8") as fh:
        for _ in range(n):
            row = {"query": text(20), "positive": text(130), "negative": text(130)}
            fh.write(json.dumps(row) + "\n")
    return path


def _run(args: list[str]) -> tuple[float, list[str]]:
    import subprocess

    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "logir.train.run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise SystemExit(f"train failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return time.monotonic() - t0, proc.stderr.splitlines()


def _rate(lines: list[str]) -> str:
    """The last steps/s figure the trainer printed."""
    rates = [ln.split("  ")[2] for ln in lines if ln.startswith("step ") and "steps/s" in ln]
    return rates[-1] if rates else "?"


def _same_weights(a: Path, b: Path) -> bool:
    import torch
    from safetensors.torch import load_file

    files = sorted(a.rglob("*.safetensors"))
    for path in files:
        x, y = load_file(path), load_file(b / path.relative_to(a))
        if x.keys() != y.keys() or not all(torch.equal(x[k], y[k]) for k in x):
            return False
    return bool(files)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="auto")
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--precision", default="auto")
    p.add_argument("--kinds", default="reader,dense")
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--width", type=int, default=384)
    p.add_argument("--out", default=None, help="write the figures as JSON here")
    a = p.parse_args()
    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        base = _base(work / "base", a.layers, a.width)
        data = _triplets(work / "triplets.jsonl", max(a.steps * a.batch_size + 64, 256))
        common = ["--data", str(data), "--base", str(base), "--device", a.device]
        common += ["--threads", str(a.threads), "--precision", a.precision, "--holdout", "0"]
        common += ["--batch-size", str(a.batch_size)]
        for kind in a.kinds.split(","):
            seconds, lines = _run(
                [kind, *common, "--out", str(work / kind), "--max-steps", str(a.steps)]
            )
            note = next((ln for ln in lines if ln.startswith("training a")), "")
            print(f"{kind}: {note}")
            print(f"{kind}: {a.steps} steps, {_rate(lines)}, {seconds:.1f} s with start-up")
            short = [*common, "--max-steps", "6", "--checkpoint-every", "3"]
            _run([kind, *short, "--out", str(work / f"{kind}-6")])
            stop = _stop_after(kind, short, work / f"{kind}-3+3")
            same = _same_weights(work / f"{kind}-6", work / f"{kind}-3+3")
            print(f"{kind}: 6 steps straight == 3 steps, stop, resume 3: {same} ({stop})")
            figures[kind] = {"rate": _rate(lines), "seconds": seconds, "resume_exact": same}
    if a.out:
        Path(a.out).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


def _stop_after(kind: str, args: list[str], out: Path) -> str:
    """Run 3 steps and stop (a checkpoint at step 3 stays), then resume to the end."""
    from logir.train.loop import train
    from logir.train.run import config_from, parser

    config = config_from(parser().parse_args([kind, *args, "--out", str(out), "--quiet"]))
    first = train(config, stop_after=3)
    kept = (out / "checkpoint.pt").is_file()
    _run([kind, *args, "--out", str(out)])
    return f"stopped at step {first.step}, checkpoint kept: {kept}"


if __name__ == "__main__":
    main()
