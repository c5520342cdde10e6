/* What every game's C engine shares (gamekit.cbuild puts this folder on the include path):
 * the export marker, the key a build bakes in, and splitmix64 (gamekit.seeding), from which
 * every engine's random streams are seeded. Integer arithmetic only, so C draws the very
 * numbers of the numba kernels and of the Python paths. */
#ifndef GAMEKIT_ENGINE_COMMON_H
#define GAMEKIT_ENGINE_COMMON_H

#include <stdint.h>

#ifndef ENGINE_KEY
#define ENGINE_KEY "unkeyed"
#endif

#if defined(_WIN32)
#define EXPORT __declspec(dllexport)
#else
#define EXPORT __attribute__((visibility("default")))
#endif

#define GAMMA 0x9E3779B97F4A7C15ULL

/* splitmix64's output function (gamekit.seeding.mix64). */
static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Output index (0-based) of splitmix64 started at state (gamekit.seeding.splitmix64_at). */
static inline uint64_t splitmix64_at(uint64_t state, uint64_t index) {
    return mix64(state + (index + 1) * GAMMA);
}

#endif
