"""File and buffer I/O through NumPy's readers and writers (lazyarray/numpy_io.py): NumPy
programs that load their data and save their results run with only the import changed, and
write NumPy's files byte for byte."""

from __future__ import annotations

import io

import lazyarray as la
import numpy as np
import pytest


def _values(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((4, 3))


def test_save_and_load_npy_and_npz_as_numpy(tmp_path):
    a = _values()
    x = la.asarray(a) * 2 + 1  # pending: evaluated by the writer
    la.save(tmp_path / "la.npy", x)
    np.save(tmp_path / "np.npy", a * 2 + 1)
    assert (tmp_path / "la.npy").read_bytes() == (tmp_path / "np.npy").read_bytes()
    got = la.load(tmp_path / "la.npy")
    assert isinstance(got, la.Array) and got.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(got), a * 2 + 1)
    la.savez(tmp_path / "both.npz", x, second=la.arange(3, dtype=la.int16))
    with la.load(tmp_path / "both.npz") as data:
        assert sorted(data.files) == ["arr_0", "second"] and "second" in data and len(data) == 2
        np.testing.assert_array_equal(np.asarray(data["arr_0"]), a * 2 + 1)
        assert isinstance(data["second"], la.Array) and data["second"].dtype == np.int16
    la.savez_compressed(tmp_path / "c.npz", v=x)
    np.testing.assert_array_equal(np.asarray(np.load(tmp_path / "c.npz")["v"]), a * 2 + 1)


def test_text_files_round_trip_as_numpys():
    a = _values(1)
    ours, theirs = io.StringIO(), io.StringIO()
    la.savetxt(ours, la.asarray(a) / 3, fmt="%.5f", delimiter=",", header="x,y,z")
    np.savetxt(theirs, a / 3, fmt="%.5f", delimiter=",", header="x,y,z")
    assert ours.getvalue() == theirs.getvalue()
    got = la.loadtxt(io.StringIO(ours.getvalue()), delimiter=",", usecols=(0, 2))
    want = np.loadtxt(io.StringIO(theirs.getvalue()), delimiter=",", usecols=(0, 2))
    assert isinstance(got, la.Array) and got.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(got), want)
    text = "1,2,\n4,,6\n"
    got = la.genfromtxt(io.StringIO(text), delimiter=",", filling_values=-1)
    np.testing.assert_array_equal(np.asarray(got), np.genfromtxt(io.StringIO(text), delimiter=",",
                                                                 filling_values=-1))
    np.testing.assert_array_equal(np.asarray(la.fromstring("1 2 3", dtype=int, sep=" ")),
                                  [1, 2, 3])
    raw = np.arange(4, dtype=np.int32).tobytes()
    got = la.frombuffer(raw, dtype=np.int32)
    np.testing.assert_array_equal(np.asarray(got), np.arange(4))
    with pytest.raises(ValueError) as want:  # NumPy's view of immutable bytes is read-only,
        np.frombuffer(raw, dtype=np.int32)[0] = 9  # and so is lazyarray's since stop 54 (its
    with pytest.raises(ValueError) as ours:  # write passed, into a copy)
        got[0] = 9
    assert str(ours.value).splitlines()[0] == str(want.value)
    got = la.frombuffer(bytearray(raw), dtype=np.int32)
    got[0] = 9  # (a copy of a writable buffer: writable, as NumPy's view)
    assert int(got[0]) == 9


def test_values_lazyarray_cannot_hold_are_a_clear_error(tmp_path):
    with pytest.raises(TypeError):
        la.genfromtxt(io.StringIO("a,b\n1,2\n"), delimiter=",", names=True)  # structured
    with pytest.raises(ValueError):  # NumPy's own parse error, as NumPy raises it
        la.loadtxt(io.StringIO("1,x\n"), delimiter=",")
    with pytest.raises(AttributeError, match="memmap"):
        la.memmap


def test_ndarray_resize_is_in_place_and_tofile_writes_numpys_bytes(tmp_path):
    """`a.resize((3, 2))` changes `a` (np.resize returns a new array that repeats the values;
    ndarray.resize pads with zeros); NumPy's errors where NumPy refuses."""
    for new in ((3, 2), (2, 5), 4, (0,)):
        a, x = np.arange(6.0).reshape(2, 3).copy(), la.asarray(np.arange(6.0).reshape(2, 3))
        a.resize(new)
        done = x.resize(new)  # (not inside the assert: its rewriting holds a bound method, one
        assert done is None   # more reference, and NumPy's refcheck refuses that too)
        np.testing.assert_array_equal(np.asarray(x), a)
    x = la.asarray(np.arange(6))
    x.resize(2, 2)
    np.testing.assert_array_equal(np.asarray(x), [[0, 1], [2, 3]])
    v = x[0]
    with pytest.raises(ValueError, match="does not own its data"):
        v.resize(1)
    with pytest.raises(ValueError, match="referenced"):
        x.resize(3)
    la.asarray(np.arange(5, dtype=np.int16)).tofile(tmp_path / "a.bin")
    np.testing.assert_array_equal(np.fromfile(tmp_path / "a.bin", dtype=np.int16), np.arange(5))
