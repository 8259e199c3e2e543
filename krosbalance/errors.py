"""The project's exception types.

User mistakes (bad content, bad experiment files, illegal teams) raise a subclass of
``KrosbalanceError`` whose message names the file, the field and the reason; the CLI prints that one
line and exits non-zero instead of showing a traceback. Engine bugs raise ``IllegalActionError``.
"""

from __future__ import annotations


class KrosbalanceError(Exception):
    """Base of every error that is the user's to fix (and so is shown without a traceback)."""


class LocatedError(KrosbalanceError):
    """An error in one field of one input file: ``file: field: reason``."""

    def __init__(self, file: str, field: str, reason: str) -> None:
        self.file = file
        self.field = field
        self.reason = reason
        super().__init__(f"{file}: {field}: {reason}")


class ContentError(LocatedError):
    """Bad game content: a character, spell, board or reward file that does not validate."""


class TeamError(KrosbalanceError):
    """A team that breaks the team-building rules (R-A146, R-A147) or names unknown characters."""


class ExperimentError(LocatedError):
    """A malformed or inconsistent experiment file."""


class IllegalActionError(Exception):
    """An action that the rules forbid in the current state: always a bug in the caller (an AI)."""


class ScriptExhaustedError(Exception):
    """A scripted die ran out of faces: the test forgot to script a roll the engine needed."""


class EngineError(KrosbalanceError):
    """``engine="core"`` asked of a match the native core cannot play (it is not installed, or does not
    play that ruleset, option or AI yet), or an unknown engine name."""


class CoreFault(RuntimeError):
    """The native core failed on a match it had accepted (a Rust panic, an impossible state, a result
    the reference cannot read): a bug of the core, recorded as the match's error row, the run going on."""
