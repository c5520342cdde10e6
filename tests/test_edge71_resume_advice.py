"""A resume's refusals say what to do. A corrupt manifest resumed is refused with the advice a
run not resumed gives it (it gave none); an option that is not the run's is named as given,
beside the run's value, with the command that resumes ("--seed 2 but the run has seed 1" said
neither); and a comparison of rule variants made again from its runs says whether it resumes
a --sweep or --rules, which its runs cannot tell apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaves.commands.variants_resume import rebuilt
from leaves_cli.resume_words import disagreement
from tests.helpers import cli, copied_run, one_error_line
from tests.test_edge70_variants_rebuild import LOST, _runs, _values  # one source

THREE = ["greedy", "low", "high"]
NO_MANIFEST = (
    "the run cannot be resumed or grown without it: restore it, or play the run again into a "
    "new --out (the same options and seed give the same results)"
)


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 30 games (10 deals of 3 seats), seed 7."""
    from tests.helpers import cli_output

    out = tmp_path_factory.mktemp("advice") / "run"
    code, _, err = cli_output("tournament", *THREE, "--players", "3", "--games", "30",
                              "--jobs", "1", "--seed", "7", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def _seed_x(manifest: dict) -> None:
    manifest["spec"]["seed"] = "x"


def _no_chunk_games(manifest: dict) -> None:
    del manifest["spec"]["chunk_games"]


@pytest.mark.parametrize("edit", [_seed_x, _no_chunk_games])
def test_a_corrupt_manifest_resumed_gets_the_advice_a_new_run_gets(run, tmp_path, capsys, edit):
    copy = copied_run(run, tmp_path, edit)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume")
    resumed = one_error_line(err)
    assert code == 1 and resumed.startswith(f"leaves: error: cannot resume {copy}: corrupt ")
    code, _, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "30",
                       "--out", str(copy))  # fmt: skip
    fresh = one_error_line(err)
    assert code == 1 and fresh.endswith(f"; {NO_MANIFEST}")
    assert resumed.endswith(f"; {NO_MANIFEST}")  # it ended at the field's fault


@pytest.mark.parametrize("command", [["run", "--jobs", "1"], ["gauntlet"]])
def test_every_resume_of_a_corrupt_manifest_gives_that_advice(run, tmp_path, capsys, command):
    copy = copied_run(run, tmp_path, _seed_x)
    code, _, err = cli(capsys, *command, "--out", str(copy), "--resume")
    assert code == 1 and one_error_line(err).endswith(f"; {NO_MANIFEST}")


def test_an_older_versions_run_resumed_is_told_which_version_resumes_it(run, tmp_path, capsys):
    copy = copied_run(run, tmp_path, lambda m: m["spec"].pop("deal_stages"))
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume")
    assert code == 1
    assert one_error_line(err).endswith("; resume it with the version that played it")


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (["--seed", "2"], "--seed 2 differs from this run's seed 7: resume with --seed 7, or "
                          "drop --seed"),
        (["--chunk-size", "7"], "--chunk-size 7 differs from this run's chunk size 2,000: "
                                "resume with --chunk-size 2000, or drop --chunk-size"),
        (["--players", "4"], "--players 4 differs from this run's players 3: resume with "
                             "--players 3, or drop --players"),
        (["--turn-limit", "40"], "--turn-limit 40 differs from this run's turn limit 1,000: "
                                 "resume with --turn-limit 1000, or drop --turn-limit"),
        (["--repeats"], "--repeats differs from this run, played without --repeats: drop "
                        "--repeats"),
        (["--no-rows"], "--no-rows differs from this run, played with --rows: drop --no-rows"),
        (["--target", "30"], "--target 30 differs from this run, which has no target: drop "
                             "--target"),
        (["--rules", "take=ends"], "--rules says take=ends, but this run was played under "
                                   "today's rules: drop --rules"),
        (["greedy", "low"], "strategies greedy,low differs from this run's strategies "
                            "greedy,high,low: give no strategies"),
    ],
)  # fmt: skip
def test_a_refusal_names_the_flag_the_runs_value_and_what_to_do(run, capsys, typed, said):
    args = typed if typed[0].startswith("--") else [*typed, "--players", "3"]
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume", *args)
    assert code == 2
    assert one_error_line(err) == f"leaves: error: cannot resume {run}: {said}"


@pytest.mark.parametrize("typed", [["--seed", "2"], ["--chunk-size", "7"], ["--turn-limit", "9"]])
def test_the_command_a_refusal_gives_resumes_the_run(run, tmp_path, capsys, typed):
    copy = copied_run(run, tmp_path)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", *typed)
    assert code == 2
    flag, value = re.search(r": resume with (--[\w-]+) (\S+), or drop ", err).groups()
    assert flag == typed[0]
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume", "--jobs", "1",
                       flag, value)  # fmt: skip
    assert code == 0, err


def test_a_config_files_value_is_advised_by_its_key(run, tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text("seed = 5\n")
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--out", str(run),
                       "--resume")  # fmt: skip
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {run}: seed in {config} 5 differs from this run's seed 7: "
        f"set seed to 7 in {config}, or remove seed from {config}"
    )


@pytest.fixture(scope="module")
def others(tmp_path_factory) -> dict[str, Path]:
    """A gauntlet and a Ligretto run, each finished."""
    from tests.helpers import cli_output

    root = tmp_path_factory.mktemp("others")
    for name, args in {
        "gauntlet": ["gauntlet", "greedy", "--against", "low", "--players", "3", "--games", "6"],
        "ligretto": ["tournament", "cautious", "cycler", "--game", "ligretto", "--games", "4"],
    }.items():
        code, _, err = cli_output(*args, "--jobs", "1", "--out", str(root / name))
        assert code == 0, err
    return {"gauntlet": root / "gauntlet", "ligretto": root / "ligretto"}


def test_a_gauntlet_and_a_tournament_each_name_the_command_that_resumes_them(run, others,
                                                                             capsys):  # fmt: skip
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(run))
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: cannot resume {run} with 'leaves gauntlet': it holds a tournament: "
        f"resume it with 'leaves tournament --resume --out {run}'"
    )
    gauntlet = others["gauntlet"]
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(gauntlet))
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: cannot resume {gauntlet} with 'leaves tournament': it holds a "
        f"gauntlet: resume it with 'leaves gauntlet --resume --out {gauntlet}'"
    )


def test_a_setting_the_runs_game_lacks_is_refused_saying_to_drop_it(others, capsys):
    """It said "--turn-limit is not a Ligretto option", naming neither the run nor a way on."""
    out = others["ligretto"]
    code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume", "--turn-limit", "9")
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: --turn-limit is not a Ligretto option, the game "
        "this run plays: drop --turn-limit"
    )


@pytest.mark.parametrize(
    ("named", "given", "stored", "said"),
    [
        ("SPEC", "low", "greedy", "SPEC low differs from this run's value greedy: give no SPEC"),
        ("--baseline", "low", "greedy (baseline)", "--baseline low differs from this run's value "
                                                   "greedy (baseline): drop --baseline"),
        ("--load", ["x.py"], [], "--load x.py differs from this run, which has no value: drop "
                                 "--load"),
        ("--rules after rules in c.toml", "a", "b", "--rules after rules in c.toml a differs "
         "from this run's value b: drop --rules and remove rules from c.toml"),
        ("--games", 3, 12345678, "--games 3 differs from this run's value 12,345,678: resume "
                                 "with --games 12345678, or drop --games"),
    ],
)  # fmt: skip
def test_advice_gives_again_only_what_can_be_typed_as_it_stands(named, given, stored, said):
    assert str(disagreement("r", named, given, "value", stored)) == f"cannot resume r: {said}"


@given(st.integers(0, 2**128), st.integers(0, 2**128))
def test_a_seed_is_advised_in_full_on_one_line(typed, stored):
    said = str(disagreement("r", "--seed", typed, "seed", stored))
    assert "\n" not in said
    assert said.endswith(f"this run's seed {stored}: resume with --seed {stored}, or drop --seed")


# ------------------------------------------------------------------ variants made again


def test_runs_of_rules_made_again_as_a_sweep_say_it_resumes_a_sweep(tmp_path):
    """Begun as --rules turn_limit=40, made again by --sweep turn_limit=40,50: it said only
    'made again from the options given', and played a sweep."""
    out = _runs(tmp_path / "v", "default", "turn_limit=40")
    _, note = rebuilt(out, _values(sweep="turn_limit=40,50"), {"sweep"}, LOST)
    assert note == (
        f"{out / 'variants.json'} missing: made again from the options given and the manifests "
        "of its runs (default, turn_limit=40), which do not tell --rules from --sweep: it "
        "resumes the --sweep given, turn_limit at 40, 50; turn_limit=50 has no run there yet "
        "and is played now"
    )


def test_runs_of_a_sweep_made_again_by_rules_say_they_resume_rules(tmp_path):
    out = _runs(tmp_path / "v", "default", "turn_limit=40", "turn_limit=50")
    rules = ("turn_limit=40", "turn_limit=50")
    _, note = rebuilt(out, _values(rules=rules), {"rules"}, LOST)
    assert note.endswith(": it resumes the --rules given, each against today's rules")
