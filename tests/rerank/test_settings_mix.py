"""The reranker's settings, their spelling in system names, and the score mix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from logir.errors import LogirError
from logir.rerank.mix import BELOW, FIRST, READER, Scale, mix_below, mix_top, total
from logir.rerank.settings import MAX_RERANK_DEPTH, RerankSettings, parse_rerank


def test_parse_reads_folder_depth_and_weight() -> None:
    s = parse_rerank("models/r1,depth=20,weight=0.25")
    assert s == RerankSettings(Path("models/r1"), 20, 0.25)
    assert parse_rerank("r").depth == 30 and parse_rerank("r").weight == 0.5
    assert s.spec == "models/r1,depth=20,weight=0.25"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "needs a reader folder"),
        ("r,depth=0", "from 1 to"),
        (f"r,depth={MAX_RERANK_DEPTH + 1}", "from 1 to"),
        ("r,depth=1.5", "must be an integer"),
        ("r,weight=1.5", "from 0 to 1"),
        ("r,weight=nan", "from 0 to 1"),
        ("r,weight=x", "from 0 to 1"),
        ("r,size=3", "bad reranker option"),
        ("r,depth=3,depth=4", "given twice"),
    ],
)
def test_bad_settings_say_what_and_where(text: str, message: str) -> None:
    with pytest.raises(LogirError, match=message) as info:
        parse_rerank(text, where="system 'x'")
    assert str(info.value).startswith("system 'x': ")


def test_file_part_names_the_folder_and_tells_two_folders_apart(tmp_path: Path) -> None:
    a = RerankSettings(tmp_path / "a" / "model", 20, 0.5).file_part
    b = RerankSettings(tmp_path / "b" / "model", 20, 0.5).file_part
    assert a.startswith("reader-model-") and a.endswith("-d20-w0.5") and a != b
    assert "/" not in a and ":" not in a


def test_the_mix_keeps_every_reranked_hit_above_every_other() -> None:
    first = np.array([9.0, 7.0, 5.0])
    scale = Scale.of(first)
    top = mix_top(first, np.array([-3.0, 0.0, 3.0]), scale, 1.0)
    below = mix_below(np.array([5.0, 1.0, -np.inf]), scale)
    assert total(top).min() > 0 > total(below).max()
    assert list(np.argsort(-total(below), kind="stable")) == [0, 1, 2]
    assert np.isfinite(total(below)).all()
    assert set(top) == {FIRST, READER, BELOW}


def test_weight_zero_is_the_first_stage_order_and_one_the_readers() -> None:
    first = np.array([3.0, 2.0, 1.0])
    reader = np.array([0.0, 5.0, 1.0])
    scale = Scale.of(first)
    zero = total(mix_top(first, reader, scale, 0.0))
    one = total(mix_top(first, reader, scale, 1.0))
    assert list(np.argsort(-zero)) == [0, 1, 2]
    assert list(np.argsort(-one)) == [1, 2, 0]
