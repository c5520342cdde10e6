"""Per-game seeds as a pure function of (tournament seed, key, index), vectorized.

Every seed a tournament uses is ``SeedSequence(seed, spawn_key=(*key, index))
.generate_state(1, uint64)[0]``: it never depends on run order, chunking, workers or backend.
The vectorised port of numpy's hash lives with the other seeding code in ``gamekit.seeding``.
"""

from __future__ import annotations

from gamekit.seeding import derive_seeds, entropy_words, reference_seed

__all__ = ["derive_seeds", "reference_seed", "entropy_words"]
