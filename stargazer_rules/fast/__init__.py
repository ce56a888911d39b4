"""The fast API over the native kernel: integer actions, observations and batched stepping
(docs/api.md, "Fast API")."""

from stargazer_rules.fast.game import FastBatch, FastGame, FastState

__all__ = ["FastBatch", "FastGame", "FastState"]
