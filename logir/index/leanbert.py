"""Text vectors from a BERT sentence-transformers folder, in plain torch.

Importing sentence-transformers imports transformers and scikit-learn: about 8 s of a 2-core
CPU before the first query is encoded, most of a one-off ``logir search`` with the default
retriever. A query vector needs none of it: a BERT encoder is a few dozen lines of torch, its
weights are one safetensors file and its tokenizer one ``tokenizer.json`` that the ``tokenizers``
package reads on its own. :func:`lean_encoder` builds that encoder for a local folder laid out
as sentence-transformers saves a BERT model with mean pooling (``modules.json``: Transformer,
Pooling in mean mode, optionally Normalize; no prompts, no truncated dimension); for any other
model, or a hub name, it returns None and the caller loads the model with sentence-transformers.

The encoder runs the same torch operations, in the same order, as transformers' BertModel with
``sdpa`` attention, and tokenizes as the model's fast tokenizer does under sentence-transformers
(truncated to ``max_seq_length``), so its vectors equal the model's own to float rounding
(tests/index/test_leanbert.py checks them against sentence-transformers). It plugs into
:class:`logir.index.packing.PackedEncoder`, so :mod:`logir.index.textalone` encodes with it as
with the model, documents when an index is built as well as queries.
``LOGIR_LEAN_ENCODER=0`` turns it off.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from logir.index.packing import PackedEncoder

ENV = "LOGIR_LEAN_ENCODER"
_WEIGHTS = "model.safetensors"
_PREFIXES = ("", "bert.")  # weight names as BertModel saves them, or under a task head


def json_or_none(path: Path) -> Any:
    """The JSON in ``path``, or None when it cannot be read or parsed."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _kind(module: Any) -> str | None:
    """A sentence-transformers module's class name ("Pooling"), whichever version saved it:
    ``sentence_transformers.models.Pooling`` or ``....modules.pooling.Pooling``."""
    kind = module.get("type") if isinstance(module, dict) else None
    if not isinstance(kind, str) or not kind.startswith("sentence_transformers."):
        return None
    return kind.rsplit(".", 1)[-1]


def _mean_pooling(config: Any) -> bool:
    """Whether a Pooling config (sentence-transformers 6, or the flags of 2 to 5) is mean alone."""
    if not isinstance(config, dict) or config.get("include_prompt") is False:
        return False
    if "pooling_mode" in config:
        return config["pooling_mode"] == "mean"
    modes = [k for k, v in config.items() if k.startswith("pooling_mode") and v is True]
    return modes == ["pooling_mode_mean_tokens"]


def _layout(folder: Path) -> int | None:
    """How many Normalize modules follow mean pooling, when ``folder`` is a sentence-transformers
    BERT model the lean encoder reproduces; else None."""
    modules = json_or_none(folder / "modules.json")
    if not isinstance(modules, list) or len(modules) < 2:
        return None
    kinds = [_kind(m) for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or any(k != "Normalize" for k in kinds[2:]):
        return None
    if modules[0].get("path") not in ("", "."):
        return None
    if not _mean_pooling(json_or_none(folder / str(modules[1].get("path", "")) / "config.json")):
        return None
    st = json_or_none(folder / "config_sentence_transformers.json") or {}
    if not isinstance(st, dict) or st.get("default_prompt_name") or st.get("truncate_dim"):
        return None
    prompts = st.get("prompts") or {}
    if not isinstance(prompts, dict) or any(v for v in prompts.values()):
        return None
    if st.get("similarity_fn_name") not in (None, "cosine"):
        return None
    return len(kinds) - 2


def _max_length(folder: Path, sbert: dict[str, Any], positions: int) -> int:
    """The tokens a text keeps: ``max_seq_length`` as sentence-transformers saved it (or the
    tokenizer's ``model_max_length``), at most the model's position table."""
    for value in (sbert.get("max_seq_length"), _tokenizer_max(folder)):
        if isinstance(value, int) and value > 0:
            return min(value, positions)
    return positions


def _tokenizer_max(folder: Path) -> Any:
    config = json_or_none(folder / "tokenizer_config.json")
    return config.get("model_max_length") if isinstance(config, dict) else None


def bert_config(folder: Path) -> dict[str, Any] | None:
    cfg = json_or_none(folder / "config.json")
    if not isinstance(cfg, dict) or cfg.get("model_type") != "bert":
        return None
    if cfg.get("hidden_act", "gelu") != "gelu" or cfg.get("is_decoder"):
        return None
    if cfg.get("position_embedding_type", "absolute") != "absolute":
        return None
    need = ("hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size",
            "max_position_embeddings", "vocab_size")  # fmt: skip
    if not all(isinstance(cfg.get(k), int) and cfg[k] > 0 for k in need):
        return None
    if cfg["hidden_size"] % cfg["num_attention_heads"]:
        return None
    return cfg


class LeanTokenizer:
    """The model's fast tokenizer, read by ``tokenizers`` alone: no padding, truncated to
    ``max_length`` tokens, called as the transformers tokenizer is by the packer."""

    is_fast = True

    def __init__(self, path: Path, max_length: int, pad_token_id: int) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(path))
        self._tok.no_padding()
        self._tok.enable_truncation(max_length=max_length)
        self.pad_token_id = pad_token_id
        self.model_max_length = max_length

    def __call__(self, texts: list[str], truncation: Any = True) -> dict[str, list[list[int]]]:
        return {"input_ids": [e.ids for e in self._tok.encode_batch(list(texts))]}


class LeanBert:
    """BERT's encoder stack (embeddings, self-attention layers) over safetensors weights."""

    training = False

    def __init__(self, cfg: dict[str, Any], weights: dict[str, Any]) -> None:
        import torch

        self.config = SimpleNamespace(**cfg)
        self.heads = int(cfg["num_attention_heads"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        self.layers = int(cfg["num_hidden_layers"])
        self.w = weights
        first = weights["embeddings.word_embeddings.weight"]
        self.device: torch.device = first.device
        self.dtype: torch.dtype = first.dtype
        self._F = torch.nn.functional  # looked up once, not in every layer's calls

    def _ln(self, x: Any, name: str) -> Any:
        w, b = self.w[name + ".weight"], self.w[name + ".bias"]
        return self._F.layer_norm(x, (x.shape[-1],), w, b, self.eps)

    def _dense(self, x: Any, name: str) -> Any:
        return self._F.linear(x, self.w[name + ".weight"], self.w[name + ".bias"])

    def __call__(
        self,
        input_ids: Any,
        attention_mask: Any = None,
        position_ids: Any = None,
        token_type_ids: Any = None,
    ) -> SimpleNamespace:
        """``last_hidden_state [batch, length, hidden]``; ``attention_mask`` is None, a 0/1 mask
        ``[batch, length]`` or an additive one ``[batch, 1, length, length]``; ``token_type_ids``
        (the segment of each token of a text pair) default to 0."""
        import torch

        F = self._F
        batch, length = input_ids.shape
        if position_ids is None:
            position_ids = torch.arange(length, device=input_ids.device)[None]
        w = self.w
        types = torch.zeros_like(position_ids) if token_type_ids is None else token_type_ids
        x = F.embedding(input_ids, w["embeddings.word_embeddings.weight"])
        x = x + F.embedding(types, w["embeddings.token_type_embeddings.weight"])
        x = x + F.embedding(position_ids, w["embeddings.position_embeddings.weight"])
        x = self._ln(x, "embeddings.LayerNorm")
        mask = attention_mask
        if mask is not None and mask.dim() == 2:
            if bool(mask.all()):
                mask = None
            else:  # a key is attended where its mask is 1
                keep = mask.bool()[:, None, None, :]
                mask = keep.expand(batch, 1, length, length)
        size = x.shape[-1] // self.heads
        scale = 1.0 / math.sqrt(size)

        def heads(t: Any) -> Any:
            return t.view(batch, length, -1, size).transpose(1, 2)

        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q = heads(self._dense(x, p + "attention.self.query"))
            k = heads(self._dense(x, p + "attention.self.key"))
            v = heads(self._dense(x, p + "attention.self.value"))
            a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0, scale=scale)
            a = a.transpose(1, 2).contiguous().reshape(batch, length, -1).contiguous()
            x = self._ln(self._dense(a, p + "attention.output.dense") + x,
                         p + "attention.output.LayerNorm")  # fmt: skip
            h = F.gelu(self._dense(x, p + "intermediate.dense"))
            x = self._ln(self._dense(h, p + "output.dense") + x, p + "output.LayerNorm")
        return SimpleNamespace(last_hidden_state=x)


def _weights(path: Path, layers: int) -> dict[str, Any] | None:
    """The encoder's float32 tensors by BertModel's names, or None when the file lacks one or
    holds another dtype (sentence-transformers would run the model in that dtype)."""
    from safetensors.torch import load_file

    return encoder_weights(load_file(str(path)), layers)


def encoder_weights(raw: dict[str, Any], layers: int) -> dict[str, Any] | None:
    """From a safetensors file's tensors ``raw``: the encoder's float32 tensors by BertModel's
    names, or None (see :func:`_weights`)."""
    import torch

    if any(v.dtype != torch.float32 for v in raw.values() if v.is_floating_point()):
        return None
    for prefix in _PREFIXES:
        found = {k[len(prefix) :]: v for k, v in raw.items() if k.startswith(prefix)}
        if "embeddings.word_embeddings.weight" in found:
            break
    else:
        return None
    need = ["embeddings.word_embeddings.weight", "embeddings.position_embeddings.weight",
            "embeddings.token_type_embeddings.weight", "embeddings.LayerNorm.weight",
            "embeddings.LayerNorm.bias"]  # fmt: skip
    for i in range(layers):
        for part in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense", "attention.output.LayerNorm",
                     "intermediate.dense", "output.dense", "output.LayerNorm"):  # fmt: skip
            need += [f"encoder.layer.{i}.{part}.weight", f"encoder.layer.{i}.{part}.bias"]
    if any(n not in found for n in need):
        return None
    return {n: found[n] for n in need}


def lean_encoder(source: str | Path) -> PackedEncoder | None:
    """A packer over the lean BERT for the sentence-transformers folder ``source``, or None when
    it is not one this module reproduces (see the module), or ``$LOGIR_LEAN_ENCODER`` is 0."""
    if os.environ.get(ENV, "1").strip() == "0":
        return None
    folder = Path(source)
    if not folder.is_dir():
        return None
    normalize = _layout(folder)
    cfg = bert_config(folder)
    if normalize is None or cfg is None:
        return None
    if not (folder / _WEIGHTS).is_file() or not (folder / "tokenizer.json").is_file():
        return None
    sbert = json_or_none(folder / "sentence_bert_config.json") or {}
    if not isinstance(sbert, dict) or sbert.get("do_lower_case"):
        return None
    if sbert.get("transformer_task", "feature-extraction") != "feature-extraction":
        return None
    max_length = _max_length(folder, sbert, int(cfg["max_position_embeddings"]))
    try:
        weights = _weights(folder / _WEIGHTS, int(cfg["num_hidden_layers"]))
        if weights is None:
            return None
        tokenizer = LeanTokenizer(
            folder / "tokenizer.json", max_length, int(cfg.get("pad_token_id") or 0)
        )
    except Exception:  # noqa: BLE001 - tokenizers raises bare Exception; the model's loader decides
        return None
    bert = LeanBert(cfg, weights)
    return PackedEncoder(bert, tokenizer, normalize_layers=normalize)
