"""The findings' closing sentence says what makes a difference clear: Holm's correction over
the variant's measures and an interval that excludes 0, then, where the run measured a skill
ladder, that its steps are corrected as a family of their own (``reports.variants``), a
clause of its own, not one hanging off the interval's."""

from __future__ import annotations

from tests.helpers import VARIANT_LABELS as LABELS
from tests.helpers import variants_diffs, variants_metrics

RULE = (
    "Paired. A difference is clear when it is significant after Holm's correction over the "
    "variant's 1 measure and its interval excludes 0 (95% intervals in brackets, not corrected)"
)


def _method(ladder: bool) -> str:
    """The findings' last sentence for one variant's game length, and its ladder's one step
    where ``ladder``."""
    from reports.variants_text import findings

    metrics = [("default", "turns", "all", -1, 44.0, 43.0, 45.0),
               ("hand_size=9", "turns", "all", -1, 40.0, 39.0, 41.0)]  # fmt: skip
    diffs = [("hand_size=9", "turns", "all", -1, -4.0, -5.0, -3.0, True)]
    if ladder:
        metrics += [(rules, "ladder_step", "all", 0, 0.1, 0.05, 0.15) for rules in LABELS]
        diffs.append(("hand_size=9", "ladder_step", "all", 0, 0.01, -0.04, 0.06, False))
    return findings(variants_metrics(metrics), variants_diffs(diffs), LABELS, "Paired")[-1][0]


def test_the_ladders_own_family_is_a_clause_of_its_own():
    said = _method(ladder=True)
    assert (
        said == RULE + "; in Holm's correction the skill ladder's steps are a family of their own."
    )
    assert "corrected apart" not in said


def test_without_a_ladder_the_sentence_names_no_ladder():
    assert _method(ladder=False) == RULE + "."
