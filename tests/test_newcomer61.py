"""The README as a newcomer reads it: its Python example runs as written and does what its
comments say, the sentence on how ``leaves run`` is dealt is the design the command plays, and
every command of its code blocks parses and names files that are in the repository; the
designer's guide's worked example is what its sweep prints."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from math import comb
from pathlib import Path

import click
import pytest

from tests.helpers import assert_command_parses, cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
WORDS = dict(enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                       "nine", "ten", "eleven", "twelve"]))  # fmt: skip


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.slow
def test_the_readme_python_example_runs_and_does_what_its_comments_say(tmp_path):
    """The block of "From Python", in a fresh interpreter, at a few games a strategy (the one
    change): the old state is unchanged, the summary holds win rates, 95% intervals and design
    effects, and the report is where the comment says."""
    block = README.split("```python\n", 1)[1].split("```", 1)[0]
    small = {"games=4_800": "games=240", "n_jobs=2": "n_jobs=1"}
    for old, new in small.items():
        assert block.count(old) == 1, old
        block = block.replace(old, new)
    said = re.search(r"reports\.build_report\(res\) +# (\S+)", block)[1]
    probe = (
        "import leaves\n"
        "first = leaves.new_game(4, seed=42)\n"
        f"{block}\n"
        "assert first == leaves.new_game(4, seed=42) and state != first\n"
        "table = reports.summary(res)\n"
        "assert {'win_rate', 'ci_low', 'ci_high', 'design_effect'} <= set(table.columns)\n"
        "assert table.ci_low.notna().all() and (table.ci_low <= table.win_rate).all()\n"
        "assert 'hoarder' in set(table.strategy)\n"
        "page = reports.build_report(res)\n"
        f"assert str(page) == {said!r} and page.is_file(), page\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]


def _default(command: click.Command, name: str):
    return next(p.default for p in command.params if p.name == name)


def _run_players() -> int:
    """The table leaves run plays where --players is not typed, under today's rules."""
    from leaves.commands.rules import table_size
    from leaves.commands.run import run
    from leaves.ruleset import DEFAULT_RULES

    return table_size(DEFAULT_RULES, _default(run, "players"))


def test_the_readme_says_how_leaves_run_is_dealt():
    """The README: "`leaves run` plays the ten built-ins that do not search against each other
    (201,600 games at 4 players: every combination of four of them, 40 deals each, each deal
    replayed under 24 balanced seatings)", and writes its report to
    leaves-run/report/report.html: the command's defaults and the design it plays."""
    from leaves.commands.run import builtin_heuristics, run
    from tournaments.runner import Tournament

    text = _flat(README)
    m = re.search(r"`leaves run` plays the (\w+) built-ins that do not search against each "
                  r"other \(([\d,]+) games at (\d+) players: every combination of (\w+) of "
                  r"them, (\d+) deals each, each deal replayed under (\d+) balanced seatings\)",
                  text)  # fmt: skip
    assert m, "the README's sentence on leaves run's design is not found"
    field, players = builtin_heuristics(), _run_players()
    t = Tournament(field, players=players, games=_default(run, "games"), seed=0)
    assert m[1] == WORDS[len(field)] and int(m[3]) == players and m[4] == WORDS[players]
    assert int(m[2].replace(",", "")) == t.n_games
    assert len(t.tables) == comb(len(field), players) and int(m[5]) == t.schedule.deals
    assert set(t.schedule.set_sizes) == {int(m[6])} and t.seating == "balanced"
    out = _default(run, "out")
    assert f"`{out}/report/report.html`" in text, out


def _readme_commands() -> list[str]:
    """Every ``leaves ...`` line of the README's shell blocks, without its comment."""
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            for part in line.split(" #", 1)[0].split("&&"):
                if part.strip().startswith("leaves "):
                    lines.append(part.strip())
    return lines


def test_every_readme_command_parses_and_names_files_that_are_there():
    """The README's command-line example tuned `my_bot.py:MyBot`, a file no checkout has: a
    newcomer running it as written got "no such strategy file". Each command's options parse,
    and a strategy it names from a file is a class of a file in the repository."""
    commands = _readme_commands()
    assert len(commands) >= 7
    for line in commands:
        assert_command_parses(line)
        for path, cls in re.findall(r"([\w/.]+\.py):(\w+)", line):
            assert (ROOT / path).is_file(), f"{line}: no {path} in the repository"
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^class {cls}\b", source, flags=re.M), f"{line}: no class {cls}"


def test_level_hard_plays_against_three_ismcts():
    """The README: "leaves play --level hard  # play against three ismcts": at the default
    table size every opponent of the level is the search."""
    from leaves.commands.play import play
    from leaves.commands.play_loop import level_opponents
    from leaves_cli.tournament_checks import DEFAULT_PLAYERS

    assert re.search(r"leaves play --level hard +# play against three ismcts", README)
    assert _default(play, "players") is None  # untyped: DEFAULT_PLAYERS where the rules allow
    opponents = level_opponents("hard", DEFAULT_PLAYERS - 1)
    assert len(opponents) == 3 and all(s.split(":")[0] == "ismcts" for s in opponents)


def _values(text: str) -> set[float]:
    return {float(x.replace(",", "")) for x in re.findall(r"\d+(?:[.,]\d+)*", text)}


@pytest.mark.slow
def test_the_worked_example_of_variants_md_is_what_its_sweep_prints(tmp_path, capsys):
    """docs/variants.md's worked example quotes the findings of the sweep its page gives
    (every figure of its findings, and the games per rule set): each is in what that command
    prints (its results do not depend on --jobs)."""
    text = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    command = re.search(r"```bash\n(leaves variants --sweep [^\n]*)\n```", text)[1]
    example = text.split("## A worked example", 1)[1].split("\nRead as a designer", 1)[0]
    intro, findings = example.split("\n- ", 1)
    assert "The sweep above" in intro
    args = shlex.split(command)[1:]
    out = tmp_path / args[args.index("--out") + 1]
    args[args.index("--out") + 1] = str(out)
    code, printed, err = cli(capsys, *args, "--jobs", "1")
    assert code == 0, err
    missing = _values(findings) - _values(printed)
    assert not missing, f"figures of the worked example not printed: {sorted(missing)}"
    games = re.search(r"([\d,]+) games per rule set", intro)[1]
    design = rf"per rule set, at [\d, and]+ players: {games} games = "  # said on stderr
    assert re.search(design, err + printed)


def test_the_rules_core_variants_example_says_what_it_returns():
    """docs/rules-core.md's `leaves.Rules` block, run: each commented value is what the line
    gives, and its failing line fails with the message its comment quotes."""
    import leaves

    text = (ROOT / "docs" / "rules-core.md").read_text(encoding="utf-8")
    block = text.split("## Rule variants: `leaves.Rules`", 1)[1]
    block = block.split("```python\n", 1)[1].split("```", 1)[0]
    failing = re.search(r'^(Rules\.parse\("hand_size=14,players=5"\)) +# ValueError: (.*?): ',
                        block, flags=re.M)  # fmt: skip
    scope: dict = {"leaves": leaves}
    exec(block.replace(failing[1], "None"), scope)  # noqa: S102 - our own docs
    rules = scope["rules"]
    assert rules == scope["Rules"].parse("hand_size=9,take=ends")
    assert scope["state"].rules == rules and scope["state"].view(0).rules == rules
    said = re.search(r"str\(rules\), rules\.changes\(\) +# '([^']+)', \{'hand_size': 9", block)
    assert str(rules) == said[1] and rules.changes()["hand_size"] == 9
    counts = re.search(r"Rules\(hand_size=14\)\.players +# \(([\d, ]+)\)", block)[1]
    assert scope["Rules"](hand_size=14).players == tuple(int(c) for c in counts.split(","))
    with pytest.raises(ValueError, match=re.escape(failing[2])):
        eval(failing[1], scope)  # noqa: S307 - our own docs


def test_the_run_help_example_says_the_games_the_default_run_plays():
    """`leaves run --help`'s first example said "200,000 games", the --games asked: the run
    plays 201,600 (whole duplicate sets), as it then prints."""
    from leaves.commands.run import builtin_heuristics, run
    from tournaments.runner import Tournament

    field, players = builtin_heuristics(), _run_players()
    t = Tournament(field, players=players, games=_default(run, "games"), seed=0)
    m = re.search(r"leaves run +# ([\d,]+) games -> (\S+)", run.help or "")
    assert m, "the first example of leaves run --help is not found"
    assert int(m[1].replace(",", "")) == t.n_games
    assert m[2] == f"{_default(run, 'out')}/report/report.html"
