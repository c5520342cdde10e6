"""Options several commands share, declared once so their flags and help stay the same, and
the parsing and completion of their strategy lists.

Imports inside functions: start-up (the registry loads only to complete a strategy name).
"""

from __future__ import annotations

import importlib
import itertools
import math
import os
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import click

from gamekit.errors import shown
from gamekit.text import printable
from gamekit.whole import other_form, other_spelling, read_whole

from .errors import CLIError


def is_empty_name(value: Any) -> bool:
    """``value`` names no file or folder: an empty name, or one of spaces only (a name the
    path would read as the current folder, or as nothing given)."""
    return isinstance(value, str) and not value.strip()


def empty_name(where: str, noun: str) -> str:
    """The one line that says ``where`` (a flag, an argument, a config file's key) was given
    an empty name for a ``noun`` ("file", "directory")."""
    return f"{where}: an empty name was given, not a {noun}"


def taken(flag: str, value: int, whose: str = "the default") -> str:
    """How a one-line error names a value no one gave: whose it is before the flag it stands
    for ("the default --games (100,000)", "the resumed run's --games (60)"), never the flag
    alone, as if it had been typed."""
    return f"{whose} {flag} ({value:,})"


def either(words: Sequence[str]) -> str:
    """Alternatives in words: "html or md", "balanced, all or rotations"."""
    return " or ".join(", ".join(words).rsplit(", ", 1))


def flag_of(param: click.Parameter | None) -> str:
    """How a message names ``param``: an option by its long flag (``--players``, not ``-n``),
    an argument by the name its usage line shows."""
    if isinstance(param, click.Option):
        return next((o for o in param.opts if o.startswith("--")), param.opts[0])
    return param.human_readable_name if param is not None else "a value"


def beyond_float(value: Any) -> str:
    """Why the typed ``value`` names a number that a float cannot hold, in words ('' where it
    can, or it is no number): one so close to 0 that it reads as 0 (1e-400), or one so large
    that it reads as infinity (1e400), which a check would then judge as if it were typed."""
    if not isinstance(value, str):
        return ""
    try:
        number, exact = float(value), Decimal(value.strip())
    except (ValueError, ArithmeticError):
        return ""
    if number == 0 and exact != 0:
        return "a number too close to 0 to be held apart from it (it would read as 0)"
    if math.isinf(number) and exact.is_finite():
        sign = "minus " if number < 0 else ""
        return f"a number too large to be held (it would read as {sign}infinity)"
    return ""


class _InWords:
    """A number type whose bounds (``min``, ``max``: either open when None; both excluded
    where ``exclusive``) are said in words in the help (``[0 or more]``) and in the one line
    that refuses another value (``--game takes a whole number 0 or more, got 'x'``), not as
    click's ``x>=0``. A bounded number is never NaN (click's range lets it through)."""

    min: Any
    max: Any
    min_open: bool
    noun = "a number"
    parse: Any = float

    def __init__(self, least: Any = None, most: Any = None, *, exclusive: bool = False) -> None:
        # click's IntRange or FloatRange, after this
        super().__init__(min=least, max=most, min_open=exclusive, max_open=exclusive)

    @property
    def bounds(self) -> str:
        """The numbers taken, in words: "0 or more", "from 1 to 1000", "9 or less"; excluded:
        "above 0 and below 1"."""
        least, most = self.min, self.max
        if self.min_open:
            ends = (f"above {least}" if least is not None else "",
                    f"below {most}" if most is not None else "")  # fmt: skip
            return " and ".join(filter(None, ends))
        if least is not None and most is not None:
            return str(least) if least == most else f"from {least} to {most}"
        if least is not None:
            return f"{least} or more"
        return "" if most is None else f"{most} or less"

    def _describe_range(self) -> str:  # the help's [...] after the option
        return self.bounds

    def takes(self) -> str:
        """What the line refusing a value says the option takes: the noun and its bounds."""
        return " ".join(filter(None, (self.noun, self.bounds)))

    def typed_otherwise(self, value: Any) -> str:
        """Why the typed ``value``, a number to Python, is not one as typed ('' where it is): a
        spelling of other digits or with '_' (``other_spelling``), and for a whole number a form
        other than its own (``09``, ``+9``, ``-0``: ``other_form``, with the form to write where
        it is in the bounds), as ``--rules`` refuses them: one rule for every typed number."""
        spelled = other_spelling(value, self.parse)
        if spelled or self.parse is not int:
            return spelled
        least = self.min if self.min is not None else getattr(self, "written_from", None)
        return other_form(value, (least, self.max))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        takes = self.takes()
        unheld = beyond_float(value) if self.parse is float else ""
        typed = self.typed_otherwise(value)
        if typed or unheld:  # refused as typed: '١٢' is not 12, 1e-400 not the 0.0 it reads as
            text = str(value).strip()  # a number in another form (09) as typed, quoted
            got = shown(text, typed=False) if typed else _as_typed(text, number=True)
            why = typed or unheld
            raise click.UsageError(f"{flag_of(param)} takes {takes}, got {got}, {why}", ctx)
        try:
            number = super().convert(value, param, ctx)
            if number == number or (self.min is None and self.max is None):
                return number
        except click.BadParameter:
            pass
        text = str(value).strip()  # a number out of bounds, as typed
        try:
            self.parse(text)
        except ValueError:  # no number of the kind (or past the digits Python reads)
            got = _as_typed(text, number=False)
        else:
            got = _as_typed(text, number=True)
        raise click.UsageError(f"{flag_of(param)} takes {takes}, got {got}", ctx)


def _as_typed(text: str, *, number: bool) -> str:
    """The typed ``text`` for the line refusing it, cut the one way (``shown``): a whole
    number by its value (too long for the line: by its digits, even past those ``int``
    reads), another ``number`` as typed, other text quoted; either cut at the line's width."""
    if (whole := read_whole(text)) is not None:  # read past the 4,300 digits int() reads
        return shown(whole, typed=False)
    quoted = shown(text, typed=False)
    return text if number and quoted == repr(text) else quoted


class WholeNumber(_InWords, click.IntRange):
    """A whole number from ``least`` to ``most`` (either open when None), said in words;
    ``written_from``: where it takes any (a check after it refuses some), the least a number
    in another form (``-0``, ``00``) is advised to be written as (1, a count's; None: any)."""

    name = "integer"
    noun = "a whole number"
    parse = int

    def __init__(self, least: Any = None, most: Any = None, *, exclusive: bool = False,
                 written_from: int | None = 1) -> None:  # fmt: skip
        super().__init__(least, most, exclusive=exclusive)
        self.written_from = written_from


class Jobs(WholeNumber):
    """--jobs, whose number in another form is advised in its own only where that names
    players (``names_players``): ``-01`` is -1, one a core; ``-0`` names none."""

    def typed_otherwise(self, value: Any) -> str:
        said = super().typed_otherwise(value)
        head, _, own = said.partition(": write ")
        return said if not own or names_players(int(own)) else head


class Count(WholeNumber):
    """A count of at least ``least`` (games, samples), refused in the words the library and
    every command use for a count, whichever command reads it: below its least as
    ``--games must be at least 1, got 0`` (as ``ParameterError`` words it, named by the
    flag), and no whole number as ``--games takes a whole number, got 'x'``."""

    def __init__(self, least: int) -> None:
        super().__init__(least)

    def takes(self) -> str:
        return self.noun  # its least is said when a number below it is given

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.UsageError:
            typed = str(value).strip()
            number = None if self.typed_otherwise(value) else read_whole(typed)
            if number is None or number >= self.min:
                raise
        from .errors import CLIError  # only a refusal needs it

        got = shown(number, typed=False)
        raise CLIError(f"{flag_of(param)} must be at least {self.min}, got {got}", usage=True)


class Number(_InWords, click.FloatRange):
    """A number (a fraction allowed) from ``least`` to ``most``, said in words."""

    name = "number"


class OneOf(click.Choice):
    """One word of ``choices``, another refused in the one line every option says
    (``--format takes html or md, got 'pdf'``), not click's "Invalid value for ...";
    the help lists them as click does."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            got = printable(str(value))
        raise click.UsageError(f"{flag_of(param)} takes {either(self.choices)}, got '{got}'", ctx)


def number_type(kind: Any) -> Any:
    """``kind`` with ``int`` and ``float`` as ``WholeNumber`` and ``Number``, whose errors name
    the flag once and say what it takes."""
    if kind is int:
        return WholeNumber()
    return Number() if kind is float else kind


class FileName(click.Path):
    """A file's or folder's name, which the command checks itself; an empty one is said to be
    empty (not "no such file: " naming nothing, nor read as the current folder). ``noun``
    says what it names (default: a file, a directory, or either, as the path may be)."""

    def __init__(self, *args: Any, noun: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        either = "file or directory" if self.dir_okay else "file"
        self.noun = noun or (either if self.file_okay else "directory")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if is_empty_name(value):
            raise click.UsageError(empty_name(flag_of(param), self.noun), ctx)
        if isinstance(value, str):
            self._refuse_other_kind(value, flag_of(param))
        return super().convert(value, param, ctx)

    def _refuse_other_kind(self, value: str, flag: str) -> None:
        """A file where a folder is wanted, or a folder where a file is, refused in the line
        the command's own check says it in, not click's ("Invalid value for '--out':
        Directory 'x' is a file."): every folder option names an output, said as ``leaves
        tournament --out FILE/sub`` says it; a folder named for a file, as ``--record`` and
        ``--save`` say a device."""
        # start-up: the checks load the storage layer, needed only for a path of the wrong kind
        from .writable import check_file_writable, check_writable

        if not self.file_okay and os.path.isfile(value):
            check_writable(value, flag)  # "cannot write to x: it is not a directory (--out)"
        if not self.dir_okay and os.path.isdir(value):
            check_file_writable(value, flag)  # "--save x is not a regular file but a directory"


load_option = click.option(
    "--load",
    "load",
    multiple=True,
    type=FileName(dir_okay=False),
    help="A Python file that defines (registers) strategies; repeatable.",
)


class InstalledGamesOption(click.Option):
    """``--game``, whose help names the installed games and the default one when it is shown
    (read from the entry points then, so loading a command reads none)."""

    def __init__(self, *args: Any, help_head: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_head = help_head

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        # start-up: the entry points are read only when the help is shown
        from strategies.registry import DEFAULT_GAME
        from tournaments.games import game_names

        self.help = self.help_head.format(games=", ".join(game_names()))
        record = super().get_help_record(ctx)
        return None if record is None else (record[0], f"{record[1]}  [default: {DEFAULT_GAME}]")


def _default_game() -> str:
    from strategies.registry import DEFAULT_GAME  # start-up: read when the command runs

    return DEFAULT_GAME


def game_option(help: str, name: str = "game_spec") -> Any:
    """``--game``: ``help`` (with ``{games}``, the installed games' ids) and the default game."""
    return click.option("--game", name, cls=InstalledGamesOption, default=_default_game, metavar="GAME",
                        help_head=help)  # fmt: skip


def module_game_flag(option: str, args: Sequence[str]) -> str:
    """The line for ``option``, which the command does not know, where it is the flag of a
    setting of the game that ``--game`` gives in ``args`` as ``module:Class``: such a game,
    not installed, gets no flag of its own, and the line says how to set it (as docs/cli.md
    does); where that game cannot load, why (the command would stop at the unknown option
    before it loads the game); '' otherwise."""
    spec = ""
    options = itertools.takewhile(lambda a: a != "--", args)  # after --: arguments
    for typed, after in itertools.pairwise([*options, ""]):  # the last given, as click takes it
        if typed == "--game" or typed.startswith("--game="):
            spec = typed.partition("=")[2] if "=" in typed else after
    if ":" not in spec:
        return ""
    from tournaments.games import plugin_class  # start-up: the runner loads only to say this

    try:
        cls = plugin_class(spec)
    except ValueError as exc:  # no flag of it can be told: why it cannot load comes first
        return f"--game: {exc}"
    if option not in {o.flag for o in getattr(cls, "options", ())}:
        return ""
    title = getattr(cls, "title", cls.__name__)
    return (
        f"{option} is a setting of {title} ({spec}), a game given as module:Class, which "
        "gets no flag of its own: install it in the entry-point group leaves.games to set "
        "its settings from the command line"
    )


UNIT = "{percentage_points}"
"""Where an option's help names the unit of a difference of win rates; ``UnitHelpOption``
writes ``reports.numbers.PERCENTAGE_POINTS`` there."""


class UnitHelpOption(click.Option):
    """An option whose help names the unit of a difference of win rates (``UNIT``), written
    from its one source when the help is shown (so loading a command loads no report)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        # start-up: the reports load only when the help is shown
        from reports.numbers import PERCENTAGE_POINTS

        self.help = (self.help or "").replace(UNIT, PERCENTAGE_POINTS)
        return super().get_help_record(ctx)


PER_CORE = "{per_core}"
"""Where ``--jobs``'s help names the most players a run starts a core; ``JobsOption`` writes
``tournaments.local.PLAYERS_PER_CORE`` there."""


class JobsOption(click.Option):
    """``--jobs``, whose help names the most players a run starts a core (``PER_CORE``),
    written from its one source when the help is shown (so loading a command loads no runner)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        # start-up: the runner loads only when the help is shown
        from tournaments.local import PLAYERS_PER_CORE

        self.help = (self.help or "").replace(PER_CORE, str(PLAYERS_PER_CORE))
        return super().get_help_record(ctx)


def names_players(jobs: int) -> bool:
    """Whether a --jobs of ``jobs`` names players: -1 (one a core) or a positive number."""
    return jobs == -1 or jobs >= 1


def check_jobs(jobs: int, flag: str = "--jobs") -> None:
    """The one refusal of a --jobs that names no player (``names_players``): every command
    that plays says it in these words."""
    if not names_players(jobs):
        raise CLIError(f"{flag} must be a positive number (or -1), got {jobs}", usage=True)


def refuse_repeated_sizes(players: Any, flag: str = "--players") -> None:
    """A table size ``players`` names twice (3,3), refused as ``--rules players=3/3`` is: a
    size typed twice is a slip, not a request (the run would play it once); and one typed in
    another spelling (٤, 4_0) or form (04, +4), refused in the words of every number flag
    (``WholeNumber``). ``players``: as typed ("3,4"), or a list of sizes (a config file's)."""
    typed = players.split(",") if isinstance(players, str) else players
    if isinstance(typed, int) or typed is None:
        return
    seen: set[str] = set()
    for text in (str(p).strip() for p in typed if str(p).strip()):  # "3,,4": parse_players refuses
        digits = text.isascii() and text.isdigit()  # 03 and 3 are one size, compared as text:
        size = (text.lstrip("0") or "0") if digits else text  # 5,000 digits are said later
        if size in seen:
            raise CLIError(f"{flag} names {size} twice ({players}): give each count once",
                           usage=True)  # fmt: skip
        seen.add(size)
        # a table seats one player or more
        if why := other_spelling(text) or other_form(text, (1, None)):
            got = shown(text, typed=False)
            raise CLIError(f"{flag} takes table sizes as whole numbers (3,4,5), got {got}, {why}",
                           usage=True)  # fmt: skip


def jobs_flags(*short: str) -> Any:
    """The ``--jobs`` option (its help gives the cap), also under the ``short`` flags."""
    return click.option(
        *short, "--jobs", "jobs", cls=JobsOption, type=Jobs(written_from=None), default=-1,
        show_default=True, help="Players: this process and its workers (-1: one a core); at "
        "most " + PER_CORE + " a core, and no worker process beyond the parts of the run left "
        "to play (a run that starts fewer says so).",
    )  # fmt: skip


jobs_option = jobs_flags()


def value_option(flag: str, kind: Any, help: str, metavar: str | None = None) -> Any:
    """An option that has no default (None: the run's own, the game's, or not asked for);
    ``UNIT`` in ``help`` names the unit of a difference of win rates; ``int`` and ``float``
    are read as ``number_type`` says."""
    cls = UnitHelpOption if UNIT in help else click.Option
    kind = number_type(kind)
    return click.option(flag, cls=cls, type=kind, default=None, help=help, metavar=metavar)


def count_option(flag: str, default: int, help: str, least: int = 0) -> Any:
    """A whole number of at least ``least`` (games, samples) with its default shown, refused
    in the words of a count (``Count``)."""
    kind = Count(least)
    return click.option(flag, type=kind, default=default, show_default=True, help=help)


progress_option = click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a tty)."
)

format_option = click.option(
    "--format",
    "fmt",
    type=OneOf(["html", "md"]),
    default="html",
    show_default=True,
    help="Report page format: self-contained HTML or Markdown (charts as PNG files).",
)


def split_specs(values: Sequence[str]) -> list[str]:
    """Strategy specs from ``--against`` values, split on commas outside parameter lists.

    ``greedy:a=1,b=2,random`` is two specs: a piece with '=' but no ':' continues the
    parameters of the spec before it; commas inside ``name(k=v,...)`` never split.
    """
    specs: list[str] = []
    for value in values:
        from strategies.spec_values import top_level_pieces  # start-up: numpy on first use

        for piece in (p.strip() for p in top_level_pieces(value)):
            if not piece:
                continue
            if specs and "=" in piece and not {":", "("} & set(piece) and ":" in specs[-1]:
                specs[-1] += "," + piece
            else:
                specs.append(piece)
    return specs


def complete_specs(incomplete: str) -> list[str]:
    """Shell completion of ``--against``: strategy names after the last comma."""
    try:
        import strategies

        known = strategies.names()
    except Exception:  # noqa: BLE001 - completion must never fail loudly
        return []
    head, comma, last = incomplete.rpartition(",")
    return [f"{head}{comma}{name}" for name in known if name.startswith(last)]


def against_option(help: str, required: bool = True, metavar: str = "SPEC[,SPEC...]"):
    """``--against``: strategy specs (repeatable, comma-separated, read by ``split_specs``),
    completed by strategy name in the shell."""
    return click.option("--against", "against", multiple=True, required=required, metavar=metavar,
                        shell_complete=lambda ctx, param, incomplete: complete_specs(incomplete),
                        help=help)  # fmt: skip


def commands_with_game() -> list[str]:
    """The commands whose ``--game`` names an installed game (``game_option``), sorted: what a
    message about another game's strategy points to. Reads each command's module."""
    from .main import COMMANDS  # circle: the commands main lists import this module

    found = []
    for name, (module, attr, _) in COMMANDS.items():
        command = getattr(importlib.import_module(module), attr)
        if any(isinstance(p, InstalledGamesOption) for p in command.params):
            found.append(name)
    return sorted(found)
