"""13 Leaves' own commands of ``leaves``: ``play`` in the terminal, ``rules``, the main job
``run``, ``tune`` and ``variants``, the commands that need this game's rules, board or players.

The command line finds ``COMMANDS`` through the entry-point group ``leaves.commands`` (as any
installed game adds its commands) and lists them from this table without importing them: each
module loads when its command runs.
"""

from __future__ import annotations

TITLE = "13 Leaves"

# name -> (module, attribute, one-line help); modules relative to this package
COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": (".play", "play", "Play a game in the terminal against bots."),
    "rules": (".rules", "rules", "List the rule keys a variant may change."),
    "run": (".run", "run", "The main job: default tournament of the built-ins + report."),
    "tune": (".tune", "tune", "Tune a strategy's parameters by tournaments (CMA-ES)."),
    "variants": (
        ".variants",
        "variants",
        "Compare rule variants: the same field under each, one report.",
    ),
}

EXAMPLES = (
    "leaves run                          # default tournament + HTML report",
    "leaves play --players 4 --against greedy,random,counter",
    "leaves rules                        # the keys a variant may change",
    "leaves variants --rules hand_size=9 --games 20000 --out runs/v",
)
