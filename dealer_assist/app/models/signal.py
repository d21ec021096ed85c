"""A tiny event emitter: models emit, widgets subscribe. No Qt, so models test headless."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Signal:
    """Callbacks called in the order connected; `emit` passes its arguments through."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[..., Any]] = []

    def connect(self, callback: Callable[..., Any]) -> None:
        if callback not in self._callbacks:
            self._callbacks.append(callback)

    def disconnect(self, callback: Callable[..., Any]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, *args: Any) -> None:
        for callback in list(self._callbacks):
            callback(*args)
