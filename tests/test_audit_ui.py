"""What a reader sees, held to what it says: the report page's sentences, tables and charts
agree with each other (the head-to-head table with its heatmap, the neighbours' lead with its
chart, a tiny run's summary with the intervals it has), and ``leaves play`` / ``replay`` say
true, whole lines (a saved file's real name, a match left between games, an error on a line
of its own, a typo that steps nothing on)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import reports
from leaves import new_game
from leaves_cli.console import make_console
from leaves_cli.errors import CLIError
from reports.synthetic import synthetic_games


@pytest.fixture(scope="module")
def ten():
    games = synthetic_games({f"s{i}": 0.1 * i - 0.5 for i in range(10)}, players=(4,),
                            deals=6, seed=2, seating="balanced")  # fmt: skip
    run = reports.as_run(games)
    tables, method = reports.compute_tables(run)
    return run, tables, method


def _lead(run, tables, method, name: str) -> str:
    from reports.sections import sections

    secs = sections(tables, method, run.declaration)
    return next(s.lead for s in secs if s.tables and s.tables[0][0] == name)


# ----------------------------------------------------------------------------- report page
def test_head_to_head_closest_opponent_is_the_even_score_the_heatmap_shows(ten):
    from reports.page import key_rows

    _, tables, _ = ten
    h2h = tables["head_to_head"]
    assert h2h["ties"].sum() > 0  # ties make ahead_rate and the heatmap's score differ
    top, _ = key_rows("head_to_head", h2h)
    assert "score" in top.columns  # the heatmap's figure, next to ahead_rate
    for name, grp in h2h.groupby("strategy"):
        closest = grp.loc[(grp["score"] - 0.5).abs().idxmin()]
        row = top[top["strategy"] == name].iloc[0]
        assert row["opponent"] == closest["opponent"]
        assert row["score"] == f"{100 * closest['score']:.1f}%"


def test_the_neighbours_lead_describes_the_heatmap_it_leads(ten):
    from reports import charts

    run, tables, method = ten
    lead = _lead(run, tables, method, "neighbours")
    assert "grey bar" not in lead and "colour" in lead and "not corrected" in lead
    ax = charts.neighbours(tables["neighbours"]).axes[0]
    assert "uncorrected" in ax.get_title() and "clear" not in ax.get_title()


def test_the_neighbours_heatmap_puts_its_columns_in_its_rows_order(ten):
    from reports import charts

    _, tables, _ = ten
    ax = charts.neighbours(tables["neighbours"]).axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert [t.get_text() for t in ax.get_xticklabels()] == rows  # blanks on the diagonal


def test_a_tiny_runs_summary_says_it_has_no_intervals():
    from reports import charts

    games = synthetic_games({"a": 0.2, "b": 0.0, "c": -0.2}, players=(3,), deals=2, seed=1,
                            seating="balanced")  # fmt: skip
    run = reports.as_run(games)
    tables, method = reports.compute_tables(run)
    assert tables["summary"]["ci_low"].isna().all()
    lead = _lead(run, tables, method, "summary")
    assert "with 95% intervals" not in lead and "too few deals" in lead
    ax = charts.win_rates(tables["summary"]).axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "95% interval" not in labels and "win rate" in labels


def test_seat_ticks_sit_on_whole_percents():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from reports import charts

    seats = pd.DataFrame({"n_players": [3, 3, 3], "position": [0, 1, 2],
                          "win_rate": [1 / 3, 0.417, 0.25], "ci_low": np.nan,
                          "ci_high": np.nan, "fair": 1 / 3})  # fmt: skip
    ax = charts.seat_advantage(seats).axes[0]
    FigureCanvasAgg(ax.figure).draw()
    locs = ax.get_yticks()
    assert np.allclose(np.round(locs * 100), locs * 100)  # no 37.5% shown as "38%"


def test_a_gauntlets_key_row_shows_its_answer():
    from reports.page import key_rows

    df = pd.DataFrame([{"strategy": "counter", "baseline": "weighted", "field": "greedy,taker",
                        "n_players": 4, "games": 2000, "deals": 250, "df": 249.0,
                        "method": "paired", "win_rate": 0.297, "ci_low": 0.278,
                        "ci_high": 0.316, "baseline_win_rate": 0.4465,
                        "baseline_ci_low": 0.429, "baseline_ci_high": 0.464, "diff": -0.149,
                        "diff_ci_low": -0.175, "diff_ci_high": -0.124, "p_value": 4.7e-25}])  # fmt: skip
    top, _ = key_rows("gauntlet", df)
    row = top.iloc[0]
    assert (row["win_rate"], row["baseline_win_rate"]) == ("29.7%", "44.6%")
    assert (row["diff"], row["diff_ci_low"], row["diff_ci_high"]) == (
        "-14.9 pp", "-17.5 pp", "-12.4 pp")  # fmt: skip
    assert row["p_value"] == "< 1e-16"


def test_a_cut_table_shows_no_interval_by_one_end():
    from reports.page import key_rows

    df = pd.DataFrame({"strategy": ["a"], "seats": [4], "score_mean": [1.0],
                       "score_ci_low": [0.5], "score_ci_high": [1.5], "left_mean": [2.0],
                       "left_ci_low": [1.0], "left_ci_high": [3.0]})  # fmt: skip
    top, _ = key_rows("means", df)
    lows = [c for c in top.columns if c.endswith("_low")]
    assert all(c[:-4] + "_high" in top.columns for c in lows)
    assert list(top.columns[:5]) == ["strategy", "seats", "score_mean", "score_ci_low",
                                     "score_ci_high"]  # fmt: skip


def test_a_charts_alt_text_is_words_not_a_file_name():
    from reports.page import Section, render_html, render_md

    sec = Section("Summary", charts=["win_rates"])
    page = render_html("t", [], [sec], {"win_rates": b"\x89PNG"})
    assert 'alt="Chart: Summary (win rates)"' in page
    md = render_md("t", [], [sec], {"win_rates": b"\x89PNG"})
    assert "![Chart: Summary (win rates)](charts/win_rates.png)" in md


# ----------------------------------------------------------------------------- play and replay
def _console() -> tuple:
    out = io.StringIO()
    return make_console(file=out, width=200), out


def test_a_saved_files_name_is_printed_as_it_is(tmp_path):
    from leaves.commands.play_loop import QuitGame
    from leaves.commands.play_output import show_left

    initial = new_game(4, seed=1)
    state = initial.apply(initial.legal_actions()[0])
    save = str(tmp_path / "games[v2].jsonl")  # "[v2]" reads as markup to rich
    console, out = _console()
    show_left(console, save, QuitGame(state, initial), ["you", "a", "b", "c"])
    assert f"Saved the unfinished game to {save} " in out.getvalue()


def test_leaving_between_the_games_of_a_match_says_the_match():
    from leaves.commands.play_loop import QuitGame
    from leaves.commands.play_output import show_left

    console, out = _console()
    show_left(console, None, QuitGame(None, new_game(4, seed=1)), ["you", "a", "b", "c"])
    assert out.getvalue() == "You left the match.\n"


def test_the_end_of_input_error_starts_a_line_of_its_own():
    from leaves.commands.play_loop import InputEnded
    from leaves.commands.play_output import show_left

    console, out = _console()
    initial = new_game(4, seed=1)
    with pytest.raises(CLIError, match="input ended before the game did"):
        show_left(console, None, InputEnded(initial, initial), ["you", "a", "b", "c"])
    assert out.getvalue() == "\n"  # after the prompt "Your move (? for help): "


def test_a_finished_game_saved_says_where_and_how_to_replay_it(tmp_path):
    from click.testing import CliRunner

    from leaves.commands.play import play

    save = tmp_path / "g.jsonl"
    result = CliRunner().invoke(play, ["--seed", "1", "--against", "random", "--save",
                                       str(save)], input="1\n" * 400)  # fmt: skip
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the console wraps long lines
    assert f"Saved the game to {save} ('leaves replay {save}' replays it)." in said
    assert len(save.read_text().splitlines()) == 1


def test_replay_answers_a_typo_instead_of_stepping_on():
    from leaves.commands.replay_view import _ask

    console, out = _console()
    answers = iter(["zz", ""])
    console.input = lambda prompt: next(answers)
    state = new_game(4, seed=1)
    assert _ask(console, state, ["a", "b", "c", "d"], 0, 0) == ""
    assert "Unknown answer 'zz': Enter, h, a or q." in out.getvalue()

    def ended(prompt):
        raise EOFError

    console, out = _console()
    console.input = ended
    assert _ask(console, state, ["a", "b", "c", "d"], 0, 0) == "q"
    assert out.getvalue() == "\n"


def test_a_key_typed_with_a_leading_zero_or_full_width_is_that_key():
    from leaves.commands import render
    from leaves.commands.moves import MoveError, parse_move

    state = new_game(4, seed=5)
    first = render.move_keys(state.legal_actions())["1"]
    assert parse_move("01", state) is first and parse_move("\uff11", state) is first
    with pytest.raises(MoveError, match="No move has the key 099"):
        parse_move("099", state)


def test_a_replay_of_one_round_says_round_not_rounds(tmp_path, capsys):
    from leaves.commands.play_output import save_game
    from leaves.commands.replay_view import _show
    from leaves.record import GameRecord

    initial = new_game(4, seed=1)
    state = initial.apply(initial.legal_actions()[0])
    path = tmp_path / "g.jsonl"
    save_game(str(path), initial, state, ["you", "a", "b", "c"], stopped="the player quit")
    record = GameRecord.from_json(path.read_text().strip())
    _show(record, "Game 1", show_all=True, hints=False, where="game 1")
    head = " ".join(capsys.readouterr().out.split())
    assert head.startswith("Game 1: 4 players, 1 turn, 1 round") and "1 rounds" not in head


def test_a_long_significance_table_shows_the_pairs_in_doubt():
    from reports.page import key_rows

    names = [f"s{i}" for i in range(7)]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    df = pd.DataFrame({"a": [a for a, _ in pairs], "b": [b for _, b in pairs],
                       "diff": 0.01, "ci_low": -0.01, "ci_high": 0.03, "p_holm": 0.5,
                       "better": ""})  # fmt: skip
    top, caption = key_rows("significance", df)
    assert list(zip(top["a"], top["b"], strict=True)) == list(zip(names, names[1:], strict=False))
    assert caption == "each strategy against the next below it: 6"


def test_the_match_chart_median_is_the_tables_median():
    from reports import charts

    scores = pd.DataFrame(
        {"strategy": "a", "total": [10, 12, 14, 16, 18], "matches": [1, 1, 1, 1, 0]}
    )
    ax = charts.expert_scores(scores, order=["a"]).axes[0]
    medians = [ln.get_xdata()[0] for ln in ax.lines if ln.get_color() == charts.OKABE_ITO[3]]
    assert medians == [13.0]  # the even count's midpoint, as median_final_total has it


def test_a_match_tables_rates_all_read_in_percent_with_their_interval():
    from reports.page import key_rows

    df = pd.DataFrame({"strategy": ["a"], "matches": [864], "match_wins": [298],
                       "shared_wins": [32], "match_win_rate": [0.3449],
                       "match_win_rate_split": [0.3254], "ci_low": [0.3209],
                       "ci_high": [0.3698], "fair_share": [0.25]})  # fmt: skip
    top, _ = key_rows("expert", df)
    row = top.iloc[0]
    assert (row["match_win_rate"], row["ci_low"], row["ci_high"]) == ("34.5%", "32.1%", "37.0%")
    assert row["match_win_rate_split"] == "32.5%"


def test_the_replay_command_said_works_when_pasted_into_a_shell():
    import shlex

    from leaves.commands.play_output import replay_command

    said = replay_command("my games [v2].jsonl", 2)
    assert shlex.split(said) == ["leaves", "replay", "my games [v2].jsonl", "--game", "2"]
    assert replay_command("runs/g.jsonl", 1) == "leaves replay runs/g.jsonl"
