"""The scenario kit on both engines (issues 37 and 41): every engine step a :class:`Scenario` takes
(Arena's, a :class:`~krosbalance.testing.duel.DuelScenario`, a
:class:`~krosbalance.testing.blast.BlastScenario`) is played by the reference and by the native core
from the same position, and both must agree.

Before each step (an action, the start or the end of an activation, a whole game turn) the kit
exports the reference's position as plain data (:mod:`krosbalance.testing.position_export`: every
fighter's cell, injuries, AP, MP, markers, powers, spells and uses; the dice still scripted; the
ruleset's own state: Arena's GG, kamas, market and reward cards, the Duel Pack's level, supply and
Duel Tokens on cells and cards, Blast's glyphs, tiles, Dofus token, favors and challenges); the
core rebuilds it (``krosbalance_core.scenario_step``, ``duel_scenario_step``,
``blast_scenario_step``: one step generic over the ruleset seam, each ruleset's state its own),
plays the same step and hands back its events and its position in the same plain form. The reference then plays the step and the
two are compared: the events of the step, the position after it, the dice rolled. The position
crossing whole before every step is what lets a test write into the reference's state between steps
(``anna.injuries = 3``) and still be compared; the players' decisions cross as the reference's own
answers, recorded while it plays and replayed in the core (``_Recording``).

A disagreement raises :class:`ScenarioDivergence` (an ``AssertionError``) naming the step, the first
differing event and both positions where they differ. What the core cannot rebuild (a trap, a power
or a ruleset outside the core, a reference step that raised) stops the mirroring for that scenario,
with the reason, and the scenario goes on in the reference alone; :mod:`krosbalance.testing.
scenario_coverage` lists those tests.

Mirroring is on for Arena, Duel and Blast scenarios (:data:`MIRRORED`) when the core is available
(:func:`krosbalance.native.available`) and ``KROSBALANCE_SCENARIO_CORE`` is not ``0``;
``Scenario(..., core=False)`` turns it off for one scenario. The players' decisions a step may ask
are Arena's (tension, edges, creatures, a player, a reward), the Duel Pack's token to reveal at a
turn's start (R-D21) and Blast's favor slot (R-B9) and next fighter (R-B10, R-B11); the pregame's
(deployment, draft, duel cells) are no scenario step.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from krosbalance import native
from krosbalance.content.blast import blast_cards
from krosbalance.engine.dice import ScriptedDice
from krosbalance.engine.legal import is_legal, legal_actions
from krosbalance.engine.state import Players
from krosbalance.rulesets.arena.options import punch
from krosbalance.rulesets.arena.rewards import reward_creatures
from krosbalance.rulesets.blast.pregame import summoned_by
from krosbalance.testing.differential import _event
from krosbalance.testing.position_export import Unmirrored, differences, export_position, plain

if TYPE_CHECKING:
    from krosbalance.content.specs import CharacterSpec
    from krosbalance.engine.state import Fighter
    from krosbalance.testing.scenario import Scenario

__all__ = [
    "ENV",
    "MIRRORED",
    "CoreMirror",
    "ScenarioDivergence",
    "mirroring_wanted",
    "observed",
]

#: ``0`` turns the lockstep off for every scenario (``1``, the default, leaves it on when it can run)
ENV = "KROSBALANCE_SCENARIO_CORE"
#: the rulesets whose scenarios the core plays in lockstep
MIRRORED = ("arena", "duel", "blast")
T = TypeVar("T")


class ScenarioDivergence(AssertionError):
    """The engines disagree on one step of a scenario."""


def mirroring_wanted(ruleset: str, core: bool | None) -> bool:
    """Whether a new scenario is mirrored: a ruleset of :data:`MIRRORED`, the core available, not
    turned off."""
    if core is False or ruleset not in MIRRORED:
        return False
    if os.environ.get(ENV, "1").strip() == "0":
        return False
    return native.available()


# ---------------------------------------------------------------------------- who is watching


@dataclasses.dataclass
class Observed:
    """What the scenarios of one test did: steps compared on both engines, and why any stopped."""

    scenarios: int = 0
    #: the rulesets of those scenarios (``arena``, ``duel``, ``blast``)
    rulesets: set[str] = dataclasses.field(default_factory=set)
    steps: int = 0
    checks: int = 0
    stopped: list[str] = dataclasses.field(default_factory=list)
    #: set when the test patches the reference (monkeypatch): the core would disagree by design
    forbid: str = ""


_OBSERVED: contextvars.ContextVar[Observed | None] = contextvars.ContextVar("scenario_observed", default=None)


class observed:
    """Context manager: scenarios made inside it report to one :class:`Observed` (the suite's
    per-test fixture, ``tests/conftest.py``)."""

    def __init__(self, forbid: str = "") -> None:
        self.record = Observed(forbid=forbid)

    def __enter__(self) -> Observed:
        self._token = _OBSERVED.set(self.record)
        return self.record

    def __exit__(self, *exc: object) -> None:
        _OBSERVED.reset(self._token)


# ---------------------------------------------------------------------------- the position


# ---------------------------------------------------------------------------- the players


_RECORDED = frozenset(
    (
        "choose_action",
        "order_triggers",
        "choose_tension",
        "choose_edge",
        "order_creatures",
        "choose_player",
        "give_reward",
        "choose_deployment",
        "choose_reveal",
        "choose_favor_slot",
        "choose_next",
    )
)


class _Recording:
    """A player that answers as the one it wraps and writes each answer down, by seat, for the
    core to replay; every other attribute is the wrapped player's."""

    def __init__(self, inner: Any, log: dict[int, list[tuple[Any, ...]]]) -> None:
        self._inner = inner
        self._log = log

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if name not in _RECORDED:
            return value
        return lambda *args: self._answer(name, value, args)

    def _answer(self, name: str, method: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        answer = method(*args)
        seat = args[0].side
        if name == "choose_action":
            entry: tuple[Any, ...] = ("action", (answer.kind, answer.spell, answer.target))
        elif name == "order_triggers":
            entry = ("triggers", [int(i) for i in answer])
        elif name == "choose_tension":
            entry = ("tension", (tuple(answer.faces), tuple(answer.assigned)))
        elif name == "choose_edge":
            entry = ("edge", int(answer))
        elif name == "order_creatures":
            entry = ("creatures", [int(u) for u in answer])
        elif name == "choose_player":
            entry = ("player", int(args[2][int(answer)]))
        elif name == "give_reward":
            entry = ("reward", int(answer))
        elif name == "choose_reveal":
            entry = ("reveal", int(answer))
        elif name == "choose_favor_slot":
            entry = ("favor_slot", int(answer))
        elif name == "choose_next":
            entry = ("next", int(answer))
        else:
            entry = ("deployment",)
        self._log.setdefault(seat, []).append(entry)
        return answer


class _RecordingDice:
    """Dice that roll as the ones they wrap and write the faces down: a step played with dice that
    are not a script (a puzzle's seeded dice) hands the core the faces the reference rolled."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.faces: list[int] = []

    def roll(self) -> int:
        face = int(self.inner.roll())
        self.faces.append(face)
        return face


# ---------------------------------------------------------------------------- the mirror

_CATALOGS: dict[tuple[Any, ...], tuple[Any, list[Any]]] = {}


def _catalog(specs: Mapping[str, CharacterSpec], rewards: Sequence[Any], with_punch: bool = True) -> Any:
    """The core's catalog of a scenario's characters (cached by the spec objects themselves);
    ``with_punch``: the ruleset gives its Krosmasters Arena's punch (Arena; the Duel Pack under
    its ``punch`` option)."""
    key = (with_punch, len(rewards), *sorted((name, id(spec)) for name, spec in specs.items()))
    if key not in _CATALOGS:
        if len(_CATALOGS) > 64:
            _CATALOGS.clear()
        ordered = [specs[name] for name in sorted(specs)]  # the order Blast's card powers follow
        try:
            made = native.core().ArenaCatalog(ordered, punch() if with_punch else None, list(rewards))
        except ValueError as error:
            raise Unmirrored(str(error)) from None
        _CATALOGS[key] = (made, ordered)  # the specs kept alive: their ids stay theirs
    return _CATALOGS[key][0]


def _duel_rules(sc: Scenario, specs: Sequence[CharacterSpec]) -> Any:
    rules: Any = sc.rules
    return native.core().DuelScenarioRules(rules.opts, list(rules.tokens.tokens))


def _blast_rules(sc: Scenario, specs: Sequence[CharacterSpec]) -> Any:
    """Blast's ruleset in the core: ``specs`` in the catalog's order (its card powers by index),
    every favor and challenge of the box (the scenario's are found among them by id)."""
    cards = blast_cards()
    rules: Any = sc.rules
    glyphs = sc.board.features.get("glyph", 0)
    return native.core().BlastScenarioRules(
        list(specs), rules.opts, cards.favors(), cards.challenges(), glyphs
    )


#: the core's ruleset object of a Duel or Blast scenario, made from its catalog's specs (Arena's
#: crosses as its options)
_RULES: dict[str, Callable[[Scenario, Sequence[CharacterSpec]], Any]] = {
    "duel": _duel_rules,
    "blast": _blast_rules,
}
#: each ruleset's step in the core
_STEPS = {"arena": "scenario_step", "duel": "duel_scenario_step", "blast": "blast_scenario_step"}


class CoreMirror:
    """One scenario's lockstep with the core (see the module docstring)."""

    def __init__(self, scenario: Scenario) -> None:
        self.sc = scenario
        self.steps = 0
        self.checks = 0  # legality questions asked of both engines
        self.stopped = ""
        self.ended = ""  # the lockstep's end without a reason against it (both engines refused a step)
        #: test-only, the kit's own divergence tests: "step" alters the core's next step's first
        #: event (inside the core), "legal" drops the core's first legal action
        self.plant = ""
        self._board: Any = None
        self._rules: tuple[Any, Any] | None = None  # (catalog, the core's Duel or Blast ruleset)
        self.observed = _OBSERVED.get()
        if self.observed is not None:
            self.observed.scenarios += 1
            self.observed.rulesets.add(scenario.rules.name)
            if self.observed.forbid:
                self.stop(self.observed.forbid)

    @property
    def active(self) -> bool:
        return not self.stopped and not self.ended

    def stop(self, reason: str) -> None:
        """Stop the mirroring of this scenario for good, saying why."""
        if not self.stopped:
            self.stopped = reason
            if self.observed is not None:
                self.observed.stopped.append(reason)

    def wrap(self, controller: Any, log: dict[int, list[tuple[Any, ...]]]) -> Any:
        return controller if controller is None or not self.active else _Recording(controller, log)

    def _specs(self) -> dict[str, CharacterSpec]:
        state = self.sc.state
        specs: dict[str, CharacterSpec] = {}
        for spec in [f.spec for f in state.fighters] + list(state.summon_specs.values()):
            if specs.setdefault(spec.id, spec) is not spec:
                raise Unmirrored(f"two different specs named {spec.id!r}")
        ruleset = self.sc.rules.name
        if ruleset == "arena":
            extra = reward_creatures(self.sc.source.registry.all_rewards())
        elif ruleset == "blast":  # what any favor or challenge may summon, dealt or not
            cards = blast_cards()
            actions = [f.action for f in cards.favors()]
            actions += [b.action for c in cards.challenges() for b in c.bonuses if b.action is not None]
            extra = summoned_by(actions)
        else:
            extra = []
        for name in extra:
            specs.setdefault(name, self.sc.source.load_character(name))
        return specs

    def _core_step(self) -> Callable[..., Any]:
        """The core's step for this scenario's ruleset, its catalog, ruleset and board bound:
        called with ``(position, step, answers=None, plant=False)``."""
        sc = self.sc
        name = sc.rules.name
        specs = self._specs()
        rewards = sc.source.registry.all_rewards() if name == "arena" else ()
        rules: Any = sc.rules
        with_punch = name == "arena" or (name == "duel" and bool(rules.opts.punch))
        catalog = _catalog(specs, rewards, with_punch)
        if self._board is None:
            self._board = native.core_board(sc.board)
        step = getattr(native.core(), _STEPS[name])
        if name == "arena":
            return functools.partial(step, catalog, self._board, rules.options)
        if self._rules is None or self._rules[0] is not catalog:
            try:
                made = _RULES[name](sc, [specs[spec_id] for spec_id in sorted(specs)])
            except ValueError as error:
                raise Unmirrored(str(error)) from None
            self._rules = (catalog, made)
        return functools.partial(step, catalog, self._rules[1], self._board)

    def step(
        self,
        name: str,
        fighter: Fighter | None,
        run: Callable[[dict[int, list[tuple[Any, ...]]]], T],
        action: Any = None,
        controller: bool = False,
    ) -> T:
        """Play one step on the reference (``run``, given the answer log its players write to) and,
        while mirroring, the same step in the core; raise :class:`ScenarioDivergence` when they
        disagree. ``controller``: the step has a player of its own."""
        log: dict[int, list[tuple[Any, ...]]] = {}
        if not self.active:
            return run(log)
        sc = self.sc
        state = sc.state

        scripted = state.dice is sc.dice and isinstance(sc.dice, ScriptedDice)
        try:
            before = export_position(state, sc.dice.left if scripted else ())
            core_step = self._core_step()
        except Unmirrored as why:
            self.stop(str(why))
            return run(log)
        seats = state.players
        recording = bool(seats.controllers)
        if recording:
            state.players = Players(tuple(_Recording(c, log) for c in seats.controllers), seats.views)
        n_events = len(state.events)
        remaining = sc.dice.remaining
        rolled = None
        if not scripted:
            rolled = state.dice = _RecordingDice(state.dice)
        try:
            result = run(log)
        except Exception as error:
            if rolled is not None:
                before["dice"] = rolled.faces
            self._refused(name, fighter, action, before, core_step, log, recording or controller, error)
            raise
        finally:
            if recording:
                state.players = seats
            if rolled is not None:
                state.dice = rolled.inner
        if rolled is not None:
            before["dice"] = rolled.faces
        if any(entry[0] == "deployment" for entries in log.values() for entry in entries):
            self.stop("a deployment was asked (not a scenario step in the core)")
            return result
        answers = None
        if recording or controller:
            answers = [log.get(seat, []) for seat in range(state.n_seats)]
        uid = -1 if fighter is None else fighter.uid
        kind, spell, target = (0, -1, -1) if action is None else (action.kind, action.spell, action.target)
        try:
            out = core_step(before, (name, uid, kind, spell, target), answers, self.plant == "step")
        except ValueError as why:
            self.stop(str(why))
            return result
        self.steps += 1
        if self.observed is not None:
            self.observed.steps += 1
        used = remaining - sc.dice.remaining if rolled is None else len(rolled.faces)
        self._compare(name, fighter, action, before, out, state.events[n_events:], used, result)
        return result

    def _refused(
        self,
        name: str,
        fighter: Fighter | None,
        action: Any,
        before: dict[str, Any],
        core_step: Callable[..., Any],
        log: dict[int, list[tuple[Any, ...]]],
        answered: bool,
        error: Exception,
    ) -> None:
        """The reference refused the step (an illegal answer, a script run out): the core must not
        play it through either (a fault, an answer it finds illegal, a roll past the script, a
        question the reference's player could not answer). Either way the scenario's lockstep ends
        there, as the scenario does."""
        answers = [log.get(seat, []) for seat in range(self.sc.state.n_seats)] if answered else None
        uid = -1 if fighter is None else fighter.uid
        kind, spell, target = (0, -1, -1) if action is None else (action.kind, action.spell, action.target)
        try:
            out = core_step(before, (name, uid, kind, spell, target), answers)
        except ValueError as why:
            self.stop(str(why))
            return
        if not out["problems"]:
            self.stop(
                f"the reference refused a step ({type(error).__name__}: {error}) that the core played through"
            )
            return
        self.steps += 1
        if self.observed is not None:
            self.observed.steps += 1
        self.ended = f"both engines refused step {self.steps}"

    def check_legal(self, fighter: Fighter, action: Any = None) -> None:
        """While mirroring, the active ``fighter``'s legal actions must be the same list on both
        engines (the reference's order), and ``action`` legal on both or on neither."""
        sc = self.sc
        state = sc.state
        if not self.active or state.active is not fighter:
            return

        try:
            position = export_position(state)
            out = self._core_step()(position, ("legal", fighter.uid, 0, -1, -1))
        except (Unmirrored, ValueError) as why:
            self.stop(str(why))
            return
        self.checks += 1
        if self.observed is not None:
            self.observed.checks += 1
        ours = [tuple(a) for a in out["legal"]]
        if self.plant == "legal":
            ours = ours[1:]
        theirs = [(a.kind, a.spell, a.target) for a in legal_actions(state, fighter)]
        lines = []
        if ours != theirs:
            only_core = sorted(set(ours) - set(theirs))
            only_reference = sorted(set(theirs) - set(ours))
            lines.append(
                f"  legal actions differ: only the core's {only_core}, only the reference's "
                f"{only_reference}"
                + ("" if only_core or only_reference else " (the same actions, another order)")
            )
        if action is not None:
            core_ok = (action.kind, action.spell, action.target) in ours
            if core_ok != is_legal(state, fighter, action):
                lines.append(f"  {action}: legal in the core {core_ok}, in the reference {not core_ok}")
        if lines:
            lines.insert(0, f"the engines disagree on what {fighter!r} may do (check {self.checks})")
            lines.append(f"  position: {position}")
            self.stop("diverged")
            raise ScenarioDivergence("\n".join(lines))

    def _compare(
        self,
        name: str,
        fighter: Fighter | None,
        action: Any,
        before: dict[str, Any],
        out: Mapping[str, Any],
        new_events: Sequence[Any],
        used: int,
        result: Any,
    ) -> None:
        sc = self.sc
        theirs = [_event(e) for e in new_events]
        ours = [[kind, plain(fields)] for kind, fields in out["events"]]
        try:
            after = export_position(sc.state)
        except Unmirrored as why:  # the step made what the core cannot rebuild: the step is not compared
            self.stop(str(why))
            return
        core_after = plain(out["position"])
        reference_after = plain({k: v for k, v in after.items() if k != "dice"})
        problems = list(out["problems"])
        if out["dice_used"] != used:
            problems.append(f"the core rolled {out['dice_used']} dice, the reference {used}")
        if name == "begin" and out["began"] is not bool(result):
            problems.append(f"begin_activation: core {out['began']}, reference {bool(result)}")
        if core_after is not None:
            core_after = {k: v for k, v in core_after.items() if k != "dice"}
        if ours == theirs and core_after == reference_after and not problems:
            return
        what = name if fighter is None else f"{name} {fighter!r}"
        if action is not None:
            what += f" {action}"
        lines = [f"the engines disagree on scenario step {self.steps} ({what})"]
        lines += [f"  {p}" for p in problems]
        if ours != theirs:
            index = next(
                (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                min(len(ours), len(theirs)),
            )
            lines.append(f"  first differing event: #{index} of the step")
            for label, events in (("core", ours), ("reference", theirs)):
                lines.append(f"  {label} events:")
                lines += [f"    {'>' if i == index else ' '} {e[0]} {e[1]}" for i, e in enumerate(events)]
        if core_after is None:
            lines.append("  the core gave no position")
        elif core_after != reference_after:
            lines.append("  positions after the step (path: core != reference):")
            lines += [f"    {d}" for d in differences(core_after, reference_after)]
        lines.append(f"  position before the step: {before}")
        lines.append(f"  reference position after: {reference_after}")
        lines.append(f"  core position after: {core_after}")
        self.stop("diverged")
        raise ScenarioDivergence("\n".join(lines))
