"""Names from files are text, never commands: one escaping function per output medium (issue 43, finding 7).

Card names, deck names, deck file names, pilot names and policy metadata come from files that designers trade, so
every one of them is treated as hostile wherever it is written. Each medium has one function here, and every writer
of that medium calls it on every piece of text it did not write itself:

=====================  =====================================================================================
medium                 function
=====================  =====================================================================================
terminal / text files  :func:`terminal`: control characters (escape sequences that set the window title or
                       clear the screen, carriage returns, bells), C1 controls and bidirectional overrides are
                       shown as ``\\x1b``-style escapes; newlines too, unless the text is a multi-line board
rich console           :func:`rich_text`: a ``rich.text.Text`` of :func:`terminal`'s text, never parsed as
                       markup, so ``[bold]`` prints as written and ``[/]`` cannot close a tag that was never
                       opened (a crash in rich); :func:`markup` where a name must sit inside a markup string
HTML text/attributes   :func:`html_text`: ``& < > " '`` as entities
JSON inside ``<script>``  :func:`script_json`: ``< > &`` and the JS line separators as ``\\uXXXX``, so neither
                       ``</script>`` nor ``<!--<script>`` (which makes the browser swallow the rest of the page)
                       can appear in the payload
CSV cells              :func:`csv_cell`: a text cell starting with ``= + - @``, tab or carriage return gets a
                       leading ``'`` so no spreadsheet runs it as a formula (OWASP's CSV-injection rule)
matplotlib text        :func:`plot_text`: every ``$`` as ``\\$`` (a ``$...$`` pair would be parsed as mathtext and
                       can raise), control characters as in :func:`terminal`
JSON files / stdout    :func:`json_text`: ``json.dumps`` with the C1 controls and bidirectional overrides that
                       ``ensure_ascii=False`` leaves raw escaped as ``\\uXXXX`` (still the same string to a reader)
=====================  =====================================================================================
"""
from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["terminal", "rich_text", "markup", "html_text", "script_json", "csv_cell", "plot_text", "json_text", "UNSAFE"]

# C0 controls (tab and newline are handled by ``newlines``), DEL, C1 controls, the bidirectional embeddings,
# overrides and isolates (they reorder what follows on screen: "Trojan source"), and the Unicode line and paragraph
# separators (a terminal or a JS parser breaks the line there)
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_UNSAFE_WITH_LINES = re.compile(UNSAFE.pattern[:-1] + "\t\n]")
_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _visible(match: re.Match) -> str:
    code = ord(match.group())
    return {9: "\\t", 10: "\\n", 13: "\\r"}.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def terminal(text: Any, newlines: bool = False) -> str:
    """``text`` safe to print on a terminal or write to a text file: every control character that a terminal
    would act on is shown as a visible escape (``\\x1b``, ``\\u202e``). ``newlines=True`` keeps newlines and tabs
    (a multi-line board or table); otherwise they are escaped too, so a name stays on its line."""
    s = str(text)
    return (UNSAFE if newlines else _UNSAFE_WITH_LINES).sub(_visible, s)


def rich_text(text: Any, newlines: bool = False) -> Any:
    """``text`` for a rich console or table cell: a ``rich.text.Text`` (printed as written, never as markup) of
    :func:`terminal`'s escaped text."""
    from rich.text import Text

    return Text(terminal(text, newlines))


def markup(text: Any, newlines: bool = False) -> str:
    """``text`` to embed in a rich markup string (``f"[bold]{markup(name)}[/bold]"``): :func:`terminal`, then
    rich's escape; the backslashes that end the name are doubled, so the tag after it stays a tag and the name
    keeps every backslash (rich's own escape loses one of two). Prefer :func:`rich_text` where no markup is needed."""
    from rich.markup import escape

    shown = terminal(text, newlines)
    body = shown.rstrip("\\")
    return escape(body) + "\\" * (2 * (len(shown) - len(body)))


def html_text(text: Any) -> str:
    """``text`` for HTML element content or a quoted attribute value."""
    import html

    return html.escape(str(text), quote=True)


def script_json(data: Any) -> str:
    """``data`` as JSON to embed in ``<script type="application/json">``: nothing in it can end or re-open the
    script element, whatever its strings hold (``JSON.parse`` reads the escapes back to the same strings)."""
    text = json.dumps(data, ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def csv_cell(value: Any) -> Any:
    """A CSV cell: text that a spreadsheet would read as a formula gets a leading ``'``; numbers, None and other
    text are returned as they are (so numeric columns stay numeric)."""
    if isinstance(value, str) and value.startswith(_CSV_FORMULA):
        return "'" + value
    return value


def plot_text(text: Any) -> str:
    """``text`` for a matplotlib label, title or tick: shown as written, never parsed as mathtext."""
    return terminal(text).replace("$", "\\$")


def json_text(data: Any, **kwargs: Any) -> str:
    """``json.dumps(data, ensure_ascii=False, **kwargs)`` with the characters a terminal acts on escaped as
    ``\\uXXXX`` (JSON escapes the C0 controls itself; the C1 controls and bidirectional overrides it leaves raw)."""
    text = json.dumps(data, ensure_ascii=False, **kwargs)
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
