"""What Ligretto adds to ``leaves --help`` (entry-point group ``leaves.commands``): no command
of its own (the shared ones play it with ``--game ligretto``), and examples of them."""

from __future__ import annotations

TITLE = "Ligretto"

COMMANDS: dict[str, tuple[str, str, str]] = {}

EXAMPLES = (
    "leaves strategies --game ligretto",
    "leaves tournament --game ligretto stack row cycler cautious --out runs/lig",
    "leaves tournament --game ligretto stack cautious --target 100 --out runs/m",
    "leaves replay runs/lig --game 3         # round 3 of runs/lig, from its seeds",
    "leaves bench --game ligretto --json     # rounds_per_second of 4-player rounds",
)
