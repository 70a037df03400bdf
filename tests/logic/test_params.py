"""Composer spec parameters are finite and bounded; the caches a server can feed stay bounded."""

from __future__ import annotations

import math

import pytest

from logir.errors import LogirError
from logir.limits import MAX_DEPTH
from logir.logic import composers, get_composer
from logir.logic.contract import Param
from logir.lru import LRU


@pytest.mark.parametrize(
    ("spec", "fragments"),
    [
        # from issue 10: nan passed the >= 0 check, 1e12 and 10^8 ran out of memory or time
        ("hybrid,beta=nan", ["'nan'", "'beta'", "finite number from 0 to 1000"]),
        ("auto,beta=nan", ["'nan'", "'beta'", "finite"]),
        ("fuzzy,k=1e12", ["'1e12'", "'k'", f"an integer from 1 to {MAX_DEPTH}"]),
        ("sets,depth=1e12", ["'1e12'", "'depth'", "an integer"]),
        ("sets,depth=100000000", ["'100000000'", f"from 1 to {MAX_DEPTH}"]),
        (f"sets,depth={MAX_DEPTH + 1}", ["'depth'", str(MAX_DEPTH)]),
        ("sets,depth=" + "9" * 5000, ["for sets parameter 'depth'", "an integer"]),
        ("hybrid,beta=inf", ["'inf'", "finite"]),
        ("hybrid,beta=-inf", ["'-inf'"]),
        ("hybrid,beta=1e400", ["'1e400'", "finite"]),
        ("hybrid,beta=1001", ["'beta'", "from 0 to 1000"]),
        ("hybrid,tau=NaN", ["'tau'"]),
        ("auto,flat_weight=2", ["'flat_weight'", "from 0 to 1"]),
        ("auto,k=0", ["'k'", "from 1 to"]),
        ("auto,k=2.5", ["'k'", "an integer"]),
        ("fuzzy,tau=nan,lam=1", ["'tau'", "finite"]),
        ("fuzzy,tau=0.5,lam=inf", ["'lam'", "finite"]),
        ("fuzzy,tau=1e7,lam=1", ["'tau'", "-1e+06 to 1e+06"]),
        ("vectors,neg=nrf,lam=nan", ["'lam'"]),
        ("vectors,k=-3", ["'k'"]),
        ("vectors,k=99999999999999999999", ["'k'", str(MAX_DEPTH)]),
    ],
)
def test_unbounded_or_non_finite_values_are_refused(spec: str, fragments: list[str]) -> None:
    with pytest.raises(LogirError) as info:
        get_composer(spec)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_a_long_value_is_cut_short_in_the_message() -> None:
    with pytest.raises(LogirError) as info:
        get_composer("sets,depth=" + "9" * 5000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    "spec", ["sets,depth=10000", "fuzzy,depth=10000", "exclusion,beta=0,tau=0", "auto,beta=1000"]
)
def test_values_at_the_bounds_are_accepted(spec: str) -> None:
    get_composer(spec)


def test_every_numeric_parameter_is_bounded() -> None:
    checked = 0
    for name, cls in composers().items():
        for key, param in cls.PARAMS.items():
            if param.kind not in (int, float):
                continue
            assert param.minimum is not None and param.maximum is not None, (name, key)
            assert math.isfinite(param.minimum) and math.isfinite(param.maximum), (name, key)
            if key in ("k", "depth"):
                assert param.maximum <= MAX_DEPTH, (name, key)
            checked += 1
    assert checked >= 15


def test_a_numeric_parameter_without_bounds_cannot_be_declared() -> None:
    with pytest.raises(TypeError):
        Param("depth", int, minimum=1)


def test_lru_keeps_the_most_recently_used() -> None:
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # a is now the most recent
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    assert len(cache) == 2


def test_no_module_keeps_a_global_query_cache() -> None:
    from logir.logic import contract

    assert not hasattr(contract, "_QUERIES") and not hasattr(contract, "query_of")


def test_plan_cache_of_auto_stays_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    from logir.logic import auto

    monkeypatch.setattr(auto, "PLAN_CACHE_SIZE", 20)
    composer = get_composer("auto")
    for i in range(200):
        composer.plan(f"films by director{i} excluding war{i}")  # type: ignore[attr-defined]
    assert len(composer._plans) == 20  # type: ignore[attr-defined]
