"""State messages to JSON text, cheaply: the same text as ``json.dumps(msg)``.

Most of a state message is the view's round log (in words), which every seat shares and
which only grows during a deal; encoding it whole for every recipient after every action
made ``json.dumps`` a quarter of the server's time under load.  A :class:`StateEncoder` (one
per table) keeps the encoded entries of the last long list under each view key and encodes
only the entries that changed (compared with ``==``), so a broadcast encodes each new log
entry once.
"""

from __future__ import annotations

import json
from typing import Any

LONG = 24  # lists at least this long are encoded entry by entry, with the cache


class StateEncoder:
    def __init__(self) -> None:
        self._lists: dict[str, tuple[list[Any], list[str]]] = {}

    def encode(self, msg: dict[str, Any]) -> str:
        parts = []
        for k, v in msg.items():
            if k == "view" and isinstance(v, dict):
                parts.append('"view": ' + self._view(v))
            else:
                parts.append(json.dumps(k) + ": " + json.dumps(v))
        return "{" + ", ".join(parts) + "}"

    def _view(self, view: dict[str, Any]) -> str:
        parts = []
        for k, v in view.items():
            if isinstance(v, list) and len(v) >= LONG:
                enc = self._list(k, v)
            else:
                enc = json.dumps(v)
            parts.append(json.dumps(k) + ": " + enc)
        return "{" + ", ".join(parts) + "}"

    def _list(self, key: str, items: list[Any]) -> str:
        old, old_enc = self._lists.get(key, ([], []))
        n = len(old)
        enc = [old_enc[i] if i < n and old[i] == x else json.dumps(x) for i, x in enumerate(items)]
        self._lists[key] = (list(items), enc)
        return "[" + ", ".join(enc) + "]"
