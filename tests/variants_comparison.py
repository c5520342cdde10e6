"""One small finished comparison of rule variants (``leaves variants``) that the tests of the
designer's workbench read and resume: today's rules, hand_size=9 and take=ends, its page in
HTML. Each test module that takes the ``comparison`` fixture plays it once for itself, so a
test that resumes it in place never changes another module's."""

from __future__ import annotations

import pytest

SMALL = ["random", "weighted", "--games", "40", "--seed", "3", "--jobs", "1", "--no-progress",
         "--trace-games", "8", "--restricted-games", "0"]  # fmt: skip
"""A field, games and seed small enough for a comparison in a few seconds."""


def run(args: list[str]) -> tuple[int, str]:
    """(exit code, output) of ``leaves ARGS`` in this process."""
    from click.testing import CliRunner

    from leaves_cli.main import cli

    res = CliRunner().invoke(cli, args)
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def comparison(tmp_path_factory):
    """A finished small comparison: today's rules, hand_size=9 and take=ends."""
    out = tmp_path_factory.mktemp("cmp") / "v"
    code, text = run(["variants", *SMALL, "--rules", "hand_size=9", "--rules", "take=ends",
                      "--out", str(out)])  # fmt: skip
    assert code == 0, text
    return out
