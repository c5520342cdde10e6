"""The seats table of ``leaves play`` and ``leaves replay`` at every width a terminal could
have: every cell (a seat, a name, a count, a card) rebuilt from what is printed, never a card
cut ("10" shown as "1") or a column dropped; a console too narrow for the table shows a plain
line a seat. And a game's end said one way by both commands."""

from __future__ import annotations

import io
import random
import re

import pytest

NAMES = ["you"] + [f"counter:threat_weight={seat}.0" for seat in range(1, 6)]
"""Six seats, five named alike but for their last characters."""


def _position():
    """A 6-seat position of random play with long lists of known cards, a 10 among them, some
    seats passed and some still in."""
    from leaves import new_game
    from leaves.commands.render import cards_text

    for seed in range(50):
        state, rng = new_game(6, seed=seed), random.Random(seed)
        while not state.is_terminal:
            known = [cards_text(k).split() for k in state.known]
            if (max(map(len, known)) >= 4 and any("10" in k for k in known)
                    and any(state.passed) and not all(state.passed)):  # fmt: skip
                return state
            state = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in 50 games")


def _printed(state, width: int, hands: bool, names: list[str] = NAMES) -> str:
    from leaves.commands import render
    from leaves_cli.console import make_console

    out = io.StringIO()
    table = render.seats_table(state, names, hands=state.hands if hands else None)
    make_console(file=out, width=width).print(table)
    return out.getvalue()


def _truth(state, hands: bool) -> list[dict]:
    """What each seat's cells say, from the position itself."""
    from leaves.commands.render import cards_text

    return [{"mark": ">" if seat == state.current_player else "", "seat": str(seat),
             "player": NAMES[seat], "cards": str(state.hand_sizes[seat]),
             "round": "passed" if state.passed[seat] else "in",
             "hand": cards_text(state.hands[seat]) if hands else None,
             "known": cards_text(state.known[seat]) if any(state.known[seat]) else ""}
            for seat in range(state.n_players)]  # fmt: skip


def _table_cells(text: str, hands: bool) -> tuple[list[str], list[dict]]:
    """The headers and each row's cells of a printed table, a cell's lines joined as its text
    folds: a name's with nothing (a name is one word), the others' with a space."""
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if "───" in line)

    def at(word: str, end: bool = False) -> int:  # where a header word starts (or ends)
        found = [m for line in lines[:rule] if (m := re.search(rf"(?<!\S){re.escape(word)}", line))]
        assert found, f"the header {word!r} is not printed whole:\n{text}"
        return found[0].end() if end else found[0].start()

    # the seat and cards columns are set right: their header's end is their column's end
    starts = [at("this")] + ([at("hand")] if hands else []) + [at("known")]
    spans = [(0, at("seat", end=True)), (at("player"), at("cards", end=True))]
    spans += list(zip(starts, starts[1:] + [None], strict=True))
    gaps = [(spans[0][1], spans[1][0]), (spans[1][1], spans[2][0])]  # blank between columns

    def parts(line: str) -> list[str]:
        assert not "".join(line[a:b] for a, b in gaps).strip(), f"outside a column: {line!r}"
        return [line[a:b].strip() for a, b in spans]

    header = zip(*map(parts, lines[:rule]), strict=True)
    headers = [" ".join(" ".join(col).split()) for col in header]
    rows: list[dict] = []
    for line in filter(str.strip, lines[rule + 1 :]):
        mark_seat, player_cards, *rest = parts(line)
        if any(c.isdigit() for c in mark_seat):  # a seat's first line
            *mark, seat = mark_seat.split()
            name, cards = player_cards.split()
            rows.append({"mark": "".join(mark), "seat": seat, "player": name, "cards": cards,
                         "more": [[p] for p in rest]})  # fmt: skip
        else:
            assert not mark_seat and not player_cards, line  # a name never folds in the table
            for col, p in zip(rows[-1]["more"], rest, strict=True):
                col.append(p)
    for row in rows:
        more = [" ".join(p for p in col if p) for col in row.pop("more")]
        row["round"], row["known"] = more[0], more[-1]
        row["hand"] = more[1] if hands else None
    return headers, rows


def _label(seat: dict) -> str:
    return "you (seat 0)" if seat["player"] == "you" else f"seat {seat['seat']} ({seat['player']})"


def _sentence(seat: dict) -> str:
    """A seat's plain line, as its cells say it."""
    label = _label(seat)
    n = int(seat["cards"])
    said = f"{label}: {n} card{'s' if n != 1 else ''}, "
    said += "passed this round" if seat["round"] == "passed" else "still in this round"
    said += f", hand {seat['hand']}" if seat["hand"] not in (None, "-") else ""
    return said + (f", known (taken) {seat['known']}" if seat["known"] else "")


def _lines_rebuilt(text: str, truth: list[dict]) -> None:
    """Each seat's plain line rebuilt from its printed lines: a line ends at a space between
    two words, or inside the seat's name where the name is wider than the line (never inside
    a card or a count); the turn mark before the current seat's."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    starts = [i for i, line in enumerate(lines) if not line.startswith("    ")]
    assert len(starts) == len(truth), text
    for seat, a, b in zip(truth, starts, starts[1:] + [len(lines)], strict=True):
        want, label_end = _sentence(seat), len(_label(seat)) + 1  # with its colon
        assert lines[a][:2] == f"{seat['mark']:<2}", text
        said = lines[a][2:]
        for line in lines[a + 1 : b]:
            part = line.strip()
            if want.startswith(f"{said} {part}"):
                said = f"{said} {part}"
            else:
                assert len(said) < label_end and want.startswith(said + part), (said, part, text)
                said += part
        assert said == want, text


@pytest.mark.parametrize("hands", [False, True], ids=["play", "replay"])
def test_every_cell_of_the_seats_table_is_printed_whole_at_every_width(hands):
    from leaves.commands.render import HEADERS

    state = _position()
    truth = _truth(state, hands)
    heads = [h for h in HEADERS if h and (hands or h != "hand")]
    tables = []
    for width in range(30, 121):
        text = _printed(state, width, hands)
        assert "…" not in text, (width, text)
        assert all(len(line) <= width for line in text.splitlines()), (width, text)
        if "───" in text:
            tables.append(width)
            headers, rows = _table_cells(text, hands)
            assert headers == ["seat", "player cards", *heads[3:]], (width, text)
            assert rows == truth, (width, text)
        else:
            _lines_rebuilt(text, truth)
    # the table from the least width its words need (every name whole: 25 characters, 19
    # more than the doc's 6), plain lines below
    assert tables == list(range((46 if not hands else 53) + 19, 121)), tables


def test_the_widths_docs_cli_gives_for_the_plain_lines_are_the_tables_least():
    from pathlib import Path

    state = _position()  # a seat passed: "passed" is this round's widest word

    def least(name: str) -> list[int]:
        names = ["you"] + [name] * 5
        return [next(w for w in range(30, 121) if "───" in _printed(state, w, hands, names))
                for hands in (False, True)]  # fmt: skip

    short, weighted, hard = least("greedy"), least("weighted"), least("ismcts(preset=strong)")
    assert least("counter:threat_weight=1.0") == [short[0] + 19, short[1] + 19]  # 25 - 6
    assert weighted == [short[0] + 2, short[1] + 2] and hard == [short[0] + 15, short[1] + 15]
    docs = " ".join((Path(__file__).parents[1] / "docs" / "cli.md").read_text().split())
    assert (f"(under about {short[0]} columns, one more for each character of the longest name "
            f"past 6: {weighted[0]} against `weighted`, {hard[0]} against `--level hard`'s "
            f"`ismcts(preset=strong)`; a replay's, with every hand, {short[1] - short[0]} more: "
            f"{short[1]}, {weighted[1]}, {hard[1]}) shows a line a seat instead: `> seat 2 "
            "(greedy): 11 cards, passed this round, known (taken) 3 10`") in docs, (short, weighted, hard)  # fmt: skip
    seat = {"player": "greedy", "seat": "2", "cards": "11", "round": "passed", "hand": None,
            "known": "3 10"}  # fmt: skip
    assert _sentence(seat) == "seat 2 (greedy): 11 cards, passed this round, known (taken) 3 10"


def test_a_wide_terminal_shows_names_and_hands_on_one_line_each():
    state = _position()
    text = _printed(state, 120, hands=True)
    for name in NAMES[1:]:
        assert name in text, text
    from leaves.commands.render import cards_text

    for hand in state.hands:
        assert cards_text(hand) in text, text


def test_the_plain_lines_say_each_seat_in_words():
    from leaves import new_game

    state = new_game(4, seed=3)
    text = _printed(state, 40, hands=True)
    first, n = state.current_player, state.hand_sizes[state.current_player]
    said = " ".join(text.split())
    assert f"> seat {first} ({NAMES[first]}): {n} cards, still in this round, hand" in said, text
    assert "known (taken)" not in said  # nothing is known of a fresh deal
    short = _printed(new_game(3, seed=1), 43, hands=False, names=["a", "b", "c"])
    assert short.splitlines() == ["  seat 0 (a): 12 cards, still in this round",
                                  "  seat 1 (b): 12 cards, still in this round",
                                  "> seat 2 (c): 12 cards, still in this round"], short  # fmt: skip


# ----------------------------------------------------------------------------- the turn limit
def test_play_and_replay_say_the_turn_limit_alike():
    """A game the turn limit ended: play's sentence and replay's result say it alike, the
    limit counted in turns ('1,000 turns', '2 turns')."""
    import strategies
    from leaves.commands.play_output import show_result
    from leaves.commands.render import at_turn_limit
    from leaves.commands.replay_view import _outcome
    from leaves.record import replay
    from leaves_cli.console import make_console

    assert at_turn_limit(1000) == "unfinished at the turn limit (1,000 turns)"
    assert at_turn_limit(1) == "unfinished at the turn limit (1 turn)"
    record = strategies.play_game(["greedy"] * 3, seed=2, record=True,
                                  rules="turn_limit=2").record  # fmt: skip
    final = replay(record)[-1]
    assert final.winner is None and final.turn == 2  # the truth: the limit ended it
    names = ["you", "greedy", "greedy"]
    out = io.StringIO()
    show_result(make_console(file=out, width=100), final, names)
    played = " ".join(out.getvalue().split())
    assert "The game stopped unfinished at the turn limit (2 turns)." in played, played
    assert _outcome(record, final, names) == "unfinished at the turn limit (2 turns)"


# ----------------------------------------------------------------------------- a blank reason
def test_a_record_stopped_with_a_blank_reason_is_said_stopped_not_at_the_turn_limit():
    from leaves import new_game
    from leaves.commands.replay_view import _outcome

    initial = new_game(4, seed=1)
    state = initial
    for _ in range(5):
        state = state.apply(state.legal_actions()[0])

    class Record:  # a record as the viewer reads it, its reason blank (the record's own
        # check may refuse such a line: the viewer still never calls it the turn limit
        forfeit_seat, error, stopped = None, None, ""

    said = _outcome(Record(), state, ["a", "b", "c", "d"])
    assert said == "unfinished (after 5 turns)", said  # stopped, for a reason it does not give
