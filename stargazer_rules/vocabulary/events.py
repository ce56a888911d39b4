"""Events: what happened, as a message key plus parameters, never as English text.

Front ends render an event through the catalogue (``stargazer_rules/text/messages.yaml``) in
Japanese or English; parameters name cards by id and players by seat, so they are plain JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from stargazer_rules.contract.events import EVENTS

#: Every event key the engine emits, with the parameters it carries, as the contract declares
#: them (``contract.events``: their meanings and types too, and the event schema).
EVENT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {event.key: tuple(param.name for param in event.params) for event in EVENTS}
)


@attrs.frozen
class Event:
    """One thing that happened. ``params`` holds only JSON values (ids, seats, numbers, lists).

    ``owner`` -1 in ``cube_placed`` is a free cube (the virtual player); ``square`` 0 is the
    special square.
    """

    key: str
    params: Mapping[str, Any] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, **self.params}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        params = dict(data)
        key = params.pop("key")
        return cls(key, params)
