"""How many benchmark readings a change to the natural-language reader moves.

For every query of the shared benchmarks (comlq, negconstraint, boolquestions-not, excluir, nevir,
quest-sample, scifact) it records the natural reading's logical form and the plan kind of the
``auto`` composer (flat / exclude), then compares two such records: the tree on PYTHONPATH with a
saved JSON, or two saved JSONs.

    # the readings of main, then of a branch, compared
    PYTHONPATH=/work/main python bench/reading_drift.py --save /tmp/main.json
    PYTHONPATH=. python bench/reading_drift.py --against /tmp/main.json --examples 3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

from shared_data import FOLDER_OF

FOLDERS = {
    FOLDER_OF[name]: name
    for name in ("comlq", "negconstraint", "boolquestions", "excluir", "nevir", "quest", "scifact")
}
"""Shared dataset folder -> benchmark adapter."""

Record = dict[str, dict[str, list[str]]]  # folder -> query id -> [text, logical form, plan kind]


def readings(data: Path, folders: list[str]) -> Record:
    """The natural reading and auto's plan kind of every query of ``folders`` under ``data``."""
    from logir.data.benchmarks import BENCHMARKS
    from logir.errors import LogirError
    from logir.logic.auto import Auto
    from logir.query.reading import read

    auto = Auto()
    out: Record = {}
    for folder in folders:
        ds = BENCHMARKS[FOLDERS[folder]](data / folder)
        rows: dict[str, list[str]] = {}
        for t in ds.queries:
            try:
                r = read(t.text, "natural")
            except LogirError as exc:  # a reading past its time budget on a loaded machine
                rows[t.id] = [t.text, f"error: {exc}", "error"]
                print(f"{folder} {t.id}: {exc}", file=sys.stderr)
                continue
            rows[t.id] = [t.text, r.logical_form, auto.plan(r).kind]
        out[folder] = rows
        print(f"read {folder}: {len(rows)} queries", file=sys.stderr)
    return out


def compare(old: Record, new: Record, examples: int) -> None:
    """Per dataset: queries, changed logical forms, changed plan kinds (and in which direction)."""
    print("| dataset | queries | form changed | plan changed | flat->exclude | exclude->flat |")
    print("|---|---|---|---|---|---|")
    shown: list[str] = []
    totals = Counter[str]()
    for folder in new:
        if folder not in old:
            continue
        a, b = old[folder], new[folder]
        ids = [i for i in b if i in a]
        form = [i for i in ids if a[i][1] != b[i][1]]
        plan = [i for i in ids if a[i][2] != b[i][2]]
        up = sum(a[i][2] == "flat" and b[i][2] == "exclude" for i in plan)
        down = sum(a[i][2] == "exclude" and b[i][2] == "flat" for i in plan)
        row = (len(ids), len(form), len(plan), up, down)
        totals.update(dict(zip(("n", "form", "plan", "up", "down"), row, strict=True)))
        print(f"| {folder} | " + " | ".join(str(x) for x in row) + " |")
        for i in form[:examples]:
            shown.append(f"{folder} {i}: {b[i][0]!r}\n    old {a[i][2]}: {a[i][1]}")
            shown.append(f"    new {b[i][2]}: {b[i][1]}")
    t = totals
    print(f"| all | {t['n']} | {t['form']} | {t['plan']} | {t['up']} | {t['down']} |")
    if shown:
        print("\nexamples of changed forms:")
        print("\n".join(shown))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    default = os.environ.get("LOGIR_SHARED_DATASETS", "../shared/datasets")
    ap.add_argument("--data", type=Path, default=Path(default), help="shared datasets folder")
    ap.add_argument("--datasets", nargs="*", default=list(FOLDERS), choices=list(FOLDERS))
    ap.add_argument("--save", type=Path, help="write this tree's readings as JSON")
    ap.add_argument("--against", type=Path, help="saved readings to compare this tree's with")
    ap.add_argument("--old", type=Path, help="with --new: compare two saved JSONs, read nothing")
    ap.add_argument("--new", type=Path)
    ap.add_argument("--examples", type=int, default=0, help="changed forms to show per dataset")
    args = ap.parse_args()
    if args.old and args.new:
        compare(json.loads(args.old.read_text()), json.loads(args.new.read_text()), args.examples)
        return
    rec = readings(args.data, args.datasets)
    if args.save:
        args.save.write_text(json.dumps(rec, ensure_ascii=False))
    if args.against:
        compare(json.loads(args.against.read_text()), rec, args.examples)


if __name__ == "__main__":
    main()
