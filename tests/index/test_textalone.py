"""Query vectors that depend on the text alone: the same bits whatever is encoded beside it."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("sentence_transformers")

from logir.index import dense  # noqa: E402
from logir.index.dense import DenseScorer  # noqa: E402
from logir.index.packing import PackedEncoder, packed_encoder  # noqa: E402
from logir.index.textalone import BUCKET, encode_alone, padded_length  # noqa: E402
from tests.tiny_bert import save_tiny_bert  # noqa: E402

WORDS = [
    "the",
    "brother",
    "of",
    "moses",
    "high",
    "priest",
    "egypt",
    "vitamin",
    "bone",
    "retrieval",
    "negated",
    "passages",
]


def _texts() -> list[str]:
    """Texts of 1 to 40 words (3 to 42 tokens): several padded lengths, and equal ones."""
    rng = np.random.default_rng(3)
    texts = [" ".join(rng.choice(WORDS, n)) for n in (1, 2, 3, 5, 8, 13, 14, 17, 30, 40)]
    return [*texts, "moses", "bone of egypt", ""]


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> object:
    """A tiny BERT with mean pooling and normalisation, built from a config (no download)."""
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.models import Normalize, Pooling, Transformer

    folder = save_tiny_bert(tmp_path_factory.mktemp("tiny-alone") / "bert", WORDS)
    bert = Transformer(str(folder))
    st = SentenceTransformer(modules=[bert, Pooling(32, pooling_mode="mean"), Normalize()])
    st.eval()
    assert packed_encoder(st) is not None
    return st


def _one_by_one(model: object, texts: list[str]) -> np.ndarray:
    return np.stack([dense._encode_queries(model, [t])[0] for t in texts])


def test_a_text_has_the_same_bits_in_any_company_and_order(model: object) -> None:
    texts = _texts()
    alone = _one_by_one(model, texts)
    rng = np.random.default_rng(0)
    groups = [list(range(len(texts))), list(range(len(texts)))[::-1], [3, 9, 0], [5, 6, 5]]
    groups += [list(rng.permutation(len(texts))[: rng.integers(2, len(texts))]) for _ in range(6)]
    for group in groups:
        got = dense._encode_queries(model, [texts[i] for i in group])
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, alone[group])


def test_the_vectors_are_the_models_own_up_to_rounding(model: object) -> None:
    texts = _texts()
    ours = dense._encode_queries(model, texts)
    theirs = np.stack([dense._encode(model, [t], 64, False)[0] for t in texts])
    assert np.abs(ours - theirs).max() < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)


def test_the_scorer_and_its_word_encoder_agree_with_one_by_one(model: object) -> None:
    texts = _texts()
    alone = _one_by_one(model, texts)
    dense._MODELS["tiny-alone"] = model
    try:
        scorer = DenseScorer(np.eye(32, dtype=np.float32)[:3], model="tiny-alone")
        scorer.warm(texts[5:])
        np.testing.assert_array_equal(scorer.embed(texts[::-1]), alone[::-1])
        words = scorer.encode_words(texts[:4] + texts[-3:])
        np.testing.assert_array_equal(words, alone[[0, 1, 2, 3, -3, -2, -1]])
    finally:
        del dense._MODELS["tiny-alone"]


def test_padded_lengths_depend_on_the_token_count_alone() -> None:
    assert [padded_length(n, 512) for n in (1, BUCKET, BUCKET + 1, 3 * BUCKET)] == [
        BUCKET,
        BUCKET,
        2 * BUCKET,
        3 * BUCKET,
    ]
    assert padded_length(60, 64) == 64


def test_long_texts_are_truncated_or_refused(model: object) -> None:
    packer = packed_encoder(model)
    assert packer is not None
    long = " ".join(["moses"] * 100)  # 102 tokens, truncated to the 64 positions, as encode does
    ours = dense._encode_queries(model, [long, "moses"])
    assert np.abs(ours - dense._encode(model, [long, "moses"], 64, False)).max() < 1e-5
    assert encode_alone(packer, [], normalize=True).shape == (0, 32)
    short = PackedEncoder(packer.bert, packer.tokenizer, packer.normalize_layers)
    short.max_length = 8  # a tokenizer that keeps more tokens than the model has positions
    assert encode_alone(short, ["moses", "the brother of moses high priest egypt"]) is None
    assert encode_alone(short, ["moses", "bone of egypt"]) is not None
