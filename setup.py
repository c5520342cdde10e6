"""The C engines, compiled by the install (everything else is in pyproject.toml).

Each game's engine is one C translation unit in a ``csrc`` folder, built the way
``gamekit.cbuild`` builds it at first use, with the sources' key baked in. ``optional``: an
install without a C compiler still succeeds, and the engine is compiled at first use
where a compiler is found later (else runs use the numba kernels).
"""

import importlib.util
from pathlib import Path

from setuptools import Extension, setup

_spec = importlib.util.spec_from_file_location("cbuild", Path("gamekit") / "cbuild.py")
cbuild = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cbuild)

ENGINES = {
    "leaves.players.compiled._engine": Path("leaves") / "players" / "compiled" / "csrc",
    "ligretto._engine": Path("ligretto") / "csrc",
}
"""Each extension module and the folder of its C sources."""

setup(
    ext_modules=[Extension(**cbuild.extension(src, mod)) for mod, src in ENGINES.items()],
    options={"build_ext": {"parallel": len(ENGINES)}},  # the engines compile side by side
)
