"""Write stage: the only code that touches the output folder.

A build is written to a staging folder beside the output and swapped in only when complete, so a
failed or interrupted build leaves the previous site exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .problems import ConfigError

MARKER = ".nojekyll"
"""Every build has it (GitHub Pages needs it); its presence says a folder is ours to replace."""


def check_output_folder(source: Path, out: Path) -> None:
    """Refuse an output folder whose replacement would destroy something that isn't a build."""
    src, dst = source.resolve(), out.resolve()
    if dst == src or src.is_relative_to(dst):
        raise ConfigError(f"the output folder {out} contains the source folder: choose another "
                          "--out (default _site)")
    if dst.exists() and not dst.is_dir():
        raise ConfigError(f"the output {out} is a file, not a folder")
    if dst.is_dir() and any(dst.iterdir()) and not (dst / MARKER).exists():
        raise ConfigError(f"refusing to replace {out}: it is not empty and is not a previous build "
                          f"(no {MARKER} file). Remove it or choose another --out")


def write_site(out: Path, files: dict[str, bytes]) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; a web server must be able to read it
        for relative in sorted(files):
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[relative])
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, out: Path) -> None:
    """Put the staged build in place of the old one with two renames; remove the old one last."""
    if not out.exists():
        os.replace(staging, out)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    retired.rmdir()
    os.replace(out, retired)
    try:
        os.replace(staging, out)
    except BaseException:
        os.replace(retired, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)
