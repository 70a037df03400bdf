"""Composer specs NAME[,key=value,...]: parsing, validation, systems and run file names."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.errors import LogirError
from logir.eval.runner import evaluate
from logir.eval.systems import parse_system
from logir.logic import get_composer
from logir.logic.flat import Flat
from logir.logic.fuzzy import Fuzzy
from logir.logic.registry import parse_spec
from logir.logic.sets import Sets


def test_names_and_defaults() -> None:
    assert isinstance(get_composer("flat"), Flat)
    assert isinstance(get_composer("sets"), Sets)
    fz = get_composer("fuzzy")
    assert isinstance(fz, Fuzzy)
    assert (fz.and_op, fz.or_op, fz.not_op, fz.depth) == ("product", "sum", "one_minus", 100)


def test_parameters_are_converted() -> None:
    fz = get_composer(" fuzzy, and=min ,or=max,not=inverse,calib=minmax,depth=50 ")
    assert isinstance(fz, Fuzzy)
    assert (fz.and_op, fz.or_op, fz.not_op, fz.calibration, fz.depth) == (
        "min",
        "max",
        "inverse",
        "minmax",
        50,
    )
    fixed = get_composer("fuzzy,tau=1.5,lam=-2e-1")
    assert isinstance(fixed, Fuzzy)
    assert (fixed.calibration, fixed.tau, fixed.lam) == ("sigmoid", 1.5, -0.2)
    cdf = get_composer("fuzzy,fit=cdf")
    assert isinstance(cdf, Fuzzy) and cdf.sigmoid_fit == "cdf"
    sets = get_composer("sets,depth=20")
    assert isinstance(sets, Sets) and sets.depth == 20
    assert parse_spec("fuzzy,and=min") == ("fuzzy", {"and": "min"})


@pytest.mark.parametrize(
    ("spec", "fragments"),
    [
        ("fizzy", ["'fizzy'", "auto, exclusion, flat, fuzzy, sets, vectors"]),
        ("fuzzy,size=3", ["'size'", "and, or, not, calib, fit, depth, tau, lam"]),
        ("fuzzy,k=3,depth=4", ["'k'", "'depth'", "write 'depth' only"]),
        ("fuzzy,fit=spline", ["'spline'", "anchors, cdf"]),
        ("fuzzy,calib=rank,fit=cdf", ["fit only applies"]),
        ("fuzzy,and=max", ["'max'", "'and'", "product, sum, min"]),
        ("fuzzy,calib=platt", ["'platt'", "none, minmax, sigmoid, rank"]),
        ("fuzzy,k=ten", ["'ten'", "'k'", "integer"]),
        ("fuzzy,k=0", ["'k'", "from 1 to"]),
        ("fuzzy,tau=x,lam=1", ["'tau'", "number"]),
        ("fuzzy,and", ["'and'", "key=value"]),
        ("fuzzy,", ["key=value"]),
        ("fuzzy,k=1,k=2", ["'k'", "twice"]),
        ("fuzzy,tau=0.5", ["tau", "lam"]),
        ("fuzzy,calib=rank,tau=0.5,lam=2", ["calib=sigmoid"]),
        ("flat,k=3", ["'k'", "allowed: none"]),
        ("sets,depth=-1", ["'depth'"]),
    ],
)
def test_bad_specs_say_what_is_allowed(spec: str, fragments: list[str]) -> None:
    with pytest.raises(LogirError) as info:
        get_composer(spec)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_system_names_split_on_the_first_colon() -> None:
    spec = parse_system("dense:fuzzy,and=min")
    assert (spec.retriever, spec.composer) == ("dense", "fuzzy,and=min")
    assert spec.file_stem == "dense_fuzzy,and=min"
    with pytest.raises(LogirError):
        parse_system("bm25:fuzzy,and=nope")


def test_eval_end_to_end_writes_the_run_file(tmp_path: Path, tiny_logic_dataset) -> None:
    ds = tiny_logic_dataset
    systems = ["bm25", "bm25:fuzzy,and=min", "bm25:sets"]
    res = evaluate(ds, systems, k=4, runs_dir=tmp_path)
    assert (tmp_path / "bm25_fuzzy,and=min.trec").is_file()
    by_name = {s.name: s for s in res.systems}
    assert by_name["bm25:fuzzy,and=min"].overall["PairAcc"] == 1.0
    assert by_name["bm25:sets"].overall["PairAcc"] == 1.0
    assert by_name["bm25:fuzzy,and=min"].overall["nDCG@10"] == 1.0


def test_state_cache_is_per_scorer_and_bounded(fake) -> None:
    from logir.logic.contract import StateCache

    a, b = fake({"x": [1.0]}), fake({"x": [1.0]})
    cache: StateCache[int] = StateCache(limit=2)
    cache.put(a, "q1", 1)
    found, todo = cache.split(["q1", "q2", "q2"], a)
    assert found == {"q1": 1} and todo == ["q2"]
    assert cache.split(["q1"], b) == ({}, ["q1"])  # another scorer's state is not reused
    cache.put(a, "q2", 2)
    cache.split(["q1"], a)  # q1 is now the most recently used
    cache.put(a, "q3", 3)
    assert len(cache) == 2 and cache.split(["q2"], a) == ({}, ["q2"])


@pytest.mark.parametrize(
    ("old", "new", "attr"),
    [
        ("fuzzy,k=7", "fuzzy,depth=7", "depth"),
        ("vectors,k=7", "vectors,depth=7", "depth"),
        ("auto,k=7", "auto,depth=7", "depth"),
        ("hybrid,beta=0.4", "exclusion,beta=0.4", "beta"),
    ],
)
def test_old_names_still_work_with_a_deprecation_warning(old: str, new: str, attr: str) -> None:
    from logir.logic.registry import deprecations

    with pytest.warns(DeprecationWarning):
        was = get_composer(old)
    now = get_composer(new)
    assert type(was) is type(now) and getattr(was, attr) == getattr(now, attr)
    assert deprecations(old) and not deprecations(new)


def test_composer_facts_are_on_the_contract() -> None:
    from logir.logic import composers
    from logir.logic.contract import Composer
    from logir.logic.registry import additive_composers

    assert set(additive_composers()) == {"auto", "exclusion", "flat"}
    named = composers()
    assert "hybrid" not in named and all(issubclass(c, Composer) for c in named.values())
    assert {n for n, c in named.items() if c.uses_llm} == {"agr", "hyde", "inter", "lamer"}
    assert get_composer("fuzzy").stats() == {} and get_composer("flat").explain is not None


def test_logic_has_no_import_cycle() -> None:
    """logic/ modules import one another in one direction: contract below composers, registry
    above them (before issue 11, base.py was both and 12 files formed one circle)."""
    import ast
    import graphlib

    import logir.logic

    root = Path(logir.logic.__file__).parent
    names = {
        ".".join(("logir", *p.relative_to(root.parent).with_suffix("").parts)): p
        for p in root.rglob("*.py")
        if p.name != "__init__.py"
    }
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found |= {t for t in targets if t in names and t != name}
        graph[name] = found
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError on a cycle
