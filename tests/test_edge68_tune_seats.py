"""A tuning at five or six seats whose field holds another version of the tuned strategy: the
balanced design plays some seatings of all, and they follow the order of the entrants' labels,
so every candidate takes the start's seat (``tuning.evaluate.Field``) and plays its seatings,
in the search and in the verification alike."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli
from tournaments import load
from tuning.evaluate import Field

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
OTHER = f"{TOY}:x=1.0"
"""Labelled 'Toy(x=1.0)': after the start's 'Toy', before a candidate's 'Toy(x=5.3)'."""
AGAINST = ("random", "low", OTHER, "greedy")


def _seat(field: Field, spec: str) -> tuple[int, tuple]:
    """The focus's index among the entrants, and the seatings of every table, of ``spec``."""
    t = field.tournament(spec, 20, 7)
    return t.labels.index(t.focus), tuple(tuple(s) for s in t.seatings)


def test_every_candidate_plays_the_start_s_seatings_whatever_its_label_sorts_after():
    """A candidate whose label sorts after the opponent 'Toy(x=1.0)' (the start's before it)
    plays the start's seatings at five and six seats; without the start named, it would not
    (the design's 20 seatings of 120 follow the order)."""
    for players in ((5,), (6,)):
        against = (*AGAINST, "high") if players == (6,) else AGAINST
        field = Field(against, players, start=TOY)
        start = _seat(field, TOY)
        for x in ("5.3", "0.5", "9.9"):
            assert _seat(field, f"{TOY}:x={x}") == start, (players, x)
    free = Field(AGAINST, (5,))
    assert _seat(free, f"{TOY}:x=5.3") != _seat(free, TOY)  # the case the seat is kept for


def _games(arm: Path) -> pd.DataFrame:
    """The arm's games by deal and seating, the focus's seat written 'candidate'."""
    result = load(arm)
    seats = [f"seat_{s}" for s in range(5)]
    df = result.games(["deal_seed", "table", *seats])
    df[seats] = df[seats].astype(object).replace({result.spec["focus"]: "candidate"})
    return df.sort_values(["deal_seed", *seats], kind="stable").reset_index(drop=True)


@pytest.mark.slow
def test_a_five_seat_tuning_against_another_version_finishes_and_pairs(capsys, monkeypatch,
                                                                       tmp_path):  # fmt: skip
    """The review's case, made small: it ended 'the verification arms did not play the same
    games: cannot pair them' (exit 1) after the whole search. Now it finishes, and the two
    verification arms' rows hold the same deals under the same seatings."""
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", TOY, "--against", ",".join(AGAINST), "--players",
                            "5", "--budget", "700", "--seed", "1", "--popsize", "2",
                            "--sigma", "0.2", "--jobs", "1", "--candidate-games", "20",
                            "--verify-games", "40", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert "paired difference" in stdout
    tuned_label = json.loads((out / "tune.json").read_text())["verification"]["tuned"]["label"]
    assert tuned_label > "Toy(x=1.0)" > "Toy"  # sorts on the far side of the other version
    tuned, start = _games(out / "verify" / "tuned"), _games(out / "verify" / "start")
    assert len(tuned) == len(start) == 40
    pd.testing.assert_frame_equal(tuned, start)


@pytest.mark.slow
def test_a_five_seat_tuning_stopped_before_its_pairing_resumes_to_a_result(monkeypatch,
                                                                           tmp_path):  # fmt: skip
    """Stopped once both verification arms were played, before they were paired: the resume
    continued the arms' runs and ended in the same refusal to pair. Now it ends as the
    uninterrupted tuning does."""
    import importlib

    tune_module = importlib.import_module("tuning.tune")  # the module: tuning.tune is tune()
    args = dict(players=5, budget=700, seed=1, popsize=2, sigma=0.2, n_jobs=1,
                candidate_games=20, verify_games=40)  # fmt: skip
    whole = tune_module.tune(TOY, list(AGAINST), out=tmp_path / "whole", **args)
    paired = tune_module.compare

    def stopped(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(tune_module, "compare", stopped)
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        tune_module.tune(TOY, list(AGAINST), out=out, **args)
    assert (out / "verify" / "tuned" / "manifest.json").is_file()
    monkeypatch.setattr(tune_module, "compare", paired)
    again = tune_module.tune(TOY, list(AGAINST), out=out, resume=True, **args)
    said = [json.dumps(r.verification.to_dict(), sort_keys=True) for r in (again, whole)]
    assert said[0] == said[1]  # as written, NaN intervals of too few deals alike
    assert again.tuned_spec == whole.tuned_spec != TOY
