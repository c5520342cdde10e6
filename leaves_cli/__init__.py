"""The ``leaves`` command line: the top layer, importing the other packages lazily.

Each subcommand lives in its own module and is loaded only when invoked, so ``leaves --help``
stays fast and the rules core never imports the layers above it.
"""

from __future__ import annotations

from .main import cli, main

__all__ = ["cli", "main"]
