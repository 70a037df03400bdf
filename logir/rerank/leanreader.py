"""A reader folder's BERT cross-encoder in plain torch, without importing transformers.

A reader that ``logir train reader`` trains from a BERT base (MiniLM is one) is saved by
transformers as ``BertForSequenceClassification`` with one output: BERT's encoder, its pooler
(tanh of a linear map of the first token) and a linear classifier, in one safetensors file, with
its fast tokenizer in ``tokenizer.json``. Importing transformers costs seconds of CPU before the
first pair is scored, most of a one-off ``logir search --rerank``. :func:`lean_reader` runs the
same network with :class:`logir.index.leanbert.LeanBert` and the ``tokenizers`` package: the same
torch operations in the same order as transformers, so the same scores
(tests/rerank/test_leanreader.py checks them bit for bit). Any other folder (another
architecture, fp16 weights, more than one output, no ``tokenizer.json``) gets None and is loaded
through transformers. ``LOGIR_LEAN_ENCODER=0`` turns it off.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from logir.index.leanbert import ENV, LeanBert, bert_config, encoder_weights, json_or_none

_WEIGHTS = "model.safetensors"
_ARCHITECTURE = "BertForSequenceClassification"
_HEAD = (
    "bert.pooler.dense.weight",
    "bert.pooler.dense.bias",
    "classifier.weight",
    "classifier.bias",
)


class LeanReader:
    """``scores(queries, passages)``: one logit per pair, as the transformers model gives it."""

    def __init__(self, bert: LeanBert, head: dict[str, Any], tokenizer: Any) -> None:
        import torch

        self.bert = bert
        self.head = head
        self.tokenizer = tokenizer
        self._F = torch.nn.functional

    def scores(self, queries: list[str], passages: list[str], device: str = "cpu") -> Any:
        """A float tensor of one logit per (queries[i], passages[i]), read together, the longer
        of the two cut first (the tokenizer's truncation), padded to the longest pair."""
        import torch

        encs = self.tokenizer.encode_batch(list(zip(queries, passages, strict=True)))
        ids = torch.tensor([e.ids for e in encs], dtype=torch.long, device=device)
        types = torch.tensor([e.type_ids for e in encs], dtype=torch.long, device=device)
        mask = torch.tensor([e.attention_mask for e in encs], dtype=torch.long, device=device)
        hidden = self.bert(input_ids=ids, attention_mask=mask, token_type_ids=types)
        F, h = self._F, self.head
        first = hidden.last_hidden_state[:, 0]
        pooled = torch.tanh(
            F.linear(first, h["bert.pooler.dense.weight"], h["bert.pooler.dense.bias"])
        )
        return F.linear(pooled, h["classifier.weight"], h["classifier.bias"])[:, 0]


def lean_reader(folder: str | Path, max_length: int) -> LeanReader | None:
    """The reader in ``folder`` as a :class:`LeanReader`, its pairs cut to ``max_length`` tokens,
    or None when the folder is not one this module reproduces (see the module) or
    ``$LOGIR_LEAN_ENCODER`` is 0."""
    if os.environ.get(ENV, "1").strip() == "0":
        return None
    path = Path(folder)
    cfg = bert_config(path)
    if cfg is None or cfg.get("architectures") != [_ARCHITECTURE]:
        return None
    labels = cfg.get("id2label")
    if labels is not None and len(labels) != 1:
        return None
    if not (path / _WEIGHTS).is_file() or not (path / "tokenizer.json").is_file():
        return None
    tok_cfg = json_or_none(path / "tokenizer_config.json") or {}
    if not isinstance(tok_cfg, dict) or tok_cfg.get("padding_side", "right") != "right":
        return None
    if tok_cfg.get("truncation_side", "right") != "right":
        return None
    try:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        raw = load_file(str(path / _WEIGHTS))
        weights = encoder_weights(raw, int(cfg["num_hidden_layers"]))
        if weights is None or any(n not in raw for n in _HEAD):
            return None
        head = {n: raw[n] for n in _HEAD}
        if (
            head["classifier.weight"].shape[0] != 1
            or head["classifier.weight"].dtype != torch.float32
        ):
            return None
        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        pad_token = tok_cfg.get("pad_token") or "[PAD]"
        if isinstance(pad_token, dict):
            pad_token = pad_token.get("content", "[PAD]")
        pad_id = tokenizer.token_to_id(str(pad_token))
        if pad_id is None:
            return None
        tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
        tokenizer.enable_padding(pad_id=pad_id, pad_token=str(pad_token), pad_type_id=0)
    except Exception:  # noqa: BLE001 - tokenizers raises bare Exception; transformers decides
        return None
    return LeanReader(LeanBert(cfg, weights), head, tokenizer)
