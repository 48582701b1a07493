"""Blocks as one self-contained HTML page: styles and plots (PNG, base64) inline, no
external resource, so the page can be mailed or archived beside the result files.

The page checks itself once loaded and records the outcome on <html>, where a headless
browser's --dump-dom shows it: data-plots (plots in the page), data-plots-shown (decoded
and laid out with a nonzero size), data-js-errors (script errors seen)."""
import base64
import html

from .blocks import Heading, Paragraph, Plot, Table

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #555; }
code { font-size: 0.9em; }
"""

# Registered first, so that an error in any later script is counted.
ERROR_COUNTER = """
document.documentElement.dataset.jsErrors = "0";
window.addEventListener("error", function () {
  var d = document.documentElement.dataset;
  d.jsErrors = String(Number(d.jsErrors) + 1);
});
"""

SELF_CHECK = """
window.addEventListener("load", function () {
  var plots = document.querySelectorAll("img.plot"), shown = 0;
  plots.forEach(function (img) {
    if (img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0) shown++;
  });
  var d = document.documentElement.dataset;
  d.plots = String(plots.length);
  d.plotsShown = String(shown);
});
"""


def render(title, blocks):
    body = "\n".join(_render(b) for b in blocks)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<script>{ERROR_COUNTER}</script>
<style>{STYLE}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
{body}
<script>{SELF_CHECK}</script>
</body>
</html>
"""


def _render(block):
    if isinstance(block, Heading):
        level = min(block.level + 1, 6)  # the page's title is the only h1
        return f"<h{level}>{html.escape(block.text)}</h{level}>"
    if isinstance(block, Paragraph):
        return f"<p>{_inline(block.text)}</p>"
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Plot):
        data = base64.b64encode(block.png).decode("ascii")
        alt = html.escape(block.title)
        return (f'<figure><img class="plot" alt="{alt}" src="data:image/png;base64,{data}">'
                f"<figcaption>{alt}</figcaption></figure>")
    raise TypeError(f"no HTML for {type(block).__name__}")


def _inline(text):
    """Markdown's `code` spans in otherwise plain text."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _table(t):
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in t.headers)
    rows = []
    for row in t.rows:
        cells = "".join(
            f'<td class="num">{_inline(str(c))}</td>' if i in t.align_right else f"<td>{_inline(str(c))}</td>"
            for i, c in enumerate(row))
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
