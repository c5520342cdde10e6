"""A tuning writes the warning that a strategy draws from the global random state into
tune.json's warnings (it was printed, once, and nowhere in the file a reader relies on), once,
a resume included that does not play again what gave it; the account printed at the end does
not repeat a warning shown as it came. A resume of a tuning whose tuned parameters are the
start's removes, and says so, the ``verify/`` folder that an earlier version left there (it
played the start against itself), which no result file names."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

from strategies.global_random import SOURCES
from tests.helpers import doc_text
from tournaments import Tournament
from tournaments.notices import drew_line
from tuning import tune
from tuning.cautions import DREW, noticed
from tuning.evaluate import Field

INERT = str(Path(__file__).with_name("toy_tunable.py")) + ":Inert"
ARGS = dict(players=4, budget=264, seed=4, popsize=2, candidate_games=24, verify_games=48)
"""Two generations of two candidates and the start, then the finalists (about a second): a
parameter that changes nothing, so the search comes back to the start."""
FILES = ("best.txt", "candidates.csv", "search.csv", "tune.json", "convergence.png")
LINE = drew_line(("Roll",), SOURCES[:1])
"""The warning as a run gives it, of a strategy that drew from Python's random module."""

ROLL = '''
import random

from strategies import Strategy


class Roll(Strategy, register=False):
    """Draws its move from Python's global random state."""

    tunable = {"eps": (0.0, 1.0)}

    def __init__(self, eps: float = 0.5):
        self.eps = float(eps)

    def choose(self, view, legal, rng):
        return legal[random.randrange(len(legal))]
'''


def _tune(out: Path, **kw):
    return tune(INERT, ["random"], n_jobs=1, out=out, **{**ARGS, **kw})


def _warnings(out: Path) -> list[str]:
    return json.loads((out / "tune.json").read_text(encoding="utf-8"))["warnings"]


def _warning_scores(monkeypatch) -> None:
    """Every score warns as a run of a strategy that draws from global random state does (a
    tuning's runs say it once, ``runs_as_one``: here each says it, and tune.json once)."""
    score = Field.score

    def warned(self, *args, **kwargs):
        warnings.warn(LINE, stacklevel=1)
        return score(self, *args, **kwargs)

    monkeypatch.setattr(Field, "score", warned)


def _stopped_in_the_selection(out: Path, monkeypatch, warn: bool = False) -> None:
    """The tuning into ``out`` stopped at its second finalist (saved: the search and one)."""
    calls, score = [0], Field.score

    def stopped(self, *args, **kwargs):
        calls[0] += 1
        if calls[0] > 7:  # the search's 2 x 3 evaluations, then the first finalist
            raise KeyboardInterrupt
        if warn:
            warnings.warn(LINE, stacklevel=1)
        return score(self, *args, **kwargs)

    with monkeypatch.context() as m, warnings.catch_warnings(record=True):  # not the suite's
        m.setattr(Field, "score", stopped)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    assert (out / "tune-state.pkl").is_file()


def test_noticed_keeps_each_global_random_warning_once_and_shows_it_as_before():
    state = SimpleNamespace(notices=())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with noticed(state) as shown:
            for text in (LINE, "another warning", LINE):
                warnings.warn(text, stacklevel=1)
    assert DREW == "draws from the global random state" and DREW in LINE
    assert [str(w.message) for w in caught] == [LINE, "another warning", LINE]  # all shown
    assert state.notices == (LINE,) and shown == [LINE, LINE]


def test_tune_json_lists_the_warning_once_and_the_account_does_not_repeat_it(tmp_path, monkeypatch):
    _warning_scores(monkeypatch)
    out = tmp_path / "t"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = _tune(out)
    assert len([w for w in caught if str(w.message) == LINE]) == 10  # every score's, shown
    assert _warnings(out).count(LINE) == 1 and res.warnings.count(LINE) == 1
    assert LINE in res.shown and not any(LINE in line for line in res.lines())


def test_a_resume_keeps_the_warning_its_first_session_gave(tmp_path, monkeypatch):
    """Stopped in the selection after the search warned; the resume plays nothing that warns
    (only finalists without the warning here), and tune.json still lists it, once."""
    out = tmp_path / "t"
    _stopped_in_the_selection(out, monkeypatch, warn=True)
    res = _tune(out, resume=True)
    assert _warnings(out).count(LINE) == 1 and res.shown == []
    assert f"warning: {LINE}" in res.lines()  # not shown in this session: the account says it


def test_a_resume_removes_an_earlier_versions_verification_of_the_start(tmp_path, monkeypatch):
    """An earlier version verified the start against itself; stopped in that verification,
    it left verify/ (an arm finished, the other begun). The resume verifies nothing, removes
    the folder and says so, and leaves the files of a tuning never stopped (whose files a
    resume writes alike: ``test_edge69_tune_same``)."""
    out = tmp_path / "t"
    _stopped_in_the_selection(out, monkeypatch)
    Tournament([INERT, "random"], players=4, games=8, seed=1).run(out=out / "verify" / "tuned")
    (out / "verify" / "start").mkdir()
    said: list[str] = []
    res = _tune(out, resume=True, log=said.append)
    assert res.verification is None
    assert said[-1] == (f"removed {out / 'verify'}: an earlier version's verification of the "
                        "start against itself, which this one does not play (the same games "
                        "in both arms, nothing to verify)")  # fmt: skip
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert f"`{said[-1].replace(str(out), 'OUT')}`" in doc_text("tuning.md")  # as it says


@pytest.mark.slow
def test_a_tuning_of_a_strategy_that_draws_from_global_random_state(tmp_path):
    """The case as found, end to end: the warning printed once, and in tune.json once."""
    spec = tmp_path / "roll.py"
    spec.write_text(ROLL)
    state = random.getstate()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            tune(f"{spec}:Roll", ["random"], n_jobs=1, out=tmp_path / "t", **ARGS)
    finally:
        random.setstate(state)
    said = [str(w.message) for w in caught if DREW in str(w.message)]
    assert len(said) == 1 and said[0].startswith(f"Roll {DREW}"), said
    assert [w for w in _warnings(tmp_path / "t") if DREW in w] == said
