"""Read-only log events: every view shares the game's events instead of copying the log."""

from __future__ import annotations

from typing import Any


def _read_only(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError("a log event is read-only; copy it (dict(event), list(...)) to change it")


class _Shared:
    """What a read-only container shares: copying gives itself; pickling, a plain copy
    of its own kind."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        plain = list if isinstance(self, list) else dict
        return (type(self), (plain(self),))  # type: ignore[call-overload]

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class FrozenList(_Shared, list[Any]):
    """A list nobody can change (a log event's list of cards or melds); it still prints,
    compares and serialises as a list."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only  # type: ignore[assignment]
    append = extend = insert = remove = pop = clear = sort = reverse = _read_only  # type: ignore[assignment]


class Event(_Shared, dict[str, Any]):
    """One line of the round's log: a read-only dict (``seat``, ``verb``, ``text`` and
    the facts of the move), read-only all the way down.  Every view shares the game's
    events instead of copying the whole log for each decision, so none may change one."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for k, v in self.items():
            if type(v) in NESTED:  # plain containers; frozen ones are kept as they are
                dict.__setitem__(self, k, frozen(v))

    __setitem__ = __delitem__ = __ior__ = _read_only  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _read_only  # type: ignore[assignment]


NESTED = (list, tuple, dict)  # the plain containers an event's values are frozen from


def frozen(v: Any) -> Any:
    """``v`` read-only all the way down (dicts as events, lists and tuples as frozen lists)."""
    if type(v) is dict:
        return Event(v)
    if type(v) in NESTED:
        return FrozenList(frozen(x) for x in v)
    return v
