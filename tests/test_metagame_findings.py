"""The meta-game's key finding (``reports.findings.metagame_finding``): on synthetic games with a
known stable mix (a dominant strategy, an anti-coordination game's interior equilibrium, a
cyclic game's uniform mix) the sentence states that mix in percent with intervals that hold it,
the numbers being the tables'; every other clause on hand-made tables."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import reports
from reports import metagame as mg
from reports.findings import key_findings, metagame_answer, metagame_finding
from reports.metagame_tables import metagame
from tests.test_metagame import (
    STRONG,
    anti,
    anti_share,
    dominant,
    games_frame,
    needs_openspiel,
    rps,
)

WEIGHT = re.compile(r"(\w+) (\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\]")
"""One strategy of the stated mix: name, weight and its 95% interval, in percent."""


def _stated(text: str) -> dict[str, tuple[float, float, float]]:
    """The mix the sentence states (before its parenthesis): strategy -> weight, low, high."""
    head = text.split(" (", 1)[0]
    return {m[1]: (float(m[2]), float(m[3]), float(m[4])) for m in WEIGHT.finditer(head)}


def _agrees(text: str, mix: pd.DataFrame) -> dict[str, tuple[float, float, float]]:
    """The stated mix, checked against the table it comes from (rounded to 0.1 point)."""
    stated = _stated(text)
    rows = mix.set_index("strategy")
    assert set(stated) == set(rows.index[rows["weight"] >= mg.SUPPORT])
    for s, (w, lo, hi) in stated.items():
        want = rows.loc[s, ["weight", "ci_low", "ci_high"]].to_numpy(float)
        np.testing.assert_allclose([w, lo, hi], 100 * want, atol=0.051)
    return stated


@pytest.fixture(scope="module")
def dominant_tables():
    run = reports.as_run(games_frame(STRONG, dominant, deals=8, seed=3))
    return reports.compute_tables(run)


def test_a_dominant_strategy_is_the_stable_mix_alone(dominant_tables):
    tables, method = dominant_tables
    (found,) = metagame_finding(tables)
    assert found.topic == "metagame"
    assert found.text.startswith(
        "Meta-game: the stable mix of strategies is ace alone, 100.0% [100.0, 100.0] (the "
        "replicator dynamics from the uniform mix come to rest there; no strategy gains by "
        "deviating from it; 95% intervals from 200 bootstrap replicates of the deals). In "
        "100.0% of the replicates the equilibrium plays the same strategies."
    )
    assert "other equilibri" not in found.text and "Caution" not in found.text
    # one of the key findings, right after the best strategy's
    said = key_findings(tables, method)
    assert [f.topic for f in said][:2] == ["significance", "metagame"]
    assert said[1].text == found.text


def test_an_interior_equilibrium_lies_in_its_stated_intervals():
    p, _, _ = anti_share()  # the truth: hawk's share of the stable mix
    tables = metagame(reports.as_run(games_frame(["hawk", "dove"], anti, deals=30, seed=3)))
    (found,) = metagame_finding(tables)
    stated = _agrees(found.text, tables["metagame_mix"])
    for s, truth in (("hawk", p), ("dove", 1 - p)):
        _, lo, hi = stated[s]
        assert lo < 100 * truth < hi
    assert " and " in found.text.split(" (", 1)[0]  # two strategies: "a ..., and b ..."


def test_a_cyclic_game_states_the_uniform_mix():
    tables = metagame(reports.as_run(games_frame(["x", "y", "z"], rps, deals=10, seed=4)))
    (found,) = metagame_finding(tables)
    stated = _agrees(found.text, tables["metagame_mix"])
    assert set(stated) == {"x", "y", "z"}
    for _, lo, hi in stated.values():
        assert lo < 100 / 3 < hi
    if "metagame_alpharank" in tables:  # a cycle: every strategy shares alpha-rank's mass
        assert "α-Rank puts no strategy first on its own:" in found.text


def test_too_few_deals_is_said_instead():
    tables = metagame(reports.as_run(games_frame(STRONG, dominant, deals=2)))
    assert [f.text for f in metagame_finding(tables)] == [
        "Meta-game: too few deals for an analysis: the fewest at a table is 2 duplicate sets, "
        f"and each table needs {mg.MIN_SETS}; play more games."
    ]


def test_no_finding_without_every_multiset():
    run = reports.as_run(games_frame(STRONG, dominant, deals=6, repeats=False))
    assert metagame_finding({}) == [] and metagame_answer(run) == ""
    assert metagame_answer(reports.as_run(games_frame(STRONG, dominant, deals=2))).startswith(
        "Meta-game: too few deals"
    )


def _mix(**over) -> pd.DataFrame:
    """A hand-made metagame_mix: a 60%, b 40%, c out of it but in 30% of the replicates."""
    df = pd.DataFrame({
        "strategy": ["a", "b", "c"],
        "weight": [0.6, 0.4, 0.0],
        "ci_low": [0.2, 0.1, 0.0],
        "ci_high": [0.9, 0.8, 0.05],
        "in_support": [1.0, 0.7, 0.3],
        "regret": 0.0004,
        "replicates": 200,
        "same_support": 0.55,
        "at_rest": False,
    })  # fmt: skip
    return df.assign(**over)


def test_every_clause_on_hand_made_tables():
    tables = {
        "metagame_payoffs": pd.DataFrame({"deal_sets": [9, 7]}),
        "metagame_mix": _mix(),
        "metagame_equilibria": pd.DataFrame({"equilibrium": [1, 2, 3]}),
        "metagame_alpharank": pd.DataFrame(
            {
                "strategy": ["b", "a", "c"],
                "mass": [0.7, 0.2, 0.1],
                "ci_low": [0.5, 0.1, 0.0],
                "ci_high": [0.9, 0.3, 0.2],
            }
        ),  # fmt: skip
    }
    (found,) = metagame_finding(tables)
    assert found.text == (
        "Meta-game: caution, the run cannot tell which mix is stable: the equilibrium plays "
        "the same strategies in only 55.0% of the bootstrap replicates of the deals; c enters "
        "it in 30.0% (play more games). Its estimate is a 60.0% [20.0, 90.0] and b 40.0% [10.0, "
        "80.0] (the Nash equilibrium nearest to where the replicator dynamics from the uniform "
        "mix end, as they do not come to rest; no strategy gains more than 0.04 percentage "
        "points of win "
        "rate by deviating; 95% intervals from 200 bootstrap replicates of the deals). From "
        "other starts the dynamics "
        "reach 2 other equilibria: which mix a population ends in depends on where it starts. "
        "α-Rank puts b first with 70.0% of the mass [50.0, 90.0]."
    )
    tables["metagame_mix"] = _mix(
        regret=0.0, same_support=0.95, at_rest=True, in_support=[1.0, 1.0, 0.0]
    )
    tables["metagame_equilibria"] = tables["metagame_equilibria"].iloc[:2]
    tables["metagame_alpharank"] = tables["metagame_alpharank"].assign(mass=[0.5, 0.498, 0.002])
    text = metagame_finding(tables)[0].text
    assert "come to rest there; no strategy gains by deviating from it;" in text
    assert "In 95.0% of the replicates the equilibrium plays the same strategies." in text
    assert "reach 1 other equilibrium:" in text and "enters" not in text
    assert text.endswith("α-Rank puts no strategy first on its own: b and a share the mass.")


@needs_openspiel
def test_alpha_rank_first_is_stated_with_its_interval(dominant_tables):
    tables, _ = dominant_tables
    text = metagame_finding(tables)[0].text
    top = tables["metagame_alpharank"].iloc[0]
    run, drawn = int(top["replicates_run"]), int(top["replicates_drawn"])
    assert run < drawn  # alpha-Rank runs on the first replicates only: the sentence says so
    assert text.endswith(
        f"α-Rank puts ace first with {100 * top['mass']:.1f}% of the mass "
        f"[{100 * top['ci_low']:.1f}, {100 * top['ci_high']:.1f}], its interval over the "
        f"{run} bootstrap replicates it was run on (the first {run} of the {drawn} drawn: each "
        "α-Rank is a Python loop)."
    )


def test_a_label_with_a_space_is_the_stable_mix_alone_whole():
    """The mix's one strategy was split at its label's first space ("my alone, bot 100.0%")."""
    mix = _mix(strategy=["my bot", "b", "c"], weight=[1.0, 0.0, 0.0], ci_low=[0.9, 0.0, 0.0],
               ci_high=[1.0, 0.1, 0.1], same_support=0.95, at_rest=True)  # fmt: skip
    tables = {"metagame_payoffs": pd.DataFrame({"deal_sets": [9, 7]}), "metagame_mix": mix}
    text = metagame_finding(tables)[0].text
    assert "the stable mix of strategies is my bot alone, 100.0% [90.0, 100.0] (" in text, text
