"""The differential fuzz: random legal Arena matches, Duel Pack duels and Krosmaster Blast matches played by the native core
and by the Python reference, their event logs compared, and the first divergence shown as a readable replay step.

The core (``krosbalance_core``) is held to the reference event for event (core/README.md). Golden
rows pin a few thousand fixed matches; this module plays as many new ones as asked, drawn from one
master seed over everything the core plays (:mod:`krosbalance.testing.fuzz_specs`).

Both engines play with ``record="full"``; :func:`compare` reads the core's ``(kind, fields)`` events
and the reference's typed events as the same plain lists, then the result (winner, end reason,
turns, holdings, every fighter's counters). On a mismatch :class:`Divergence` says which step
differs, the events just before it, both engines' event there, and the state each engine's log
gives at that step: pieces (square, HP, KO), GG and kamas, and the acting figure's AP and MP. The
state starts from the reference's last checkpoint before the step (exact: the reference's live
pieces and holdings at a turn end, kept by ``record="full"``; the logs of both engines agree up to
the step) and folds each engine's own events from there.

A divergence planted in the core (``ArenaCatalog.play(..., plant_divergence_at=k)``: the k-th event
of the core's log is altered inside the core, test-only) is how the tests prove this harness works.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from krosbalance import native_blast, native_duel, native_match
from krosbalance.content.registry import default_registry
from krosbalance.play import _ai_names, play_match
from krosbalance.render.notation import cell_name
from krosbalance.rulesets.blast import blast_ruleset
from krosbalance.rulesets.duel import duel_ruleset
from krosbalance.rulesets.registry import get_ruleset
from krosbalance.testing.fuzz_specs import describe, match_specs, registry_of

#: events shown before the first differing one
CONTEXT = 6


# ---------------------------------------------------------------------------- playing


def play_core(
    specs: Sequence[Mapping[str, Any]], plant_divergence_at: int | None = None
) -> list[dict[str, Any]]:
    """The core's results (``record="full"``) of a batch of specs, one boundary crossing; a match
    the core refuses or faults on is ``{"error": message}``. Unlike ``native_match.play_many_core``
    this plays every AI of ``PORTED_AIS`` (ported, maybe not yet proven identical: proving it is
    this harness's job). ``plant_divergence_at`` (test-only) plays one match with the divergence
    planted in the core."""
    if any(spec.get("ruleset", "arena") != "arena" for spec in specs):
        return _play_core_rulesets(specs, plant_divergence_at)
    batch = []
    for spec in specs:
        teams = spec["teams"]
        rules = get_ruleset("arena", dict(spec["options"]))
        level = getattr(rules, "team_level", 0)
        registry = registry_of(spec) or default_registry()
        ids = [
            native_match._validated(tuple(t), seat, level, len(teams), registry)
            for seat, t in enumerate(teams)
        ]
        forbid = {k: list(v) for k, v in (spec.get("forbid") or {}).items()}
        names = native_match._core_ids(_ai_names(tuple(spec["ai"]), len(teams)))  # as the core knows them
        batch.append(
            (ids, native_match._core_board(spec["board"]), rules.options, names, spec["seed"], forbid)
        )
    if plant_divergence_at is not None:
        (one,) = batch
        catalog = native_match.catalog(registry_of(specs[0]))
        return [catalog.play(*one[:5], "full", one[5], plant_divergence_at=plant_divergence_at)]
    out: list[dict[str, Any]] = [{} for _ in specs]
    by_registry: dict[int, tuple[Any, list[int]]] = {}
    for i, spec in enumerate(specs):
        registry = registry_of(spec)
        by_registry.setdefault(id(registry), (registry, []))[1].append(i)
    for registry, indices in by_registry.values():  # one batch per registry
        catalog = native_match.catalog(registry)
        for i, result in zip(indices, catalog.play_many([batch[i] for i in indices], "full", 1), strict=True):
            out[i] = result
    return out


def _play_core_rulesets(
    specs: Sequence[Mapping[str, Any]], plant_divergence_at: int | None = None
) -> list[dict[str, Any]]:
    """:func:`play_core` of specs among which some are duels or Blast matches: those one by one
    (``native_duel.play_duel_raw``, ``native_blast.play_blast_raw``: Blast's values are flattened
    into the result as a duel's are), the Arena matches in one batch."""
    arena = [i for i, spec in enumerate(specs) if spec.get("ruleset", "arena") == "arena"]
    out: list[dict[str, Any]] = [{} for _ in specs]
    for i, result in zip(arena, play_core([specs[i] for i in arena]) if arena else [], strict=True):
        out[i] = result
    for i, spec in enumerate(specs):
        ruleset = spec.get("ruleset", "arena")
        if ruleset == "arena":
            continue
        args = (spec["teams"], spec["board"], spec["ai"], spec["seed"])
        try:
            if ruleset == "duel":
                rules = duel_ruleset(dict(spec["options"]))
                out[i] = native_duel.play_duel_raw(*args, rules, "full", None, plant_divergence_at)
            else:
                blast = blast_ruleset(dict(spec["options"]))
                raw = native_blast.play_blast_raw(*args, blast, "full", None, plant_divergence_at)
                out[i] = {**raw, **raw["values"]}
        except Exception as exc:  # noqa: BLE001 - a refusal or a fault is this match's error row
            out[i] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def play_reference(spec: Mapping[str, Any]) -> Any:
    """The reference's ``MatchResult`` of a spec (``engine="reference"``, ``record="full"``)."""
    return play_match(
        *spec["teams"],
        board=spec["board"],
        ai=tuple(spec["ai"]),
        seed=spec["seed"],
        options=spec["options"],
        registry=registry_of(spec),
        record="full",
        forbid=spec.get("forbid"),
        engine="reference",
        ruleset=spec.get("ruleset", "arena"),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _event(event: Any) -> list[Any]:
    """A reference event as ``[kind, {field: value}]`` (every field, the core's names)."""
    names = (
        [f.name for f in dataclasses.fields(event)]
        if dataclasses.is_dataclass(event)
        else [n for cls in type(event).__mro__ for n in getattr(cls, "__slots__", ())]
    )
    return [event.kind, {name: _plain(getattr(event, name)) for name in names}]


def _reference_head(result: Any) -> dict[str, Any]:
    values = result.values
    fighters = []
    for record in result.fighters:
        row = dict(record.as_row())
        row.update(record.values)
        fighters.append(_plain(row))
    return {
        "winner": result.winner,
        "end_reason": result.end_reason,
        "turns": result.turns,
        "first_player": result.first_player,
        "play_order": _plain(result.play_order),
        "partnerships": _plain(result.partnerships),
        **(
            {
                "gg": _plain(values["gg"]),
                "kamas": _plain(values["kamas"]),
                "wild_gg_left": values["wild_gg_left"],
            }
            if "gg" in values
            else {key: _plain(value) for key, value in values.items()}  # a duel's or Blast's values
        ),
        "teams": _plain(result.teams),
        "fighters": fighters,
    }


def _core_head(out: Mapping[str, Any], like: Mapping[str, Any]) -> dict[str, Any]:
    """The core's result head, with the keys of the reference's (a key the core does not return
    is ``None`` there, so it differs)."""
    return {key: _plain(out.get(key)) for key in like}


# ---------------------------------------------------------------------------- comparing


@dataclasses.dataclass
class Divergence:
    """The first difference between the engines' records of one match.

    Attributes:
        spec: the match.
        index: the first differing event (``len(events)`` when the events agree and the result
            differs).
        core, reference: both engines' plain events (``[kind, fields]``).
        core_head, reference_head: both results (winner, end reason, holdings, fighters' counters).
        checkpoints: the reference's checkpoints (``record="full"``), where the states start.
        width: the board's width, for square names.
    """

    spec: dict[str, Any]
    index: int
    core: list[list[Any]]
    reference: list[list[Any]]
    core_head: dict[str, Any]
    reference_head: dict[str, Any]
    checkpoints: list[Any]
    width: int

    @property
    def in_result(self) -> bool:
        return self.index >= min(len(self.core), len(self.reference)) and len(self.core) == len(
            self.reference
        )

    def states(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The state after step :attr:`index` as the core's and the reference's logs give it."""
        return fold(self.checkpoints, self.core, self.index), fold(
            self.checkpoints, self.reference, self.index
        )

    def report(self) -> str:
        """The readable report: the spec, the step, the events before it, both engines' event and
        both states there (or both results, when only the result differs)."""
        spec = self.spec
        lines = [
            f"DIVERGENCE between the core and the reference in fuzz match {spec.get('id')}",
            "spec: " + json.dumps(spec, sort_keys=True),
            f"AIs {' / '.join(spec['ai'])} on {spec['board']}, seed {spec['seed']}",
        ]
        if "master_seed" in spec:
            lines.append(
                "replay it: python -m krosbalance.tools.differential "
                f"--seed {spec['master_seed']} --only {spec['id']}"
            )
        if self.in_result:
            lines.append(f"every one of the {len(self.core)} events agrees; the result differs:")
            for key in self.reference_head:
                ours, theirs = self.core_head.get(key), self.reference_head[key]
                if ours != theirs:
                    lines += [f"  {key}:", f"    core      {_short(ours)}", f"    reference {_short(theirs)}"]
            return "\n".join(lines)
        i = self.index
        lines.append(
            f"first differing event: step {i} (the core logged {len(self.core)} events, "
            f"the reference {len(self.reference)})"
        )
        lines.append("events just before (both engines agree):")
        lines += [f"    {j:5d} {_line(self.reference[j])}" for j in range(max(0, i - CONTEXT), i)]
        lines.append(f"at step {i}:")
        lines.append(
            f"  core      {_line(self.core[i]) if i < len(self.core) else '(no event: the log ends)'}"
        )
        lines.append(
            f"  reference {_line(self.reference[i]) if i < len(self.reference) else '(no event: the log ends)'}"
        )
        ours, theirs = self.states()
        lines.append(
            f"state after step {i}, as each engine's log gives it (from the reference's exact checkpoint "
            f"of turn {theirs['turn']}, after its first {theirs['from']} events, then each engine's own "
            "events up to the step):"
        )
        lines.append(f"  {'':34s} {'core':26s} reference")
        keys = sorted(set(ours["pieces"]) | set(theirs["pieces"]))
        for uid in keys:
            a, b = ours["pieces"].get(uid), theirs["pieces"].get(uid)
            label = (b or a)["label"]
            text_a, text_b = _piece(a, self.width), _piece(b, self.width)
            mark = "*" if text_a != text_b else " "
            lines.append(f"{mark} {label:34s} {text_a:26s} {text_b}")
        for key in ("gg", "kamas", "active"):
            a, b = (v if isinstance(v, str) else _short(v) for v in (ours[key], theirs[key]))
            lines.append(f"{'*' if a != b else ' '} {key:34s} {a:26s} {b}")
        return "\n".join(lines)


def _short(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _line(event: Sequence[Any]) -> str:
    kind, fields = event
    return f"{kind} {_short(fields)}"


def _piece(piece: Mapping[str, Any] | None, width: int) -> str:
    if piece is None:
        return "(not in play)"
    if not piece["alive"]:
        return "KO"
    hp = (
        f"{piece['hp'] - piece['injuries']}/{piece['hp']} HP"
        if piece["hp"]
        else f"{piece['injuries']} injuries"
    )
    return f"{cell_name(piece['cell'], width)} {hp}"


def fold(checkpoints: Sequence[Any], events: Sequence[Sequence[Any]], index: int) -> dict[str, Any]:
    """The pieces (square, HP, injuries, KO), GG, kamas and the acting figure (with the AP and MP
    its activation started with) after event ``index`` of ``events``: the last checkpoint before
    it (the reference's exact state at a turn end or after deployment), then ``events`` from there.
    Kamas: the checkpoint's plus those picked since (a kama change with no event of its own, a GG
    or a reward bought, shows from the next checkpoint on)."""
    base = max((c for c in checkpoints if c.event_index <= index), key=lambda c: c.event_index, default=None)
    if base is None:
        return {"from": -1, "turn": 0, "pieces": {}, "gg": None, "kamas": None, "active": None}
    last = checkpoints[-1]
    known = {p[0]: p for p in last.pieces}
    pieces: dict[int, dict[str, Any]] = {}

    def add(p: Sequence[Any]) -> None:
        uid, cid, name, seat, _kind, _level, cell, hp, injuries, alive = p
        pieces[uid] = {
            "label": f"#{uid} {name} (seat {seat})",
            "seat": seat,
            "cell": cell,
            "hp": hp,
            "injuries": injuries,
            "alive": alive,
        }

    for p in base.pieces:
        add(p)
    gg = list(base.values.get("gg", ()))
    kamas = list(base.values.get("kamas", ()))
    active = None
    for kind, f in events[base.event_index : index + 1]:
        piece = pieces.get(f.get("uid", f.get("target", -1)))
        if kind == "moved" and piece:
            piece["cell"] = f["destination"]
        elif kind == "damaged" and piece:
            piece["injuries"] += f["amount"]
        elif kind == "healed" and piece:
            piece["injuries"] -= f["amount"]
        elif kind == "knocked_out" and piece:
            piece["alive"], piece["cell"] = False, -1
        elif kind == "summoned":
            p = known.get(f["uid"])
            if p is not None:
                add((*p[:6], f["cell"], p[7], 0, True))
        elif kind == "character_turn_started":
            active = f"#{f['uid']}: {f['ap']} AP, {f['mp']} MP at its activation's start"
        elif kind in ("gg_changed", "turn_ended"):
            gg = list(f.get("gg", gg))  # a duel's turn end holds no GG
            for uid, _cid, _seat, cell, injuries in f.get("positions", ()):
                if uid in pieces:
                    pieces[uid]["cell"], pieces[uid]["injuries"] = cell, injuries
        elif kind == "kama_picked" and piece and piece["seat"] < len(kamas):
            kamas[piece["seat"]] += f["amount"]
    return {
        "from": base.event_index,
        "turn": base.turn,
        "pieces": pieces,
        "gg": gg,
        "kamas": kamas,
        "active": active,
    }


def compare(spec: Mapping[str, Any], core_out: Mapping[str, Any], reference: Any) -> Divergence | None:
    """The first divergence between the core's result dict and the reference's ``MatchResult`` of
    one spec, or None when every event and the result agree."""
    ours = [[kind, _plain(fields)] for kind, fields in core_out["events"]]
    theirs = [_event(e) for e in reference.events]
    head = _reference_head(reference)
    core_head = _core_head(core_out, head)
    if ours == theirs and core_head == head:
        return None
    index = next(
        (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs))
    )

    width = default_registry().load_board(spec["board"]).width
    return Divergence(dict(spec), index, ours, theirs, core_head, head, list(reference.checkpoints), width)


# ---------------------------------------------------------------------------- a chunk


@dataclasses.dataclass
class ChunkResult:
    """What a slice of the fuzz found: counts by label, the first divergence (its report) and the
    core's errors (refusals or faults)."""

    matches: int = 0
    counts: Counter[str] = dataclasses.field(default_factory=Counter)
    divergences: int = 0
    first_divergence: str = ""
    first_divergence_id: int = -1
    diverging_ids: list[int] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    cpu_seconds: float = 0.0

    def merge(self, other: ChunkResult) -> None:
        """Add another chunk's findings (the first divergence kept is the lowest match id)."""
        self.matches += other.matches
        self.counts.update(other.counts)
        self.divergences += other.divergences
        self.diverging_ids += other.diverging_ids
        self.errors += other.errors
        self.cpu_seconds += other.cpu_seconds
        if other.first_divergence and (
            self.first_divergence_id < 0 or other.first_divergence_id < self.first_divergence_id
        ):
            self.first_divergence, self.first_divergence_id = (
                other.first_divergence,
                other.first_divergence_id,
            )


def run_specs(specs: Sequence[dict[str, Any]]) -> ChunkResult:
    """Play specs on both engines and compare them (the core in one batch)."""
    started = time.process_time()
    found = ChunkResult()
    for spec, out in zip(specs, play_core(specs), strict=True):
        found.matches += 1
        labels = describe(spec)
        found.counts.update(f"{key}={value}" for key, value in labels.items())
        found.counts.update(f"ai={name}" for name in sorted(set(spec["ai"])))
        found.counts[f"board={spec['board']}"] += 1
        found.counts.update(f"option={key}" for key in spec["options"] if key != "mode")
        if "error" in out:
            found.errors.append(
                f"match {spec['id']}: {out['error']} | spec {json.dumps(spec, sort_keys=True)}"
            )
            continue
        divergence = compare(spec, out, play_reference(spec))
        found.counts[f"end={out['end_reason']}"] += 1
        if divergence is not None:
            found.divergences += 1
            found.diverging_ids.append(spec["id"])
            if not found.first_divergence:
                found.first_divergence, found.first_divergence_id = divergence.report(), spec["id"]
    found.cpu_seconds = time.process_time() - started
    return found


def run_chunk(master_seed: int, start: int, stop: int) -> ChunkResult:
    """Fuzz matches ``start`` to ``stop`` of ``master_seed`` (what one worker runs)."""
    return run_specs(match_specs(stop - start, master_seed, start))
