"""--budget beyond what any run may hold said "at most 2**32 - 1 games per tournament", naming
no option; 0 and a huge budget are refused in one line naming --budget, nothing written."""

from __future__ import annotations

import pytest

from tests.helpers import cli


@pytest.mark.parametrize("budget", ["0", "4294967296", "99999999999999999999"])
def test_a_budget_out_of_range_is_refused_naming_budget(tmp_path, capsys, budget):
    out = tmp_path / "t"
    code, _, err = cli(capsys, "tune", "taker", "--against", "weighted", "--budget", budget,
                       "--out", str(out))  # fmt: skip
    assert code == 2 and not out.exists()
    assert err.startswith("leaves: error: --budget must be a positive number of games up to "
                          "4,294,967,295, got ") and err.count("\n") == 1, err  # fmt: skip


def test_a_budget_too_small_writes_every_figure_with_its_separators(tmp_path, capsys):
    code, _, err = cli(capsys, "tune", "taker", "--against", "weighted", "--budget", "5000",
                       "--popsize", "100000", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2 and "two generations of 100,000 candidates" in err, err
