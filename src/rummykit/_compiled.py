"""Which form of the engine runs: the modules setup.py compiles with mypyc, or their
``.py`` sources.

An install compiles them unless ``RUMMYKIT_PURE_PYTHON=1`` was set when it was built
(see setup.py); each keeps its ``.py`` beside the extension.  ``RUMMYKIT_PURE_PYTHON=1``
when Python starts makes rummykit import the sources even where the extensions are
installed, so one install runs the tests both ways.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import SOURCE_SUFFIXES, ExtensionFileLoader, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

ENV = "RUMMYKIT_PURE_PYTHON"


def pure_requested() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


class SourcesOnly:
    """A meta path finder: rummykit's submodules from their ``.py`` files, never from an
    extension module beside them."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith("rummykit.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None and spec.loader is not None:
                return spec
        return None  # not a source module (a namespace package, data): the usual finders


def use_sources() -> None:
    if SourcesOnly not in sys.meta_path:
        sys.meta_path.insert(0, SourcesOnly)  # type: ignore[arg-type]


def compiled() -> bool:
    """Whether the engine runs compiled (its solver imported from an extension module)."""
    from . import solver

    spec = solver.__spec__
    return spec is not None and isinstance(spec.loader, ExtensionFileLoader)


def stale_builds(pkg: Path | None = None) -> list[str]:
    """In a checkout (an editable install), the sources changed since their modules were
    compiled: the old build is what runs until ``pip install -e .`` is run again."""
    from importlib.machinery import EXTENSION_SUFFIXES

    pkg = pkg or Path(__file__).parent
    if "site-packages" in pkg.parts or "dist-packages" in pkg.parts:
        return []
    out = []
    for suffix in EXTENSION_SUFFIXES[:1]:
        for ext in pkg.rglob("*" + suffix):
            src = ext.with_name(ext.name[: -len(suffix)] + ".py")
            if src.exists() and src.stat().st_mtime > ext.stat().st_mtime:
                out.append(str(src.relative_to(pkg.parent)))
    return sorted(out)


if pure_requested():
    use_sources()
elif stale := stale_builds():
    import warnings

    warnings.warn(f"rummykit: {', '.join(stale)} changed since compiled, and the old build runs: "
                  "pip install -e . again (or set RUMMYKIT_PURE_PYTHON=1)", stacklevel=2)
