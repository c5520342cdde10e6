"""A ``bench_all.py --quick`` run's big tournament is a tenth of the million: its row said
"1,000,000 four-player games ... 8.05 s | floor <= 3.5: NOT met" of 100,000 games, and
``--write`` would have put that into docs/performance.md and the README."""

from __future__ import annotations

import json
import sys

import pytest

from tests.helpers import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark("bench_all")


def _quick(bench) -> dict:
    res = json.loads(bench.FIGURES.read_text(encoding="utf-8"))
    return {**res, "tournament_big_games": 100_000}


def test_a_quick_run_s_big_tournament_is_labelled_by_its_games_and_not_judged(bench):
    res = _quick(bench)
    row = next(r for r in bench.markdown(res).splitlines() if "four-player games" in r)
    assert row.startswith("| 100,000 four-player games, four heuristics, `--jobs 2`")
    assert "floor" not in row and "--games 100000 --jobs 2" in row
    readme = next(r for r in bench.readme_table(res).splitlines() if "four-player" in r)
    assert "tournament of 100,000 four-player games" in readme


def test_a_full_run_keeps_its_million_and_its_floor(bench):
    res = json.loads(bench.FIGURES.read_text(encoding="utf-8"))
    row = next(r for r in bench.markdown(res).splitlines() if "four-player games" in r)
    assert row.startswith("| 1,000,000 four-player games") and "floor <= 3.5" in row


def test_write_refuses_quick_figures(bench, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench_all.py", "--quick", "--write"])
    with pytest.raises(SystemExit) as exc:
        bench.main()
    assert exc.value.code == 2 and "drop --quick" in capsys.readouterr().err
    saved = tmp_path / "quick.json"
    saved.write_text(json.dumps(_quick(bench)))
    monkeypatch.setattr(sys, "argv", ["bench_all.py", "--from", str(saved), "--write"])
    monkeypatch.setattr(bench, "write_all", lambda res: pytest.fail("written"))
    with pytest.raises(SystemExit, match="a --quick run's figures"):
        bench.main()


def test_a_quick_run_saved_by_an_earlier_version_is_known_by_its_note(bench):
    """It had no ``tournament_big_games``, only a note: read as a million, its 100,000-game time
    would have been written as the million's."""
    res = json.loads(bench.FIGURES.read_text(encoding="utf-8"))
    res["tournament_1m_jobs2_s_note"] = "quick: 100,000 games, not 1,000,000"
    assert bench._big(res) == (100_000, None)
