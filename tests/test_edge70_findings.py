"""Key findings that say only what their numbers support: a win rate over seats is said to be
of its seats where a strategy held two at a table, an effect of 0 is no strongest neighbour
effect, and where unfinished games count as nobody's win the best finding gives the fair
share of the games someone won beside the one of every game, as the seat finding gives it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.data import default_declaration
from reports.findings import key_findings
from reports.findings_best import best_finding
from reports.findings_neighbours import neighbours_finding
from reports.report import compute_tables
from reports.synthetic import synthetic_games
from tests.helpers import cli, forget_loaded_files  # noqa: F401 - a fixture
from tests.test_audit4_nospread import NEVER  # the strategies that never play: one text

# users' files loaded here are forgotten after each test: another file's 'never' would clash
pytestmark = pytest.mark.usefixtures("forget_loaded_files")

D = default_declaration()


def _summary(**top: float) -> pd.DataFrame:
    """A two-strategy summary as ``reports.tables.summary`` has it: a leads b (20 of 27
    games, 54 seats where ``seats`` says so), no game unfinished unless ``unfinished``."""
    a = {"strategy": "a", "games": 27, "wins": 20, "win_rate": 20 / 54, "ci_low": 0.3,
         "ci_high": 0.45, "seats": 54, "fair_share": 1 / 3, "par": 1 / 3, "relative": 1.11,
         "unfinished": 0, "valid_games": 27}  # fmt: skip
    b = {**a, "strategy": "b", "wins": 7, "win_rate": 7 / 27, "ci_low": 0.2, "ci_high": 0.33,
         "seats": 27, "relative": 0.78}  # fmt: skip
    return pd.DataFrame([{**a, **top}, b])


def _significance(p: float) -> pd.DataFrame:
    """The paired comparison of a with b: +11 points [+2, +20], at ``p``."""
    return pd.DataFrame([{"a": "a", "b": "b", "diff": 0.11, "ci_low": 0.02, "ci_high": 0.2,
                          "p_value": p, "significant": p < 0.05, "win_rate_a": 20 / 54,
                          "win_rate_b": 7 / 27}])  # fmt: skip


def _best(summ: pd.DataFrame, p: float = 0.01, **tables: pd.DataFrame) -> str:
    (found,) = best_finding({"summary": summ, "significance": _significance(p), **tables},
                            "paired", D)  # fmt: skip
    return found.text


@pytest.mark.parametrize("p", [0.01, 0.2])  # it beats b; its margin is not significant
def test_a_rate_over_more_seats_than_games_is_of_its_seats(p):
    text = _best(_summary(), p)
    assert "37.0% [30.0, 45.0] of its seats" in text
    assert "of its games" not in text


@pytest.mark.parametrize("p", [0.01, 0.2])
def test_a_rate_over_one_seat_a_game_keeps_its_words(p):
    text = _best(_summary(seats=27, win_rate=20 / 27, ci_low=0.6, ci_high=0.85), p)
    assert ("a wins 74.1% [60.0, 85.0] of its games (fair share 33.3%)" in text
            if p < 0.05 else "a leads with 74.1% [60.0, 85.0] of its games won" in text)  # fmt: skip
    assert "seats" not in text


@pytest.mark.slow
def test_a_strategy_at_two_seats_of_every_table_wins_a_share_of_its_seats(capsys, tmp_path):
    """Two strategies at three seats: each holds two seats at a table and one at the next,
    so its seats outnumber its games, and its wins over seats are no share of its games."""
    out = str(tmp_path / "w")
    code, _, _ = cli(capsys, "tournament", "weighted", "taker", "--players", "3", "--games",
                     "36", "--seed", "1", "--jobs", "1", "--out", out)  # fmt: skip
    assert code == 0
    code, text, _ = cli(capsys, "report", out)
    summ = pd.read_csv(f"{out}/report/summary.csv").iloc[0]
    assert code == 0 and summ["seats"] > summ["games"]
    assert f"wins {100 * summ['wins'] / summ['seats']:.1f}%" in text
    assert "of its seats" in text and "of its games" not in text


NEIGHBOUR_COLUMNS = ["strategy", "before", "vs_elsewhere", "vs_elsewhere_low",
                     "vs_elsewhere_high", "vs_elsewhere_p"]  # fmt: skip


def _neighbours(rows: list[tuple[str, str, float, float, float, float]]) -> str:
    """The neighbour finding of a neighbours table of ``rows`` (strategy, before, effect, its
    bounds, p), every rate 100.0% [66.1, 100.0] after and 100.0% elsewhere."""
    t = pd.DataFrame(rows, columns=NEIGHBOUR_COLUMNS)
    t = t.assign(win_rate=1.0, ci_low=0.661, ci_high=1.0, elsewhere_rate=1.0)
    (found,) = neighbours_finding(t, None)
    return found.text


def test_every_effect_of_0_is_no_effect_found_not_the_strongest():
    zero = [(s, b, 0.0, np.nan, np.nan, 1.0) for s, b in [("a", "b"), ("b", "a"), ("c", "a")]]
    assert _neighbours(zero) == (
        "Neighbours: no neighbour effect was found: in each of the 3 pairs compared, the "
        "strategy wins as often when the other sits before it as when the other sits elsewhere "
        "at the table (a difference of 0 within the same deals)."
    )


def test_one_pair_with_an_effect_of_0_is_named_with_its_interval():
    """b after a has no p (too few deals): a after b is the only pair compared."""
    rows = [("a", "b", 0.0, -0.05, 0.05, 1.0), ("b", "a", 0.0, np.nan, np.nan, np.nan)]
    assert _neighbours(rows) == (
        "Neighbours: no neighbour effect was found: a wins as often when b sits before it as "
        "when b sits elsewhere at the table (+0.0 percentage points [-5.0, +5.0] within the "
        "same deals, p = 1.00), the only pair compared."
    )


def test_an_effect_beside_effects_of_0_is_still_the_strongest():
    text = _neighbours([("a", "b", 0.0, -0.05, 0.05, 1.0), ("b", "a", -0.001, -0.05, 0.05, 0.9)])
    assert text.startswith("Neighbours: b wins 100.0% [66.1, 100.0] when a sits before it")
    assert "the strongest neighbour effect" in text and "no neighbour effect" not in text


@pytest.mark.slow
def test_a_run_that_never_wins_anywhere_finds_no_neighbour_effect(capsys, tmp_path):
    """weighted wins every game, the two that always pass none: every neighbours row has an
    effect of 0 (no duplicate set differs), so none is the strongest."""
    spec, out = tmp_path / "never.py", str(tmp_path / "n")
    spec.write_text(NEVER)
    code, _, _ = cli(capsys, "tournament", "weighted", "never", "nobody", "--load", str(spec),
                     "--players", "3", "--games", "60", "--seed", "8", "--jobs", "1",
                     "--out", out)  # fmt: skip
    assert code == 0
    code, text, _ = cli(capsys, "report", out)
    assert code == 0
    assert (pd.read_csv(f"{out}/report/neighbours.csv")["vs_elsewhere"] == 0).all()
    assert "Neighbours: no neighbour effect was found: in each of the 6 pairs compared" in text
    assert "strongest" not in text


UNFINISHED = {"unfinished": 19, "par": 0.0978, "seats": 27, "win_rate": 0.182,
              "ci_low": 0.151, "ci_high": 0.217}  # fmt: skip


def _completion(*sizes: int) -> pd.DataFrame:
    """A completion table's size column: a row per size and one over all."""
    return pd.DataFrame({"n_players": [*sizes, "all"]})


def test_the_fair_share_of_the_games_someone_won_stands_beside_the_fair_share():
    """Of one size (3 players): 0.0978 * 3 = 29.3% of its games won, as the seat finding
    writes its fair share of 9.8% (1/3 of the 29.3% of games someone won)."""
    text = _best(_summary(**UNFINISHED), completion=_completion(3))
    assert text.startswith(
        "a is the best strategy: a wins 18.2% [15.1, 21.7] of its games (fair share 33.3% if "
        "every game had a winner; 9.8%, 1/3 of the 29.3% of its games someone won). "
    )


def test_of_tables_of_several_sizes_the_fair_share_of_the_games_won_is_not_a_third():
    text = _best(_summary(**UNFINISHED), completion=_completion(3, 4))
    assert ("(fair share 33.3% if every game had a winner; 9.8% counting its games that "
            "nobody won)") in text  # fmt: skip


def test_without_unfinished_games_the_fair_share_keeps_its_words():
    """A par below the fair share from forfeits alone, or a par that reads as the fair share:
    today's words, one fair share."""
    for top in ({**UNFINISHED, "unfinished": 0}, {**UNFINISHED, "par": 1 / 3 - 1e-4}):
        text = _best(_summary(**top), completion=_completion(3))
        assert "of its games (fair share 33.3%). " in text


def test_the_best_and_seat_findings_of_unfinished_games_give_one_fair_share():
    """Synthetic 3-player games, a quarter unfinished: the best finding's fair share of the
    games someone won is the seat finding's, to the decimal."""
    games = synthetic_games({"a": 1.0, "b": 0.0, "c": -1.0}, players=(3,), deals=60, seed=3,
                            unfinished_p=0.25, forfeit_p=0.0)  # fmt: skip
    tables = compute_tables(games)[0]
    texts = {f.topic: f.text for f in key_findings(tables, "paired")}
    best = next(t for topic, t in texts.items() if topic in ("summary", "significance"))
    seat = texts["seats"]
    par, won = seat.split("against a fair share of ")[1].split(" (1/3 of the ")
    assert f"if every game had a winner; {par}, 1/3 of the {won.split()[0]}" in best


def _expert_table(void: int) -> pd.DataFrame:
    """A match table whose leader a won 11 of its 20 seats' matches, ``void`` of them void."""
    return pd.DataFrame([{"strategy": "a", "match_win_rate": 0.55, "ci_low": 0.4,
                          "ci_high": 0.7, "match_win_rate_split": 0.5, "fair_share": 1 / 3,
                          "shared_wins": 0, "match_wins": 11, "matches": 20,
                          "forfeited_matches": void}])  # fmt: skip


@pytest.mark.parametrize(("games", "of", "void"), [
    (10, "seats", " 1 of its 20 seats was at a match that held a forfeited game, won by nobody."),
    (20, "matches", " 1 of its 20 matches held a forfeited game and was won by nobody."),
])  # fmt: skip
def test_a_match_win_rate_over_two_seats_a_match_is_of_its_seats(games, of, void):
    """a at two seats of each of its 10 matches (20 seats, as the match table counts them):
    11 wins are no 55.0% of its matches; at one seat a match, the words of today."""
    from reports.findings import _expert

    summ = pd.DataFrame([{"strategy": "a", "games": games, "seats": 20}])
    (found,) = _expert(_expert_table(1), D, summ)
    assert found.text.startswith(f"Expert matches: a wins 55.0% [40.0, 70.0] of its {of}, ")
    assert found.text.endswith(" 0 of its 11 wins were shared." + void)


@pytest.mark.slow
def test_an_expert_run_at_two_seats_a_table_says_of_its_seats(capsys, tmp_path):
    out = str(tmp_path / "e")
    code, _, _ = cli(capsys, "tournament", "weighted", "taker", "--players", "3", "--expert",
                     "--games", "36", "--seed", "1", "--jobs", "1", "--out", out)  # fmt: skip
    assert code == 0
    code, text, _ = cli(capsys, "report", out)
    assert code == 0
    (line,) = [x for x in text.splitlines() if x.startswith("- Expert matches:")]
    assert " of its seats, counting shared wins" in line, line
