"""A user's own code as strategies: a ``file.py`` or ``package.module`` and the ``Player``
classes in it. Kept apart from the registry, which turns names into classes: this module only
imports what a user points at and says, in one line, why it could not."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .base import Player

USER_MODULE = "leaves_user_strategy_"
"""The start of a user's file's module name (``load_file``)."""


@dataclass(frozen=True)
class _Loaded:
    """A user's file as it was loaded: its module, and the file's modification time and
    SHA-256 then (a file that differs in either is run again)."""

    module: ModuleType
    mtime_ns: int
    sha256: str


_FILE_MODULES: dict[str, _Loaded] = {}  # resolved path -> the file as it was loaded
_unregister_module: Callable[[str], None] | None = None
"""What removes the names a module's classes hold: the registry's ``unregister_module``,
handed over as the registry loads (``unregister_with``), for the registry imports this
module (an import back would close a circle)."""


def unregister_with(remove: Callable[[str], None]) -> None:
    """Have ``remove(module_name)`` called before a user's file runs (the names of its earlier
    version go) and after a run that failed (the file keeps no name)."""
    global _unregister_module
    _unregister_module = remove


def load_class(where: str, cls_name: str) -> type[Player]:
    """``Class`` from ``path/to/file.py`` or from ``package.module``; ``Outer.Class`` is a
    class defined in another (its qualified name, as a spec of it is written)."""
    if where.endswith(".py") or "/" in where or "\\" in where:
        module = load_file(where)
    else:
        module = import_module(where, cls_name)
    obj: Any = module
    for part in cls_name.split("."):  # through classes only: not a module the file imports
        obj = getattr(obj, part, None) if obj is module or isinstance(obj, type) else None
    if not (isinstance(obj, type) and issubclass(obj, Player)):
        found = defined(module)
        what = "has no class" if obj is None else "has no strategy class"
        hint = f"; it defines {', '.join(found)}" if found else ""
        raise ValueError(f"{where!r} {what} {cls_name!r}{hint}")
    return obj


def defined(module: Any) -> list[str]:
    """The strategy classes ``module`` defines (not those it imports), by the names a spec
    loads them by: ``Class`` at its top level, ``Outer.Class`` in a class of it."""
    return sorted(_own_classes(module))


def _own_classes(module: Any) -> dict[str, type[Player]]:
    """The strategy classes ``module`` defines, by the names a spec loads them by: each name
    at its top level that holds one, and the qualified name of one defined in a class of
    it (``Outer.Class``), the classes it defines searched through to any depth."""
    found: dict[str, type[Player]] = {}
    todo: list[tuple[str, Any]] = [("", module)]
    while todo:
        prefix, namespace = todo.pop()
        for key, value in list(vars(namespace).items()):
            path = prefix + key
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            if prefix and value.__qualname__ != path:  # an alias in a class: one path each
                continue
            if issubclass(value, Player):
                found[path] = value
            if value.__qualname__ == path:  # its own name: no class is searched twice
                todo.append((path + ".", value))
    return found


def import_module(where: str, cls_name: str) -> ModuleType:
    """``importlib.import_module(where)``; its failure (a missing module, or an error while
    importing it) as a ValueError naming it; a file of that name here is suggested. A name
    that is none (relative, an empty part, a space) is said to be none, not in import's terms."""
    if not all(part.isidentifier() for part in where.split(".")):
        raise ValueError(
            f"cannot import module {where!r}: not a module name (names joined by dots, as "
            f"package.module); for a file write path/to/file.py:{cls_name}"
        )
    try:
        return importlib.import_module(where)
    except SystemExit as exc:  # would end the caller in silence, with the module's code
        raise ValueError(f"cannot import module {where!r}: {exited(exc)}") from exc
    except KeyboardInterrupt:  # Ctrl-C still stops the command
        raise
    except BaseException as exc:  # noqa: BLE001 - any error of the user's module: one line
        text = failure(exc)
        missing = getattr(exc, "name", None) or "-"
        if isinstance(exc, ModuleNotFoundError) and f"{where}.".startswith(f"{missing}."):
            text = str(exc)
            file = Path(*where.split(".")).with_suffix(".py")
            if file.is_file():
                text += f" (for the file {file}, write {file}:{cls_name})"
        raise ValueError(f"cannot import module {where!r}: {text}") from exc


def failure(exc: BaseException) -> str:
    """An error a user's code raised, in one line: 'RuntimeError: boom and more' of a message
    of two lines, 'RuntimeError' of none (never 'RuntimeError: '), so every caller of the
    loaders says it in one line."""
    text = " ".join(part.strip() for part in str(exc).splitlines() if part.strip())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def exited(exc: SystemExit, what: str = "a strategy file") -> str:
    """A user's code (``what``) that called ``sys.exit`` as it was loaded, in words: caught, it
    ends no command silently with the file's own exit code (nor with 0, the command not done)."""
    return f"exited while it was loaded (SystemExit({exc.code!r})): {what} must not exit"


def _seen(path_text: str) -> str:
    """A file's name as a message writes it: quoted where a space at either end or an
    unprintable character would not be seen."""
    plain = path_text.isprintable() and path_text == path_text.strip()
    return path_text if plain else repr(path_text)


def load_file(path_text: str) -> Any:
    """The module of a user's strategy file, under a name of its own (``USER_MODULE``, the
    file's stem, a digest of its path), so two files of one stem never shadow each other; each
    strategy class it defines remembers where it came from. Loaded once while the file stays
    as it was: a file whose modification time or bytes changed since, or whose names were
    unregistered (``forget``), is run again, and its strategies replace those of before
    (a notebook's edited file is not played as it was, silently)."""
    path = Path(path_text).expanduser()
    if path.is_dir():
        raise ValueError(f"{_seen(path_text)} is a folder, not a strategy file (name a .py file "
                         "in it)")  # fmt: skip
    if not path.is_file():
        raise ValueError(f"no such strategy file: {_seen(path_text)}")
    path = path.resolve()
    try:
        data, mtime_ns = path.read_bytes(), path.stat().st_mtime_ns
    except OSError as exc:
        raise ValueError(f"cannot read {_seen(path_text)}: {exc.strerror or exc}") from exc
    sha256 = hashlib.sha256(data).hexdigest()
    held = _FILE_MODULES.get(str(path))
    if held is not None and (held.mtime_ns, held.sha256) == (mtime_ns, sha256):
        return held.module
    module = _run(path, data, path_text, sha256)
    _FILE_MODULES[str(path)] = _Loaded(module, mtime_ns, sha256)
    return module


def _run(path: Path, data: bytes, path_text: str, sha256: str) -> ModuleType:
    """The module of the file at ``path`` (resolved) run from ``data``, the bytes just read and
    hashed (``sha256``; not a cached bytecode of an earlier version of the same size and
    second). The names its earlier version registered go first; a run that fails registers
    nothing. Each strategy class it defines keeps its spec and the SHA-256 of these bytes
    (``loaded_sha256``)."""
    key = str(path)
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    stem = re.sub(r"\W", "_", path.stem)
    mod_name = f"{USER_MODULE}{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {_seen(path_text)} as a Python file")
    module = importlib.util.module_from_spec(spec)
    _forget_names(mod_name)
    _FILE_MODULES.pop(key, None)
    sys.modules[mod_name] = module
    try:  # dont_inherit: this module's __future__ imports are not the user's
        exec(compile(data, key, "exec", dont_inherit=True), vars(module))
    except BaseException as exc:
        sys.modules.pop(mod_name, None)  # half loaded: a later load runs the file again
        _forget_names(mod_name)  # and it keeps no name it registered
        if isinstance(exc, SystemExit):  # would end the caller in silence, with its code
            raise ValueError(f"{_seen(path_text)} {exited(exc)}") from exc
        if isinstance(exc, KeyboardInterrupt):  # Ctrl-C still stops the command
            raise
        # any other error of the user's file, a BaseException of its own too: one line
        raise ValueError(f"error while loading {_seen(path_text)}: {failure(exc)}") from exc
    for path, value in _own_classes(module).items():
        if "_source_sha256" not in value.__dict__ or path == value.__qualname__:
            value._source_spec = f"{key}:{path}"  # its own name, else one that loads it
            value._source_sha256 = sha256
    return module


def loaded_sha256(cls: type) -> str | None:
    """The SHA-256 of the bytes of the user's file that defined ``cls``, as they were run (None
    for a class of no user's file): the code the class holds, whatever the file holds now."""
    return cls.__dict__.get("_source_sha256")


def edited_since_loaded(cls: type) -> bool:
    """Does the user's file that defined ``cls`` now hold other bytes than those it was run
    from? False for a class of no user's file, and for a file that cannot be read now (the
    class still plays as it was loaded; a lookup of its spec would say why it cannot)."""
    loaded, source = loaded_sha256(cls), cls.__dict__.get("_source_spec")
    if loaded is None or source is None:
        return False
    try:
        data = Path(source.rpartition(":")[0]).read_bytes()
    except OSError:
        return False
    return hashlib.sha256(data).hexdigest() != loaded


def _forget_names(module_name: str) -> None:
    """The registry forgets the names the classes of ``module_name`` hold."""
    if _unregister_module is not None:  # none before the registry loads: no name to forget
        _unregister_module(module_name)


def forget(module_name: str) -> None:
    """Drop the loader's copy of the file whose module is ``module_name`` (a name of it was
    unregistered): its next load runs the file again, which registers its names again."""
    for key, held in list(_FILE_MODULES.items()):
        if held.module.__name__ == module_name:
            del _FILE_MODULES[key]
