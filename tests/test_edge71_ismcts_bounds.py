"""``ismcts``' whole-number settings have upper bounds, refused at construction in the
standard parameter line: iterations=10**30 forfeited every game ("Maximum allowed dimension
exceeded"), 3,000,000,000 raised MemoryError, playouts, infer_steps and model_steps at 10**30
hung, and the others wrapped as the compiled search's 64-bit integers."""

from __future__ import annotations

import pytest

import strategies
from tests.helpers import cli, one_error_line


@pytest.mark.parametrize(
    "name, high",
    [("iterations", 10_000_000), ("playouts", 10_000), ("infer_tries", 10_000),
     ("infer_steps", 10_000), ("model_steps", 1_000_000), ("rollout_depth", 1_000_000),
     ("max_depth", 1_000_000), ("model_min", 1_000_000)],
)  # fmt: skip
def test_an_ismcts_count_past_its_bound_is_refused_at_construction(name, high):
    """iterations=10**30 forfeited every game ('Maximum allowed dimension exceeded'),
    3,000,000,000 raised MemoryError; playouts, infer_steps, model_steps at 10**30 hung."""
    low = 1 if name == "playouts" else 0
    for value in (high + 1, 10**30):
        with pytest.raises(ValueError) as exc:
            strategies.get("ismcts", **{name: value})
        assert str(exc.value) == (
            f"ismcts: parameter {name} must be between {low} and {high}, got {value}"
        )
    assert strategies.get("ismcts", **{name: high}) is not None


def test_a_tournament_of_an_unbuildable_ismcts_exits_2(tmp_path, capsys):
    code, _, err = cli(capsys, "tournament", f"ismcts:iterations={10**30}", "random", "--games",
                       "12", "--jobs", "1", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: ismcts: parameter iterations must be between 0 and 10000000, got {10**30}"
    )
