"""Hand-computed checks of logir.eval.metrics (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import pytrec_eval

from logir.errors import LogirError
from logir.eval import metrics as M

# ------------------------------------------------------------------------------------ LSNC@K


def test_lsnc_one_violation_in_top3() -> None:
    # V = 1, K = 3: -log((1+1)/(3+1)) / log(3+1) = -log(1/2)/log(4) = log 2 / (2 log 2) = 0.5
    assert M.lsnc_at_k(["a", "x", "b"], {"x"}, 3) == pytest.approx(0.5)


def test_lsnc_bounds() -> None:
    # V = 0: -log(1/4)/log(4) = 1 ; V = K = 3: -log(4/4)/log(4) = 0
    assert M.lsnc_at_k(["a", "b", "c"], {"x"}, 3) == pytest.approx(1.0)
    assert M.lsnc_at_k(["x", "y", "z"], {"x", "y", "z"}, 3) == pytest.approx(0.0)


def test_lsnc_ten_with_three_violations() -> None:
    # V = 3, K = 10: -log(4/11)/log(11) = 1 - log 4 / log 11 = 1 - 1.386294 / 2.397895 = 0.421870
    ranked = [f"d{i}" for i in range(10)]
    violating = {"d0", "d4", "d9", "d10"}  # d10 is not retrieved
    assert M.lsnc_at_k(ranked, violating, 10) == pytest.approx(1 - math.log(4) / math.log(11))
    assert M.lsnc_at_k(ranked, violating, 10) == pytest.approx(0.421870, abs=1e-6)


def test_lsnc_uses_cutoff_not_retrieved_count() -> None:
    # 2 retrieved, 1 violating, K = 5: -log(2/6)/log(6) = log 3 / log 6 = 0.613147...
    # (with the retrieved count n = 2 instead of K it would be -log(2/3)/log(3) = 0.369)
    assert M.lsnc_at_k(["a", "x"], {"x"}, 5) == pytest.approx(math.log(3) / math.log(6))


def test_lsnc_ignores_documents_below_cutoff_and_accepts_a_callable() -> None:
    ranked = ["a", "b", "c", "x"]
    assert M.lsnc_at_k(ranked, {"x"}, 3) == pytest.approx(1.0)
    assert M.lsnc_at_k(ranked, lambda d: d in {"b"}, 3) == pytest.approx(0.5)


def test_lsnc_counts_a_repeated_docid_once() -> None:
    # distinct top 3 = [x, a, b]: V = 1 -> 0.5 (not V = 2 from the repeat)
    assert M.lsnc_at_k(["x", "x", "a", "b"], {"x"}, 3) == pytest.approx(0.5)


def test_lsnc_with_label_judge() -> None:
    judge = M.LabelJudge({"q1": ["x"], "q2": []})
    assert isinstance(judge, M.Judge)
    assert judge.violates("q1", "x") and not judge.violates("q2", "x")
    assert not judge.violates("unknown", "x")
    assert M.lsnc_at_k(["a", "x", "b"], judge.for_query("q1"), 3) == pytest.approx(0.5)


def test_bad_cutoff_is_an_error() -> None:
    with pytest.raises(LogirError):
        M.lsnc_at_k(["a"], {"a"}, 0)


# --------------------------------------------------------------- NegRecall@k, violation rate


def test_neg_recall() -> None:
    # negatives n1, n2, n3; top 5 holds n1 and n3 (n2 is 6th): 2/3
    ranked = ["n1", "a", "n3", "b", "c", "n2"]
    assert M.neg_recall_at_k(ranked, {"n1", "n2", "n3"}, 5) == pytest.approx(2 / 3)
    assert M.neg_recall_at_k(ranked, {"n1", "n2", "n3"}, 6) == pytest.approx(1.0)
    assert M.neg_recall_at_k(ranked, {"zz"}, 5) == 0.0
    assert M.neg_recall_at_k(ranked, set(), 5) is None


def test_violation_rate_denominator_is_k() -> None:
    # 2 retrieved, 1 violating, k = 4: 1/4 (not 1/2)
    assert M.violation_rate_at_k(["x", "a"], {"x"}, 4) == pytest.approx(0.25)
    # top 2 of [x, y, a]: 2/2
    assert M.violation_rate_at_k(["x", "y", "a"], {"x", "y"}, 2) == pytest.approx(1.0)


# ------------------------------------------------------------------------- pairwise accuracy


def test_outranking_violations_pairs_and_missing_documents() -> None:
    ranked = ["r1", "v1", "r2", "x", "v2"]
    assert M.outranking_violations(ranked, {"r1"}, {"v1", "v2"}) == []
    assert M.outranking_violations(ranked, {"r1", "r2"}, {"v1"}) == [("v1", "r2")]
    # a relevant document not retrieved is below every retrieved violating one, best first
    assert M.outranking_violations(ranked, {"r1", "r9"}, {"v2", "v1", "v9"}) == [
        ("v1", "r9"),
        ("v2", "r9"),
    ]
    assert M.outranking_violations(["v1", "v1", "r1"], {"r1"}, {"v1"}) == [("v1", "r1")]


def test_outranking_violations_within_the_top_k() -> None:
    ranked = ["r1", "v1", "x", "v2", "r2"]
    assert M.outranking_violations(ranked, {"r1", "r2"}, {"v1", "v2"}, k=3) == [("v1", "r2")]
    assert M.outranking_violations(ranked, {"r1", "r2"}, {"v1", "v2"}, k=1) == []
    with pytest.raises(LogirError, match="cutoff k"):
        M.outranking_violations(ranked, {"r1"}, {"v1"}, k=0)


def test_pair_order_and_ties() -> None:
    assert M.pair_order([0.9, 0.8], [0.7]) == 1.0
    assert M.pair_order([0.9, 0.7], [0.7]) == 0.0  # tie with a violating doc fails
    assert M.pair_order([0.9], [0.95, 0.1]) == 0.0  # one violating doc above
    assert M.pair_order([float("nan")], [0.1]) == 0.0
    with pytest.raises(LogirError):
        M.pair_order([], [0.1])


def test_pairwise_accuracy() -> None:
    # (1 + 0 + 1 + 1) / 4
    assert M.pairwise_accuracy({"q1": 1.0, "q2": 0.0, "q3": 1.0, "q4": 1.0}) == 0.75


def test_nevir_pair_rule() -> None:
    per_query = {"p1a": 1.0, "p1b": 1.0, "p2a": 1.0, "p2b": 0.0, "p3a": 0.0, "p3b": 0.0, "p4a": 1.0}
    pair_of = {q: q[:2] for q in per_query} | {"p4b": "p4"}  # p4b has no value -> failure
    # only p1 has both queries right: 1 / 4 pairs (per-query mean would be 4/7)
    assert M.nevir_pairwise_accuracy(per_query, pair_of) == pytest.approx(0.25)
    # a query outside any pair does not change the pair count
    assert M.nevir_pairwise_accuracy(per_query | {"lonely": 1.0}, pair_of) == pytest.approx(0.25)
    with pytest.raises(LogirError):
        M.nevir_pairwise_accuracy(per_query, {})


# ------------------------------------------------------------------- Win Rate and Flip Rate


def test_win_rate_ties_lose() -> None:
    # 3>1 win, 2=2 tie (loss), 1<2 loss, 5>4 win: 2/4 (ties as 0.5 would give 0.625)
    assert M.win_rate([3, 2, 1, 5], [1, 2, 2, 4]) == 0.5
    with pytest.raises(LogirError):
        M.win_rate([1, 2], [1])


def test_ladder_win_rate() -> None:
    ladder = [
        [5, 4, 3],  # step0 win, step1 win
        [5, 6, 3],  # loss, win
        [2, 2, 1],  # tie (loss), win
        [1, 0, 2],  # win, loss
    ]
    # step0: 2/4, step1: 3/4
    assert M.ladder_win_rate(ladder) == pytest.approx([0.5, 0.75])


def test_ladder_win_rate_full_ladder() -> None:
    # strictly decreasing [Positive, HN1..HN10] wins every one of the 10 steps; reversed loses all
    row = list(np.linspace(1.0, 0.0, 11))
    assert M.ladder_win_rate([row, row]) == [1.0] * 10
    assert M.ladder_win_rate([row[::-1]]) == [0.0] * 10
    with pytest.raises(LogirError):
        M.ladder_win_rate([[1.0]])


def test_flip_rate() -> None:
    inst_pos, inst_neg = [1, 1, 1, 1, 0.5], [0, 2, 0, 1, 0]
    desc_pos, desc_neg = [1, 1, 0, 0, 0.5], [0, 0, 1, 0.5, 0.5]
    # inst above: T F T F(tie) T ; desc above: T T F F F(tie) ; flips: . x x . x -> 3/5
    # (item 4, tie vs below, is no flip: "above" is strict; sign-based order would give 4/5)
    assert M.flip_rate(inst_pos, inst_neg, desc_pos, desc_neg) == pytest.approx(0.6)
    assert M.flip_rate(inst_pos, inst_neg, inst_pos, inst_neg) == 0.0
    with pytest.raises(LogirError):
        M.flip_rate([1], [0], [1, 1], [0, 0])


# ----------------------------------------------------------------------- standard measures


def test_parse_measure() -> None:
    assert str(M.parse_measure("MAP")) == "AP"
    assert str(M.parse_measure("MRR@10")) == "RR@10"
    assert str(M.parse_measure("nDCG@10")) == "nDCG@10"
    for bad in ["Foo@3", "nDCG@ten", "", "@10"]:
        with pytest.raises(LogirError, match="supported"):
            M.parse_measure(bad)


def test_trec_eval_names_map_to_the_same_measures() -> None:
    pairs = {
        "ndcg_cut_10": "nDCG@10",
        "ndcg_cut.10": "nDCG@10",
        "recall_100": "R@100",
        "map": "AP",
        "map_cut_10": "AP@10",
        "P_5": "P@5",
        "recip_rank": "RR",
        "ndcg": "nDCG",
    }
    for trec, ours in pairs.items():
        assert M.parse_measure(trec) == M.parse_measure(ours), trec
    for bad in ["recall.10,100", "num_rel", "P_x"]:  # two measures, not a ranking figure, malformed
        with pytest.raises(LogirError, match="supported"):
            M.parse_measure(bad)
    qrels = {"q1": {"a": 1, "b": 0}}
    agg, _ = M.standard(qrels, {"q1": {"b": 0.9, "a": 0.5}}, ["recip_rank", "P_5"])
    assert agg == {"recip_rank": 0.5, "P_5": pytest.approx(0.2)}


def test_measure_cutoff() -> None:
    assert M.measure_cutoff("R@1000") == 1000 and M.measure_cutoff("ndcg_cut_10") == 10
    assert M.measure_cutoff("MAP") is None and M.measure_cutoff("recip_rank") is None


def test_standard_hand_values_and_alias_names() -> None:
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}, "q3": {"d": 1}}
    run = {
        "q1": {"b": 0.9, "a": 0.5},  # relevant at rank 2
        "q2": {f"x{i}": 1.0 - i / 100 for i in range(10)} | {"c": 0.5},  # relevant at rank 11
        "q9": {"a": 1.0},  # not judged: ignored
    }  # q3 has no run entry: counts 0
    agg, per = M.standard(qrels, run, ["MRR@10", "RR@10", "nDCG@10", "P@10"])
    # RR@10: q1 1/2, q2 0 (rank 11), q3 0 -> (0.5 + 0 + 0) / 3
    assert {q: v["MRR@10"] for q, v in per.items()} == {"q1": 0.5, "q2": 0.0, "q3": 0.0}
    assert agg["MRR@10"] == pytest.approx(0.5 / 3) and agg["RR@10"] == agg["MRR@10"]
    # nDCG@10 q1: DCG = 1/log2(3), IDCG = 1 -> 0.6309; mean over 3 judged queries
    assert per["q1"]["nDCG@10"] == pytest.approx(1 / math.log2(3))
    assert agg["nDCG@10"] == pytest.approx(1 / math.log2(3) / 3)
    # P@10 q1: 1 relevant / 10
    assert per["q1"]["P@10"] == pytest.approx(0.1)
    assert set(agg) == {"MRR@10", "RR@10", "nDCG@10", "P@10"}
    assert set(per) == {"q1", "q2", "q3"} and set(per["q3"]) == set(agg)


def test_standard_matches_pytrec_eval_with_missing_query() -> None:
    rng = np.random.default_rng(7)
    docs = [f"d{i}" for i in range(40)]
    qrels = {
        f"q{q}": {d: int(rng.integers(0, 3)) for d in rng.choice(docs, 12, replace=False)}
        for q in range(15)
    }
    run = {q: {d: float(rng.random()) for d in docs} for q in qrels if q != "q3"}
    agg, per = M.standard(qrels, run, ["nDCG@10"])

    ref = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    assert set(ref) == set(qrels) - {"q3"}
    for q in qrels:
        expected = ref[q]["ndcg_cut_10"] if q in ref else 0.0
        assert per[q]["nDCG@10"] == pytest.approx(expected, abs=1e-12)
    # the mean is over all 15 judged queries (q3 scored 0), not over the 14 that were run
    assert agg["nDCG@10"] == pytest.approx(sum(r["ndcg_cut_10"] for r in ref.values()) / 15)
    assert per["q3"]["nDCG@10"] == 0.0


def test_standard_errors() -> None:
    with pytest.raises(LogirError):
        M.standard({}, {}, ["nDCG@10"])
    with pytest.raises(LogirError, match="supported"):
        M.standard({"q": {"a": 1}}, {}, ["nope"])
    # an empty run is legal: everything scores 0
    agg, _ = M.standard({"q": {"a": 1}}, {}, ["nDCG@10"])
    assert agg == {"nDCG@10": 0.0}


# ---------------------------------------------------------------------------- significance


def test_paired_t_test_hand_value() -> None:
    # differences 1, 2, 3: t = 2 / (1/sqrt 3) = sqrt 12, df = 2;
    # t_2 two-sided p = 1 - t / sqrt(2 + t^2) = 1 - sqrt(12/14) = 0.074180
    a = {"q1": 1.0, "q2": 2.0, "q3": 3.0, "only_a": 9.0}
    b = {"q1": 0.0, "q2": 0.0, "q3": 0.0, "only_b": -9.0}
    assert M.paired_t_test(a, b) == pytest.approx(1 - math.sqrt(12 / 14), abs=1e-9)


def test_permutation_test_exact_small_n() -> None:
    # differences 1, 1, 1: of the 8 sign patterns only +++ and --- reach |mean| = 1 -> 2/8
    a = {"q1": 1.0, "q2": 1.0, "q3": 1.0}
    b = {"q1": 0.0, "q2": 0.0, "q3": 0.0}
    assert M.permutation_test(a, b) == pytest.approx(0.25)


def _systems(n: int = 40) -> tuple[dict[str, float], dict[str, float]]:
    rng = np.random.default_rng(1)
    base = rng.random(n)
    a = {f"q{i}": float(v) for i, v in enumerate(base)}
    b = {f"q{i}": float(v - 0.1 + rng.normal(0, 0.03)) for i, v in enumerate(base)}
    return a, b


def test_significance_clear_difference_and_identical_systems() -> None:
    a, b = _systems()
    assert M.paired_t_test(a, b) < 0.05
    p = M.permutation_test(a, b, n_resamples=2000, seed=3)
    assert p < 0.05 and p == pytest.approx(1 / 2001)  # no resample reaches the observed mean
    assert M.paired_t_test(a, a) == 1.0
    assert M.permutation_test(a, a, n_resamples=2000) == pytest.approx(1.0)


def test_permutation_test_is_deterministic_and_agrees_with_t_test() -> None:
    rng = np.random.default_rng(5)
    a = {f"q{i}": float(rng.random()) for i in range(50)}
    b = {q: v + float(rng.normal(0.02, 0.1)) for q, v in a.items()}
    p1 = M.permutation_test(a, b, n_resamples=5000, seed=11)
    assert p1 == M.permutation_test(a, b, n_resamples=5000, seed=11)
    assert 0.0 < p1 < 1.0
    assert p1 == pytest.approx(M.paired_t_test(a, b), abs=0.05)


def test_significance_needs_shared_queries() -> None:
    with pytest.raises(LogirError):
        M.paired_t_test({"a": 1.0}, {"b": 1.0})
    with pytest.raises(LogirError):
        M.permutation_test({"a": 1.0}, {"b": 1.0})
