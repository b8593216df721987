#!/usr/bin/env python3
"""Doxygen's input filter for the Markdown pages (docs/Doxyfile.in, FILTER_PATTERNS).

The pages are written for GitHub, which renders them as plain Markdown; Doxygen reads them through
this filter, which turns the few things that GitHub and Doxygen spell differently into Doxygen's
form. Each change keeps the number of lines, so Doxygen's warnings name the page's real lines.

- Labels. A title ends with a comment that GitHub hides, `# Title <!-- {#step05} -->`; Doxygen
  gets `# Title {#step05}`, its page label (used by links and by \\subpage). A section gets one from a comment
  on the line above its heading, `<!-- {#glossary} -->` over `## Glossary`, where the label is
  GitHub's own anchor of the heading (its words in lower case, joined by '-'); on the heading's
  own line the comment would change GitHub's anchor.
- Links to a section. `[text](../../docs/pages/steps.md#glossary)`, which GitHub follows to the
  heading, becomes `\\ref glossary "text"`.
- Subpages. A list item that is only a link to another page, `- [Title](../../steps/05_x/README.md)`,
  in a list introduced by the comment `<!-- subpages -->`, becomes `- \\subpage step05 "Title"`, so
  the pages form a tree in Doxygen's navigation while GitHub shows the links.
- Figures. An image link written relative to the page, `![text](../../docs/figures/step02_grid.svg)`,
  becomes `![text](step02_grid.svg)`, which Doxygen looks up in IMAGE_PATH and copies next to the
  HTML.
- Diffs. A fenced block of language diff, which GitHub colours and Doxygen 1.9 shows in one colour,
  becomes an HTML block whose lines carry the classes diff-add, diff-remove and diff-file, which
  docs/tutorial.css colours.

    python3 docs/doxygen_filter.py PAGE.md    (prints the filtered page)
"""

import html
import os
import re
import sys

LABEL = re.compile(r"^(# .*?)\s*<!-- (\{#[A-Za-z0-9_]+\}) -->\s*$")
SECTION_LABEL = re.compile(r"^<!-- (\{#[A-Za-z0-9_]+\}) -->$")
SECTION_LINK = re.compile(r"\[([^]]+)\]\([^)#]*\.md#([A-Za-z0-9_]+)\)")
SUBPAGE = re.compile(r"^(\s*[-*] )\[(?P<title>[^]]+)\]\((?P<target>[^)]+\.md)\)\s*$")
IMAGE = re.compile(r"(!\[[^]]*\]\()(?:[^)]*/)?([^/)]+\.(?:svg|png))\)")
LABEL_IN_PAGE = re.compile(r"<!-- \{#([A-Za-z0-9_]+)\} -->")


def label_of(page):
    with open(page, encoding="utf-8") as file:
        found = LABEL_IN_PAGE.search(file.readline())
    if not found:
        sys.exit(f"{page}: its first line has no page label '<!-- {{#label}} -->'")
    return found[1]


def diff_html(lines):
    """The lines of a diff as Doxygen's own code fragment, each line classed by its first sign."""
    out = ['<div class="fragment diff">']
    for line in lines:
        kind = ("diff-file" if line.startswith(("--- ", "+++ ")) else
                "diff-add" if line.startswith("+") else
                "diff-remove" if line.startswith("-") else "")
        text = html.escape(line, quote=False) or "&#8203;"
        out.append(f'<div class="line {kind}">{text}</div>' if kind else
                   f'<div class="line">{text}</div>')
    out.append("</div>")
    return out


def filtered(path, text):
    lines = text.split("\n")
    out = []
    in_subpages = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```diff"):
            end = lines.index("```", index + 1)
            body = diff_html(lines[index + 1:end])
            # \htmlonly[block] keeps Doxygen from wrapping the HTML in a paragraph; the block
            # takes as many lines as the fenced one did.
            block = ["\\htmlonly[block] " + body[0]] + body[1:-1] + [body[-1] + " \\endhtmlonly"]
            out += block
            index = end + 1
            continue
        found = LABEL.match(line)
        if found and index == 0:
            line = f"{found[1]} {found[2]}"
        found = SECTION_LABEL.match(line)
        if found and index + 1 < len(lines) and lines[index + 1].startswith("#"):
            out += ["", f"{lines[index + 1].rstrip()} {found[1]}"]
            index += 2
            continue
        line = SECTION_LINK.sub(r'\\ref \2 "\1"', line)
        if line.strip() == "<!-- subpages -->":
            in_subpages = True
        elif in_subpages and not line.strip():
            in_subpages = bool(out) and out[-1].strip() == "<!-- subpages -->"
        elif in_subpages:
            item = SUBPAGE.match(line)
            if item:
                target = os.path.normpath(os.path.join(os.path.dirname(path), item["target"]))
                line = f'{item[1]}\\subpage {label_of(target)} "{item["title"]}"'
        out.append(IMAGE.sub(r"\1\2)", line))
        index += 1
    return "\n".join(out)


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as file:
        sys.stdout.write(filtered(path, file.read()))


if __name__ == "__main__":
    main()
