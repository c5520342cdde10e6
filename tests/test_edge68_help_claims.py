"""What the helps of run, bench and tournament claim, held against what the commands do: the
field ``leaves run`` plays, ``--jobs`` (and ``-j``) refused in one wording by every command that
plays, the bench's bound on time as the bound it is, defaults click shows, ``--repeats`` taken
anyway where seats outnumber strategies, and a table size typed twice refused."""

from __future__ import annotations

import click
import pytest

from gamekit.bench_limits import MOST_S, WARN_S, duration_words
from leaves_cli.main import cli

from .helpers import cli as run_cli
from .test_edge68_help_width import _row

JOBS_ZERO = "leaves: error: --jobs must be a positive number (or -1), got 0"


def _command(name: str) -> click.Command:
    return cli.get_command(click.Context(cli), name)


def _option(name: str, flag: str) -> click.Option:
    return next(p for p in _command(name).params if flag in getattr(p, "opts", ()))


def _words(text: str) -> str:
    return " ".join(text.split())


def test_run_help_names_every_built_in_its_field_leaves_out():
    import strategies
    from leaves.commands.run import builtin_heuristics
    from strategies.registry import resolve

    shipped = {
        n
        for n in strategies.filtered()  # not a test's own, registered by another test
        if resolve(n)[0].__module__.split(".")[0] in ("leaves", "interop", "strategies")
    }
    left_out = shipped - set(builtin_heuristics())
    assert {"ismcts", "observation", "openspiel"} <= left_out
    said, row = _words(_command("run").help), _row("run")
    assert [n for n in sorted(left_out) if n not in said] == []
    assert [n for n in sorted(left_out) if f"`{n}`" not in row] == []


def test_every_option_of_run_says_what_it_is():
    assert [p.opts for p in _command("run").params if isinstance(p, click.Option)
            and not p.help] == []  # fmt: skip


def _play_args(name: str, tmp_path) -> list[str]:
    out = str(tmp_path / name)
    return {
        "run": ["run", "--out", out],
        "tournament": ["tournament", "greedy", "low", "high", "--out", out],
        "tune": ["tune", "weighted", "--against", "taker", "--out", out],
        "variants": ["variants", "--rules", "take=ends", "--out", out],
        "gauntlet": ["gauntlet", "greedy", "--against", "low", "--out", out],
    }[name]


@pytest.mark.parametrize(
    "name, flag",
    [(n, "--jobs") for n in ("run", "tournament", "tune", "variants", "gauntlet")]
    + [(n, "-j") for n in ("run", "tournament", "tune", "variants")],
)
def test_jobs_zero_is_refused_in_one_wording(name, flag, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = run_cli(capsys, *_play_args(name, tmp_path), flag, "0")
    assert (code, err.strip()) == (2, JOBS_ZERO)
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("name", ["tournament", "tune", "variants"])
def test_a_table_size_typed_twice_is_refused_as_the_rules_refuse_it(name, tmp_path, capsys,
                                                                    monkeypatch):  # fmt: skip
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = run_cli(capsys, *_play_args(name, tmp_path), "--players", "3,03")
    assert code == 2
    assert err.strip() == "leaves: error: --players names 3 twice (3,03): give each count once"
    assert not (tmp_path / name).exists()


def test_bench_help_says_its_refusal_is_by_the_lower_bound():
    said = _words(_command("bench").help)
    assert f"lower bound on time passes {duration_words(MOST_S)}" in said
    assert f"past {duration_words(WARN_S)} it plays after a warning" in said


@pytest.mark.parametrize("flag", ["--games", "--api-games"])
def test_bench_defaults_are_shown_by_click(flag):
    from leaves_cli.bench_cmd import GAMES_OWN

    option = _option("bench", flag)
    assert option.show_default == GAMES_OWN
    assert "default" not in option.help


def test_repeats_help_says_fewer_strategies_than_seats_repeat_anyway():
    from tournaments.schedule import make_tables

    assert "fewer strategies than seats" in _words(_option("tournament", "--repeats").help)
    tables = make_tables(2, [3])
    assert tables and all(len(set(t)) < len(t) for t in tables)
