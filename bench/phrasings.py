"""Score the natural-language reader on hand-written phrasings (what tests/query/test_phrasings.py
asserts), with and without spaCy, and list the misses.

    python bench/phrasings.py ../shared/phrasings/phrasings.jsonl tests/query/phrasings_extra.jsonl
    python bench/phrasings.py bench/handwritten/excluir27.jsonl bench/handwritten/nevir23.jsonl

Each file holds JSON lines ``{"id", "text", "forms", "negation"}``, or a hand-written set's
``{"id", "text", "form", "negation", ...}`` (its one form: the judge's shorthand, which few
readings match word for word, so there the plan counts are the figures to read). With several
files a last line sums them. A reading (``read(text,
"auto")``, what ``logir search`` does) matches when ``logir.query.compare.same_form`` holds for one
of the forms. ``auto`` is right on an ``exclude`` query when it plans an exclusion, on a
``predicate`` query when it ranks flat, on a ``none`` query when it ranks flat and the reading
has no NOT and no negation cue.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KINDS = ("exclude", "predicate", "none")


def score(path: Path) -> tuple[str, list[str], dict[str, int]]:
    """One summary line for ``path``, the misses, and the counts behind the line."""
    from logir.logic.auto import Auto
    from logir.query import n_negations
    from logir.query.compare import same_form
    from logir.query.reading import read

    auto = Auto()
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    matched = 0
    right = dict.fromkeys(KINDS, 0)
    total = dict.fromkeys(KINDS, 0)
    misses: list[str] = []
    for r in rows:
        reading = read(r["text"], "auto")
        forms = r["forms"] if "forms" in r else [r["form"]]
        if any(same_form(f, reading.query) for f in forms):
            matched += 1
        else:
            misses.append(f"  {r['id']} form: {r['text']!r} -> {reading.logical_form}")
        kind, plan = r["negation"], auto.plan(reading).kind
        total[kind] += 1
        ok = {
            "exclude": plan == "exclude",
            "predicate": plan == "flat",
            "none": plan == "flat"
            and n_negations(reading.query) == 0
            and not any(c.startswith("negation:") for c in reading.cues),
        }[kind]
        right[kind] += ok
        if not ok:
            misses.append(f"  {r['id']} plan: {kind} query planned {plan}: {r['text']!r}")
    counts = {"forms": matched, "rows": len(rows)}
    for k in KINDS:
        counts[f"right {k}"], counts[f"total {k}"] = right[k], total[k]
    return summary(path.name, counts), misses, counts


def summary(name: str, c: dict[str, int]) -> str:
    """``name: forms M/N; auto right on exclude a/b, predicate c/d, none e/f``."""
    kinds = ", ".join(f"{k} {c[f'right {k}']}/{c[f'total {k}']}" for k in KINDS)
    return f"{name}: forms {c['forms']}/{c['rows']}; auto right on {kinds}"


def main() -> None:
    from logir.query.natural import nlp

    args = sys.argv[1:]
    if not args or any(a in ("-h", "--help") for a in args):
        sys.exit(__doc__)
    paths = [Path(p) for p in args]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        sys.exit(f"error: no such file: {', '.join(missing)}")
    for parser in ("spacy", "regex"):
        if parser == "regex":
            nlp.load_nlp = lambda: None  # type: ignore[assignment]  # the path without spaCy
        elif not nlp.spacy_available():
            print("spacy: not installed")
            continue
        summed: dict[str, int] = {}
        for p in paths:
            line, misses, counts = score(p)
            print(f"{parser}: {line}", *misses, sep="\n")
            for key, n in counts.items():
                summed[key] = summed.get(key, 0) + n
        if len(paths) > 1:
            print(f"{parser}: {summary(f'all {len(paths)} files', summed)}")


if __name__ == "__main__":
    main()
