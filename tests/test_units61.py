"""Generic reports and runner sentences for a game whose rows are not games (its declared
unit), and means over the rows not ended by a forfeit: each checked against the truth (the
run's rows, the plug-in's declaration, the flags the user gave)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import SOMETIMES, cli, cli_output, forfeiting_run
from tests.toygame import ToyGame

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def forfeited_run(tmp_path_factory):
    """A 2-player run in rounds where one entrant forfeits some rounds."""
    return forfeiting_run(tmp_path_factory.mktemp("forfeits") / "run")


# --- A: means over the rows not ended by a forfeit ------------------------------------------


def _truth(out: Path) -> dict[str, tuple[float, int]]:
    """Per strategy: its mean score over the seats of rounds not ended by a forfeit, and how
    many such seats, straight from the rows."""
    import reports

    g = reports.load_run(out).games
    ok = ~g.forfeited
    assert g.forfeited.any() and ok.any()  # the run has both
    seats, score = g.seats[ok], g.means["score"][ok]
    return {lab: (float(score[seats == k].mean()), int((seats == k).sum()))
            for k, lab in enumerate(g.labels)}  # fmt: skip


@pytest.mark.slow
def test_means_leave_forfeited_rounds_out_for_every_seat(forfeited_run):
    import reports
    from reports.declared import means

    truth = _truth(forfeited_run)
    table = means(reports.load_run(forfeited_run).games).set_index("strategy")
    for lab, (mean, n) in truth.items():
        assert table.loc[lab, "score_mean"] == pytest.approx(mean, abs=1e-12)
        assert table.loc[lab, "valid_seats"] == n
        assert table.loc[lab, "seats"] == 40  # every seat taken, as the summary counts them
    assert truth["stack"][0] == pytest.approx(10.75)  # not 8.60: 0 points per forfeited round


def test_means_finding_says_over_how_many_rounds(capsys, forfeited_run):
    code, out, err = cli(capsys, "report", str(forfeited_run))
    assert code == 0, err
    mean, n = _truth(forfeited_run)["stack"]
    (line,) = [x for x in out.splitlines() if "best mean score" in x]
    assert f"stack has the best mean score per round: {mean:.2f}" in line
    assert f"over its {n} seats in rounds not ended by a forfeit" in line


@pytest.mark.slow
def test_by_parameter_leaves_forfeited_rounds_out(tmp_path):
    import reports
    from reports.declared import by_parameter

    out = tmp_path / "run"
    code, _, err = cli_output("tournament", "--game", "ligretto", SOMETIMES, "stack",
                              "stack:speed=1.2", "--players", "2", "--games", "36", "--seed",
                              "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    g = reports.load_run(out).games
    assert g.forfeited.any()
    table = by_parameter(g).set_index(["strategy", "value"])
    for k, lab in enumerate(g.labels):
        seats = (g.seats == k) & ~g.forfeited[:, None]
        base, value = ("stack", 1.2) if "speed=1.2" in lab else (lab, 1.0)
        row = table.loc[(base, value)]
        assert row["valid_seats"] == seats.sum()
        assert row["score_mean"] == pytest.approx(float(g.values[seats].mean()), abs=1e-12)


# --- C: the meta-game asks for more of the run's unit ---------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("games", "said"), [(30, "too few deals"), (300, "caution")])
def test_metagame_finding_asks_for_more_rounds(capsys, tmp_path, games, said):
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "cautious",
                       "--players", "3", "--repeats", "--games", str(games), "--seed", "3",
                       "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    code, text, err = cli(capsys, "report", str(out))
    assert code == 0, err
    (line,) = [x for x in text.splitlines() if "Meta-game" in x]
    assert said in line and "play more rounds" in line and "games" not in line


# --- D: a records file refused with matches names the flag that asked for them --------------


@pytest.mark.parametrize("given", [["--rounds", "3"], ["--target", "30"], ["--expert"]])
def test_record_with_matches_names_the_flag_given(capsys, tmp_path, given):
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", *given,
                       "--games", "6", "--record", str(tmp_path / "r.jsonl"),
                       "--out", str(out))  # fmt: skip
    assert code == 2
    assert err.strip() == (f"leaves: error: --record is not available with {given[0]} "
                           "(record plain rounds)")  # fmt: skip
    assert not out.exists()


def test_record_refused_by_the_library_names_its_parameter(tmp_path):
    from gamekit.errors import ParameterError
    from tournaments import Tournament
    from tournaments.games import plugin_class

    game = plugin_class("ligretto")()
    for given in ({"rounds": 3}, {"expert": True}):
        with pytest.raises(ParameterError) as exc:
            Tournament(["stack", "row"], games=6, game=game, record=tmp_path / "r.jsonl",
                       **given)  # fmt: skip
        (name,) = given
        assert exc.value.params == ("record", name)
        assert str(exc.value) == f"record is not available with {name} (record plain rounds)"


# --- E: a run without rows advises nothing that fails -----------------------------------------


def test_no_rows_run_says_what_it_can_do_not_a_report_that_fails(capsys, tmp_path):
    import tournaments

    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "cycler",
                          "--players", "3", "--games", "60", "--no-rows", "--jobs", "1",
                          "--out", str(out))  # fmt: skip
    assert code == 0, err
    (line,) = [x for x in said.splitlines() if x.startswith("next:")]
    assert "leaves report" not in line.replace("not 'leaves report", "")
    assert line == (
        f"next: the run kept no per-round rows (--no-rows), so not 'leaves report', which "
        f"reports from them; its totals are read by tournaments.load({str(out)!r}) "
        "(.summary(), .head_to_head())"  # no first player: its seat offsets are always empty
    )
    result = tournaments.load(str(out))  # what the line says works, and holds the run
    assert int(result.summary()["games"].sum()) == 60 * 3
    assert result.head_to_head().shape == (3, 3)
    assert result.seat_offsets() is not None
    code, _, err = cli(capsys, "report", str(out))
    assert code != 0  # so the run must not advise it


# --- F: compare's refusals in the runs' unit --------------------------------------------------


def test_compare_refuses_other_table_sizes_in_rounds(capsys, tmp_path):
    runs = []
    for n in (2, 3):
        out = tmp_path / f"p{n}"
        code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "cycler",
                           "--players", str(n), "--games", "6", "--seed", "1", "--jobs", "1",
                           "--out", str(out))  # fmt: skip
        assert code == 0, err
        runs.append(str(out))
    code, _, err = cli(capsys, "compare", *runs)
    assert code == 2
    assert "A's rounds were played by 2 players, B's by 3" in err and "games" not in err


ALWAYS = '''
from ligretto.players import LigrettoStrategy


class Always(LigrettoStrategy, register=False):
    """Forfeits every round it plays."""

    def __init__(self, speed: float = 1.0):
        pass

    def decide(self, view, rng):
        raise KeyError("never")
'''


@pytest.mark.slow
def test_compare_names_a_strategy_with_no_valid_round(capsys, tmp_path):
    spec = tmp_path / "always.py"
    spec.write_text(ALWAYS)
    runs = []
    for seed in ("1", "2"):
        out = tmp_path / f"s{seed}"
        code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"{spec}:Always",
                           "stack", "row", "--players", "2", "--games", "12", "--seed", seed,
                           "--jobs", "1", "--out", str(out))  # fmt: skip
        assert code == 1, err  # an entrant with no valid round
        runs.append(str(out))
    code, out, err = cli(capsys, "compare", *runs)
    assert code == 0, err
    text = " ".join(out.split())
    assert (
        "not compared, with no valid round (every round it sat in there ended by a forfeit" in text
    )
    assert "valid game" not in text and "every game" not in text
    code, out, err = cli(capsys, "report", runs[0])  # a mean of no valid round is no worst
    assert code == 1 and "no valid round of Always" in err  # said, after the findings
    (line,) = [x for x in out.splitlines() if "best mean score" in x]
    assert "Always" not in line and "seats in rounds not ended by a forfeit" in line


# --- the target refusal of a game whose target makes no matches, in its units -----------------


class RoundToy(ToyGame):
    """A game in rounds whose matches are games, a target making none by itself."""

    unit = "round"
    match_unit = "game"
    target_makes_matches = False


def test_target_without_expert_refused_in_the_game_units(capsys, tmp_path):
    code, _, err = cli(capsys, "tournament", "--game", "tests.test_units61:RoundToy", "a", "b",
                       "--target", "20", "--games", "4", "--out", str(tmp_path / "r"))  # fmt: skip
    assert code == 2
    assert err.strip() == ("leaves: error: --target 20 needs --expert: Toy plays single rounds, "
                           "not games to a target, without it")  # fmt: skip
