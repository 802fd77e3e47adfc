"""site-builder: publish card-game tournament results as a static website.

The public surface is the `site-builder` command and `build`/`check` below; everything else is
internal and may change.
"""

from __future__ import annotations

__version__ = "0.2.0"

__all__ = ["BuildResult", "build", "check", "__version__"]


def __getattr__(name: str):
    """`build`, `check` and `BuildResult`, imported when first used: `site-builder --help` and
    the other commands do not pay for the build's imports (Jinja, the rulesets) until they
    need them."""
    if name in ("BuildResult", "build", "check"):
        from . import build as module
        return getattr(module, name)
    raise AttributeError(f"module 'site_builder' has no attribute {name!r}")
