"""gamekit: what every game of the project may import, knowing none of them.

``seeding``: where every seed comes from (splitmix64, the salts that separate streams, the
vectorised ``SeedSequence`` of tournament games); ``rng``: the kernels' xoshiro256**
generator, seeded through ``seeding``; ``jit``: ``njit`` that imports numba only when a kernel
is first used; ``numba_internals``: the one module that reaches past numba's public API (each
use behind a version check, with a fallback that is slower and never different). The rules cores (``leaves``, ``ligretto``), the strategies and the runner take
their randomness from here, so one seed means the same games on every path.
"""

from __future__ import annotations

from .kernel_cache import KERNEL_PACKAGES, use_keyed_cache

# numba's cache in the folder keyed by every kernel package's sources, before any kernel module
# imports numba (modules that import numba directly would else write next to their sources)
use_keyed_cache(KERNEL_PACKAGES)
