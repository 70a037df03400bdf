import pytest

from logir.data.dataset import Dataset, Document, Topic
from logir.data.splits import select_split, split_of
from logir.errors import LogirError


def make(n: int) -> Dataset:
    topics = [Topic(f"q{i}", "t", meta={"pair": str(i // 2)}) for i in range(n)]
    return Dataset("x", [Document("d", "t")], topics, {t.id: {"d": 1} for t in topics})


def _ids(ds: Dataset) -> set[str]:
    return {t.id for t in ds.queries}


def test_splits_partition_deterministically() -> None:
    ds = make(400)
    tune, test = select_split(ds, "logir-tune"), select_split(ds, "logir-test")
    ids_tune = _ids(tune)
    assert ids_tune.isdisjoint(_ids(test))
    assert len(ids_tune) + len(test.queries) == 400
    assert 40 <= len(ids_tune) <= 120  # about 20 %
    assert ids_tune == _ids(select_split(make(400), "logir-tune"))
    assert tune.meta["split"] == "logir-tune"


def test_the_parts_have_not_moved() -> None:
    # the same queries as before the rename: anything tuned on the old `tune` stays on it
    tune = _ids(select_split(make(40), "logir-tune"))
    expected = ["q2", "q3", "q10", "q11", "q16", "q17", "q20", "q21", "q24", "q25"]
    assert sorted(tune, key=lambda q: int(q[1:])) == expected


def test_old_names_still_work_with_a_deprecation_warning() -> None:
    ds = make(100)
    with pytest.warns(DeprecationWarning, match="'tune' is now 'logir-tune'"):
        assert _ids(select_split(ds, "tune")) == _ids(select_split(ds, "logir-tune"))
    with pytest.warns(DeprecationWarning, match="'test' is now 'logir-test'"):
        assert _ids(select_split(ds, "test")) == _ids(select_split(ds, "logir-test"))
    with pytest.raises(LogirError, match="known: all, logir-tune, logir-test"):
        select_split(ds, "dev")


def test_pairs_stay_together() -> None:
    ds = make(200)
    by_pair: dict[str, set[str]] = {}
    for t in ds.queries:
        by_pair.setdefault(t.meta["pair"], set()).add(split_of(t))
    assert all(len(s) == 1 for s in by_pair.values())
