"""Which theme templates a page is drawn with, so a template edit re-renders only those pages."""

from __future__ import annotations

import weakref

import jinja2
from jinja2 import meta, nodes

from .plan import Page


def pages_using(env: jinja2.Environment, page: Page) -> set[str]:
    """Every template the page's rendering reads: its own, the partials its data names (a game's
    round or bracket partial, event sections), and everything those extend, include or import."""
    if page.template is None:
        return set()
    names = {page.template}
    context = page.context
    for key in ("round", "bracket"):
        if key in context:
            names.add(context[key].template)
    event = context.get("event")
    if event is not None:
        names |= {section.template for section in event.sections}
        if event.bracket is not None:
            names.add(event.bracket.template)
    return _closure(env, names)


_REFERENCES: "weakref.WeakKeyDictionary[jinja2.Environment, dict[str, frozenset[str]]]" = \
    weakref.WeakKeyDictionary()
"""Per environment (a theme edit makes a new one): template name → what it references."""


def _closure(env: jinja2.Environment, names: set[str]) -> set[str]:
    cache = _REFERENCES.setdefault(env, {})
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in cache:
            cache[name] = _references(env, name)
        todo.extend(cache[name])
    return seen


FRAGMENT_FILTERS = ("fragment", "fragments")
"""The renderer's filters that draw a partial named by their argument (render.Renderer)."""
PARTIAL_OF_FILTER = {"ranking_rows": "partials/ranking_row.html"}
"""The renderer's filters that draw one partial of their own: a template using the filter
depends on it."""


def _references(env: jinja2.Environment, name: str) -> frozenset[str]:
    """The templates this one extends, includes or imports, and the partials it draws through
    the renderer's filters (`rows|fragments('partials/history_row.html')`, `rows|ranking_rows`)."""
    try:
        source, _, _ = env.loader.get_source(env, name)
    except jinja2.TemplateNotFound:
        return frozenset()
    try:
        parsed = env.parse(source)
    except jinja2.TemplateSyntaxError:
        return frozenset()  # Renderer.compile reports it; pages drawn with it fail to render
    names = set(meta.find_referenced_templates(parsed))
    for node in parsed.find_all(nodes.Filter):
        if node.name in PARTIAL_OF_FILTER:
            names.add(PARTIAL_OF_FILTER[node.name])
        elif (node.name in FRAGMENT_FILTERS and node.args and isinstance(node.args[0], nodes.Const)
              and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return frozenset(ref for ref in names if ref)
