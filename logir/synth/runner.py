"""Run a synthesis pipeline: resumable, checkpointed, concurrent; writes a BEIR folder.

``OUT/`` holds, besides the BEIR files (corpus.jsonl, queries.jsonl, qrels/test.tsv):

- ``checkpoint.jsonl`` one line per finished unit (see :mod:`logir.synth.checkpoint`);
- ``synth.json``       the settings the folder was started with (kind, seed, options, corpus hash);
  a later run into the same folder must use the same ones, since resume relies on the units
  coming out the same;
- ``summary.json``     items ok and failed (with reasons), tokens and cost of the last run.

- ``.synth.lock``      held (``fcntl.flock``) by the run writing the folder: a second run on the
  same folder stops at once, naming the holder (:mod:`logir.synth.folder_lock`).

A run skips the units already ok in the checkpoint and retries the failed ones. It stops early,
keeping everything finished, after ``max_consecutive_errors`` endpoint failures in a row.
"""

from __future__ import annotations

import hashlib
import json
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logir.data.beir import write_beir
from logir.data.dataset import Document
from logir.errors import LogirError
from logir.synth.base import ItemFailed, Pipeline, Unit
from logir.synth.checkpoint import Checkpoint
from logir.synth.folder_lock import folder_lock

if TYPE_CHECKING:
    from logir.llm import ChatClient

CHECKPOINT, SETTINGS, SUMMARY = "checkpoint.jsonl", "synth.json", "summary.json"
MAX_CONSECUTIVE_ERRORS = 3

Progress = Callable[[int, int], None]
"""``progress(done, total)`` after each finished unit (done counts units with a record)."""


@dataclass
class SynthSummary:
    """What a run did and what the folder now holds."""

    kind: str
    out_dir: Path
    units: int  # units in scope (the first --max-items)
    ok: int  # ok items written to the BEIR folder (this run and earlier ones)
    failed: int  # units in scope whose latest record is a failure
    resumed: int  # ok items found in the checkpoint at the start
    new_ok: int = 0
    new_failed: int = 0
    failures: list[dict[str, str]] = field(default_factory=list)
    usage: dict[str, float | int] = field(default_factory=dict)
    aborted: str | None = None  # why the run stopped early, or None

    @property
    def pending(self) -> int:
        """Units in scope with no ok record (failed or never reached)."""
        return self.units - self.ok

    @property
    def complete(self) -> bool:
        return self.aborted is None and self.failed == 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "units": self.units,
            "ok": self.ok,
            "failed": self.failed,
            "pending": self.pending,
            "resumed": self.resumed,
            "new_ok": self.new_ok,
            "new_failed": self.new_failed,
            "complete": self.complete,
            "aborted": self.aborted,
            "usage": self.usage,
            "failures": self.failures,
        }

    def lines(self) -> list[str]:
        """A short human summary."""
        u = self.usage
        tokens = int(u.get("prompt_tokens", 0)) + int(u.get("completion_tokens", 0))
        out = [
            f"{self.kind}: {self.ok}/{self.units} items ok, {self.failed} failed "
            f"({self.resumed} from earlier runs, {self.new_ok} new)",
            f"LLM: {u.get('requests', 0)} requests, {u.get('cache_hits', 0)} cache hits, "
            f"{tokens} tokens ({u.get('prompt_tokens', 0)} in, {u.get('completion_tokens', 0)} "
            f"out), cost {float(u.get('cost', 0.0)):.4f}",
        ]
        for f in self.failures[:5]:
            out.append(f"  failed {f['key']}: {f['reason']}")
        if len(self.failures) > 5:
            out.append(f"  ... {len(self.failures) - 5} more in {self.out_dir / SUMMARY}")
        return out


class SynthAborted(LogirError):
    """The run stopped early (endpoint down); what was finished is kept in the checkpoint."""

    def __init__(self, message: str, summary: SynthSummary) -> None:
        super().__init__(message)
        self.summary = summary


def corpus_fingerprint(corpus: list[Document]) -> str:
    """sha256 over the ids, titles and texts of the corpus, in order."""
    h = hashlib.sha256()
    for d in corpus:
        for part in (d.id, d.title, d.text):
            h.update(part.encode("utf-8"))
            h.update(b"\x00")
    return h.hexdigest()


def _check_settings(out_dir: Path, settings: dict[str, Any]) -> None:
    """Record the folder's settings, or make sure a resumed run uses the same ones."""
    path = out_dir / SETTINGS
    settings = json.loads(json.dumps(settings, default=str))  # compare as JSON reads back
    if path.exists():
        try:
            before = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise LogirError(f"{path}: not valid JSON; remove it or use another --out") from None
        diff = [k for k in settings if before.get(k) != settings[k]]
        if diff:
            what = ", ".join(f"{k} {before.get(k)!r} -> {settings[k]!r}" for k in diff)
            raise LogirError(
                f"{out_dir} was started with other settings ({what}); "
                "resume with the same ones or choose another --out"
            )
        return
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(settings, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


@contextmanager
def _sigterm_as_interrupt() -> Iterator[threading.Event]:
    """Turn SIGTERM into KeyboardInterrupt while the run lasts (main thread only); the event
    it yields is set by the signal too, for the caller to check: a KeyboardInterrupt raised while
    Python runs a weakref callback or a finaliser is printed and dropped, not raised."""
    received = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def handler(signum: int, frame: object) -> None:
        received.set()
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield received
    finally:
        signal.signal(signal.SIGTERM, old)


def _outcome(pipeline: Pipeline, unit: Unit, client: ChatClient) -> tuple[str, Any]:
    """("ok", item) | ("failed", reason) | ("error", reason) | ("crash", exception)."""
    from logir.llm import LLMContextError, LLMError, LLMOutputError

    try:
        return "ok", pipeline.make(unit, client)
    except ItemFailed as exc:
        return "failed", str(exc)
    except LLMOutputError as exc:
        return "failed", f"LLM output: {exc}"
    except LLMContextError as exc:  # not sent: the endpoint is fine, this unit is too long
        return "failed", f"LLM context: {exc}"
    except LLMError as exc:
        return "error", f"LLM endpoint: {exc}"
    except Exception as exc:  # a bug: re-raised in the main thread after the workers stop
        return "crash", exc


class _Breaker:
    """Counts endpoint failures in a row across the workers; sets `stop` at the limit or a bug.

    Workers record each outcome before taking the next unit, so no unit starts after the trip.
    """

    def __init__(self, limit: int, stop: threading.Event) -> None:
        self.limit, self.stop = limit, stop
        self.in_a_row = 0
        self.reason: str | None = None  # the endpoint failure that tripped it
        self._lock = threading.Lock()

    def record(self, status: str, value: Any) -> None:
        with self._lock:
            if status == "error":
                self.in_a_row += 1
                if self.in_a_row >= self.limit and self.reason is None:
                    self.reason = value
                    self.stop.set()
            elif status == "crash":
                self.stop.set()
            else:
                self.in_a_row = 0


def _work(
    pipeline: Pipeline,
    client: ChatClient,
    todo: queue.Queue[Unit],
    results: queue.Queue[tuple[Unit | None, str, Any]],
    breaker: _Breaker,
) -> None:
    while not breaker.stop.is_set():
        try:
            unit = todo.get_nowait()
        except queue.Empty:
            break
        status, value = _outcome(pipeline, unit, client)
        breaker.record(status, value)
        results.put((unit, status, value))
    results.put((None, "exit", None))


def _drive(
    pipeline: Pipeline,
    client: ChatClient,
    units: list[Unit],
    ckpt: Checkpoint,
    summary: SynthSummary,
    progress: Progress | None,
    limit: int,
) -> str | None:
    """Make `units` on worker threads, recording each outcome in `ckpt` from this thread.

    Returns the endpoint failure that stopped the run early, or None; re-raises a pipeline bug.
    """
    finished = summary.resumed
    if progress:
        progress(finished, summary.units)
    todo: queue.Queue[Unit] = queue.Queue()
    for u in units:
        todo.put(u)
    results: queue.Queue[tuple[Unit | None, str, Any]] = queue.Queue()
    breaker = _Breaker(limit, threading.Event())
    n_workers = min(client.workers, len(units))
    crash: BaseException | None = None
    with _sigterm_as_interrupt() as terminated:
        for _ in range(n_workers):
            threading.Thread(
                target=_work, args=(pipeline, client, todo, results, breaker), daemon=True
            ).start()
        alive = n_workers
        try:
            while alive:
                if terminated.is_set():  # the signal's own raise was dropped somewhere
                    raise KeyboardInterrupt
                try:
                    unit, status, value = results.get(timeout=0.2)
                except queue.Empty:
                    continue
                if unit is None:
                    alive -= 1
                elif status == "crash":
                    crash = crash or value
                else:
                    if status == "ok":
                        ckpt.ok(unit.key, value)
                        summary.new_ok += 1
                    else:  # "failed" (content) or "error" (endpoint): retried on the next run
                        ckpt.failed(unit.key, value)
                        summary.new_failed += 1
                    finished += 1
                    if progress:
                        progress(finished, summary.units)
        except KeyboardInterrupt:
            breaker.stop.set()  # workers take no new unit; daemon threads die with the process
            raise
    if crash is not None:
        raise crash
    return breaker.reason


def run_synthesis(
    pipeline: Pipeline,
    corpus: list[Document],
    client: ChatClient,
    out_dir: str | Path,
    *,
    seed: int = 0,
    max_items: int | None = None,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    max_consecutive_errors: int = MAX_CONSECUTIVE_ERRORS,
) -> SynthSummary:
    """Make every unit not yet ok, then write the BEIR folder and summary.json into `out_dir`.

    Raises SynthAborted (a LogirError) when the endpoint failed `max_consecutive_errors` times in
    a row; KeyboardInterrupt (Ctrl-C or SIGTERM) leaves the checkpoint consistent.
    """
    if max_items is not None and max_items < 1:
        raise LogirError(f"--max-items must be >= 1, got {max_items}")
    units = list(pipeline.units(corpus, seed))
    keys = [u.key for u in units]
    if len(set(keys)) != len(keys):
        raise RuntimeError(f"pipeline {pipeline.name!r} produced duplicate unit keys")
    if not units:
        raise LogirError(f"{pipeline.name}: the corpus gives no unit to synthesise from")
    scope = units if max_items is None else units[:max_items]
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise LogirError(f"--out {out} exists and is not a folder")
    with folder_lock(out):  # a second run on the same folder stops here, naming this one
        return _run_locked(
            pipeline, corpus, client, out, seed, scope, options, progress, max_consecutive_errors
        )


def _run_locked(
    pipeline: Pipeline,
    corpus: list[Document],
    client: ChatClient,
    out: Path,
    seed: int,
    scope: list[Unit],
    options: dict[str, Any] | None,
    progress: Progress | None,
    max_consecutive_errors: int,
) -> SynthSummary:
    """The body of :func:`run_synthesis`, run while this process holds ``out``'s lock."""
    settings = {
        "kind": pipeline.name,
        "seed": seed,
        "options": dict(sorted((options or {}).items())),
        "corpus": {"documents": len(corpus), "sha256": corpus_fingerprint(corpus)},
    }
    _check_settings(out, settings)

    start_usage = dict(client.usage.as_dict())
    with Checkpoint(out / CHECKPOINT) as ckpt:
        done = ckpt.done()
        todo = [u for u in scope if u.key not in done]
        summary = SynthSummary(pipeline.name, out, len(scope), 0, 0, len(scope) - len(todo))
        summary.aborted = _drive(
            pipeline, client, todo, ckpt, summary, progress, max_consecutive_errors
        )

    end_usage = client.usage.as_dict()
    summary.usage = {k: end_usage[k] - start_usage.get(k, 0) for k in end_usage}
    items = []
    for u in scope:
        status = ckpt.status(u.key)
        if status == "ok":
            items.append(ckpt.item(u.key))
        elif status == "failed":
            summary.failures.append({"key": u.key, "reason": ckpt.records[u.key]["reason"]})
    summary.ok, summary.failed = len(items), len(summary.failures)
    if items:
        dataset = pipeline.assemble(items, corpus)  # type: ignore[arg-type]
        write_beir(dataset, out)
        extra = getattr(pipeline, "write_extra", None)
        if callable(extra):
            extra(items, corpus, out)
    tmp = out / (SUMMARY + ".tmp")
    tmp.write_text(json.dumps(summary.as_dict(), indent=2, ensure_ascii=False) + "\n", "utf-8")
    tmp.replace(out / SUMMARY)

    if summary.aborted is not None:
        why = " ".join(summary.aborted.split())
        raise SynthAborted(
            f"{pipeline.name} stopped after {max_consecutive_errors} endpoint failures in a row "
            f"({why}); {summary.ok} of {summary.units} items are kept in "
            f"{out / CHECKPOINT}; run the same command again to resume",
            summary,
        )
    if not items:
        raise LogirError(_nothing_made(pipeline.name, summary, client, out))
    return summary


def _nothing_made(kind: str, summary: SynthSummary, client: ChatClient, out: Path) -> str:
    """Why a run produced no item, naming the cause: the prompts did not fit the server's
    context, or the model's answers never passed the pipeline's checks."""
    reasons = [f["reason"] for f in summary.failures]
    first = reasons[0] if reasons else "no unit was run"
    model = f"the model {client.config.model!r} at {client.config.base_url}"
    if reasons and all(r.startswith("LLM context:") for r in reasons):
        cause = f"no prompt fitted the context of {model}; give the server a larger context"
    elif reasons:
        cause = (
            f"{model} gave no answer that passed the {kind} checks; the model is the cause "
            "(it needs an instruct model able to follow the prompts)"
        )
    else:
        cause = "no unit was run"
    return (
        f"{kind}: no item was produced ({summary.failed} of {summary.units} units failed): "
        f"{cause}; first reason: {first}; details in {out / SUMMARY}"
    )
