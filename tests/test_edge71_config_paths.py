"""A config file as a user scaling up writes it: keys beside ``[tournament]`` were dropped
without a word (``seed = 5`` above the table played 100,000 games under a fresh seed; a
``[rule]`` table, a typo for ``[rules]``, played today's rules); the example's commented
``record`` line, once uncommented, was refused in an empty folder although ``out`` makes the
folder it names; a ``load`` path the file gave and a ``jobs`` it set were named by flags no
one typed; and ``--games`` past a run's most games was refused without naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line, usage_error

ROOT = Path(__file__).resolve().parents[1]

RUN = 'strategies = ["greedy", "random", "low"]\nplayers = 3\ngames = 0\nout = "o"\n'
"""A run that is refused at once (no games) where the check under test lets it through."""


def _said(capsys, tmp_path: Path, monkeypatch, text: str, *args: str) -> str:
    """The one line (exit 2) of a tournament from ``c.toml`` holding ``text``, run in
    ``tmp_path``, with ``args`` typed beside it; nothing made there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.toml").write_text(text)
    line = usage_error(capsys, ["tournament", "--config", "c.toml", *args])
    assert not (tmp_path / "o").exists()
    return line.removeprefix("leaves: error: ")


# ------------------------------------------------------------- what stands beside the table
@pytest.mark.parametrize(("text", "said"), [
    (f"seed = 5\n[tournament]\n{RUN}", "c.toml: seed is outside [tournament]: move it under "
     "[tournament]"),
    (f"[tournament]\n{RUN}[rule]\nhand_size = 9\n", "c.toml: unknown table [rule] (known: "
     "tournament, rules)"),
    (f"[tournament]\n{RUN}[tournament.rules]\nhand_size = 8\n[rules]\nhand_size = 9\n",
     "c.toml: rules is given twice, as [rules] and [tournament.rules]: keep one"),
    ("tournament = 5\n", "c.toml: tournament must be the table [tournament], got 5"),
])  # fmt: skip
def test_what_stands_beside_the_tournament_table_is_refused_not_dropped(
    capsys, tmp_path, monkeypatch, text, said
):
    assert _said(capsys, tmp_path, monkeypatch, text) == said


def test_a_key_of_no_option_beside_the_table_is_an_unknown_key(capsys, tmp_path, monkeypatch):
    line = _said(capsys, tmp_path, monkeypatch, f"bogus = 1\n[tournament]\n{RUN}")
    assert line.startswith("--config: unknown key 'bogus' in c.toml (known: backend, ")


def test_the_rules_table_beside_the_tournament_table_is_still_read(capsys, tmp_path, monkeypatch):
    """Read, not refused: its bad value is named (no "outside [tournament]")."""
    line = _said(capsys, tmp_path, monkeypatch,
                 f"[rules]\nturn_limit = inf\n[tournament]\n{RUN}")  # fmt: skip
    assert line.startswith("--config: c.toml: [rules]: turn_limit "), line


def test_the_docs_quote_the_refusals_as_they_are_said(capsys, tmp_path, monkeypatch):
    docs = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    for text, said in [
        (f"seed = 5\n[tournament]\n{RUN}", "c.toml: seed is outside [tournament]: move it "
         "under [tournament]"),
        (f"[tournament]\n{RUN}[rule]\nx = 1\n", "c.toml: unknown table [rule] (known: "
         "tournament, rules)"),
    ]:  # fmt: skip
        assert _said(capsys, tmp_path, monkeypatch, text) == said
        assert f"`{said}`" in docs


# ------------------------------------------------------------------ the record's folder
def test_a_record_in_a_folder_that_out_makes_is_not_refused(tmp_path):
    from leaves_cli.tournament_checks import check_record_folder

    runs = tmp_path / "runs"
    check_record_folder(str(runs / "a.jsonl"), str(runs / "a"))  # runs: made for runs/a
    check_record_folder(str(runs / "a" / "sub" / "r.jsonl"), str(runs / "a"))
    assert not runs.exists()


@pytest.mark.parametrize("record", ["other/a.jsonl", "runs/a/../../other/a.jsonl"])
def test_a_record_in_a_folder_nothing_makes_is_refused(tmp_path, monkeypatch, record):
    """``..`` is read as the folder it leads to, not as a folder inside --out."""
    from leaves_cli.errors import CLIError
    from leaves_cli.tournament_checks import check_record_folder

    monkeypatch.chdir(tmp_path)
    with pytest.raises(CLIError, match=r"^--record .*: the folder \S*other does not exist$"):
        check_record_folder(record, "runs/a")


def test_a_folder_above_out_that_is_there_is_checked_as_any(tmp_path):
    """Only a missing folder is taken as one --out makes: a directory in the record's place
    there is refused as anywhere."""
    from leaves_cli.errors import CLIError
    from leaves_cli.tournament_checks import check_record_folder

    (tmp_path / "runs" / "a.jsonl").mkdir(parents=True)
    with pytest.raises(CLIError, match="is not a regular file but a directory"):
        check_record_folder(str(tmp_path / "runs" / "a.jsonl"), str(tmp_path / "runs" / "a"))


@pytest.mark.slow
def test_the_example_config_with_its_record_lines_runs_in_an_empty_folder(
    capsys, tmp_path, monkeypatch
):
    text = (ROOT / "examples" / "tournament.toml").read_text(encoding="utf-8")
    lines = [line.removeprefix("# ") if line.startswith("# record") else line
             for line in text.splitlines()]  # fmt: skip
    (tmp_path / "c.toml").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "tournament", "--config", "c.toml", "--games", "20",
                       "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert (tmp_path / "runs" / "example-games.jsonl").read_text().count("\n") >= 1


# ----------------------------------------------------- a file's values named by their keys
def test_a_missing_load_file_is_named_by_its_key_and_where_it_was_looked_for(
    capsys, tmp_path, monkeypatch
):
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "l.toml").write_text(RUN + 'load = ["my_strategy.py"]\n')
    monkeypatch.chdir(tmp_path)
    line = usage_error(capsys, ["tournament", "--config", "cfg/l.toml"])
    assert line == ("leaves: error: load in cfg/l.toml: no such file: my_strategy.py (a config "
                    "file's paths are read from the current folder, not from cfg)")  # fmt: skip
    docs = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    assert f"`{line.removeprefix('leaves: error: ')}`" in docs
    typed = usage_error(capsys, ["tournament", "--config", "cfg/l.toml", "--load", "x.py"])
    assert typed == "leaves: error: --load: no such file: x.py"


def test_a_load_file_of_a_config_in_the_current_folder_needs_no_note(capsys, tmp_path, monkeypatch):
    line = _said(capsys, tmp_path, monkeypatch, RUN + 'load = ["x.txt"]\n')
    assert line == "load in c.toml: no such file: x.txt"


def test_the_jobs_line_names_a_config_files_jobs_by_its_key():
    from leaves_cli.tournament_parts import jobs_line

    manifest = {"sessions": [{"players": {"jobs_capped_to": 8}}]}
    values = {"config": "c.toml", "from_config": frozenset({"jobs"})}
    assert jobs_line(manifest, 0, 100_000, values).startswith("jobs 100000 in c.toml: 8 players")
    assert jobs_line(manifest, 0, 100_000, {}).startswith("--jobs 100000: 8 players")


@pytest.mark.parametrize(("line", "said"), [
    ('game = "nosuch"', "c.toml: game: unknown game 'nosuch' (installed: "),
    ("rounds = 3\nexpert = true", "c.toml: rounds: 13 Leaves matches run to a target"),
])  # fmt: skip
def test_a_config_files_game_and_rounds_are_named_by_their_keys(
    capsys, tmp_path, monkeypatch, line, said
):
    got = _said(capsys, tmp_path, monkeypatch, RUN.replace("games = 0", "games = 6") + line)
    assert got.startswith(said), got


def test_an_out_under_a_file_names_the_config_files_key(capsys, tmp_path, monkeypatch):
    (tmp_path / "afile").write_text("")
    text = RUN.replace("games = 0", "games = 6").replace('out = "o"', 'out = "afile/o"')
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.toml").write_text(text)
    code, _, err = cli(capsys, "tournament", "--config", "c.toml")
    assert code == 1
    assert one_error_line(err).endswith("afile is not a directory (out in c.toml)")


# ------------------------------------------------------------ past a run's most games
GAMES_PAST = "games asks for 5,000,000,000 games in all, past 2**32 - 1 (a run's most games)"


def test_games_past_a_runs_most_are_named_as_given(capsys, tmp_path, monkeypatch):
    text = RUN.replace("games = 0", "games = 5_000_000_000").replace("players = 3\n", "")
    text = text.replace('"random", "low"', '"low"')  # 5 tables of 4: 20 games a deal
    assert _said(capsys, tmp_path, monkeypatch, text) == f"c.toml: {GAMES_PAST}"
    docs = " ".join((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").split())
    assert f"`c.toml: {GAMES_PAST}`" in docs
    typed = usage_error(capsys, ["tournament", "greedy", "low", "--games", "5000000000",
                                 "--out", str(tmp_path / "t")])  # fmt: skip
    assert typed == f"leaves: error: --{GAMES_PAST}"


def test_a_schedule_past_a_runs_most_games_is_a_parameter_error_of_games():
    from gamekit.errors import ParameterError
    from tournaments.schedule import Schedule

    with pytest.raises(ParameterError) as exc:
        Schedule([(0, 1, 2)], 2**32 - 1, set_sizes=[2])  # rounded up to whole sets: past
    assert exc.value.params == ("games",)
    assert str(exc.value) == ("games asks for 4,294,967,296 games in all (rounded up to whole "
                              "duplicate sets), past 2**32 - 1 (a run's most games)")  # fmt: skip
