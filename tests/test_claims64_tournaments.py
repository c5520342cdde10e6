"""docs/tournaments.md's figures that are facts of the code (the seating sets' sizes, the caps,
the timeouts, the gauntlet's and the sequential test's defaults), read here from the code, and
the two gauntlet answers it quotes, which are what the commands it gives print."""

from __future__ import annotations

import itertools
import re

from tests.helpers import cli, doc_number, doc_page, doc_says, doc_text

PAGE = "tournaments.md"


def test_the_seating_sets_have_the_sizes_the_page_gives():
    from tournaments.seating import design

    m = doc_says(PAGE, r"The sets are short: (\d+) seatings for 3 seats, (\d+) for 4, (\d+) for 5, (\d+) "
              r"for 6 \(`tournaments\.seating\.design\(table\)`; with repeated strategies (\d+) "
              r"to (\d+)\)")  # fmt: skip
    for seats, said in zip(range(3, 7), m.groups()[:4], strict=True):
        assert len(design(list(range(seats)))) == int(said), seats
    repeated = {
        len(design(list(table)))
        for seats in range(3, 7)
        for table in itertools.combinations_with_replacement(range(seats), seats)
        if len(set(table)) < seats
    }
    assert (min(repeated), max(repeated)) == (int(m[5]), int(m[6]))


def test_the_caps_and_timeouts_are_the_codes():
    from leaves_cli.sequential import PRECISION_MAX_GAMES
    from strategies.deadline import DEFAULT_DECISION_TIMEOUT
    from tournaments.local import PLAYERS_PER_CORE
    from tournaments.parallel import WORKERS_S
    from tournaments.players import REACH_S
    from tournaments.sequential import PRECISION_MIN_GROWTH
    from tournaments.work import MAX_GAMES_PER_MATCH

    said = {
        r"hold at most (\d+) games \(`tournaments\.work\.MAX_GAMES_PER_MATCH`\)":
            MAX_GAMES_PER_MATCH,
        r"\(at least ([\d.]+) times as many, up to `--max-games`": PRECISION_MIN_GROWTH,
        r"up to `--max-games`, default ([\d,]+)\)": PRECISION_MAX_GAMES,
        r"A run starts at most (\d+) players a core": PLAYERS_PER_CORE,
        r"\(-1: one per core; at most (\d+) a core\)": PLAYERS_PER_CORE,
        r"where no Dask scheduler answers within (\d+) s": REACH_S,
        r"A scheduler that no worker joins within (\d+) s": WORKERS_S,
        r"`--decision-timeout SECONDS` \(default (\d+);": DEFAULT_DECISION_TIMEOUT,
        r"took longer than (\d+) s`\)": DEFAULT_DECISION_TIMEOUT,
    }  # fmt: skip
    for pattern, value in said.items():
        assert doc_number(doc_says(PAGE, pattern)[1]) == value, pattern


def test_the_gauntlets_defaults_are_the_commands():
    from leaves.plugin import LeavesGame
    from leaves_cli.gauntlet_cmd import (
        FIXED_GAMES,
        SEQUENTIAL_DEFAULTS,
        SEQUENTIAL_FIRST_GAMES,
        gauntlet,
    )
    from leaves_cli.sequential import SEQUENTIAL_MAX_GAMES
    from tournaments.sequential import GROWTH

    seed = next(p.default for p in gauntlet.params if p.name == "seed")
    said = {
        r"The baseline \(default `(\w+)`, the best built-in heuristic\)":
            LeavesGame.default_baseline,
        r"`--games` is what SPEC plays \(default ([\d,]+);": FIXED_GAMES,
        r"`--seed` \(default (\d+)\), `--jobs`": seed,
        r"\(the first ([\d,]+) games a side or `--games`;": SEQUENTIAL_FIRST_GAMES,
        r"`--margin`\" \(default (\d+) percentage point[,)]": SEQUENTIAL_DEFAULTS["margin"],
        r"\(`--alpha`, `--beta`: default ([\d.]+) each\)": SEQUENTIAL_DEFAULTS["alpha"],
        r"or `--max-games` \(([\d,]+) a side\) is reached": SEQUENTIAL_MAX_GAMES,
        r"first batch [\d,]+, x([\d.]+) per batch": GROWTH,
    }  # fmt: skip
    assert SEQUENTIAL_DEFAULTS["beta"] == SEQUENTIAL_DEFAULTS["alpha"]
    for pattern, value in said.items():
        found = doc_says(PAGE, pattern)[1]
        assert (found if isinstance(value, str) else doc_number(found)) == value, pattern
    assert (
        GROWTH == 1.25
        and "each next batch grows the deals played so far by a quarter" in doc_text(PAGE)
    )


def _quoted_answer(opening: str) -> list[str]:
    """The lines of the page's fenced text block that begins with ``opening``."""
    page = doc_page(PAGE)
    block = re.search(rf"```text\n({re.escape(opening)}.*?)```", page, flags=re.S)
    assert block, f"no quoted answer beginning {opening!r}"
    return block[1].strip().splitlines()


def test_the_quoted_gauntlet_answer_is_what_it_prints(tmp_path, capsys, monkeypatch):
    """ "output of the first command above with `greedy` for SPEC": `leaves gauntlet greedy
    --against taker`, its defaults otherwise (`--jobs` changes nothing)."""
    monkeypatch.setenv("COLUMNS", "200")
    quoted = _quoted_answer("greedy wins ")
    args = ["greedy", "--against", "taker", "--jobs", "1", "--out", str(tmp_path / "g")]
    code, out, err = cli(capsys, "gauntlet", *args)
    assert code == 0, err
    assert out.splitlines()[: len(quoted)] == quoted


def test_the_quoted_sequential_gauntlet_is_what_it_prints(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    lines = _quoted_answer("$ leaves gauntlet ")
    command, quoted = lines[0].split()[3:], lines[1:]
    assert command == ["counter", "--against", "taker", "--sequential"]
    args = [*command, "--jobs", "1", "--out", str(tmp_path / "s")]
    code, out, err = cli(capsys, "gauntlet", *args)
    assert code == 0, err
    assert out.splitlines()[: len(quoted)] == quoted


def test_the_summary_has_the_columns_the_pages_example_names(tmp_path):
    """`res.summary()            # strategy, games, wins, win_rate, cards_left_mean, forfeits`."""
    from tournaments import Tournament

    page = doc_page(PAGE)
    said = re.search(r"^res\.summary\(\) +# (.*)$", page, flags=re.M)[1]
    res = Tournament(["greedy", "low", "high", "minimal"], players=4, games=96, seed=1).run(
        n_jobs=1, out=tmp_path / "a"
    )
    assert list(res.summary().columns) == [c.strip() for c in said.split(",")]
