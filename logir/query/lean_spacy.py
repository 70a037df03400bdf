"""Import spaCy without torch: what the natural-language reader needs, at half the start-up cost.

spaCy imports thinc, and thinc imports torch whenever torch is installed (the ``dense`` extra),
although the small English pipeline the reader loads never uses it: a ``logir search -r bm25``
of a natural-language query paid seconds for a torch it did not need. :func:`import_spacy`
imports spaCy once with torch hidden, so thinc takes its no-torch path; torch itself stays
importable afterwards (the dense retriever imports it as usual).
"""

from __future__ import annotations

import importlib
import os
import sys
import threading

__all__ = ["import_spacy"]

_LOCK = threading.Lock()


def import_spacy() -> None:
    """Import spaCy, if it is installed and wanted, without torch (nothing when torch or spaCy is
    already loaded, or LOGIR_NO_SPACY is set)."""
    if os.environ.get("LOGIR_NO_SPACY") or "spacy" in sys.modules or "torch" in sys.modules:
        return
    with _LOCK:
        if "spacy" in sys.modules or "torch" in sys.modules:
            return
        sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` fails meanwhile
        try:
            importlib.import_module("spacy")
        except ImportError:
            pass  # no spaCy: the reader uses its rules alone, as before
        finally:
            if "torch" in sys.modules and sys.modules["torch"] is None:
                del sys.modules["torch"]
