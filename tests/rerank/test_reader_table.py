"""bench/reader_table.py (pairs recorded here, scored elsewhere, served back) and
bench/model_parts.py (a model folder through a size-limited transfer) on a tiny reader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "bench" / "reader_table.py"
PARTS = ROOT / "bench" / "model_parts.py"

# asks the reader in argv[1] for two queries' passages and prints the scores as JSON
ASK = (
    "import json, sys\n"
    "from logir.rerank import load_reader\n"
    "r = load_reader(sys.argv[1])\n"
    "a = r.score('vitamin d', ['vitamin d helps bones', 'immune cells'])\n"
    "b = r.score('not immune', ['immune cells'])\n"
    "print(json.dumps([float(x) for x in list(a) + list(b)]))\n"
)


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_recorded_pairs_scored_then_replayed_give_the_readers_own_scores(
    reader_dir: Path, tmp_path: Path
) -> None:
    table = tmp_path / "table"
    ask = ["-c", ASK, str(reader_dir)]
    rec = _run(TABLE, "record", "--table", table, "--", sys.executable, *ask)
    assert rec.returncode == 0, rec.stderr
    assert json.loads(rec.stdout.splitlines()[-1]) == [0.0, 0.0, 0.0]  # the recorder answers 0
    packed = _run(TABLE, "pack", "--table", table, "--out", table / "pairs.json.xz")
    assert packed.returncode == 0, packed.stderr
    assert "3 pairs (2 queries, 2 passages)" in packed.stdout
    scored = _run(
        TABLE,
        "score",
        "--reader",
        reader_dir,
        "--pairs",
        table / "pairs.json.xz",
        "--out",
        table / "scores.npy",
        "--device",
        "cpu",
    )
    assert scored.returncode == 0, scored.stderr
    assert np.load(table / "scores.npy").shape == (3,)
    replay = _run(TABLE, "replay", "--table", table, "--", sys.executable, *ask)
    assert replay.returncode == 0, replay.stderr
    direct = _run(*ask)
    assert direct.returncode == 0, direct.stderr
    got = json.loads(replay.stdout.splitlines()[-1])
    want = json.loads(direct.stdout.splitlines()[-1])
    assert np.allclose(got, want, atol=1e-5)
    assert len(set(got)) > 1  # real scores, not the recorder's zeros


def test_a_pair_the_table_lacks_stops_the_replay(reader_dir: Path, tmp_path: Path) -> None:
    table = tmp_path / "table"
    one = (
        "import sys\nfrom logir.rerank import load_reader\n"
        "load_reader(sys.argv[1]).score('q', ['p'])"
    )
    assert (
        _run(
            TABLE, "record", "--table", table, "--", sys.executable, "-c", one, str(reader_dir)
        ).returncode
        == 0
    )
    assert _run(TABLE, "pack", "--table", table, "--out", table / "pairs.json.xz").returncode == 0
    np.save(table / "scores.npy", np.array([0.5], np.float32))
    other = one.replace("['p']", "['another passage']")
    replay = _run(
        TABLE, "replay", "--table", table, "--", sys.executable, "-c", other, str(reader_dir)
    )
    assert replay.returncode != 0
    assert "no score for query 'q'" in replay.stderr


def test_pack_names_the_broken_line(tmp_path: Path) -> None:
    table = tmp_path / "table"
    table.mkdir()
    (table / "recorded-1.jsonl").write_text('{"q": "a", "p": ["b"]}\nnot json\n')
    out = _run(TABLE, "pack", "--table", table, "--out", table / "pairs.json.xz")
    assert out.returncode != 0
    assert "recorded-1.jsonl:2" in out.stderr


def test_model_parts_round_trip_keeps_the_reader(reader_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("safetensors")
    from logir.rerank.reader import InferenceReader

    parts, back = tmp_path / "parts", tmp_path / "back"
    narrow = _run(PARTS, "narrow", reader_dir, parts, "--part-mb", "0.02")
    assert narrow.returncode == 0, narrow.stderr
    pieces = sorted(parts.glob("model.fp16.safetensors.part*"))
    assert len(pieces) > 1
    assert all(p.stat().st_size <= 20_000 for p in pieces)
    assert not (parts / "model.safetensors").exists()
    joined = _run(PARTS, "join", parts, back)
    assert joined.returncode == 0, joined.stderr
    passages = ["vitamin d helps bones", "immune cells", "bones and teeth"]
    before = InferenceReader(reader_dir, device="cpu").score("vitamin d", passages)
    after = InferenceReader(back, device="cpu").score("vitamin d", passages)
    assert np.allclose(before, after, atol=1e-2)  # float16 rounding of each weight
    assert np.argsort(before).tolist() == np.argsort(after).tolist()
