"""A query written as labelled fields, the way a search brief or a form is filled in:

    must: jazz pianists / era: 1950s / exclude: Thelonious Monk
    TOPIC: suspension bridges. SCOPE: 20th century. EXCLUSIONS: Tacoma Narrows, Golden Gate.

Each field is a short label, a colon and its value; fields are parted by a slash, a semicolon, a
bar, a line break or a sentence's end. A label that leaves things out ("exclude", "omit", "not
wanted", "exclusion criteria") makes each item of its value an excluded term; any other label
("topic", "era", "region") only names what its value is, and the value is read like any text.
The text reads as fields when it has two labels, or one label that leaves things out after
words of the request ("houseplants for low light / not wanted: succulents"). Linear in the text's
length: one scan for the labels, each bounded to a few words.
"""

from __future__ import annotations

import re

from logir.query.natural.view import View

#: a label: one to three words (a hyphen or an apostrophe inside one), then a colon and a space,
#: where a field may start (the text's start, or after a field's separator)
_LABEL = re.compile(
    r"(?:^|(?<=[/;|\n])|(?<=[.?!]\s))[ \t]*"
    r"(?P<label>[^\W\d_][\w'\u2019-]{0,24}(?:[ \t]+[^\W\d_][\w'\u2019-]{0,24}){0,2})[ \t]*:[ \t]+"
    r"(?=\S)",
    re.M,
)

#: labels whose value is left out (lower case, single spaces)
_LEAVE_OUT_LABELS = frozenset(
    {
        "exclude",
        "excluding",
        "excluded",
        "exclusion",
        "exclusions",
        "exclusion criteria",
        "excl",
        "omit",
        "omitting",
        "not wanted",
        "unwanted",
        "not needed",
        "not interested",
        "avoid",
        "without",
        "except",
        "skip",
        "ignore",
        "no",
        "not",
        "minus",
        "leave out",
        "don't want",
        "dont want",
        "do not want",
        "filter out",
        "out of scope",
    }
)

#: a field's separator at its end ("/", ";", "|", a full stop), left off its value
_TRAILING = re.compile(r"[\s/;|.]+$")


def leaves_out(label: str) -> bool:
    """Whether a field's label says its value is left out ("exclude", "Not wanted")."""
    return " ".join(label.lower().replace("\u2019", "'").split()) in _LEAVE_OUT_LABELS


def fields(v: View) -> list[tuple[str, View]] | None:
    """The text's fields as (label, value) pairs, with the words before the first label as a
    field of label "" where there are any; None when the text is not written as fields."""
    text = v.text
    marks = list(_LABEL.finditer(text))
    if not marks:
        return None
    out: list[tuple[str, View]] = []
    lead = v.cut(0, marks[0].start())
    lead = lead.cut(0, len(_TRAILING.sub("", lead.text)))
    if lead.has_content():
        out.append(("", lead))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        value = v.cut(m.end(), end)
        value = value.cut(0, len(_TRAILING.sub("", value.text))).trim()
        out.append((m.group("label"), value))
    labelled = [label for label, _ in out if label]
    if len(labelled) >= 2 or (any(leaves_out(label) for label in labelled) and lead.has_content()):
        return out
    return None
