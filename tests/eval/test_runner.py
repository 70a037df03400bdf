"""The runner on small hand-made datasets: runs, figures, logic metrics, breakdowns."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytrec_eval

from logir.data.dataset import Dataset, Document, Topic
from logir.data.trec import read_run
from logir.errors import LogirError
from logir.eval.runner import evaluate
from logir.eval.systems import parse_system

DOCS = [
    Document("d1", "vitamin D supports the immune system and mood"),
    Document("d2", "vitamin D builds strong bone and prevents bone loss"),
    Document("d3", "the immune system fights infections"),
    Document("d4", "bone health needs calcium"),
    Document("d5", "films by Christopher Nolan include Memento"),
]


def tiny() -> Dataset:
    queries = [
        Topic("q1", "vitamin D immune", facets={"type": "and"}),
        Topic("q2", "vitamin D but not bone", facets={"type": "not"}),
        Topic("q3", "Nolan films", facets={"type": "and"}),
    ]
    qrels = {"q1": {"d1": 2}, "q2": {"d1": 1}, "q3": {"d5": 1}}
    return Dataset("tiny", DOCS, queries, qrels, violating={"q2": ["d2"]})


def test_run_file_reproduces_printed_ndcg(tmp_path: Path) -> None:
    res = evaluate(tiny(), ["bm25"], k=5, runs_dir=tmp_path)
    run = read_run(tmp_path / "bm25.trec")
    assert set(run) == {"q1", "q2", "q3"}
    ev = pytrec_eval.RelevanceEvaluator(tiny().qrels, {"ndcg_cut_10"})
    per = ev.evaluate(run)
    mean = sum(v["ndcg_cut_10"] for v in per.values()) / 3
    assert res.systems[0].overall["nDCG@10"] == pytest.approx(mean, abs=1e-9)


def test_logic_metrics_only_on_labelled_queries() -> None:
    res = evaluate(tiny(), ["bm25"], k=10)
    s = res.systems[0]
    assert "PairAcc" in s.per_query["q2"] and "PairAcc" not in s.per_query["q1"]
    # "vitamin D but not bone" matches d2 (vitamin, D, bone) above d1 (vitamin, D): flat fails
    assert s.per_query["q2"]["PairAcc"] == 0.0
    assert s.overall["NegRecall@10"] == 1.0
    assert s.breakdown["type"]["not"]["n"] == 1.0
    assert s.breakdown["type"]["and"]["n"] == 2.0


def test_significance_against_first_system() -> None:
    res = evaluate(tiny(), ["bm25", "bm25:flat"], k=5)
    sig = res.significance["bm25:flat vs bm25"]
    assert sig["measure_diff"] == 0.0 and sig["p_ttest"] == 1.0


def test_no_significance_test_without_the_headline_measure() -> None:
    res = evaluate(tiny(), ["bm25", "bm25:flat"], k=5, measures=["MRR@10"])
    assert res.significance == {}
    assert res.systems[1].overall["MRR@10"] == res.systems[0].overall["MRR@10"]


def test_system_names_and_run_file_stems() -> None:
    assert parse_system("dense").composer == "flat"
    assert parse_system("bm25:flat").file_stem == "bm25_flat"
    with pytest.raises(LogirError, match="unknown retriever"):
        parse_system("tfidf")
    with pytest.raises(LogirError, match="unknown composer"):
        parse_system("bm25:magic")


def test_unknown_measure_is_rejected() -> None:
    with pytest.raises(LogirError):
        evaluate(tiny(), ["bm25"], measures=["nDCG@ten"])


def test_multiconir_win_and_flip_rates() -> None:
    from logir.data.benchmarks import load_benchmark

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "multiconir"
    ds = load_benchmark("multiconir", fixture)
    res = evaluate(ds, ["bm25"], k=10)
    extra = res.systems[0].extra
    assert set(extra["win_rate"]) == {"instruction", "descriptive"}
    assert set(extra["win_rate"]["instruction"]) == {str(k) for k in range(1, 11)}
    assert all(0.0 <= v <= 1.0 for v in extra["flip_rate"].values())
    assert len(extra["ladder_win_rate"]["instruction"]) == 10


def test_the_pool_gives_each_scorer_the_corpus_texts() -> None:
    from logir.eval.systems import ScorerPool
    from logir.index.base import scorer_passages

    docs = [Document("a", "no coffee in it", "Tiramisu"), Document("b", "coffee granita")]
    bm25 = ScorerPool(docs).get("bm25")
    assert scorer_passages(bm25) == ["Tiramisu\nno coffee in it", "coffee granita"]


def test_the_pool_passes_the_spelling_switch_to_bm25() -> None:
    from logir.eval.systems import ScorerPool

    docs = [Document("a", "coffee granita"), Document("b", "lemon sorbet")]
    assert ScorerPool(docs).get("bm25").corrections("coffe") == {"coffe": "coffee"}
    off = ScorerPool(docs, spelling=False).get("bm25")
    assert off.spelling is False and off.corrections("coffe") == {}
