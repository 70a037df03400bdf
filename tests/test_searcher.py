"""The front door: ``logir.Searcher``, and one reading per search in every front end."""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import logir
from logir.data.dataset import Document
from logir.index.store import build_index
from logir.query import natural, reading

PASSAGES = {
    "sat": "Einstein's key achievements in physics: the photoelectric effect and Brownian motion.",
    "vio": "Einstein's key achievement in physics was relativity; relativity changed physics.",
    "other1": "Newton described gravity and the laws of motion in the Principia.",
    "other2": "Marie Curie studied radioactivity and won two Nobel prizes.",
    "other3": "The photoelectric effect releases electrons from metal under light.",
}
EXCLUDING = "Key achievements of Einstein in physics, excluding relativity"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=i, text=t) for i, t in PASSAGES.items()]
    return build_index(docs, tmp_path_factory.mktemp("searcher") / "idx", retrievers=("bm25",))


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Calls of the one reading function, and of the natural-language decomposer behind it."""
    calls = {"read": 0, "decompose": 0}

    def spy(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return fn(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(reading, "read", spy("read", reading.read))
    monkeypatch.setattr(natural, "decompose", spy("decompose", natural.decompose))
    yield calls


def test_the_python_api_example(index_dir: Path) -> None:
    result = logir.Searcher(index_dir).search(EXCLUDING, k=3)
    assert [h.id for h in result.hits][0] == "sat"
    assert result.reading.mode_used == "natural" and result.composer == "auto"
    assert result.logical_form == '"Key achievements of Einstein in physics" AND NOT "relativity"'
    assert result.hits[0].rank == 1 and result.hits[0].evidence
    assert result.explanation[1].startswith("auto: positive part minus excluded evidence")
    assert json.loads(json.dumps(result.to_dict()))["hits"][0]["id"] == "sat"


def test_natural_mode_reports_the_cue_auto_acted_on(index_dir: Path) -> None:
    searcher = logir.Searcher(index_dir, retriever="bm25")
    found = searcher.search(EXCLUDING, mode="natural", k=2)
    assert "negation:exception" in found.reading.cues
    line = found.explanation[1]
    assert "the wording excludes a topic" in line and "cue: negation:exception" in line
    assert "logir syntax" not in line
    syntax = searcher.search('"Einstein" AND NOT relativity', k=2)
    assert "(logir syntax)" in syntax.explanation[1]


@pytest.mark.parametrize("composer", ["auto", "flat", "fuzzy", "sets", "vectors", "exclusion"])
@pytest.mark.parametrize("mode", ["auto", "natural"])
def test_one_reading_per_cli_search(
    index_dir: Path, counted: dict[str, int], composer: str, mode: str, capsys
) -> None:
    from logir.cli import run

    code = run(["search", str(index_dir), EXCLUDING, "--composer", composer, "--mode", mode,
                "--explain"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert counted == {"read": 1, "decompose": 1}


def test_one_reading_per_api_search(index_dir: Path, counted: dict[str, int]) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from logir.serve import create_app

    with TestClient(create_app(index_dir)) as client:
        for composer in ("auto", "fuzzy", "sets", "vectors", "flat"):
            counted.update(read=0, decompose=0)
            body = {"query": EXCLUDING, "composer": composer, "mode": "natural", "k": 3}
            r = client.post("/search", json=body)
            assert r.status_code == 200, r.text
            assert counted == {"read": 1, "decompose": 1}, composer
        assert r.json()["explanation"][0].startswith("logical form:")


def test_no_isinstance_on_composer_classes_outside_logic() -> None:
    names = {"Flat", "Fuzzy", "Sets", "Vectors", "Exclusion", "Auto", "Rewriter", "HyDE"}
    root = Path(logir.__file__).parent
    for path in root.rglob("*.py"):
        if "logic" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
                used = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
                assert not used & names, (path, sorted(used & names))


def test_the_readme_python_example_runs(
    index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "my-index").symlink_to(index_dir, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "auto:" in printed and " sat " in printed


def test_a_text_handed_to_flat_is_not_read(index_dir: Path, counted: dict[str, int]) -> None:
    from logir.logic import get_composer

    _, scorer = logir.Searcher(index_dir).scorer()
    get_composer("flat").rank([EXCLUDING], scorer, 2)
    assert counted == {"read": 0, "decompose": 0}
    get_composer("fuzzy").rank([EXCLUDING], scorer, 2)  # a logical composer reads it, once
    assert counted == {"read": 1, "decompose": 1}


def test_applied_says_when_auto_ranked_flat_despite_a_not(index_dir: Path) -> None:
    searcher = logir.Searcher(index_dir)
    prop = searcher.search("an actor who never won an Oscar", k=2)
    assert "NOT" in (prop.logical_form or "")
    assert prop.applied.kind == "flat" and "no exclusion cue" in prop.applied.reason
    assert prop.to_dict()["applied"] == "flat"
    excl = searcher.search(EXCLUDING, k=2).to_dict()
    assert (excl["applied"], excl["applied_reason"]) == ("exclude", "the wording excludes a topic")
    fuzzy = searcher.search('"physics" AND NOT "relativity"', k=2, composer="fuzzy").to_dict()
    assert fuzzy["applied"] == "logic"
    assert searcher.search(EXCLUDING, k=2, composer="flat").applied.kind == "flat"


def test_spelling_can_be_switched_for_every_loaded_scorer(index_dir: Path) -> None:
    searcher = logir.Searcher(index_dir, retriever="bm25")
    text = "radioactivty prizes"
    on = searcher.search(text, k=2, composer="flat")
    assert on.corrections == {"radioactivty": "radioactivity"}
    assert on.explanation[1] == (
        "spelling: BM25 read 'radioactivty' as 'radioactivity' (--no-spelling to keep words "
        "as typed)"
    )
    searcher.use_spelling(False)
    off = searcher.search(text, k=2, composer="flat")
    assert off.corrections == {} and off.hits[0].score < on.hits[0].score
    assert logir.Searcher(index_dir, retriever="bm25", spelling=False).spelling is False
