"""Packed query encoding: several short texts in one transformer sequence.

A padded batch runs every text at the length of the longest one. Packing concatenates the texts'
token ids into one sequence instead, each text keeping its own ``[CLS] ... [SEP]``, with position
ids restarting at 0 for each text and a block-diagonal attention mask, so every token attends only
to the tokens of its own text. Each text then sees exactly what it sees when encoded alone, and is
mean-pooled over its own tokens: the embeddings equal sentence-transformers' ``encode`` up to
float rounding (the kernels block the sums differently), for the cost of one sequence of the
summed length. A logical query's term texts, encoded together, cost about one text more than the
longest of them. A packed text's vector still moves by about 1e-7 with the texts packed beside
it, so query vectors are no longer packed: :mod:`logir.index.textalone` encodes them, for the
models :func:`packed_encoder` accepts, using its model and tokenizer.

Only models the packer knows are packed: a sentence-transformers model made of a BERT
``Transformer`` (``sdpa`` or ``eager`` attention, both of which take the mask as given), mean
``Pooling`` and optionally ``Normalize``, with no default prompt and no truncated dimension.
:func:`packed_encoder` returns None for any other model, and :meth:`PackedEncoder.encode` returns
None when the packed sequence would be longer than the model's position table; callers then
encode as usual.
"""

from __future__ import annotations

import contextlib
import weakref
from itertools import chain
from typing import Any

import numpy as np

PACKABLE_ATTENTION = ("sdpa", "eager")

_PACKERS: weakref.WeakKeyDictionary[Any, PackedEncoder | None] = weakref.WeakKeyDictionary()


class PackedEncoder:
    """Encodes texts with one forward pass of a BERT sentence-transformers model (see module)."""

    def __init__(self, bert: Any, tokenizer: Any, normalize_layers: int) -> None:
        self.bert = bert
        self.tokenizer = tokenizer
        self.normalize_layers = normalize_layers
        self.max_length = int(bert.config.max_position_embeddings)

    def encode(self, texts: list[str], normalize: bool = False) -> np.ndarray | None:
        """Float32 embeddings ``[len(texts), dim]``, as the model's ``encode`` gives them (with
        ``normalize_embeddings=normalize``); None when the packed sequence is too long."""
        import torch

        if not texts:
            return None
        # the tokenizer call sentence-transformers makes, without the padding
        ids: list[list[int]] = self.tokenizer(list(texts), truncation="longest_first")["input_ids"]
        lengths = [len(x) for x in ids]
        total = sum(lengths)
        if total > self.max_length:
            return None
        device, dtype = self.bert.device, self.bert.dtype
        input_ids = torch.tensor([list(chain.from_iterable(ids))], device=device)
        positions = torch.cat([torch.arange(n) for n in lengths])[None].to(device)
        segment = torch.repeat_interleave(torch.arange(len(ids)), torch.tensor(lengths)).to(device)
        mask = None
        if len(ids) > 1:  # additive: 0 within a text, the dtype's minimum across texts
            other = segment[:, None] != segment[None, :]
            blocked = torch.zeros((total, total), dtype=dtype, device=device)
            mask = blocked.masked_fill_(other, torch.finfo(dtype).min)[None, None]
        with torch.inference_mode():
            hidden = self.bert(
                input_ids=input_ids, attention_mask=mask, position_ids=positions
            ).last_hidden_state[0]
            sums = torch.zeros((len(ids), hidden.shape[1]), dtype=hidden.dtype, device=device)
            sums.index_add_(0, segment, hidden)
            counts = torch.tensor(lengths, dtype=hidden.dtype, device=device)[:, None]
            emb = sums / counts
            for _ in range(self.normalize_layers + int(normalize)):
                emb = torch.nn.functional.normalize(emb, p=2, dim=-1)
            return np.ascontiguousarray(emb.float().cpu().numpy(), dtype=np.float32)


def packed_encoder(model: Any) -> PackedEncoder | None:
    """The packer for a sentence-transformers model it knows (see module), else None."""
    if model is None:
        return None
    with contextlib.suppress(KeyError, TypeError):  # TypeError: not weakly referenceable
        return _PACKERS[model]
    packer = _inspect(model)
    with contextlib.suppress(TypeError):
        _PACKERS[model] = packer
    return packer


def _inspect(model: Any) -> PackedEncoder | None:
    """A packer when `model` is a BERT + mean pooling (+ normalize) sentence-transformer."""
    try:
        modules = list(model)
    except TypeError:
        return None
    names = [type(m).__name__ for m in modules]
    if len(names) < 2 or names[:2] != ["Transformer", "Pooling"]:
        return None
    if any(n != "Normalize" for n in names[2:]):
        return None
    if getattr(model, "default_prompt_name", None) or getattr(model, "truncate_dim", None):
        return None
    transformer, pooling = modules[0], modules[1]
    bert = getattr(transformer, "auto_model", None)
    tokenizer = getattr(transformer, "tokenizer", None)
    config = getattr(bert, "config", None)
    if config is None or tokenizer is None or not getattr(tokenizer, "is_fast", False):
        return None
    if type(bert).__name__ != "BertModel" or getattr(config, "model_type", None) != "bert":
        return None
    if getattr(config, "_attn_implementation", None) not in PACKABLE_ATTENTION:
        return None
    if getattr(transformer, "processing_kwargs", None) or getattr(bert, "training", True):
        return None
    if getattr(transformer, "transformer_task", "feature-extraction") != "feature-extraction":
        return None
    if _pooling_mode(pooling) != "mean":
        return None
    return PackedEncoder(bert, tokenizer, normalize_layers=len(names) - 2)


def _pooling_mode(pooling: Any) -> str | None:
    """The Pooling module's mode as a string (sentence-transformers 6, or 2 to 5)."""
    mode = getattr(pooling, "pooling_mode", None)
    if isinstance(mode, str):
        return mode
    as_str = getattr(pooling, "get_pooling_mode_str", None)
    return as_str() if callable(as_str) else None
