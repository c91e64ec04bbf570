"""Garbage collection that does not stall every table: ``rummykit serve``'s policy.

CPython's collector of reference cycles walks every tracked object on a full (generation 2)
collection.  With hundreds of tables in play that is about half a million objects, and the
event loop — every table of the process — stood still for 300-450 ms each time, several
times a minute (measured with gc.callbacks at 500 tables: the whole of the load bench's p99).

Objects that have lived through a while are moved to the permanent generation with
``gc.freeze()`` every ``freeze_seconds``, so a full collection walks only what was made since.
Frozen objects are still freed by reference counting when they are let go; only cycles among
them wait for the sweep: every ``sweep_seconds`` the permanent generation is thawed and
collected once (one pause of that length, instead of one every few seconds).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("rummykit.server")


async def quiet_gc(freeze_seconds: float = 5.0, sweep_seconds: float = 900.0) -> None:
    """Run for the life of the server (cancel it to stop)."""
    gc.freeze()
    last_sweep = time.monotonic()
    try:
        while True:
            await asyncio.sleep(freeze_seconds)
            if sweep_seconds and time.monotonic() - last_sweep >= sweep_seconds:
                gc.unfreeze()
                started = time.perf_counter()
                found = gc.collect()
                log.info("gc sweep: %d unreachable objects in %.0f ms", found,
                         (time.perf_counter() - started) * 1000)
                last_sweep = time.monotonic()
            gc.freeze()
    finally:
        gc.unfreeze()
