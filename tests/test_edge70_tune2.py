"""``tune`` as its docs say: a Ligretto strategy tuned with ``game='ligretto'`` is looked up in
that game's registry throughout; games a strategy forfeited during the search are counted and
warned of; a resume compares the games each setting plays and names a rounded number beside
what was typed; and it warns as the uninterrupted tuning would, whatever sizes it was given."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import strategies
from tests.helpers import cli
from tuning import checkpoint as ck
from tuning import tune
from tuning.cautions import FORFEITED, forfeit_warnings
from tuning.evaluate import Field
from tuning.plan import checked

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
FLAGS = ["--budget", "500", "--seed", "3", "--popsize", "3", "--sigma", "0.2", "--jobs", "1"]
"""No --candidate-games, no --verify-games: 4 games a candidate and 250 an arm worked out from
the budget, the verification played as 252 (whole duplicate sets of 4 games)."""

PATIENT = """
from ligretto.players.builtin import Cautious


class Patient(Cautious, register=False):
    tunable = {"patience": (0, 20)}
"""
"""A user's Ligretto strategy with a tunable parameter (no built-in one declares any)."""

RAISER = """
from strategies import Strategy


class Raiser(Strategy, register=False):
    classifier = {"stochastic": False}
    tunable = {"knob": (0.0, 1.0)}

    def __init__(self, knob: float = 0.9):
        self.knob = knob

    def choose(self, view, legal, rng):
        if self.knob > 0.5:
            raise RuntimeError("boom")
        return legal[0]
"""
"""A 13 Leaves strategy that raises at every decision while its knob is above 0.5."""


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name.lower()}.py"
    path.write_text(text)
    return f"{path}:{name}"


def _plan(spec: str, against: list[str], tmp_path: Path, **opts):
    given = dict(popsize=None, candidate_games=None, verify_games=None, sigma=0.05, **opts)
    return checked(spec, against, 2, 700, 1, 1, tmp_path / "t", **given)


# ---------------------------------------------------------------- another game


def test_a_ligretto_strategy_is_planned_from_the_ligretto_registry(tmp_path):
    spec = _file(tmp_path, "Patient", PATIENT)
    plan = _plan(spec, ["row", "cycler"], tmp_path, game="ligretto")
    assert [p.name for p in plan.params] == ["patience"] and plan.start == {"patience": 6}
    assert plan.opponents == {"row", "cycler"}
    assert strategies.spec_with(spec, {"patience": 9}, "ligretto") == f"{spec}:patience=9"


def test_a_ligretto_strategy_without_tunables_is_said_so_not_sent_to_ligretto(tmp_path):
    with pytest.raises(ValueError, match="^strategy cautious declares no tunable parameters"):
        _plan("cautious", ["row", "cycler"], tmp_path, game="ligretto")


def test_the_same_ligretto_strategy_as_an_opponent_is_named_in_its_game(tmp_path):
    spec = _file(tmp_path, "Patient", PATIENT)
    with pytest.raises(ValueError, match=r"e\.g\. .*patient\.py:Patient:patience=0\)"):
        _plan(spec, [spec, "row"], tmp_path, game="ligretto")


@pytest.mark.slow
def test_a_ligretto_tuning_plays_to_its_end(tmp_path):
    spec = _file(tmp_path, "Patient", PATIENT)
    result = tune(spec, ["row"], players=2, budget=60, seed=1, n_jobs=1, out=tmp_path / "t",
                  game="ligretto", popsize=2, candidate_games=2, verify_games=4,
                  sigma=0.5)  # fmt: skip
    assert result.settings["game"] == "ligretto" and (tmp_path / "t" / "tune.json").is_file()
    assert set(result.candidates["spec"].str.split(":").str[1]) == {"Patient"}


# ---------------------------------------------------------------- forfeits in the search


def test_an_evaluation_counts_the_games_ended_by_a_forfeit(tmp_path):
    spec = _file(tmp_path, "Raiser", RAISER)
    field = Field(("greedy", "low"), (3,), 1, None, start=spec)
    raised = field.score(spec, 6, 1)
    assert raised.wins == 0 and raised.forfeits == raised.games == 6
    calm = field.score(f"{spec}:knob=0.2", 6, 1)
    assert calm.forfeits == 0 and calm.games == 6


def test_forfeits_in_the_search_are_warned_of_in_the_words_of_the_arms(tmp_path):
    rows = [
        {"generation": 0, "kind": "start", "games": 24, "forfeits": 0, "spec": "a"},
        {"generation": 0, "kind": "candidate", "games": 24, "forfeits": 6, "spec": "a:k=1"},
        {"generation": 1, "kind": "candidate", "games": 24, "forfeits": 24, "spec": "a:k=2"},
        {"generation": 1, "kind": "candidate", "games": 24, "spec": "a:k=3"},  # saved before
    ]
    assert forfeit_warnings(tmp_path, rows) == [
        "30 of 96 games of the search and the selection ended by a forfeit (2 of the 4 "
        "evaluations, counted in candidates.csv's forfeits; the first, in generation 0: "
        "a:k=1): nobody wins such a game, so every win rate counts it as not won; fix the "
        "strategy that raised"
    ]
    assert forfeit_warnings(tmp_path, rows[:1]) == []


def test_tuning_md_gives_the_search_forfeit_warning_in_its_words():
    text = " ".join((Path(__file__).parents[1] / "docs" / "tuning.md").read_text().split())
    said = FORFEITED.format(first=" (E of the T evaluations, counted in candidates.csv's "
                                  "forfeits; the first, in generation G: SPEC)")  # fmt: skip
    assert f'"N of M games of the search and the selection {said}"' in text


@pytest.mark.slow
def test_a_tuning_whose_candidates_raise_says_so(tmp_path):
    spec = _file(tmp_path, "Raiser", RAISER)
    out = tmp_path / "t"
    result = tune(spec, ["greedy", "low"], players=3, budget=300, seed=1, n_jobs=1, out=out,
                  popsize=2, candidate_games=6, verify_games=6, sigma=0.3)  # fmt: skip
    table = pd.read_csv(out / "candidates.csv")
    assert (table["forfeits"] > 0).any() and (table["forfeits"] <= table["games"]).all()
    lost, games = int(table["forfeits"].sum()), int(table["games"].sum())
    said = [w for w in json.loads((out / "tune.json").read_text())["warnings"]
            if "search and the selection ended by a forfeit" in w]  # fmt: skip
    assert len(said) == 1 and said[0].startswith(f"{lost:,} of {games:,} games of the search")
    assert said == [w for w in result.warnings if "of the search and" in w]


# ---------------------------------------------------------------- a resume's sizes


def _stop_at(monkeypatch, calls: int) -> None:
    """KeyboardInterrupt at the ``calls``-th ``Field.score``."""
    original, count = Field.score, [0]

    def hooked(self, *args, **kwargs):
        count[0] += 1
        if count[0] == calls:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Field, "score", hooked)


def _interrupted(capsys, monkeypatch, out: Path) -> None:
    with monkeypatch.context() as m:
        _stop_at(m, 6)  # in the second generation
        code, _, err = cli(capsys, "tune", TOY, "--against", "random", *FLAGS, "--out", str(out))
    assert code == 130, err


def _resume(capsys, monkeypatch, out: Path, *extra: str) -> tuple[int, str]:
    with monkeypatch.context() as m:
        _stop_at(m, 1)  # stopped again at once where it is not refused
        code, _, err = cli(capsys, "tune", TOY, "--against", "random", *FLAGS, *extra, "--out",
                           str(out), "--resume")  # fmt: skip
    return code, err


def test_the_plan_keeps_the_verification_games_it_plays(tmp_path):
    plan = checked(TOY, ["random"], 4, 500, 3, 1, tmp_path / "t", popsize=3, sigma=0.2,
                   candidate_games=6, verify_games=250)  # fmt: skip
    assert (plan.games, plan.verify_games) == (8, 252)
    assert dict(plan.typed) == {"candidate_games": 6, "verify_games": 250}


def test_a_resume_given_the_verification_games_played_goes_on(capsys, monkeypatch, tmp_path):
    out = tmp_path / "t"
    _interrupted(capsys, monkeypatch, out)
    assert ck.load(out)[0].arguments["verify_games"] == 252  # as played, not the 250 worked out
    for typed in ("252", "250"):  # what it plays, or a number that rounds up to it
        code, err = _resume(capsys, monkeypatch, out, "--verify-games", typed)
        assert code == 130 and err.startswith(f"resuming {out}: 1 of 27 generations"), err


def test_an_earlier_versions_state_is_compared_as_played(capsys, monkeypatch, tmp_path):
    """A state saved before the rounding holds the verification games worked out (250) and no
    ``derived``: its resume, given nothing or the 252 played, goes on."""
    out = tmp_path / "t"
    _interrupted(capsys, monkeypatch, out)
    state = ck.load(out)[0]
    state.arguments["verify_games"] = 250
    del state.arguments["derived"]
    ck.save(out, state)
    for extra in ((), ("--verify-games", "252")):
        code, err = _resume(capsys, monkeypatch, out, *extra)
        assert code == 130 and err.startswith(f"resuming {out}: 1 of 27 generations"), err


@pytest.mark.parametrize(
    ("flag", "typed", "named"),
    [
        ("--candidate-games", "6", "the games per candidate (--candidate-games) 6, rounded up "
                                   "to 8 here, 4 in the tuning"),
        ("--verify-games", "301", "the games per verification arm (--verify-games) 301, "
                                  "rounded up to 304 here, 252 in the tuning"),
        ("--verify-games", "300", "the games per verification arm (--verify-games) 300 here, "
                                  "252 in the tuning"),
    ],
)  # fmt: skip
def test_a_refused_resume_names_the_number_typed_beside_its_rounding(capsys, monkeypatch,
                                                                    tmp_path, flag, typed,
                                                                    named):  # fmt: skip
    out = tmp_path / "t"
    _interrupted(capsys, monkeypatch, out)
    code, err = _resume(capsys, monkeypatch, out, flag, typed)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"leaves: error: cannot resume {out}: {named} (resume with"), err


# ---------------------------------------------------------------- a resume's words


def test_the_saved_arguments_keep_the_sizes_worked_out(tmp_path):
    plan = checked(TOY, ["random"], 4, 500, 3, 1, tmp_path / "t", popsize=3, sigma=0.2,
                   candidate_games=None, verify_games=252)  # fmt: skip
    given = ck.arguments(plan)
    assert given["derived"] == ["candidate_games"]
    state = ck.State(given, None, 1)
    assert ck.derived(state, plan) == {"candidate_games"}
    later = checked(TOY, ["random"], 4, 500, 3, 1, tmp_path / "t", popsize=3, sigma=0.2,
                    candidate_games=4, verify_games=None, resume=True)  # fmt: skip
    assert later.derived == {"verify_games"} and ck.derived(state, later) == {"candidate_games"}


def _warnings(out: Path) -> list[str]:
    return json.loads((out / "tune.json").read_text())["warnings"]


@pytest.mark.slow
def test_a_resume_given_the_sizes_worked_out_warns_as_the_whole_tuning(capsys, monkeypatch,
                                                                       tmp_path):  # fmt: skip
    """The sizes the tuning worked out (4 games a candidate, 250 an arm), given on its resume:
    it warns 'raise --budget' as the uninterrupted tuning does, not 'raise --candidate-games'
    (its sizes were the budget's)."""
    whole = tmp_path / "whole"
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *FLAGS, "--out", str(whole))
    assert code == 0, err
    said = _warnings(whole)
    assert any(w.endswith("raise --budget") for w in said), said
    out = tmp_path / "t"
    _interrupted(capsys, monkeypatch, out)
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *FLAGS, "--candidate-games",
                       "4", "--verify-games", "250", "--out", str(out), "--resume")  # fmt: skip
    assert code == 0, err
    assert _warnings(out) == said
