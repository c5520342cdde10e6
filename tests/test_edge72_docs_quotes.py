"""What the pages quote a command printing, it prints: the lines counting the games that
stopped unfinished (gauntlet, tune) stand beside the small command that prints them, run here
as written; the widths under which ``leaves play``'s seats table gives way to a line a seat
before any seat has passed are the rendering's; and ``--turn-limit`` is refused in one
wording at both ends of its range, the library's ``LeavesGame`` as ``Rules`` words it."""

from __future__ import annotations

import io
import re
import shlex

import pytest

from leaves import Rules, new_game
from leaves.commands import render
from leaves_cli.console import make_console

from .helpers import cli, doc_text, usage_error

QUOTED = re.compile(r"`(leaves (gauntlet|tune) [^`]*)` prints `([^`]*stopped unfinished[^`]*)`")
"""A command the pages quote and the line they say it prints."""


def _quotes(kind: str) -> list[tuple[str, str, str]]:
    """(page, command, line) for each quote of a ``leaves KIND`` command in the pages."""
    return [(page, m[1], m[3]) for page in ("cli.md", "tuning.md")
            for m in QUOTED.finditer(doc_text(page)) if m[2] == kind]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "pages"), [("gauntlet", {"cli.md"}),
                                             ("tune", {"cli.md", "tuning.md"})])  # fmt: skip
def test_a_quoted_unfinished_line_is_what_its_command_prints(capsys, tmp_path, kind, pages):
    """The pages quoted '816 games (85.0%) ... (30 turns a game)' and '88 games (91.7%) ...
    (25 turns a game)' with no command that printed them."""
    quotes = _quotes(kind)
    assert {page for page, _, _ in quotes} == pages, quotes
    for i, command in enumerate(sorted({c for _, c, _ in quotes})):
        args = [*shlex.split(command)[1:], "--out", str(tmp_path / str(i)), "--no-progress"]
        code, out, err = cli(capsys, *args, "--jobs", "1")  # results never depend on --jobs
        assert code == 0, err
        printed = [line.strip() for line in out.splitlines()]
        for page, _, line in (q for q in quotes if q[1] == command):
            assert line in printed, (page, line, out)


# ------------------------------------------------------------------ the seats table's widths
BEFORE = re.compile(
    r"and one less before, while `round`, not `passed`, is the widest word of its column: "
    r"(\d+), (\d+), (\d+), and (\d+), (\d+), (\d+) with every hand"
)
NAMES = ("greedy", "weighted", "ismcts(preset=strong)")
"""The names the page gives widths for: 6 characters, `weighted`, `--level hard`'s."""


def _least_table(state, name: str, hands: bool) -> int:
    """The narrowest console that shows the seats table (not a line a seat) with ``name`` in
    every other seat."""
    seats = render.seats_table(state, ["you", name, name, name], state.hands if hands else None)
    for width in range(20, 121):
        out = io.StringIO()
        make_console(file=out, width=width).print(seats)
        if "───" in out.getvalue():
            return width
    raise AssertionError(f"no table up to 120 columns for {name}")


def _after_a_pass():
    """A 4-player deal once its first seat to pass has passed."""
    state = new_game(4, seed=1)
    while not any(state.passed):
        state = state.apply(state.legal_actions()[0])
    return state


def test_the_widths_before_a_pass_are_the_renderings():
    """The page gave only the widths once a seat has passed (46, 48, 61; 53, 55, 68): at the
    start of a round each is one less, `round` being the column's widest word."""
    found = BEFORE.search(doc_text("cli.md"))
    assert found, "docs/cli.md no longer gives the widths before a pass"
    start, passed = new_game(4, seed=1), _after_a_pass()
    assert not any(start.passed)
    said = [int(n) for n in found.groups()]
    measured = [_least_table(start, name, hands) for hands in (False, True) for name in NAMES]
    assert said == measured
    after = [_least_table(passed, name, hands) for hands in (False, True) for name in NAMES]
    assert after == [n + 1 for n in measured]  # "one less before"


# ------------------------------------------------------------------ the turn limit's range
@pytest.mark.parametrize("command", ["tournament", "gauntlet"])
@pytest.mark.parametrize("value", ["0", "-5", "2000000"])
def test_the_turn_limit_is_refused_in_one_wording_at_both_ends(capsys, tmp_path, command, value):
    """0 said '--turn-limit: the turn limit must be at least 1, got 0' where 2000000 said
    '--turn-limit must be 1..1000000, got 2000000'."""
    spec = ["greedy", "random"] if command == "tournament" else ["greedy", "--against", "random"]
    args = [command, *spec, "--turn-limit", value, "--out", str(tmp_path / "o")]
    line = usage_error(capsys, args)
    assert line == f"leaves: error: --turn-limit must be 1..1000000, got {value}"
    if value == "0":  # the refusal docs/cli.md quotes
        assert f"`{line.removeprefix('leaves: error: ')}`" in doc_text("cli.md")


@pytest.mark.parametrize("value", [0, 2000000])
def test_a_config_files_turn_limit_is_refused_as_the_flag_is(capsys, tmp_path, value):
    config = tmp_path / "c.toml"
    config.write_text(f'strategies = ["greedy", "random"]\nturn_limit = {value}\n'
                      f'out = "{tmp_path / "o"}"\n')  # fmt: skip
    line = usage_error(capsys, ["tournament", "--config", str(config)])
    assert line == f"leaves: error: {config}: turn_limit must be 1..1000000, got {value}"


@pytest.mark.parametrize("value", [0, -5, 2000000, "x", True])
def test_the_librarys_game_words_the_turn_limit_as_its_rules_do(value):
    """``LeavesGame(turn_limit=0)`` said 'the turn limit must be at least 1' (and 'x' raised
    int()'s own 'invalid literal'), ``Rules(turn_limit=0)`` 'must be 1..1000000'."""
    from leaves.plugin import LeavesGame  # the game's class, as a run builds it

    with pytest.raises(ValueError) as rules:
        Rules(turn_limit=value)
    with pytest.raises(ValueError) as game:
        LeavesGame(turn_limit=value)
    assert str(game.value) == str(rules.value)
    assert str(game.value).startswith("turn_limit must be ")
