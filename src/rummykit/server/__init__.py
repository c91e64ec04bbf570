"""``rummykit serve``: tables in the browser where people and bots play any ruleset together.

See docs/protocol.md for the HTTP API and the websocket protocol.  The server's libraries
come with the ``serve`` extra (``pip install 'rummykit[serve]'``); ``create_app`` is
imported when first asked for, so ``rummykit.server.client`` (``rummykit join``, which
needs only websockets) and ``rummykit.server.limits`` load without them."""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
