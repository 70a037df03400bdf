"""Loaded at start by every Python process that ``bench/reader_table.py record|replay`` runs
(this folder is put first on ``PYTHONPATH``): readers are replaced by one that records the pairs
it is asked for, or by one that answers from a table scored elsewhere. Without
``LOGIR_READER_TABLE`` in the environment it does nothing."""

from __future__ import annotations

import os

_TABLE = os.environ.get("LOGIR_READER_TABLE")
_MODE = os.environ.get("LOGIR_READER_TABLE_MODE", "")


def _install() -> None:
    import json
    import threading
    from pathlib import Path

    import numpy as np
    from reader_table import load_pairs  # bench/, on PYTHONPATH beside this folder

    import logir.rerank
    import logir.rerank.reader as reader_module
    from logir.errors import LogirError

    table = Path(str(_TABLE))

    class _Recorder:
        """Writes each (query, passages) it is asked for to recorded-PID.jsonl; answers 0."""

        def __init__(self, folder: Path) -> None:
            self.folder = folder
            self._lock = threading.Lock()
            self._file = (table / f"recorded-{os.getpid()}.jsonl").open("a", encoding="utf-8")

        @property
        def name(self) -> str:
            return str(self.folder)

        def score(self, query: str, passages: list[str]) -> np.ndarray:
            with self._lock:
                self._file.write(json.dumps({"q": query, "p": list(passages)}) + "\n")
                self._file.flush()
            return np.zeros(len(passages), np.float32)

    class _Table:
        """Answers from pairs.json.xz + scores.npy; a pair it lacks is an error."""

        def __init__(self, folder: Path) -> None:
            self.folder = folder
            queries, passages, pairs = load_pairs(table / "pairs.json.xz")
            scores = np.load(table / "scores.npy")
            if len(scores) != len(pairs):
                raise LogirError(f"{table}: {len(scores)} scores for {len(pairs)} pairs")
            self._scores = {
                (queries[qi], passages[pi]): float(s)
                for (qi, pi), s in zip(pairs, scores, strict=True)
            }

        @property
        def name(self) -> str:
            return str(self.folder)

        def score(self, query: str, passages: list[str]) -> np.ndarray:
            out = np.zeros(len(passages), np.float32)
            for i, p in enumerate(passages):
                found = self._scores.get((query, p))
                if found is None:
                    raise LogirError(
                        f"reader table {table}: no score for query {query[:80]!r} and passage "
                        f"{p[:80]!r}; record this command first"
                    )
                out[i] = found
            return out

    made: dict[str, object] = {}

    def load_reader(folder: object, device: str = "auto", precision: str = "auto") -> object:
        key = str(folder)
        if key not in made:
            path = Path(str(folder)).expanduser()
            made[key] = _Recorder(path) if _MODE == "record" else _Table(path)
        return made[key]

    reader_module.load_reader = load_reader  # type: ignore[assignment]
    logir.rerank.load_reader = load_reader  # type: ignore[attr-defined]


if _TABLE and _MODE in ("record", "replay"):
    _install()
