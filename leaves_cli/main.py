"""Entry point and command group of ``leaves``: lazy subcommands and one-line errors."""

from __future__ import annotations

import contextlib
import difflib
import importlib
import importlib.util
import itertools
import os
import re
import sys
import traceback
import warnings
from collections.abc import Iterator

import click

from .errors import CLIError, error_line, worded
from .game_commands import GameCommands, game_commands

# name -> (module, attribute, one-line help). Modules are imported only when used.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "bench": ("leaves_cli.bench_cmd", "bench", "Measure a game's play throughput on one core."),
    "strategies": (
        "leaves_cli.strategies_cmd",
        "strategies",
        "List registered strategies (--load FILE.py adds yours).",
    ),
    "tournament": ("leaves_cli.tournament_cmd", "tournament", "Run a round-robin tournament."),
    "report": ("leaves_cli.report_cmd", "report", "Build a report from a run directory."),
    "compare": (
        "leaves_cli.compare_cmd",
        "compare",
        "Compare two runs: per strategy, B - A in win rate with intervals.",
    ),
    "gauntlet": (
        "leaves_cli.gauntlet_cmd",
        "gauntlet",
        "One strategy against a field, compared with a baseline on the same deals.",
    ),
    "replay": (
        "leaves_cli.replay_cmd",
        "replay",
        "Show a recorded game: a line of a records file, or a run's game from its seeds.",
    ),
    "verify": (
        "leaves_cli.verify_cmd",
        "verify",
        "Check a run's files against its manifest (sizes, checksums).",
    ),
}


class OutputClosed(Exception):
    """The reader of the output went away (``leaves ... | head``): not an OSError, so that
    click's own handler, which exits 1 on a broken pipe, lets it pass to ``main``."""


@contextlib.contextmanager
def _pipe_closed() -> Iterator[None]:
    """A broken pipe inside as ``OutputClosed``: click's own, and rich's, which exits 1 from
    ``Console.on_broken_pipe`` (a SystemExit raised while handling the BrokenPipeError)."""
    try:
        yield
    except BrokenPipeError as exc:
        raise OutputClosed from exc
    except SystemExit as exc:
        if isinstance(exc.__context__, BrokenPipeError):
            raise OutputClosed from exc
        raise


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use: the shared ones from
    ``COMMANDS``, each installed game's own from its table (``game_commands``). A broken
    pipe while parsing (``--help``) or running a command comes out as ``OutputClosed``."""

    def make_context(self, *args, **kwargs) -> click.Context:
        with _pipe_closed():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context):
        with _pipe_closed():
            return super().invoke(ctx)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in all_commands() if self._exists(name))

    @staticmethod
    def _exists(name: str) -> bool:
        entry = all_commands().get(name)
        return entry is not None and importlib.util.find_spec(entry[0]) is not None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listing from the one-line helps: 'leaves --help' imports no command (click's own
        listing imports every one to ask it, numpy and pandas included). Each game's commands
        come in a section of their own, under the game's title."""
        sections = [("Commands", COMMANDS)]
        sections += [(f"Commands of {g.title}", g.commands) for g in games()]
        for title, table in sections:
            rows = [(name, table[name][2]) for name in sorted(table) if self._exists(name)]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for game in games():
            if game.examples:
                with formatter.section(f"Examples of {game.title}"):
                    for line in game.examples:  # as written: an example is not rewrapped
                        formatter.write(f"{'':>{formatter.current_indent}}{line}\n")
        super().format_epilog(ctx, formatter)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command named first in ``args``: an unknown one said in the project's words
        (click: "No such command 'x'."), and a known one's options checked for a value that
        is missing before click reads them (``missing_value``)."""
        name = args[0]
        if ctx.resilient_parsing or name.startswith("-") or self._exists(name):
            found = super().resolve_command(ctx, args)  # an option first: the group's own
            command = found[1]
            if command is not None and not ctx.resilient_parsing:
                said = missing_value(command, found[2])
                if said:
                    raise CLIError(f"{said} (see 'leaves {found[0]} --help')", usage=True)
            return found
        from gamekit.text import printable  # start-up: gamekit loads only when an error is said

        known = self.list_commands(ctx)
        begun = [c for c in known if name and c.startswith(name.lower())]  # 'tour': tournament
        close = difflib.get_close_matches(name, known, n=2) or begun[:2]
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        raise click.UsageError(f"unknown command {printable(name)!r}{hint}", ctx)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if not self._exists(name):
            return None
        module, attr, short = all_commands()[name]
        command = getattr(importlib.import_module(module), attr)
        if command.short_help is None:
            command.short_help = short  # the listing in 'leaves --help' stays one clean line
        return command


def missing_value(command: click.Command, args: list[str]) -> str:
    """The line for an option of ``command`` given no value before another of its options
    (``--players --out DIR``): click would take the option's name as the value, and the error
    would then blame another (the ``--out`` it swallowed, the ``DIR`` left over); "" where
    every option that takes a value has one. A value after ``--`` is the user's own."""
    takers: dict[str, int] = {}
    known = {"-h", "--help"}
    for param in command.params:
        if isinstance(param, click.Option):
            names = [*param.opts, *param.secondary_opts]
            known.update(names)
            if not param.is_flag and not param.count:
                takers.update(dict.fromkeys(param.opts, max(param.nargs, 1)))
    typed = [str(arg) for arg in args]  # a caller in Python may pass paths
    at = 0
    while at < len(typed) and typed[at] != "--":
        nargs = takers.get(typed[at], 0)
        for value in typed[at + 1 : at + 1 + nargs]:
            if value.split("=", 1)[0] in known:
                return f"{typed[at]} needs a value after it, got the option {value!r}"
        at += 1 + nargs
    return ""


def games() -> tuple[GameCommands, ...]:
    """Each installed game's own commands (``leaves_cli.game_commands``)."""
    return game_commands(frozenset(COMMANDS))


def all_commands() -> dict[str, tuple[str, str, str]]:
    """Every command's (module, attribute, one-line help): the shared ones, then the games'."""
    merged = dict(COMMANDS)
    for game in games():
        merged.update(game.commands)
    return merged


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show full tracebacks on errors.")
@click.version_option(package_name="leaves")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Analyse strategies of card games by simulating tournaments.

    \b
    Examples:
      leaves strategies                   # what can play
      leaves tournament random greedy --players 4 --games 100000 --out runs/a
      leaves report runs/a --out report/
      leaves verify runs/a                # every part checks out?
      leaves gauntlet examples/my_strategy.py:Hoarder --against taker
      leaves replay games.jsonl

    \b
    Shell completion (bash, zsh, fish), e.g. in ~/.bashrc:
      eval "$(_LEAVES_COMPLETE=bash_source leaves)"
    (zsh: zsh_source, fish: fish_source)
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def _usage_message(exc: click.UsageError, args: list[str] | None = None) -> str:
    """The usage error in one line, in the project's words, never click's own capitalised
    text: a required argument or option not given (``CLIError.required``), an option given
    without its value (click: "Option '--out' requires an argument.", pointing to the top
    help) or with a value it does not take, an unknown option (with the closest ones), an
    argument too many; a game's own command given ``--game`` says whose command it is (click
    offered the closest option instead: "Did you mean '--save'?")."""
    ctx = exc.ctx
    if isinstance(exc, click.MissingParameter) and exc.param is not None:
        from .options import flag_of  # start-up: only to say the error

        return CLIError.required(flag_of(exc.param)).format_message() + _usage_hint(exc)
    if isinstance(exc, click.BadOptionUsage):
        command = next((a for a in args or () if a in all_commands()), None)  # no parser ctx
        hint = f" (see 'leaves {command} --help')" if command else _usage_hint(exc)
        if exc.message.endswith("requires an argument."):
            return f"{exc.option_name} needs a value after it{hint}"
        if exc.message.endswith("does not take a value."):
            return f"{exc.option_name} takes no value (it is a switch){hint}"
    if isinstance(exc, click.NoSuchOption):
        if exc.option_name == "--game" and ctx is not None:
            for game in games():
                if ctx.info_name in game.commands:
                    return (f"--game: '{ctx.command_path}' is a command of {game.title} only: "
                            f"it takes no --game{_usage_hint(exc)}")  # fmt: skip
        from .options import module_game_flag  # start-up: only to say the error

        if said := module_game_flag(exc.option_name, args or ()):
            return said + _usage_hint(exc)
        close = exc.possibilities or ()
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        if exc.option_name == "--version" and ctx is not None and ctx.parent is not None:
            return "--version goes before the command: 'leaves --version' shows the version"
        if exc.option_name == "--debug" and ctx is not None and ctx.parent is not None:
            command = ctx.command_path.partition(" ")[2]
            return (f"--debug goes before the command: 'leaves --debug {command} ...' "
                    "shows a failure's traceback")  # fmt: skip
        return f"unknown option {exc.option_name!r}{hint}{_usage_hint(exc)}"
    extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", exc.message, re.DOTALL)
    if extra is not None:
        from gamekit.text import printable  # start-up: gamekit loads only when an error is said

        return f"an argument too many: {printable(extra[1])!r}{_usage_hint(exc)}"
    if exc.message == "Missing command.":
        return f"name a command{_usage_hint(exc)}"
    return exc.format_message() + _usage_hint(exc)


def _usage_hint(exc: click.UsageError) -> str:
    ctx = exc.ctx
    if ctx is None:
        return " (see 'leaves --help')"
    return f" (see '{ctx.command_path} --help')"


def _one_blas_thread() -> None:
    """One OpenBLAS thread unless the user chose otherwise: no command multiplies large
    matrices, and the idle thread pool numpy's OpenBLAS starts spun for about 0.1 CPU-s of
    a million-game run (``perf``). Set before numpy loads (it loads on first use)."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _drop_output() -> None:
    """Point stdout at the null device: what is still buffered for the reader that went away
    is dropped, and Python's flush at exit has nothing left to fail on (no error line)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind stdout (a test's capture)
        pass


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: object = None, line: str | None = None) -> None:  # fmt: skip
    """A Python warning raised while a command runs, as the command's own warnings are said:
    one line on stderr, ``leaves: warning: ...``, without Python's path and source line (a
    plug-in's entry point that cannot load warns from the registry's code, not the user's).
    A category other than UserWarning is named (a RuntimeWarning of numpy's)."""
    text = " ".join(str(message).splitlines())
    kind = "" if category is UserWarning else f"{category.__name__}: "
    click.echo(f"leaves: warning: {kind}{text}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: errors are one line on stderr (exit 2 for usage errors, 1 otherwise), and
    so is each Python warning raised while the command runs (``_show_warning``).

    ``--debug`` before the subcommand adds the full traceback (after it, the subcommand
    refuses it as an option it does not know, with no traceback).
    """
    args = sys.argv[1:] if argv is None else list(argv)
    leading = list(itertools.takewhile(lambda a: a.startswith("-") and a != "--", args))
    debug = "--debug" in leading
    _one_blas_thread()

    def fail(message: str, code: int) -> None:
        if debug:
            traceback.print_exc()
        click.echo(error_line(message), err=True)
        sys.exit(code)

    try:
        with warnings.catch_warnings():  # Python's way of showing them back after the command
            warnings.showwarning = _show_warning
            cli.main(args=args, prog_name="leaves", standalone_mode=False)
    except CLIError as exc:
        fail(exc.format_message(), exc.exit_code)
    except click.exceptions.Abort:
        fail("interrupted", 130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.NoArgsIsHelpError as exc:  # 'leaves' alone: the help, no error
        click.echo(exc.format_message(), err=True)
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        fail(_usage_message(exc, args), exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except (OutputClosed, BrokenPipeError):
        _drop_output()  # output piped into head/less that quit early: not an error
        sys.exit(0)
    except (ValueError, OSError, KeyError, TypeError) as exc:
        fail(worded(exc), 1)
    except Exception as exc:  # noqa: BLE001 - last resort: one line, --debug for the trace
        if getattr(exc, "usage_error", True) is False:  # no bad usage, and worded (exit 1)
            fail(worded(exc), 1)
        fail(f"{type(exc).__name__}: {exc}{'' if debug else _debug_hint(args, leading)}", 1)


def _debug_hint(args: list[str], leading: list[str]) -> str:
    """Where ``--debug`` goes to show a failure's traceback: before the subcommand (after
    it, the subcommand refuses it as an unknown option)."""
    command = args[len(leading)] if len(args) > len(leading) else "COMMAND"
    return f" (for the traceback, rerun as 'leaves --debug {command} ...')"
