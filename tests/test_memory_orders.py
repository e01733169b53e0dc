"""reshape/ravel/flatten with order 'A' and 'K' follow the value's NumPy memory layout (they
raised NotImplementedError before stop 54): the same elements in the same order, a view exactly
where NumPy's is one (a write into the result reaches the source), on every backend, at the
default and on the general path (eager_size=0, the path a GPU takes)."""

import random

import numpy as np
import pytest

import lazyarray as la

BASE = np.arange(24.0).reshape(2, 3, 4)


def _layouts(m):
    """Values of every kind of NumPy layout: C, transposed, permuted, stepped, reversed,
    Fortran, a computed Fortran-ordered value, length-1 axes, a broadcast view."""
    a = m.asarray(BASE.copy())
    return {"c": a, "T": a.T, "perm": m.transpose(a, (1, 0, 2)), "step": a[:, :, ::2],
            "rev": a[::-1], "revlast": a[:, :, ::-1], "F": m.asfortranarray(a),
            "Fstep": m.asfortranarray(a)[:, ::2], "Tcomputed": a.T * 2,
            "ones": a[:, :1, :].transpose(2, 1, 0),
            "broadcast": m.broadcast_to(a[:, :1], (2, 3, 4))}


def _flat(m, x, fn, order):
    return x.reshape(-1, order=order) if fn == "reshape" else getattr(x, fn)(order)


def _compare(x, y, rx, ry):
    """The same values; written into, the same result and the same source (a view's write
    reaches the source, a copy's does not), or the same refusal (read-only)."""
    np.testing.assert_array_equal(np.asarray(ry), rx)
    wrote = []
    for r in (rx, ry):
        try:
            r[0] = -7.0
            wrote.append(True)
        except ValueError:
            wrote.append(False)
    assert wrote[0] == wrote[1]
    np.testing.assert_array_equal(np.asarray(ry), rx)
    np.testing.assert_array_equal(np.asarray(y), x)


@pytest.mark.parametrize("eager_size", [0, 4096])
@pytest.mark.parametrize("order", ["A", "K"])
def test_orders_a_and_k_follow_numpys_layout(backend, eager_size, order):
    with la.config(eager_size=eager_size):
        for fn in ("ravel", "flatten", "reshape"):
            if fn == "reshape" and order == "K":
                continue
            ours, theirs = _layouts(la), _layouts(np)
            for name, x in theirs.items():
                _compare(x, ours[name], _flat(np, x, fn, order), _flat(la, ours[name], fn, order))
        a = BASE.transpose(2, 0, 1)[:, ::-1]
        np.testing.assert_array_equal(np.asarray(np.ravel(la.asarray(BASE).transpose(2, 0, 1)[:, ::-1],
                                                          order=order)), np.ravel(a, order=order))
        np.testing.assert_array_equal(np.asarray(la.ravel(a, order)), np.ravel(a, order))
        with pytest.raises(ValueError, match="order 'K' is not permitted for reshaping"):
            la.asarray(BASE).reshape(-1, order="K")


def _random_value(m, seed):
    r = random.Random(seed)
    shape = tuple(r.randint(1, 3) for _ in range(r.randint(1, 3)))
    x = m.asarray(np.arange(float(np.prod(shape))).reshape(shape))
    for _ in range(r.randint(1, 3)):
        kind, axis = r.choice(["T", "perm", "step", "rev", "F", "computed", "broadcast"]), \
            r.randrange(x.ndim)
        if kind == "T":
            x = x.T
        elif kind == "perm":
            axes = list(range(x.ndim))
            r.shuffle(axes)
            x = m.transpose(x, axes)
        elif kind in ("step", "rev"):
            index = [slice(None)] * x.ndim
            index[axis] = slice(None, None, 2 if kind == "step" else -1)
            x = x[tuple(index)]
        elif kind == "F":
            x = m.asfortranarray(x)
        elif kind == "computed":
            x = x * 2
        else:
            x = m.broadcast_to(x, (2,) + x.shape)
    return x


@pytest.mark.exhaustive
@pytest.mark.parametrize("eager_size", [0, 4096])
def test_orders_a_and_k_of_random_layouts(backend, eager_size):
    with la.config(eager_size=eager_size):
        for seed in range(300):
            for order in "AK":
                for fn in ("ravel", "flatten"):
                    x, y = _random_value(np, seed), _random_value(la, seed)
                    _compare(x, y, _flat(np, x, fn, order), _flat(la, y, fn, order))
