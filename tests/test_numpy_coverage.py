"""Coverage you can see: every public NumPy name (the main namespace, numpy.linalg, numpy.fft and
numpy.random and its Generator and RandomState methods) is in lazyarray or listed in lazyarray/numpy_coverage.py with
its reason, and docs/numpy_coverage.md's table is that list. A listed name raises an
AttributeError saying it is not implemented and what to use instead."""

import pathlib

import numpy as np
import pytest

import lazyarray as la
from lazyarray.numpy_coverage import NOT_PROVIDED, render_table

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _public(mod):
    names = getattr(mod, "__all__", None) if mod is not np else None
    return sorted(n for n in (names if names is not None else dir(mod)) if not n.startswith("_"))


NAMESPACES = [  # (prefix, NumPy's, lazyarray's)
    ("", np, la),
    ("linalg.", np.linalg, la.linalg),
    ("fft.", np.fft, la.fft),
    ("random.", np.random, la.random),
    ("random.Generator.", np.random.Generator, la.random.Generator),
    ("random.RandomState.", np.random.RandomState, la.random.RandomState),
    ("ndarray.", np.ndarray, la.zeros((2, 2))),  # an instance: the listed ones are refusing properties
]


def _provided(ours, name):
    try:
        getattr(ours, name)
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize("prefix, theirs, ours", NAMESPACES, ids=[p or "numpy" for p, *_ in
                                                                  NAMESPACES])
def test_every_numpy_name_is_implemented_or_listed(prefix, theirs, ours):
    gaps = [prefix + n for n in _public(theirs)
            if not _provided(ours, n) and prefix + n not in NOT_PROVIDED]
    assert not gaps, f"NumPy names neither in lazyarray nor in numpy_coverage.py: {gaps}"


def test_nothing_listed_is_provided():
    """A listed name that exists is a stale entry (someone implemented it: remove it)."""
    spaces = {prefix: ours for prefix, _, ours in NAMESPACES}
    stale = []
    for key in NOT_PROVIDED:
        prefix = next(p for p in sorted(spaces, key=len, reverse=True) if key.startswith(p))
        if _provided(spaces[prefix], key[len(prefix):]):
            stale.append(key)
    assert not stale, f"listed as missing but provided: {stale}"


def test_every_listed_name_is_a_numpy_name():
    theirs = {prefix: set(_public(mod)) for prefix, mod, _ in NAMESPACES}
    unknown = [k for k in NOT_PROVIDED
               if k[len(p := next(p for p in sorted(theirs, key=len, reverse=True)
                                  if k.startswith(p))):] not in theirs[p]]
    assert not unknown


@pytest.mark.parametrize("namespace, name", [(la, "memmap"), (la, "matrix"), (la, "longdouble"),
                                             (la, "frompyfunc"), (la, "ma")])
def test_a_missing_name_says_why_and_what_instead(namespace, name):
    reason, instead = NOT_PROVIDED[name]
    with pytest.raises(AttributeError, match="not implemented in lazyarray") as info:
        getattr(namespace, name)
    assert reason in str(info.value) and instead.replace("<name>", name) in str(info.value)
    assert not hasattr(namespace, name)


@pytest.mark.parametrize("name", ["ctypes", "data", "dump"])
def test_a_missing_ndarray_attribute_says_why_and_what_instead(name):
    reason, instead = NOT_PROVIDED["ndarray." + name]
    x = la.arange(3)
    with pytest.raises(AttributeError, match=f"numpy.ndarray.{name}. is not implemented") as info:
        getattr(x, name)
    assert reason in str(info.value) and instead in str(info.value)
    assert not hasattr(x, name)
    with pytest.raises(AttributeError, match="'Array' object has no attribute 'no_such_name'"):
        x.no_such_name  # noqa: B018


def test_an_unknown_name_is_a_plain_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        la.no_such_name  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        la.linalg.no_such_name  # noqa: B018


def test_the_docs_table_is_the_list():
    text = (ROOT / "docs" / "numpy_coverage.md").read_text()
    start, end = "<!-- table: python -m lazyarray.numpy_coverage -->\n", "<!-- end of table -->"
    table = text[text.index(start) + len(start):text.index(end)]
    assert table == render_table(), "regenerate it: python -m lazyarray.numpy_coverage"
