"""Ligretto reports say what is true of Ligretto: what each entrant played at comes from the
run's manifest, not its label (a strategy whose own default speed is not the game's plays at
its own); tables of a first player or a turn order are refused, as the page leaves them out;
counts of seats are called seats."""

from __future__ import annotations

import pytest

from tests.helpers import forfeiting_run


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A 2-player Ligretto run (a strategy that sometimes forfeits, and stack)."""
    return forfeiting_run(tmp_path_factory.mktemp("params") / "run")


def _recorded(run, label: str, **params: float) -> None:
    """Record ``params`` for the entrant ``label`` in the loaded run's manifest."""
    (entrant,) = [e for e in run.manifest["spec"]["entrants"] if e["label"] == label]
    entrant["params"].update(params)


def test_by_parameter_takes_the_recorded_speed_not_the_label(run_dir):
    import reports
    from reports.declared import by_parameter

    run = reports.load_run(run_dir)
    assert "(" not in "".join(run.games.labels)  # no label shows a speed
    assert by_parameter(run) is None  # both at 1.0: one value says nothing
    _recorded(run, "stack", speed=1.2)
    table = by_parameter(run).set_index("strategy")
    assert table.loc["stack", "value"] == 1.2
    assert (table.drop(index="stack")["value"] == 1.0).all()


def test_by_parameter_without_a_manifest_reads_the_label(run_dir):
    import reports
    from reports.declared import by_parameter

    g = reports.load_run(run_dir).games
    assert by_parameter(g) is None  # no manifest, no speed in any label: the default


@pytest.mark.parametrize("table", ["seats", "neighbours", "plot"])
def test_seat_tables_are_refused_for_a_game_without_first_player_or_turn_order(run_dir, table):
    import reports
    from reports.notebook import Plots

    run = reports.load_run(run_dir)
    assert not run.declaration.has_first_player and not run.declaration.turn_order
    call = {"seats": lambda: reports.seats(run), "neighbours": lambda: reports.neighbours(run),
            "plot": lambda: Plots(run).seats()}[table]  # fmt: skip
    with pytest.raises(reports.ReportError) as err:
        call()
    text = str(err.value)
    assert "\n" not in text and "for Ligretto: it has no " in text


@pytest.mark.parametrize(("valid", "said"), [(2298, "2,298 seats"), (1, "1 seat")])
def test_a_mean_over_seats_counts_seats_not_rounds(valid, said):
    import pandas as pd

    from ligretto.plugin import LigrettoGame
    from reports.findings_best import means_finding
    from tournaments.declaration import Declaration

    cols = ["strategy", "score_mean", "score_ci_low", "score_ci_high", "valid_seats", "seats"]
    rows = [("row", 5.05, 4.9, 5.2, valid, 2400), ("stack", 4.0, 3.9, 4.1, 800, 800)]
    (found,) = means_finding(pd.DataFrame(rows, columns=cols), Declaration.of(LigrettoGame()))
    assert f"5.05 [4.90, 5.20] over its {said} in rounds not ended by a forfeit;" in found.text


def test_means_and_rating_name_their_counts_seats(run_dir):
    import reports
    from reports.declared import means

    g = reports.load_run(run_dir).games
    for table in (means(g), reports.rating(g)):
        assert "games" not in table and "valid_games" not in table
    kept = g.seats[~g.forfeited]
    valid = means(g).set_index("strategy")["valid_seats"]
    assert valid.to_dict() == {lab: int((kept == k).sum()) for k, lab in enumerate(g.labels)}


def test_a_ligretto_gauntlets_forfeits_are_said_in_rounds(tmp_path):
    import reports
    from reports.gauntlet import answer, gauntlet
    from tests.helpers import SOMETIMES, cli_output

    out = tmp_path / "g"
    code, _, err = cli_output("gauntlet", "--game", "ligretto", SOMETIMES, "--against", "row",
                              "--games", "12", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    head, _ = answer(gauntlet(reports.load_run(out)))
    assert "(the first, round 0: seat 0 (Sometimes)" in head
    assert f"'leaves replay {out} --game 0' replays that round," in head
    assert "game" not in head.replace("--game", "")


@pytest.mark.parametrize(
    ("figures", "said"),
    [(["1"], "1 second"), (["1", "55"], "1 second and 55 seconds"), (["36", "55"], "36 and 55 seconds"),
     (["0", "1"], "under one second and 1 second"), (["1.5"], "1.5 seconds")],
)  # fmt: skip
def test_one_second_is_singular(figures, said):
    from reports.findings import _lasted

    assert _lasted(figures, "seconds") == said


@pytest.mark.parametrize("call", ["resolve", "play_round", "play_batch"])
def test_a_13_leaves_name_at_ligretto_functions_gets_advice_they_can_follow(call):
    import pickle

    import numpy as np

    from ligretto import players

    seeds = np.array([1], np.uint64)
    run = {"resolve": lambda: players.resolve("greedy"),
           "play_round": lambda: players.play_round(["stack", "greedy"], 1, 2),
           "play_batch": lambda: players.play_batch(["stack", "greedy"], seeds, seeds)}[call]  # fmt: skip
    with pytest.raises(ValueError) as refused:
        run()
    text = str(refused.value)
    assert text == ("unknown strategy 'greedy': it is a 13 Leaves strategy, not a Ligretto one: "
                    "Ligretto rounds take Ligretto strategies only")  # fmt: skip
    assert str(pickle.loads(pickle.dumps(refused.value))) == text  # as a worker's error crosses
