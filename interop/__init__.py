"""interop: 13 Leaves in the standard research environments (``interop.pettingzoo``,
``interop.openspiel``), and outside agents in our tournaments (``interop.agents``).

The package sits above the runner and below the command line; its dependencies come in the
optional extra ``pip install ".[research]"`` (the main install stays as light as it is).
"""

from __future__ import annotations
