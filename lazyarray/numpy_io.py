"""File and buffer I/O through NumPy's own readers and writers.

Reading a file is host work with nothing to fuse: NumPy parses it (its errors, dtypes, converters,
`skiprows`/`usecols`/`delimiter` rules, `.npy`/`.npz` formats), and the result becomes an Array as
`la.asarray` makes one. Writing evaluates the Arrays first and hands NumPy arrays to NumPy's
writer. So `np.loadtxt("data.csv", delimiter=",")` and `np.save("out.npy", x)` in a NumPy
program work with only the import changed, byte for byte NumPy's files. A value lazyarray cannot
hold (strings, structured or object dtypes: `genfromtxt(names=True)`, a pickled object array) is
`la.asarray`'s TypeError naming the dtype. `memmap` stays NumPy's (lazyarray values have no
user-visible memory)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from .array import Array
from .creation import asarray
from .graph.dtypes import refuse_array


def _host(value: Any) -> Any:
    """An Array as its NumPy value (evaluated); anything else as it is."""
    return np.asarray(value) if isinstance(value, Array) else value


def _reader(name: str, note: str = "") -> Callable[..., Array]:
    """numpy.<name>, its result as an Array (la.asarray: a copy lazyarray owns)."""
    numpy_reader = getattr(np, name)

    def read(*args: Any, **kwargs: Any) -> Array:
        refuse_array(kwargs.get("dtype"))  # (NumPy reads an Array's `.dtype`; its array's: no)
        return asarray(numpy_reader(*args, **kwargs))

    read.__name__ = read.__qualname__ = name
    read.__doc__ = f"numpy.{name}, as an Array{note}."
    return read


loadtxt = _reader("loadtxt")
genfromtxt = _reader("genfromtxt", " (a structured result: la.asarray's TypeError)")
fromfile = _reader("fromfile")
fromregex = _reader("fromregex")
frombuffer = _reader("frombuffer", " (a copy, read-only where NumPy's view of the buffer is: "
                                   "bytes; a bytearray's is writable, and not shared)")
fromstring = _reader("fromstring", " (text mode, `sep=` given: NumPy's binary mode is an error)")


class NpzFile(Mapping):
    """numpy.load's `.npz` archive with Arrays for values: read as it is read (lazily per key,
    as NumPy's NpzFile), closed as NumPy's (`with np.load(f) as data:` or `.close()`)."""

    def __init__(self, archive: Any) -> None:
        self._archive = archive
        self.files = archive.files

    def __getitem__(self, key: str) -> Array:
        return asarray(self._archive[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._archive)

    def __len__(self) -> int:
        return len(self._archive)

    def __contains__(self, key: object) -> bool:
        return key in self._archive

    def close(self) -> None:
        self._archive.close()

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return repr(self._archive)


def load(*args: Any, **kwargs: Any) -> Any:
    """numpy.load: a `.npy` array as an Array, an `.npz` archive as a mapping of Arrays
    (`NpzFile`); a pickle (allow_pickle=True) as NumPy loaded it."""
    value = np.load(*args, **kwargs)
    if isinstance(value, np.lib.npyio.NpzFile):
        return NpzFile(value)
    if isinstance(value, np.ndarray) and value.dtype != object:
        return asarray(value)
    return value


def save(file: Any, arr: Any, *args: Any, **kwargs: Any) -> None:
    """numpy.save of the evaluated value."""
    np.save(file, _host(arr), *args, **kwargs)


def savetxt(fname: Any, X: Any, *args: Any, **kwargs: Any) -> None:
    """numpy.savetxt of the evaluated value."""
    np.savetxt(fname, _host(X), *args, **kwargs)


def savez(file: Any, *args: Any, **kwds: Any) -> None:
    """numpy.savez of the evaluated values."""
    np.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file: Any, *args: Any, **kwds: Any) -> None:
    """numpy.savez_compressed of the evaluated values."""
    np.savez_compressed(file, *[_host(a) for a in args],
                        **{k: _host(v) for k, v in kwds.items()})
