"""Entry point and command group of ``leaves``: lazy subcommands and one-line errors."""

from __future__ import annotations

import importlib
import sys

import click

from .errors import CLIError

# name -> (module, attribute, one-line help). Modules are imported only when used.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "bench": ("leaves.cli.bench_cmd", "bench", "Measure random-play throughput."),
    "strategies": ("leaves.cli.strategies_cmd", "strategies", "List registered strategies."),
    "tournament": ("leaves.cli.tournament_cmd", "tournament", "Run a round-robin tournament."),
    "report": ("leaves.cli.report_cmd", "report", "Build a report from a run directory."),
    "play": ("leaves.cli.play_cmd", "play", "Play a game in the terminal against bots."),
    "replay": ("leaves.cli.replay_cmd", "replay", "Step through a recorded game."),
    "run": ("leaves.cli.run_cmd", "run", "The main job: default tournament and report."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if self._exists(name))

    @staticmethod
    def _exists(name: str) -> bool:
        import importlib.util

        return importlib.util.find_spec(COMMANDS[name][0]) is not None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS or not self._exists(name):
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show full tracebacks on errors.")
@click.version_option(package_name="leaves")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Analyse strategies of the card game 13 Leaves by simulating tournaments.

    \b
    Examples:
      leaves run                          # default tournament + HTML report
      leaves tournament random greedy --players 4 --games 100000 --out runs/a
      leaves report runs/a --out report/
      leaves play --players 4 --against greedy,random,counter
    """
    ctx.ensure_object(dict)
    ctx.obj["debug"] = debug


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; unexpected exceptions become one line unless --debug is given."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    try:
        cli.main(args=args, prog_name="leaves", standalone_mode=False)
    except CLIError as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("leaves: interrupted", err=True)
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        if debug:
            raise
        exc.show()
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("leaves: interrupted", err=True)
        sys.exit(130)
    except (ValueError, OSError, KeyError, TypeError) as exc:
        if debug:
            raise
        click.echo(f"leaves: error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - last resort: one line, --debug for the trace
        if debug:
            raise
        click.echo(f"leaves: error: {type(exc).__name__}: {exc} (rerun with --debug)", err=True)
        sys.exit(1)
