"""Which words of the first-hour passages come close to the terms their queries exclude.

    python bench/kind_words.py --index IDX [--data examples/first-hour]

For every query that `auto` ranks as an exclusion, and each excluded term T (the reader's, less
the words the positive part shares with it), prints for each violating and each relevant (grade 2)
passage its asserted word closest to T, each word embedded alone with the index's dense encoder
(what logir.logic.kinds reads; the words of T and of the positive part left out), and last, for a
few thresholds, how many violating and relevant passages have such a word at or above it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from logir import Searcher
from logir.data.benchmarks.first_hour import EXAMPLE_DIR, load_first_hour
from logir.index.base import DENSE_PART, LEXICAL_PART, scorer_parts
from logir.logic.auto import Auto, distinct_words
from logir.logic.mentions import mention_counts

THRESHOLDS = (0.55, 0.6, 0.65, 0.7, 0.75)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=EXAMPLE_DIR)
    args = ap.parse_args()
    ds = load_first_hour(args.data)
    searcher = Searcher(args.index)
    _, scorer = searcher.scorer()
    dense, lexical = scorer_parts(scorer)[DENSE_PART], scorer_parts(scorer)[LEXICAL_PART]
    row = {d: i for i, d in enumerate(searcher.index.doc_ids)}
    passages = searcher.index.passages
    analyse = lexical.analyse  # type: ignore[attr-defined]

    def closest(text: str, term: str, positive: str) -> tuple[float, str]:
        skip = {tok for _, tok in analyse(f"{term} {positive}") if tok}
        words: dict[str, str] = {}
        for word, tok in analyse(text):
            if tok and tok not in skip and len(word) >= 3 and word.isalpha():
                words.setdefault(tok, word)
        said = mention_counts(text, set(words), analyse)
        kept = [t for t in words if t in said and said[t].asserted > 0]
        if not kept:
            return 0.0, ""
        cos = dense.encode_words([words[t] for t in kept]) @ dense.encode_words([term])[0]  # type: ignore[attr-defined]
        best = int(np.argmax(cos))
        return float(cos[best]), words[kept[best]]

    auto = Auto()
    found: list[tuple[list[float], list[float]]] = []
    for topic in ds.queries:
        bad = sorted(ds.violating.get(topic.id, ()))
        plan = auto.plan(searcher.read(topic.text))
        if not bad or plan.kind != "exclude":
            continue
        good = sorted(d for d, g in ds.qrels[topic.id].items() if g == 2 and d not in bad)
        for term in plan.negated:
            term = distinct_words(term, plan.positive) if plan.positive else term
            print(f"{topic.id} NOT {term!r}   ({topic.text})")
            pair: tuple[list[float], list[float]] = ([], [])
            for label, docs, into in (("violating", bad, pair[0]), ("relevant", good, pair[1])):
                cells = []
                for d in docs:
                    c, w = closest(passages[row[d]], term, plan.positive)
                    into.append(c)
                    cells.append(f"{d} {w or '-'} {c:.2f}")
                print(f"  {label:>9}: " + ", ".join(cells))
            found.append(pair)
    n_bad = sum(len(b) for b, _ in found)
    n_good = sum(len(g) for _, g in found)
    for t in THRESHOLDS:
        hit_bad = sum(c >= t for b, _ in found for c in b)
        hit_good = sum(c >= t for _, g in found for c in g)
        print(f"cos >= {t}: violating {hit_bad} of {n_bad}, relevant {hit_good} of {n_good}")


if __name__ == "__main__":
    main()
