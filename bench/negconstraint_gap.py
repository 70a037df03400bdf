"""Why NegConstraint's union categories resist exclusion: does the violating passage mention
what the query excludes?

    python bench/negconstraint_gap.py [--split logir-test]

For every query, the excluded terms come from logir's decomposition (logir.query.natural). A
passage *mentions* an excluded term when it contains every content word of it (lower-cased, stop
words removed, a light suffix strip); *partly* when it contains at least one. Printed per
category: how often the violating and the satisfying passage mention an excluded term.
A logical composer can only push down a violating passage by what it shares with the excluded
term, so where the violating passage does not mention it, the exclusion has nothing to act on.
"""

from __future__ import annotations

import argparse
import os
import re
from collections import defaultdict
from pathlib import Path

from logir.data.benchmarks import load_benchmark
from logir.data.splits import select_split
from logir.query import negated_terms
from logir.query.understand import understand

DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", "../shared/datasets"))
_STOP_WORDS = (
    "a an the of in on at to for and or with by from its his her their this that these those "
    "is are was were be as about into any other than use role specific"
)
STOP = frozenset(_STOP_WORDS.split(" "))


def stem(word: str) -> str:
    for suffix in ("ments", "ment", "ings", "ing", "ies", "es", "s", "ed"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def words(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP}


def mention(term: str, passage: set[str]) -> str:
    need = words(term)
    if not need:
        return "none"
    hit = need & passage
    return "full" if hit == need else "part" if hit else "none"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="logir-test")
    args = ap.parse_args()
    ds = select_split(load_benchmark("negconstraint", DATA / "negconstraint"), args.split)
    docs = {d.id: words(d.full_text) for d in ds.corpus}
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for topic in ds.queries:
        negated = [t.text for t in negated_terms(understand(topic.text, "auto").query)]
        c = counts[topic.type or "-"]
        c["n"] += 1
        roles = (("violating", ds.violating[topic.id]), ("satisfying", ds.qrels[topic.id]))
        for role, ids in roles:
            for doc in ids:
                kinds = {mention(t, docs[doc]) for t in negated} or {"none"}
                best = "full" if "full" in kinds else "part" if "part" in kinds else "none"
                c[f"{role}:{best}"] += 1
                c[f"{role}:all"] += 1
    print(
        "| category | n | violating mentions it (all words) | violating: some words | "
        "violating: none | satisfying mentions it (all words) |"
    )
    print("|---|---|---|---|---|---|")
    for cat, c in sorted(counts.items()):
        v, s = c["violating:all"], c["satisfying:all"]
        print(
            f"| {cat} | {c['n']} | {100 * c['violating:full'] / v:.1f} % | "
            f"{100 * c['violating:part'] / v:.1f} % | {100 * c['violating:none'] / v:.1f} % | "
            f"{100 * c['satisfying:full'] / s:.1f} % |"
        )


if __name__ == "__main__":
    main()
