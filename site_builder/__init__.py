"""site-builder: publish card-game tournament results as a static website.

The public surface is the `site-builder` command and `build`/`check` below; everything else is
internal and may change.
"""

from __future__ import annotations

__version__ = "0.2.0"

from .build import BuildResult, build, check  # noqa: E402

__all__ = ["BuildResult", "build", "check", "__version__"]
