"""Reading a game record a person names on the command line (a JSON file, or one line of a
JSON-lines file such as ``simulate --records`` writes), with messages that say what is wrong."""

from __future__ import annotations

import json
from typing import Any

import click


def read_record(name: str, text: str, line: int) -> Any:
    """Record ``line`` (1-based) of a JSON-lines file, or the one record of a JSON file."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise click.ClickException(f"{name} is empty: a game record is a JSON object")
    if line < 1:
        raise click.ClickException(f"--line counts from 1: --line {line} is no record")
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested too deep to read
        whole = None
    if whole is not None or len(lines) == 1:
        if line != 1:
            raise click.ClickException(f"{name} holds one record, so there is no line {line}; "
                                       "--line picks a record of a JSON-lines file (simulate --records)")
        if whole is None:
            raise click.ClickException(f"{name} is not a game record (JSON): {_json_error(lines[0])}")
        return whole
    if line > len(lines):
        raise click.ClickException(f"{name} holds {len(lines)} records, so there is no --line {line}; "
                                   f"choose --line 1-{len(lines)}")
    try:
        return json.loads(lines[line - 1])
    except (ValueError, RecursionError) as e:
        raise click.ClickException(f"{name}, line {line}, is not a game record (JSON): {e}") from None


def _json_error(text: str) -> str:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return str(e)
    except RecursionError:
        return "nested too deep to read"
    return "not JSON"
