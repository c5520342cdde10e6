"""The one error type commands raise for bad input: printed as one line, never a traceback."""

from __future__ import annotations

import click


class CLIError(click.ClickException):
    """A user-facing error: ``leaves: error: MESSAGE`` on stderr and exit code ``exit_code``.

    Use ``usage=True`` for bad usage (unknown strategy, bad flag value): exit code 2.
    """

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.exit_code = 2 if usage else 1

    @classmethod
    def of(cls, exc: BaseException, usage: bool = False) -> CLIError:
        """The command line's line for a library error: a ``ParameterError``'s parameters
        named by their flags (``leaves_cli.flags``), any other error's message as it is. An
        error that says it is no bad usage (``usage_error = False``: a run another process
        plays) exits 1 where bad usage would exit 2."""
        return cls(worded(exc), usage=usage and getattr(exc, "usage_error", True))

    @classmethod
    def required(cls, name: str) -> CLIError:
        """The one line for a required argument or option not given (``name``: as the usage
        line shows it, "SPEC" or "--against"), in the words every command uses, not click's
        "Missing argument 'SPEC'."."""
        return cls(f"{name} is required", usage=True)

    def show(self, file=None) -> None:
        click.echo(error_line(self.format_message()), err=True)


def error_line(message: str) -> str:
    """The one line every error is said in, ``leaves: error: MESSAGE``, with the message's
    control characters escaped (``printable``): a name typed with an escape sequence or a
    line break (``--out $'o/x\\e[2J'``) is shown, never obeyed, and the line stays one line."""
    from gamekit.text import printable  # start-up: gamekit loads only when an error is said

    return f"leaves: error: {printable(message)}"


def worded(exc: BaseException) -> str:
    """An error's one line as the command line says it (``flags.message``). A KeyError's text
    is its bare key (``'score'``): said with its type, a lookup that failed, never as if the
    key were the message (a fault of a game plug-in's own code)."""
    from .flags import message  # start-up: flags loads gamekit only when an error is said

    said = message(exc) or type(exc).__name__
    return f"KeyError: {said}" if isinstance(exc, KeyError) else said
