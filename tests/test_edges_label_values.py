"""A run whose strategy has a text parameter that a spec would read as a value (``'off'``,
``'yes'``, ``'Infinity'``) resumes: its label keeps the text quoted, so reading the label back
gives the same strategy (``tests/test_boundaries_base.py`` checks the label itself)."""

from __future__ import annotations

import textwrap

import strategies

from .helpers import cli
from .test_boundaries_base import MODEBOT


def test_a_run_of_a_strategy_with_such_a_text_parameter_resumes(tmp_path, capsys, monkeypatch):
    """Was: "parameter 'mode' of strategy modebot expects str, got False": the label wrote the
    text 'off' plainly and the resume read it back as a bool."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "modebot.py").write_text(textwrap.dedent(MODEBOT.format(index=2)))
    try:
        code, _, err = cli(capsys, "tournament", "modebot.py:ModeBot:mode='off'", "greedy", "low",
                           "--games", "24", "--out", "r", "--jobs", "1")  # fmt: skip
        assert code == 0, err
        code, out, err = cli(capsys, "tournament", "--out", "r", "--resume", "--add", "24")
        assert code == 0, err
        assert "72 of 144 games" in out  # as many games again, on top of the first session's
    finally:
        strategies.registry.unregister("modebot_2")
