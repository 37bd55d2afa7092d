from __future__ import annotations

import pytest

from bench.api import round_ratios, yardsticks_served_by
from bench.servers import ServerKind


def test_each_rounds_ratio_is_shown_sorted_with_their_median_and_spread() -> None:
    shown = round_ratios([450.0, 400.0, 500.0, 420.0], [500.0, 500.0, 500.0, 600.0])
    assert shown == "by round, sorted: 0.70 0.80 0.90 1.00 (median 0.85, spread 0.30)"


def test_rounds_are_paired_in_order() -> None:
    assert "spread 0.00" in round_ratios([100.0, 200.0], [200.0, 400.0])
    with pytest.raises(ValueError, match=r"shorter|longer"):
        round_ratios([100.0], [200.0, 400.0])


def test_the_yardsticks_are_served_like_the_app_unless_told_otherwise() -> None:
    measured = [ServerKind.parse("granian:2"), ServerKind.parse("uvicorn")]
    assert yardsticks_served_by(None, measured) == ServerKind("granian")
    assert yardsticks_served_by("", measured) == ServerKind("granian")
    assert yardsticks_served_by("uvicorn", measured) == ServerKind("uvicorn")
    with pytest.raises(ValueError, match="uvicorn or granian"):
        yardsticks_served_by("hypercorn", measured)
