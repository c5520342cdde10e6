"""The designer's workbench (``leaves variants``, ``leaves tune``) says only what is true: each
test runs a case whose truth is known and checks the sentence or the refusal against it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from leaves_cli.main import cli
from tests.helpers import usage_error


def _run(args: list[str]) -> tuple[int, str]:
    """Exit code and stderr of ``leaves ARGS`` (one line per error)."""
    res = CliRunner().invoke(cli, args)
    return res.exit_code, res.output


# ----------------------------------------------------------------- leaves variants


def test_restrict_takes_a_strategy_as_the_field_names_it(tmp_path):
    """The field is given as specs (weighted:w_pass=-12.0), so --restrict takes the same spec,
    as --ladder does: it names the same strategy as its label weighted(w_pass=-12.0)."""
    out = tmp_path / "o"
    code, output = _run(["variants", "weighted:w_pass=-12.0", "low", "--rules", "take=ends",
                         "--restrict", "weighted:w_pass=-12.0", "--games", "1", "--seed", "1",
                         "--jobs", "1", "--trace-games", "0", "--restricted-games", "4",
                         "--out", str(out)])  # fmt: skip
    assert code == 0, output
    rows = pd.read_csv(out / "default" / "designer_restricted.csv")
    assert set(rows["strategy"]) == {"weighted(w_pass=-12.0)"}


@pytest.mark.parametrize("extra", [["--expert"], ["--restricted-games", "0"]])
def test_a_bad_restrict_is_refused_even_where_restricted_play_is_not_played(capsys, tmp_path,
                                                                             extra):  # fmt: skip
    err = usage_error(capsys, ["variants", "low", "weighted", "--rules", "take=ends", "--restrict",
                            "nosuch", *extra, "--games", "1", "--out", str(tmp_path / "o")])  # fmt: skip
    assert "--restrict 'nosuch' is not in the field" in err
    assert not (tmp_path / "o").exists()


def test_expert_matches_say_the_designers_measures_are_not_measured(tmp_path):
    """Matches are not replayed game by game: --trace-games gives nothing, and the command says
    so in words instead of timing measures it never took."""
    out = tmp_path / "o"
    code, output = _run(["variants", "low", "weighted", "--rules", "expert_target=25",
                         "--expert", "--trace-games", "10", "--games", "1", "--seed", "1",
                         "--jobs", "1", "--out", str(out)])  # fmt: skip
    assert code == 0, output
    assert not (out / "default" / "designer_games.csv").exists()
    findings = (out / "findings.txt").read_text()
    assert "designers' measures" in findings and "not measured" in findings
    assert "designers' measures in 0.0 s" not in output
    assert "no designers' measures" in output


def test_restricted_play_without_a_strategy_that_ranks_its_actions_is_said(tmp_path):
    """No strategy of the field explains its choices: restricted play is not measured, and the
    findings say so rather than leaving it out silently; a field of one is '1 strategy'."""
    out = tmp_path / "o"
    code, output = _run(["variants", "random", "--rules", "take=ends", "--games", "1",
                         "--seed", "1", "--jobs", "1", "--trace-games", "0",
                         "--out", str(out)])  # fmt: skip
    assert code == 0, output
    assert "1 strategy: random" in output and "1 strategies" not in output
    assert not (out / "default" / "designer_restricted.csv").exists()
    assert "Restricted play is not measured" in (out / "findings.txt").read_text()


def test_a_sweep_whose_values_all_play_as_today_is_refused_before_any_game(capsys, tmp_path):
    """At 4 players hand_size=11 and 4:11 both are today's rules: nothing to compare, so one
    line before a game is played (it used to play today's run, then fail in the report)."""
    err = usage_error(capsys, ["variants", "low", "weighted", "--sweep", "hand_size=11,4:11",
                            "--players", "4", "--games", "1", "--out", str(tmp_path / "o")])  # fmt: skip
    assert "every value" in err and "today's rules" in err
    assert not (tmp_path / "o").exists()


def test_sweep_sets_refuse_a_sweep_that_plays_only_today():
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError, match="every value of --sweep players=4,3-6 plays as today"):
        sweep_sets("players=4,3-6", (), [4])
    sets, points = sweep_sets("hand_size=11,12", (), [4])  # one value is today's: kept
    assert len(sets) == 2 and points == [("11", 0), ("12", 1)]
    # every value plays as today's at 3 AND at 4 players (the check asks every size)
    with pytest.raises(CLIError, match="plays as today's rules at 3 and 4 players"):
        sweep_sets("hand_size=3:12/4:11,3:12/4:11/5:10", (), [3, 4])


BOOM = str(Path(__file__).with_name("boom_strategy.py")) + ":Boom"  # raises from turn 10


def test_a_run_where_every_game_was_forfeited_is_one_line_not_a_parser_error(tmp_path):
    """Boom sits at every table (4 strategies, 4 seats): no game is valid. This used to end
    in 'No columns to parse from file' after replaying nothing; now one line, exit 1."""
    code, output = _run(["variants", BOOM, "low", "weighted", "--rules", "take=ends",
                         "--games", "1", "--seed", "1", "--jobs", "1", "--out",
                         str(tmp_path / "o")])  # fmt: skip
    assert code == 1, output
    rows = pd.read_parquet(tmp_path / "o" / "default" / "games", columns=["forfeit_seat"])
    assert (rows["forfeit_seat"] >= 0).all()  # the truth: every game was forfeited
    last = output.strip().splitlines()[-1]
    want = f"leaves: error: no valid game under default: all {len(rows)} games"
    assert last.startswith(want), last
    assert "ended by a forfeit" in last and "No columns" not in output


def test_forfeited_games_are_said_first_and_on_the_page(tmp_path):
    """Boom sits at 4 of the 5 tables: 80% of the games are forfeits, which the command said
    nowhere; now a caution per rule set, before the findings and among them."""
    out = tmp_path / "o"
    code, output = _run(["variants", BOOM, "low", "weighted", "greedy", "--rules", "take=ends",
                         "--games", "1", "--seed", "1", "--jobs", "1", "--trace-games", "0",
                         "--restricted-games", "0", "--out", str(out)])  # fmt: skip
    assert code == 0, output
    rows = pd.read_parquet(out / "default" / "games", columns=["forfeit_seat"])
    lost, games = int((rows["forfeit_seat"] >= 0).sum()), len(rows)
    assert 0 < lost < games  # the truth: some games, not all, were forfeited
    want = f"Caution: under default, {lost} of {games} games ({100 * lost / games:.1f}%) ended"
    assert want in output and output.index(want) < output.index("Key findings:")
    assert output.count(want) == 1 and want in (out / "findings.txt").read_text()


# -------------------------------------------------------------------- leaves tune


def _result(tmp_path, rows: list[dict]) -> object:
    from tuning.tune import TuneResult
    from tuning.verify import Arm, Verification

    arm = Arm("patient", "patient", 400, 50, 0.125, 0.1, 0.15)
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.0, diff_low=0.0, diff_high=0.0,
                     p_value=1.0, units=40, games_differing=0)  # fmt: skip
    cand = pd.DataFrame(rows)
    settings = {"no_effect": False, "finalists": int((cand["kind"] == "finalist").sum())}
    return TuneResult(out=tmp_path, spec="patient", best_spec="patient", best={"min_hand": 6},
                      start={"min_hand": 6}, candidates=cand, search=pd.DataFrame(),
                      verification=v, settings=settings)  # fmt: skip


def test_tune_never_says_the_start_beat_every_candidate_when_one_beat_it(tmp_path):
    """The selection kept the finalist with the starting parameters, but a candidate of the
    search beat the start on its generation's deals: 'the start beat every candidate' is
    false (the start itself is not replayed with the finalists)."""
    rows = [
        {"generation": 0, "candidate": -1, "kind": "start", "min_hand": 6, "wins": 3},
        {"generation": 0, "candidate": 0, "kind": "candidate", "min_hand": 7, "wins": 5},
        {"generation": 1, "candidate": 0, "kind": "finalist", "min_hand": 6, "wins": 9},
        {"generation": 1, "candidate": 1, "kind": "finalist", "min_hand": 7, "wins": 8},
    ]
    result = _result(tmp_path, rows)
    beat = np.array([r["wins"] for r in rows if r["kind"] == "candidate"]) > rows[0]["wins"]
    assert beat.any()  # the truth: a candidate did beat the start
    head = result.headline()
    assert "beat every candidate" not in head
    assert head == ("no better parameters found: of the 2 finalists replayed on common deals, "
                    "none scored above the starting parameters (patient)")  # fmt: skip


def test_the_too_small_warning_counts_one_deal_as_one_deal():
    """A verification of one deal (--verify-games 1 against one opponent) said '1 deals'."""
    from tuning.tune import _warnings
    from tuning.verify import Arm, Verification

    arm = Arm("taker", "taker", 4, 3, 0.75, float("nan"), float("nan"))
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.0, diff_low=float("nan"),
                     diff_high=float("nan"), p_value=float("nan"), units=1,
                     games_differing=0)  # fmt: skip
    (line,) = _warnings(v, False, ["x"])
    assert "(1 deal, 4 games an arm)" in line and "1 deals" not in line


def test_tune_says_when_the_verification_games_were_forfeited(tmp_path):
    """An opponent that raises (Boom) ends most games: nobody wins them, and the tuning used to
    report its win rates and verdict without a word of it."""
    from tournaments.run_state import run_state
    from tuning import tune

    res = tune("taker", [BOOM, "low"], players=4, budget=504, seed=2, verify_games=24,
               out=tmp_path / "t")  # fmt: skip
    assert res.verification is not None  # seed 2 tunes other parameters: they are verified
    state = run_state(tmp_path / "t" / "verify" / "tuned")
    assert state is not None and state.forfeited > 0  # the truth: games were forfeited
    want = f"{state.forfeited} of {state.games} games of the tuned arm ended by a forfeit"
    assert any(w.startswith(want) for w in res.warnings), res.warnings
    assert any(line.startswith(f"warning: {want}") for line in res.lines())


def test_the_verdict_and_the_paired_line_give_one_p_value(tmp_path):
    """A large gain printed 'p = 1.7e-95' in the verdict and 'p < 1e-16' two lines below."""
    from types import SimpleNamespace

    from leaves.commands.tune import verdict
    from tuning.tune import _paired
    from tuning.verify import Arm, Verification

    arm = Arm("toy", "toy", 10_000, 9_401, 0.9401, 0.935, 0.945)
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.0948, diff_low=0.0862,
                     diff_high=0.1034, p_value=1.7e-95, units=2500, games_differing=900)  # fmt: skip
    said = verdict(SimpleNamespace(spec="toy", verification=v))
    assert said.startswith("Better than the start: +9.5 percentage points") and "e-95" not in said
    assert said.endswith("p < 1e-16") and _paired(v).endswith("p < 1e-16")
