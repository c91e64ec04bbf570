"""A light core (issue 42): ``pip install rummykit`` gives the engine, the bots and the
terminal game; the server and RL are extras (``[serve]``, ``[rl]``, ``[all]``).

A fresh virtual environment gets exactly the core's dependencies as pyproject.toml lists
them (so a core module that needs more fails here), and rummykit's sources: the core
imports and plays there, and the commands that need an extra say in one sentence how to
install it.  It builds a venv (about 30 s): ``pytest -m 'not venv'`` leaves it out."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTRAS_ONLY = ("fastapi", "uvicorn", "starlette", "sqlalchemy", "alembic", "psycopg", "websockets", "orjson",
               "prometheus_client", "pythonjsonlogger", "numpy", "gymnasium", "pettingzoo")
CORE = ["rummykit", "rummykit.engine.game", "rummykit.solver", "rummykit.players", "rummykit.players.search",
        "rummykit.arena", "rummykit.store", "rummykit.play.session", "rummykit.play.plain",
        "rummykit.play.tui", "rummykit.cli.main", "rummykit.rl", "rummykit.server.limits", "rummykit.invoked"]


def test_the_extras_are_declared_and_the_core_needs_none_of_them() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"]).lower()
    extras = project["optional-dependencies"]
    for lib in ("fastapi", "uvicorn", "sqlalchemy", "numpy", "prometheus-client", "python-json-logger"):
        assert lib not in core, lib
    assert {"serve", "rl", "all", "test"} <= set(extras)
    assert any("prometheus-client" in x for x in extras["serve"])
    assert extras["all"] == ["rummykit[serve,rl]"]
    assert "rummykit[serve,rl]" in extras["test"]  # the tests need both


@pytest.mark.venv
def test_the_core_runs_in_a_venv_without_the_extras(tmp_path: Path) -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    venv = tmp_path / "core"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = str(venv / "bin" / "python")
    got = subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *deps],
                         capture_output=True, text=True, timeout=600)
    assert got.returncode == 0, got.stderr[-3000:]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    env.pop("VIRTUAL_ENV", None)

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([py, *args], capture_output=True, text=True, input=stdin, env=env, timeout=300,
                              cwd=tmp_path)

    here = run("-c", "import importlib.util as u, sys; "
                     f"print([m for m in {EXTRAS_ONLY!r} if u.find_spec(m)])")
    assert here.returncode == 0 and here.stdout.strip() == "[]", (here.stdout, here.stderr)  # none of them
    imported = run("-c", f"import importlib; [importlib.import_module(m) for m in {CORE!r}]; print('ok')")
    assert imported.returncode == 0 and imported.stdout.strip() == "ok", imported.stderr[-3000:]
    # the main job: a game in the terminal, saved, listed
    db = str(tmp_path / "games.sqlite3")
    played = run("-m", "rummykit", "play", "--plain", "-v", "basic", "-p", "2", "--speed", "0", "--seed", "3",
                 "--db", db, stdin="1\nq\n")
    assert played.returncode == 0 and "The game is saved" in played.stdout, played.stderr[-3000:]
    listed = run("-m", "rummykit", "games", "--db", db)
    assert listed.returncode == 0 and "basic" in listed.stdout, listed.stderr
    simulated = run("-m", "rummykit", "simulate", "--variant", "basic", "--players", "2", "--games", "2",
                    "-q", "--workers", "1")
    assert simulated.returncode == 0, simulated.stderr[-3000:]
    # what needs an extra says how to install it, in one sentence
    for command in (["serve"], ["join", "http://127.0.0.1:1/t/x", "--name", "A"]):
        r = run("-m", "rummykit", *command)
        err = r.stderr.strip()
        assert r.returncode == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
        assert "pip install 'rummykit[serve]'" in err and f"rummykit {command[0]}" in err, err
    rl = run("-c", "import rummykit.rl\ntry:\n    rummykit.rl.env('basic', 2)\nexcept ImportError as e:\n"
                   "    print(e)")
    assert rl.returncode == 0 and "pip install 'rummykit[rl]'" in rl.stdout, (rl.stdout, rl.stderr)
