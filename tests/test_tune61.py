"""Tuning as a researcher meets it: a tuning stopped as a verification arm began resumes, the
progress bars count every game the tuning plays (the verification too) and end full, and the
convergence chart numbers its generations in whole numbers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tuning import tune
from tuning.evaluate import Field

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
ARGS = dict(players=4, budget=500, seed=3, popsize=3, candidate_games=24, verify_games=48,
            sigma=0.2)  # fmt: skip
"""Three generations of three candidates and the start, then five finalists (seconds)."""
FILES = ("best.txt", "candidates.csv", "search.csv", "verification.csv")


def _tune(out, **kw):
    return tune(TOY, ["random"], n_jobs=1, out=out, **{**ARGS, **kw})


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The uninterrupted tuning."""
    out = tmp_path_factory.mktemp("whole") / "t"
    return _tune(out)


def _json(out: Path) -> dict:
    doc = json.loads((out / "tune.json").read_text())
    doc.pop("created")
    doc["settings"].pop("wall_s")
    return doc


def test_a_tuning_stopped_as_a_verification_arm_began_resumes(whole, tmp_path, monkeypatch):
    """Stopped after the runner made the arm's folder and began its manifest (a temporary file,
    no manifest.json yet), the resume plays that arm afresh instead of refusing the folder as
    one that 'holds no tournament', and ends as the uninterrupted tuning."""
    out = tmp_path / "t"

    def stopped(self, candidate, games, seed, arm, resume=False):
        Path(arm).mkdir(parents=True)
        (Path(arm) / ".manifest.json.abc123.tmp").write_text("{")
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(Field, "play", stopped)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    _tune(out, resume=True)
    for name in FILES:
        assert (whole.out / name).read_bytes() == (out / name).read_bytes(), name
    assert _json(whole.out) == _json(out)


class _Bar:
    """Records what a progress bar was told: its total, where it began, what it advanced."""

    made: list[_Bar] = []

    def __init__(self, total, done=0, enabled=True, unit="games"):
        self.total, self.done = total, done
        _Bar.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def advance(self, n):
        self.done += n


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "against", "args", "finalists"),
    [
        (TOY, ["random"], ARGS, 5),
        # an integer parameter and small steps: two distinct finalists, not five
        ("patient", ["taker", "high"], {**ARGS, "seed": 5, "verify_games": 24, "sigma": 0.02}, 2),
    ],
)
def test_the_progress_bars_count_every_game_played_and_end_full(tmp_path, monkeypatch, spec,
                                                                against, args, finalists):  # fmt: skip
    """The bars' totals are the games the tuning plays: the search's, the finalists' (however
    many are distinct) and both verification arms' (none where the search came back to the
    start: nothing is verified); each ends at its total, so none says '100%, nothing left'
    while the verification still plays."""
    monkeypatch.setattr(sys.modules["tuning.tune"], "RunProgress", _Bar)
    _Bar.made = []
    res = tune(spec, against, n_jobs=1, out=tmp_path / "t", progress=True, **args)
    assert res.settings["finalists"] == finalists
    assert _Bar.made and all(b.done == b.total for b in _Bar.made)
    played = res.settings["games_used"] + 2 * res.settings["verify_games"]
    assert sum(b.total for b in _Bar.made) == played


def test_the_convergence_chart_numbers_generations_in_whole_numbers(whole):
    from tuning.chart import convergence

    fig = convergence(whole.candidates, whole.search, ["x"], [0.0], [10.0])
    fig.canvas.draw()
    for ax in fig.axes:
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks


def test_the_interruption_claims_verification_games_only_where_some_finished(tmp_path,
                                                                             monkeypatch):  # fmt: skip
    """Stopped before a verification arm finished any of its games, the line that says what is
    saved does not claim 'the verification's finished games'; once one has, it does."""
    from tournaments.storage import chunk_path
    from tuning.checkpoint import saved_words

    out = tmp_path / "t"
    with monkeypatch.context() as m:
        m.setattr(Field, "play", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    (out / "verify" / "tuned").mkdir(parents=True)
    assert saved_words(out) == "3 of 3 generations and 5 finalists of the selection"
    chunk_path(out / "verify" / "tuned", 0).parent.mkdir()
    chunk_path(out / "verify" / "tuned", 0).write_bytes(b"")
    assert saved_words(out).endswith("(and the verification's finished games, in verify/)")


def test_the_no_effect_warning_says_what_sigma_does():
    """--sigma sets the first step of the search (a fraction of each range); the ranges are
    the strategy's own declaration (``tunable``): the warning does not say --sigma widens
    them."""
    from tests.test_tune_no_spread import _flat
    from tuning.tune import _warnings

    (line,) = [w for w in _warnings(_flat(0.1, 1.0), True, ["knob"]) if "knob" in w]
    assert "widen their ranges (--sigma)" not in line
    assert "larger first step (--sigma)" in line
    assert "wider ranges in the strategy's tunable" in line
