"""krosbalance: Krosmaster balance questions answered by simulation.

The names here are the public front door::

    import krosbalance as kb
    board = kb.load_board("arena-elemental")
    result = kb.play_match(["Queen of the Tofus", ...], ["King of the Gobballs", ...], seed=7)
"""

from krosbalance.board.board import Board
from krosbalance.content.registry import list_boards, list_characters, load_board, load_character
from krosbalance.play import play_match

__all__ = ["Board", "list_boards", "list_characters", "load_board", "load_character", "play_match"]
__version__ = "0.1.0"
