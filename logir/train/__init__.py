"""``logir train``: fine-tune models that read a query's logic (reader, dense) on
logic-labelled data, with one loop for every model (see :mod:`logir.train.loop`)."""

KINDS = ("reader", "dense", "splade")
DESCRIPTIONS = {
    "reader": "a cross-encoder that scores (query, passage) together, listwise loss",
    "dense": "a bi-encoder fine-tuned contrastively (in-batch + hard negatives, MNRL)",
    "splade": "a SPLADE encoder (ReLU, or SNReLU with negative term weights), FLOPS-regularised",
}
