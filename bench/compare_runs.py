"""Compare two folders of TREC run files: the same documents in the same order, scores within 1e-6.

    python bench/compare_runs.py BEFORE AFTER [--rename hybrid_hybrid=hybrid_exclusion ...]
        [--tol 1e-6] [--relative]

Every ``*.trec`` file of BEFORE (searched recursively, so a folder of datasets works) is matched
with the file of the same relative path in AFTER (after ``--rename OLD=NEW`` on the file stem).
A pair is *identical* when every line is the same, *within tolerance* when each query ranks the
same documents in the same order with scores at most ``tol`` apart, and *differing* otherwise.
Prints a table per file and the totals; exits 1 when a file differs or is missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

Run = dict[str, list[tuple[str, float]]]


def read_run(path: Path) -> Run:
    """A TREC run: for each query, its (document, score) pairs in rank order."""
    out: Run = {}
    rows: dict[str, list[tuple[int, str, float]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        qid, _, doc, rank, score, *_ = line.split()
        rows.setdefault(qid, []).append((int(rank), doc, float(score)))
    for qid, found in rows.items():
        out[qid] = [(doc, score) for _, doc, score in sorted(found)]
    return out


def compare(
    before: Path, after: Path, tol: float = 1e-6, relative: bool = False
) -> tuple[str, str]:
    """``(verdict, detail)``: verdict ``identical``, ``within tolerance`` or ``differing``.

    With ``relative`` the allowed difference is ``tol * max(1, |score|)`` (float32 scores of a few
    units differ by whole ulps of about 5e-7 when a sum runs in another order).
    """
    if before.read_bytes() == after.read_bytes():
        return "identical", ""
    a, b = read_run(before), read_run(after)
    if set(a) != set(b):
        return "differing", f"queries differ ({len(set(a) ^ set(b))} not in both)"
    worst, over = 0.0, False
    for qid, ranked in a.items():
        other = b[qid]
        if [d for d, _ in ranked] != [d for d, _ in other]:
            return "differing", f"order of query {qid}"
        for (_, s), (_, t) in zip(ranked, other, strict=True):
            worst = max(worst, abs(s - t))
            over = over or abs(s - t) > tol * (max(1.0, abs(s)) if relative else 1.0)
    if over:
        return "differing", f"largest score difference {worst:.3g}"
    return "within tolerance", f"largest score difference {worst:.3g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rename", action="append", default=[], help="OLD=NEW file stem")
    parser.add_argument("--tol", type=float, default=1e-6)
    parser.add_argument("--relative", action="store_true", help="tol times max(1, |score|)")
    args = parser.parse_args(argv)
    renames = dict(item.split("=", 1) for item in args.rename)
    counts = {"identical": 0, "within tolerance": 0, "differing": 0, "missing": 0}
    print("| run file | verdict | detail |\n|---|---|---|")
    for path in sorted(args.before.rglob("*.trec")):
        rel = path.relative_to(args.before)
        stem = renames.get(rel.stem, rel.stem)
        other = args.after / rel.parent / f"{stem}.trec"
        if not other.is_file():
            verdict, detail = "missing", str(other)
        else:
            verdict, detail = compare(path, other, args.tol, args.relative)
        counts[verdict] += 1
        print(f"| {rel} | {verdict} | {detail} |")
    total = sum(counts.values())
    print(f"\n| files compared | identical | within {args.tol:g} | differing | missing |")
    print("|---|---|---|---|---|")
    print(
        f"| {total} | {counts['identical']} | {counts['within tolerance']} | "
        f"{counts['differing']} | {counts['missing']} |"
    )
    return 0 if total and not counts["differing"] and not counts["missing"] else 1


if __name__ == "__main__":
    sys.exit(main())
