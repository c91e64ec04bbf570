"""``rummykit serve``: tables in the browser where people and bots play any ruleset together.

See docs/protocol.md for the HTTP API and the websocket protocol."""

from .app import create_app

__all__ = ["create_app"]
