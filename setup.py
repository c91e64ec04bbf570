"""The build: the engine's hot modules compiled to C extensions with mypyc.

``pip install .`` and ``pip install -e .`` compile them (mypy, which carries mypyc, is a
build requirement in pyproject.toml; a C compiler is needed).  Every module keeps its
``.py`` source beside the extension, and the package runs the same without the
extensions:

- ``RUMMYKIT_PURE_PYTHON=1 pip install ...`` compiles nothing: pure Python;
- without a working C compiler (or if mypyc fails) the install goes on as pure Python,
  with a warning; it never keeps some of the modules compiled and not others;
- ``RUMMYKIT_PURE_PYTHON=1`` when Python starts makes an installed rummykit import the
  ``.py`` sources instead of the extensions (``rummykit/_compiled.py``), so one install
  runs the tests both ways.  ``rummykit._compiled.compiled()`` says which form runs.

The list below holds the modules random play spends its time in (the contract solver,
the meld rules, the turn machine and the actions' rooms); everything else stays Python.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/rummykit/melds.py",
    "src/rummykit/solver.py",
    "src/rummykit/solver_runs.py",
    "src/rummykit/engine/state.py",
    "src/rummykit/engine/scoring.py",
    "src/rummykit/engine/flow.py",
    "src/rummykit/engine/draw.py",
    "src/rummykit/engine/melding.py",
    "src/rummykit/engine/discard.py",
    "src/rummykit/engine/outs.py",
    "src/rummykit/engine/turn.py",
    "src/rummykit/engine/seen.py",
    "src/rummykit/rl/tracker.py",
    "src/rummykit/rl/codes.py",
]


def warn(text: str) -> None:
    print(f"rummykit: {text}; installing pure Python (the same engine, slower)", file=sys.stderr)


class AllOrNone(build_ext):
    """Build every extension or none: a module's extension needs mypyc's shared library,
    so a partial build would not import.  Each is optional (a failed compile is a warning);
    if any is missing afterwards, the others are removed and the sources run."""

    def run(self) -> None:
        super().run()
        built = [self.get_ext_fullpath(ext.name) for ext in self.extensions]
        if not all(os.path.exists(p) for p in built):
            for p in built:
                if os.path.exists(p):
                    os.remove(p)
            warn("the compiled modules did not all build")


def ext_modules() -> list:
    if os.environ.get("RUMMYKIT_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify

        exts = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as e:  # mypyc refused the code (another mypy version)
        warn(f"mypyc failed ({e!r:.200})")
        return []
    for ext in exts:
        ext.optional = True
    return exts


setup(ext_modules=ext_modules(), cmdclass={"build_ext": AllOrNone})
