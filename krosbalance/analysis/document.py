"""A tiny document model rendered twice: a self-contained HTML page and Markdown with PNG files.

The report (:mod:`krosbalance.analysis.report`) fills a :class:`Doc` with headings, paragraphs,
lists, tables and figures; :func:`render_html` inlines CSS and base64 PNGs, :func:`render_markdown`
writes the PNGs beside the Markdown file and links them.
"""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

MAX_TABLE_ROWS = 200
CSS = """
body { font-family: system-ui, -apple-system, Segoe UI, sans-serif; max-width: 980px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #2b6cb0; padding-bottom: .2em; }
h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: .85em; margin: .8em 0; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f0f4f8; } td:first-child, th:first-child { text-align: left; }
pre { background: #f6f8fa; padding: .8em; overflow-x: auto; font-size: .85em; }
img { max-width: 100%; } .note { color: #666; font-size: .9em; }
.summary li { margin: .3em 0; }
"""


@dataclass
class Doc:
    """A tiny document model rendered both to HTML and to Markdown."""

    blocks: list[tuple[str, Any]] = field(default_factory=list)

    def h(self, text: str) -> None:
        self.blocks.append(("h2", text))

    def p(self, text: str, note: bool = False) -> None:
        self.blocks.append(("note" if note else "p", text))

    def ul(self, items: list[str]) -> None:
        self.blocks.append(("ul", items))

    def code(self, text: str, lang: str = "") -> None:
        self.blocks.append(("code", (text, lang)))

    def table(self, df: pd.DataFrame, caption: str = "") -> None:
        if len(df) > MAX_TABLE_ROWS:
            caption = (
                caption + " " if caption else ""
            ) + f"(first {MAX_TABLE_ROWS} of {len(df)} rows; all in the CSV)"
            df = df.head(MAX_TABLE_ROWS)
        self.blocks.append(("table", (df, caption)))

    def image(self, name: str, fig: Figure, alt: str) -> None:
        buf = io.BytesIO()
        # a legend or label wider than the figure (a verdict picture's long AI groups) widens the
        # picture rather than being cut at its edge
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", pad_inches=0.1)
        self.blocks.append(("img", (name, buf.getvalue(), alt)))


@dataclass
class ReportBody:
    """What the default study gives the report shell (:mod:`krosbalance.analysis.report`) beside its
    sections: the common part of every report, computed before the verdict is drawn.

    ``findings``: the Findings' lines (the Summary keeps their warnings); ``ais``: the AIs that played
    (the Summary's first line); ``verdict_matches``: the matches the character-strength picture reads
    (None: no such picture, e.g. tables of more than two players); ``answer_lines(verdict)``: the
    verdict's lines in the default study's words (None: keep the verdict's own); ``sections``: the
    common sections, ``(heading, build)`` each, written between the leading sections and the others.
    """

    findings: list[str]
    ais: pd.DataFrame
    verdict_matches: pd.DataFrame | None
    answer_lines: Callable[[Any], list[str] | None]
    sections: list[tuple[str, Callable[[], None]]]


def _html_inline(text: str) -> str:
    """Escape, then turn ``**bold**`` into <strong>."""
    parts = html.escape(text).split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


def _md_inline(text: str) -> str:
    """Markdown text with HTML's special characters escaped, as the HTML page escapes them:
    experiment text (a description, a name) reaches the report, and a Markdown viewer would
    pass raw HTML through. ``**bold**`` stays Markdown."""
    return html.escape(text, quote=False)


def _md_cell(value: object) -> str:
    return _md_inline(str(value)).replace("|", "\\|").replace("\n", " ")


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in ``text``, so the text cannot close it."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _md_table(df: pd.DataFrame) -> str:
    cols = [_md_cell(c) for c in df.columns]
    esc = [[_md_cell(v) for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in esc]
    return "\n".join(lines)


def render_markdown(title: str, doc: Doc, report_dir: Path) -> str:
    """Markdown text; images are written into ``report_dir`` and linked by file name."""
    out = [f"# {_md_inline(title)}", ""]
    for kind, value in doc.blocks:
        if kind == "h2":
            out += [f"## {_md_inline(value)}", ""]
        elif kind in ("p", "note"):
            text = _md_inline(value)
            out += [text if kind == "p" else f"*{text}*", ""]
        elif kind == "ul":
            out += [f"- {_md_inline(item)}" for item in value] + [""]
        elif kind == "code":
            text, lang = value
            fence = _fence(text)
            out += [f"{fence}{lang}", text.rstrip("\n"), fence, ""]
        elif kind == "table":
            df, caption = value
            if caption:
                out += [f"*{_md_inline(caption)}*", ""]
            out += [_md_table(df), ""]
        elif kind == "img":
            name, png, alt = value
            (report_dir / name).write_bytes(png)
            out += [f"![{_md_inline(alt)}]({name})", ""]
    return "\n".join(out)


def render_html(title: str, doc: Doc) -> str:
    """A self-contained HTML page (inline CSS, images as base64 data URIs)."""
    body = [f"<h1>{html.escape(title)}</h1>"]
    for kind, value in doc.blocks:
        if kind == "h2":
            body.append(f"<h2>{html.escape(value)}</h2>")
        elif kind == "p":
            body.append(f"<p>{_html_inline(value)}</p>")
        elif kind == "note":
            body.append(f'<p class="note">{_html_inline(value)}</p>')
        elif kind == "ul":
            items = "".join(f"<li>{_html_inline(i)}</li>" for i in value)
            body.append(f'<ul class="summary">{items}</ul>')
        elif kind == "code":
            body.append(f"<pre><code>{html.escape(value[0])}</code></pre>")
        elif kind == "table":
            df, caption = value
            if caption:
                body.append(f'<p class="note">{html.escape(caption)}</p>')
            body.append(df.to_html(index=False, escape=True, na_rep="n/a", border=0))
        elif kind == "img":
            name, png, alt = value
            data = base64.b64encode(png).decode("ascii")
            body.append(f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">')
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
