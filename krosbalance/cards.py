"""Cards as the game prints them: the table lines of ``krosbalance list`` and the text of
``krosbalance show``.

Everything shown is read from the registries (characters and rewards from
``krosbalance.content.registry``, Krosmic Favors and Divine Challenges from
``krosbalance.content.blast``, boards, AIs): nothing is kept here by hand, so a card added to the
data is listed and shown at once. Each printed value comes with the ``source`` note its data file
records and a confidence read from that note (:func:`confidence`, the reading the report uses for
"card values of low confidence"); a Blast card's confidence is its file's ``status``.

A name is looked up among every kind of card at once (ids, English names and aliases, ignoring case,
accents, spaces and punctuation, as the registries do). ``KIND:NAME`` (``reward:xelor_style``)
chooses one kind when a name is shared; an unknown name is one line with the near names.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from krosbalance.ai.registry import ai_problem, ai_rulesets, ai_tier, get_ai, list_ais
from krosbalance.analysis.names import _CONFIRMED, field_confidence, spell_flags
from krosbalance.content.blast import blast_cards
from krosbalance.content.loader import normalize_name
from krosbalance.content.registry import (
    all_characters,
    all_rewards,
    list_boards,
    load_board,
    load_character,
    load_reward,
)
from krosbalance.errors import ContentError

#: the kinds ``show`` knows, in the order a shared name lists them
KINDS: tuple[str, ...] = ("character", "reward", "favor", "challenge", "board", "ai")
_WHERE = "show"


# ------------------------------------------------------------------------------------ confidence


def confidence(note: str) -> str:
    """How far a value's ``source`` note can be trusted: ``assumed``, ``low`` or ``medium`` when the
    note says so (and no outside source agrees), ``confirmed`` when outside sources agree, else
    ``sourced`` (read from the rulebook), ``no source`` when the file gives none."""
    if not note.strip():
        return "no source"
    level = field_confidence(note)
    if level:
        return level
    return "confirmed" if _CONFIRMED.search(note) else "sourced"


def _spell_confidence(note: str) -> str:
    """A spell's note: the values it flags (``3 AP (medium)``), else the note's own level."""
    flags = spell_flags(note)
    if flags:
        return "; ".join(f"{value} {level}" for value, level in flags)
    return confidence(note)


def _source_lines(source: dict[str, str], indent: str = "  ") -> list[str]:
    if not source:
        return [f"{indent}(the data file gives no source)"]
    return [f"{indent}{key} [{confidence(str(note))}]: {note}" for key, note in source.items()]


# ------------------------------------------------------------------------------------- wording


def _params(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def effect_text(effect: Any) -> str:
    """``push(cells=3)``: an effect or power keyword with its parameters, as the data records it."""
    params = dict(effect.params)
    return f"{effect.kind}({_params(params)})" if params else str(effect.kind)


def _range_text(spell: Any) -> str:
    if spell.range_type == "personal":
        return "personal"
    if spell.range_type == "melee":
        return "melee"
    text = f"range {spell.range_min}-{spell.range_max}"
    if spell.range_type == "line":
        text += " in line"
    if not spell.needs_los:
        text += ", no line of sight"
    if spell.fixed_range:
        text += ", fixed range"
    return text


def _cost_text(spell: Any) -> str:
    parts = [f"{spell.ap_cost} AP"]
    if spell.mp_cost:
        parts.append(f"{spell.mp_cost} MP")
    if spell.injury_cost:
        parts.append(f"{spell.injury_cost} injuries")
    return " + ".join(parts)


_LIMITS = {"unlimited": "", "turn": "once per turn", "game": "once per game"}


def spell_text(spell: Any) -> str:
    """One line of a spell: kind, element, costs, range, limit, amount, area, target, summon."""
    parts = [spell.kind]
    if spell.kind in ("attack", "heal") or spell.element != "neutral":
        parts.append(spell.element)
    parts += [_cost_text(spell), _range_text(spell)]
    if _LIMITS.get(spell.limit):
        parts.append(_LIMITS[spell.limit])
    if spell.kind == "attack":
        parts.append(f"{spell.amount} damage")
    elif spell.kind == "heal":
        parts.append(f"heals {spell.amount}")
    if spell.area != "single":
        parts.append(f"area {spell.area}")
    if spell.target != "any":
        parts.append(f"target {spell.target}")
    if spell.summons:
        parts.append(f"summons {spell.summons} (control {spell.summon_control})")
    return ", ".join(parts)


def _spell_lines(spell: Any, indent: str = "  ") -> list[str]:
    aliases = f" ({', '.join(spell.aliases)})" if spell.aliases else ""
    lines = [f"{indent}{spell.name}{aliases}: {spell_text(spell)}"]
    if spell.effects:
        lines.append(f"{indent}  effects: {'; '.join(effect_text(e) for e in spell.effects)}")
    lines.append(f"{indent}  source [{_spell_confidence(spell.source)}]: {spell.source or '(none)'}")
    return lines


# ----------------------------------------------------------------------------------- the kinds


@dataclass(frozen=True)
class _Kind:
    """One kind of card: its entries as (id, names) and how to print one by id."""

    name: str
    entries: Callable[[], list[tuple[str, tuple[str, ...]]]]
    show: Callable[[str], str]


def _characters() -> list[tuple[str, tuple[str, ...]]]:
    return [(c.id, (c.name, *c.aliases)) for c in all_characters()]


def show_character(char_id: str) -> str:
    """A character card: characteristics, powers, spells (costs, range, effects) and every source."""
    spec = load_character(char_id)
    game = "Krosmaster Blast card" if spec.game == "blast" else "Arena card"
    head = f"{spec.name} ({spec.id}): {spec.kind}, {game}, set {spec.set or '(none)'}"
    lines = [head]
    extra = []
    if spec.aliases:
        extra.append(f"aliases: {', '.join(spec.aliases)}")
    if spec.class_name:
        extra.append(f"class {spec.class_name}")
    if spec.colour != "none":
        extra.append(f"{spec.colour} name")
    if spec.tags:
        extra.append(f"tags: {', '.join(spec.tags)}")
    if extra:
        lines.append("  " + "; ".join(extra))
    values = [] if spec.game == "blast" or spec.kind != "krosmaster" else [f"level {spec.level}"]
    if spec.game != "blast" and spec.kind == "krosmaster":
        values.append(f"initiative {spec.initiative}")
    values += [f"MP {spec.mp}", f"HP {spec.hp}", f"AP {spec.ap}"]
    lines.append("  " + "  ".join(values))
    lines.append(f"  powers: {', '.join(effect_text(p) for p in spec.powers) or 'none'}")
    if spec.on_death:
        lines.append(f"  when KO'd casts: {spec.on_death}")
    lines.append("spells:" if spec.spells else "spells: none (Punch only)")
    for spell in spec.spells:
        lines += _spell_lines(spell)
    summons = sorted({s.summons for s in spec.spells if s.summons})
    if summons:
        names = {c.id: c.name for c in all_characters()}
        lines.append("summons: " + ", ".join(f"{names.get(s, s)} (show {s})" for s in summons))
    lines.append("sources [confidence]:")
    lines += _source_lines(dict(spec.source))
    return "\n".join(lines)


def _rewards() -> list[tuple[str, tuple[str, ...]]]:
    return [(r.id, (r.name, *r.aliases)) for r in all_rewards()]


def show_reward(reward_id: str) -> str:
    """A Demonic Reward token: type, slot, rank, effects, choices, spell and every source."""
    spec = load_reward(reward_id)
    kind = f"{spec.kind} ({spec.slot})" if spec.slot else spec.kind
    lines = [f"{spec.name} ({spec.id}): Demonic Reward, {kind}, rank {spec.rank}, set {spec.set or '(none)'}"]
    if spec.aliases:
        lines.append(f"  aliases: {', '.join(spec.aliases)}")
    if spec.tags:
        lines.append(f"  tags: {', '.join(spec.tags)}")
    lines.append(f"  effects: {'; '.join(effect_text(e) for e in spec.effects) or 'none'}")
    for i, choice in enumerate(spec.choices, start=1):
        lines.append(f"  choice {i}: {'; '.join(effect_text(e) for e in choice)}")
    if spec.spell is not None:
        lines.append("spell:")
        lines += _spell_lines(spec.spell)
    lines.append("sources [confidence]:")
    lines += _source_lines(dict(spec.source))
    return "\n".join(lines)


def _action_lines(action: Any, indent: str = "  ") -> list[str]:
    where = f"target {action.target}"
    if action.target not in ("none", "terrain_cell"):
        where += f", range {action.range_min}-{action.range_max}"
        where += ", line of sight" if action.needs_los else ", no line of sight"
    elif action.target == "terrain_cell":
        where += " (range: the ruleset's terrain_range)"
    return [
        f"{indent}{where}; costs 1 AP (R-B9)",
        f"{indent}effects: {'; '.join(effect_text(e) for e in action.effects)}",
    ]


def _favors() -> list[tuple[str, tuple[str, ...]]]:
    return [(f.id, (f.name, *f.aliases)) for f in blast_cards().favors()]


def show_favor(favor_id: str) -> str:
    """A Krosmic Favor: grade, status (its confidence), card text, action and source."""
    spec = blast_cards().favor(favor_id)
    lines = [f"{spec.name} ({spec.id}): Krosmic Favor (Krosmaster Blast), {spec.grade}"]
    if spec.aliases:
        lines.append(f"  aliases: {', '.join(spec.aliases)}")
    lines.append(f"  card text: {spec.text}")
    lines += _action_lines(spec.action)
    lines.append(f"source [{spec.status}]: {spec.source}")
    return "\n".join(lines)


def _challenges() -> list[tuple[str, tuple[str, ...]]]:
    return [(c.id, (c.name, *c.aliases)) for c in blast_cards().challenges()]


def show_challenge(challenge_id: str) -> str:
    """A Divine Challenge: its god, status, and each tier's bonus with its text, rules and source."""
    spec = blast_cards().challenge(challenge_id)
    lines = [f"{spec.name} ({spec.id}): Divine Challenge (Krosmaster Blast) of {spec.god}"]
    if spec.aliases:
        lines.append(f"  aliases: {', '.join(spec.aliases)}")
    lines.append(f"source [{spec.status}]: {spec.source}")
    for bonus in sorted(spec.bonuses, key=lambda b: b.tier):
        alt = f" (alternative reading: {bonus.alt_tier})" if bonus.alt_tier else ""
        aliases = f" ({', '.join(bonus.aliases)})" if bonus.aliases else ""
        lines.append(f"tier {bonus.tier}{alt}: {bonus.name}{aliases}, {bonus.kind}")
        lines.append(f"  card text: {bonus.text}")
        if bonus.passive is not None:
            lines.append(f"  passive: {effect_text(bonus.passive)}")
        if bonus.action is not None:
            lines += _action_lines(bonus.action)
        lines.append(f"  source [{confidence(bonus.source)}]: {bonus.source}")
    return "\n".join(lines)


def _boards() -> list[tuple[str, tuple[str, ...]]]:
    return [(b, (str(load_board(b).name),)) for b in list_boards()]


def show_board(board_id: str) -> str:
    """A board: size, rulesets, start zones, its source note and its ASCII grid."""
    board = load_board(board_id)
    zones = ", ".join(str(bin(zone).count("1")) for zone in board.deploy)  # cell bitmasks
    lines = [
        f"{board.name} ({board.id}): board {board.width}x{board.height}, rulesets {', '.join(board.rulesets)}",
        f"  start zones: {board.n_zones} (cells per zone: {zones})",
        f"source [{confidence(str(board.source))}]:",
        *(f"  {line}" for line in str(board.source).strip().splitlines()),
        "grid:",
        *(f"  {line}" for line in board.to_ascii().splitlines()),
    ]
    return "\n".join(lines)


def _ais() -> list[tuple[str, tuple[str, ...]]]:
    return [(name, ()) for name in list_ais()]


def show_ai(name: str) -> str:
    """An AI: tier, the rulesets it plays, and what its class says it does."""
    factory = get_ai(name)
    # the class's own docstring (a factory function, or a class that documents nothing, has none)
    doc = inspect.cleandoc(factory.__doc__ or "") if inspect.isclass(factory) else ""
    two_only = bool(ai_problem(name, None, 4))  # the registry's reason it cannot seat four
    seats = "two-player matches only" if two_only else "any number of players"
    lines = [f"{name}: AI, tier {ai_tier(name)}, plays {', '.join(ai_rulesets(name))}; {seats}"]
    if doc:
        lines += [f"  {line}" for line in doc.split("\n\n")[0].splitlines()]
    return "\n".join(lines)


_KINDS: dict[str, _Kind] = {
    "character": _Kind("character", _characters, show_character),
    "reward": _Kind("reward", _rewards, show_reward),
    "favor": _Kind("favor", _favors, show_favor),
    "challenge": _Kind("challenge", _challenges, show_challenge),
    "board": _Kind("board", _boards, show_board),
    "ai": _Kind("ai", _ais, show_ai),
}


# ------------------------------------------------------------------------------------- lookup


def _index(kinds: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """Normalised id/name/alias -> every (kind, id) it names."""
    index: dict[str, list[tuple[str, str]]] = {}
    for kind in kinds:
        for card_id, names in _KINDS[kind].entries():
            for text in (card_id, *names):
                hits = index.setdefault(normalize_name(text), [])
                if (kind, card_id) not in hits:
                    hits.append((kind, card_id))
    return index


def find(name: str) -> tuple[str, str]:
    """The (kind, id) of ``name`` (``KIND:NAME`` to choose a kind); a ``ContentError`` when no card
    or several kinds have that name."""
    kinds: Sequence[str] = KINDS
    text = name
    prefix, sep, rest = name.partition(":")
    if sep and prefix.strip().lower() in _KINDS:
        kinds, text = (prefix.strip().lower(),), rest
    index = _index(kinds)
    hits = index.get(normalize_name(text), [])
    if not hits:
        close = difflib.get_close_matches(normalize_name(text), list(index), n=3, cutoff=0.7)
        shown = []
        for key in close:
            for kind, card_id in index[key]:
                if f"{kind}:{card_id}" not in shown:
                    shown.append(f"{kind}:{card_id}")
        hint = f"; did you mean {' or '.join(repr(s) for s in shown[:3])}?" if shown else ""
        if len(kinds) < len(KINDS):  # KIND:NAME of the wrong kind: say which kinds have that name
            others = _index(KINDS).get(normalize_name(text), [])
            if others:
                hint = f"; {' and '.join(f'{k}:{c}' for k, c in others)} has that name"
        where = " or ".join(kinds) if len(kinds) < len(KINDS) else "card"
        raise ContentError(
            _WHERE,
            "name",
            f"unknown {where} {text!r}{hint}; see `krosbalance list characters|rewards|favors|challenges|"
            "boards|ais`",
        )
    if len(hits) > 1:
        choices = ", ".join(f"{kind}:{card_id}" for kind, card_id in hits)
        raise ContentError(
            _WHERE,
            "name",
            f"{text!r} names several cards ({choices}); choose one, e.g. `show {hits[0][0]}:{text}`",
        )
    return hits[0]


def show(name: str) -> str:
    """The text of the card ``name`` (a character, Demonic Reward, favor, challenge, board or AI)."""
    kind, card_id = find(name)
    return _KINDS[kind].show(card_id)


# ------------------------------------------------------------------------------------ listings


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as aligned columns (the last column unpadded)."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[-1]]).rstrip()
        for row in rows
    ]


def reward_lines() -> list[str]:
    """One line per Demonic Reward token: id, kind, slot, rank, name, effects."""
    rows = [
        (
            r.id,
            r.kind,
            r.slot or "-",
            r.rank,
            r.name,
            "; ".join(effect_text(e) for e in r.effects if e.kind not in ("weapon", "one_shot_spell"))
            + (f" spell {r.spell.name}" if r.spell is not None else "")
            + (" choose one" if r.choices else ""),
        )
        for r in all_rewards()
    ]
    return _table([("id", "kind", "slot", "rank", "name", "effects"), *rows])


def favor_lines() -> list[str]:
    """One line per Krosmic Favor: id, grade, status, name, card text."""
    rows = [(f.id, f.grade, f.status, f.name, f.text) for f in blast_cards().favors()]
    return _table([("id", "grade", "status", "name", "text"), *rows])


def challenge_lines() -> list[str]:
    """One line per Divine Challenge: id, god, status, name, its three bonuses by tier."""
    rows = [
        (
            c.id,
            c.god,
            c.status,
            c.name,
            "; ".join(f"{b.tier}: {b.name}" for b in sorted(c.bonuses, key=lambda b: b.tier)),
        )
        for c in blast_cards().challenges()
    ]
    return _table([("id", "god", "status", "name", "bonuses by tier"), *rows])


LISTINGS: dict[str, Callable[[], list[str]]] = {
    "rewards": reward_lines,
    "favors": favor_lines,
    "challenges": challenge_lines,
}
"""The card listings of ``krosbalance list`` beyond the plain name lists."""

__all__ = ["KINDS", "LISTINGS", "confidence", "find", "show", "spell_text", "effect_text"]
