"""What a reader sees instead of ids: display names, short team labels, board provenance, and the
card values of low confidence behind a verdict.

Data tables keep ids (stable keys); reports, plots and the narrative call these functions. An id
the registry does not know (synthetic test data, a character from another content folder) is shown
as it is, never an error.

Card values of low confidence come from the ``source`` notes that the content files carry for every
doubtful value (see ``krosbalance/content/data/README.md``): a value is flagged when its note
says ``low``, ``medium`` or ``assumed`` and no outside source confirms it (``external ... agree``).
Notes about names only (``English name assumed``) are not game values and are never flagged.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from krosbalance.ai.registry import former_ids
from krosbalance.content.custom import on_content_change
from krosbalance.content.registry import list_characters, load_board, load_character

LEVELS = ("assumed", "low", "medium")
_CONFIRMED = re.compile(r"external[^;]*\bagree", re.IGNORECASE)
_LEVEL = re.compile(r"\b(assumed|low|medium)\b", re.IGNORECASE)
_LINE_REF = re.compile(r"\s*\bL\d+(?:[-/]L?\d+)*\b,?")


@cache
def _character(char_id: str) -> Any:
    try:
        return load_character(char_id)
    except Exception:  # unknown id or no content: show the id
        return None


def display_name(char_id: str) -> str:
    """The English display name of a character id (``bill_tell`` -> ``Bill Tell``); unknown ids as is."""
    spec = _character(str(char_id))
    return str(spec.name) if spec is not None else str(char_id)


def _short_form(name: str) -> str:
    if " of " in name:
        return name.split(" of ")[0]
    return name.split()[-1] if " " in name else name


@cache
def _short_names() -> dict[str, str]:
    """Short forms of every registered character, the full name wherever two short forms collide."""
    try:
        ids = list_characters(None)
    except Exception:
        return {}
    forms = {c: _short_form(display_name(c)) for c in ids}
    taken: dict[str, int] = {}
    for form in forms.values():
        taken[form] = taken.get(form, 0) + 1
    return {c: (form if taken[form] == 1 else display_name(c)) for c, form in forms.items()}


def short_name(char_id: str) -> str:
    """A short name for crowded labels: ``Queen of the Tofus`` -> ``Queen``, ``Bill Tell`` -> ``Tell``
    (the full name when another character would get the same short one)."""
    return _short_names().get(str(char_id)) or _short_form(display_name(char_id))


def team_label(team: str, short: bool = False) -> str:
    """A comma-joined team of ids as names (``short`` for plot labels)."""
    name = short_name if short else display_name
    return ", ".join(name(c.strip()) for c in str(team).split(",") if c.strip())


def names_column(ids: Any) -> list[str]:
    """Display names for a column of ids (covariate terms such as ``(side 0)`` pass through)."""
    return [display_name(i) if not str(i).startswith("(") else str(i) for i in ids]


# ------------------------------------------------------------------------------------------ boards


@cache
def _board(board_id: str) -> Any:
    try:
        return load_board(board_id)
    except Exception:
        return None


def board_title(board_id: str) -> str:
    """The board's display name, which says when its layout is assumed (``(assumed layout)``)."""
    board = _board(str(board_id))
    return str(board.name) if board is not None else str(board_id)


def board_is_assumed(board_id: str) -> bool:
    """Whether the board file labels (part of) its layout as assumed."""
    board = _board(str(board_id))
    if board is None:
        return False
    return "assumed" in f"{board.name} {board.source}".lower()


def board_note(board: Any) -> str:
    """One line saying what is assumed about a board's layout ("" when nothing is); see
    :func:`krosbalance.render.board_picture.assumed_note`."""
    from krosbalance.render.board_picture import assumed_note  # heavy: matplotlib

    return assumed_note(board)


# ---------------------------------------------------------------------------- card value confidence


def _clauses(text: str) -> list[str]:
    """Split a source note at top-level ``;`` (not inside parentheses)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [c.strip() for c in out if c.strip()]


def _level(text: str) -> str | None:
    found = {m.group(1).lower() for m in _LEVEL.finditer(text)}
    return next((lvl for lvl in LEVELS if lvl in found), None)


def field_confidence(note: str) -> str | None:
    """The confidence flag of one card field's note (``None`` when sound or confirmed outside)."""
    if _CONFIRMED.search(note):
        return None
    return _level(note)


def spell_flags(note: str) -> list[tuple[str, str]]:
    """``(value, level)`` pairs of a spell's note that are of low confidence.

    A parenthesis such as ``(3 AP, medium)`` flags the values beside the level word; one holding only
    the level (``AP cost 1 from L1239 (low; ...)``) flags the words before it; ``element assumed:
    fire`` flags the element. A clause confirmed outside (``external agrees``) flags nothing.
    """
    flags: list[tuple[str, str]] = []
    for clause in _clauses(note):
        low = clause.lower()
        if "name" in low and "assumed" in low and "element" not in low:
            continue  # a name, not a game value
        m = re.search(r"element assumed:\s*(\w+)", clause, re.IGNORECASE)
        if m:
            flags.append((f"element {m.group(1)}", "assumed"))
            continue
        for paren in re.finditer(r"\(([^()]*)\)", clause):
            inner = paren.group(1)
            if _CONFIRMED.search(inner):
                continue
            items = [p.strip() for p in re.split(r"[,;]", inner) if p.strip()]
            levels = [_level(p) for p in items if _level(p) and len(p.split()) <= 2]
            if not levels:
                continue
            values = [p for p in items if not _level(p) and re.match(r"^\d", p)]
            if not values:
                before = _LINE_REF.sub("", clause[: paren.start()]).replace(" from", "").strip(" ,")
                values = [before] if before else []
            flags += [(v, str(levels[0])) for v in values]
    return flags


@cache
def low_confidence_values(char_id: str) -> tuple[tuple[str, str], ...]:
    """Every card value of a character whose source is of low confidence: ``(what, level)``.

    ``what`` is a card field (``hp``) or ``<spell name>: <value>`` (``Plaguing Arrow: 3 AP``).
    Empty for an unknown id.
    """
    spec = _character(str(char_id))
    if spec is None:
        return ()
    flags: list[tuple[str, str]] = []
    for key, note in dict(spec.source).items():
        if key in ("card", "colour"):
            continue
        level = field_confidence(str(note))
        if level:
            flags.append((key, level))
    for spell in spec.spells:
        flags += [(f"{spell.name}: {value}", level) for value, level in spell_flags(spell.source)]
    return tuple(flags)


def confidence_text(char_id: str) -> str:
    """The low-confidence values of a character as one short phrase ("" when there are none)."""
    return "; ".join(f"{what} ({level})" for what, level in low_confidence_values(char_id))


def current_ai_ids(df: Any) -> Any:
    """Result rows (a DataFrame) with every AI column (``ai``, ``ai0``, ``ai1``...) in today's AI ids:
    rows written before the AIs were renamed (``focus_fire``) read as ``focus-fire``
    (:func:`krosbalance.ai.registry.canonical_ai`). Other rows are returned as they are."""
    import pandas as pd

    former = former_ids()
    for col in [c for c in df.columns if re.fullmatch(r"ai\d*|ai_[ab]", str(c))]:
        values = df[col]
        if isinstance(values.dtype, pd.CategoricalDtype):
            if any(c in former for c in values.cat.categories):
                df[col] = values.astype(object).replace(former)
        elif values.isin(list(former)).any():
            df[col] = values.replace(former)
    return df


def _forget_cards() -> None:
    """Drop the names read from the previous cards when a designer's folder comes or goes."""
    for cached in (_character, _short_names, _board, low_confidence_values):
        cached.cache_clear()


on_content_change(_forget_cards)
