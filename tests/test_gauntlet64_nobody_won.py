"""A gauntlet where no game was won (every one stopped at the turn limit) says so instead of
calling two win rates of zero 'no significant difference', and keeps its exit code; the
bracket joiner the gauntlet's answer and the findings share is public in reports.numbers."""

from __future__ import annotations

import pytest

from leaves_cli.main import main
from reports.numbers import beside


def _gauntlet(capsys, monkeypatch, tmp_path, *rules: str) -> tuple[int, str]:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # main sets it
    monkeypatch.setenv("COLUMNS", "300")
    args = ["gauntlet", "greedy", "--against", "low", "--baseline", "random", "--players", "3",
            "--games", "60", "--out", str(tmp_path / "run"), *rules]  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        main(args)
        raise SystemExit(0)
    return int(exc.value.code or 0), capsys.readouterr().out


def test_a_gauntlet_nobody_won_says_no_game_was_won_and_compares_nothing(
    capsys, monkeypatch, tmp_path
):
    code, out = _gauntlet(capsys, monkeypatch, tmp_path, "--rules", "turn_limit=3")
    assert code == 0, out
    assert "greedy wins 0.0%" in out and "wins 0.0%" in out.split("random,")[1], out
    assert ("None of the 120 games was won, by either side or the field, so both win rates "
            "are 0 and greedy and random cannot be compared.") in out, out  # fmt: skip
    assert "No significant difference" not in out and "percentage points" not in out, out


def test_a_gauntlet_with_winners_is_compared_as_before(capsys, monkeypatch, tmp_path):
    code, out = _gauntlet(capsys, monkeypatch, tmp_path)
    assert code == 0, out
    assert "was won, by either side" not in out, out
    assert "percentage points" in out, out


@pytest.mark.parametrize("text, words, want", [
    ("51.0% [50.6, 51.3]", "fair share 25.0%", "51.0% [50.6, 51.3] (fair share 25.0%)"),
    ("9.00 (too few deals for an interval)", "scanner",
     "9.00 (too few deals for an interval; scanner)"),
    ("51.0% [50.6, 51.3]", "", "51.0% [50.6, 51.3]"),
])  # fmt: skip
def test_beside_brackets_words_after_a_figure_never_two_brackets_in_a_row(text, words, want):
    assert beside(text, words) == want
