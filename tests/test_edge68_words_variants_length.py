"""The variants finding on game length gives, beside each measure it says changed clearly,
that measure's own figures: rounds fewer with the rounds played, not the turns (whose
difference was not clear), built from constructed tables whose truth is known."""

from __future__ import annotations

from reports.variants_text import findings
from tests.helpers import VARIANT_LABELS as LABELS
from tests.helpers import variants_diffs, variants_metrics


def _said(turns_clear: bool) -> str:
    """The findings of a variant whose games are 1.63 rounds fewer (6.12 against 7.75), and
    1.5 turns shorter (40.5 against 42.0), clearly so where ``turns_clear``."""
    metrics = variants_metrics([
        ("default", "turns", "all", -1, 42.0, 41.0, 43.0),
        ("hand_size=9", "turns", "all", -1, 40.5, 39.5, 41.5),
        ("default", "rounds", "all", -1, 7.75, 7.6, 7.9),
        ("hand_size=9", "rounds", "all", -1, 6.12, 6.0, 6.24)])  # fmt: skip
    turns = (-1.5, -2.5, -0.5) if turns_clear else (-1.5, -3.1, 0.1)
    diffs = variants_diffs([
        ("hand_size=9", "turns", "all", -1, *turns, turns_clear),
        ("hand_size=9", "rounds", "all", -1, -1.63, -1.79, -1.48, True)])  # fmt: skip
    return " ".join(t for t, _ in findings(metrics, diffs, LABELS, "Paired"))


def test_rounds_fewer_is_given_with_the_rounds_not_the_turns():
    said = _said(turns_clear=False)
    assert "games are 1.63 rounds fewer [1.48, 1.79] (6.12 rounds against 7.75 rounds)" in said
    assert "turns against" not in said, said  # no figure of a measure that did not change


def test_each_measure_changed_is_beside_its_own_figures():
    said = _said(turns_clear=True)
    assert (
        "games are 1.5 turns shorter [0.5, 2.5] (40.5 turns against 42.0 turns) and "
        "1.63 rounds fewer [1.48, 1.79] (6.12 rounds against 7.75 rounds)"
    ) in said, said
