"""Each game runs alone: in a fresh interpreter, ``check_game`` (tournaments, replays, reports)
of one game loads no module of the other two, so the generic layers need none of them.

Each game owns its package (rules, players, plug-in); what every game shares (the players'
protocol and registry in ``strategies``, ``gamekit``, the runner and the reports) may load for
any."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = ROOT / "tests" / "plugins"

OWN = {game: (game,) for game in ("leaves", "ligretto", "climb")}

PROBE = """
import json, sys
from tournaments.testing import check_game
check_game(sys.argv[1])
print(json.dumps(sorted(sys.modules)))
"""


def _owned(module: str, game: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in OWN[game])


@pytest.mark.slow
@pytest.mark.parametrize("game", OWN)
def test_a_game_passes_check_game_with_no_module_of_the_others(game):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(PLUGINS)])}
    done = subprocess.run([sys.executable, "-c", PROBE, game], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert any(_owned(m, game) for m in loaded)  # its own modules did load
    others = [m for m in loaded for g in OWN if g != game and _owned(m, g)]
    assert not others, f"{game} loaded {others}"
