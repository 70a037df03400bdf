"""bench/make_corpus.py at a tiny size: deterministic, a prefix per size, queries that parse."""

from __future__ import annotations

import json
from pathlib import Path

from bench.make_corpus import main
from logir.query import parse, terms

SENTENCES = [
    "Aspirin reduces fever in adults.",
    "The river flows through the valley town.",
    "Bacteria resist common antibiotics in hospitals.",
    "The novel describes a sailor lost at sea.",
    "Volcanic ash covered the valley town for weeks.",
    "Children learn languages faster than adults.",
]


def _datasets(root: Path) -> Path:
    for name, first in (("comlq", 0), ("scifact", 3)):
        rows = []
        for i in range(40):
            a, b = SENTENCES[(first + i) % 6], SENTENCES[(first + 2 * i + 1) % 6]
            rows.append({"_id": f"{name}{i}", "title": f"T{i % 3}", "text": f"{a} {b}"})
        (root / name).mkdir(parents=True)
        with (root / name / "corpus.jsonl").open("w") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in rows)
    return root


def _make(tmp: Path, data: Path, n: int, seed: int = 7) -> tuple[list[dict], list[dict]]:
    out = tmp / f"c{n}-{seed}"
    args = ["--out", str(out), "--n", str(n), "--seed", str(seed), "--queries", "4"]
    assert main([*args, "--datasets", str(data)]) == 0
    read = lambda name: [json.loads(x) for x in (out / name).read_text().splitlines()]  # noqa: E731
    return read("corpus.jsonl"), read("queries.jsonl")


def test_the_corpus_is_made_of_real_sentences_and_the_same_for_the_same_seed(
    tmp_path: Path,
) -> None:
    data = _datasets(tmp_path / "datasets")
    docs, queries = _make(tmp_path, data, 30)
    assert [d["_id"] for d in docs] == [f"p{i:07d}" for i in range(30)]
    for d in docs:
        assert d["text"] and all(s + "." in SENTENCES for s in d["text"].rstrip(".").split(". "))
        assert d["title"] in ("T0", "T1", "T2")
    again, _ = _make(tmp_path / "again", data, 30)
    assert again == docs
    longer, _ = _make(tmp_path, data, 45)
    assert longer[:30] == docs  # a smaller size is a prefix of a larger one
    other, _ = _make(tmp_path, data, 30, seed=8)
    assert other != docs
    assert len(queries) == 4
    for q in queries:
        assert len(terms(parse(q["text"]))) == 3
