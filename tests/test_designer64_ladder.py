"""The skill ladder's sentence (``reports.designer_text.ladder_sentence``) on ladder tables
whose truth is set here: the steps' sizes and errors decide which are significant, and the
sentence says so in the same words for every rule set."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.designer_measures import ladder_table
from reports.designer_text import ladder_sentence
from reports.numbers import TOO_FEW

NAN = float("nan")


def _steps(rules: str, values: list[float], se: float = 0.02, df: float = 40.0) -> list[dict]:
    """One rule set's ladder of strategies a, b, c, ... (a the strongest): step i is the win
    rate of the i-th over the next, measured with error ``se`` on ``df`` degrees of freedom
    (NaN: a run too small to test it)."""
    names = "abcdef"
    return [{"rules": rules, "metric": "ladder_step", "position": i, "value": v, "se": se,
             "df": df, "deal_sets": 41, "ci_low": v - 2 * se, "ci_high": v + 2 * se,
             "detail": f"{names[i]} - {names[i + 1]}"} for i, v in enumerate(values)]  # fmt: skip


def _sentence(*rule_sets: list[dict]) -> tuple[pd.DataFrame, str]:
    rows = [r for steps in rule_sets for r in steps]
    t = ladder_table(pd.DataFrame(rows))
    labels = list(dict.fromkeys(r["rules"] for r in rows))
    return t, ladder_sentence(t, labels)


def test_steps_not_significant_beside_levels_told_apart_are_not_called_all_steps():
    # a over b: 0.01 (half an error, not significant); b over c: 0.20 (ten errors: significant)
    t, text = _sentence(_steps("default", [0.01, 0.20]))
    assert t["significant"].tolist() == [False, True] and t["levels"].iloc[0] == 2
    assert "tell at least 2 skill levels apart among its 3 strategies" in text
    assert "no significant step" not in text
    assert "; the step not significant: a over b (+1.0 percentage point;" in text


def test_a_run_too_small_says_so_for_every_rule_set_alike():
    small = dict(se=NAN, df=NAN)
    t, text = _sentence(_steps("default", [0.1, 0.2], **small),
                        _steps("take=ends", [0.1, 0.2], **small))  # fmt: skip
    assert not t["significant"].any() and not np.isfinite(t["needs"]).any()
    assert f"the run has {TOO_FEW} of any step of the default rules" in text
    assert text.endswith(f"; take=ends: {TOO_FEW} of any step.")
    assert "at least 1 of" not in text


def test_no_step_significant_is_said_alike_for_the_default_and_a_variant():
    _, text = _sentence(_steps("default", [0.01, 0.0]), _steps("take=ends", [0.0, 0.01]))
    assert (
        "no step of the default rules' 3 strategies is significant"
        " (at least 1 level: the bound tells no neighbouring pair apart)"
    ) in text
    assert text.endswith(
        "; take=ends: at least 1 of 3"
        " (no step is significant: the bound tells no neighbouring pair apart)."
    )
    assert "not significant:" not in text  # none is: the steps are listed with their needs
    assert "; the steps: a over b (+1.0 percentage point;" in text


def test_a_variant_that_tells_levels_apart_beside_a_default_too_small_to_test():
    _, text = _sentence(_steps("default", [0.1, 0.2], se=NAN, df=NAN),
                        _steps("take=ends", [0.2, 0.3]))  # fmt: skip
    assert f"the run has {TOO_FEW} of any step of the default rules" in text
    assert text.endswith("; take=ends: at least 3 of 3.")


def test_a_default_without_a_ladder_claims_no_levels():
    t = ladder_table(pd.DataFrame(_steps("take=ends", [0.2, 0.3])))
    text = ladder_sentence(t, ["default", "take=ends"])
    assert "skill levels apart" not in text and "Holm over the 0 steps" not in text
    assert "no step of the default rules was measured; take=ends: at least 3 of 3." in text
