"""Where this copy of site-builder was installed from, as the requirement a league's workflow
can install the same version with (`site-builder new` writes it into the workflow).

pip records how a package was installed from anything but an index in its `direct_url.json`
(PEP 610): a git repository at a revision, an archive at a URL, or a local folder. A copy from
an index has none. That record is data another program wrote: it is used only when it holds
a URL of the expected shape, and otherwise the index requirement is written, with a warning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata

from .. import __version__

DISTRIBUTION = "site-builder"
_REMOTE = re.compile(r"https?://[^\s'\"${}]+")
"""A URL a CI runner can reach, with nothing a shell or a workflow would read otherwise (not
ssh://, for which a runner has no key, nor git://, which GitHub no longer serves)."""
_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,99}")


@dataclass(frozen=True)
class InstallSource:
    requirement: str
    """What `pip install` is given in the workflow."""
    reachable: bool
    """False: this copy came from somewhere a CI runner cannot reach (a folder here); the
    requirement is then the index's, which may not hold this version."""
    origin: str
    """Where this copy came from, for the message: "the package index", a URL, a folder."""


def index_requirement() -> str:
    return f"{DISTRIBUTION}=={__version__}"


def install_source() -> InstallSource:
    try:
        record = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        return InstallSource(index_requirement(), False, "a source folder (not installed)")
    if record is None:
        return InstallSource(index_requirement(), True, "the package index")
    try:
        data = json.loads(record)
        url = data["url"]
    except (ValueError, TypeError, KeyError):
        return InstallSource(index_requirement(), False, "an install record pip could not read")
    if not isinstance(url, str) or not isinstance(data, dict):
        return InstallSource(index_requirement(), False, "an install record of another shape")
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and _REMOTE.fullmatch(url):
        # the commit pip installed: a requested branch ("main") would move under the pin
        revision = vcs.get("commit_id") or vcs.get("requested_revision")
        if isinstance(revision, str) and _REVISION.fullmatch(revision):
            return InstallSource(f"git+{url}@{revision}", True, url)
    if isinstance(data.get("archive_info"), dict) and _REMOTE.fullmatch(url):
        return InstallSource(f"{DISTRIBUTION} @ {url}", True, url)
    return InstallSource(index_requirement(), False, _shown(url))


def _shown(url: str) -> str:
    local = url.removeprefix("file://")
    return f"the folder {local}" if local != url else url
