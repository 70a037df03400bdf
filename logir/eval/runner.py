"""Systems x dataset -> runs -> per-query figures -> overall figures and breakdowns.

Each topic is read once (:func:`logir.query.reading.read`, ``auto`` mode) and every system ranks
that Reading. ``logical_form="gold"`` ranks the topics that carry the benchmark's own logical form
(``Topic.logical_form``) from it instead; ``"both"`` adds, for every system whose composer reads
the logical form, a second system named ``NAME@gold``.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from logir.data.dataset import Dataset, Topic
from logir.data.jsonl import require_writable
from logir.data.trec import write_run
from logir.errors import LogirError
from logir.eval import metrics as M
from logir.eval.pacing import DEFAULT_SECONDS, paced_batches
from logir.eval.systems import ScorerPool, SystemSpec, composer_for, parse_system
from logir.limits import k_problem
from logir.logic.contract import Composer
from logir.logic.ranking import Ranking
from logir.query.reading import Reading, gold, read
from logir.query.syntax import QuerySyntaxError

if TYPE_CHECKING:
    from logir.llm import ChatClient

DEFAULT_MEASURES = ["nDCG@10", "MRR@10", "R@100", "MAP"]
#: where the logical forms the composers rank come from
LOGICAL_FORMS = ("parsed", "gold", "both")
GOLD_SUFFIX = "@gold"
#: the headline measure: significance tests and breakdown tables use it
HEADLINE = "nDCG@10"

Progress = Callable[[str, int, int], None]


@dataclass
class SystemResult:
    """Everything measured for one system on one dataset."""

    name: str
    overall: dict[str, float]
    per_query: dict[str, dict[str, float]]
    breakdown: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    run_file: str | None = None


@dataclass
class EvalResult:
    dataset: str
    n_queries: int
    n_docs: int
    measures: list[str]
    systems: list[SystemResult]
    significance: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "n_queries": self.n_queries,
            "n_docs": self.n_docs,
            "measures": self.measures,
            "headline": HEADLINE,
            "systems": {
                s.name: {
                    "overall": s.overall,
                    "breakdown": s.breakdown,
                    "extra": s.extra,
                    "run_file": s.run_file,
                    "per_query": s.per_query,
                }
                for s in self.systems
            },
            "significance": self.significance,
        }


def evaluate(
    dataset: Dataset,
    systems: list[str],
    k: int = 100,
    measures: list[str] | None = None,
    runs_dir: Path | None = None,
    dense_model: str | None = None,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    batch_size: int = 256,
    pool: ScorerPool | None = None,
    llm: ChatClient | None = None,
    logical_form: str = "parsed",
    depth: int | None = None,
    pace: float | None = DEFAULT_SECONDS,
) -> EvalResult:
    """Evaluate each named system on ``dataset``; write one TREC run per system into runs_dir.

    ``pool`` reuses scorers already built over the same corpus (tuning loops). ``llm`` is the
    client the query-rewriting composers (hyde, lamer, inter, agr) ask; their system's ``extra``
    then holds ``rewrite``: queries, fallbacks to flat, the last endpoint error, LLM usage.
    ``logical_form`` is ``parsed`` (read from the text), ``gold`` (the benchmark's own form where a
    topic has one) or ``both`` (see the module docstring). ``k`` is the number of hits ranked per
    query (the run's length); ``depth`` is its old name (deprecated). Queries are ranked in
    batches of at most ``batch_size``, each sized to take about ``pace`` seconds so that
    ``progress`` is told often (:mod:`logir.eval.pacing`; None: always ``batch_size``).
    """
    if logical_form not in LOGICAL_FORMS:
        raise LogirError(
            f"unknown logical form source {logical_form!r}; known: {', '.join(LOGICAL_FORMS)}"
        )
    if depth is not None:
        warnings.warn("evaluate(depth=) is now k=", DeprecationWarning, stacklevel=2)
        k = depth
    problem = k_problem(k)
    if problem:
        raise LogirError(problem)
    if runs_dir is not None:
        require_writable(runs_dir, "runs folder", folder=True)
    specs = [parse_system(s, llm) for s in systems]
    measures = list(measures or DEFAULT_MEASURES)
    for m in measures:
        M.parse_measure(m)
    topics = [t for t in dataset.queries if t.id in dataset.qrels]
    if pool is None:
        pool = ScorerPool(dataset.corpus, dense_model=dense_model, cache_dir=cache_dir)
    if logical_form != "parsed" and not any(t.logical_form for t in topics):
        raise LogirError(f"no query of dataset {dataset.name} carries a logical form (gold)")
    readings = TopicReadings(topics)
    results = []
    for spec in specs:
        forms = {"parsed": [False], "gold": [True], "both": [False, True]}[logical_form]
        for use_gold in forms:
            composer = composer_for(spec, llm=llm, passages=pool.texts)
            if use_gold and logical_form == "both" and not composer.reads_logical_form:
                continue  # it ranks the text: the same run as the parsed one
            named = replace(spec, name=spec.name + GOLD_SUFFIX)
            results.append(
                _evaluate_system(
                    dataset, topics, named if logical_form == "both" and use_gold else spec,
                    composer, readings.get(use_gold), pool, k, measures, runs_dir, progress,
                    batch_size, llm, pace,
                )
            )  # fmt: skip
    out = EvalResult(dataset.name, len(topics), len(dataset.corpus), measures, results)
    out.significance = _significance(results)
    return out


class TopicReadings:
    """The Readings of a run's topics, each made once, on first use: parsed or gold."""

    def __init__(self, topics: list[Topic]) -> None:
        self.topics = topics
        self._parsed: list[Reading] | None = None
        self._gold: list[Reading] | None = None

    def get(self, use_gold: bool) -> list[Reading]:
        """Every topic's Reading; with ``use_gold``, its gold form where it has one."""
        if self._parsed is None:
            self._parsed = [read(t.text, "auto") for t in self.topics]
        if not use_gold:
            return self._parsed
        if self._gold is None:
            self._gold = [
                _gold(t) if t.logical_form else r
                for t, r in zip(self.topics, self._parsed, strict=True)
            ]
        return self._gold


def _gold(topic: Topic) -> Reading:
    """The Reading of a topic's own logical form; a form that does not parse names the topic."""
    assert topic.logical_form is not None
    try:
        return gold(topic.text, topic.logical_form)
    except QuerySyntaxError as exc:
        raise LogirError(f"the logical form of query {topic.id!r} does not parse: {exc}") from None


def _evaluate_system(
    dataset: Dataset,
    topics: list[Topic],
    spec: SystemSpec,
    composer: Composer,
    readings: list[Reading],
    pool: ScorerPool,
    depth: int,
    measures: list[str],
    runs_dir: Path | None,
    progress: Progress | None,
    batch_size: int,
    llm: ChatClient | None = None,
    pace: float | None = None,
) -> SystemResult:
    if progress:
        progress(
            spec.name, 0, len(topics)
        )  # shown while the scorer builds and the first batch runs
    scorer = pool.get(spec.retriever)
    reading_of = {t.id: r for t, r in zip(topics, readings, strict=True)}
    usage_before = llm.usage.as_dict() if llm is not None else {}
    doc_ids = dataset.doc_ids
    rankings: list[Ranking] = []
    step = min(batch_size, composer.rank_batch or batch_size)
    if pace is None:
        batches: Iterable[tuple[int, int]] = (
            (start, min(start + step, len(topics))) for start in range(0, len(topics), step)
        )
    else:
        batches = paced_batches(len(topics), step, pace)
    for start, end in batches:
        rankings.extend(composer.rank(readings[start:end], scorer, depth))
        if progress:
            progress(spec.name, end, len(topics))
    run: dict[str, dict[str, float]] = {}
    ranked: dict[str, list[str]] = {}
    for topic, ranking in zip(topics, rankings, strict=True):
        r = ranking.valid()
        ids = [doc_ids[i] for i in r.doc_idx]
        ranked[topic.id] = ids
        run[topic.id] = {d: float(s) for d, s in zip(ids, r.scores, strict=True)}
    qrels = {t.id: dataset.qrels[t.id] for t in topics}
    overall, per_query = M.standard(qrels, run, measures)
    per_query = {q: dict(v) for q, v in per_query.items()}
    result = SystemResult(spec.name, dict(overall), per_query)

    def score_rows(asked: list[tuple[Topic, list[str]]]) -> list[np.ndarray]:
        """The composed scores of each topic's documents, asked of the composer at once."""
        items = [
            (reading_of[t.id], np.array([dataset.doc_index[d] for d in ids], dtype=np.int64))
            for t, ids in asked
        ]
        return composer.score_many(items, scorer)

    _logic_metrics(dataset, topics, ranked, score_rows, result, depth)
    _multicondition_metrics(topics, score_rows, result)
    result.breakdown = _breakdown(topics, result.per_query)
    reader = composer.stats().get("reader")
    if reader:
        result.extra["reader"] = reader
    if composer.uses_llm and llm is not None:
        usage = llm.usage.as_dict()
        spent = {k: v - usage_before.get(k, 0) for k, v in usage.items()}
        result.extra["rewrite"] = {**composer.stats(), "llm_usage": spent}
    if runs_dir is not None:
        runs_dir.mkdir(parents=True, exist_ok=True)
        path = runs_dir / f"{spec.file_stem}.trec"
        write_run(path, run, tag=spec.file_stem)
        result.run_file = str(path)
    return result


def _logic_metrics(
    dataset: Dataset,
    topics: list[Topic],
    ranked: dict[str, list[str]],
    score_rows: Callable[[list[tuple[Topic, list[str]]]], list[np.ndarray]],
    result: SystemResult,
    depth: int,
) -> None:
    """Violation-aware figures for every topic with explicit violating documents."""
    labelled = [t for t in topics if dataset.violating.get(t.id)]
    if not labelled:
        return
    ks = [k for k in (10, 100) if k <= depth] or [depth]
    pair_values: dict[str, float] = {}
    for t in labelled:
        viol = set(dataset.violating[t.id])
        pq = result.per_query.setdefault(t.id, {})
        for k in ks:
            pq[f"LSNC@{k}"] = M.lsnc_at_k(ranked[t.id], viol, k)
            pq[f"ViolationRate@{k}"] = M.violation_rate_at_k(ranked[t.id], viol, k)
            nr = M.neg_recall_at_k(ranked[t.id], viol, k)
            if nr is not None:
                pq[f"NegRecall@{k}"] = nr
    pairs: list[tuple[Topic, int, list[str]]] = []
    for t in labelled:
        sat = [d for d, g in dataset.qrels[t.id].items() if g > 0 and d in dataset.doc_index]
        vio = [d for d in dataset.violating[t.id] if d in dataset.doc_index]
        if sat and vio:
            pairs.append((t, len(sat), sat + vio))
    for (t, n_sat, _), s in zip(pairs, score_rows([(t, ids) for t, _, ids in pairs]), strict=True):
        pair_values[t.id] = M.pair_order(s[:n_sat].tolist(), s[n_sat:].tolist())
        result.per_query[t.id]["PairAcc"] = pair_values[t.id]
    for name in sorted({n for t in labelled for n in result.per_query[t.id]} - set(result.overall)):
        vals = [result.per_query[t.id][name] for t in labelled if name in result.per_query[t.id]]
        result.overall[name] = float(np.mean(vals))
    pair_of = {t.id: str(t.meta["pair"]) for t in labelled if "pair" in t.meta}
    if pair_of:
        result.overall["NevIRPairAcc"] = M.nevir_pairwise_accuracy(pair_values, pair_of)


def _multicondition_metrics(
    topics: list[Topic],
    score_rows: Callable[[list[tuple[Topic, list[str]]]], list[np.ndarray]],
    result: SystemResult,
) -> None:
    """MultiConIR: Win Rate per level and style, the ladder under query10, Flip Rate per level."""
    ladder_topics = [t for t in topics if "ladder" in t.meta]
    if not ladder_topics:
        return
    pos_hn1: dict[tuple[str, int, str], tuple[float, float]] = {}
    ladders: dict[str, list[list[float]]] = defaultdict(list)
    asked = []
    for t in ladder_topics:
        ladder = list(t.meta["ladder"])
        asked.append((t, ladder if int(t.meta["level"]) == 10 else ladder[:2]))
    for (t, _), scores in zip(asked, score_rows(asked), strict=True):
        ladder = list(t.meta["ladder"])
        level, style, item = int(t.meta["level"]), str(t.meta["style"]), str(t.meta["item"])
        s = scores.tolist()
        pos_hn1[(item, level, style)] = (s[0], s[1])
        if level == 10 and len(ladder) == 11:
            ladders[style].append(s)
    win: dict[str, dict[str, float]] = defaultdict(dict)
    flip: dict[str, float] = {}
    styles = sorted({k[2] for k in pos_hn1})
    for level in range(1, 11):
        for style in styles:
            pairs = [v for k, v in pos_hn1.items() if k[1] == level and k[2] == style]
            if pairs:
                win[style][str(level)] = M.win_rate([p[0] for p in pairs], [p[1] for p in pairs])
        items = sorted({k[0] for k in pos_hn1 if k[1] == level})
        both = [
            i
            for i in items
            if (i, level, "instruction") in pos_hn1 and (i, level, "descriptive") in pos_hn1
        ]
        if both:
            ins = [pos_hn1[(i, level, "instruction")] for i in both]
            des = [pos_hn1[(i, level, "descriptive")] for i in both]
            flip[str(level)] = M.flip_rate(
                [p[0] for p in ins], [p[1] for p in ins], [p[0] for p in des], [p[1] for p in des]
            )
    result.extra["win_rate"] = dict(win)
    result.extra["ladder_win_rate"] = {s: M.ladder_win_rate(v) for s, v in ladders.items()}
    if flip:
        result.extra["flip_rate"] = flip
    for style, levels in win.items():
        result.overall[f"WinRate[{style}]"] = float(np.mean(list(levels.values())))
    if flip:
        result.overall["FlipRate"] = float(np.mean(list(flip.values())))


def _breakdown(
    topics: list[Topic], per_query: dict[str, dict[str, float]]
) -> dict[str, dict[str, dict[str, float]]]:
    """Mean of every per-query figure within each value of each facet (plus the count n)."""
    groups: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for t in topics:
        for facet, value in t.facets.items():
            groups[facet][str(value)].append(t.id)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for facet, by_value in groups.items():
        if len(by_value) < 2 and facet != "type":
            continue
        out[facet] = {}
        for value, qids in by_value.items():
            names = {n for q in qids for n in per_query.get(q, {})}
            row: dict[str, float] = {"n": float(len(qids))}
            for n in sorted(names):
                vals = [per_query[q][n] for q in qids if n in per_query.get(q, {})]
                row[n] = float(np.mean(vals))
            out[facet][value] = row
    return out


def _significance(results: list[SystemResult]) -> dict[str, dict[str, float]]:
    """Paired tests of each system against the first, on the headline measure (none when the
    run did not measure it, e.g. ``-m MRR@10`` alone)."""
    if len(results) < 2:
        return {}
    base = results[0]
    a = {q: v[HEADLINE] for q, v in base.per_query.items() if HEADLINE in v}
    if not a:
        return {}
    out = {}
    for other in results[1:]:
        b = {q: v[HEADLINE] for q, v in other.per_query.items() if HEADLINE in v}
        out[f"{other.name} vs {base.name}"] = {
            "measure_diff": float(np.mean([b[q] - a[q] for q in a if q in b])),
            "p_ttest": M.paired_t_test(a, b),
            "p_permutation": M.permutation_test(a, b),
        }
    return out
