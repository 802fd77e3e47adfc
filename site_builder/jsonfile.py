"""The published JSON files' one format."""

from __future__ import annotations

import json
from typing import Any


def dump_json(payload: Any) -> str:
    """Compact UTF-8 JSON with a final newline. Compact on purpose: `indent` makes the json module
    fall back from its C encoder to a pure-Python one, about 20 times slower on a large archive."""
    return compact_json(payload) + "\n"


def compact_json(value: Any) -> str:
    """`value` as the published files write it, without the final newline (a piece of one)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
