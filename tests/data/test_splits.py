from logir.data.dataset import Dataset, Document, Topic
from logir.data.splits import select_split, split_of


def make(n: int) -> Dataset:
    topics = [Topic(f"q{i}", "t", meta={"pair": str(i // 2)}) for i in range(n)]
    return Dataset("x", [Document("d", "t")], topics, {t.id: {"d": 1} for t in topics})


def test_splits_partition_deterministically() -> None:
    ds = make(400)
    tune, test = select_split(ds, "tune"), select_split(ds, "test")
    ids_tune = {t.id for t in tune.queries}
    assert ids_tune.isdisjoint(t.id for t in test.queries)
    assert len(ids_tune) + len(test.queries) == 400
    assert 40 <= len(ids_tune) <= 120  # about 20 %
    assert ids_tune == {t.id for t in select_split(make(400), "tune").queries}


def test_pairs_stay_together() -> None:
    ds = make(200)
    by_pair: dict[str, set[str]] = {}
    for t in ds.queries:
        by_pair.setdefault(t.meta["pair"], set()).add(split_of(t))
    assert all(len(s) == 1 for s in by_pair.values())
