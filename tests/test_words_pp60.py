"""A difference of two win rates is said in percentage points, for every game, in everything
the tool prints or writes for a reader: a game's own score may be counted in points (a round's
score, cards left summed to a match total), so a bare "points" could be read as either.

The word comes from one source, ``reports.numbers`` (``PERCENTAGE_POINTS``, ``in_percentage_
points``, and ``PP`` for a table cell, defined beside the table by ``PP_MEANS``); the scan below
fails on a printed string of the generic layers that says "points" any other way.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers import as_written_without, cli, cli_output

ROOT = Path(__file__).resolve().parents[1]
PP_WORDS = "percentage points"


# --- the one source --------------------------------------------------------------------------


def test_the_unit_comes_from_reports_numbers():
    from reports.numbers import (
        PERCENTAGE_POINT,
        PERCENTAGE_POINTS,
        PP,
        PP_MEANS,
        in_percentage_points,
        points,
        pp_cell,
        signed_points,
    )

    assert PERCENTAGE_POINTS == PP_WORDS and PERCENTAGE_POINT == "percentage point"
    assert points(0.012) == "1.2 percentage points" and points(-0.01) == "1.0 percentage point"
    assert signed_points(-0.057) == "-5.7 percentage points"
    assert in_percentage_points("+1") == "+1 percentage point"
    assert in_percentage_points("2") == "2 percentage points"
    assert pp_cell(0.012) == "+1.2 pp" and pp_cell(-1e-7, 2) == "+0.00 pp"
    assert PP_MEANS.startswith(f"{PP}: {PP_WORDS}")


# --- what the commands print -----------------------------------------------------------------


@pytest.fixture(scope="module")
def rounds(tmp_path_factory):
    """Two runs of a game whose score is counted in points (its round score), on different
    seeds (the first is the reproduction of the defect)."""
    root = tmp_path_factory.mktemp("pp")
    for name, seed in (("a", "1"), ("b", "2")):
        code, _, err = cli_output("tournament", "--game", "ligretto", "stack", "row", "cycler",
                                  "--players", "3", "--games", "3000", "--seed", seed,
                                  "--jobs", "1", "--out", str(root / name))  # fmt: skip
        assert code == 0, err
    return root


def _bare(text: str) -> list[str]:
    """The phrases of ``text`` that say points without 'percentage' before them."""
    return re.findall(r"(?<!percentage )\bpoints?\b.{0,30}", text)


def test_the_report_s_margin_is_in_percentage_points(rounds, capsys):
    code, out, err = cli(capsys, "report", str(rounds / "a"))
    assert code == 0, err
    assert (
        "its margin over stack (35.4% [33.9, 36.9]) is +1.2 percentage points [-1.4, +3.8]" in out
    )
    assert not _bare(out), out
    page = (rounds / "a" / "report" / "report.html").read_text(encoding="utf-8")
    assert not _bare(page)
    # the table's cells in the short unit, defined beside the table that uses it
    assert re.search(r"<td class=\"n\">[+-]\d+\.\d pp</td>", page)
    note = r"significance [^<]*\(pp: percentage points, a difference of two rates\)</p>"
    assert re.search(note, page), page  # after what win_rate_b is, in the same note


def test_compare_says_percentage_points(rounds, capsys):
    code, out, err = cli(capsys, "compare", str(rounds / "a"), str(rounds / "b"))
    assert code == 0, err
    assert "percentage points [" in out and not _bare(out), out
    assert "Win rates in % (95% intervals rounded outward) and B - A in percentage points" in out


def test_a_gauntlet_s_verdict_and_its_sequential_batches_say_percentage_points(tmp_path, capsys):
    code, out, err = cli(capsys, "gauntlet", "row", "--game", "ligretto", "--against", "stack",
                         "--baseline", "cycler", "--players", "3", "--games", "300", "--seed",
                         "1", "--jobs", "1", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    assert "percentage points" in out and not _bare(out), out
    code, out, err = cli(capsys, "gauntlet", "row", "--game", "ligretto", "--against", "stack",
                         "--baseline", "cycler", "--players", "3", "--games", "300", "--seed",
                         "1", "--jobs", "1", "--sequential", "--margin", "1", "--max-games",
                         "600", "--out", str(tmp_path / "s"))  # fmt: skip
    assert code == 0, err
    assert "(0 against +1 percentage point, " in out and not _bare(out), out
    batches = [line for line in err.splitlines() if line.startswith("batch ")]
    assert batches and all("percentage points" in b and not _bare(b) for b in batches), err


def test_the_precision_line_says_percentage_points(tmp_path, capsys):
    code, out, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "--players",
                         "2", "--games", "200", "--max-games", "400", "--precision", "30",
                         "--seed", "1", "--jobs", "1", "--out", str(tmp_path / "p"))  # fmt: skip
    assert code == 0, err
    (line,) = [x for x in out.splitlines() if x.startswith("precision")]
    assert re.fullmatch(r"precision \+-30 percentage points reached: [\d,]+ rounds, widest 95% "
                        r"half-width \d+\.\d\d percentage points", line), line  # fmt: skip
    assert all(not _bare(x) for x in err.splitlines() if x.startswith("stage ")), err


@pytest.mark.parametrize(
    "args, said",
    [
        (["tournament", "greedy", "low", "--precision", "-1"],
         "--precision must be a positive number of percentage points, got -1"),
        (["gauntlet", "greedy", "--against", "low", "--sequential", "--margin", "-1"],
         "--margin must be a positive number of percentage points, got -1"),
    ],
)  # fmt: skip
def test_a_bad_precision_or_margin_is_refused_in_percentage_points(args, said, tmp_path, capsys):
    code, _, err = cli(capsys, *args, "--out", str(tmp_path / "x"))
    assert code == 2 and err.strip().endswith(said), err


@pytest.mark.parametrize("command, flag", [("tournament", "--precision"),
                                           ("gauntlet", "--margin"),
                                           ("gauntlet", "--sequential")])  # fmt: skip
def test_the_help_names_the_unit(command, flag, capsys):
    code, out, _ = cli(capsys, command, "--help")
    assert code == 0
    text = " ".join(out.split())
    start = text.index(f" {flag} ", text.index("Options:"))
    assert PP_WORDS in text[start : start + 260], text[start : start + 260]
    assert "{percentage_points}" not in text


def test_the_metagame_words_and_charts_say_percentage_points():
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    from reports import charts
    from reports.metagame_text import gain_words, readable

    assert gain_words(0.0123) == (
        "no strategy gains more than 1.23 percentage points of win rate by deviating"
    )
    assert readable("metagame_mix", pd.DataFrame({"gain": [0.012]}))["gain"][0] == "+1.2 pp"
    table = pd.DataFrame({"strategy": ["a", "b"], "before": ["b", "a"], "wins": [3, 5],
                          "games": [10, 10], "win_rate": [0.3, 0.5]})  # fmt: skip
    fig = charts.neighbours(table)
    labels = [" ".join(ax.get_ylabel().split()) for ax in fig.axes]  # a long label wraps
    label = "seat effect: win rate after it less with it elsewhere at the same tables, percentage points"
    assert label in labels, labels


# --- the scan: no printed string says points another way ---------------------------------------

SCANNED = (
    "reports",
    "tournaments",
    "leaves_cli",
    "tuning",
    "leaves/commands",
    "ligretto",
    "benchmarks",
)
WORD = re.compile(r"(?<![\w-])(points?|pts?|pp)(?![\w-])", re.IGNORECASE)
ALLOWED = {
    # the one source
    ("reports/numbers.py", 'PERCENTAGE_POINT = "percentage point"'),
    ("reports/numbers.py", 'PP = "pp"'),
    # a game's own score, in its points: a match's target and totals
    ("reports/sections.py",
     'how = f"of {rounds} {d.units()} each" if rounds else f"to {target} points"'),
    ("reports/sections.py",
     'f"(counted as wins, and in shared_wins). Points per {d.unit}: {d.better} is better."'),
    ("reports/charts.py", 'ax.set_xlabel(f"final match total (points; {better} is better)")'),
    ("tournaments/arguments.py",
     'target = optional_integer(target, "target", "a whole number of points")'),
    ("tournaments/arguments.py",
     'f"{{target}} {said}: a {game.match_unit} runs to at least 1 point", "target"'),
    ("leaves_cli/tournament_cmd.py",
     'help="Play matches to --target points (a game whose matches are asked for).",'),
    ("leaves_cli/tournament_cmd.py",
     'f"anyone reached {t.target:,} points: the best total then won; a lower --target"'),
    ("leaves/commands/play.py",
     'help="Expert variant: games until someone has 20 points (--target N or --rules "'),
    ("leaves/commands/play.py",
     'help="Points that end an expert match (default 20; implies --expert).",'),
    ("leaves/commands/play.py",
     'f"Expert match: games until someone reaches {counted(points, \'point\')}; lowest total wins."'),
    ("ligretto/match.py",
     'raise ValueError(f"the target must be at least 1 point, got {self.target}")'),
    ("ligretto/record.py",
     'return f"{score} point" if abs(score) == 1 else f"{score} points"'),
    ("benchmarks/findings.py",
     '"Matches to 20 points (a shared lowest total is a shared win, rule X1), every seat "'),
    # matplotlib's unit of type, not a figure
    ("reports/charts.py", 'textcoords="offset points", va="center", fontsize=8)  # fmt: skip'),
    # a placeholder's name, which the help defines ("+-POINTS percentage points of win rate")
    ("leaves_cli/tournament_cmd.py", 'metavar="POINTS",'),
    ("leaves_cli/gauntlet_cmd.py", 'metavar="POINTS",'),
}  # fmt: skip
"""(module, its source line) where a printed string may say "point" other than through
``reports.numbers``: the unit's one source, and points that are not a difference of rates."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The string expressions that are statements: docstrings (a module's, a class's, a
    function's, an attribute's), not printed."""
    bodies = [n.body for n in ast.walk(tree) if isinstance(getattr(n, "body", None), list)]
    return {id(s.value) for body in bodies for s in body
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)}  # fmt: skip


def _names(tree: ast.AST) -> set[int]:
    """The strings of ``__all__``: names, not words."""
    return {id(c) for node in ast.walk(tree) if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            for c in ast.walk(node.value)}  # fmt: skip


def bare_points(source: str, module: str) -> list[str]:
    """The lines of ``source`` whose string literals (f-strings' parts included; docstrings
    and comments are not printed) say point, points, pt or pp, unless ``ALLOWED``:
    'module:line: text'."""
    tree = ast.parse(source)
    lines = source.splitlines()
    skip = _docstrings(tree) | _names(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in skip and WORD.search(node.value)):  # fmt: skip
            span = range(node.lineno, node.end_lineno + 1)  # an f-string's parts: its lines
            said = [(n, lines[n - 1].strip()) for n in span if WORD.search(lines[n - 1])]
            found += [f"{module}:{n}: {text}" for n, text in said or [(node.lineno, "?")]
                      if (module, text) not in ALLOWED]  # fmt: skip
    return found


def _modules() -> list[Path]:
    return [p for package in SCANNED for p in sorted((ROOT / package).rglob("*.py"))]


def test_no_printed_string_says_points_but_through_the_one_source():
    found = []
    for path in _modules():
        found += bare_points(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "\n".join(found)


def test_every_allowed_line_is_still_there():
    """An allowed line that no longer exists would let a new one of the same words through."""
    lines = {(str(p.relative_to(ROOT)), line.strip()) for p in _modules()
             for line in p.read_text(encoding="utf-8").splitlines()}  # fmt: skip
    assert not ALLOWED - lines, ALLOWED - lines


@pytest.mark.parametrize(
    "line",
    [
        'f"its margin is {diff} points {span}"',
        'f"{x:.1f} pt"',
        '"+" + fixed(d) + " pp"',
        'print(f"widest half-width {w:.2f} points")',
        'msg = "must be a positive number of percentage points"',
        'click.echo(f"0 against +1 point")',
    ],
)
def test_the_scan_finds_a_bare_points(line):
    """The scan fails on a printed string that says points itself, whatever its form (the
    full words written out too: they come from ``reports.numbers``)."""
    assert bare_points(f"def f(diff, span, x, d, w, fixed):\n    {line}\n", "reports/x.py")


def test_the_scan_passes_the_unit_from_its_source_and_docstrings():
    source = (
        '"""A module: differences in points."""\n'
        "from reports.numbers import PERCENTAGE_POINTS, in_percentage_points\n"
        "def f(d):\n"
        '    """In points."""\n'
        "    # a comment in points\n"
        '    return f"{in_percentage_points(d)} or {d} {PERCENTAGE_POINTS}; entry-point group"\n'
    )
    assert bare_points(source, "reports/x.py") == []


# --- a run without rows says how many games stopped unfinished, from its aggregates -------------


def _unfinished_said(out: str) -> list[str]:
    return [line for line in out.splitlines() if "stopped unfinished" in line]


SLOW = "think_ms=600000,spread_ms=0"
"""A Ligretto player this slow lets every round run into the round's time limit."""


@pytest.mark.parametrize(
    "game",
    [
        ["greedy", "low", "high", "--players", "3", "--games", "60", "--turn-limit", "5"],
        ["--game", "ligretto", f"stack:{SLOW}", f"row:{SLOW}", "--players", "2", "--games", "8"],
    ],
)  # 13 Leaves: unfinished is nobody's win; Ligretto: a stopped round is scored as it stood
def test_a_run_without_rows_says_the_unfinished_line_a_run_with_rows_says(game, tmp_path, capsys):
    """The line came from the rows only: a --no-rows run of games that stopped unfinished said
    nothing of them. Now the aggregates count them (and those still won), so the two runs of
    one seed say the same line."""
    said = {}
    for rows in ("--rows", "--no-rows"):
        out = tmp_path / rows
        code, text, err = cli(capsys, "tournament", *game, "--seed", "3", "--jobs", "1", rows,
                              "--out", str(out))  # fmt: skip
        assert code == 0, err
        said[rows] = _unfinished_said(text)
    assert len(said["--rows"]) == 1 and said["--no-rows"] == said["--rows"], said
    # the aggregates count what the rows say, in both runs
    from reports.tables import completion
    from tournaments import TournamentResult

    truth = completion(tmp_path / "--rows").set_index("n_players").loc["all"]
    for rows in ("--rows", "--no-rows"):
        agg = TournamentResult(tmp_path / rows).aggregates()
        assert int(agg["size_unfinished"].sum()) == truth["unfinished"] > 0
        assert int(agg["size_unfinished_won"].sum()) == truth["unfinished_won"]


def test_the_aggregates_count_games_stopped_unfinished_and_those_won():
    """By hand: the game's own column where it has one, else no winner; a forfeit is never
    unfinished; a stopped game with a winner counts as won."""
    import numpy as np

    from tournaments import aggregates
    from tournaments.game import SeatedBatch

    def batch(winner, forfeit, unfinished=None):
        g = len(winner)
        values = {"turns": np.ones(g, np.int16)}
        if unfinished is not None:
            values["unfinished"] = np.asarray(unfinished, bool)
        return SeatedBatch(first_player=None, winner_seat=np.asarray(winner, np.int8),
                           forfeit_seat=np.asarray(forfeit, np.int8),
                           seat_values={"rank": np.zeros((g, 3), np.int16)},
                           game_values=values, errors=[None] * g)  # fmt: skip

    for b, stopped, won in [
        (batch([0, -1, -1, 1], [-1, -1, 2, -1], [True, True, True, False]), 2, 1),
        (batch([0, -1, -1, 1], [-1, -1, 2, -1]), 1, 0),  # no column: no winner, no forfeit
    ]:
        agg = aggregates.empty(3, 1, 10, max_seats=3)
        aggregates.add_sets(agg, 0, [[0, 1, 2]] * 4, [[0, 1, 2]] * 4, b, "rank", "turns")
        assert agg["size_unfinished"].tolist() == [0, 0, 0, stopped]
        assert agg["size_unfinished_won"].tolist() == [0, 0, 0, won]


def test_old_aggregates_without_the_unfinished_counts_still_load(tmp_path, capsys):
    """A run written before the counts: its aggregates load and sum as they did, and its
    summary, with no rows to tell, says nothing of unfinished games rather than a wrong 0."""
    import numpy as np

    from leaves_cli.tournament_parts import summary_table
    from tournaments import TournamentResult, aggregates

    out = tmp_path / "old"
    code, text, err = cli(capsys, "tournament", "greedy", "low", "high", "--turn-limit", "5",
                          "--players", "3", "--games", "30", "--seed", "3", "--jobs", "1",
                          "--no-rows", "--out", str(out))  # fmt: skip
    assert code == 0 and _unfinished_said(text), err
    new = ("size_unfinished", "size_unfinished_won")
    as_written_without(out, new)
    result = TournamentResult(out)
    assert not set(new) & set(result.aggregates())
    assert int(result.aggregates()["size_games"].sum()) == 30
    summary_table(result)
    assert not _unfinished_said(capsys.readouterr().out)
    # a merge of an old part with a new one keeps no partial count
    old = {"games": np.array([1]), "size_unfinished": np.array([2])}
    assert "size_unfinished" not in aggregates.merge([{"games": np.array([1])}, old])
    assert "size_unfinished" not in aggregates.merge([old, {"games": np.array([1])}])
    assert aggregates.merge([old, old])["size_unfinished"].tolist() == [4]
