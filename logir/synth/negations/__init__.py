"""Rule-based exclusion training data from any corpus (``logir synth negations``), no LLM.

Each generator pairs passages that share a topic (BM25 neighbours) and writes a query that asks
for the topic while excluding something only the hard negative has:

- ``title``: "<shared topic> other than <B's title>", positive A, hard negative B;
- ``swap``: the same two passages twice, each time excluding what only the other one mentions,
  so the positive and the hard negative trade places (the excluded attribute is swapped);
- ``disjunction``: "<shared topic> without <x> or <z>", one positive and two hard negatives,
  each mentioning one of the two excluded things.

Every item is checked by rule before it is kept (:mod:`logir.synth.negations.item`), and every
query is read back by logir's own natural-language reader as the intended exclusion
(:mod:`logir.synth.negations.wordings`). :func:`logir.synth.negations.run.synthesize` runs it all.
"""
