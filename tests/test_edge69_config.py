"""A rule written in a config file's ``[rules]`` table counts as given exactly as the same rule
typed with ``--rules``, today's value included: ``expert_target = 20`` read as "default", so
a run of single games took it without a word while ``--rules expert_target=20`` is refused
(it ends a match, never a game), and a ``target`` it contradicts played on."""

from __future__ import annotations

import pytest

from tests.helpers import usage_error

HEAD = 'strategies = ["greedy", "random", "low"]\nplayers = 3\ngames = 6\nout = "{out}"\n'
"""A run small enough that a check that fails to refuse it costs a moment, not a run."""


def _refusal(capsys, tmp_path, lines: str) -> tuple[str, str]:
    """The one error line of a tournament from a config file of ``lines``, and the file."""
    config = tmp_path / "c.toml"
    config.write_text(HEAD.format(out=tmp_path / "o") + lines + "\n")
    return usage_error(capsys, ["tournament", "--config", str(config)]), str(config)


@pytest.mark.parametrize("value", [20, 30])  # today's value, and another
def test_a_target_rule_in_the_file_without_matches_is_refused_as_typed(capsys, tmp_path, value):
    got, config = _refusal(capsys, tmp_path, f"[rules]\nexpert_target = {value}")
    assert got == (f"leaves: error: {config}: rules expert_target={value} ends a match, never "
                   "a game: add --expert to play a match to it, or leave it out")  # fmt: skip
    typed = usage_error(capsys, ["tournament", "greedy", "random", "low", "--players", "3",
                                 "--games", "6", "--out", str(tmp_path / "t"), "--rules",
                                 f"expert_target={value}"])  # fmt: skip
    assert typed.endswith(f"--rules expert_target={value} ends a match, never a game: add "
                          "--expert to play a match to it, or leave it out")  # fmt: skip


def test_todays_target_written_in_the_file_disagrees_with_another_target(capsys, tmp_path):
    got, config = _refusal(capsys, tmp_path, "expert = true\ntarget = 30\n[rules]\n"
                                             "expert_target = 20")  # fmt: skip
    assert (
        got == f"leaves: error: {config}: target 30 and rules expert_target=20 disagree: give one"
    )


def test_a_table_of_rules_reads_as_the_texts_that_name_every_key_it_writes():
    """Each key the table writes, today's values too, in the text ``--rules`` takes, which
    reads back as the same rules."""
    from leaves.plugin import rules_from_config
    from leaves.ruleset import Rules

    table = {"expert_target": 20, "hand_size": {"3": 12, "4": 11}, "min_count": True,
             "take": "ends", "players": [3, 4]}  # fmt: skip
    texts = rules_from_config(table)
    assert texts == ("expert_target=20, hand_size=3:12/4:11, min_count=on, take=ends, "
                     "players=3-4",)  # fmt: skip
    assert Rules.parse(texts) == Rules.from_dict(table)
    assert rules_from_config({}) == ("default",)  # an empty table: today's rules
