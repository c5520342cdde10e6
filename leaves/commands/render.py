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
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from leaves import Action, Rules
from leaves_cli.fitted import FittedTable, share_widths

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


def cards_text(counts: Sequence[int], sep: str = " ") -> str:
    """Every card of a 13-count vector, lowest first: '2 2 5 6 6 6'; '-' when empty."""
    cards = [str(v + 1) for v, c in enumerate(counts) for _ in range(c)]
    return sep.join(cards) if cards else "-"


def at_turn_limit(limit: int) -> str:
    """'unfinished at the turn limit (1,000 turns)': how ``play`` and ``replay`` say a game
    that the turn limit ended."""
    from reports.numbers import counted  # start-up: only when a game ends so

    return f"unfinished at the turn limit ({counted(limit, 'turn')})"


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


def typed_pass(rules: Rules | None) -> str:
    """A pass as a person types it, the example the legal moves' line and a move not read
    give: 'pass' under take=nothing (a pass takes no card), else 'take 9'."""
    return "pass" if rules is not None and rules.take == "nothing" else "take 9"


# ----------------------------------------------------------------------------- pieces
def table_row(stacks: Sequence[tuple[int, int]], ends) -> RenderableType:
    """The row of stacks, lowest value left: value, size, and which stacks are the ends. A
    terminal too narrow for the row shows it as several grids, one under another (the fewest
    that fit, sharing the stacks evenly): never a stack dropped or a number cut; a mark may
    fold at its space ("left" over "end")."""
    if not stacks:
        return Text("(the table is empty)", style="dim")
    (lv, _), (rv, _) = ends
    cells = []
    for value, size in stacks:
        is_end = value in (lv, rv)
        mark = "both ends" if lv == rv else {lv: "left end", rv: "right end"}.get(value, "")
        cells.append((Text(str(value), style=END_STYLE if is_end else ""),
                      Text(f"x{size}", style="bold" if is_end else "dim"),
                      Text(mark, style="yellow")))  # fmt: skip
    return _Row(cells)


_STACK_WIDTH = 5
"""The least width of a stack's column."""


class _Row:
    """The row of stacks, laid out when the console's width is known: the fewest grids whose
    columns fit at their least width (5, or a mark's longest word)."""

    def __init__(self, cells: list[tuple[Text, Text, Text]]):
        self.cells = cells
        words = [[len(w) for t in cell for w in t.plain.split()] for cell in cells]
        self.least = [max(_STACK_WIDTH, *lengths) for lengths in words]
        self.natural = [max(_STACK_WIDTH, *(len(t.plain) for t in cell)) for cell in cells]

    @staticmethod
    def room(width: int, columns: int) -> int:
        """What ``columns`` columns' text may take of ``width``: a space each side of a
        column, a border between two and at each edge (box.ROUNDED)."""
        return width - (3 * columns + 1)

    def spans(self, width: int) -> list[range]:
        """The stacks of each grid: the fewest grids that fit, with as many stacks each (the
        first ones one more, where they cannot share them evenly)."""
        n = len(self.cells)
        for grids in range(1, n + 1):
            size, more = divmod(n, grids)
            starts = [i * size + min(i, more) for i in range(grids + 1)]
            spans = [range(a, b) for a, b in zip(starts, starts[1:], strict=False)]
            if all(sum(self.least[i] for i in s) <= self.room(width, len(s)) for s in spans):
                return spans
        return [range(i, i + 1) for i in range(n)]  # not even a stack a grid fits

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for span in self.spans(options.max_width):
            least = [self.least[i] for i in span]
            natural = [self.natural[i] for i in span]
            grid = Table(box=box.ROUNDED, show_header=False, padding=(0, 1))
            for w in share_widths(least, natural, self.room(options.max_width, len(span))):
                grid.add_column(justify="center", width=w)
            for row in range(3):
                grid.add_row(*(self.cells[i][row] for i in span))
            yield grid


def hand_text(hand: Sequence[int]) -> Text:
    """A hand as its cards grouped by value: '2 2  5  6 6 6  (6 cards)'."""
    groups = [" ".join([str(v + 1)] * c) for v, c in enumerate(hand) if c]
    text = Text("  ".join(groups) if groups else "(empty)", style=HAND_STYLE)
    n = sum(hand)
    text.append(f"   ({n} card{'s' if n != 1 else ''})", style="dim")
    return text


HEADERS = ("", "seat", "player", "cards", "this round", "hand", "known (taken)")
"""The seats table's columns ("hand" in replays only, where every hand is shown)."""
_RIGHT = ("seat", "cards")
"""The columns set to the right (counts)."""


def seats_table(
    pos: Position,
    names: Sequence[str],
    hands: Sequence[Sequence[int]] | None = None,
) -> RenderableType:
    """Every seat: hand size, passed this round, cards publicly known in the hand (taken).

    ``hands`` (replays, where everything is shown) adds a column with every hand. A terminal
    too narrow for the table folds its cells onto more lines, never cuts one short (a name cut
    to "counter..." would no longer tell two seats apart, a 10 cut to "1" would be another
    card); one too narrow even for that shows a plain line a seat."""
    return _Fitted(_seat_rows(pos, names, hands), names, hands is not None)


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
            row.append(cards_text(hands[seat]))
        row.append(cards_text(pos.known[seat]) if any(pos.known[seat]) else "")
        rows.append(row)
    return rows


class _Fitted(FittedTable):
    """The seats table (names and hands whole on a line where the table then fits); a console
    narrower than the least table shows a plain line a seat instead."""

    RIGHT, WHOLE = _RIGHT, ("player", "hand")

    def __init__(self, rows: list[list[str]], names: Sequence[str], hands: bool):
        super().__init__([h for h in HEADERS if hands or h != "hand"], rows)
        self.names = names

    def styles(self, row: list[str]) -> list[str]:
        return ["bold", "", "bold" if row[2] == "you" else "", "",
                "red" if row[4] == "passed" else "green"] + [""] * (len(row) - 5)  # fmt: skip

    def lines(self, console: Console, width: int) -> Table:
        """A plain line a seat, ``width`` wide, folded under its words: '> seat 2 (greedy): 11
        cards, passed this round, hand 2 5 10, known (taken) 10' (the hand in replays, known
        cards where there are any)."""
        grid = Table.grid()
        grid.add_column(width=2, no_wrap=True)  # the turn mark
        grid.add_column(overflow="fold")  # a name wider than the console folds, never cut
        for mark, seat, _, cards, this_round, *shown in self.rows:
            passed = this_round == "passed"
            line = Text(f"{seat_label(int(seat), self.names)}: {_n_cards(int(cards))}, ")
            line.append(f"{'passed' if passed else 'still in'} this round",
                        style="red" if passed else "green")  # fmt: skip
            *hand, known = shown
            if hand and hand[0] != "-":
                line.append(f", hand {hand[0]}")
            if known:
                line.append(f", known (taken) {known}")
            grid.add_row(Text(mark, style="bold"), hanging(console, line, width - 2))
        return grid


def hanging(console: Console, line: Text, width: int) -> RenderableType:
    """``line`` folded ``width`` wide between its words, the lines after the first indented
    under it: a seat's line where its table cannot fit (the seats', the scores')."""
    first = line.wrap(console, max(1, width), overflow="fold")[0]
    rest = line[len(first.plain) :]  # what the first line leaves, indented under it
    rest = rest[len(rest.plain) - len(rest.plain.lstrip()) :]
    return Group(first, Padding(rest, (0, 0, 0, 2))) if rest.plain else first


def move_keys(legal: Sequence[Action]) -> dict[str, Action]:
    """Short keys for the legal moves: '1', '2', ... in the (ascending id) order given."""
    return {str(i + 1): a for i, a in enumerate(legal)}


def moves_table(legal: Sequence[Action], columns: int = 4) -> RenderableType:
    """The legal moves with their keys, plays first then passes, in a few columns: at most
    ``columns``, as many as fit the terminal with every move whole on a line with its key."""
    cells = []
    for key, action in move_keys(legal).items():
        cell = Text()
        cell.append(f"{key:>2}", style=KEY_STYLE)
        cell.append(f" {action}")
        cells.append(cell)
    return _Moves(cells, columns)


class _Moves:
    """The moves' cells in columns, as many as the console's width fits (a cell and the two
    spaces after it as wide as the widest)."""

    def __init__(self, cells: list[Text], columns: int):
        self.cells, self.columns = cells, columns

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cells = self.cells
        fit = options.max_width // (max(len(c) for c in cells) + 2) if cells else 1
        columns = max(1, min(self.columns, len(cells), fit))
        t = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
        for _ in range(columns):
            t.add_column()
        rows = (len(cells) + columns - 1) // columns
        for r in range(rows):
            # Fill column by column so the order reads downwards like a list.
            t.add_row(
                *[cells[c * rows + r] if c * rows + r < len(cells) else "" for c in range(columns)]
            )
        yield t


def removed_text(removed: Sequence[int]) -> Text | None:
    """Cards removed from the game at round ends, or None when there are none."""
    n = sum(removed)
    if not n:
        return None
    return Text(f"Out of the game ({n}): {cards_text(removed)}", style="dim")


def position(
    pos: Position,
    names: Sequence[str],
    hand: Sequence[int] | None = None,
    legal: Sequence[Action] | None = None,
    hands: Sequence[Sequence[int]] | None = None,
    title: str | None = None,
) -> Group:
    """The whole picture: title, table row, end rules (what the next play may be: none once
    the game is over), seats, removed cards, hand, moves."""
    parts: list[RenderableType] = []
    head = title or f"Turn {pos.turn + 1} - round {pos.round}"
    parts.append(Text(head, style="bold underline"))
    parts.append(Text("Table:", style="bold"))
    parts.append(table_row(pos.stacks, pos.ends))
    rules = getattr(pos, "rules", None)
    if not getattr(pos, "is_terminal", False):  # a game over has no next play
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
        passing = typed_pass(rules)
        parts.append(Text(f"Legal moves (type the key, or a move like '3x6' / '{passing}'):"))
        parts.append(moves_table(legal))
    return Group(*parts)
