"""The examples as a newcomer runs them again: an example that plays into a folder the user
names (run_tournament.py's OUT_DIR, ``LEAVES_EXAMPLE_OUT``) continues the run it finds there,
stopped or finished, to the same games as a run never stopped; a folder that cannot take the
run is refused in one line, never a traceback; train_reinforce.py refuses a folder it has
used before it trains, and writes into ``runs/`` (which git ignores) by default. Every
command an example's text gives parses and names files that are in the repository."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tournaments
from tests.helpers import assert_command_parses, same_run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _module(script: str, monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """``examples/<script>`` imported afresh, with only the ``LEAVES_EXAMPLE_*`` sizes in
    ``env`` set."""
    for var in [v for v in os.environ if v.startswith("LEAVES_EXAMPLE_")]:
        monkeypatch.delenv(var)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    name = f"newcomer63_{script.removesuffix('.py')}"
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stopped(main, *args: str) -> None:
    """``main(*args)`` stopped as Ctrl-C stops a run once 2 of its chunks are written: it
    exits with 130, as the command line does."""
    from tests.helpers import ctrl_c_after_two_chunks

    with ctrl_c_after_two_chunks(), pytest.raises(SystemExit) as stop:
        main(*args)
    assert stop.value.code == 130


def _script(script: str, cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEAVES_EXAMPLE_")}
    environ.update({"LEAVES_EXAMPLE_GAMES": "24", "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)})
    environ.update(env)
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=cwd,
                          env=environ, capture_output=True, text=True, timeout=120)  # fmt: skip


def _one_line(proc: subprocess.CompletedProcess, script: str) -> str:
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{script}: error: "), proc.stderr
    return lines[0]


@pytest.mark.slow
def test_run_tournament_into_its_stopped_folder_finishes_the_run(monkeypatch, tmp_path, capsys):
    """`python examples/run_tournament.py OUT_DIR` stopped by Ctrl-C ended in a
    KeyboardInterrupt traceback, and run again with the same OUT_DIR said "OUT_DIR is not
    empty: pass resume to continue the run there", which no one can pass to the script: the
    stop names the command that continues it (OUT_DIR: the temporary folder where none was
    given), and the run is continued, to the games of a run never stopped."""
    mod = _module("run_tournament.py", monkeypatch, LEAVES_EXAMPLE_GAMES="6000")  # 3 chunks
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"
    monkeypatch.setattr(sys, "argv", ["examples/run_tournament.py"])
    _stopped(mod.main, str(stopped))
    err = capsys.readouterr().err
    assert err == (f"run_tournament.py: interrupted: 'LEAVES_EXAMPLE_GAMES=6000 python "
                   f"examples/run_tournament.py {stopped}' continues it\n")  # fmt: skip
    assert 0 < len(tournaments.load(stopped).games()) < 6000
    mod.main(str(stopped))
    resumed = capsys.readouterr().out
    mod.main(str(whole))
    assert capsys.readouterr().out == resumed.replace(str(stopped), str(whole))
    same_run(tournaments.load(stopped), tournaments.load(whole))
    assert "is continued" in (mod.__doc__ or "")


@pytest.mark.slow
def test_my_strategy_run_again_into_its_folder_plays_nothing_twice(tmp_path):
    """`LEAVES_EXAMPLE_OUT=DIR python examples/my_strategy.py` a second time ended in a
    ParameterError traceback ("DIR is not empty: pass resume ..."): the finished run there is
    read again and says the same. (A process of its own: the file registers its strategy.)"""
    out = tmp_path / "mine"
    first = _script("my_strategy.py", tmp_path, LEAVES_EXAMPLE_GAMES="48",
                    LEAVES_EXAMPLE_OUT=str(out))  # fmt: skip
    assert first.returncode == 0, first.stderr[-2000:]
    games = len(tournaments.load(out).games())
    again = _script("my_strategy.py", tmp_path, LEAVES_EXAMPLE_GAMES="48",
                    LEAVES_EXAMPLE_OUT=str(out))  # fmt: skip
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout == first.stdout and len(tournaments.load(out).games()) == games
    assert "LEAVES_EXAMPLE_OUT" in (EXAMPLES / "my_strategy.py").read_text(encoding="utf-8")


def test_win_rate_chart_run_again_into_its_folder_draws_the_same_run(monkeypatch, tmp_path,
                                                                     capsys):  # fmt: skip
    """`LEAVES_EXAMPLE_OUT=DIR python examples/win_rate_chart.py` a second time was refused
    ("DIR is not empty: pass resume ..."): the run found there is continued and charted."""
    monkeypatch.chdir(tmp_path)
    mod = _module("win_rate_chart.py", monkeypatch, LEAVES_EXAMPLE_GAMES="48",
                  LEAVES_EXAMPLE_OUT=str(tmp_path / "run"))  # fmt: skip
    mod.main()
    first = capsys.readouterr().out
    mod.main()
    assert capsys.readouterr().out == first
    assert "continued" in (mod.__doc__ or "")


@pytest.mark.slow
@pytest.mark.parametrize("script", ["my_strategy.py", "run_tournament.py", "win_rate_chart.py"])
def test_an_example_refuses_a_folder_that_holds_another_thing_in_one_line(script, tmp_path):
    """A ``LEAVES_EXAMPLE_OUT`` that is a file, or a folder of other files, ended
    my_strategy.py in a traceback; the refusal never advises passing ``resume``, which no
    example takes."""
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    for folder, said in [("a_file", "is not a directory"), ("other", "holds no tournament")]:
        args = [folder] if script == "run_tournament.py" else []
        proc = _script(script, tmp_path, *args, LEAVES_EXAMPLE_OUT=folder)
        line = _one_line(proc, script)
        assert said in line and "resume" not in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "other"]


@pytest.mark.slow
def test_train_reinforce_refuses_a_used_folder_before_it_trains(tmp_path):
    """`python examples/train_reinforce.py` run a second time in the same folder trained
    for minutes, then ended in a ParameterError traceback (its gauntlet's folder was not
    empty); a LEAVES_EXAMPLE_OUT that is a file ended in a FileExistsError traceback. Both
    are one line now, before any training, and nothing there is overwritten."""
    pytest.importorskip("pettingzoo")
    used = tmp_path / "used"
    (used / "gauntlet").mkdir(parents=True)
    (used / "gauntlet" / "manifest.json").write_text("{}")
    (used / "weights.npz").write_bytes(b"earlier")
    (tmp_path / "a_file").write_text("x")
    for out, said in [("used", "used/gauntlet is not empty"), ("a_file", "not a directory")]:
        proc = _script("train_reinforce.py", tmp_path, LEAVES_EXAMPLE_OUT=out)
        assert said in _one_line(proc, "train_reinforce.py")
        assert "trained on" not in proc.stdout
    assert (used / "weights.npz").read_bytes() == b"earlier"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "used"]


def test_train_reinforce_writes_into_a_folder_git_ignores_by_default(monkeypatch):
    """Its default folder, reinforce-run, was left untracked in a checkout it was run from:
    the default is under runs/, which .gitignore names, and the docstring says so."""
    pytest.importorskip("pettingzoo")
    mod = _module("train_reinforce.py", monkeypatch)
    assert str(mod.OUT) == "runs/reinforce"
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert f"/{mod.OUT.parts[0]}/" in ignored
    assert "default ``runs/reinforce``" in " ".join((mod.__doc__ or "").split())


def _example_commands() -> list[str]:
    """Every ``leaves ...`` command an example's docstring or comment gives."""
    lines = []
    for path in sorted(EXAMPLES.glob("*.py")) + [EXAMPLES / "tournament.toml"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.strip().lstrip("#").split(" #", 1)[0]
            lines += [p for p in re.split(r"\s{2,}", text.strip()) if p.startswith("leaves ")]
    return lines


def test_every_command_an_example_gives_parses_and_names_files_that_are_there():
    """The commands an example's text gives (my_strategy.py's, tournament.toml's) parse, and
    a file they name is in the repository."""
    commands = _example_commands()
    assert len(commands) >= 5, commands  # my_strategy.py 3, tournament.toml 2
    for line in commands:
        assert_command_parses(line)
        for path in re.findall(r"(examples/[\w.]+\.(?:py|toml))", line):
            assert (ROOT / path).is_file(), f"{line}: no {path} in the repository"


def test_my_strategy_s_tournament_command_names_its_size():
    """my_strategy.py's `leaves tournament examples/my_strategy.py:Hoarder ...` played the
    command's default, 100,000 games, of a plain-Python strategy (more than ten minutes on a
    busy 2-core machine, with nothing said): the command names a size."""
    (line,) = [c for c in _example_commands() if c.startswith("leaves tournament examples/")]
    games = int(shlex.split(line)[shlex.split(line).index("--games") + 1])
    assert games <= 10_000, line


def _readme_block_commands() -> dict[str, list[str]]:
    """The README's "From the command line" commands, by their comment's first word (without
    'leaves'), with the comment."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## From the command line", 1)[1].split("```bash\n", 1)[1]
    lines = block.split("```", 1)[0].splitlines()
    return {line.split()[1] + (" --resume" if "--resume" in line else ""): line for line in lines}


@pytest.mark.slow
def test_the_readme_s_commands_resume_and_report_as_their_comments_say(monkeypatch, tmp_path,
                                                                       capsys):  # fmt: skip
    """The README's first three commands, as written but for a smaller --games, in a fresh
    folder: the tournament stopped by Ctrl-C and continued by `leaves tournament --out runs/a
    --resume` ("after Ctrl-C: nothing played is lost") holds the games of a run never
    stopped, and `leaves report runs/a` writes what its comment lists: "HTML page, CSVs,
    charts, findings"."""
    from tests.helpers import cli, stopped

    commands = _readme_block_commands()
    play, resume, report = (commands[k] for k in ("tournament", "tournament --resume", "report"))
    assert "# after Ctrl-C: nothing played is lost" in resume
    assert "# HTML page, CSVs, charts, findings" in report
    args = shlex.split(play)[1:]
    args[args.index("--games") + 1] = "1"  # one deal a table
    monkeypatch.chdir(tmp_path)
    code, _, _ = stopped(*args, "--jobs", "1", "--chunk-size", "100")
    assert code == 130
    done = len(tournaments.load("runs/a").games())
    code, _, err = cli(capsys, *shlex.split(resume.split(" #")[0])[1:], "--jobs", "1")
    assert code == 0, err
    whole = [*args[: args.index("--out")], "--chunk-size", "100", "--jobs", "1", "--out", "w"]
    seed = tournaments.load("runs/a").spec["seed"]
    assert cli(capsys, *whole, "--seed", str(seed))[0] == 0
    assert 0 < done < len(tournaments.load("w").games())
    same_run(tournaments.load("runs/a"), tournaments.load("w"))
    code, out, err = cli(capsys, *shlex.split(report.split(" #")[0])[1:])
    assert code == 0, err
    page = Path("runs/a/report")
    assert (page / "report.html").is_file() and list(page.glob("*.csv"))
    assert list((page / "charts").glob("*.png")) and (page / "findings.txt").is_file()
    assert "Key findings:" in out


def test_the_install_succeeds_without_a_c_compiler_as_the_readme_says():
    """The Quick start: "Without one [a C compiler] the install still succeeds": every engine
    setup.py builds is an optional extension (a failed build is a warning, not a failed
    install), and the runs then play the numba kernels (tests/test_engine_c.py and
    tests/test_compile_path.py hold the same games and the compile)."""
    from gamekit import cbuild

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "Without one the install still succeeds and the runs play the numba kernels" in readme
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert "Extension(**cbuild.extension(src, mod)) for mod, src in ENGINES.items()" in setup
    folders = re.findall(r'Path\("(\w+)"\)((?: / "\w+")*)', setup.split("ENGINES = ", 1)[1])
    assert len(folders) == 2, folders
    for first, rest in folders:
        csrc = ROOT.joinpath(first, *re.findall(r'"(\w+)"', rest))
        assert (csrc / cbuild.ENTRY).is_file()
        assert cbuild.extension(csrc, "engine")["optional"] is True


def _variant_rows(out: str) -> dict[str, str]:
    return {line.split()[0]: line for line in out.splitlines()[2:] if line[:1].isalpha()}


def test_rule_variants_states_t_and_wilson_intervals(monkeypatch, capsys):
    """rule_variants.py's "95% intervals" were normal ones (1.96 standard errors) whatever the
    games: at 30 games a mean's is Student's t over the 29 degrees of freedom, and the first
    player's share is Wilson's interval (scipy's, the truth here)."""
    from scipy.stats import binomtest, t

    mod = _module("rule_variants.py", monkeypatch, LEAVES_EXAMPLE_GAMES="30")
    mod.main()
    rows = _variant_rows(capsys.readouterr().out)
    base = mod.play(mod.Rules())
    q = t.ppf(0.975, 29)
    for text in mod.VARIANTS:
        got = mod.play(mod.Rules.parse(text))
        turns, diff = got["turns"], got["turns"] - base["turns"]
        m, h = turns.mean(), q * turns.std(ddof=1) / 30**0.5
        assert f"{m:.1f} [{m - h:.1f}, {m + h:.1f}]" in rows[text], rows[text]
        if text != "default":
            d, dh = diff.mean(), q * diff.std(ddof=1) / 30**0.5
            assert f"{d:+.1f} [{d - dh:+.1f}, {d + dh:+.1f}]" in rows[text], rows[text]
        k = int(got["first wins"].sum())
        ci = binomtest(k, 30).proportion_ci(method="wilson")
        share = f"{100 * k / 30:.1f}% [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"
        assert share in rows[text], rows[text]


def test_rule_variants_too_small_for_an_interval_says_so(monkeypatch, capsys):
    """At 2 games rule_variants.py printed the first player's share as "50.0% [-48.0, 148.0]"
    (and at 1 game "[nan, nan]" under numpy's RuntimeWarnings): a share's interval stays in
    0-100%, and a mean too few games give no interval for says so in words."""
    import warnings

    from reports.numbers import TOO_FEW

    for games in ("1", "2"):
        mod = _module("rule_variants.py", monkeypatch, LEAVES_EXAMPLE_GAMES=games)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            mod.main()
        out = capsys.readouterr().out
        said = "1 game per rule set" if games == "1" else f"{games} games per rule set"
        assert "nan" not in out and said in out, out
        assert f"(turns: {TOO_FEW}; 6 games or more give one)" in out
        for line in _variant_rows(out).values():
            assert line.count("[") == 1, line  # the first player's share's interval alone
            low, high = re.findall(r"% \[([\d.]+), ([\d.]+)\]", line)[0]
            assert 0 <= float(low) <= float(high) <= 100, line
