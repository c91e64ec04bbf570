"""State messages to JSON text, cheaply: the same text as ``json.dumps(msg)``.

Most of a state message is the view's round log (in words), which every seat shares and
which only grows during a deal; encoding it whole for every recipient after every action
made ``json.dumps`` a quarter of the server's time under load.  A :class:`StateEncoder` (one
per table) keeps the encoded text of the last long list under each view key: the same list
again (every other recipient of a broadcast) is not encoded again, and a list that grew is
encoded entry by entry reusing the entries that did not change (compared with ``==``).  The
rest of a message is one ``json.dumps`` call, with a placeholder where each long list goes.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

LONG = 24  # lists at least this long are encoded with the cache
_MARK = "rk-" + secrets.token_hex(8)  # placeholders: json.dumps writes them as "<_MARK>:<key>"


class StateEncoder:
    def __init__(self) -> None:
        self._lists: dict[str, tuple[list[Any], list[str], str]] = {}

    def encode(self, msg: dict[str, Any]) -> str:
        view = msg.get("view")
        if not isinstance(view, dict):
            return json.dumps(msg)
        longs = {k: v for k, v in view.items()
                 if isinstance(k, str) and isinstance(v, list) and len(v) >= LONG}
        if not longs:
            return json.dumps(msg)
        short_view = {k: (f"{_MARK}:{k}" if k in longs else v) for k, v in view.items()}
        text = json.dumps({**msg, "view": short_view})
        for k, v in longs.items():
            text = text.replace(json.dumps(f"{_MARK}:{k}"), self._list(k, v), 1)
        return text

    def _list(self, key: str, items: list[Any]) -> str:
        old, old_enc, whole = self._lists.get(key, ([], [], ""))
        if items == old:
            return whole
        n = len(old)
        enc = [old_enc[i] if i < n and old[i] == x else json.dumps(x) for i, x in enumerate(items)]
        whole = "[" + ", ".join(enc) + "]"
        self._lists[key] = (list(items), enc, whole)
        return whole
