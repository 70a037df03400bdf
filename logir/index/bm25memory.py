"""BM25 over texts held in memory, written in logir's compact posting format.

``build_index`` (the path of ``logir index`` with any retriever beside bm25) has the corpus in
memory. With ``postings="compact"`` its BM25 part is made as a streamed build of one shard makes
it: the texts' tokens counted with the analysis ``BM25Scorer.build`` uses, then written by
:func:`logir.index.bm25compact.write_compact` into a scratch folder and read back into memory;
``BM25Scorer.save`` copies the folder's files into the index (the scratch folder goes with the
scorer). The files are those ``logir index -r bm25 --postings compact`` writes for the same
documents, and the scores bm25s's plain files hold, bit for bit.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import weakref
from pathlib import Path

from logir.errors import LogirError
from logir.index.bm25compact import write_compact
from logir.index.bm25shards import METHOD, count_shard, write_shard
from logir.index.lexical import PARAMS_FILE, TOKENIZER, BM25Scorer, analyzer

__all__ = ["build_compact"]


def build_compact(
    texts: list[str], k1: float = 1.5, b: float = 0.75, method: str = METHOD
) -> BM25Scorer:
    """The BM25 scorer of `texts` (row order) in the compact format, loaded in memory."""
    if not texts:
        raise LogirError("cannot build a BM25 index over an empty corpus")
    if method != METHOD:
        raise LogirError(
            f"compact BM25 postings are written for method {METHOD!r}, not {method!r}; "
            "build plain postings (postings='plain', --postings plain) for it"
        )
    params = {
        "k1": k1,
        "b": b,
        "method": METHOD,
        "stemmer": "english",
        "stopwords": "en",
        "tokenizer": TOKENIZER,
        "postings": "compact",
    }
    scratch = Path(tempfile.mkdtemp(prefix="logir-bm25-compact-"))
    try:
        tokenize = analyzer(params["stemmer"], params["stopwords"], params["tokenizer"])
        shard = scratch / "shard"
        write_shard(shard, count_shard(tokenize(list(texts))))
        folder = scratch / "bm25"
        write_compact([shard], folder, float(k1), float(b))
        shutil.rmtree(shard)
        saved = {**params, "n_docs": len(texts)}
        (folder / PARAMS_FILE).write_text(json.dumps(saved, indent=2), encoding="utf-8")
        scorer = BM25Scorer.load(folder)  # not memory-mapped: the arrays are read
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    weakref.finalize(scorer, shutil.rmtree, scratch, True)
    return scorer
