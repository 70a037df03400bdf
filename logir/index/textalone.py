"""Query encoding whose every vector is a function of its text alone.

A float32 transformer pass rounds a text's vector differently depending on what else is in the
pass: packed into one sequence with other texts (:mod:`logir.index.packing`), or padded to the
longest text of a batch, the same text came out about 1e-7 apart, so two runs that group their
queries differently (``logir eval``'s timed batches, a sharded scorer asking ahead) could swap
two documents whose scores are that close.

Here each text is padded to a length that depends on its own token count alone (the next
multiple of :data:`BUCKET` tokens), and texts of the same padded length run together as rows of
one padded batch, each row masked to its own tokens and mean-pooled on its own. A row's
arithmetic is then the same whichever rows run beside it and in whatever order: attention works
per row, and measured with this machine's torch (MKL), a sequence's vector did not change with
the number of sequences beside it once it had 16 positions or more, which the padding
guarantees (a single sequence of 5 to 11 tokens took another kernel). On another machine (an
AVX-512 Xeon, torch on two threads) a pass of 3 to 9 rows was split between the threads
otherwise than one of 1, 2 or 12 rows, and a vector moved by about 1e-7; on one thread it did
not move (the tests compare bits on one thread). The vectors equal
sentence-transformers' ``encode`` of each text alone up to float rounding.

Only models :func:`logir.index.packing.packed_encoder` knows are encoded here; the others are
encoded by their own ``encode`` in a padded batch, which does depend on the batch.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from logir.index.packing import PackedEncoder

BUCKET = 16
"""Texts are padded to the next multiple of this many tokens (at least one multiple)."""
MOST_ROWS = 64
"""Sequences per forward pass at most (a longer bucket is run in several passes)."""


def padded_length(tokens: int, limit: int) -> int:
    """The length a text of ``tokens`` tokens is padded to: the next multiple of ``BUCKET``
    (at least ``BUCKET``), and at most ``limit`` (the model's position table)."""
    return min(limit, max(BUCKET, -(-tokens // BUCKET) * BUCKET))


def encode_alone(
    packer: PackedEncoder,
    texts: list[str],
    normalize: bool = False,
    progress: Callable[[int], object] | None = None,
) -> np.ndarray | None:
    """Float32 embeddings ``[len(texts), dim]`` of the packer's model, each row a function of
    its text alone (see the module); ``normalize`` as ``encode``'s ``normalize_embeddings``;
    ``progress(n)`` after each pass of ``n`` texts. None when a text has more tokens than the
    model has positions."""
    import torch

    bert = packer.bert
    out = np.empty((len(texts), int(bert.config.hidden_size)), dtype=np.float32)
    if not texts:
        return out
    # the tokenizer call sentence-transformers makes, without the padding
    ids: list[list[int]] = packer.tokenizer(list(texts), truncation="longest_first")["input_ids"]
    if max(len(x) for x in ids) > packer.max_length:
        return None
    buckets: dict[int, list[int]] = {}
    for i, x in enumerate(ids):
        buckets.setdefault(padded_length(len(x), packer.max_length), []).append(i)
    device = bert.device
    pad = int(packer.tokenizer.pad_token_id or 0)
    for width, members in sorted(buckets.items()):
        for start in range(0, len(members), MOST_ROWS):
            chunk = members[start : start + MOST_ROWS]
            tokens = torch.full((len(chunk), width), pad, dtype=torch.long)
            mask = torch.zeros((len(chunk), width), dtype=torch.long)
            for r, i in enumerate(chunk):
                n = len(ids[i])
                tokens[r, :n] = torch.tensor(ids[i], dtype=torch.long)
                mask[r, :n] = 1
            with torch.inference_mode():
                hidden = bert(
                    input_ids=tokens.to(device), attention_mask=mask.to(device)
                ).last_hidden_state
                for r, i in enumerate(chunk):  # pooled row by row: the same ops for every row
                    n = len(ids[i])
                    emb = hidden[r, :n].sum(dim=0) / n
                    for _ in range(packer.normalize_layers + int(normalize)):
                        emb = torch.nn.functional.normalize(emb, p=2, dim=0)
                    out[i] = emb.float().cpu().numpy()
            if progress is not None:
                progress(len(chunk))
    return out
