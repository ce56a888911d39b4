"""A bot that must take one crew whenever it is free: the forced play of ``stargazer explain``.

``ForcedCrewBot`` wraps any bot. When its seat picks a crew (R5: step 1 of a turn) and the crew
card ``crew`` lies free in the crew area, it picks that card without asking the bot; in every
other decision, and when the crew is taken or not in play, the bot decides. So two games on the
same deal and bot seeds, one with the wrapper and one without, are the same game until the
seat is first offered the crew (docs/simulation.md, "stargazer explain").
"""

from __future__ import annotations

from stargazer_rules.bots.base import Bot, root_values
from stargazer_rules.engine.game import Game
from stargazer_rules.vocabulary.actions import PICK_CREW, Action, action
from stargazer_rules.vocabulary.table import State

__all__ = ["ForcedCrewBot", "forced_pick"]


def forced_pick(game: Game, state: State, crew: str) -> Action | None:
    """The legal pick of the crew card ``crew`` in ``state``, or None when the player to move
    cannot pick it now (another decision, the card taken this round or not in play)."""
    for slot, card in enumerate(state.crew):
        if game.crew_ids[card] == crew:
            pick = action(PICK_CREW, slot)
            return pick if pick in game.legal_actions(state) else None
    return None


class ForcedCrewBot:
    """``bot``, except that it picks the crew ``crew`` whenever that pick is legal; ``taken``
    counts the picks it forced (what the bot would have picked is not asked)."""

    def __init__(self, bot: Bot, crew: str) -> None:
        self.bot = bot
        self.crew = crew
        self.spec = bot.spec
        self.taken = 0
        self._forced_last = False

    def choose(self, game: Game, state: State) -> Action:
        pick = forced_pick(game, state, self.crew)
        self._forced_last = pick is not None
        if pick is None:
            return self.bot.choose(game, state)
        self.taken += 1
        return pick

    def last_values(self) -> list[float] | None:
        """The bot's root values of its last search; None after a forced pick (not searched)."""
        return None if self._forced_last else root_values(self.bot)
