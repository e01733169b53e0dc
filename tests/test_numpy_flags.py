"""`x.strides`, `x.flags`, `x.setflags` and `np.isfortran` answer as NumPy's for the layout NumPy's
array would have (they raised AttributeError before stop 55), and `x.flags.writeable = False`
makes an Array read-only as NumPy's does: its writes raise, views taken before stay writable and
their writes show in it, views taken after are read-only. On every backend, at the default and
on the general path (eager_size=0, the path a GPU takes)."""

import numpy as np
import pytest

import lazyarray as la

BASE = np.arange(24.0).reshape(2, 3, 4)


def _layouts(m):
    """Values of every kind of NumPy layout, created constants among them (`zeros(s).T * 2` is
    Fortran-ordered in NumPy: it was taken as C here, so a write into its ravel reached it)."""
    a = m.asarray(BASE.copy())
    return {"c": a, "T": a.T, "perm": m.transpose(a, (1, 0, 2)), "step": a[:, :, ::2],
            "rev": a[::-1], "col": a[:, :, 1], "F": m.asfortranarray(a),
            "Fstep": m.asfortranarray(a)[:, ::2], "Tcomputed": a.T * 2,
            "ones": a[:, :1, :].transpose(2, 1, 0), "row": a[1, 2],
            "broadcast": m.broadcast_to(a[:, :1], (2, 3, 4)),
            "zerosT": m.zeros((3, 4)).T * 2, "fullstep": m.full((3, 4), 2.0)[:, ::2].T + 1,
            "empty": m.ones((0, 3)).T, "arange": m.arange(6).reshape(2, 3),
            "arangeT": m.arange(6.0).reshape(2, 3).T, "sum0d": m.sum(a)}


def _facts(x):
    f = x.flags
    return (x.strides, repr(f), f.num, f.fnc, f.forc, f.behaved, f.carray, f.farray,
            [f[k] for k in ("C", "F", "O", "W", "A", "X", "CONTIGUOUS", "FORTRAN", "FNC", "FORC",
                            "B", "CA", "FA")])


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_strides_and_flags_are_numpys(backend, eager_size):
    with la.config(eager_size=eager_size):
        ours, theirs = _layouts(la), _layouts(np)
        for name, x in theirs.items():
            assert _facts(ours[name]) == _facts(x), name
            assert la.isfortran(ours[name]) == np.isfortran(np.asarray(x)) or x.ndim == 0, name


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_a_created_constants_transpose_computes_fortran_ordered(backend, eager_size):
    """The layout fix behind the flags: a write into the ravel of `zeros(s).T * 2` reached it."""
    with la.config(eager_size=eager_size):
        for m in (np, la):
            b = m.zeros((3, 4)).T * 2
            r = b.ravel()
            r[0] = 5.0
            b2 = m.ones((3, 4)).T + m.zeros((4, 3))  # operands that disagree: C order
            r2 = b2.ravel()
            r2[0] = 5.0
            if m is np:
                want = (b.copy(), b2.copy())
            else:
                np.testing.assert_array_equal(np.asarray(b), want[0])
                np.testing.assert_array_equal(np.asarray(b2), want[1])


def _read_only_story(m):
    """NumPy's rules for WRITEABLE, step by step; each step's outcome (a value, an error)."""
    out = []

    def attempt(step):
        try:
            result = step()
            out.append(None if result is None else np.asarray(result).tolist())
        except (ValueError, KeyError, AttributeError) as e:
            out.append(f"{type(e).__name__}: {e}")

    a = m.arange(6.0).reshape(2, 3) * 1
    before = a[0]
    a.flags.writeable = False
    attempt(lambda: (a.flags.writeable, before.flags.writeable, a.flags.owndata))
    attempt(lambda: before.__setitem__(1, 7.0))  # a view taken before: writes show in a
    attempt(lambda: a)
    after = a[:, 1:]
    attempt(lambda: after.flags.writeable)
    attempt(lambda: a.__setitem__((0, 0), 1.0))
    attempt(lambda: after.__setitem__((0, 0), 1.0))
    attempt(lambda: a.T.__setitem__((0, 0), 1.0))
    attempt(lambda: a.ravel().__setitem__(0, 1.0))
    attempt(lambda: m.copyto(a, 2.0))
    attempt(lambda: m.add(a, 1, out=a))
    attempt(lambda: a.fill(3.0))
    attempt(lambda: a.sort())

    def inplace():
        b = a
        b += 1

    attempt(inplace)
    attempt(lambda: setattr(after.flags, "writeable", True))  # its owner is read-only
    c = a.copy()
    attempt(lambda: (c.flags.writeable, c.flags.owndata, (a + 1).flags.writeable))
    c[0, 0] = -1.0
    attempt(lambda: c)
    a.flags.writeable = True
    a[1, 1] = 9.0
    attempt(lambda: (a, before, a.flags.writeable, a.flags.owndata))
    before[0] = -2.0
    attempt(lambda: a)
    v = a[1]
    v.setflags(write=False)
    attempt(lambda: v.__setitem__(0, 1.0))
    attempt(lambda: v[1:].flags.writeable)
    a[1, 0] = 4.0
    attempt(lambda: (v, v.flags.owndata))
    v.flags["W"] = True
    v[0] = 5.0
    attempt(lambda: a)
    attempt(lambda: a.flags["Q"])
    attempt(lambda: a.flags.__setitem__("C", True))
    attempt(lambda: setattr(a.flags, "c_contiguous", True))
    attempt(lambda: a.setflags(uic=True))
    attempt(lambda: setattr(a.flags, "writebackifcopy", True))
    attempt(lambda: setattr((a.sum() if m is la else np.float64(1)).flags, "writeable", True))
    return out


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_writeable_false_follows_numpys_rules(backend, eager_size):
    with la.config(eager_size=eager_size):
        assert _read_only_story(la) == _read_only_story(np)


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_a_read_only_array_in_an_index_loop(backend, eager_size):
    """The read-only input of a loop that writes a copy: the copy's writes, the input intact."""
    x = np.arange(16.0).reshape(4, 4)
    with la.config(eager_size=eager_size):
        for m in (np, la):
            a = m.asarray(x.copy())
            a.flags.writeable = False
            b = a.copy()
            for i in range(4):
                b[i, i] = a[i, i] * 2 + 1
                try:
                    a[i, 0] = 0.0
                except ValueError as e:
                    assert "read-only" in str(e)
            if m is np:
                want = (b.copy(), a.copy())
            else:
                np.testing.assert_array_equal(np.asarray(b), want[0])
                np.testing.assert_array_equal(np.asarray(a), want[1])
                assert not a.flags.writeable and b.flags.writeable


def test_aligned_false_is_refused_not_ignored():
    a = la.zeros(3)
    with pytest.raises(NotImplementedError, match="unaligned"):
        a.flags.aligned = False
    a.flags.aligned = True  # (nothing to do: NumPy's too)
    assert a.flags.aligned
