"""Carry a model folder through a size-limited transfer (e.g. a GPU lease's file limits).

    python bench/model_parts.py narrow MODEL_DIR OUT_DIR [--part-mb 15]   # fp16, in parts
    python bench/model_parts.py join OUT_DIR MODEL_DIR                     # back to fp32
    python bench/model_parts.py widen FP16_DIR MODEL_DIR                   # one fp16 file

``narrow`` copies the folder's small files and writes ``model.safetensors`` as float16 in
byte parts of at most ``--part-mb`` MB (``model.fp16.safetensors.part0`` ...). ``join``
concatenates the parts and ``widen`` takes a whole ``model.fp16.safetensors``; both write the
weights back as float32 ``model.safetensors``. The round trip rounds every weight to float16
(about 3 significant digits); say so wherever a figure comes from a joined model.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

WEIGHTS = "model.safetensors"
HALF = "model.fp16.safetensors"


def _copy_small(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        if f.name == WEIGHTS or f.name.startswith((HALF, "checkpoint")):
            continue
        if f.is_dir():
            shutil.copytree(f, dst / f.name, dirs_exist_ok=True)
        elif f.stat().st_size < 8_000_000:
            shutil.copy2(f, dst / f.name)


def narrow(src: Path, dst: Path, part_mb: float) -> None:
    from safetensors.torch import load_file, save_file

    _copy_small(src, dst)
    tensors = load_file(str(src / WEIGHTS))
    half = {k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in tensors.items()}
    whole = dst / HALF
    save_file(half, str(whole), metadata={"format": "pt"})
    data = whole.read_bytes()
    whole.unlink()
    size = int(part_mb * 1_000_000)
    for i in range(0, len(data), size):
        (dst / f"{HALF}.part{i // size}").write_bytes(data[i : i + size])
    print(f"{src} -> {dst}: {len(data) / 1e6:.1f} MB of float16 in {-(-len(data) // size)} parts")


def _widen_file(half: Path, dst: Path) -> None:
    import torch
    from safetensors.torch import load_file, save_file

    tensors = load_file(str(half))
    save_file(
        {k: (v.to(torch.float32) if v.is_floating_point() else v) for k, v in tensors.items()},
        str(dst / WEIGHTS),
        metadata={"format": "pt"},
    )


def join(src: Path, dst: Path) -> None:
    parts = sorted(src.glob(f"{HALF}.part*"), key=lambda p: int(p.name.rsplit("part", 1)[1]))
    if not parts:
        raise SystemExit(f"no {HALF}.partN files in {src}")
    _copy_small(src, dst)
    whole = dst / HALF
    with whole.open("wb") as fh:
        for p in parts:
            fh.write(p.read_bytes())
    _widen_file(whole, dst)
    whole.unlink()
    print(f"{src} ({len(parts)} parts) -> {dst}/{WEIGHTS} (float32)")


def widen(src: Path, dst: Path) -> None:
    if not (src / HALF).is_file():
        raise SystemExit(f"no {HALF} in {src}")
    _copy_small(src, dst)
    _widen_file(src / HALF, dst)
    print(f"{src}/{HALF} -> {dst}/{WEIGHTS} (float32)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verb", choices=("narrow", "join", "widen"))
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    ap.add_argument("--part-mb", type=float, default=15.0)
    args = ap.parse_args(argv)
    if not args.src.is_dir():
        raise SystemExit(f"not a folder: {args.src}")
    {
        "narrow": lambda: narrow(args.src, args.dst, args.part_mb),
        "join": lambda: join(args.src, args.dst),
        "widen": lambda: widen(args.src, args.dst),
    }[args.verb]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
