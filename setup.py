"""The build: the engine's hot modules compiled to C extensions with mypyc.

``pip install .`` and ``pip install -e .`` compile them (mypy, which carries mypyc, is a
build requirement in pyproject.toml; a C compiler is needed).  Every module keeps its
``.py`` source beside the extension, and the package runs the same without the
extensions:

- ``RUMMYKIT_PURE_PYTHON=1 pip install ...`` compiles nothing: pure Python;
- without a working C compiler (or if mypyc fails) the install goes on as pure Python,
  with a warning; it never keeps some of the modules compiled and not others, nor an
  earlier build's (an editable install builds into ``src``, where an old extension beside
  its ``.py`` would still be what Python imports: each install removes the old ones);
- ``RUMMYKIT_PURE_PYTHON=1`` when Python starts makes an installed rummykit import the
  ``.py`` sources instead of the extensions (``rummykit/_compiled.py``), so one install
  runs the tests both ways.  ``rummykit._compiled.compiled()`` says which form runs.

The list below holds the modules random play spends its time in (the contract solver,
the meld rules, the turn machine and the actions' rooms), and the bots' hand evaluation
(every decision of the medium bot, and so of the hard bot's rollouts); everything else
stays Python.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
    "src/rummykit/engine/going_down.py",
    "src/rummykit/engine/melding.py",
    "src/rummykit/engine/discard.py",
    "src/rummykit/engine/turn.py",
    "src/rummykit/engine/seen.py",
    "src/rummykit/rl/tracker.py",
    "src/rummykit/rl/codes.py",
    "src/rummykit/players/evaluation.py",
]


HERE = Path(__file__).resolve().parent


def warn(text: str) -> None:
    print(f"rummykit: {text}; installing pure Python (the same engine, slower)", file=sys.stderr)


def old_extensions(root: Path = HERE, keep: frozenset[str] = frozenset()) -> list[Path]:
    """The compiled modules an earlier editable install left in ``src`` (each module's
    extension, whatever its Python tag, and mypyc's shared libraries), less ``keep``: an
    extension beside its ``.py`` is what Python imports."""
    found: list[Path] = []
    for src in COMPILED:
        py = root / src
        found += [*py.parent.glob(py.stem + ".*.so"), *py.parent.glob(py.stem + ".*.pyd")]
    found += (root / "src").glob("*__mypyc.*")
    return sorted(p for p in found if str(p.resolve()) not in keep)


def remove_old_extensions(root: Path = HERE, keep: frozenset[str] = frozenset()) -> None:
    """Going pure Python (or rebuilding): no earlier build may keep running in its place."""
    for p in old_extensions(root, keep):
        try:
            p.unlink()
        except OSError as e:
            print(f"rummykit: could not remove the old build {p} ({e})", file=sys.stderr)


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
            remove_old_extensions()
            warn("the compiled modules did not all build")
        else:  # (an editable install builds into src: the builds before this one go)
            remove_old_extensions(keep=frozenset(str(Path(p).resolve()) for p in built))


def ext_modules() -> list:
    if os.environ.get("RUMMYKIT_PURE_PYTHON", "") not in ("", "0"):
        remove_old_extensions()
        return []
    try:
        from mypyc.build import mypycify

        exts = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as e:  # mypyc refused the code (another mypy version)
        remove_old_extensions()
        warn(f"mypyc failed ({e!r:.200})")
        return []
    for ext in exts:
        ext.optional = True
    return exts


if __name__ == "__main__":  # (pip's build runs this file as __main__; a test imports it for its functions)
    setup(ext_modules=ext_modules(), cmdclass={"build_ext": AllOrNone})
