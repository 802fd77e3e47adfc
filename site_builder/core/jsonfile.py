"""The published JSON files' one format."""

from __future__ import annotations

import json
from typing import Any


def dump_json(payload: Any) -> str:
    """Compact UTF-8 JSON with a final newline. Compact on purpose: `indent` makes the json module
    fall back from its C encoder to a pure-Python one, about 20 times slower on a large archive."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n"
