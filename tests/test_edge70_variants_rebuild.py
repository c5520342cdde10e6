"""A lost variants.json is made again only for the comparison its runs are of: a run there
that is of no rule set given (--rules or --sweep) is refused by name, where it was left out
unsaid while another rule set was played and the comparison called finished."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from leaves.commands.variants_resume import _Lost, rebuilt
from leaves_cli.errors import CLIError

LOST = _Lost("no variants.json")


def _values(**given) -> dict:
    values = {"specs": ("random", "low"), "load": (), "rules": (), "sweep": None,
              "players": (), "games": 600, "seed": None, "expert": False, "trace_games": 0,
              "restricted_games": 0, "restrict": None, "ladder": None}  # fmt: skip
    return {**values, **given}


def _runs(root: Path, *names: str) -> Path:
    """Runs of a comparison (their manifests' spec only), one folder per rule set."""
    for name in names:
        (root / name).mkdir(parents=True)
        spec = {"seed": 1, "players": [3], "games_asked": 600, "expert": False}
        (root / name / "manifest.json").write_text(json.dumps({"spec": spec}))
    return root


def test_a_run_of_no_rule_set_given_is_refused_by_name(tmp_path):
    """Was: hand_size=9 played, turn_limit=40 dropped, '2 rule sets verified and finished'."""
    out = _runs(tmp_path / "v", "default", "turn_limit=40")
    with pytest.raises(CLIError) as exc:
        rebuilt(out, _values(rules=("hand_size=9",)), {"rules"}, LOST)
    assert exc.value.exit_code == 2
    assert str(exc.value) == (
        f"cannot resume {out}: {out / 'variants.json'} is missing, and its runs are not the "
        "rule sets given (turn_limit=40 is there but not given; hand_size=9 is given but has "
        "no run there): give the comparison's --rules or --sweep again as it was played, or "
        "start a new comparison in another --out"
    )


def test_runs_not_given_are_named_even_where_every_rule_set_given_has_one(tmp_path):
    out = _runs(tmp_path / "v", "default", "turn_limit=40", "take=ends")
    with pytest.raises(CLIError, match=r"\(take=ends, turn_limit=40 are there but not given; "):
        rebuilt(out, _values(rules=("hand_size=9",)), {"rules"}, LOST)
    with pytest.raises(CLIError, match=r"\(take=ends is there but not given\)"):
        rebuilt(out, _values(rules=("turn_limit=40",)), {"rules"}, LOST)


def test_the_same_rule_sets_however_written_make_it_again(tmp_path):
    out = _runs(tmp_path / "v", "default", "take=ends,turn_limit=40")
    values = _values(rules=("turn_limit=40, take=ends",))
    state, note = rebuilt(out, values, {"rules"}, LOST)
    assert state["options"]["rules"] == ["turn_limit=40, take=ends"]
    assert "made again from the options given" in note


def test_a_rule_set_given_that_was_not_begun_is_no_refusal(tmp_path):
    """An interrupted comparison plays its rule sets in order: the later ones have no run."""
    out = _runs(tmp_path / "v", "default")
    state, _ = rebuilt(out, _values(rules=("turn_limit=40",)), {"rules"}, LOST)
    assert state["options"]["rules"] == ["turn_limit=40"]


def test_a_sweep_s_runs_are_its_values(tmp_path):
    out = _runs(tmp_path / "v", "default", "turn_limit=40", "turn_limit=50")
    state, _ = rebuilt(out, _values(sweep="turn_limit=40,50"), {"sweep"}, LOST)
    assert state["options"]["sweep"] == "turn_limit=40,50"
    with pytest.raises(CLIError, match=r"\(turn_limit=40 is there but not given; turn_limit=60 "):
        rebuilt(out, _values(sweep="turn_limit=50,60"), {"sweep"}, LOST)


@pytest.mark.slow  # a comparison played, then resumed
def test_a_comparison_resumed_with_another_variant_plays_nothing(comparison, tmp_path):
    """The reviewer's case: --rules hand_size=9 alone, where the runs are of hand_size=9 and
    take=ends; was: take=ends dropped unsaid and the comparison called finished."""
    from tests.variants_comparison import SMALL, run

    out = tmp_path / "v"
    shutil.copytree(comparison, out)
    (out / "variants.json").unlink()
    before = sorted(p.name for p in out.iterdir())
    code, said = run(["variants", *SMALL, "--rules", "hand_size=9", "--out", str(out), "--resume"])
    assert code == 2
    assert said.strip().endswith(
        "its runs are not the rule sets given (take=ends is there but not given): give the "
        "comparison's --rules or --sweep again as it was played, or start a new comparison in "
        "another --out"
    )
    assert "made again" not in said and sorted(p.name for p in out.iterdir()) == before
