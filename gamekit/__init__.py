"""gamekit: what every game of the project may import, knowing none of them.

``seeding``: where every seed comes from (splitmix64, the salts that separate streams, the
vectorised ``SeedSequence`` of tournament games); ``rng``: the kernels' xoshiro256**
generator, seeded through ``seeding``; ``jit``: ``njit`` that imports numba only when a kernel
is first used; ``kernel_cache``: numba's cache folder, keyed by the sources of each kernel's
package; ``cbuild``: how a game's C engine is built and loaded; ``text``: a record's words shown on
a terminal, escaped, never obeyed; ``errors``: the one way an error shows a bad value
(``shown``); ``whole``: whole numbers of any length read from text; ``bench_limits``: the
memory and time a benchmark may ask of the machine. The games' rules cores,
the strategies and the runner take their randomness from here, so one seed means the same
games on every path.
"""

from __future__ import annotations
