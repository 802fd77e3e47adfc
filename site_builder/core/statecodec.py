"""What the build keeps between runs, as plain data, and read back checked against its types.

The state file (state.py) must not be able to run code when it is read, as a pickle could: a
state restored from a cache someone else can write is data, never instructions. So it holds only
what msgpack holds (lists, maps, strings, integers, booleans, None, bytes), and nothing in it
names a class. Each kept class is written as the list of its fields in order, and read back by
the reader's own type annotations: a value of the wrong type, a list of the wrong length, a date
that is no date — the whole value is `Damaged`, and the build that read it is a full one.

The kinds a kept class may use: str, int, bool, bytes, None, `X | None`, `tuple[X, ...]`,
fixed tuples, `dict[str, X]`, `datetime.date`, enums, and frozen dataclasses and named tuples
of those. Anything else (`Any`, a float, a set) is refused when its codec is made, so a field
added to a kept class without a precise type fails every build's first test, not a user's run.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import functools
import types
import typing
from collections.abc import Callable
from operator import attrgetter
from typing import Any

import msgpack

Encode = Callable[[Any], Any] | None
"""None where a value is written as it is (str, int, a tuple of them…): no call per value."""
Decode = Callable[[Any], Any]

_PLAIN = (str, int, bool, bytes, type(None))


class Damaged(ValueError):
    """A value read back is not of the shape its type says."""


def pack(value: Any, kind: Any) -> bytes:
    """`value`, of type `kind`, as msgpack bytes. (Strings are UTF-8 with the file system's
    escapes kept: a file name that is not UTF-8 reads back as the same str.)"""
    return msgpack.packb(_encode(kind, value), use_bin_type=True,
                         unicode_errors="surrogateescape")


def unpack(data: bytes, kind: Any) -> Any:
    """The value of type `kind` that `pack` wrote; Damaged for anything else."""
    try:
        plain = msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                                unicode_errors="surrogateescape")
    except Exception as exc:  # noqa: BLE001 - msgpack raises several kinds on bad bytes
        raise Damaged(f"not msgpack: {type(exc).__name__}") from None
    return decoder(kind)(plain)


def _encode(kind: Any, value: Any) -> Any:
    encode = encoder(kind)
    return value if encode is None else encode(value)


# ---------------------------------------------------------------- writing

@functools.cache
def encoder(kind: Any) -> Encode:
    """How a value of `kind` becomes plain data (None: it already is)."""
    if kind in _PLAIN:
        return None
    if kind is dt.date:
        return dt.date.isoformat
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return attrgetter("value")
    if _is_record(kind):
        return _record_encoder(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        return _optional_encoder(_optional_of(kind, args))
    if origin is tuple:
        return _tuple_encoder(args)
    if origin is dict:
        _check_key(kind, args)
        inner = encoder(args[1])
        return None if inner is None else (lambda v: {k: inner(x) for k, x in v.items()})
    raise TypeError(f"{kind!r} cannot be kept in the build state")


def _record_encoder(kind: type) -> Encode:
    fields = _fields(kind)
    names = [name for name, _ in fields]
    encoders = [encoder(field) for _, field in fields]
    if all(e is None for e in encoders):
        if issubclass(kind, tuple):  # a named tuple already is a list of its fields
            return None
        get = attrgetter(*names)
        return (lambda v: (get(v),)) if len(names) == 1 else get
    pairs = list(zip(names, encoders))

    def encode(value: Any) -> list:
        return [getattr(value, name) if e is None else e(getattr(value, name))
                for name, e in pairs]
    return encode


def _optional_encoder(inner_kind: Any) -> Encode:
    inner = encoder(inner_kind)
    return None if inner is None else (lambda v: None if v is None else inner(v))


def _tuple_encoder(args: tuple) -> Encode:
    if len(args) == 2 and args[1] is Ellipsis:
        inner = encoder(args[0])
        return None if inner is None else (lambda v: [inner(x) for x in v])
    encoders = [encoder(a) for a in args]
    if all(e is None for e in encoders):
        return None
    return lambda v: [x if e is None else e(x) for e, x in zip(encoders, v)]


# ---------------------------------------------------------------- reading

@functools.cache
def decoder(kind: Any) -> Decode:
    """How plain data read back becomes a value of `kind`, checked; Damaged if it is not one."""
    if kind in _PLAIN:
        return _plain_decoder(kind)
    if kind is dt.date:
        return _date
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _enum_decoder(kind)
    if _is_record(kind):
        return _record_decoder(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (types.UnionType, typing.Union):
        inner = decoder(_optional_of(kind, args))
        return lambda v: None if v is None else inner(v)
    if origin is tuple:
        return _tuple_decoder(args)
    if origin is dict:
        _check_key(kind, args)
        return _dict_decoder(decoder(args[1]))
    raise TypeError(f"{kind!r} cannot be kept in the build state")


def _plain_decoder(kind: type) -> Decode:
    def decode(value: Any) -> Any:
        if type(value) is not kind:  # exactly: a bool is not an int here
            raise Damaged(f"expected {kind.__name__}, found {type(value).__name__}")
        return value
    return decode


def _date(value: Any) -> dt.date:
    if type(value) is not str or len(value) != 10:
        raise Damaged("expected a date")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise Damaged("expected a date") from None


def _enum_decoder(kind: type[enum.Enum]) -> Decode:
    members = {member.value: member for member in kind}

    def decode(value: Any) -> enum.Enum:
        try:
            return members[value]
        except (KeyError, TypeError):
            raise Damaged(f"expected a {kind.__name__}") from None
    return decode


def _record_decoder(kind: type) -> Decode:
    fields = _fields(kind)
    return _fixed_decoder(kind.__name__, [field for _, field in fields], kind)


def _tuple_decoder(args: tuple) -> Decode:
    if len(args) == 2 and args[1] is Ellipsis:
        return _sequence_decoder(args[0])
    return _fixed_decoder(f"a list of {len(args)}", list(args), None)


def _fixed_decoder(name: str, kinds: list, make: type | None) -> Decode:
    """A decoder for a list of so many values of these kinds, made into `make` (a tuple when
    None). It is written as Python source, the way dataclasses writes an __init__: each value
    checked inline, with no loop and no call for a plain one — a state holds hundreds of
    thousands of records, and this is most of the time reading it takes. Only the tool's own
    names go into the source, never anything read."""
    count = len(kinds)
    values = ", ".join(f"v{i}" for i in range(count)) + ("," if count == 1 else "")
    env: dict[str, Any] = {"Damaged": Damaged, "make": make, "expected": f"expected {name}"}
    lines = ["def decode(value):",
             f"    if type(value) is not list or len(value) != {count}:",
             "        raise Damaged(expected)",
             f"    {values} = value"]
    for index, kind in enumerate(kinds):
        allowed = _plain_kinds(kind)
        if allowed is None:
            env[f"decode{index}"] = decoder(kind)
            lines.append(f"    v{index} = decode{index}(v{index})")
            continue
        env[f"kind{index}"] = allowed[0]
        env[f"wrong{index}"] = f"expected {allowed[0].__name__} in field {index + 1} of {name}"
        test = f"type(v{index}) is not kind{index}"
        if len(allowed) == 2:  # X | None
            test += f" and v{index} is not None"
        lines.append(f"    if {test}:\n        raise Damaged(wrong{index})")
    lines.append(f"    return make({values})" if make is not None else f"    return ({values})")
    exec("\n".join(lines), env)  # noqa: S102 - our own source, as above
    return env["decode"]


def _sequence_decoder(item: Any) -> Decode:
    allowed = _plain_kinds(item)
    if allowed is not None:
        def decode_plain(value: Any) -> tuple:
            if type(value) is not list:
                raise Damaged("expected a list")
            for x in value:
                if type(x) not in allowed:
                    raise Damaged(f"expected a list of {allowed[0].__name__}")
            return tuple(value)
        return decode_plain
    inner = decoder(item)

    def decode(value: Any) -> tuple:
        if type(value) is not list:
            raise Damaged("expected a list")
        return tuple([inner(x) for x in value])
    return decode


def _plain_kinds(kind: Any) -> tuple[type, ...] | None:
    """The types a value of `kind` may have when it is read back as it is; None when it needs
    decoding."""
    if kind in _PLAIN:
        return (kind,)
    if typing.get_origin(kind) in (types.UnionType, typing.Union):
        inner = _optional_of(kind, typing.get_args(kind))
        if inner in _PLAIN:
            return (inner, type(None))
    return None


def _dict_decoder(inner: Decode) -> Decode:
    def decode(value: Any) -> dict:
        if type(value) is not dict:
            raise Damaged("expected a map")
        # msgpack's strict_map_key lets str and bytes keys through: only str may stay.
        if not all(type(k) is str for k in value):
            raise Damaged("expected text keys")
        return {k: inner(x) for k, x in value.items()}
    return decode


# ---------------------------------------------------------------- kinds

def _is_record(kind: Any) -> bool:
    return isinstance(kind, type) and (dataclasses.is_dataclass(kind)
                                       or (issubclass(kind, tuple) and hasattr(kind, "_fields")))


@functools.cache
def _fields(kind: type) -> tuple[tuple[str, Any], ...]:
    """(name, type) of each field, in order, as the annotations say."""
    hints = typing.get_type_hints(kind)
    names = ([f.name for f in dataclasses.fields(kind)] if dataclasses.is_dataclass(kind)
             else list(kind._fields))
    return tuple((name, hints[name]) for name in names)


def _optional_of(kind: Any, args: tuple) -> Any:
    """X of `X | None`; other unions cannot be told apart in plain data."""
    others = [a for a in args if a is not type(None)]
    if len(args) != 2 or len(others) != 1:
        raise TypeError(f"{kind!r} cannot be kept in the build state: only X | None")
    return others[0]


def _check_key(kind: Any, args: tuple) -> None:
    if args[0] is not str:
        raise TypeError(f"{kind!r} cannot be kept in the build state: keys must be str")
