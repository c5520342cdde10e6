"""Entry point and command group of ``leaves``: lazy subcommands and one-line errors."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback

import click

from .errors import CLIError

# name -> (module, attribute, one-line help). Modules are imported only when used.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "bench": ("leaves_cli.bench_cmd", "bench", "Measure random-play throughput."),
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
    "play": ("leaves_cli.play_cmd", "play", "Play a game in the terminal against bots."),
    "replay": (
        "leaves_cli.replay_cmd",
        "replay",
        "Step through a recorded game (GameRecord JSON lines).",
    ),
    "verify": (
        "leaves_cli.verify_cmd",
        "verify",
        "Check a run's files against its manifest (sizes, checksums).",
    ),
    "tune": (
        "leaves_cli.tune_cmd",
        "tune",
        "Tune a strategy's parameters by tournaments (CMA-ES).",
    ),
    "run": (
        "leaves_cli.run_cmd",
        "run",
        "The main job: default tournament of the built-ins + report.",
    ),
    "rules": ("leaves_cli.rules_cmd", "rules", "List the rule keys a variant may change."),
    "variants": (
        "leaves_cli.variants_cmd",
        "variants",
        "Compare rule variants: the same field under each, one report.",
    ),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if self._exists(name))

    @staticmethod
    def _exists(name: str) -> bool:
        return importlib.util.find_spec(COMMANDS[name][0]) is not None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listing from ``COMMANDS``' one-line help: 'leaves --help' imports no command
        (click's own listing imports every one to ask it, numpy and pandas included)."""
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS or not self._exists(name):
            return None
        module, attr, short = COMMANDS[name]
        command = getattr(importlib.import_module(module), attr)
        if command.short_help is None:
            command.short_help = short  # the listing in 'leaves --help' stays one clean line
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show full tracebacks on errors.")
@click.version_option(package_name="leaves")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Analyse strategies of the card game 13 Leaves by simulating tournaments.

    \b
    Examples:
      leaves run                          # default tournament + HTML report
      leaves strategies                   # what can play
      leaves tournament random greedy --players 4 --games 100000 --out runs/a
      leaves report runs/a --out report/
      leaves verify runs/a                # every part checks out?
      leaves gauntlet my_bot.py:MyBot --against taker
      leaves play --players 4 --against greedy,random,counter
      leaves replay games.jsonl

    \b
    Shell completion (bash, zsh, fish), e.g. in ~/.bashrc:
      eval "$(_LEAVES_COMPLETE=bash_source leaves)"
    (zsh: zsh_source, fish: fish_source)
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


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


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: errors are one line on stderr (exit 2 for usage errors, 1 otherwise).

    ``--debug`` (before the subcommand) adds the full traceback.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in args
    _one_blas_thread()

    def fail(message: str, code: int) -> None:
        if debug:
            traceback.print_exc()
        click.echo(f"leaves: error: {message}", err=True)
        sys.exit(code)

    try:
        cli.main(args=args, prog_name="leaves", standalone_mode=False)
    except CLIError as exc:
        fail(exc.format_message(), exc.exit_code)
    except click.exceptions.Abort:
        fail("interrupted", 130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        fail(exc.format_message() + _usage_hint(exc), exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except BrokenPipeError:
        sys.stderr.close()  # output piped into head/less that quit early: not an error
        sys.exit(0)
    except (ValueError, OSError, KeyError, TypeError) as exc:
        fail(str(exc) or type(exc).__name__, 1)
    except Exception as exc:  # noqa: BLE001 - last resort: one line, --debug for the trace
        fail(f"{type(exc).__name__}: {exc} (rerun with --debug for the traceback)", 1)
