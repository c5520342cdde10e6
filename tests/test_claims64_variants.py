"""docs/variants.md's and docs/research.md's facts of the code: the designers' measures'
default sample sizes, the sweep's count of values, the field of the worked example, the
ladder's simulated error rates and the observation's sizes; and the research page's closer
meta-game field, which a run of the command it gives reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import doc_number, doc_says


def test_the_variants_defaults_are_the_commands():
    from leaves.commands.run import builtin_heuristics
    from leaves.commands.variants import DEFAULT_RESTRICTED_GAMES, DEFAULT_TRACE_GAMES
    from leaves.commands.variants_sweep import MAX_POINTS

    page = "variants.md"
    trace = doc_says(page, r"\(`--trace-games`, default ([\d,]+) games a rule set\)")[1]
    assert doc_number(trace) == DEFAULT_TRACE_GAMES
    assert doc_number(doc_says(page, r"`--restricted-games` \(default ([\d,]+)\)")[1]) == (
        DEFAULT_RESTRICTED_GAMES
    )
    assert doc_says(page, r"`turn_limit`; (\d+) to (\d+) values\)").groups() == (
        "2",
        str(MAX_POINTS),
    )
    field = doc_says(page, r"\(`leaves run`'s (\w+) built-ins, `random` among them;")[1]
    assert {10: "ten"}.get(len(builtin_heuristics())) == field
    assert "random" in builtin_heuristics()


def test_the_ladders_error_rates_are_its_tests_simulation():
    """ "simulates 1,500 ladders of four steps for each of three known truths ... 4.2%, 3.3%
    and 4.7%": the rates of the simulation tests/test_designer_ladder.py runs."""
    from tests import test_designer_ladder as ladder

    m = doc_says("variants.md", r"`tests/test_designer_ladder\.py` simulates ([\d,]+) ladders of "
              r"(\w+) steps .*? exceed the true ones: ([\d.]+)%, ([\d.]+)% and ([\d.]+)%")  # fmt: skip
    test = ladder.test_the_levels_are_a_95_percent_lower_bound
    truths = next(mark.args[1] for mark in test.pytestmark if mark.name == "parametrize")
    reps = doc_number(m[1])
    assert "reps = 1500" in Path(ladder.__file__).read_text(encoding="utf-8") and reps == 1500
    assert {len(t) for t in truths} == {{"four": 4}[m[2]]}
    rates = []
    for truth in truths:
        t = ladder.ladder_table(ladder._simulated(truth, reps, seed=len(truth) +
                                                  int(10 * sum(truth))))  # fmt: skip
        per = t.groupby("rules", sort=False).first()
        real = 1 + sum(v != 0 for v in truth)
        rates.append(f"{100 * float((per['levels'] > real).mean()):.1f}")
    assert rates == [m[3], m[4], m[5]]


def test_the_observation_sizes_are_the_layouts():
    from interop.observation import LAYOUT, SIZE, STATE_LAYOUT
    from leaves import N_ACTIONS

    page = "research.md"
    assert doc_number(doc_says(page, r"\*\*Actions\*\*: `Discrete\((\d+)\)`")[1]) == N_ACTIONS
    assert doc_number(doc_says(page, r"and `observation`, (\d+) int16")[1]) == SIZE
    assert sum(n for _, n in LAYOUT) == SIZE
    assert doc_number(doc_says(page, r"in `state_space`, (\d+) entries")[1]) == sum(
        n for _, n in STATE_LAYOUT
    )
    assert (
        doc_number(doc_says(page, r"is `Discrete\((\d+)\)` under `take=\"nothing\"`")[1])
        == N_ACTIONS + 1
    )


@pytest.mark.slow
def test_the_closer_meta_game_field_is_what_its_run_reports(capsys, tmp_path):
    """docs/research.md: with `greedy low high minimal` (the same command) the estimate is
    `low` alone, the equilibrium keeping its strategies in 54.5% of the replicates."""
    import reports
    from tests.helpers import cli

    m = doc_says("research.md", r"with `([\w ]+)` \(same command\) the equilibrium is `(\w+)` "
              r"alone in the estimate but keeps the same strategies in only ([\d.]+)% of")  # fmt: skip
    command = doc_says("research.md", r"leaves tournament [\w ]+ (--players .*?) --out runs/mg")[1]
    out = tmp_path / "mg"
    code, _, err = cli(capsys, "tournament", *m[1].split(), *command.replace("\\", "").split(),
                       "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    mix = reports.compute_tables(out)[0]["metagame_mix"].set_index("strategy")
    assert mix.weight.idxmax() == m[2] and round(mix.loc[m[2], "weight"], 3) == 1.0
    assert f"{100 * mix.same_support.iloc[0]:.1f}" == m[3]
