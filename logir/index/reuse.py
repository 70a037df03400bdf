"""Retrievers of an existing index carried into a new build of the same corpus.

``logir index CORPUS --out EXISTING -r bm25`` over an index of the same documents (same ids, same
texts) rebuilds bm25 and keeps the index's other retrievers (dense, splade) as they are; over an
index of other documents it refuses, unless told to replace it. The carried folders are checked
against the old manifest's checksums, then linked (or copied) into the new index's temporary
folder, which is swapped into place as any build is.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from logir.data.jsonl import read_jsonl
from logir.errors import LogirError
from logir.index.integrity import DamagedFile, check_files, read_json

__all__ = ["carried_parts", "link_part"]

REPLACE_HINT = "logir index --force replaces it"


def carried_parts(
    out: Path,
    manifest_name: str,
    docs_name: str,
    ids: Sequence[str],
    sha: str,
    names: Sequence[str],
) -> dict[str, Any]:
    """The retrievers of the index at ``out`` that a build of ``names`` keeps: those not being
    built, by name with their manifest parameters. A LogirError when ``out`` holds another corpus
    (``ids`` in order and corpus hash ``sha`` differ) or cannot be read."""
    if not (out / manifest_name).is_file():
        return {}
    try:
        manifest = read_json(out / manifest_name)
        if not isinstance(manifest, dict) or not isinstance(manifest.get("retrievers"), dict):
            raise DamagedFile(manifest_name, "is not a logir index manifest")
        records = manifest.get("files")
        if isinstance(records, dict):
            check_files(out, records, docs_name, digest=True)
        old_ids = [str(row.get("id")) for _, row in read_jsonl(out / docs_name)]
    except (DamagedFile, LogirError, OSError) as exc:
        raise LogirError(
            f"{out} holds an index that cannot be read ({exc}); refusing to replace it "
            f"({REPLACE_HINT})"
        ) from None
    if manifest.get("corpus_sha256") != sha or old_ids != list(ids):
        where = f", built from {manifest['corpus']}" if manifest.get("corpus") else ""
        raise LogirError(
            f"{out} is an index of other documents ({len(old_ids)} documents{where}); refusing "
            f"to replace it and drop its retrievers ({', '.join(manifest['retrievers'])}): "
            f"{REPLACE_HINT}, or choose another --out"
        )
    kept = {n: p for n, p in manifest["retrievers"].items() if n not in names}
    for name in kept:
        try:
            if isinstance(records, dict):
                check_files(out, records, f"{name}/", digest=True)
            elif not (out / name).is_dir():
                raise DamagedFile(name, "is missing")
        except DamagedFile as exc:
            raise LogirError(
                f"cannot keep retriever {name!r} of {out}: {exc}; build it again "
                f"(-r {name}) or replace the index ({REPLACE_HINT})"
            ) from None
    return kept


def link_part(src: Path, dst: Path) -> None:
    """The folder ``src`` at ``dst``, its files hard-linked where the file system allows (the
    index never changes a file in place), else copied."""

    def link_or_copy(a: str, b: str) -> Any:
        try:
            os.link(a, b)
        except OSError:
            shutil.copy2(a, b)
        return b

    shutil.copytree(src, dst, copy_function=link_or_copy)
