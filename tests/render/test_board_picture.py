from __future__ import annotations

from dataclasses import dataclass, field

from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from krosbalance.render.board_picture import DEPLOY_COLOURS, FREE, plot_board, positions_at, short_label


@dataclass
class StandInBoard:
    """The attributes plot_board reads, on a 4x3 board (cell = y * 4 + x, row 0 at the top)."""

    width: int = 4
    height: int = 3
    trees: int = 1 << 5
    bushes: int = 1 << 6
    crates: int = 1 << 1
    demon_cells: int = 1 << 9
    kama_cells: dict[int, int] = field(default_factory=lambda: {2: 1, 10: 2})
    deploy: tuple[int, ...] = (0b1111 << 8, 0b1111)


PIECES = [(1, "goultard", 0, 8, 0), (2, "kriss-la-krass", 1, 3, 4)]


def test_plot_board_returns_figure() -> None:
    fig = plot_board(StandInBoard(), PIECES, title="moment")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert "Goul" in texts and "Kris" in texts
    assert "#2 -4" in texts and "#1" in texts  # injuries shown only when there are some
    assert ax.get_title() == "moment"
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # row 0 drawn at the top


def test_plot_board_into_ax_without_pieces() -> None:
    fig = Figure()
    ax = fig.add_subplot()
    assert plot_board(StandInBoard(), ax=ax) is fig
    assert len(ax.patches) >= 12  # one square per cell at least


def test_short_label() -> None:
    assert short_label("goultard") == "Goul"
    assert short_label("kriss_la_krass", 3) == "Kri"


def test_positions_at() -> None:
    @dataclass
    class Ev:
        kind: str
        turn: int
        positions: tuple = ()

    events = [
        Ev("turn_started", 1),
        Ev("turn_ended", 1, ((1, "a", 0, 3, 0),)),
        {"kind": "turn_ended", "turn": 2, "positions": '[[1, "a", 0, 4, 2]]'},
    ]
    assert positions_at(events, turn=1) == [(1, "a", 0, 3, 0)]
    assert positions_at(events) == [(1, "a", 0, 4, 2)]
    assert positions_at(events, turn=0) == []


def test_real_board_from_ascii() -> None:
    import krosbalance.board as board_mod

    board = board_mod.Board.from_ascii(
        """
        b b b b
        . T 1 .
        . B D C
        a a a a
        """
    )
    fig = plot_board(board, [(1, "goultard", 0, 12, 1)], title="ascii")
    assert isinstance(fig, Figure)


@dataclass
class AssumedBoard(StandInBoard):
    name: str = "Somewhere (assumed layout)"
    source: str = "assumed layout: trees are known; bushes and crates are assumed.\n\nMore detail here."


def test_an_assumed_layout_is_labelled_under_the_picture() -> None:
    texts = [t.get_text() for t in plot_board(AssumedBoard()).axes[0].texts]
    label = [t for t in texts if "assumed layout" in t]
    assert label and "Somewhere" in label[0] and "More detail" not in label[0]
    plain = [t.get_text() for t in plot_board(StandInBoard()).axes[0].texts]
    assert not [t for t in plain if "assumed" in t]
    quiet = [t.get_text() for t in plot_board(AssumedBoard(), provenance=False).axes[0].texts]
    assert not [t for t in quiet if "assumed" in t]


def test_every_shipped_board_that_says_assumed_gets_a_label() -> None:
    from krosbalance.content.registry import list_boards, load_board
    from krosbalance.render.board_picture import assumed_note

    for board_id in list_boards():
        board = load_board(board_id)
        says = "assumed" in f"{board.name} {board.source}".lower()
        assert bool(assumed_note(board)) == says, board_id


def cell_colours(fig: Figure) -> list[str]:
    """The fill of each cell square, in cell order (the first ``w * h`` rectangles drawn)."""
    squares = [p for p in fig.axes[0].patches if isinstance(p, Rectangle)]
    return [to_hex(p.get_facecolor()) for p in squares]


def test_r_a156_every_deployment_zone_gets_its_own_tint() -> None:
    board = StandInBoard(width=4, height=3, deploy=(1 << 8, 1 << 0, 1 << 4, 1 << 7))
    fig = plot_board(board)
    colours = cell_colours(fig)
    assert [colours[c] for c in (8, 0, 4, 7)] == [to_hex(c) for c in DEPLOY_COLOURS]
    assert len(set(DEPLOY_COLOURS)) == 4 and to_hex(FREE) == colours[3]
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert [t for t in labels if t.startswith("deploy")] == ["deploy 0", "deploy 1", "deploy 2", "deploy 3"]
    two = [t.get_text() for t in plot_board(StandInBoard()).axes[0].get_legend().get_texts()]
    assert [t for t in two if t.startswith("deploy")] == ["deploy 0", "deploy 1"]


def test_a_shipped_four_player_board_draws_its_four_zones() -> None:
    from krosbalance.content.registry import load_board

    board = load_board("bonta-1")
    colours = cell_colours(plot_board(board))
    for zone, mask in enumerate(board.deploy):
        assert {colours[c] for c in range(board.n_cells) if mask >> c & 1} == {to_hex(DEPLOY_COLOURS[zone])}
