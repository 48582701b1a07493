"""Blocks as Markdown for the terminal: headings, paragraphs and pipe tables; plots are
only named, since they live in the HTML page."""
from .blocks import Heading, Paragraph, Plot, Table


def render(blocks):
    parts = [_render(b) for b in blocks]
    return "\n\n".join(p for p in parts if p) + "\n"


def _render(block):
    if isinstance(block, Heading):
        return "#" * block.level + " " + block.text
    if isinstance(block, Paragraph):
        return block.text
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Plot):
        return ""
    raise TypeError(f"no Markdown for {type(block).__name__}")


def _cell(value):
    return str(value).replace("|", "\\|")


def _table(t):
    head = "| " + " | ".join(_cell(h) for h in t.headers) + " |"
    rule = "|" + "|".join("---:" if i in t.align_right else "---" for i in range(len(t.headers))) + "|"
    rows = ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
    return "\n".join([head, rule] + rows)
