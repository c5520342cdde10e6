"""docs/tuning.md's settings and its sums of games are the tuner's: the defaults it names, the
"search:" line it quotes and how each shipped search spent its budget, worked out by the
tuner's own plan for the command the page gives (no game is played)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import doc_number, doc_says, doc_text

PAGE = "tuning.md"


def _plan(tmp_path: Path, spec: str, against: str, players: int, budget: int):
    """The tuner's plan for ``leaves tune SPEC --against AGAINST ...`` (nothing is played)."""
    from tuning.plan import checked

    return checked(spec, against.split(","), players, budget, 1, 1, tmp_path / f"{spec}{budget}",
                   popsize=None, candidate_games=None, verify_games=None, sigma=0.05)  # fmt: skip


def _games(plan) -> int:
    """The games a plan's search and selection play: every generation's candidates and the
    start, then the finalists."""
    from tuning.plan import FINALISTS

    return plan.generations * (plan.popsize + 1) * plan.games + FINALISTS * plan.select_games


def test_the_settings_the_page_names_are_the_tuners():
    from leaves.commands.tune import tune as command
    from tuning.plan import FINALISTS, SELECT_SHARE, TARGET_GENERATIONS
    from tuning.tune import MIN_VERIFY_UNITS, SIGMA0, WIDE_VERIFY

    out = next(p.default for p in command.params if p.name == "out")
    assert (
        doc_number(doc_says(PAGE, r"split into about (\d+) generations")[1]) == TARGET_GENERATIONS
    )
    assert doc_says(PAGE, r"a (tenth) replays up to (\w+) distinct finalists").groups() == (
        {0.1: "tenth"}[SELECT_SHARE],
        {5: "five"}[FINALISTS],
    )
    assert float(doc_says(PAGE, r"`--sigma` \(default ([\d.]+)\)")[1]) == SIGMA0
    assert (
        doc_number(doc_says(PAGE, r"\(fewer than (\d+) deals and no difference found\)")[1])
        == MIN_VERIFY_UNITS
    )
    assert (
        doc_number(doc_says(PAGE, r"wider than \+-(\d+) percentage points")[1]) == 100 * WIDE_VERIFY
    )
    assert doc_says(PAGE, r"\(`--out`, default `([\w-]+)`\)")[1] == out


def test_the_quoted_search_line_is_the_plan_of_its_command(tmp_path):
    m = doc_says(PAGE, r"the first command above with `--budget (\d+)`: \"search: (\d+) generations x "
              r"(\d+) candidates \(\+ start\) x (\d+) games, then (\d+) finalists x (\d+) games: "
              r"([\d,]+) games of the budget's ([\d,]+)\"")  # fmt: skip
    first = doc_says(PAGE, r"leaves tune (\w+) --against ([\w,]+) --budget \d+ --seed 1 ")
    plan = _plan(tmp_path, first[1], first[2], 4, doc_number(m[1]))
    from tuning.plan import FINALISTS

    got = (plan.generations, plan.popsize, plan.games, FINALISTS, plan.select_games, _games(plan))
    assert tuple(doc_number(x) for x in m.groups()[1:7]) == got
    assert doc_number(m[8]) == doc_number(m[1])


def test_the_acceptance_runs_verification_is_half_its_budget(tmp_path):
    """ "100,032 games each, 4,168 duplicate sets": half the budget, in whole sets."""
    command = doc_says(
        PAGE, r"leaves tune \"(weighted:[^\"]+)\" \\? ?--against ([\w,]+) --budget (\d+)"
    )
    plan = _plan(tmp_path, command[1], command[2], 4, doc_number(command[3]))
    games, sets = (doc_number(x) for x in doc_says(PAGE, r"\(([\d,]+) games each, ([\d,]+) duplicate sets\)")
                   .groups())  # fmt: skip
    assert plan.verify_games == plan.field.games_per_run(plan.spec, doc_number(command[3]) // 2)
    assert games == plan.verify_games
    assert games % sets == 0 and games // sets == 24  # the balanced seatings of four seats


def test_each_shipped_search_spent_its_budget_as_the_page_says(tmp_path):
    """`weighted`'s and `counter`'s searches: "18 generations of 10 candidates at 2,688 games
    each, then 5 finalists at 12,096 games (592,704 games ...)", for the command before it."""
    from tuning.plan import FINALISTS

    text = doc_text(PAGE)
    searches = re.findall(
        r"leaves tune (\w+) --against ([\w,]+) \\? ?--players (\d+) --budget (\d+) --seed \d+ "
        r"--jobs 1 ``` (\d+) generations of (\d+) candidates at ([\d,]+) games(?: each)?, then "
        r"(\d+) finalists at ([\d,]+) games \(([\d,]+) games",
        text,
    )
    assert [s[0] for s in searches] == ["weighted", "counter"]
    for spec, against, players, budget, *said in searches:
        plan = _plan(tmp_path, spec, against, int(players), int(budget))
        got = (plan.generations, plan.popsize, plan.games, FINALISTS, plan.select_games,
               _games(plan))  # fmt: skip
        assert tuple(doc_number(x) for x in said) == got, spec
