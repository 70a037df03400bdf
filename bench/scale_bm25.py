"""BM25 at scale, side by side with tantivy: build, size, open, and logical-query latency.

For each corpus (``bench/make_corpus.py`` folders, e.g. 100k and 1M passages):

- **build**: ``logir index CORPUS -r bm25 --postings FORMAT`` (streamed, sharded; one index per
  format of ``--postings``, default ``compact``, logir's own) and a tantivy index of the same
  passages (title + text in one field, frequencies without positions, not stored; analysis as
  logir's: words, lower case, bm25s's English stop words, the Snowball English stemmer), each in
  its own process: wall time and peak RSS. ``--reuse SIZE=PATH`` takes an existing logir index.
- **size**: logir's lexical index (``bm25/``) and tantivy's folder, in MB.
- **open**: a fresh process opens the index (logir: ``open_index`` + the BM25 scorer, checksums
  included; tantivy: ``Index.open`` + a searcher): seconds and RSS after it. The page cache is
  warm (the files were just written or read).
- **latency**: one process per corpus; every query of ``queries.jsonl`` runs once unmeasured, then
  ``--reps`` rounds, each query on every system in turn. logir: ``rank([query], scorer, k=10)``
  with ``flat`` (the three term texts joined), ``fuzzy``, ``sets`` and ``auto``, on each logir
  index (a compact one also with its decoded-list cache and its score-ordered list heads off:
  "uncached"). tantivy: top 10 of a boolean query with the positive terms as SHOULD and the
  negated ones as MUST_NOT (the peer query of issue 15), and of the three terms as SHOULD
  (flat). p50 and p99 in ms.

Usage: python bench/scale_bm25.py --corpus 100000=/tmp/c100k --corpus 1000000=/tmp/c1m
       --work /tmp/scale [--reuse 1000000=/tmp/kr/clean] [--postings plain,compact] [--reps 5]
       [--out scale.json]   (a reused index counts for the format it holds)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

RANK_K = 10
LOGIR_SYSTEMS = ("flat", "fuzzy", "sets", "auto")
_NON_WORD = re.compile(r"[^\w]+")


def folder_mb(path: Path) -> float:
    """MB of a file, or of every file under a folder."""
    if path.is_file():
        return path.stat().st_size / 2**20
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def run_child(args: list[str]) -> tuple[float, int, str]:
    """Run this script (or a command) in a child: wall seconds, peak RSS MB, stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"error: {' '.join(args)} failed ({status})")
    return time.perf_counter() - start, usage.ru_maxrss // 1024, out


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# -- tantivy --------------------------------------------------------------------------------


def tantivy_analyzer() -> Any:
    import tantivy
    from bm25s.stopwords import STOPWORDS_EN

    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.custom_stopword(list(STOPWORDS_EN)))
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def tantivy_schema() -> Any:
    import tantivy

    sb = tantivy.SchemaBuilder()
    sb.add_text_field("text", stored=False, tokenizer_name="logir_en", index_option="freq")
    return sb.build()


def tantivy_open(path: Path) -> Any:
    import tantivy

    index = tantivy.Index(tantivy_schema(), path=str(path), reuse=True)
    index.register_tokenizer("logir_en", tantivy_analyzer())
    return index


def tantivy_build(corpus: Path, out: Path) -> None:
    import tantivy

    out.mkdir(parents=True, exist_ok=True)
    index = tantivy.Index(tantivy_schema(), path=str(out), reuse=False)
    index.register_tokenizer("logir_en", tantivy_analyzer())
    writer = index.writer(heap_size=512 * 2**20, num_threads=2)
    with (corpus / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            obj = json.loads(line)
            title, text = obj.get("title") or "", obj["text"]
            writer.add_document(tantivy.Document(text=f"{title}\n{text}" if title else text))
    writer.commit()
    writer.wait_merging_threads()


def tantivy_queries(index: Any, query: str) -> tuple[Any, Any]:
    """The boolean (positive SHOULD, negated MUST_NOT) and flat tantivy queries of a logir one."""
    import tantivy

    from logir.query import negated_terms, parse, terms

    tree = parse(query)
    negated = set(negated_terms(tree))

    def one(text: str) -> Any:
        return index.parse_query(_NON_WORD.sub(" ", text).strip(), ["text"])

    clauses = [
        (tantivy.Occur.MustNot if t in negated else tantivy.Occur.Should, one(t.text))
        for t in terms(tree)
    ]
    flat = [(tantivy.Occur.Should, one(t.text)) for t in terms(tree)]
    return tantivy.Query.boolean_query(clauses), tantivy.Query.boolean_query(flat)


# -- children ---------------------------------------------------------------------------------


def child_open(engine: str, path: Path) -> None:
    """Open an index in this fresh process (modules imported first, not timed)."""
    import bm25s  # noqa: F401
    import scipy.sparse  # noqa: F401
    import tantivy  # noqa: F401

    from logir.index import lexical  # noqa: F401
    from logir.index.store import open_index

    before = rss_mb()
    start = time.perf_counter()
    if engine == "logir":
        scorer = open_index(path).scorer("bm25")
        n = scorer.n_docs
    else:
        index = tantivy_open(path)
        index.reload()
        n = index.searcher().num_docs
    took = time.perf_counter() - start
    print(json.dumps({"open_s": took, "rss_mb": rss_mb(), "rss_before_mb": before, "docs": n}))


def postings_of(index: Path) -> str:
    """The posting format of a logir index: ``plain`` (bm25s's files) or ``compact``."""
    return "compact" if (index / "bm25" / "compact.json").is_file() else "plain"


def child_latency(
    index_paths: list[Path], tantivy_path: Path, queries_file: Path, reps: int
) -> None:
    from logir.index.store import open_index
    from logir.logic import get_composer

    queries = [json.loads(x)["text"] for x in queries_file.read_text().splitlines() if x.strip()]
    scorers = {}
    for path in index_paths:
        fmt = postings_of(path)
        scorers["logir" if fmt == "plain" else f"logir {fmt}"] = open_index(path).scorer("bm25")
        if fmt == "compact":  # the same index with no decoded list kept: every read decodes
            cold = open_index(path).scorer("bm25")
            cold._lists.cache_bytes = 0  # noqa: SLF001 (a bench switch, not an API)
            cold._impacts = None  # noqa: SLF001 (nor score-ordered list heads: every read whole)
            scorers["logir compact uncached"] = cold
    tindex = tantivy_open(tantivy_path)
    tindex.reload()
    searcher = tindex.searcher()
    from logir.query import parse, terms

    flat_text = {q: " ".join(t.text for t in terms(parse(q))) for q in queries}
    tq = {q: tantivy_queries(tindex, q) for q in queries}

    def logir_call(scorer: Any, spec: str, q: str) -> float:
        composer = get_composer(spec)
        text = flat_text[q] if spec == "flat" else q
        start = time.perf_counter()
        composer.rank([text], scorer, RANK_K)
        return time.perf_counter() - start

    def tantivy_call(which: int, q: str) -> float:
        start = time.perf_counter()
        searcher.search(tq[q][which], RANK_K).hits  # noqa: B018
        return time.perf_counter() - start

    systems = {
        f"{label} {s}": (lambda q, s=s, sc=sc: logir_call(sc, s, q))
        for label, sc in scorers.items()
        for s in LOGIR_SYSTEMS
    }
    systems["tantivy boolean"] = lambda q: tantivy_call(0, q)
    systems["tantivy flat"] = lambda q: tantivy_call(1, q)
    for call in systems.values():
        for q in queries:
            call(q)
    times: dict[str, list[float]] = {name: [] for name in systems}
    for _ in range(reps):
        for q in queries:
            for name, call in systems.items():
                times[name].append(call(q))
    out = {}
    for name, secs in times.items():
        ms = np.asarray(secs) * 1e3
        out[name] = {
            "p50_ms": float(np.percentile(ms, 50)),
            "p99_ms": float(np.percentile(ms, 99)),
            "calls": len(ms),
        }
    print(json.dumps({"latency": out, "rss_mb": rss_mb(), "queries": len(queries)}))


# -- the run ----------------------------------------------------------------------------------


def measure(
    size: int, corpus: Path, work: Path, reuse: list[Path], postings: list[str], reps: int
) -> dict:
    """One corpus: a logir index per posting format (reused where given), tantivy's, and
    the latency of both in one child."""
    me = [sys.executable, __file__]
    row: dict[str, Any] = {"docs": size}
    indexes = {postings_of(p): p for p in reuse}
    for fmt in postings:
        if fmt in indexes:
            continue
        indexes[fmt] = work / f"logir-{size}-{fmt}"
        cmd = [sys.executable, "-m", "logir.cli", "index", str(corpus), "--out", str(indexes[fmt])]
        wall, rss, _ = run_child([*cmd, "-r", "bm25", "--postings", fmt, "--quiet", "--force"])
        row[f"logir {fmt}_build"] = {"s": wall, "peak_rss_mb": rss}
    tantivy_index = work / f"tantivy-{size}"
    wall, rss, _ = run_child([*me, "--child-tantivy-build", str(corpus), str(tantivy_index)])
    row["tantivy_build"] = {"s": wall, "peak_rss_mb": rss}
    row["engines"] = [f"logir {fmt}" for fmt in indexes] + ["tantivy"]
    for fmt, path in indexes.items():
        row[f"logir {fmt}_mb"] = folder_mb(path / "bm25")
        row["logir_docs_mb"] = folder_mb(path / "docs.jsonl")
    row["tantivy_mb"] = folder_mb(tantivy_index)
    opens = [(f"logir {fmt}", "logir", path) for fmt, path in indexes.items()]
    for label, engine, path in [*opens, ("tantivy", "tantivy", tantivy_index)]:
        # the first open checks logir's checksums; later ones find them remembered
        for when in ("open", "reopen"):
            _, _, out = run_child([*me, "--child-open", engine, str(path)])
            row[f"{label}_{when}"] = json.loads(out)
    _, _, out = run_child(
        [*me, "--child-latency", ",".join(str(p) for p in indexes.values()), str(tantivy_index)]
        + [str(corpus / "queries.jsonl"), str(reps)]
    )
    row.update(json.loads(out))
    print(f"  {size}: measured", flush=True)
    return row


def report(rows: list[dict]) -> None:
    print("\n| docs | system | p50 ms | p99 ms | p50 / first logir flat |")
    print("|---:|---|---:|---:|---:|")
    for r in rows:
        lat = r["latency"]
        flat = next(s["p50_ms"] for name, s in lat.items() if name.endswith(" flat"))
        for name, s in lat.items():
            print(
                f"| {r['docs']} | {name} | {s['p50_ms']:.2f} | {s['p99_ms']:.2f} | "
                f"{s['p50_ms'] / flat:.2f} |"
            )
    print(
        "\n| docs | engine | build s | peak RSS MB | index MB | open s | reopen s | RSS open MB |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        for engine in r["engines"]:
            build = r.get(f"{engine}_build")
            b_s = f"{build['s']:.0f}" if build else "(reused)"
            b_rss = f"{build['peak_rss_mb']}" if build else "-"
            op, again = r[f"{engine}_open"], r[f"{engine}_reopen"]
            print(
                f"| {r['docs']} | {engine} | {b_s} | {b_rss} | {r[f'{engine}_mb']:.1f} | "
                f"{op['open_s']:.2f} | {again['open_s']:.2f} | {op['rss_mb']:.0f} |"
            )
    for r in rows:
        lat = r["latency"]
        for engine in r["engines"][:-1]:
            label = "logir" if engine == "logir plain" else engine
            best = min(lat[f"{label} {s}"]["p50_ms"] for s in ("fuzzy", "sets"))
            print(
                f"{r['docs']}: {engine} logical p50 (best of fuzzy/sets) {best:.2f} ms vs "
                f"tantivy boolean {lat['tantivy boolean']['p50_ms']:.2f} ms; lexical index "
                f"{engine} / tantivy {r[f'{engine}_mb'] / r['tantivy_mb']:.2f}x; docs.jsonl "
                f"{r['logir_docs_mb']:.0f} MB"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", default=[], help="SIZE=FOLDER (repeatable)")
    ap.add_argument(
        "--reuse", action="append", default=[], help="SIZE=LOGIR_INDEX to reuse (repeatable)"
    )
    ap.add_argument(
        "--postings",
        default="compact",
        help="logir posting formats to measure, comma-separated (plain, compact)",
    )
    ap.add_argument("--work", type=Path, help="folder for the indexes built")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--child-tantivy-build", nargs=2, type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--child-open", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--child-latency", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_tantivy_build:
        tantivy_build(*args.child_tantivy_build)
        return 0
    if args.child_open:
        child_open(args.child_open[0], Path(args.child_open[1]))
        return 0
    if args.child_latency:
        a, b, c, reps = args.child_latency
        child_latency([Path(p) for p in a.split(",")], Path(b), Path(c), int(reps))
        return 0
    if not args.corpus or args.work is None:
        ap.error("give --corpus SIZE=FOLDER (one or more) and --work")
    corpora = {int(k): Path(v) for k, v in (c.split("=", 1) for c in args.corpus)}
    reuse: dict[int, list[Path]] = {}
    for k, v in (c.split("=", 1) for c in args.reuse):
        reuse.setdefault(int(k), []).append(Path(v))
    postings = args.postings.split(",")
    args.work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    rows = [
        measure(n, corpora[n], args.work, reuse.get(n, []), postings, args.reps)
        for n in sorted(corpora)
    ]
    report(rows)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores; load average (1 min) "
        f"{load:.2f} at start, {os.getloadavg()[0]:.2f} at end"
    )
    if args.out:
        args.out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
