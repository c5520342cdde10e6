"""Train a small agent through the PettingZoo environment, then enter it in a gauntlet.

    pip install ".[research]"
    python examples/train_reinforce.py            # 3,000 training games, then 1,500 a side

The agent is a linear softmax policy over the 145 observation entries (plus a bias), one weight
vector per action id, with the illegal actions masked out; REINFORCE with a running-mean
baseline trains it in 3-player games against ``random`` (numpy only). The trained weights go to
OUT/weights.npz and the agent enters a gauntlet as the spec
``observation:policy=examples/train_reinforce.py.act`` against ``random`` and ``greedy``, with
``low`` as its baseline: the same callable an outside agent of
any kind would be, given its seat's PettingZoo observation and generator.

OUT is ``LEAVES_EXAMPLE_OUT``, default ``runs/reinforce`` (a folder git ignores). Each run
trains its agent afresh, so its gauntlet is a new one: an OUT whose gauntlet folder is not
empty (a run before) is refused in one line before any training; choose another OUT.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

from interop.agents import pettingzoo_policy
from interop.observation import SIZE

try:
    from interop.pettingzoo import env
except ImportError as exc:  # PettingZoo missing or too old: its one line, not a traceback
    if __name__ != "__main__":  # loaded as the gauntlet's policy: the caller says it
        raise
    sys.exit(f"train_reinforce.py: error: {exc}")
from leaves import N_ACTIONS
from strategies.user_code import load_file

# the examples' one reader of their LEAVES_EXAMPLE_* sizes, in run_tournament.py beside this
size = load_file(str(Path(__file__).with_name("run_tournament.py"))).size
GAMES = size("GAMES", 3000)
OUT = Path(os.environ.get("LEAVES_EXAMPLE_OUT") or Path("runs") / "reinforce")
WEIGHTS = OUT / "weights.npz"
GAUNTLET_GAMES = max(60, GAMES // 2)  # a side: the agent's games, and its baseline's
SCALE = 1.0 / 8.0  # observation entries are small counts: a common scale keeps steps stable


def features(observation: np.ndarray) -> np.ndarray:
    return np.append(observation.astype(np.float64) * SCALE, 1.0)


def probabilities(w: np.ndarray, obs: dict) -> tuple[np.ndarray, np.ndarray]:
    """(legal action ids, their probabilities) under the policy ``w``."""
    legal = np.flatnonzero(obs["action_mask"])
    logits = w[legal] @ features(obs["observation"])
    p = np.exp(logits - logits.max())
    return legal, p / p.sum()


def train(games: int, seed: int = 1, rate: float = 0.05) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = np.zeros((N_ACTIONS, SIZE + 1))
    baseline, wins = 0.0, []
    for g in range(games):
        e = env(n_players=3)
        e.reset(seed=seed * 1_000_003 + g)
        others = {a: pettingzoo_policy("random", seed=g * 7 + i) for i, a in enumerate(e.agents)}
        steps, result = [], 0.0
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if agent == "player_0":
                result += reward
            if terminated or truncated:
                e.step(None)
                continue
            if agent != "player_0":
                e.step(others[agent](e, agent))
                continue
            legal, p = probabilities(w, obs)
            k = rng.choice(len(legal), p=p)
            steps.append((features(obs["observation"]), legal, p, k))
            e.step(int(legal[k]))
        advantage = result - baseline
        baseline += 0.02 * (result - baseline)
        for x, legal, p, k in steps:  # the log-likelihood's gradient, for every step taken
            grad = -np.outer(p, x)
            grad[k] += x
            w[legal] += rate * advantage * grad / max(len(steps), 1)
        wins.append(result > 0)
    first, last = np.mean(wins[: games // 5 or 1]), np.mean(wins[-(games // 5 or 1) :])
    print(f"trained on {games:,} games: won {first:.1%} of the first fifth, {last:.1%} of the last")
    return w


_LOADED: dict[str, np.ndarray] = {}


def act(observation: dict, rng: np.random.Generator) -> int:
    """The trained agent: samples its policy (the spec's callable, with its seat's generator)."""
    path = os.environ.get("REINFORCE_WEIGHTS", str(WEIGHTS))
    if path not in _LOADED:
        _LOADED[path] = np.load(path)["w"]
    legal, p = probabilities(_LOADED[path], observation)
    return int(legal[rng.choice(len(legal), p=p)])


def here() -> str:
    """This file as the spec names it: relative to the working directory when under it, as
    the docs write the spec (``examples/train_reinforce.py``), so the label printed holds no
    path of this machine; absolute from anywhere else."""
    path, cwd = Path(__file__).resolve(), Path.cwd().resolve()
    return path.relative_to(cwd).as_posix() if path.is_relative_to(cwd) else str(path)


def main() -> None:
    import reports
    import tournaments
    from tournaments.checks import make_out
    from tournaments.storage import holds_files

    if holds_files(OUT / "gauntlet"):  # refused before training, not after it
        raise ValueError(
            f"{OUT / 'gauntlet'} is not empty: set LEAVES_EXAMPLE_OUT to a new folder (a "
            "gauntlet of an agent trained afresh is not continued)"
        )
    make_out(OUT)  # or one line saying why it cannot be made
    w = train(GAMES)
    np.savez(WEIGHTS, w=w)
    os.environ["REINFORCE_WEIGHTS"] = str(WEIGHTS.resolve())
    spec = f"observation:policy={here()}.act"
    res = tournaments.gauntlet(spec, ["random", "greedy"], "low", players=3,
                               games=GAUNTLET_GAMES, seed=2, out=OUT / "gauntlet")  # fmt: skip
    from reports.gauntlet import sentences

    for line in sentences(reports.gauntlet(res)):  # the gauntlet's answer, in words
        print(line)


if __name__ == "__main__":
    if len(sys.argv) > 1:  # an argument would be dropped: say so, play nothing
        sys.exit(
            f"train_reinforce.py: error: takes no arguments, got {' '.join(sys.argv[1:])}: "
            "set the training games with LEAVES_EXAMPLE_GAMES=N"
        )
    try:
        main()
    except ValueError as exc:  # an OUT that cannot take this run: one line
        sys.exit(f"train_reinforce.py: error: {exc}")
