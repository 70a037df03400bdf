"""``logir train``: fine-tune models that read a query's logic (reader, dense) on
logic-labelled data, with one loop for every model (see :mod:`logir.train.loop`)."""

KINDS = ("reader", "dense")
DESCRIPTIONS = {
    "reader": "a cross-encoder that scores (query, passage) together, listwise loss",
    "dense": "a bi-encoder fine-tuned contrastively (in-batch + hard negatives, MNRL)",
}
