"""The training loop on a tiny BERT built in the test: the loss falls, the saved models load
and rank, a run resumes after a crash to exactly the weights of an uninterrupted run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from logir.errors import LogirError

torch = pytest.importorskip("torch")
pytest.importorskip("sentence_transformers")

from safetensors.torch import load_file  # noqa: E402

from logir.train.loop import TrainConfig, train  # noqa: E402
from logir.train.models.reader import Reader  # noqa: E402


class Crash(Exception):
    """Stands for a kill -9: the run stops between two steps with no clean-up."""


def _config(kind: str, data: Path, base: Path, out: Path, **kw: object) -> TrainConfig:
    settings: dict = dict(
        base=str(base), lr=1e-2, batch_size=8, max_length=32, threads=1, holdout=0.2, seed=3
    )
    settings.update(kw)
    return TrainConfig(kind, [str(data)], str(out), **settings)


def _triplets(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def test_reader_loss_falls_and_the_saved_reader_ranks(
    tiny_base: Path, triplets: Path, tmp_path: Path
) -> None:
    result = train(_config("reader", triplets, tiny_base, tmp_path / "reader", epochs=6))
    assert result.finished and result.step == result.total_steps == 24
    assert _mean(result.losses[-4:]) < _mean(result.losses[:4]) - 0.3
    assert not (tmp_path / "reader" / "checkpoint.pt").exists()
    meta = json.loads((tmp_path / "reader" / "logir.json").read_text())
    assert meta["kind"] == "reader" and meta["history"][-1]["heldout_pairs"] > 0
    reader = Reader(tmp_path / "reader")
    rows = _triplets(triplets)
    wins = [
        (lambda s: s[0] > s[1])(reader.score(r["query"], [r["positive"], r["negative"]]))
        for r in rows
    ]
    assert sum(wins) >= 0.9 * len(rows)


def test_dense_output_is_a_sentence_transformers_folder_that_ranks(
    tiny_base: Path, triplets: Path, tmp_path: Path
) -> None:
    from sentence_transformers import SentenceTransformer

    result = train(_config("dense", triplets, tiny_base, tmp_path / "dense", epochs=6))
    assert _mean(result.losses[-4:]) < _mean(result.losses[:4]) - 0.5
    model = SentenceTransformer(str(tmp_path / "dense"), device="cpu")
    rows = _triplets(triplets)
    q = model.encode([r["query"] for r in rows], normalize_embeddings=True)
    pos = model.encode([r["positive"] for r in rows], normalize_embeddings=True)
    neg = model.encode([r["negative"] for r in rows], normalize_embeddings=True)
    assert np.mean((q * pos).sum(1) > (q * neg).sum(1)) >= 0.9


@pytest.mark.parametrize("kind", ["reader", "dense"])
def test_resume_after_a_crash_gives_the_weights_of_an_uninterrupted_run(
    kind: str, tiny_base: Path, triplets: Path, tmp_path: Path
) -> None:
    straight = train(_config(kind, triplets, tiny_base, tmp_path / "a", max_steps=6))

    def crash_after_four(step: int, loss: float) -> None:
        if step == 4:
            raise Crash

    broken = _config(kind, triplets, tiny_base, tmp_path / "b", max_steps=6, checkpoint_every=3)
    with pytest.raises(Crash):
        train(broken, on_step=crash_after_four)
    assert (tmp_path / "b" / "checkpoint.pt").exists()
    steps: list[int] = []
    resumed = train(broken, on_step=lambda step, loss: steps.append(step))
    assert steps == [4, 5, 6]  # from the checkpoint of step 3
    assert resumed.finished and resumed.losses == straight.losses

    paused = _config(kind, triplets, tiny_base, tmp_path / "c", max_steps=6)
    assert not train(paused, stop_after=3).finished
    steps.clear()
    assert train(paused, on_step=lambda step, loss: steps.append(step)).losses == straight.losses
    assert steps == [4, 5, 6]

    weights = sorted((tmp_path / "a").rglob("*.safetensors"))
    assert weights
    for path in weights:
        a = load_file(path)
        for other in ("b", "c"):
            b = load_file(tmp_path / other / path.relative_to(tmp_path / "a"))
            assert a.keys() == b.keys()
            assert all(torch.equal(a[k], b[k]) for k in a)


def test_a_checkpoint_of_another_recipe_or_a_finished_model_is_not_overwritten(
    tiny_base: Path, triplets: Path, tmp_path: Path
) -> None:
    out = tmp_path / "r"
    assert not train(
        _config("reader", triplets, tiny_base, out, max_steps=4), stop_after=2
    ).finished
    with pytest.raises(LogirError, match=r"different run \(changed: lr\).*--fresh"):
        train(_config("reader", triplets, tiny_base, out, max_steps=4, lr=0.5))
    train(_config("reader", triplets, tiny_base, out, max_steps=4))
    with pytest.raises(LogirError, match="already holds a trained reader model"):
        train(_config("reader", triplets, tiny_base, out, max_steps=4))
    assert train(_config("reader", triplets, tiny_base, out, max_steps=2, fresh=True)).finished
    with pytest.raises(LogirError, match="holds a trained reader model; train a dense model"):
        train(_config("dense", triplets, tiny_base, out, max_steps=2, fresh=True))


@pytest.mark.parametrize(("activation", "signed"), [("relu", False), ("snrelu", True)])
def test_splade_trains_and_the_index_encoder_reads_its_head(
    activation: str, signed: bool, tiny_base: Path, triplets: Path, tmp_path: Path
) -> None:
    from logir.index.sparse import SparseScorer, SpladeEncoder

    out = tmp_path / activation
    # epsilon 0: the tiny random model's logits are all near 0, inside any wider band of zeros
    config = _config(
        "splade", triplets, tiny_base, out, epochs=6, activation=activation, epsilon=0.0
    )
    result = train(config)
    assert _mean(result.losses[-4:]) < _mean(result.losses[:4]) - 0.5
    meta = json.loads((out / "logir.json").read_text())
    assert meta["splade"]["activation"] == activation
    encoder = SpladeEncoder(str(out))
    assert encoder.head.signed is signed
    rows = _triplets(triplets)
    docs = encoder.encode_batch([r["positive"] for r in rows] + [r["negative"] for r in rows])
    assert bool((docs.data < 0).any()) is signed
    scorer = SparseScorer.from_doc_vectors(docs, encoder)
    scores = scorer.score([r["query"] for r in rows])
    n = len(rows)
    wins = [scores[i, i] > scores[i, n + i] for i in range(n)]
    assert sum(wins) >= 0.9 * n
    if signed:
        weights = [w for _, w in scorer.top_terms(docs[0], n=docs[0].nnz)]
        assert any(w < 0 for w in weights)


def test_a_loss_that_is_not_finite_stops_the_run_with_a_clear_error(
    tiny_base: Path, triplets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from logir.train.models.reader import ReaderModel

    real = ReaderModel.loss

    def poisoned(self: ReaderModel, batch: object, rng: object) -> object:
        return real(self, batch, rng) * float("nan")

    monkeypatch.setattr(ReaderModel, "loss", poisoned)
    with pytest.raises(LogirError, match="loss is not finite at step 1"):
        train(_config("reader", triplets, tiny_base, tmp_path / "nan", max_steps=2))


def test_held_out_accuracy_is_read_in_float32_under_bf16_training(
    tiny_base: Path, triplets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logir.train.loop as loop

    seen: list[bool] = []
    real = loop.pairwise_accuracy

    def spy(*args: object, **kw: object) -> object:
        seen.append(torch.is_autocast_enabled("cpu"))
        return real(*args, **kw)

    monkeypatch.setattr(loop, "pairwise_accuracy", spy)
    config = _config("reader", triplets, tiny_base, tmp_path / "r", max_steps=2, precision="bf16")
    train(config)
    assert seen and not any(seen)  # a bf16 tie of two close scores would count as a loss
