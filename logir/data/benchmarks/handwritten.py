"""Hand-written logical query sets over a shared corpus (``bench/handwritten/<set>.jsonl``).

One query a line: ``id``, ``text`` (as a person typed it), ``form`` (the intended logical form in
logir syntax), ``negation`` (``exclude``, ``predicate`` or ``none``), ``relevant`` (doc id ->
grade 1 or 2), ``violating`` (doc ids about the excluded topic, or for which the negated
statement holds), and an optional ``note``. Doc ids are the shared corpus's own; the set is
joined with that corpus into a :class:`~logir.data.dataset.Dataset` whose topics carry the
form as their logical form and the negation kind as the facet ``negation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logir.data.benchmarks._labelled import read_docs
from logir.data.dataset import Dataset, Document, Topic
from logir.data.jsonl import check_new_id, field, read_jsonl
from logir.errors import DataFormatError, LogirError

__all__ = [
    "HANDWRITTEN_DIR",
    "NEGATION_KINDS",
    "SET_CORPORA",
    "HandwrittenQuery",
    "join_corpus",
    "load_handwritten",
    "read_handwritten",
    "set_path",
]

HANDWRITTEN_DIR = Path(__file__).resolve().parents[3] / "bench" / "handwritten"
"""Where the sets are in a source checkout."""

SET_CORPORA = {
    "comlq": "comlq",
    "negconstraint": "negconstraint",
    "scifact": "scifact",
    "excluir": "excluir",
    "comlq2": "comlq",
    "negconstraint2": "negconstraint",
    "scifact2": "scifact",
    "excluir2": "excluir",
    "comlq3": "comlq",
    "negconstraint3": "negconstraint",
    "scifact3": "scifact",
    "excluir3": "excluir",
    "comlq4": "comlq",
    "negconstraint4": "negconstraint",
    "scifact4": "scifact",
    "excluir4": "excluir",
    "comlq5": "comlq",
    "scifact5": "scifact",
    "comlq6": "comlq",
    "negconstraint5": "negconstraint",
    "excluir5": "excluir",
    "comlq7": "comlq",
    "negconstraint6": "negconstraint",
    "excluir6": "excluir",
    "scifact6": "scifact",
    "comlq8": "comlq",
    "negconstraint7": "negconstraint",
    "excluir7": "excluir",
    "scifact7": "scifact",
    "comlq9": "comlq",
    "negconstraint8": "negconstraint",
    "excluir8": "excluir",
    "scifact8": "scifact",
    "nevir1": "nevir",
    "nevir2": "nevir",
    "comlq10": "comlq",
    "negconstraint9": "negconstraint",
    "scifact9": "scifact",
    "nevir3": "nevir",
    "comlq11": "comlq",
    "excluir9": "excluir",
    "scifact10": "scifact",
    "negconstraint10": "negconstraint",
    "nevir4": "nevir",
    "excluir10": "excluir",
    "scifact11": "scifact",
    "comlq12": "comlq",
    "comlq13": "comlq",
    "excluir12": "excluir",
    "scifact12": "scifact",
    "nevir5": "nevir",
    "excluir11": "excluir",
    "negconstraint11": "negconstraint",
    "negconstraint12": "negconstraint",
    "nevir6": "nevir",
    "comlq14": "comlq",
    "scifact13": "scifact",
    "excluir13": "excluir",
    "nevir7": "nevir",
    "comlq15": "comlq",
    "negconstraint13": "negconstraint",
    "nevir8": "nevir",
    "scifact14": "scifact",
    "excluir14": "excluir",
    "comlq16": "comlq",
    "negconstraint14": "negconstraint",
    "scifact15": "scifact",
    "comlq17": "comlq",
    "excluir15": "excluir",
    "nevir10": "nevir",
    "negconstraint15": "negconstraint",
    "scifact16": "scifact",
    "comlq18": "comlq",
    "excluir16": "excluir",
    "excluir17": "excluir",
    "nevir11": "nevir",
    "negconstraint16": "negconstraint",
    "comlq19": "comlq",
    "scifact17": "scifact",
    "excluir18": "excluir",
    "nevir12": "nevir",
    "comlq20": "comlq",
    "scifact18": "scifact",
    "excluir19": "excluir",
    "nevir13": "nevir",
    "negconstraint18": "negconstraint",
    "comlq21": "comlq",
    "excluir20": "excluir",
    "nevir14": "nevir",
    "scifact19": "scifact",
    "negconstraint19": "negconstraint",
    "comlq22": "comlq",
    "excluir21": "excluir",
    "nevir15": "nevir",
    "scifact20": "scifact",
    "negconstraint20": "negconstraint",
    "comlq23": "comlq",
    "excluir22": "excluir",
    "nevir16": "nevir",
    "comlq24": "comlq",
    "negconstraint21": "negconstraint",
    "scifact21": "scifact",
    "excluir23": "excluir",
    "nevir17": "nevir",
    "comlq25": "comlq",
    "negconstraint22": "negconstraint",
    "scifact22": "scifact",
    "nevir18": "nevir",
    "excluir24": "excluir",
    "comlq26": "comlq",
    "nevir19": "nevir",
    "scifact23": "scifact",
    "negconstraint23": "negconstraint",
    "excluir25": "excluir",
    "negconstraint24": "negconstraint",
    "comlq27": "comlq",
    "nevir20": "nevir",
    "scifact24": "scifact",
    "nevir21": "nevir",
    "negconstraint25": "negconstraint",
    "excluir26": "excluir",
    "comlq28": "comlq",
    "scifact25": "scifact",
    "nevir22": "nevir",
    "negconstraint26": "negconstraint",
    "negconstraint17": "negconstraint",
    "excluir27": "excluir",
    "nevir23": "nevir",
    "comlq29": "comlq",
    "negconstraint27": "negconstraint",
    "scifact26": "scifact",
    "excluir28": "excluir",
    "nevir24": "nevir",
    "comlq30": "comlq",
    "negconstraint28": "negconstraint",
    "scifact27": "scifact",
    "excluir29": "excluir",
    "nevir25": "nevir",
    "comlq31": "comlq",
    "negconstraint29": "negconstraint",
    "scifact28": "scifact",
    "excluir30": "excluir",
    "nevir26": "nevir",
    "comlq32": "comlq",
    "negconstraint30": "negconstraint",
    "scifact29": "scifact",
    "nevir27": "nevir",
    "excluir31": "excluir",
    "scifact30": "scifact",
    "nevir28": "nevir",
    "comlq33": "comlq",
    "negconstraint31": "negconstraint",
    "nevir29": "nevir",
    "scifact31": "scifact",
    "excluir32": "excluir",
    "comlq34": "comlq",
    "negconstraint32": "negconstraint",
    "scifact32": "scifact",
    "comlq35": "comlq",
    "comlq36": "comlq",
    "excluir33": "excluir",
    "scifact33": "scifact",
    "nevir30": "nevir",
    "negconstraint33": "negconstraint",
    "scifact34": "scifact",
    "comlq37": "comlq",
    "excluir34": "excluir",
    "scifact35": "scifact",
    "comlq38": "comlq",
    "scifact36": "scifact",
    "negconstraint34": "negconstraint",
    "excluir35": "excluir",
    "nevir31": "nevir",
    "comlq39": "comlq",
    "negconstraint35": "negconstraint",
    "comlq40": "comlq",
    "excluir36": "excluir",
    "scifact37": "scifact",
    "nevir32": "nevir",
    "comlq41": "comlq",
    "negconstraint36": "negconstraint",
    "scifact38": "scifact",
    "scifact39": "scifact",
    "comlq42": "comlq",
    "excluir37": "excluir",
    "scifact40": "scifact",
    "excluir38": "excluir",
    "excluir39": "excluir",
    "scifact41": "scifact",
    "negconstraint37": "negconstraint",
    "scifact42": "scifact",
    "excluir40": "excluir",
    "scifact43": "scifact",
    "excluir41": "excluir",
    "scifact44": "scifact",
    "excluir42": "excluir",
    "excluir43": "excluir",
    "scifact45": "scifact",
    "scifact46": "scifact",
    "scifact47": "scifact",
    "scifact48": "scifact",
    "scifact49": "scifact",
    "scifact50": "scifact",
    "scifact51": "scifact",
    "scifact52": "scifact",
    "scifact53": "scifact",
    "scifact55": "scifact",
    "scifact56": "scifact",
    "scifact57": "scifact",
    "excluir44": "excluir",
    "negconstraint38": "negconstraint",
    "comlq43": "comlq",
    "scifact58": "scifact",
    "excluir45": "excluir",
    "nevir33": "nevir",
    "negconstraint39": "negconstraint",
    "comlq44": "comlq",
    "scifact59": "scifact",
    "excluir46": "excluir",
    "nevir34": "nevir",
    "negconstraint40": "negconstraint",
    "comlq45": "comlq",
    "scifact60": "scifact",
    "nevir35": "nevir",
    "excluir47": "excluir",
    "negconstraint41": "negconstraint",
    "nevir36": "nevir",
    "excluir48": "excluir",
    "comlq46": "comlq",
    "negconstraint42": "negconstraint",
    "scifact61": "scifact",
    "nevir37": "nevir",
    "comlq47": "comlq",
    "excluir49": "excluir",
    "scifact62": "scifact",
    "nevir38": "nevir",
    "negconstraint43": "negconstraint",
    "excluir50": "excluir",
    "negconstraint44": "negconstraint",
    "nevir39": "nevir",
    "scifact63": "scifact",
    "negconstraint45": "negconstraint",
    "excluir51": "excluir",
    "nevir40": "nevir",
    "scifact64": "scifact",
    "comlq48": "comlq",
    "excluir52": "excluir",
    "negconstraint46": "negconstraint",
    "scifact65": "scifact",
    "comlq49": "comlq",
    "excluir53": "excluir",
    "nevir41": "nevir",
    "negconstraint47": "negconstraint",
    "comlq50": "comlq",
    "scifact66": "scifact",
    "nevir42": "nevir",
    "excluir54": "excluir",
    "negconstraint48": "negconstraint",
    "nevir43": "nevir",
    "excluir55": "excluir",
    "negconstraint49": "negconstraint",
    "scifact67": "scifact",
    "excluir56": "excluir",
    "nevir44": "nevir",
    "scifact68": "scifact",
    "negconstraint50": "negconstraint",
    "comlq51": "comlq",
    "nevir45": "nevir",
    "comlq52": "comlq",
    "excluir57": "excluir",
    "comlq53": "comlq",
    "negconstraint51": "negconstraint",
    "nevir46": "nevir",
    "excluir58": "excluir",
    "comlq54": "comlq",
    "scifact69": "scifact",
    "nevir47": "nevir",
    "negconstraint52": "negconstraint",
    "scifact70": "scifact",
    "nevir48": "nevir",
    "excluir59": "excluir",
    "comlq55": "comlq",
    "comlq56": "comlq",
    "scifact71": "scifact",
}
"""Each shipped set and the folder of the shared datasets whose corpus.jsonl it judges."""

NEGATION_KINDS = ("exclude", "predicate", "none")
"""``exclude``: the query leaves out a topic; ``predicate``: it negates a statement about the
answer; ``none``: no negation (AND / OR logic, or a negation word that negates nothing)."""

GRADES = (1, 2)


@dataclass(frozen=True)
class HandwrittenQuery:
    """One judged query of a set (``line``: where it is in its file)."""

    id: str
    text: str
    form: str
    negation: str
    relevant: dict[str, int]
    violating: tuple[str, ...]
    note: str
    line: int


def _text(obj: dict[str, Any], name: str, path: Path, line: int) -> str:
    value = field(obj, name, path, line)
    if not isinstance(value, str) or not value.strip():
        raise DataFormatError(path, line, f"field {name!r} must be a non-empty string")
    return value


def _relevant(obj: dict[str, Any], path: Path, line: int) -> dict[str, int]:
    value = field(obj, "relevant", path, line)
    if not isinstance(value, dict):
        raise DataFormatError(path, line, "field 'relevant' must be an object of doc id -> grade")
    for doc, grade in value.items():
        if isinstance(grade, bool) or grade not in GRADES:
            raise DataFormatError(
                path, line, f"grade of {doc!r} must be 1 or 2, got {grade!r} in 'relevant'"
            )
    return {str(doc): int(grade) for doc, grade in value.items()}


def _violating(obj: dict[str, Any], path: Path, line: int) -> tuple[str, ...]:
    value = obj.get("violating", [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataFormatError(path, line, "field 'violating' must be a list of doc id strings")
    return tuple(value)


def read_handwritten(path: str | Path) -> list[HandwrittenQuery]:
    """The queries of a set file; a line that breaks the format is a DataFormatError naming
    the file and line (a missing or wrong field, an unknown negation kind, a duplicate id, a
    passage both relevant and violating)."""
    p = Path(path)
    queries: list[HandwrittenQuery] = []
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(p):
        qid = _text(obj, "id", p, line)
        check_new_id(seen, qid, p, line, "query id")
        negation = _text(obj, "negation", p, line)
        if negation not in NEGATION_KINDS:
            raise DataFormatError(
                p,
                line,
                f"negation must be one of {', '.join(NEGATION_KINDS)}, got {negation!r}",
            )
        relevant = _relevant(obj, p, line)
        violating = _violating(obj, p, line)
        both = sorted(set(relevant) & set(violating))
        if both:
            raise DataFormatError(
                p, line, f"passages both relevant and violating: {', '.join(both)}"
            )
        note = obj.get("note", "")
        if not isinstance(note, str):
            raise DataFormatError(p, line, "field 'note' must be a string")
        queries.append(
            HandwrittenQuery(
                id=qid,
                text=_text(obj, "text", p, line),
                form=_text(obj, "form", p, line),
                negation=negation,
                relevant=relevant,
                violating=violating,
                note=note,
                line=line,
            )
        )
    return queries


def join_corpus(
    name: str, queries: list[HandwrittenQuery], corpus: list[Document], source: Path
) -> Dataset:
    """``queries`` (read from ``source``) over ``corpus`` as a Dataset; a doc id the corpus
    lacks is a DataFormatError naming it, its query's line and the file."""
    known = {d.id for d in corpus}
    topics: list[Topic] = []
    qrels: dict[str, dict[str, int]] = {}
    violating: dict[str, list[str]] = {}
    for q in queries:
        missing = [d for d in (*q.relevant, *q.violating) if d not in known]
        if missing:
            raise DataFormatError(
                source,
                q.line,
                f"query {q.id!r} names doc id {missing[0]!r}, which the corpus lacks"
                + (f" ({len(missing)} such ids)" if len(missing) > 1 else ""),
            )
        topics.append(
            Topic(
                q.id, q.text, type=q.negation, logical_form=q.form, facets={"negation": q.negation}
            )
        )
        qrels[q.id] = dict(q.relevant)
        violating[q.id] = list(q.violating)
    return Dataset(
        name=f"handwritten-{name}",
        corpus=corpus,
        queries=topics,
        qrels=qrels,
        violating=violating,
        meta={"path": str(source)},
    )


def set_path(name: str, sets_dir: Path | None = None) -> Path:
    """The file of the set ``name`` (a key of SET_CORPORA) in ``sets_dir`` (default: the
    source tree's bench/handwritten)."""
    if name not in SET_CORPORA:
        raise LogirError(f"unknown hand-written set {name!r}; known: {', '.join(SET_CORPORA)}")
    return (sets_dir or HANDWRITTEN_DIR) / f"{name}.jsonl"


def load_handwritten(name: str, data_root: str | Path, sets_dir: Path | None = None) -> Dataset:
    """The set ``name`` joined with its corpus, ``data_root/<folder>/corpus.jsonl`` (the shared
    datasets folder; the folder per set is SET_CORPORA's)."""
    path = set_path(name, sets_dir)
    corpus_path = Path(data_root) / SET_CORPORA[name] / "corpus.jsonl"
    if not corpus_path.is_file():
        raise LogirError(
            f"the corpus of set {name!r} is not at {corpus_path}: pass the shared datasets "
            "folder (LOGIR_SHARED_DATASETS or --data-root)"
        )
    return join_corpus(name, read_handwritten(path), read_docs(corpus_path), path)
