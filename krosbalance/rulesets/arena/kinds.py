"""Arena's action kinds, picked from the engine's ``EXTRA`` range (they mean something only under
Arena; another ruleset may reuse the same numbers for its own actions).

- ``PICK_KAMA``, ``BUY_GG``: picking up a kama (R-A49) and buying a GG (R-A50), resolved by
  :mod:`krosbalance.rulesets.arena.actions`;
- ``BUY_REWARD``, ``REVEAL_REWARD``: buying and revealing a Demonic Reward (R-A51, R-A54), resolved
  by :mod:`krosbalance.rulesets.arena.rewards`.

``Final``: compiled code reads them as constants, not module attributes.
"""

from __future__ import annotations

from typing import Final

from krosbalance.engine.legal import EXTRA

PICK_KAMA: Final = EXTRA
BUY_GG: Final = EXTRA + 1
BUY_REWARD: Final = EXTRA + 2
REVEAL_REWARD: Final = EXTRA + 3
