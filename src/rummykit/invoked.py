"""The commands rummykit prints ("`rummykit resume 3` goes on from here"), written so that
they work as printed.

After the README's set-up (``python3 -m venv .venv && .venv/bin/pip install -e .``) the
venv is not activated, so ``rummykit`` is not on PATH: a printed ``rummykit resume`` would
be "command not found".  :func:`program` names what works: ``rummykit`` when that name
on PATH is the program running now, else the path of the running program (relative to
the current folder when it is inside it, as the README's ``.venv/bin/rummykit``), or
``python -m rummykit`` for a run through the interpreter.  :func:`command` adds the
arguments and the ``--db`` file when it is not the default one.  No rummykit imports at
module level: every layer may use it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path


def _shown(path: str) -> str:
    """A path as a person types it: relative when inside the current folder (with a
    slash in it, so the shell runs it rather than looking it up on PATH)."""
    p = Path(path).absolute()
    try:
        rel = p.relative_to(Path.cwd())
    except ValueError:
        return str(p)
    text = str(rel)
    return text if os.sep in text else f".{os.sep}{text}"


def program(argv0: str | None = None, executable: str | None = None) -> str:
    """How a person runs this rummykit again from the same shell (quoted for it)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    name = Path(argv0).name
    if name in ("rummykit", "rummykit.exe", "rummykit-script.py") and Path(argv0).exists():
        found = shutil.which("rummykit")
        try:
            if found is not None and os.path.samefile(found, argv0):
                return "rummykit"
        except OSError:  # a path that vanished or cannot be compared: name it in full below
            pass
        return shlex.quote(_shown(argv0))
    return f"{shlex.quote(_shown(executable))} -m rummykit"


def command(*args: str | int, db: str | Path | None = None) -> str:
    """``program()`` with ``args``, and ``--db FILE`` when ``db`` is not the default file."""
    parts = [program(), *(shlex.quote(str(a)) for a in args)]
    if db is not None:
        from .paths import default_path

        path = Path(db)
        if path.absolute() != default_path().absolute():
            parts += ["--db", shlex.quote(_shown(str(path)))]
    return " ".join(parts)
