"""The websocket protocol ``rummykit serve`` gives uvicorn: uvicorn's own (websockets'
sans-I/O implementation) with per-message deflate at zlib level 1 instead of the default 6.

Every state message is compressed once per connection (a compressor keeps per-socket
state, so one text cannot be compressed once for all), and under load level 6 took about a
quarter of the server's time.  Level 1 is about seven times faster on a state message for
about a third more bytes (a 20 kB late-deal state: 1.9 kB at level 6, 2.6 kB at level 1).
"""

from __future__ import annotations

import logging
from typing import Any

COMPRESSION = ("fast", "best", "off")


def uvicorn_ws_options(compression: str) -> dict[str, Any]:
    """uvicorn.run keyword arguments for ``--ws-compression``: fast (level 1), best (uvicorn's
    default, level 6) or off."""
    if compression not in COMPRESSION:
        raise ValueError(f"ws compression must be one of {', '.join(COMPRESSION)}, not {compression!r}")
    if compression == "off":
        return {"ws_per_message_deflate": False}
    if compression == "best":
        return {}
    proto = _fast_protocol()
    return {} if proto is None else {"ws": proto}


def _fast_protocol() -> type | None:
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
        from websockets.server import ServerProtocol
    except ImportError:  # an older uvicorn: its default protocol, level 6
        return None

    class FastDeflateProtocol(WebSocketsSansIOProtocol):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:
                self.conn = ServerProtocol(
                    extensions=[ServerPerMessageDeflateFactory(
                        server_max_window_bits=12, client_max_window_bits=12,
                        compress_settings={"level": 1, "memLevel": 5})],
                    max_size=self.config.ws_max_size, logger=logging.getLogger("uvicorn.error"))

    return FastDeflateProtocol
