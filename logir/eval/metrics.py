"""Evaluation measures: standard IR measures through ir_measures, logic measures by hand.

Shapes: ``qrels`` is ``{qid: {docid: grade}}``, ``run`` is ``{qid: {docid: score}}``, a ranked list
is a list of docids, best first. Ranked lists should hold each docid once; where one repeats, only
its first (best) position counts. The logic measures follow the papers in ``shared/papers``:

- LSNC@K (ComLQ, eq. 2), NegRecall@k (BoolQuestions, §6.1), violation rate,
- pairwise accuracy and NevIR's pair rule (NevIR),
- Win Rate and Flip Rate (MultiConIR, §3.3 and Appendix D),
- paired significance tests over per-query values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import product
from typing import Protocol, runtime_checkable

import ir_measures
import numpy as np
from scipy import stats

from logir.errors import LogirError

__all__ = [
    "SUPPORTED_MEASURES",
    "Judge",
    "LabelJudge",
    "flip_rate",
    "ladder_win_rate",
    "lsnc_at_k",
    "measure_cutoff",
    "neg_recall_at_k",
    "nevir_pairwise_accuracy",
    "outranking_violations",
    "pair_order",
    "paired_t_test",
    "pairwise_accuracy",
    "parse_measure",
    "permutation_test",
    "standard",
    "violation_rate_at_k",
    "win_rate",
]

Qrels = Mapping[str, Mapping[str, int]]
Run = Mapping[str, Mapping[str, float]]
Violates = Callable[[str], bool] | AbstractSet[str]

# ----------------------------------------------------------------------------- standard measures

# Families whose aggregate is the mean of per-query values (so missing queries can count as 0).
_FAMILIES = ("nDCG", "AP", "RR", "R", "P", "Success", "Judged", "Bpref", "Rprec")
_ALIASES = {"MAP": "AP", "MRR": "RR"}
SUPPORTED_MEASURES = (
    "nDCG, nDCG@k, MAP (= AP), MAP@k, MRR@k (= RR@k), RR, R@k, P@k, Success@k, Judged@k, Bpref, "
    "Rprec; ir_measures parameters also work, e.g. P(rel=2)@10; so do trec_eval names such as "
    "ndcg_cut_10, map, recall_100, P_5, recip_rank"
)
_NAME = re.compile(r"^([A-Za-z]+)(.*)$")


def _trec_eval_measure(name: str) -> ir_measures.Measure | None:
    """The one measure a trec_eval name (``ndcg_cut_10``, ``map``, ``P_5``) names, else None."""
    try:
        found = ir_measures.parse_trec_measure(name)
    except Exception:  # not a trec_eval name
        return None
    if len(found) != 1 or found[0].NAME not in _FAMILIES:
        return None
    return found[0]


def parse_measure(name: str) -> ir_measures.Measure:
    """The ir_measures measure for a name such as ``nDCG@10``, ``MAP``, ``MRR@10``, or a
    trec_eval name such as ``ndcg_cut_10``, ``map``, ``recall_100``, ``P_5``, ``recip_rank``.

    Raises LogirError naming the supported measures when the name is unknown or malformed.
    """
    match = _NAME.match(name.strip())
    family = match.group(1) if match else ""
    family = _ALIASES.get(family, family)
    if family not in _FAMILIES:
        trec = _trec_eval_measure(name.strip())
        if trec is not None:
            return trec
        raise LogirError(f"unknown measure {name!r}; supported: {SUPPORTED_MEASURES}")
    assert match is not None
    try:
        return ir_measures.parse_measure(family + match.group(2))
    except Exception as exc:  # ir_measures raises NameError / ValueError / SyntaxError / ...
        trec = _trec_eval_measure(name.strip())
        if trec is not None:
            return trec
        raise LogirError(
            f"malformed measure {name!r} ({exc}); supported: {SUPPORTED_MEASURES}"
        ) from exc


def measure_cutoff(name: str) -> int | None:
    """The rank cutoff of measure ``name`` (1000 for ``R@1000``), None when it has none."""
    cutoff = parse_measure(name).params.get("cutoff")
    return None if cutoff is None else int(cutoff)


def standard(
    qrels: Qrels, run: Run, measures: list[str]
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Standard measures (trec_eval-exact through ir_measures) as ``(aggregate, per_query)``.

    Measures are keyed by the name exactly as given (``"MRR@10"`` stays ``"MRR@10"``);
    ``per_query`` is ``{qid: {name: value}}``. Every query in ``qrels`` counts: one with no run
    entry (or an empty one) scores 0, so the aggregate is the mean over all judged queries, as
    papers report it. Run queries absent from ``qrels`` are ignored.
    """
    if not qrels:
        raise LogirError("qrels holds no queries; nothing to evaluate")
    if not measures:
        raise LogirError(f"no measures given; supported: {SUPPORTED_MEASURES}")
    names_of: dict[ir_measures.Measure, list[str]] = {}
    for name in dict.fromkeys(measures):
        names_of.setdefault(parse_measure(name), []).append(name)

    qrels_in = {q: {d: int(g) for d, g in docs.items()} for q, docs in qrels.items()}
    names_flat = [name for names in names_of.values() for name in names]
    run_in = {
        q: {d: float(s) for d, s in docs.items()} for q, docs in run.items() if q in qrels and docs
    }
    per_query = {q: dict.fromkeys(names_flat, 0.0) for q in qrels_in}
    if run_in:
        for metric in ir_measures.iter_calc(list(names_of), qrels_in, run_in):
            if metric.query_id in per_query:
                for name in names_of[metric.measure]:
                    per_query[metric.query_id][name] = float(metric.value)
    aggregate = {
        name: float(np.mean([values[name] for values in per_query.values()])) for name in names_flat
    }
    return aggregate, per_query


# -------------------------------------------------------------------------------- logic measures


def _top(ranked: Sequence[str], k: int) -> list[str]:
    """The first k distinct docids of a ranked list."""
    if k < 1:
        raise LogirError(f"cutoff k must be >= 1, got {k}")
    seen: dict[str, None] = {}
    for docid in ranked:
        if len(seen) == k:
            break
        seen.setdefault(docid, None)
    return list(seen)


def _as_predicate(violates: Violates) -> Callable[[str], bool]:
    if isinstance(violates, AbstractSet):
        return violates.__contains__
    return violates


def lsnc_at_k(ranked: Sequence[str], violates: Violates, k: int) -> float:
    """Log-Scaled Negation Consistency, ComLQ eq. 2: ``-log((V + 1) / (K + 1)) / log(K + 1)``.

    V counts the top-K documents that violate the query's negation; K is the cutoff, not the
    number retrieved. 1.0 with no violation, 0.0 when all K violate.
    """
    is_violating = _as_predicate(violates)
    v = sum(1 for docid in _top(ranked, k) if is_violating(docid))
    return -math.log((v + 1) / (k + 1)) / math.log(k + 1)


def neg_recall_at_k(ranked: Sequence[str], negatives: AbstractSet[str], k: int) -> float | None:
    """NegRecall@k, BoolQuestions §6.1: share of the explicit negatives found in the top k.

    Lower is better. None when the query has no explicit negatives (leave it out of the mean).
    """
    top = _top(ranked, k)
    if not negatives:
        return None
    return sum(1 for docid in top if docid in negatives) / len(negatives)


def violation_rate_at_k(ranked: Sequence[str], violating: Violates, k: int) -> float:
    """Share of the top-k slots filled by violating documents (denominator k, lower is better)."""
    is_violating = _as_predicate(violating)
    return sum(1 for docid in _top(ranked, k) if is_violating(docid)) / k


def pair_order(sat_scores: Sequence[float], viol_scores: Sequence[float]) -> float:
    """1.0 when every satisfying document scores strictly above every violating one, else 0.0.

    Ties (and NaN scores) are failures. This is one query's term in NevIR's pairwise accuracy.
    """
    sat = np.asarray(sat_scores, dtype=np.float64)
    viol = np.asarray(viol_scores, dtype=np.float64)
    if sat.size == 0 or viol.size == 0:
        raise LogirError("pair_order needs at least one satisfying and one violating score")
    return 1.0 if bool(sat.min() > viol.max()) else 0.0


def outranking_violations(
    ranked: Sequence[str],
    relevant: AbstractSet[str],
    violating: AbstractSet[str],
    k: int | None = None,
) -> list[tuple[str, str]]:
    """Every ``(violating, relevant)`` pair in which the violating document ranks above the
    relevant one, best-ranked violating document first; empty when the order obeys the query.

    This is :func:`pair_order` read off a ranked list. With ``k``, only violating documents in
    the top k count (what a reader of k hits sees), still against relevant ones at any rank. A
    document missing from ``ranked`` counts as ranked below all of it, so a relevant one not
    retrieved is outranked by every violating one that is.
    """
    if k is not None and k < 1:
        raise LogirError(f"cutoff k must be >= 1, got {k}")
    position: dict[str, int] = {}
    for i, docid in enumerate(ranked):
        position.setdefault(docid, i)
    last = len(position)
    rel = sorted(relevant, key=lambda d: (position.get(d, last), d))
    shown = [d for d in violating if d in position and (k is None or position[d] < k)]
    pairs = []
    for bad in sorted(shown, key=position.__getitem__):
        pairs.extend((bad, good) for good in rel if position.get(good, last) > position[bad])
    return pairs


def pairwise_accuracy(pairs: Mapping[str, float]) -> float:
    """Mean of per-query ``pair_order`` values: share of queries whose order is right."""
    if not pairs:
        raise LogirError("pairwise_accuracy needs at least one query")
    return float(np.mean(list(pairs.values())))


def nevir_pairwise_accuracy(per_query: Mapping[str, float], pair_of: Mapping[str, str]) -> float:
    """NevIR pairwise accuracy: share of pairs where every query of the pair scores 1.0.

    ``per_query`` holds ``pair_order`` values, ``pair_of`` maps each qid to its pair id. A query
    of a pair with no value counts as a failure; queries outside ``pair_of`` are ignored. Random
    ordering gives 25 % on two-query pairs.
    """
    if not pair_of:
        raise LogirError("nevir_pairwise_accuracy needs at least one pair")
    ok: dict[str, bool] = {}
    for qid, pair in pair_of.items():
        ok[pair] = ok.get(pair, True) and per_query.get(qid) == 1.0
    return sum(ok.values()) / len(ok)


def _paired(a: Sequence[float], b: Sequence[float], what: str) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise LogirError(f"{what}: score lists differ in length ({len(a)} vs {len(b)})")
    if x.size == 0:
        raise LogirError(f"{what}: no comparisons")
    return x, y


def win_rate(higher: Sequence[float], lower: Sequence[float]) -> float:
    """MultiConIR Win Rate: share of comparisons where the document meeting more conditions
    (``higher[i]``) scores strictly above the one meeting fewer (``lower[i]``).

    Ties count as losses. Task 1 (query_k, Positive vs HN1) is this over items; it equals P@1.
    """
    x, y = _paired(higher, lower, "win_rate")
    return float(np.mean(x > y))


def ladder_win_rate(ladder_scores: Sequence[Sequence[float]]) -> list[float]:
    """MultiConIR Task 2 (relevance monotonicity): per-step Win Rate along the ladder.

    Each row holds one item's scores of ``[Positive, HN1, ..., HN10]`` under query10; entry j of
    the result is the share of rows with ``row[j] > row[j + 1]`` (ties lose).
    """
    scores = np.asarray(ladder_scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[0] == 0 or scores.shape[1] < 2:
        raise LogirError(
            "ladder_win_rate needs a non-empty table of equal-length rows with >= 2 documents"
        )
    return [float(v) for v in np.mean(scores[:, :-1] > scores[:, 1:], axis=0)]


def flip_rate(
    inst_pos: Sequence[float],
    inst_neg: Sequence[float],
    desc_pos: Sequence[float],
    desc_neg: Sequence[float],
) -> float:
    """MultiConIR Flip Rate: share of (item, k) whose Positive-vs-HN1 order differs between the
    instruction-style and the descriptive-style query (lower is better).

    "Positive above" means strictly above, as in ``win_rate``; a tie reads as "not above".
    """
    ip, ineg = _paired(inst_pos, inst_neg, "flip_rate")
    dp, dneg = _paired(desc_pos, desc_neg, "flip_rate")
    if ip.shape != dp.shape:
        raise LogirError(f"flip_rate: {ip.size} instruction vs {dp.size} descriptive comparisons")
    return float(np.mean((ip > ineg) != (dp > dneg)))


# --------------------------------------------------------------------------------------- judges


@runtime_checkable
class Judge(Protocol):
    """Decides LSNC's indicator V(d): does document ``docid`` violate query ``qid``'s negation?"""

    def violates(self, qid: str, docid: str) -> bool: ...


class LabelJudge:
    """A Judge from explicit labels: ``{qid: [violating docids]}``; unlisted documents pass."""

    def __init__(self, violating: Mapping[str, Sequence[str]]) -> None:
        self._violating = {qid: frozenset(docs) for qid, docs in violating.items()}

    def violates(self, qid: str, docid: str) -> bool:
        return docid in self._violating.get(qid, frozenset())

    def for_query(self, qid: str) -> Callable[[str], bool]:
        """The one-argument predicate ``lsnc_at_k`` and ``violation_rate_at_k`` take."""
        return lambda docid: self.violates(qid, docid)


# --------------------------------------------------------------------------------- significance


def _differences(a: Mapping[str, float], b: Mapping[str, float]) -> np.ndarray:
    shared = sorted(set(a) & set(b))
    if not shared:
        raise LogirError("significance test: the two systems share no query ids")
    return np.array([a[q] - b[q] for q in shared], dtype=np.float64)


def paired_t_test(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Two-sided p-value of a paired t-test over the shared queries (scipy ``ttest_rel``).

    1.0 when every difference is 0; a constant non-zero difference gives 0.0.
    """
    d = _differences(a, b)
    if np.all(d == 0):
        return 1.0
    if d.size < 2:
        raise LogirError("paired_t_test needs at least 2 shared queries")
    if np.all(d == d[0]):
        return 0.0
    return float(stats.ttest_rel(d, np.zeros_like(d)).pvalue)


def permutation_test(
    a: Mapping[str, float], b: Mapping[str, float], n_resamples: int = 10000, seed: int = 0
) -> float:
    """Two-sided paired randomisation test over the shared queries.

    Each resample flips the sign of every per-query difference at random; p is the share of
    resamples (the observed one included) whose |mean| reaches the observed |mean|. When
    2^n <= n_resamples all sign patterns are enumerated (exact p). Deterministic for a seed.
    """
    if n_resamples < 1:
        raise LogirError(f"n_resamples must be >= 1, got {n_resamples}")
    d = _differences(a, b)
    n = d.size
    observed = abs(d.mean())
    tol = 1e-9 * float(np.abs(d).mean()) if n else 0.0
    if n <= 20 and 2**n <= n_resamples:
        signs = np.array(list(product((1.0, -1.0), repeat=n)))
        means = signs @ d / n
        return float(np.mean(np.abs(means) >= observed - tol))
    rng = np.random.default_rng(seed)
    chunk = max(1, min(n_resamples, 2_000_000 // n))
    hits, done = 0, 0
    while done < n_resamples:
        m = min(chunk, n_resamples - done)
        signs = rng.integers(0, 2, size=(m, n)).astype(np.float64) * 2.0 - 1.0
        hits += int(np.count_nonzero(np.abs(signs @ d / n) >= observed - tol))
        done += m
    return (hits + 1) / (n_resamples + 1)
