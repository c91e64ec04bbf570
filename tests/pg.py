"""A throwaway PostgreSQL cluster for tests: Debian's initdb/pg_ctl run as the postgres
user in a temporary folder, listening on 127.0.0.1 on a free port, removed afterwards.

Missing binaries: the tests that need it are skipped, except in CI (``CI`` set), where
that is a failure: CI must test PostgreSQL.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin holding initdb and pg_ctl, or None."""
    def version(p: str) -> int:
        v = Path(p).parent.parent.name
        return int(v) if v.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    for p in reversed(found):
        b = Path(p).parent
        if (b / "pg_ctl").exists():
            return b
    return None


def _as_postgres(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    cmd = args if os.geteuid() != 0 else ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120, **kw)  # type: ignore[call-overload]


@contextmanager
def pg_cluster() -> Iterator[str]:
    """Start a cluster; yields its base URL ``postgresql://postgres@127.0.0.1:PORT``."""
    b = pg_bin()
    if b is None:
        raise FileNotFoundError("PostgreSQL's initdb/pg_ctl are not installed (/usr/lib/postgresql/*/bin)")
    d = tempfile.mkdtemp(prefix="rummykit-pg-")
    try:
        if os.geteuid() == 0:
            shutil.chown(d, "postgres", "postgres")
        data = os.path.join(d, "data")
        port = free_port()
        _as_postgres([str(b / "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                      "--no-sync"])
        # a throwaway cluster: no fsync (speed), sockets in its own folder, 127.0.0.1 only
        opts = (f"-p {port} -k {d} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off")
        _as_postgres([str(b / "pg_ctl"), "-D", data, "-o", opts, "-l", os.path.join(d, "log"), "-w", "start"])
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}"
        finally:
            _as_postgres([str(b / "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"])
    finally:
        shutil.rmtree(d, ignore_errors=True)


def create_database(base_url: str, name: str) -> str:
    """A new empty database in the cluster; its URL."""
    import psycopg

    with psycopg.connect(base_url + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base_url}/{name}"
