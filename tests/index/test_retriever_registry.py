"""The retriever registry: one list of names, built / saved / loaded / combined in one place;
scorers' declared parts; the index package has no import circle and no private imports."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from logir import search
from logir.errors import LogirError
from logir.eval import systems
from logir.index import registry, store
from logir.index.base import DENSE_PART, LEXICAL_PART, scorer_parts
from logir.index.hybrid import HybridScorer
from logir.index.lexical import BM25Scorer

TEXTS = [
    "Paris is the capital and largest city of France.",
    "Berlin is the capital of Germany.",
    "Bananas are a good source of potassium.",
    "Dogs and cats are common pets.",
]


def test_one_list_of_names() -> None:
    assert registry.RETRIEVERS == ("bm25", "dense", "hybrid", "splade")
    assert registry.STORED == ("bm25", "dense", "splade")
    assert store.RETRIEVERS is registry.STORED
    assert systems.RETRIEVERS is registry.RETRIEVERS
    assert search.SEARCH_RETRIEVERS is registry.RETRIEVERS
    assert store.MAIN_FILE == {
        "bm25": "bm25/params.index.json",
        "dense": "dense/embeddings.npy",
        "splade": "splade/doc_vectors.npz",
    }
    assert registry.retriever("hybrid").parts == ("bm25", "dense")
    assert not registry.retriever("hybrid").stored


def test_unknown_names_list_the_known_ones() -> None:
    with pytest.raises(LogirError, match="unknown retriever 'colbert'; known: bm25, dense, hybrid"):
        registry.retriever("colbert")
    with pytest.raises(LogirError, match="known: bm25, dense, splade"):
        registry.load("hybrid", Path("nowhere"))
    with pytest.raises(LogirError, match="built from bm25, dense"):
        registry.build("hybrid", TEXTS)


def test_build_save_load_round_trip(tmp_path: Path) -> None:
    bm25 = registry.build("bm25", TEXTS)
    assert isinstance(bm25, BM25Scorer)
    params = registry.save("bm25", bm25, tmp_path / "bm25")
    assert params == bm25.params  # type: ignore[attr-defined]
    back = registry.load("bm25", tmp_path / "bm25")
    q = ["capital of France", "dogs"]
    np.testing.assert_array_equal(back.score(q), bm25.score(q))


def test_composite_from_its_parts_and_declared_parts() -> None:
    bm25 = BM25Scorer.build(TEXTS)
    other = BM25Scorer.build(TEXTS, stemmer=None)
    asked: list[str] = []

    def part(name: str) -> BM25Scorer:
        asked.append(name)
        return bm25 if name == "bm25" else other

    hybrid = registry.build("hybrid", TEXTS, registry.BuildOptions(alpha=0.3), part=part)
    assert asked == ["bm25", "dense"] and isinstance(hybrid, HybridScorer)
    assert hybrid.alpha == 0.3
    parts = scorer_parts(hybrid)
    assert parts[LEXICAL_PART] is bm25 and parts[DENSE_PART] is other
    assert scorer_parts(bm25) == {}
    assert scorer_parts(object()) == {}  # a scorer that declares none
    with pytest.raises(TypeError):
        parts["x"] = bm25  # type: ignore[index]


def test_available_puts_composites_first() -> None:
    assert registry.available(["bm25", "dense"]) == ["hybrid", "bm25", "dense"]
    assert registry.available(["dense", "splade"]) == ["dense", "splade"]
    assert registry.available([]) == []


def test_index_builds_hybrid_from_its_stored_parts(tmp_path: Path) -> None:
    from logir.data.dataset import Document

    docs = [Document(f"d{i}", t) for i, t in enumerate(TEXTS)]
    index = store.open_index(store.build_index(docs, tmp_path / "idx", retrievers=("bm25",)))
    with pytest.raises(LogirError, match="retriever 'hybrid' needs bm25 and dense in index"):
        index.scorer("hybrid")
    with pytest.raises(LogirError, match="unknown retriever 'nope'"):
        search.choose_scorer(index, "nope")
    assert search.search_retrievers(index) == ["bm25"]


def _module_imports(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the logir modules it imports at module level (outside
    ``if TYPE_CHECKING:``)."""
    out: dict[str, set[str]] = {}
    for path in (root / package.replace(".", "/")).rglob("*.py"):
        rel = path.relative_to(root).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        deps: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                deps.add(node.module)
                deps |= {f"{node.module}.{a.name}" for a in node.names}
        out[name] = {d for d in deps if d.startswith("logir.")}
    return out


def test_index_package_has_no_import_circle_and_no_private_imports() -> None:
    root = Path(__file__).resolve().parents[2]
    graph = _module_imports(root, "logir.index")
    graph = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in graph[m]:
            assert state.get(d) != 1, f"import circle: {' -> '.join([*path, m, d])}"
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])
    assert "logir.index.bm25kernels" in graph["logir.index.bm25batch"]  # the walk sees imports
    for path in (root / "logir").rglob("*.py"):  # nobody takes a private name of logir.index
        in_index = path.parent == root / "logir" / "index"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            if module.startswith("logir.index") or (in_index and module.startswith("logir")):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.relative_to(root)} imports {private} from {module}"
