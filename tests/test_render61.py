"""What ``leaves play``, ``leaves replay`` and their hints print at every width a terminal could
have, and in unusual positions: the row of stacks whole (every stack's value, size and end mark
rebuilt from what is printed, never a stack dropped or a number cut), and every sentence and
figure true to the position it speaks of."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from leaves import Rules, new_game
from leaves.commands import render
from leaves_cli.console import make_console
from tests.helpers import cli

WIDTHS = range(30, 121)
SOME_WIDTHS = (30, 33, 41, 52, 66, 80, 104, 105, 120)


def _printed(renderable, width: int) -> str:
    out = io.StringIO()
    make_console(file=out, width=width).print(renderable)
    return out.getvalue()


def _ok_lines(text: str, width: int) -> None:
    """Nothing cut by the console: no ellipsis, no line wider than the terminal."""
    assert "…" not in text, (width, text)
    assert all(len(line) <= width for line in text.splitlines()), (width, text)


# ----------------------------------------------------------------------------- the stacks row
def _truth(stacks, ends) -> list[tuple[str, str, str]]:
    """Each stack's value, size and end mark, lowest value first, from the position."""
    (lv, _), (rv, _) = ends
    marks = {lv: "left end", rv: "right end"} if lv != rv else {lv: "both ends"}
    return [(str(v), f"x{s}", marks.get(v, "")) for v, s in stacks]


def _grids(lines: list[str]) -> list[tuple[str, str, str]]:
    """The stacks of the grids printed in ``lines`` (one grid after another, nothing else), in
    order: a cell's value (first row), size (second row) and mark (the rows after, joined as
    its words fold). A grid cut short at the terminal's edge fails."""
    stacks: list[tuple[str, str, str]] = []
    rows: list[list[str]] = []
    for line in lines:
        line = line.rstrip()
        if line.startswith("╭"):
            assert line.endswith("╮"), f"a grid cut at the edge: {line!r}"
            rows = []
        elif line.startswith("│"):
            assert line.endswith("│"), f"a grid cut at the edge: {line!r}"
            rows.append([cell.strip() for cell in line.split("│")[1:-1]])
        else:
            assert line.startswith("╰") and line.endswith("╯"), f"not a grid's line: {line!r}"
            values, sizes, *marks = rows
            marks = [" ".join(filter(None, words)) for words in zip(*marks, strict=True)]
            stacks += list(zip(values, sizes, marks or [""] * len(values), strict=True))
    return stacks


def _row_lines(text: str) -> list[list[str]]:
    """Each printed position's lines of the stacks row: from 'Table:' to the ends' rule."""
    lines = text.splitlines()
    rows = []
    for i, line in enumerate(lines):
        if line == "Table:":
            end = next(j for j in range(i + 1, len(lines)) if lines[j][:1] not in ("╭", "│", "╰"))
            rows.append(lines[i + 1 : end] or [lines[end]])
    return rows


def _said(row: list[str]) -> list[tuple[str, str, str]] | str:
    return row[0] if row[0].startswith("(") else _grids(row)


ROWS = {  # 13 stacks with sizes of two digits, one stack, two, a middle
    "13a": tuple((v, 12 - v % 3 * 5) for v in range(1, 14)),
    "13b": tuple((v, 10 + v % 3) for v in range(1, 14)),
    "1": ((7, 12),),
    "2": ((3, 8), (11, 12)),
    "7": tuple((v, v) for v in range(4, 11)),
}


@pytest.mark.parametrize("stacks", ROWS.values(), ids=ROWS.keys())
def test_every_stack_of_the_row_is_printed_whole_at_every_width(stacks):
    ends = (stacks[0], stacks[-1])
    want = _truth(stacks, ends)
    for width in WIDTHS:
        text = _printed(render.table_row(stacks, ends), width)
        _ok_lines(text, width)
        assert _grids(text.splitlines()) == want, (width, text)


def test_the_row_takes_one_grid_where_it_fits_and_balanced_grids_where_not():
    stacks = tuple((v, 1) for v in range(1, 14))
    ends = (stacks[0], stacks[-1])
    # 13 columns at least 5 wide, a space each side and a border between: 13 * 8 + 1
    assert _printed(render.table_row(stacks, ends), 105).count("╭") == 1
    narrow = _printed(render.table_row(stacks, ends), 104)
    assert narrow.count("╭") == 2
    firsts = [line.count("│") - 1 for line in narrow.splitlines() if line.startswith("│ ")]
    assert sorted(set(firsts)) == [6, 7], narrow  # 7 stacks and 6, not 12 and 1
    grids = [line.count("│") - 1 for line in _printed(render.table_row(stacks, ends), 30)
             .splitlines() if line.startswith("│ ")][::3]  # fmt: skip
    assert grids == [3, 3, 3, 2, 2], grids  # 3 a grid at most: shared out, never 3 3 3 3 1
    three = (((3, 2), (7, 1), (8, 2)), ((3, 2), (8, 2)))
    assert _printed(render.table_row(*three), 30).count("╭") == 1  # a mark folds: one grid


def _spread(state):
    """A move that spreads the table: a new stack next to an end (the most cards), else onto
    an end (the most cards), else the first legal move."""
    legal = state.legal_actions()
    plays = [a for a in legal if not a.is_pass]
    values = [v for v, _ in state.stacks]
    new = [a for a in plays if a.value not in values]
    if state.ends and new:
        (lv, _), (rv, _) = state.ends
        return min(new, key=lambda a: (min(abs(a.value - lv), abs(a.value - rv)), -a.count,
                                       a.value))  # fmt: skip
    if new:
        return min(new, key=lambda a: (abs(a.value - 7), -a.count, a.value))
    return max(plays, key=lambda a: (a.count, a.value)) if plays else legal[0]


NAMES6 = ["spread"] + [f"counter:threat_weight={seat}.0" for seat in range(1, 6)]


@pytest.fixture(scope="module")
def spread_game(tmp_path_factory):
    """A 6-seat game (min_count=off) whose table grows to all 13 values, saved as a record."""
    from leaves.record import GameRecord

    initial = state = new_game(6, seed=3, rules=Rules.parse("min_count=off"))
    states = [state]
    while not state.is_terminal:
        state = state.apply(_spread(state))
        states.append(state)
    assert max(len(s.stacks) for s in states) == 13  # the truth the tests need
    record = GameRecord.from_states(initial, state, seed=None, strategies=tuple(NAMES6))
    path = tmp_path_factory.mktemp("spread") / "spread.jsonl"
    path.write_text(record.to_json() + "\n")
    return path, states


@pytest.mark.parametrize("width", SOME_WIDTHS)
def test_replay_prints_every_stack_of_every_position_at_any_width(
    spread_game, width, capsys, monkeypatch
):
    path, states = spread_game
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0 and err == "", err
    _ok_lines(out, width)
    said = [_said(row) for row in _row_lines(out)]
    want = [_truth(s.stacks, s.ends) if s.stacks else "(the table is empty)" for s in states]
    assert said == want, width


@pytest.mark.parametrize("width", SOME_WIDTHS)
def test_play_prints_every_stack_of_a_full_table_at_any_width(spread_game, width):
    import strategies
    from leaves.commands.play_loop import QuitGame, Seats, play_game

    _, states = spread_game
    state = next(s for s in states if len(s.stacks) == 13)
    human = state.current_player
    names = ["you" if seat == human else NAMES6[seat] for seat in range(6)]
    bots = [None if seat == human else strategies.get("greedy") for seat in range(6)]
    seats = Seats(names, bots, [np.random.default_rng(seat) for seat in range(6)])
    out = io.StringIO()
    with pytest.raises(QuitGame):
        play_game(make_console(file=out, width=width), state, seats, lambda prompt: "q")
    text = out.getvalue()
    _ok_lines(text, width)
    assert [_said(row) for row in _row_lines(text)] == [_truth(state.stacks, state.ends)]


# ----------------------------------------------------------------------------- the hint
def _positions_for_hints():
    """Positions of random play, 4 and 6 seats: plays to choose from, and passes (whose
    features have the longest names)."""
    import random

    for n, seed, moves in ((6, 3, 2), (6, 3, 7), (4, 5, 12)):
        state, rng = new_game(n, seed=seed), random.Random(1)
        for _ in range(moves):
            state = state.apply(rng.choice(state.legal_actions()))
        yield state


def test_the_hint_prints_every_word_of_its_explanation_whole_at_every_width():
    """weighted's table of contributions: each header word, move, score, feature name and
    figure printed whole at any width (rich cut 'contribution)' to 'contributio…' at 30)."""
    from collections import Counter

    import strategies
    from leaves.commands.hint import _describe, hint
    from leaves.players.builtin import BEST_HEURISTIC
    from reports.numbers import fixed

    for state in _positions_for_hints():
        view = state.view(state.current_player)
        shown = hint(view, np.random.default_rng(0))
        scored = strategies.get(BEST_HEURISTIC).explain(view)[:3]
        words = ["move", "score", "because", "(feature", "=", "value:", "contribution)"]
        for s in scored:
            words += [*_describe(s.action).split(), fixed(s.score, 2)]
            words += " ".join(f"{k} = {s.features[k]:g}: {fixed(c, 2, '+')}"
                              for k, c in s.contributions.items() if c).split()  # fmt: skip
        for width in WIDTHS:
            text = _printed(shown, width)
            _ok_lines(text, width)
            printed = Counter(text.replace(",", " ").split())
            missing = Counter(w.rstrip(",") for w in words) - printed
            assert not missing, (width, missing, text)


# ----------------------------------------------------------------------------- expert scores
def test_the_expert_scores_show_every_name_and_figure_whole_at_every_width():
    """The scores of an expert match: rich cut the names to 'counter:…' (six seats alike, then)
    and the headers to 'pla…' below about 60 columns; a name then folded inside itself. Now
    every name is whole on a line: in the table where it fits so, else a line a seat."""
    from leaves.commands.play_output import scores_table

    class Match:  # what scores_table reads of a match
        games, totals = 3, [5, 12, 20, 7, 3, 0]

    last = [0, 3, 8, 2, 1, 0]
    want = [[str(s), NAMES6[s], str(last[s]), str(Match.totals[s])] for s in range(6)]
    tables = []
    for width in WIDTHS:
        text = _printed(scores_table(Match, NAMES6, last), width)
        _ok_lines(text, width)
        lines = text.splitlines()
        assert lines[0].strip() == "Scores after game 3", (width, text)
        assert all(any(name in line for line in lines) for name in NAMES6), (width, text)
        if not any("───" in line for line in lines):  # a line a seat
            said = " ".join(text.split())
            for seat, name, game, total in want:
                assert f"seat {seat} ({name}): {game} this game, {total} in all" in said, text
            continue
        tables.append(width)
        rule = next(i for i, line in enumerate(lines) if "───" in line)
        heads = " ".join(lines[1:rule]).split()
        assert sorted(heads) == sorted(["seat", "player", "this", "game", "total"]), (width, text)
        rows = [line.split() for line in filter(str.strip, lines[rule + 1 :])]
        assert rows == want, (width, text)
    # the least table: the longest name (25) and the other columns' longest words, with
    # their padding and dividers (11)
    assert tables == list(range(4 + 25 + 4 + 5 + 11, WIDTHS.stop))


# ----------------------------------------------------------------------------- a game's end
@pytest.mark.parametrize("limit", [None, 5], ids=["won", "turn-limit"])
def test_a_replay_states_no_rule_for_a_next_play_after_the_game_ended(tmp_path, capsys, limit):
    """The last position of a replay: the game is over, so nothing may be played next (the
    replay said 'One stack (two 7s): play any value with at least 2 cards.' under it)."""
    import strategies
    from leaves.record import replay

    rules = f"turn_limit={limit}" if limit else None
    record = strategies.play_game(["greedy", "random", "weighted"], seed=2, record=True,
                                  rules=rules).record  # fmt: skip
    final = replay(record)[-1]
    assert final.is_terminal and (final.winner is None) == (limit is not None)
    path = tmp_path / "game.jsonl"
    path.write_text(record.to_json() + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0 and err == "", err
    last = out.split(f"Turn {final.turn}:")[1]
    rule = render.end_rules(final.ends, final.rules)
    assert rule not in " ".join(last.split()), last
    assert not re.search(r"\bplay\b", last.split("Table:")[1].split("Result:")[0]), last
    before = out.split(f"Turn {final.turn}:")[0].split("Table:")[-1]
    assert render.end_rules(replay(record)[-2].ends, final.rules) in " ".join(before.split())


# ----------------------------------------------------------------------------- typed moves
def test_a_position_with_one_legal_move_names_its_one_key():
    """'the keys are 1 to 1' spoke of keys that are not there: one move has the key 1."""
    from leaves.commands.moves import MoveError, parse_move
    from tests.helpers import counts, position

    state = position([counts(v5=1), counts(v3=2), counts(v9=3)], current=0)
    assert len(state.legal_actions()) == 1  # an empty table and a hand of one card
    with pytest.raises(MoveError, match=r"^No move has the key 7: the key is 1\.$"):
        parse_move("7", state)
    with pytest.raises(MoveError, match=r"type the key \(1\), a play like"):
        parse_move("zz", state)
    many = new_game(4, seed=3)
    n = len(many.legal_actions())
    with pytest.raises(MoveError, match=rf"^No move has the key 99: the keys are 1 to {n}\.$"):
        parse_move("99", many)
    with pytest.raises(MoveError, match=rf"type a key \(1 to {n}\), a play like"):
        parse_move("zz", many)


# ----------------------------------------------------------------------------- legal moves
def test_every_legal_move_stays_on_one_line_with_its_key_at_every_width():
    """A hand of 20 cards (20 plays to list) and a position with passes: at 30 columns the
    four columns of moves folded ' 1' / 'play' / '1x2' onto three lines, a key apart from its
    move ('2 play   4' over '3x2      pass,'); now as many columns as fit, a move whole."""
    positions = [new_game(3, seed=1, rules=Rules.parse("hand_size=20"))]
    positions += list(_positions_for_hints())
    for state in positions:
        legal = state.legal_actions()
        for width in WIDTHS:
            text = _printed(render.moves_table(legal), width)
            _ok_lines(text, width)
            for key, action in render.move_keys(legal).items():
                said = f"{key:>2} {action}"
                assert any(said in line for line in text.splitlines()), (width, said, text)
            # listed in order down each column: the keys of each line rise across it
            for line in text.splitlines():
                keys = [int(k) for k in re.findall(r"(?:^|\s)(\d+) (?:play|pass)", line)]
                assert keys == sorted(keys), (width, text)
        assert len(_printed(render.moves_table(legal), 120).splitlines()) == -(-len(legal) // 4)
