"""`x.base` is NumPy's (it was an AttributeError before stop 56): None for an array that owns its
memory, the owner for a view (`v.base is a`, collapsed through views of views), NumPy's temporary
for a view of one (`np.arange(6).reshape(2, 3).base`, rebuilt with the view's current values) and
a view for reshape's copies. On every backend, at the default and on the general path
(eager_size=0, the path a GPU takes)."""

import numpy as np
import pytest

import lazyarray as la


def _story(m):
    """Published teaching code about views and copies (SciPy lecture notes, "From Python to
    NumPy"): identities, then the values a base shows after writes through its views."""
    seen = []
    Z = m.zeros((4, 4))
    Z1, Z2 = Z[:3, :3], Z.copy()
    seen += [Z1.base is Z, Z2.base is None, Z.base is None, Z.ravel().base is Z,
             Z[::2, ::2].ravel().base is Z, Z.flatten().base is Z, Z.T.base is Z,
             Z1[1:].base is Z, Z.reshape(2, 8).base is Z, Z[0].base is Z]
    a = m.arange(6).reshape(2, 3)
    seen += [a.base is None, np.array(a.base), np.array(a[0].base)]
    a[0, 0] = 7
    seen.append(np.array(a.base))
    b = (a + 1).T
    seen += [np.array(b.base), b.base.shape]
    c = Z.T.reshape(-1)  # a copy: NumPy's base is the (4, 4) copy, c a view of it
    seen += [c.base is None, c.base.shape]
    c.base[0, 1] = 5
    seen.append(np.array(c))
    v = m.arange(10)[2:7]
    v[0] = 100
    seen.append(np.array(v.base))
    w = m.ones(5)
    w.flags.writeable = False
    seen += [w.base is None, w[1:].base is w]
    x = m.arange(3.0)
    seen += [x.view().base is x, x[...].base is x, x.sum().base is None, x[0].base is None]
    return seen


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_base_is_numpys(backend, eager_size):
    with la.config(eager_size=eager_size):
        ours = _story(la)
    theirs = _story(np)
    assert len(ours) == len(theirs)
    for i, (o, t) in enumerate(zip(ours, theirs)):
        assert type(o) is type(t) and np.array_equal(o, t), (i, o, t)


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_a_rebuilt_base_refuses_writes_it_could_not_pass_on(backend, eager_size):
    """NumPy's base of `v = np.arange(10)[2:7]` is the temporary arange; a write into it reaches
    v. Where lazyarray released v into a root of its own, its rebuilt base is read-only: a clear
    error, never a write that v does not see."""
    with la.config(eager_size=eager_size):
        v = la.arange(10)[2:7]
        float(v[0])  # (a read releases v from its dead root)
        base = v.base
        assert base is not None and base.shape == (10,)
        try:
            base[3] = -1
        except ValueError as e:
            assert "read-only" in str(e)
        else:
            assert np.asarray(v).tolist() == [2, -1, 4, 5, 6]
