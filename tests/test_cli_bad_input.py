"""Bad input to every command: one ``error:`` line on stderr, exit code 2, never a traceback.

Most cases call the command line in-process through :func:`logir.cli.run` (the same boundary
``main`` uses); a representative subset runs the real ``logir`` command in a subprocess.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from logir.cli import run
from tests.clirun import cli_env, logir


@dataclass(frozen=True)
class Case:
    """A command line (``{name}`` stands for a fixture path) and words its error must name.

    ``boundary_only``: the exact message belongs to another part of logir; only the boundary
    (exit 2, one ``error:`` line, no traceback) is checked. ``waits_for``: ``module:name`` that
    part adds; the case is skipped until it exists.
    """

    id: str
    args: tuple[str, ...]
    needles: tuple[str, ...] = ()
    boundary_only: bool = False
    waits_for: str | None = None


def case(
    id: str,
    *args: str,
    needs: tuple[str, ...] = (),
    boundary_only: bool = False,
    waits_for: str | None = None,
) -> Case:
    return Case(id, args, needs, boundary_only, waits_for)


def index_case(id: str, corpus: str, *needs: str) -> Case:
    """``logir index`` of fixture corpus `corpus` into a fresh folder."""
    return case(id, "index", "{" + corpus + "}", "--out", "{tmp}/o", needs=needs)


def _rows(*objs: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


DOC = {"_id": "1", "text": "strep throat and fever"}
DEEP = "[" * 100_000 + "]" * 100_000


def _write_beir(root: Path, corpus: str | bytes, queries: str | bytes, qrels: str | bytes) -> None:
    (root / "qrels").mkdir(parents=True)
    for name, content in (
        ("corpus.jsonl", corpus),
        ("queries.jsonl", queries),
        ("qrels/test.tsv", qrels),
    ):
        data = content.encode() if isinstance(content, str) else content
        (root / name).write_bytes(data)


GOOD_QUERIES = _rows({"_id": "q1", "text": "strep throat"})
GOOD_QRELS = "query-id\tcorpus-id\tscore\nq1\t1\t1\n"
GOOD_CORPUS = _rows(DOC, {"_id": "2", "text": "sore knees after running"})

#: BEIR folders that break one rule each: name -> (corpus, queries, qrels)
BEIR_FOLDERS: dict[str, tuple[str | bytes, str | bytes, str | bytes]] = {
    "beir_corpus_utf8": (GOOD_CORPUS.encode() + b'{"_id": "3", "text": "caf\xe9"}\n', GOOD_QUERIES,
                         GOOD_QRELS),
    "beir_queries_utf8": (GOOD_CORPUS, b'{"_id": "q1", "text": "\xff\xfe"}\n', GOOD_QRELS),
    "beir_qrels_utf8": (GOOD_CORPUS, GOOD_QUERIES, GOOD_QRELS.encode() + b"q\xff\t1\t1\n"),
    "beir_qrels_columns": (GOOD_CORPUS, GOOD_QUERIES, GOOD_QRELS + "q1\t2\n"),
    "beir_qrels_fraction": (GOOD_CORPUS, GOOD_QUERIES, GOOD_QRELS + "q1\t2\t0.5\n"),
    "beir_qrels_word": (GOOD_CORPUS, GOOD_QUERIES, GOOD_QRELS + "q1\t2\thigh\n"),
    "beir_qrels_conflict": (GOOD_CORPUS, GOOD_QUERIES, GOOD_QRELS + "q1\t1\t2\n"),
    "beir_trec_columns": (GOOD_CORPUS, GOOD_QUERIES, "q1 0 1\n"),
    "beir_dup_doc": (GOOD_CORPUS + _rows(DOC), GOOD_QUERIES, GOOD_QRELS),
    "beir_dup_query": (GOOD_CORPUS, GOOD_QUERIES * 2, GOOD_QRELS),
    "beir_query_text_number": (GOOD_CORPUS, _rows({"_id": "q1", "text": 7}), GOOD_QRELS),
    "beir_query_no_text": (GOOD_CORPUS, _rows({"_id": "q1"}), GOOD_QRELS),
    "beir_facets_list": (GOOD_CORPUS, _rows({"_id": "q1", "text": "a", "facets": [1]}),
                         GOOD_QRELS),
    "beir_queries_deep": (GOOD_CORPUS, DEEP + "\n", GOOD_QRELS),
    "beir_corpus_truncated": (GOOD_CORPUS + '{"_id": "3", "text": "cut', GOOD_QUERIES,
                              GOOD_QRELS),
    "beir_unjudged": (GOOD_CORPUS, GOOD_QUERIES, "query-id\tcorpus-id\tscore\nq9\t1\t1\n"),
    "beir_blank_corpus": (_rows({"_id": "1", "text": "  "}, {"_id": "2", "text": ""}),
                          GOOD_QUERIES, GOOD_QRELS),
    "beir_corpus_array": (GOOD_CORPUS + "[1, 2]\n", GOOD_QUERIES, GOOD_QRELS),
    "beir_query_surrogate": (GOOD_CORPUS, '{"_id": "q1", "text": "\\udfff"}\n', GOOD_QRELS),
}  # fmt: skip

#: corpus files for `logir index` and `logir synth`: name -> bytes
CORPUS_FILES: dict[str, bytes] = {
    "bad_utf8": _rows(DOC).encode() + b'{"_id": "2", "text": "na\xefve \xc3("}\n',
    "latin1": "caf\xe9 au lait\n".encode("latin-1"),
    "utf16": _rows(DOC).encode("utf-16"),
    "truncated": (_rows(DOC) + '{"_id": "2", "text": "cut off').encode(),
    "deep": (_rows(DOC) + DEEP + "\n").encode(),
    "deep_object": (_rows(DOC) + '{"a":' * 50_000 + "1" + "}" * 50_000 + "\n").encode(),
    "empty_texts": _rows({"_id": "1", "text": ""}, {"_id": "2", "text": "   \n\t"}).encode(),
    "empty_file": b"",
    "blank_lines": b"\n\n   \n",
    "line_list": _rows(DOC, [DOC]).encode(),
    "line_string": _rows(DOC, "just text").encode(),
    "line_number": (_rows(DOC) + "42\n").encode(),
    "no_id": _rows(DOC, {"text": "no id here"}).encode(),
    "no_text": _rows(DOC, {"_id": "2", "title": "only a title"}).encode(),
    "text_number": _rows(DOC, {"_id": "2", "text": 3.5}).encode(),
    "text_nan": (_rows(DOC) + '{"_id": "2", "text": NaN}\n').encode(),
    "id_null": _rows(DOC, {"_id": None, "text": "x"}).encode(),
    "id_empty": _rows(DOC, {"_id": "", "text": "x"}).encode(),
    "id_list": _rows(DOC, {"_id": ["a"], "text": "x"}).encode(),
    "dup_id": _rows(DOC, {"_id": "2", "text": "b"}, DOC).encode(),
    "title_list": _rows(DOC, {"_id": "2", "text": "b", "title": ["t"]}).encode(),
    "nul_raw": _rows(DOC).encode() + b'{"_id": "2", "text": "a"}\x00\n',
    "nul_in_string": _rows(DOC).encode() + b'{"_id": "2", "text": "a\x00b"}\n',
    "huge_int": (_rows(DOC) + '{"_id": ' + "9" * 5000 + ', "text": "x"}\n').encode(),
    "huge_line": (_rows(DOC) + '{"_id": "2", "text": "' + "a" * 2_000_000 + "\n").encode(),
    "bom_twice": b"\xef\xbb\xbf" + _rows(DOC).encode() + b"\xef\xbb\xbf" + _rows(DOC).encode(),
    "trailing_garbage": (_rows(DOC) + '{"_id": "2", "text": "b"} extra\n').encode(),
    "lone_surrogate": (_rows(DOC) + '{"_id": "2", "text": "half \\ud800 pair"}\n').encode(),
    "stop_words": _rows({"_id": "1", "text": "the a of !!"}, {"_id": "2", "text": "?"}).encode(),
}

CASES: list[Case] = [
    # ---- parse
    case("parse-empty", "parse", "", needs=("empty",)),
    case("parse-blank", "parse", "   ", needs=("empty",)),
    case("parse-natural-blank", "parse", "--natural", "   ", needs=("empty",)),
    case("parse-auto-whitespace", "parse", "--auto", "\t\n ", needs=("empty",)),
    case("parse-llm-blank", "parse", "--llm", " ", needs=("empty",)),
    case("parse-open-paren", "parse", "--syntax", "a AND (b OR", needs=("column 10",)),
    case("parse-dangling-and", "parse", "--syntax", "a AND", needs=("column",)),
    case("parse-close-paren", "parse", "--syntax", ")", needs=("column 1",)),
    case("parse-lone-not", "parse", "--syntax", "NOT", needs=("column",)),
    case("parse-unclosed-quote", "parse", "--syntax", 'a AND "b', needs=("column",)),
    case("parse-many-parens", "parse", "--syntax", "(" * 5000, needs=("column",)),
    case("parse-bad-utf8-arg", "parse", "caf\udce9", needs=("UTF-8", "0xe9")),
    case("parse-two-modes", "parse", "--natural", "--auto", "a", needs=("only one",)),
    case("parse-unknown-option", "parse", "a", "--bogus", needs=("--bogus",)),
    case("parse-missing-query", "parse", needs=("Missing argument",)),
    case("parse-llm-no-endpoint", "parse", "--llm", "a and b", needs=("--llm-base-url",)),
    case("parse-too-long", "parse", "a " * 60_000, needs=("120000 characters",)),
    case("parse-natural-too-long", "parse", "--natural", "word " * 12_000, boundary_only=True,
         waits_for="logir.query.syntax:QueryTooLong"),
    # ---- index
    case("index-missing-file", "index", "{tmp}/nope.jsonl", "--out", "{tmp}/o", needs=("nope",)),
    index_case("index-dir-without-corpus", "emptydir", "corpus.jsonl", "emptydir"),
    case("index-not-regular-file", "index", "/dev/null", "--out", "{tmp}/o",
         needs=("/dev/null",)),
    index_case("index-invalid-utf8", "bad_utf8", "bad_utf8.jsonl:2", "UTF-8", "byte offset"),
    index_case("index-latin1", "latin1", "latin1.jsonl:1", "UTF-8"),
    index_case("index-utf16", "utf16", "utf16.jsonl:1"),
    index_case("index-truncated-json", "truncated", "truncated.jsonl:2", "not valid JSON"),
    index_case("index-deep-nesting", "deep", "deep.jsonl:2", "nested too deeply"),
    index_case("index-deep-object", "deep_object", "deep_object.jsonl:2", "nested too deeply"),
    index_case("index-empty-texts", "empty_texts", "no document has any text", "empty_texts.jsonl"),
    index_case("index-empty-file", "empty_file", "no documents", "empty_file.jsonl"),
    index_case("index-blank-lines", "blank_lines", "no documents", "blank_lines.jsonl"),
    index_case("index-line-is-list", "line_list", "line_list.jsonl:2", "JSON object"),
    index_case("index-line-is-string", "line_string", "line_string.jsonl:2", "JSON object"),
    index_case("index-line-is-number", "line_number", "line_number.jsonl:2", "JSON object"),
    index_case("index-missing-id", "no_id", "no_id.jsonl:2", "missing field", "_id"),
    index_case("index-missing-text", "no_text", "no_text.jsonl:2", "missing field", "text"),
    index_case("index-text-number", "text_number", "text_number.jsonl:2", "text", "string"),
    index_case("index-text-nan", "text_nan", "text_nan.jsonl:2", "string"),
    index_case("index-id-null", "id_null", "id_null.jsonl:2", "id"),
    index_case("index-id-empty", "id_empty", "id_empty.jsonl:2", "id"),
    index_case("index-id-list", "id_list", "id_list.jsonl:2", "id"),
    index_case("index-duplicate-id", "dup_id", "dup_id.jsonl:3", "duplicate", "'1'"),
    index_case("index-title-list", "title_list", "title_list.jsonl:2", "title"),
    index_case("index-nul-byte", "nul_raw", "nul_raw.jsonl:2", "not valid JSON"),
    index_case("index-nul-in-string", "nul_in_string", "nul_in_string.jsonl:2", "not valid JSON"),
    index_case("index-huge-integer", "huge_int", "huge_int.jsonl:2", "not valid JSON"),
    index_case("index-huge-line", "huge_line", "huge_line.jsonl:2", "not valid JSON"),
    index_case("index-second-bom", "bom_twice", "bom_twice.jsonl:2", "not valid JSON"),
    index_case("index-lone-surrogate", "lone_surrogate", "lone_surrogate.jsonl:2", "surrogate"),
    index_case("index-only-stop-words", "stop_words", "stop_words.jsonl", "no document has a word"),
    index_case("index-trailing-garbage", "trailing_garbage", "trailing_garbage.jsonl:2", "JSON"),
    case("index-unknown-retriever", "index", "{good}", "--out", "{tmp}/o", "-r", "bm99",
         needs=("bm99",)),
    case("index-out-is-file", "index", "{good}", "--out", "{afile}", needs=("--out", "afile")),
    case("index-out-under-file", "index", "{good}", "--out", "{afile}/idx",
         needs=("afile", "not a folder")),
    case("index-no-out", "index", "{good}", needs=("--out",)),
    case("index-shard-size-zero", "index", "{good}", "--out", "{tmp}/o", "-r", "bm25",
         "--shard-size", "0", needs=("--shard-size", "from 1 to 1000000", "got 0")),
    case("index-shard-size-too-big", "index", "{good}", "--out", "{tmp}/o", "-r", "bm25",
         "--shard-size", "1000001", needs=("--shard-size", "from 1 to 1000000", "1000001")),
    # ---- search
    case("search-missing-index", "search", "{tmp}/noindex", "q", needs=("noindex",)),
    case("search-index-is-file", "search", "{afile}", "q", needs=("afile",)),
    case("search-not-an-index", "search", "{emptydir}", "q", needs=("emptydir",)),
    case("search-empty-query", "search", "{idx}", "", needs=("empty",)),
    case("search-blank-query", "search", "{idx}", " \t ", needs=("empty",)),
    case("search-bad-utf8-query", "search", "{idx}", "fever \udcff", needs=("UTF-8", "0xff")),
    case("search-dense-bad-utf8-query", "search", "{idx}", "\udcc3(", "-r", "dense",
         needs=("UTF-8", "0xc3")),
    case("search-k-zero", "search", "{idx}", "q", "-k", "0", needs=("hits per query", "got 0")),
    case("search-k-negative", "search", "{idx}", "q", "-k", "-5", needs=("from 1 to 1000",)),
    case("search-k-over-max", "search", "{idx}", "q", "-k", "1001",
         needs=("k (hits per query) must be from 1 to 1000, got 1001",)),
    case("search-k-huge", "search", "{idx}", "q", "-k", "10" + "0" * 30, needs=("hits per query",)),
    case("serve-max-k-over-max", "serve", "{idx}", "--max-k", "1001", needs=("--max-k", "1000")),
    case("search-k-word", "search", "{idx}", "q", "-k", "ten", needs=("-k",)),
    case("search-unknown-mode", "search", "{idx}", "q", "--mode", "fuzzy", needs=("--mode",)),
    case("search-syntax-error", "search", "{idx}", "a AND (", "--mode", "syntax",
         needs=("column",)),
    case("search-unknown-retriever", "search", "{idx}", "q", "-r", "bm99", needs=("bm99",)),
    case("search-missing-retriever", "search", "{idx}", "q", "-r", "dense", needs=("dense",)),
    case("search-unknown-composer", "search", "{idx}", "q", "--composer", "magic",
         needs=("magic",)),
    case("search-fuzzy-k-huge", "search", "{idx}", "q", "--composer", "fuzzy,k=1e12",
         boundary_only=True),
    case("search-hybrid-beta-nan", "search", "{idx}", "q", "--composer", "hybrid,beta=nan",
         boundary_only=True),
    case("search-sets-depth-huge", "search", "{idx}", "a AND b", "--composer",
         "sets,depth=1e12", boundary_only=True),
    case("search-fuzzy-bad-and", "search", "{idx}", "q", "--composer", "fuzzy,and=maybe",
         boundary_only=True),
    case("search-too-long", "search", "{idx}", "word " * 40_000, needs=("200000 characters",)),
    case("search-natural-too-long", "search", "{idx}", "word " * 12_000, "--mode", "natural",
         boundary_only=True, waits_for="logir.query.syntax:QueryTooLong"),
    case("search-damaged-vocab", "search", "{idx_vocab_cut}", "fever", boundary_only=True),
    case("search-empty-manifest", "search", "{idx_manifest_empty}", "fever", boundary_only=True),
    # ---- eval
    case("eval-unknown-dataset", "eval", "msmarco-logic", needs=("msmarco-logic",)),
    case("eval-needs-data", "eval", "comlq", needs=("--data",)),
    case("eval-data-missing", "eval", "beir", "--data", "{tmp}/nowhere", needs=("nowhere",)),
    case("eval-data-is-file", "eval", "beir", "--data", "{afile}", needs=("afile", "file")),
    case("eval-beir-no-qrels", "eval", "beir", "--data", "{emptydir}", needs=("emptydir",)),
    case("eval-beir-corpus-utf8", "eval", "beir", "--data", "{beir_corpus_utf8}",
         needs=("corpus.jsonl:3", "UTF-8")),
    case("eval-beir-queries-utf8", "eval", "beir", "--data", "{beir_queries_utf8}",
         needs=("queries.jsonl:1", "UTF-8")),
    case("eval-beir-qrels-utf8", "eval", "beir", "--data", "{beir_qrels_utf8}",
         needs=("test.tsv:3", "UTF-8")),
    case("eval-beir-qrels-columns", "eval", "beir", "--data", "{beir_qrels_columns}",
         needs=("test.tsv:3", "3 columns")),
    case("eval-beir-qrels-fraction", "eval", "beir", "--data", "{beir_qrels_fraction}",
         needs=("test.tsv:3", "integer")),
    case("eval-beir-qrels-word", "eval", "beir", "--data", "{beir_qrels_word}",
         needs=("test.tsv:3", "'high'")),
    case("eval-beir-qrels-conflict", "eval", "beir", "--data", "{beir_qrels_conflict}",
         needs=("test.tsv:3", "'1'")),
    case("eval-beir-trec-columns", "eval", "beir", "--data", "{beir_trec_columns}",
         needs=("test.tsv:1", "4 columns")),
    case("eval-beir-duplicate-doc", "eval", "beir", "--data", "{beir_dup_doc}",
         needs=("corpus.jsonl:3", "duplicate")),
    case("eval-beir-duplicate-query", "eval", "beir", "--data", "{beir_dup_query}",
         needs=("queries.jsonl:2", "duplicate", "'q1'")),
    case("eval-beir-query-text-number", "eval", "beir", "--data", "{beir_query_text_number}",
         needs=("queries.jsonl:1", "text")),
    case("eval-beir-query-no-text", "eval", "beir", "--data", "{beir_query_no_text}",
         needs=("queries.jsonl:1", "text")),
    case("eval-beir-facets-list", "eval", "beir", "--data", "{beir_facets_list}",
         needs=("queries.jsonl:1", "facets")),
    case("eval-beir-queries-deep", "eval", "beir", "--data", "{beir_queries_deep}",
         needs=("queries.jsonl:1", "nested too deeply")),
    case("eval-beir-corpus-truncated", "eval", "beir", "--data", "{beir_corpus_truncated}",
         needs=("corpus.jsonl:3", "not valid JSON")),
    case("eval-beir-corpus-array", "eval", "beir", "--data", "{beir_corpus_array}",
         needs=("corpus.jsonl:3", "JSON object")),
    case("eval-beir-query-surrogate", "eval", "beir", "--data", "{beir_query_surrogate}",
         needs=("queries.jsonl:1", "surrogate")),
    case("eval-beir-unjudged", "eval", "beir", "--data", "{beir_unjudged}",
         needs=("no judged query",)),
    case("eval-beir-blank-corpus", "eval", "beir", "--data", "{beir_blank_corpus}",
         needs=("any text",)),
    case("eval-quest-no-corpus", "eval", "quest", "--data", "{quest}", needs=("no corpus",)),
    case("eval-runs-dir-is-file", "eval", "demo", "--runs-dir", "{afile}",
         needs=("--runs-dir", "afile")),
    case("eval-runs-dir-under-file", "eval", "demo", "--runs-dir", "{afile}/runs",
         needs=("--runs-dir", "not a folder")),
    case("eval-out-is-dir", "eval", "demo", "--out", "{emptydir}", needs=("--out", "emptydir")),
    case("eval-out-under-file", "eval", "demo", "--out", "{afile}/res.json",
         needs=("--out", "not a folder")),
    case("eval-depth-zero", "eval", "demo", "--depth", "0", needs=("hits per query",)),
    case("eval-depth-over-max", "eval", "demo", "--depth", "100000",
         needs=("k (hits per query) must be from 1 to 1000, got 100000",)),
    case("eval-limit-zero", "eval", "demo", "--limit", "0", needs=("--limit",)),
    case("eval-unknown-measure", "eval", "demo", "-m", "accuracy", needs=("accuracy",)),
    case("eval-malformed-measure", "eval", "demo", "-m", "nDCG@ten", needs=("nDCG@ten",)),
    case("eval-unknown-system", "eval", "demo", "-s", "splade9000", needs=("splade9000",)),
    case("eval-unknown-composer", "eval", "demo", "-s", "bm25:magic", needs=("magic",)),
    case("eval-llm-system-no-endpoint", "eval", "demo", "-s", "bm25:hyde", needs=("hyde",)),
    case("eval-unknown-split", "eval", "demo", "--split", "dev", needs=("dev",)),
    case("eval-demo-bad-qrels", "eval", "demo", "--data", "{demo_bad_qrels}",
         needs=("test.tsv:2", "UTF-8")),
    case("eval-multiconir-utf8", "eval", "multiconir", "--data", "{mc_utf8}",
         needs=("mc_utf8.csv:2", "UTF-8")),
    case("eval-multiconir-header", "eval", "multiconir", "--data", "{mc_header}",
         needs=("mc_header.csv:1", "Positive")),
    case("eval-multiconir-no-csv", "eval", "multiconir", "--data", "{emptydir}",
         needs=("emptydir",)),
    case("eval-nevir-query-id", "eval", "nevir", "--data", "{nevir_bad_id}",
         needs=("queries.jsonl:1", "nevir_q_")),
    case("eval-negconstraint-ids-not-list", "eval", "negconstraint", "--data", "{neg_bad}",
         needs=("queries.jsonl:1", "constraint_satisfying_doc_ids")),
    case("eval-boolquestions-no-eval", "eval", "boolquestions", "--data", "{emptydir}",
         needs=("eval.jsonl",)),
    # ---- datasets and the command itself
    case("datasets-extra-argument", "datasets", "extra", needs=("extra",)),
    case("datasets-unknown-option", "datasets", "--all", needs=("--all",)),
    case("unknown-command", "serach", "idx", "q", needs=("serach",)),
    # ---- synth (each fails on its corpus or options, before any LLM call)
    case("synth-comlq-invalid-utf8", "synth", "comlq", "--corpus", "{bad_utf8}", "--out",
         "{tmp}/s1", needs=("bad_utf8.jsonl:2", "UTF-8")),
    case("synth-itlr-empty-texts", "synth", "itlr", "--corpus", "{empty_texts}", "--out",
         "{tmp}/s2", needs=("no document has any text",)),
    case("synth-boolquestions-missing", "synth", "boolquestions", "--corpus", "{tmp}/gone.jsonl",
         "--out", "{tmp}/s3", needs=("gone.jsonl",)),
    case("synth-multiconir-deep", "synth", "multiconir", "--corpus", "{deep}", "--out",
         "{tmp}/s4", needs=("deep.jsonl:2", "nested too deeply")),
    case("synth-comlq-truncated", "synth", "comlq", "--corpus", "{truncated}", "--out",
         "{tmp}/s5", needs=("truncated.jsonl:2",)),
    case("synth-itlr-duplicate-id", "synth", "itlr", "--corpus", "{dup_id}", "--out",
         "{tmp}/s6", needs=("dup_id.jsonl:3", "duplicate")),
    case("synth-no-corpus", "synth", "comlq", "--out", "{tmp}/s7", needs=("--corpus",)),
    case("synth-out-is-file", "synth", "comlq", "--corpus", "{good}", "--out", "{afile}",
         needs=("--out", "afile")),
    case("synth-bad-opt", "synth", "comlq", "--corpus", "{good}", "--out", "{tmp}/s8", "--opt",
         "=3", needs=("--opt",)),
    case("synth-unknown-opt", "synth", "comlq", "--corpus", "{good}", "--out", "{tmp}/s9",
         "--opt", "colour=blue", needs=("colour",)),
    case("synth-max-items-zero", "synth", "itlr", "--max-items", "0", needs=("--max-items",)),
    case("synth-unknown-kind", "synth", "poetry", needs=("poetry",)),
    case("synth-negations-invalid-utf8", "synth", "negations", "--corpus", "{bad_utf8}",
         "--out", "{tmp}/n1", needs=("bad_utf8.jsonl:2", "UTF-8")),
    case("synth-negations-duplicate-id", "synth", "negations", "--corpus", "{dup_id}", "--out",
         "{tmp}/n2", needs=("dup_id.jsonl:3", "duplicate")),
    case("synth-negations-out-is-file", "synth", "negations", "--corpus", "{good}", "--out",
         "{afile}", needs=("--out", "afile")),
    case("synth-negations-test-share", "synth", "negations", "--corpus", "{good}", "--out",
         "{tmp}/n3", "--test-share", "1.5", needs=("--test-share",)),
    case("synth-negations-no-out", "synth", "negations", "--corpus", "{good}", needs=("--out",)),
]  # fmt: skip

#: cases also run as the real command in a subprocess
SUBPROCESS_CASES = {
    "parse-natural-blank",
    "parse-open-paren",
    "index-invalid-utf8",
    "index-empty-texts",
    "index-deep-nesting",
    "search-k-over-max",
    "eval-beir-qrels-utf8",
    "eval-runs-dir-is-file",
    "synth-comlq-invalid-utf8",
    "unknown-command",
}


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every fixture file and folder the cases name, and a small BM25 index."""
    tmp = tmp_path_factory.mktemp("bad-input")
    found: dict[str, str] = {"tmp": str(tmp)}

    def put(name: str, path: Path) -> None:
        found[name] = str(path)

    for name, data in CORPUS_FILES.items():
        (tmp / f"{name}.jsonl").write_bytes(data)
        put(name, tmp / f"{name}.jsonl")
    for name, (corpus, queries, qrels) in BEIR_FOLDERS.items():
        _write_beir(tmp / name, corpus, queries, qrels)
        put(name, tmp / name)
    (tmp / "emptydir").mkdir()
    put("emptydir", tmp / "emptydir")
    (tmp / "afile").write_text("not a folder\n")
    put("afile", tmp / "afile")
    # the good corpus starts with a byte order mark and ends lines with CRLF: both are accepted
    good = tmp / "good.jsonl"
    good.write_bytes(b"\xef\xbb\xbf" + GOOD_CORPUS.replace("\n", "\r\n").encode())
    put("good", good)
    quest = tmp / "quest.jsonl"
    quest.write_text(
        _rows({"query": "birds", "original_query": "<mark>birds</mark>", "docs": ["Robin"],
               "metadata": {"template": "_", "domain": "animals"}})
    )  # fmt: skip
    put("quest", quest)
    demo = tmp / "demo_bad_qrels"
    shutil.copytree(Path(__file__).parents[1] / "logir" / "data" / "demo", demo)
    lines = (demo / "qrels" / "test.tsv").read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(b"\t", b"\xff\t", 1)
    (demo / "qrels" / "test.tsv").write_bytes(b"".join(lines))
    put("demo_bad_qrels", demo)
    mc = tmp / "mc_utf8.csv"
    mc.write_bytes(b"Positive,HN1,Query1\nA \xff doc,B doc,a query\n")
    put("mc_utf8", mc)
    mc_header = tmp / "mc_header.csv"
    mc_header.write_text("Doc,Question\nA,B\n")
    put("mc_header", mc_header)
    labelled = {"query_id": "q", "query": "a", "constraint_satisfying_doc_ids": "1",
                "constraint_violating_doc_ids": []}  # fmt: skip
    neg = tmp / "neg_bad"
    neg.mkdir()
    (neg / "queries.jsonl").write_text(_rows(labelled))
    (neg / "corpus.jsonl").write_text(_rows({"doc_id": "1", "text": "a"}))
    put("neg_bad", neg)
    nevir = tmp / "nevir_bad_id"
    nevir.mkdir()
    (nevir / "queries.jsonl").write_text(
        _rows({**labelled, "query_id": "q7", "constraint_satisfying_doc_ids": ["1"]})
    )
    (nevir / "corpus.jsonl").write_text(_rows({"doc_id": "1", "text": "a"}))
    put("nevir_bad_id", nevir)

    idx = tmp / "idx"
    code, _, err = _in_process(["index", str(good), "--out", str(idx), "-r", "bm25"])
    assert code == 0, err
    put("idx", idx)
    cut = tmp / "idx_vocab_cut"
    shutil.copytree(idx, cut)
    vocab = cut / "bm25" / "vocab.txt"  # the vocabulary of compact postings (the default)
    vocab.write_bytes(vocab.read_bytes()[:7])
    put("idx_vocab_cut", cut)
    empty_manifest = tmp / "idx_manifest_empty"
    shutil.copytree(idx, empty_manifest)
    (empty_manifest / "manifest.json").write_bytes(b"")
    put("idx_manifest_empty", empty_manifest)
    return found


def _in_process(args: list[str]) -> tuple[int, str, str]:
    """``logir ARGS`` through the CLI's own boundary, in this process: (code, stdout, stderr)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(args)
    return code, out.getvalue(), err.getvalue()


def _fill(args: tuple[str, ...], paths: dict[str, str]) -> list[str]:
    return [re.sub(r"\{(\w+)\}", lambda m: paths.get(m[1], m[0]), a) for a in args]


def _skip_until_landed(c: Case) -> None:
    if c.waits_for:
        module, name = c.waits_for.split(":")
        if not hasattr(importlib.import_module(module), name):
            pytest.skip(f"waits for {c.waits_for}")


def assert_one_error_line(code: int, stdout: str, stderr: str, c: Case) -> None:
    assert "Traceback" not in stdout + stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert code == 2, (code, stderr)
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and lines[0].strip() != "error:", lines[0]
    if not c.boundary_only:
        for needle in c.needles:
            assert needle in lines[0], (needle, lines[0])


def test_table_has_enough_cases() -> None:
    assert len(CASES) >= 80
    assert len({c.id for c in CASES}) == len(CASES)
    assert {c.id for c in CASES} >= SUBPROCESS_CASES


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_bad_input_in_process(c: Case, paths: dict[str, str], monkeypatch) -> None:
    monkeypatch.delenv("LOGIR_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("LOGIR_DEBUG", raising=False)
    _skip_until_landed(c)
    assert_one_error_line(*_in_process(_fill(c.args, paths)), c)


@pytest.mark.parametrize("c", [c for c in CASES if c.id in SUBPROCESS_CASES], ids=lambda c: c.id)
def test_bad_input_real_command(c: Case, paths: dict[str, str]) -> None:
    proc = logir(*_fill(c.args, paths), drop_prefix="LOGIR_LLM", env={"LOGIR_DEBUG": ""})
    assert_one_error_line(proc.returncode, proc.stdout, proc.stderr, c)


def test_query_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    """Bytes in argv that are not UTF-8 are named, not printed back as a crash."""
    proc = subprocess.run(
        [sys.executable, "-m", "logir.cli", "parse", b"caf\xe9 AND tea"],
        capture_output=True,
        env=cli_env(),
    )
    stderr = proc.stderr.decode("utf-8", "replace")
    assert_one_error_line(proc.returncode, proc.stdout.decode(), stderr, case("x", needs=("0xe9",)))


@pytest.mark.parametrize("text", ["(" * 3000, ")" * 3000], ids=["open", "close"])
def test_hostile_natural_queries_never_crash(text: str) -> None:
    """Deep parentheses may be read or refused, but never crash."""
    code, out, err = _in_process(["parse", "--natural", text])
    assert "Traceback" not in out + err
    if code != 0:
        assert_one_error_line(code, out, err, case("x", boundary_only=True))


def test_unwritable_folders_are_refused_before_work(tmp_path: Path, monkeypatch) -> None:
    """Write permission is asked of the system (faked here: the tests may run as root)."""
    import logir.data.jsonl as jsonl

    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access

    def access(path: str | Path, mode: int) -> bool:
        return not (Path(path) == locked and mode & os.W_OK) and real_access(path, mode)

    monkeypatch.setattr(jsonl.os, "access", access)
    for args, needle in [
        (["eval", "demo", "--runs-dir", str(locked / "runs")], "--runs-dir"),
        (["eval", "demo", "--out", str(locked / "res.json")], "--out"),
        (["index", str(tmp_path), "--out", str(locked / "idx")], "--out"),
        (["synth", "itlr", "--corpus", str(tmp_path), "--out", str(locked)], "--out"),
    ]:
        code, out, err = _in_process(args)
        assert_one_error_line(code, out, err, case("x", needs=(needle, "not writable")))


def test_good_corpus_with_bom_and_crlf_is_searchable(paths: dict[str, str]) -> None:
    code, out, err = _in_process(["search", paths["idx"], "strep throat", "--json", "-k", "1"])
    assert code == 0, err
    assert json.loads(out)["hits"][0]["id"] == "1"


def test_unexpected_exception_is_one_line_with_a_hint(monkeypatch) -> None:
    import logir.cli as cli

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("something broke\nover two lines")

    monkeypatch.delenv("LOGIR_DEBUG", raising=False)
    monkeypatch.setattr("logir.query.understand", boom)
    code, _, err = _in_process(["parse", "a"])
    assert_one_error_line(code, "", err, case("x", needs=("internal error: RuntimeError",)))
    assert "LOGIR_DEBUG=1" in err
    monkeypatch.setenv("LOGIR_DEBUG", "1")
    with pytest.raises(RuntimeError, match="something broke"):
        cli.run(["parse", "a"])


def test_interrupt_exits_130(monkeypatch) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("logir.query.understand", interrupted)
    code, _, _ = _in_process(["parse", "a"])
    assert code == 130


def test_known_failures_name_what_went_wrong(monkeypatch) -> None:
    def fails(exc: BaseException) -> Callable[..., None]:
        def raiser(*_: object, **__: object) -> None:
            raise exc

        return raiser

    monkeypatch.delenv("LOGIR_DEBUG", raising=False)
    for exc, needle in [
        (MemoryError(), "out of memory"),
        (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
        (PermissionError(13, "Permission denied", "/x/y"), "/x/y: permission denied"),
        (IsADirectoryError(21, "Is a directory", "/x/d"), "/x/d: is a directory"),
        (OSError(28, "No space left on device"), "no space left on device"),
        (json.JSONDecodeError("Expecting value", "x", 0), "not valid JSON"),
        (UnicodeDecodeError("utf-8", b"a\xff", 1, 2, "invalid start byte"), "0xff at offset 1"),
        (EOFError("No data left in file"), "unexpected end of data"),
    ]:  # fmt: skip
        monkeypatch.setattr("logir.query.understand", fails(exc))
        code, out, err = _in_process(["parse", "a"])
        assert_one_error_line(code, out, err, case(type(exc).__name__, needs=(needle,)))
