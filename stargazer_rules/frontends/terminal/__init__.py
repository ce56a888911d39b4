"""Play Stargazer in a terminal, and play a game record back.

``stargazer play`` and ``stargazer replay`` (``cli/play_commands.py``) only parse their options; the work is
here, with the input and output streams passed in, so that tests drive a whole game through
``io.StringIO`` as well as through a real pseudo-terminal.

- ``parse_seats``: the ``--seats`` text as one entry per seat, ``None`` for a person and a
  canonical bot spec otherwise.
- ``screen_lines``: what a state looks like: the ring with each square's VP and the cubes on it,
  the crew area, the players with their provisional scores, and what happened since the last
  screen. Colours (ANSI) are an extra: every cube is also a digit (its seat) or ``F`` (a free
  cube), so the screen reads the same without them.
- ``PlaySession``: the input loop of ``stargazer play``: numbered choices, ``u`` undo, ``s``
  save, ``h`` help, ``q`` quit. Bots are seeded per decision (``bot_seed``), so a game is a
  function of its seed and the people's choices: undoing and choosing the same again replays
  the same bot moves.
- ``load_record`` and ``replay_game``: ``stargazer replay``.

The modules: ``seats`` (who sits where), ``screen`` (what a state looks like), ``play`` (the
input loop), ``replay``. Every word comes from the message catalogue (``labels`` section), in
Japanese or English.
"""

from __future__ import annotations

from stargazer_rules.errors import ReplayError, SeatsError
from stargazer_rules.frontends.terminal.play import PlaySession, write_record
from stargazer_rules.frontends.terminal.replay import load_record, load_record_to_play, one_line, record_seats, replay_game
from stargazer_rules.frontends.terminal.screen import screen_lines, sheet_lines, use_colour
from stargazer_rules.frontends.terminal.seats import HUMAN_WORDS, bot_seed, default_record_name, parse_seats, seat_names

__all__ = [
    "HUMAN_WORDS",
    "PlaySession",
    "ReplayError",
    "SeatsError",
    "bot_seed",
    "default_record_name",
    "load_record",
    "load_record_to_play",
    "one_line",
    "parse_seats",
    "record_seats",
    "replay_game",
    "screen_lines",
    "seat_names",
    "sheet_lines",
    "use_colour",
    "write_record",
]
