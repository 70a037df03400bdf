"""How well the rule-based decomposition (logir.query.natural) recovers logical forms.

QUEST sample (gold: the ``<mark>`` atoms of ``original_query`` and the template's logical form).
Each query is decomposed twice: its natural paraphrase (``query``, the real task) and the
template text (``original_query`` with the marks removed, an easy upper bound); the row
"query, undecomposed" scores the paraphrase kept as one term, the floor to beat.

- **atom accuracy**: the fraction of gold atoms matched by a predicted term. A predicted term
  matches a gold atom when their token-level F1 is at least 0.5; tokens are the lower-cased runs of
  letters and digits (``'s`` kept with its word), and F1 = 2PR / (P + R) over the multiset
  overlap. Matching is one-to-one: pairs are taken greedily by decreasing F1, so one long term
  cannot match several atoms.
- **atom+sign accuracy**: as above, but a pair also needs the same polarity (both under NOT or
  both not).
- **term precision**: matched predicted terms / all predicted terms.
- **structure accuracy**: the predicted tree's operator skeleton equals the gold one. The skeleton
  replaces every term by ``_`` and sorts the children of AND and OR (both commute), so
  ``"a" AND NOT "b"`` and ``NOT "x" AND "y"`` share the skeleton ``AND(NOT(_),_)``.
- **operator accuracy**: the set of operators used ({AND, OR, NOT}) equals the gold set.

NegConstraint (every one of its queries excludes something): the fraction of queries whose
decomposition holds a NOT. ComLQ: the fraction of queries with a NOT among its negation types
(2in 3in inp pin pni, the recall) and among all other types (false positives), and likewise for
OR among the union types (2u up) versus the rest.

Usage: python bench/quest_decomposition.py [--data /work/shared/datasets] [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from logir.data.benchmarks import load_benchmark
from logir.query import And, Not, Or, Query, Term, operators, parse
from logir.query.ast import negated_terms, positive_terms
from logir.query.natural import decompose, spacy_available

_TOKEN = re.compile(r"[^\W_]+(?:'s)?")
_MARK = re.compile(r"</?mark>")
NEGATION_TYPES = ("2in", "3in", "inp", "pin", "pni")
UNION_TYPES = ("2u", "up")


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens used by the atom match."""
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


def token_f1(a: str, b: str) -> float:
    """Token-level F1 between two phrases (multiset overlap)."""
    ta, tb = Counter(tokens(a)), Counter(tokens(b))
    common = sum((ta & tb).values())
    if common == 0:
        return 0.0
    p, r = common / sum(ta.values()), common / sum(tb.values())
    return 2 * p * r / (p + r)


def signed_terms(q: Query) -> list[tuple[str, bool]]:
    """(term text, negated?) for every distinct term of ``q``."""
    neg = {t.text for t in negated_terms(q)}
    pos = [(t.text, False) for t in positive_terms(q)]
    return pos + [(t, True) for t in neg]


def match(gold: list[tuple[str, bool]], pred: list[tuple[str, bool]], signed: bool) -> int:
    """Number of gold atoms matched one-to-one (greedy by F1) with token F1 >= 0.5."""
    pairs = []
    for i, (g, gn) in enumerate(gold):
        for j, (p, pn) in enumerate(pred):
            if signed and gn != pn:
                continue
            f = token_f1(g, p)
            if f >= 0.5:
                pairs.append((f, i, j))
    pairs.sort(reverse=True)
    used_g: set[int] = set()
    used_p: set[int] = set()
    for _f, i, j in pairs:
        if i not in used_g and j not in used_p:
            used_g.add(i)
            used_p.add(j)
    return len(used_g)


def skeleton(q: Query) -> str:
    """The operator shape of ``q`` with terms blanked and commutative children sorted."""
    if isinstance(q, Term):
        return "_"
    if isinstance(q, Not):
        return f"NOT({skeleton(q.child)})"
    kids = ",".join(sorted(skeleton(c) for c in q.children))
    return f"{'AND' if isinstance(q, And) else 'OR'}({kids})"


def quest_scores(path: Path) -> dict[str, dict[str, float]]:
    """Atom, structure and operator accuracy on the QUEST sample, for both input texts."""
    ds = load_benchmark("quest", path)
    out: dict[str, dict[str, float]] = {}
    for field in ("query", "query, undecomposed", "template text"):
        n_gold = n_pred = hit = hit_signed = struct = ops = 0
        by_template: dict[str, list[int]] = {}
        for topic in ds.queries:
            gold_q = parse(topic.logical_form or "")
            text = topic.text if field == "query" else _MARK.sub("", topic.meta["original_query"])
            pred_q = Term(text) if field.endswith("undecomposed") else decompose(text).query
            gold, pred = signed_terms(gold_q), signed_terms(pred_q)
            n_gold += len(gold)
            n_pred += len(pred)
            hit += match(gold, pred, signed=False)
            hit_signed += match(gold, pred, signed=True)
            same = skeleton(gold_q) == skeleton(pred_q)
            struct += same
            ops += operators(gold_q) == operators(pred_q)
            by_template.setdefault(topic.type or "?", []).append(int(same))
        n = len(ds.queries)
        out[field] = {
            "queries": n,
            "atom_accuracy": hit / n_gold,
            "atom_sign_accuracy": hit_signed / n_gold,
            "term_precision": hit / n_pred if n_pred else 0.0,
            "structure_accuracy": struct / n,
            "operator_accuracy": ops / n,
            **{f"structure[{k}]": sum(v) / len(v) for k, v in sorted(by_template.items())},
        }
    return out


def _has(q: Query, kind: type) -> bool:
    if isinstance(q, kind):
        return True
    if isinstance(q, Not):
        return _has(q.child, kind)
    if isinstance(q, And | Or):
        return any(_has(c, kind) for c in q.children)
    return False


def negconstraint_scores(path: Path) -> dict[str, float]:
    """Fraction of NegConstraint queries whose decomposition holds a NOT."""
    ds = load_benchmark("negconstraint", path)
    found = sum(_has(decompose(t.text).query, Not) for t in ds.queries)
    return {"queries": len(ds.queries), "not_found": found / len(ds.queries)}


def comlq_scores(path: Path) -> dict[str, float]:
    """NOT / OR produced on ComLQ, split by whether the query type has the operator."""
    ds = load_benchmark("comlq", path)
    counts: Counter[str] = Counter()
    for t in ds.queries:
        base = (t.type or "").partition("_")[0]
        q = decompose(t.text).query
        neg_group = "neg" if base in NEGATION_TYPES else "other"
        or_group = "union" if base in UNION_TYPES else "nonunion"
        counts[f"{neg_group}_n"] += 1
        counts[f"{neg_group}_not"] += _has(q, Not)
        counts[f"{or_group}_n"] += 1
        counts[f"{or_group}_or"] += _has(q, Or)
    return {
        "queries": len(ds.queries),
        "negation_type_queries": counts["neg_n"],
        "not_rate_negation_types": counts["neg_not"] / counts["neg_n"],
        "not_rate_other_types": counts["other_not"] / counts["other_n"],
        "union_type_queries": counts["union_n"],
        "or_rate_union_types": counts["union_or"] / counts["union_n"],
        "or_rate_other_types": counts["nonunion_or"] / counts["nonunion_n"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    ap.add_argument("--out", type=Path, help="Write every figure as JSON.")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    parser = "spacy" if spacy_available() else "regex"
    quest = quest_scores(args.data / "quest-sample")
    neg = negconstraint_scores(args.data / "negconstraint")
    com = comlq_scores(args.data / "comlq")
    seconds = time.perf_counter() - start

    print(f"QUEST sample ({quest['query']['queries']} queries), parser: {parser}")
    cols = ("atom_accuracy", "atom_sign_accuracy", "term_precision", "structure_accuracy",
            "operator_accuracy")  # fmt: skip
    print(f"| input | {' | '.join(c.replace('_', ' ') for c in cols)} |")
    print("|---|" + "---:|" * len(cols))
    for field, row in quest.items():
        print(f"| {field} | " + " | ".join(f"{row[c]:.3f}" for c in cols) + " |")
    print("\nstructure accuracy by template (query):")
    for k, v in quest["query"].items():
        if k.startswith("structure["):
            print(f"  {k[10:-1]:32s} {v:.3f}")
    print(f"\nNegConstraint ({neg['queries']} queries): NOT found in {neg['not_found']:.3f}")
    print(
        f"ComLQ ({com['queries']} queries): NOT produced in "
        f"{com['not_rate_negation_types']:.3f} of negation types ({com['negation_type_queries']}) "
        f"vs {com['not_rate_other_types']:.3f} of other types; OR produced in "
        f"{com['or_rate_union_types']:.3f} of union types ({com['union_type_queries']}) "
        f"vs {com['or_rate_other_types']:.3f} of other types"
    )
    print(f"time: {seconds:.1f} s")
    if args.out:
        result = {"parser": parser, "quest": quest, "negconstraint": neg, "comlq": com}
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
