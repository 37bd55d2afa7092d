"""Views as the API shows them: each card `{"id": 83, "slug": "tempura"}`, each breakdown typed.

The domain keeps cards as ints and breakdowns and options as dicts where it serves every game,
which is all the rules and the bots need. Fields say which ints are cards (`domain.engine.CardId`,
or an id of another deck), which fixed tuples are records (`domain.engine.record`) and which dicts
are breakdowns (`Breakdown`) or a game's options.
From those marks, `Shown` works out once per type the type the API shows (for the schema and to
check each answer against it) and a function that turns a value into it. Types without a mark
inside are shown as they are.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Union

import msgspec

Convert = Callable[[Any], Any]


class Card(msgspec.Struct, frozen=True):
    id: int
    slug: str


def prefixed(prefix: str, name: str) -> str:
    """`Party` + `PartyView` → `PartyView`, `Party` + `Entry` → `PartyEntry`: shared words once."""
    words = [word for word in _camel_words(name)]
    for count in range(len(words), 0, -1):
        if prefix.endswith("".join(words[:count])):
            return prefix + "".join(words[count:])
    return prefix + name


def _camel_words(name: str) -> list[str]:
    words: list[str] = []
    for char in name:
        if char.isupper() or not words:
            words.append(char)
        else:
            words[-1] += char
    return words


class Shown:
    """The shown types and converters of one game, whose card slugs are `decks[deck][id]`."""

    def __init__(
        self,
        decks: Mapping[str, Sequence[str]],
        prefix: str,
        breakdown: type[msgspec.Struct] | None = None,
        options: type[msgspec.Struct] | None = None,
    ) -> None:
        self._decks = decks
        self._prefix = prefix
        #: What a dict marked as a breakdown, or as the game's options, is shown as.
        self._typed_dicts = {"breakdown": breakdown, "options": options}
        self._made: dict[Any, tuple[Any, Convert | None]] = {}

    def type_of(self, tp: Any) -> Any:
        return self._of(tp)[0]

    def converter(self, tp: Any) -> Convert:
        convert = self._of(tp)[1]
        return convert if convert is not None else _same

    def _of(self, tp: Any) -> tuple[Any, Convert | None]:
        """The shown type, and the function to it (None when values are shown as they are)."""
        if tp not in self._made:
            self._made[tp] = self._work_out(tp)
        return self._made[tp]

    def _work_out(self, tp: Any) -> tuple[Any, Convert | None]:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            return self._annotated(tp)
        if origin in (Union, types.UnionType):
            return self._union(typing.get_args(tp))
        if origin in (tuple, list):
            return self._sequence(origin, typing.get_args(tp))
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            return self._struct(tp)
        return tp, None

    def _annotated(self, tp: Any) -> tuple[Any, Convert | None]:
        base, *marks = typing.get_args(tp)
        extra = next((mark.extra for mark in marks if isinstance(mark, msgspec.Meta) and mark.extra), None)
        if extra is not None and "deck" in extra:
            slugs = self._decks[extra["deck"]]
            return Card, lambda card: Card(card, slugs[card])
        typed = next((self._typed_dicts.get(mark) for mark in extra or ()), None)
        if typed is not None:
            return typed, lambda value: msgspec.convert(value, typed)
        if extra is not None and "record" in extra:
            return self._record(extra["record"], extra["fields"], typing.get_args(base))
        shown, convert = self._of(base)
        return (tp, None) if convert is None else (shown, convert)

    def _record(self, name: str, fields: Sequence[str], items: tuple[Any, ...]) -> tuple[Any, Convert]:
        parts = [self._of(item) for item in items]
        record = msgspec.defstruct(
            prefixed(self._prefix, name), [(field, shown) for field, (shown, _) in zip(fields, parts, strict=True)]
        )
        converters = [convert or _same for _, convert in parts]
        return record, lambda value: record(*(convert(item) for convert, item in zip(converters, value, strict=True)))

    def _union(self, members: tuple[Any, ...]) -> tuple[Any, Convert | None]:
        parts = [self._of(member) for member in members]
        if all(convert is None for _, convert in parts):
            return Union[members], None  # noqa: UP007 (a union built at run time)
        by_class = [
            (_runtime_class(member), convert or _same) for member, (_, convert) in zip(members, parts, strict=True)
        ]

        def convert(value: Any) -> Any:
            for cls, member_convert in by_class:
                if cls is None or isinstance(value, cls):
                    return member_convert(value)
            return value

        return Union[tuple(shown for shown, _ in parts)], convert  # noqa: UP007

    def _sequence(self, origin: type, args: tuple[Any, ...]) -> tuple[Any, Convert | None]:
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            item, convert = self._of(args[0])
            if convert is None:
                return tuple[args], None  # type: ignore[valid-type]
            return tuple[item, ...], lambda value: tuple([convert(x) for x in value])  # type: ignore[valid-type]
        if origin is list:
            item, convert = self._of(args[0])
            if convert is None:
                return list[args[0]], None  # type: ignore[valid-type]
            return list[item], lambda value: [convert(x) for x in value]  # type: ignore[valid-type]
        parts = [self._of(item) for item in args]
        if all(convert is None for _, convert in parts):
            return tuple[args], None  # type: ignore[valid-type]
        converters = [convert or _same for _, convert in parts]
        shown: Any = tuple.__class_getitem__(tuple(part for part, _ in parts))
        return shown, lambda value: tuple([convert(x) for convert, x in zip(converters, value, strict=True)])

    def _struct(self, cls: type[msgspec.Struct]) -> tuple[Any, Convert | None]:
        fields = msgspec.structs.fields(cls)
        parts = [self._of(field.type) for field in fields]
        if all(convert is None for _, convert in parts):
            return cls, None
        config = cls.__struct_config__
        tags: dict[str, Any] = {"tag_field": config.tag_field, "tag": config.tag} if config.tag_field else {}
        shown = msgspec.defstruct(
            prefixed(self._prefix, cls.__name__),
            [_field(field, part) for field, (part, _) in zip(fields, parts, strict=True)],
            frozen=True,
            omit_defaults=config.omit_defaults,
            **tags,
        )
        names = [field.name for field in fields]
        converters = [convert or _same for _, convert in parts]

        def convert(value: Any) -> Any:
            return shown(*(c(getattr(value, name)) for c, name in zip(converters, names, strict=True)))

        return shown, convert


def _field(field: msgspec.structs.FieldInfo, shown: Any) -> tuple[str, Any] | tuple[str, Any, Any]:
    """A field of a shown struct: the field's default kept, so that a struct that omits its defaults
    shows the same fields."""
    if field.default is msgspec.NODEFAULT:
        return (field.name, shown)
    return (field.name, shown, field.default)


def _same(value: Any) -> Any:
    return value


def _runtime_class(tp: Any) -> type | None:
    """What a value of this member type is an instance of (None: anything left over)."""
    if tp is type(None):
        return type(None)
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _runtime_class(typing.get_args(tp)[0])
    if origin is not None:
        return origin if isinstance(origin, type) else None
    return tp if isinstance(tp, type) else None
