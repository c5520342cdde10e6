"""The tables the generic command line prints, at every width a terminal (or a pipe) could have:
every label, figure and interval whole, never cut with "..." (a label that is one long word may
fold across lines, every character kept); and at a width the table fits, the look rich's own
table has."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest

from leaves_cli import plain_table
from leaves_cli.console import make_console
from leaves_cli.fitted import printed_table, units
from tests.helpers import cli

WIDTHS = (40, 47, 52, 61, 66, 73, 80, 91, 100, 120, 160)
LABELS = ["stack", "stack(speed=1.1)", "cautious", "scanner(speed=1.1)", "row"]
BOXES = "│┃"


def _units(cell: str) -> list[str]:
    return [cell[a:b] for a, b in units(cell)]


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _label_stream(text: str) -> str:
    """What the printed lines say in the labels' place, run together: a table row's first cell,
    or a line of its own that is not indented (a row's label where each row is a few lines)."""
    said = []
    for line in text.splitlines():
        if line[:1] in BOXES:
            said.append(re.split(f"[{BOXES}]", line)[1])
        elif line[:1] not in (" ", "┏", "┡", "└", ""):
            said.append(line)
    return _squeezed("".join(said))


def _whole(text: str, width: int, labels: list[str], cells: list[str]) -> None:
    """Nothing cut: no ellipsis, no line wider than the console, every label there in order
    (folded, perhaps, but every character kept), every unit (word, figure, interval) of
    ``cells`` whole on a line, as often as the cells hold it."""
    assert "…" not in text, (width, text)
    assert all(len(line.rstrip()) <= width for line in text.splitlines()), (width, text)
    stream = _label_stream(text)
    pos = 0
    for label in labels:
        pos = stream.find(_squeezed(label), pos)
        assert pos >= 0, (width, label, text)
    lines = text.splitlines()
    for unit, n in Counter(u for c in cells for u in _units(c)).items():
        assert sum(line.count(unit) for line in lines) >= n, (width, unit, text)


def _rich(renderable, width: int) -> str:
    out = io.StringIO()
    make_console(file=out, width=width).print(renderable)
    return out.getvalue()


COLUMNS = [("strategy", "left"), ("rounds seats", "right"), ("win rate", "right"),
           ("95% interval", "right"), ("B - A [95%]", "right"), ("sig", "left")]  # fmt: skip
ROWS = [
    ["taker -> taker(harm_weight=0.5)", "1,600", "36.2%", "[30.6, 42.3]",
     "-2.1 [-4.7, +0.5]", "no"],
    ["scanner(speed=1.1)", "160", "11.2%", "[7.5, 16.6]", "+0.6 [-0.5, +1.8]", "yes"],
    ["a_strategy_named_at_length_beyond_any_terminal_width_of_forty", "16", "0.0%",
     "[0.0, 20.6]", "+0.0 (no spread)", "no"],
]  # fmt: skip


@pytest.mark.parametrize("width", range(40, 161))
def test_printed_table_cuts_nothing_at_any_width(width):
    text = _rich(printed_table("Win rates in %", COLUMNS, ROWS), width)
    _whole(text, width, [r[0] for r in ROWS], [x for r in ROWS for x in r[1:]])


def test_printed_table_looks_as_rich_default_where_it_fits():
    """Where the table fits, rich's path prints the text the plain path writes (rich's default
    table), so the look does not depend on which path printed it."""
    rows = [r[:4] for r in ROWS[:2]]
    text = plain_table.render("Tournament summary", COLUMNS[:4], rows)
    assert _rich(printed_table("Tournament summary", COLUMNS[:4], rows), 160) == text


def test_print_table_fits_a_narrow_pipe(monkeypatch):
    """A pipe as narrow as COLUMNS says gets the table without a cell cut."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    for width in (40, 66, 80):
        monkeypatch.setenv("COLUMNS", str(width))
        out = io.StringIO()
        plain_table.print_table("Tournament summary", COLUMNS, ROWS, file=out)
        _whole(out.getvalue(), width, [r[0] for r in ROWS], [x for r in ROWS for x in r[1:]])


def _summary(text: str) -> list[list[str]]:
    """The cells of a summary table printed whole on a line a row (a wide console)."""
    return [[c.strip() for c in re.split(f"[{BOXES}]", line)[1:-1]]
            for line in text.splitlines() if line.startswith("│")]  # fmt: skip


@pytest.fixture(scope="module")
def tournament_args(tmp_path_factory):
    out = tmp_path_factory.mktemp("tables")
    return ["tournament", "--game", "ligretto", "stack", "stack:speed=1.1", "cautious",
            "scanner:speed=1.1", "row", "--players", "4", "--games", "200", "--seed", "1",
            "--out"], out  # fmt: skip


def test_tournament_summary_whole_at_every_width(capsys, monkeypatch, tournament_args):
    args, out = tournament_args
    monkeypatch.setenv("COLUMNS", "200")
    code, wide, _ = cli(capsys, *args, str(out / "wide"))
    assert code == 0
    rows = _summary(wide)
    assert sorted(r[0] for r in rows) == sorted(LABELS)  # the truth: each cell whole
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        code, text, _ = cli(capsys, *args, str(out / f"w{width}"))
        assert code == 0
        table = text[: text.index(" rounds in ")]
        _whole(table, width, [r[0] for r in rows], [x for r in rows for x in r[1:]])


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    from tournaments import Tournament

    d = tmp_path_factory.mktemp("cmp")
    Tournament(["greedy", "low", "counter"], players=3, games=120, seed=1).run(out=d / "a")
    Tournament(["greedy", "low", "counter:threat_weight=0.5"], players=3, games=120,
               seed=1).run(out=d / "b")  # fmt: skip
    return d


def test_compare_table_whole_at_every_width(capsys, monkeypatch, compared):
    """``leaves compare`` cut 'counter -> counter(threat_weight=0.5)' at 80 columns (a pipe)."""
    args = ["compare", str(compared / "a"), str(compared / "b")]
    monkeypatch.setenv("COLUMNS", "200")
    code, wide, _ = cli(capsys, *args)
    assert code == 0
    rows = _summary(wide)
    labels = sorted(r[0] for r in rows)
    assert labels == ["counter -> counter(threat_weight=0.5)", "greedy", "low"]
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        code, text, _ = cli(capsys, *args)
        assert code == 0
        table = text[text.index("Win rates in %") :]
        _whole(table, width, [r[0] for r in rows], [x for r in rows for x in r[1:]])


BENCH_ROWS = [("compiled (round loop, C engine, the_longest_path_name_of_all)", "200,000 x 3",
               "1,234,567", "[1,200,000, 1,260,000]"),
              ("Python path (State, engine)", "5", "96.4", "[90.1, 99.9]")]  # fmt: skip


def test_bench_table_whole_at_every_width(capsys, monkeypatch):
    """``leaves bench`` printed its table through rich's own layout, which cuts a path's name
    or a figure with '...' on a narrow terminal."""
    from tournaments.game import BenchReport
    from tournaments.games import plugin_class

    report = BenchReport({}, "Rounds, 4 players, one core",
                         ("path", "rounds", "rounds/s", "95% interval"), BENCH_ROWS,
                         ["a note under the table"])  # fmt: skip
    monkeypatch.setattr(plugin_class("ligretto"), "bench", lambda *a: report)
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        code, text, _ = cli(capsys, "bench", "--game", "ligretto")
        assert code == 0
        _whole(text, width, [r[0] for r in BENCH_ROWS], [x for r in BENCH_ROWS for x in r[1:]])
        assert "a note under the table" in " ".join(text.split())


def _words(text: str) -> Counter:
    return Counter(w.strip(",;:") for w in text.split())


@pytest.mark.parametrize("game", ["leaves", "ligretto"])
def test_strategies_table_whole_at_every_width(capsys, monkeypatch, game):
    """``leaves strategies`` folded its words anywhere on a narrow terminal ('descripti' 'on',
    'threat_we' 'ight=0.0'): every name, classifier, word and parameter is whole now."""
    from leaves_cli.strategies_cmd import classifier_text, strategy_rows

    rows = strategy_rows({}, game)
    truth = Counter()
    for name, desc, classifier, params in rows:
        pars = ", ".join(f"{k}={v}" for k, v in params.items())
        truth += _words(f"{name} {classifier_text(classifier)} {desc} {pars}")
    for width in WIDTHS:
        monkeypatch.setenv("COLUMNS", str(width))
        code, text, _ = cli(capsys, "strategies", "--game", game)
        assert code == 0
        assert "…" not in text
        assert all(len(line.rstrip()) <= width for line in text.splitlines()), (width, text)
        assert not truth - _words(text), (width, truth - _words(text), text)
