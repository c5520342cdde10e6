"""The README and the docs followed word for word from a fresh clone: the speed tables'
commands ran into '--out DIR is required'; the notebook's first cell looked for the examples
beside the installed packages (none after ``pip install .``); a rule's ``09`` or ``+9`` was
refused without saying why; and docs/cli.md said a run's --record file keeps no set order."""

from __future__ import annotations

import json
import re
import shlex
import tempfile
from pathlib import Path

import click
import pytest

import tournaments
from gamekit.whole import other_form
from leaves.ruleset import Rules
from tests.helpers import cli_output, doc_text, threads_play_at_once, usage_error

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDERS = {"J": "2"}
"""A word a page writes for a value to choose (``--jobs J``), as a reader fills it in."""


def _quoted_commands(text: str) -> list[str]:
    """Every ``leaves ...`` command quoted inline in ``text`` (fenced blocks aside), on one
    line, without a leading ``time`` or ``VAR=value``."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    lines = (" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text))
    found = (re.fullmatch(r"(?:time |[A-Z_]+=\S+ )*(leaves .*)", line) for line in lines)
    return [m[1] for m in found if m]


def _speed_commands() -> list[str]:
    """The commands of the README's Speed table and of docs/performance.md."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("<!-- bench_all:begin") : readme.index("<!-- bench_all:end")]
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    return _quoted_commands(table) + _quoted_commands(page)


def _refusal(line: str) -> str:
    """Why ``line`` would be refused before it plays ('' where it would not): its options as
    click reads them, and for ``leaves tournament`` its own check of them together, which
    asks for --out (the command's name alone, ``leaves run``, names it: nothing to parse)."""
    from leaves_cli import tournament_cmd
    from leaves_cli.main import all_commands, cli

    name, *args = shlex.split(line)[1:]
    if name not in all_commands():
        return f"no command {name!r}"
    if not args:
        return ""
    command = cli.get_command(click.Context(cli), name)
    try:
        with command.make_context(name, [PLACEHOLDERS.get(a, a) for a in args]) as ctx:
            if name == "tournament":
                tournament_cmd._settle(ctx, dict(ctx.params))
    except click.ClickException as exc:
        return exc.format_message()
    return ""


def test_every_command_of_the_speed_tables_runs_as_written(tmp_path, monkeypatch):
    """Was: ``leaves tournament greedy low high minimal --games 10000`` (the README's Speed
    table, written by ``bench_all.py``, which gives its runs an --out of their own) said
    'leaves: error: --out DIR is required', exit 2."""
    monkeypatch.chdir(tmp_path)
    commands = _speed_commands()
    assert sum("leaves tournament greedy low high minimal" in c for c in commands) >= 5
    refused = {line: why for line in commands if (why := _refusal(line))}
    assert not refused
    assert not list(tmp_path.iterdir())  # parsed, nothing played or written


def _out_of(line: str) -> str | None:
    """The --out a command writes to (None: it names none)."""
    words = shlex.split(line)
    return next((words[i + 1] for i, w in enumerate(words[:-1]) if w == "--out"), None)


def test_no_two_commands_of_the_speed_tables_share_an_out():
    """Was: every tournament of the tables wrote to ``runs/bench``: run one after another as
    written, the second said 'runs/bench is not empty: pass --resume ...'."""
    by_out: dict[str, set[str]] = {}
    for line in _speed_commands():
        out = _out_of(line)
        if out is not None:
            by_out.setdefault(out, set()).add(line)
    assert len(by_out) >= 5
    shared = {out: lines for out, lines in by_out.items() if len(lines) > 1}
    assert not shared


def test_a_tournament_without_out_is_refused_by_the_check_the_table_passes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "--out DIR is required" in _refusal("leaves tournament greedy low --games 10")
    assert "--games" in _refusal("leaves tournament greedy low --games x --out a")


# ---------------------------------------------------------------- the notebook's first cell


def _first_cell() -> str:
    nb = json.loads((ROOT / "examples" / "notebook.ipynb").read_text(encoding="utf-8"))
    return "".join(next(c for c in nb["cells"] if c["cell_type"] == "code")["source"])


def _run_first_cell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cwd: Path) -> dict:
    """The namespace of the notebook's first cell run by a kernel started in ``cwd``, the
    packages installed as ``pip install .`` installs them: in site-packages, no examples."""
    installed = tmp_path / "site-packages" / "tournaments"
    installed.mkdir(parents=True)
    monkeypatch.setattr(tournaments, "__file__", str(installed / "__init__.py"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # its work folder
    monkeypatch.setenv("LEAVES_EXAMPLE_GAMES", "24")
    monkeypatch.chdir(cwd)
    namespace = {"__name__": "__main__"}
    exec(compile(_first_cell(), "cell 1", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("start", ["examples", "."], ids=["notebook-folder", "checkout"])
def test_the_notebook_finds_its_examples_where_the_kernel_starts(tmp_path, monkeypatch, start):
    """Was: 'ValueError: no such strategy file: .../site-packages/examples/run_tournament.py'
    after the README's ``pip install .``."""
    namespace = _run_first_cell(monkeypatch, tmp_path, ROOT / start)
    assert namespace["GAMES"] == 24  # LEAVES_EXAMPLE_GAMES, read by run_tournament.py's size
    assert namespace["EXAMPLES"] == ROOT / "examples"


def test_the_notebook_says_where_it_looked_for_its_examples(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with pytest.raises(FileNotFoundError) as exc:
        _run_first_cell(monkeypatch, tmp_path, elsewhere)
    assert str(exc.value) == (
        f"run_tournament.py is in neither {elsewhere} nor its examples/ folder: open this "
        "notebook in Jupyter from the checkout's examples/ folder"
    )


# ------------------------------------------------------- a rule's number in another form


@pytest.mark.parametrize(("value", "why"), [
    ("09", "written with a leading zero: write 9"),
    (" 010 ", "written with a leading zero: write 10"),
    ("+9", "written with a sign: write 9"),
    ("-0", "written with a sign: write 0"),
    ("-09", "written with a leading zero: write -9"),
    ("+00", "written with a sign and a leading zero: write 0"),
    ("0" + "9" * 5000, "written with a leading zero"),  # past the line (and int's 4,300 digits)
    ("9", ""), ("-9", ""), ("0", ""), ("1_0", ""), ("\u0660\u0669", ""), ("x", ""), (9, ""),
])  # fmt: skip
def test_a_number_in_another_form_is_said_with_its_own(value, why):
    assert other_form(value) == why


@pytest.mark.parametrize(("value", "why"), [
    ("00", "written with a leading zero"), ("-0", "written with a sign"),
    ("+0", "written with a sign"), ("-09", "written with a leading zero"),
    ("053", "written with a leading zero"), ("052", "written with a leading zero: write 52"),
    ("+1", "written with a sign: write 1"),
])  # fmt: skip
def test_the_form_to_write_is_given_only_in_the_range_taken(value, why):
    assert other_form(value, (1, 52)) == why


@pytest.mark.parametrize(("text", "said"), [
    ("hand_size=09", "hand_size must be a whole number 1..52, got '09', written with a leading "
                     "zero: write 9"),
    ("turn_limit=010", "turn_limit must be a whole number 1..1000000, got '010', written with a "
                       "leading zero: write 10"),
    ("hand_size=+9", "hand_size must be a whole number 1..52, got '+9', written with a sign: "
                     "write 9"),
    ("hand_size=03:12", "hand_size's player count must be a whole number 2..6, got '03', "
                        "written with a leading zero: write 3"),
    ("players=3-+5", "players must be a whole number 2..6, got '+5', written with a sign: "
                     "write 5"),
    ("deck=01/3/4/5/6/7/8/7/6/5/4/3/2", "deck: copies of one value must be a whole number "
                                        "0..8, got '01', written with a leading zero: write 1"),
    ("expert_target=0_9", "expert_target must be a whole number 1..1000, got '0_9', written "
                          "with '_' between its digits"),  # the spelling said first
    # the form to write is out of the range: how it was written, no advice refused again
    ("hand_size=00", "hand_size must be a whole number 1..52, got '00', written with a leading "
                     "zero"),
    ("turn_limit=-0", "turn_limit must be a whole number 1..1000000, got '-0', written with a "
                      "sign"),
    ("players=+01-3", "players must be a whole number 2..6, got '+01', written with a sign and "
                      "a leading zero"),
])  # fmt: skip
def test_a_rules_number_in_another_form_says_why_it_is_refused(text, said):
    """Was: 'hand_size must be a whole number 1..52, got '09'', which is 9, in range."""
    with pytest.raises(ValueError) as exc:
        Rules.parse(text)
    assert str(exc.value) == said


def test_the_command_line_says_why_a_leading_zero_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "r"
    line = usage_error(capsys, ["tournament", "greedy", "low", "--rules", "hand_size=09",
                                "--out", str(out)])  # fmt: skip
    assert line == ("leaves: error: --rules: hand_size must be a whole number 1..52, got '09', "
                    "written with a leading zero: write 9")  # fmt: skip
    assert not out.exists()


# ------------------------------------------------------------ the order of a --record file


@pytest.mark.slow  # two runs end to end
def test_a_record_lists_its_games_in_chunk_order_whatever_the_jobs(tmp_path, monkeypatch):
    """docs/cli.md said a run's --record file lists its games 'in no set order': it lists
    them table by table, each table's deals in order, under --jobs 2 as under --jobs 1."""
    assert "lists its games in chunk order (table by table), not by game number" in doc_text(
        "cli.md"
    )
    threads_play_at_once(monkeypatch)
    texts = []
    for jobs in ("1", "2"):
        record = tmp_path / f"{jobs}.jsonl"
        code, _, err = cli_output("tournament", "greedy", "low", "high", "minimal", "--players",
                                  "3", "--games", "48", "--seed", "3", "--chunk-size", "6",
                                  "--jobs", jobs, "--record", str(record), "--no-progress",
                                  "--out", str(tmp_path / jobs))  # fmt: skip
        assert code == 0, err
        texts.append(record.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    rows = tournaments.load(tmp_path / "2").games()
    seats = ["seat_0", "seat_1", "seat_2"]
    game = {(int(r.deal_seed), tuple(getattr(r, s) for s in seats)): int(r.game)
            for r in rows.itertuples()}  # fmt: skip
    records = [json.loads(line) for line in texts[0].splitlines()]
    listed = [game[(r["seed"], tuple(r["strategies"]))] for r in records]
    chunk_order = rows.sort_values(["table", "deal", "rotation"])["game"].tolist()
    assert listed == chunk_order and listed != sorted(listed)
