"""13 Leaves results are unchanged by the game-generic runner: same seeds, same rows.

The digests were taken from the runner before games became plug-ins (rows sorted by game or
match, every value as text), and taken again when each table got its own deals and games were
numbered deal-major (seed keys 10 and 12). A change here means a 13 Leaves result changed.
"""

from __future__ import annotations

import hashlib

import pandas as pd

from tournaments import Tournament


def _digest(df: pd.DataFrame, key: str) -> tuple[str, list[str]]:
    df = df.sort_values(key).reset_index(drop=True)
    h = pd.util.hash_pandas_object(df.astype(str), index=False).values
    return hashlib.sha256(h.tobytes()).hexdigest()[:16], list(df.columns)


SEATS = [f"seat_{s}" for s in range(6)]
CARDS = [f"cards_left_{s}" for s in range(6)]
GAME_COLUMNS = [
    "game", "deal", "rotation", "table", "seed", "deal_seed", "n_players", "first_player",
    *SEATS, *CARDS, "winner_seat", "winner", "turns", "rounds", "unfinished", "forfeit",
    "forfeit_seat", "error",
]  # fmt: skip


def test_plain_games_rows_unchanged(tmp_path):
    Tournament(["greedy", "low", "random", "high"], players="3,4", games=600, seed=5).run(
        n_jobs=1, out=tmp_path
    )
    digest, columns = _digest(pd.read_parquet(tmp_path / "games"), "game")
    assert columns == GAME_COLUMNS
    assert digest == "fe1c24f4a11709b3"


def test_expert_rows_unchanged(tmp_path):
    Tournament(["greedy", "low", "random", "high"], players=3, games=120, seed=6, expert=True).run(
        n_jobs=1, out=tmp_path
    )
    digest, columns = _digest(pd.read_parquet(tmp_path / "games"), "game")
    assert columns[:5] == ["game", "match", "game_in_match", "match_seed", "match_play_seed"]
    assert columns[-6:] == [f"score_{s}" for s in range(6)]
    assert digest == "a2361a7bcd5bf799"
    digest, _ = _digest(pd.read_parquet(tmp_path / "matches"), "match")
    assert digest == "7bb1ca21d86b9f45"
