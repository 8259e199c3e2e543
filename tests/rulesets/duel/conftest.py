"""Shared helpers of the Duel Pack rule tests: characters picked by set and by what they are (level,
powers), never by a hand-kept list; a scripted duel player; a set-up state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from krosbalance.content.registry import load_board
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.events import FULL
from krosbalance.engine.legal import END, Action
from krosbalance.engine.state import MatchState
from krosbalance.engine.view import MatchView
from krosbalance.rulesets.duel.ruleset import DuelRuleset
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.duel import duel_pack, duel_registry
from krosbalance.testing.scenario import ScriptedController

#: powers that add dice to a Lock, Dodge, Critical or Armour roll, or free a piece from Lock
DICE_POWERS = ("lock", "dodge", "critical", "armour", "tiny")


def plain_krosmasters() -> list[str]:
    """Krosmasters (the Duel Pack's first) whose rolls use one die: no dice powers, not Tiny."""
    registry = duel_registry()
    names = duel_pack() + registry.list_characters("krosmaster", game="arena")
    return [
        n
        for n in dict.fromkeys(names)
        if not any(registry.load_character(n).has_power(p) for p in DICE_POWERS)
    ]


def spec(name: str) -> Any:
    return duel_registry().load_character(name)


def krosmaster_of_level(level: int, *, exclude: Sequence[str] = ()) -> str:
    """A Krosmaster of that level (Duel Pack first, then the box)."""
    registry = duel_registry()
    for name in [*duel_pack(), *registry.list_characters("krosmaster", game="arena")]:
        if name not in exclude and registry.load_character(name).level == level:
            return name
    raise LookupError(f"no Krosmaster of level {level}")


class DuelPlayer(ScriptedController):
    """A scripted duel player: draft picks (indices), token holders (uids), duel cells, reveals
    (indices or -1); records what each decision was offered and in which order it was asked."""

    log: list[tuple[str, int]] = []  # (decision, side), shared so tests see the order across players

    def __init__(
        self,
        actions: Sequence[Any] = (),
        *,
        picks: Sequence[int] = (),
        holders: Sequence[int] = (),
        reveals: Sequence[int] = (),
        deployment: Sequence[int] = (),
    ) -> None:
        super().__init__(actions, deployment=deployment)
        self.picks = list(picks)
        self.holders = list(holders)
        self.reveals = list(reveals)
        self.draft_seen: list[tuple[list[Any], int]] = []
        self.cells_seen: list[tuple[int, list[int]]] = []
        self.reveal_seen: list[list[Any]] = []
        self.deploy_seen: list[list[int]] = []

    def choose_duel_draft(self, view: MatchView, choices: list[Any], budget: int) -> int:
        self.log.append(("draft", view.side))
        self.draft_seen.append((list(choices), budget))
        return self.picks.pop(0) if self.picks else 0

    def choose_token_holder(self, view: MatchView, token: Any, candidates: list[Any]) -> int:
        return self.holders.pop(0) if self.holders else int(candidates[0].uid)

    def choose_deployment(self, view: MatchView, fighters: list[Any], cells: list[int]) -> list[int]:
        self.log.append(("deploy", view.side))
        self.deploy_seen.append(list(cells))
        return list(self.deployment) if self.deployment else cells[: len(fighters)]

    def choose_duel_cell(self, view: MatchView, level: int, cells: list[int]) -> int:
        self.log.append(("place", view.side))
        self.cells_seen.append((level, list(cells)))
        return cells[0]

    def choose_reveal(self, view: MatchView, choices: list[Any]) -> int:
        self.reveal_seen.append(list(choices))
        return self.reveals.pop(0) if self.reveals else -1

    def choose_action(self, view: MatchView) -> Action:
        action = super().choose_action(view)
        return action if action is not None else Action(END)


def set_up(
    team0: Sequence[str],
    team1: Sequence[str],
    *,
    board: str = "duel-workshop",
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> tuple[MatchState, DuelRuleset, tuple[MatchView, MatchView]]:
    """A duel set up (teams spawned, first player, duel level, shuffled supply), not yet deployed."""
    rules = get_ruleset("duel", options or {})
    assert isinstance(rules, DuelRuleset)
    registry = duel_registry()
    teams = (rules.validate_team(team0, registry), rules.validate_team(team1, registry))
    state = rules.setup(
        teams, load_board(board), ScriptedDice([]), np.random.default_rng(seed), registry, FULL
    )
    DuelPlayer.log = []
    return state, rules, (MatchView(state, 0), MatchView(state, 1))
