"""Terminal rendering of a 13 Leaves position with rich, shared by ``play`` and ``replay``.

Everything here turns a ``State`` or a ``PlayerView`` (both expose the same public fields) into
rich renderables and plain sentences; nothing reads input or changes a game. Colour only adds
emphasis: the words ("left end", "passed", key numbers) carry the meaning on a plain terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from leaves import Action, Rules

END_STYLE = "bold black on yellow"
HAND_STYLE = "bold cyan"
KEY_STYLE = "bold green"

_COUNT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")


class Position(Protocol):
    """What rendering reads: the public fields ``State`` and ``PlayerView`` share."""

    n_players: int
    current_player: int
    turn: int
    round: int

    @property
    def stacks(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def ends(self) -> tuple[tuple[int, int], tuple[int, int]] | None: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def passed(self) -> tuple[bool, ...]: ...
    @property
    def known(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def removed(self) -> tuple[int, ...]: ...


# ----------------------------------------------------------------------------- words
def _n_cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def a_card(value: int) -> str:
    """'a 9', 'an 8', 'an 11'."""
    return f"{'an' if value in (8, 11) else 'a'} {value}"


def cards_phrase(count: int, value: int) -> str:
    """'a 6', 'three 6s'."""
    if count == 1:
        return a_card(value)
    word = _COUNT_WORDS[count] if count < len(_COUNT_WORDS) else str(count)
    return f"{word} {value}s"


def describe_action(action: Action, you: bool = False) -> str:
    """A verb phrase for the move log: 'plays three 6s', 'passes and takes a 9'.

    ``you=True`` conjugates for the human: 'play three 6s', 'pass and take a 9'.
    """
    s = "" if you else "s"
    if action.is_pass and action.taken is None:  # take=nothing: the pass takes no card
        return "pass" if you else "passes"
    if action.is_pass:
        return f"pass{'' if you else 'es'} and take{s} {a_card(action.value)}"
    return f"play{s} {cards_phrase(action.count, action.value)}"


def seat_label(seat: int, names: Sequence[str]) -> str:
    """'seat 2 (greedy)' or 'you (seat 0)'."""
    name = names[seat]
    return f"you (seat {seat})" if name == "you" else f"seat {seat} ({name})"


def counts_text(counts: Sequence[int], sep: str = " ") -> str:
    """Every card of a 13-count vector, lowest first: '2 2 5 6 6 6'; '-' when empty."""
    cards = [str(v + 1) for v, c in enumerate(counts) for _ in range(c)]
    return sep.join(cards) if cards else "-"


PASS_RULES = {
    "ends": " A pass takes a card of an end stack only (take=ends).",
    "nothing": " A pass takes no card (take=nothing).",
}
"""What a pass takes under the rule variants that change it, said after the ends' rule (a
replay shows it too, where nothing is typed: what to type is the legal moves' line)."""


def end_rules(
    ends: tuple[tuple[int, int], tuple[int, int]] | None, rules: Rules | None = None
) -> str:
    """The rule the ends impose on the next play, in a sentence or two; ``rules`` (today's
    when None) says whether a play needs the end's count and what a pass takes."""
    if ends is None:
        nothing = rules is not None and rules.take == "nothing"
        why = "no pass on an empty table" if nothing else "a pass needs a card to take"
        return f"Empty table: play any number of cards of one value ({why})."
    counted = rules is None or rules.min_count

    def need(size: int) -> str:
        return f" with at least {_n_cards(size)}" if counted else " (any number of cards)"

    (lv, ls), (rv, rs) = ends
    if lv == rv:
        rule = f"One stack ({cards_phrase(ls, lv)}): play any value{need(ls)}."
    else:
        rule = (
            f"Left end {lv} (size {ls}): play a value <= {lv}{need(ls)}. "
            f"Right end {rv} (size {rs}): play a value >= {rv}{need(rs)}."
        )
    if lv != rv and rv - lv > 1:
        middle = f"Value {lv + 1}" if rv - lv == 2 else f"Values {lv + 1}-{rv - 1}"
        rule += f" {middle}: never."
    return rule + PASS_RULES.get(rules.take if rules is not None else "any", "")


# ----------------------------------------------------------------------------- pieces
def table_row(stacks: Sequence[tuple[int, int]], ends) -> RenderableType:
    """The row of stacks, lowest value left: value, size, and which stacks are the ends."""
    if not stacks:
        return Text("(the table is empty)", style="dim")
    grid = Table(box=box.ROUNDED, show_header=False, padding=(0, 1))
    for _ in stacks:
        grid.add_column(justify="center", min_width=5)
    (lv, _), (rv, _) = ends
    values, sizes, marks = [], [], []
    for value, size in stacks:
        is_end = value in (lv, rv)
        style = END_STYLE if is_end else ""
        values.append(Text(str(value), style=style))
        sizes.append(Text(f"x{size}", style="bold" if is_end else "dim"))
        if lv == rv:
            marks.append(Text("both ends", style="yellow"))
        elif value == lv:
            marks.append(Text("left end", style="yellow"))
        elif value == rv:
            marks.append(Text("right end", style="yellow"))
        else:
            marks.append(Text(""))
    grid.add_row(*values)
    grid.add_row(*sizes)
    grid.add_row(*marks)
    return grid


def hand_text(hand: Sequence[int]) -> Text:
    """A hand as its cards grouped by value: '2 2  5  6 6 6  (6 cards)'."""
    groups = [" ".join([str(v + 1)] * c) for v, c in enumerate(hand) if c]
    text = Text("  ".join(groups) if groups else "(empty)", style=HAND_STYLE)
    n = sum(hand)
    text.append(f"   ({n} card{'s' if n != 1 else ''})", style="dim")
    return text


HEADERS = ("", "seat", "player", "cards", "this round", "hand", "known (taken)")
"""The seats table's columns ("hand" in replays only, where every hand is shown)."""


def seats_table(
    pos: Position,
    names: Sequence[str],
    hands: Sequence[Sequence[int]] | None = None,
) -> RenderableType:
    """Every seat: hand size, passed this round, cards publicly known in the hand (taken).

    ``hands`` (replays, where everything is shown) adds a column with every hand. A terminal
    too narrow for the table folds its cells onto more lines, never cuts one short (a name cut
    to "counter..." would no longer tell two seats apart); names and hands stay whole on a
    line where the table then fits."""
    return _Fitted(_seat_rows(pos, names, hands), hands is not None)


def _seat_rows(
    pos: Position, names: Sequence[str], hands: Sequence[Sequence[int]] | None
) -> list[list[str]]:
    """The table's cells, a row a seat: the turn mark, seat, player, cards, this round,
    the hand (with ``hands``), known."""
    over = getattr(pos, "is_terminal", False)
    rows = []
    for seat in range(pos.n_players):
        row = ["" if over or seat != pos.current_player else ">", str(seat), names[seat],
               str(pos.hand_sizes[seat]), "passed" if pos.passed[seat] else "in"]  # fmt: skip
        if hands is not None:
            row.append(counts_text(hands[seat]))
        row.append(counts_text(pos.known[seat]) if any(pos.known[seat]) else "")
        rows.append(row)
    return rows


class _Fitted:
    """The seats table, laid out when the console's width is known: names and hands whole on
    a line where every character of the table then shows, else wrapped (folded if need be)."""

    def __init__(self, rows: list[list[str]], hands: bool):
        self.rows, self.hands = rows, hands
        heads = [h for h in HEADERS if hands or h != "hand"]
        self.chars = sorted(c for text in heads + [x for r in self.rows for x in r]
                            for c in text if not c.isspace())  # fmt: skip

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table(whole=True)
        lines = console.render_lines(table, options, pad=False)
        shown = [c for line in lines for seg in line for c in seg.text]
        if sorted(c for c in shown if not c.isspace() and c != "─") != self.chars:
            table = self.table(whole=False)  # something was cut: wrap instead
        yield table

    def table(self, whole: bool) -> Table:
        """The table; ``whole``: its names and hands never wrapped."""
        t = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
        for head in HEADERS:
            if head != "hand" or self.hands:
                keep = whole and head in ("player", "hand")
                least = {"seat": 4, "cards": 5, "this round": len("passed")}.get(head)  # words
                t.add_column(head, justify="right" if head in ("seat", "cards") else "left",
                             no_wrap=keep, overflow="fold", min_width=least)  # fmt: skip
        for row in self.rows:
            styles = ["bold", "", "bold" if row[2] == "you" else "", "",
                      "red" if row[4] == "passed" else "green"]  # fmt: skip
            t.add_row(*(Text(x, style=st) for x, st in zip(row, styles, strict=False)),
                      *row[len(styles):])  # fmt: skip
        return t


def move_keys(legal: Sequence[Action]) -> dict[str, Action]:
    """Short keys for the legal moves: '1', '2', ... in the (ascending id) order given."""
    return {str(i + 1): a for i, a in enumerate(legal)}


def moves_table(legal: Sequence[Action], columns: int = 4) -> Table:
    """The legal moves with their keys, plays first then passes, in a few columns."""
    t = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    cells = []
    for key, action in move_keys(legal).items():
        cell = Text()
        cell.append(f"{key:>2}", style=KEY_STYLE)
        cell.append(f" {action}")
        cells.append(cell)
    columns = max(1, min(columns, len(cells)))
    for _ in range(columns):
        t.add_column()
    rows = (len(cells) + columns - 1) // columns
    for r in range(rows):
        # Fill column by column so the order reads downwards like a list.
        t.add_row(
            *[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(columns)]
        )
    return t


def removed_text(removed: Sequence[int]) -> Text | None:
    """Cards removed from the game at round ends, or None when there are none."""
    n = sum(removed)
    if not n:
        return None
    return Text(f"Out of the game ({n}): {counts_text(removed)}", style="dim")


def position(
    pos: Position,
    names: Sequence[str],
    hand: Sequence[int] | None = None,
    legal: Sequence[Action] | None = None,
    hands: Sequence[Sequence[int]] | None = None,
    title: str | None = None,
) -> Group:
    """The whole picture: title, table row, end rules, seats, removed cards, hand, moves."""
    parts: list[RenderableType] = []
    head = title or f"Turn {pos.turn + 1} - round {pos.round}"
    parts.append(Text(head, style="bold underline"))
    parts.append(Text("Table:", style="bold"))
    parts.append(table_row(pos.stacks, pos.ends))
    rules = getattr(pos, "rules", None)
    parts.append(Text(end_rules(pos.ends, rules), style="italic"))
    parts.append(seats_table(pos, names, hands=hands))
    gone = removed_text(pos.removed)
    if gone is not None:
        parts.append(gone)
    if hand is not None:
        line = Text("Your hand: ", style="bold")
        line.append_text(hand_text(hand))
        parts.append(line)
    if legal:
        passing = "pass" if rules is not None and rules.take == "nothing" else "take 9"
        parts.append(Text(f"Legal moves (type the key, or a move like '3x6' / '{passing}'):"))
        parts.append(moves_table(legal))
    return Group(*parts)
