"""Relay's durable local store: one SQLite database under RELAY_HOME (see docs/store.md).

The runtime holds one `Store`; front doors never use this package directly. Nothing here imports
the rules engine or the model layer.
"""

from bridge.store.outbox import Delivery
from bridge.store.store import PlanRecord, Store

__all__ = ["Delivery", "PlanRecord", "Store"]
