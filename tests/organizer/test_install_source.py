"""How `site-builder new` knows what its league's workflow can install (issue 34, point 1): the
same source this copy came from when a CI runner can reach it, read from pip's install record
(PEP 610's direct_url.json), which is data written by another program and trusted only when it
has the expected shape."""

from __future__ import annotations

import json

import pytest

from site_builder import __version__
from site_builder.organizer import installsource
from site_builder.organizer.newleague import install_lines

INDEX = f"site-builder=={__version__}"


class Installed:
    """A distribution as importlib.metadata gives it, with pip's record (or none)."""

    def __init__(self, record: str | None):
        self.record = record

    def read_text(self, name: str) -> str | None:
        return self.record if name == "direct_url.json" else None


def installed_from(monkeypatch, record) -> installsource.InstallSource:
    text = None if record is None else record if isinstance(record, str) else json.dumps(record)
    monkeypatch.setattr(installsource.metadata, "distribution", lambda name: Installed(text))
    return installsource.install_source()


@pytest.mark.parametrize("record, requirement, reachable", [
    (None, INDEX, True),  # from an index: that index has it
    # the commit pip installed, not what was asked for (a branch would move under the pin)
    ({"url": "https://github.com/league/site-builder.git",
      "vcs_info": {"vcs": "git", "requested_revision": "main", "commit_id": "ab12cd34"}},
     "git+https://github.com/league/site-builder.git@ab12cd34", True),
    ({"url": "https://github.com/league/site-builder.git",
      "vcs_info": {"vcs": "git", "requested_revision": "v0.2.0"}},
     "git+https://github.com/league/site-builder.git@v0.2.0", True),
    # a runner has no SSH key, and GitHub serves no git://
    ({"url": "ssh://git@github.com/league/site-builder.git",
      "vcs_info": {"vcs": "git", "commit_id": "ab12cd34"}}, INDEX, False),
    ({"url": "git://github.com/league/site-builder.git",
      "vcs_info": {"vcs": "git", "commit_id": "ab12cd34"}}, INDEX, False),
    ({"url": "https://github.com/league/site-builder",
      "vcs_info": {"vcs": "git", "commit_id": "0123456789abcdef"}},
     "git+https://github.com/league/site-builder@0123456789abcdef", True),
    ({"url": "https://files.example.org/site_builder-0.2.0-py3-none-any.whl",
      "archive_info": {}},
     "site-builder @ https://files.example.org/site_builder-0.2.0-py3-none-any.whl", True),
    ({"url": "file:///home/me/site-builder", "dir_info": {"editable": True}}, INDEX, False),
    ({"url": "file:///home/me/site-builder", "vcs_info": {"vcs": "git", "commit_id": "ab"}},
     INDEX, False),
    # what no pip writes: a URL or revision a shell or a workflow would read otherwise
    ({"url": "https://x.org/a'; rm -rf ~; '", "vcs_info": {"vcs": "git", "commit_id": "ab"}},
     INDEX, False),
    ({"url": "https://x.org/${{ secrets.TOKEN }}", "archive_info": {}}, INDEX, False),
    ({"url": "https://x.org/repo", "vcs_info": {"vcs": "git", "requested_revision": "--upload"}},
     INDEX, False),
    ("not json", INDEX, False),
    (["a", "list"], INDEX, False),
])
def test_the_workflow_installs_what_this_copy_came_from(monkeypatch, record, requirement,
                                                         reachable):
    source = installed_from(monkeypatch, record)
    assert (source.requirement, source.reachable) == (requirement, reachable)


def test_new_says_how_the_workflow_installs_and_warns_when_it_cannot_know(monkeypatch):
    installed_from(monkeypatch, {"url": "file:///home/me/site-builder",
                                 "dir_info": {"editable": True}})
    lines = install_lines(None)
    assert lines[0] == f"The workflow installs the tool with: python -m pip install '{INDEX}'."
    assert lines[1].startswith("Check it: this copy of site-builder came from the folder "
                               "/home/me/site-builder, which GitHub's runners cannot reach")
    installed_from(monkeypatch, None)
    assert install_lines(None) == [f"The workflow installs the tool with: python -m pip install "
                                   f"'{INDEX}' (where this copy came from: the package index)."]
    given = "git+https://example.org/x/site-builder@v0.2.0"
    assert "(as --install says" in install_lines(given)[0] and given in install_lines(given)[0]
