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


# --- NumPy functions' results: their layout and WRITEABLE, as NumPy's --------------------------------
# (a sweep of 132 functions at stop 55 found eigh's vectors strided, so `v.ravel()` was a copy whose
# writes never reached v, and choose's result read-only, so `c[0] = 5` raised; both fixed)
_RESULTS = {
 "reshape_copy": lambda m: m.arange(6.).reshape(2,3).T.reshape(6),
 "reshape_copy_fn": lambda m: m.reshape(m.arange(6.).reshape(2,3).T, (3,2)),
 "ravel_copy": lambda m: m.arange(6.).reshape(2,3).T.ravel(),
 "flatten": lambda m: m.arange(6.).reshape(2,3).flatten(),
 "ascontig": lambda m: m.ascontiguousarray(m.arange(6.).reshape(2,3).T),
 "asfortran": lambda m: m.asfortranarray(m.arange(6.).reshape(2,3)),
 "copyF": lambda m: m.arange(6.).reshape(2,3).copy(order='F'),
 "tile": lambda m: m.tile(m.arange(3.), 2),
 "tile2": lambda m: m.tile(m.arange(3.), (2, 2)),
 "repeat": lambda m: m.repeat(m.arange(3.), 2),
 "kron": lambda m: m.kron(m.eye(2), m.ones((2,2))),
 "outer": lambda m: m.outer(m.arange(3.), m.arange(2.)),
 "atleast_2d": lambda m: m.atleast_2d([1., 2.]),
 "atleast_1d": lambda m: m.atleast_1d(3.0),
 "linspace": lambda m: m.linspace(0, 1, 5),
 "meshgrid": lambda m: m.meshgrid(m.arange(3.), m.arange(2.))[0],
 "sort": lambda m: m.sort(m.arange(3.)[::-1]),
 "unique": lambda m: m.unique(m.array([3., 1, 3])),
 "where1": lambda m: m.where(m.array([0, 1, 1]))[0],
 "nonzero": lambda m: m.nonzero(m.array([[0, 1], [1, 0]]))[1],
 "argsort": lambda m: m.argsort(m.array([3., 1, 2])),
 "inv": lambda m: m.linalg.inv(m.eye(2) * 2),
 "eigh_v": lambda m: m.linalg.eigh(m.eye(2) * 2)[1],
 "eig_v": lambda m: m.linalg.eig(m.eye(2) * 2)[1],
 "svd_u": lambda m: m.linalg.svd(m.eye(2) * 2)[0],
 "qr_q": lambda m: m.linalg.qr(m.eye(2) * 2)[0],
 "solve": lambda m: m.linalg.solve(m.eye(2) * 2, m.ones(2)),
 "fft": lambda m: m.fft.fft(m.arange(4.)),
 "diff": lambda m: m.diff(m.arange(4.)),
 "cumsum": lambda m: m.cumsum(m.arange(4.)),
 "stack": lambda m: m.stack([m.arange(2.), m.arange(2.)]),
 "vstack1d": lambda m: m.vstack([m.arange(2.), m.arange(2.)]),
 "column_stack": lambda m: m.column_stack([m.arange(2.), m.arange(2.)]),
 "diag1": lambda m: m.diag(m.arange(2.)),
 "diag2": lambda m: m.diag(m.eye(2)),
 "triu": lambda m: m.triu(m.ones((2, 2))),
 "polyfit": lambda m: m.polyfit(m.arange(4.), m.arange(4.) ** 2, 2),
 "histogram": lambda m: m.histogram(m.arange(4.), 2)[0],
 "squeeze": lambda m: m.squeeze(m.ones((1, 3))),
 "expand": lambda m: m.expand_dims(m.ones(3), 0),
 "flip": lambda m: m.flip(m.ones(3)),
 "einsum": lambda m: m.einsum("ij->ji", m.ones((2, 3))),
 "einsum2": lambda m: m.einsum("ij,jk->ik", m.ones((2, 3)), m.ones((3, 2))),
 "matmul": lambda m: m.ones((2, 3)) @ m.ones((3, 2)),
 "dot": lambda m: m.dot(m.ones((2, 3)), m.ones((3, 2))),
 "sum_axis": lambda m: m.ones((2, 3)).sum(axis=0),
 "astype": lambda m: m.ones(3).astype(int),
 "array_list": lambda m: m.array([[1, 2], [3, 4]]),
 "random": lambda m: m.random.default_rng(0).random((2, 2)),
 "legacy_random": lambda m: m.random.rand(2, 2),
 "mgrid": lambda m: m.mgrid[0:2, 0:3],
 "indices": lambda m: m.indices((2, 3)),
 "pad": lambda m: m.pad(m.ones(2), 1),
 "roll": lambda m: m.roll(m.arange(4.), 1),
 "rot90": lambda m: m.rot90(m.ones((2, 3))),
 "split": lambda m: m.split(m.arange(4.), 2)[0],
 "broadcast_arrays": lambda m: m.broadcast_arrays(m.ones(3), m.ones((2, 1)))[1],
 "real": lambda m: m.real(m.ones(3) + 1j),
 "imag_of_real": lambda m: m.imag(m.ones(3)),
 "clip": lambda m: m.clip(m.arange(4.), 1, 2),
 "round": lambda m: m.round(m.arange(4.)),
 "trapz": lambda m: m.cumulative_sum(m.arange(4.)),
 "cross": lambda m: m.cross(m.array([1., 0, 0]), m.array([0., 1, 0])),
 "convolve": lambda m: m.convolve(m.ones(3), m.ones(2)),
 "correlate": lambda m: m.correlate(m.ones(2), m.ones(3), "full"),
 "interp": lambda m: m.interp(m.arange(3.), m.arange(3.), m.arange(3.)),
 "percentile": lambda m: m.percentile(m.arange(4.), [10, 90]),
 "cov": lambda m: m.cov(m.arange(4.).reshape(2, 2)),
 "corrcoef": lambda m: m.corrcoef(m.arange(6.).reshape(2, 3)),
 "take": lambda m: m.take(m.arange(4.), [0, 2]),
 "fancy": lambda m: m.arange(4.)[[0, 2]],
 "mask": lambda m: m.arange(4.)[m.arange(4.) > 1],
 "transpose": lambda m: m.arange(6.).reshape(2, 3).T,
 "concat": lambda m: m.concatenate([m.ones(2), m.ones(2)]),
 "vander": lambda m: m.vander(m.arange(3.)),
 "tril_indices": lambda m: m.tril_indices(3)[0],
 "full_like": lambda m: m.full_like(m.ones(3), 2),
 "identity": lambda m: m.identity(2),
 "frombuffer": lambda m: m.frombuffer(b"\x00" * 16),
 "fromiter": lambda m: m.fromiter(range(3), float),
 "loadtxt": lambda m: m.loadtxt(["1 2", "3 4"]),
 "searchsorted": lambda m: m.searchsorted(m.arange(4.), [1.5]),
 "bincount": lambda m: m.bincount(m.array([0, 1, 1])),
 "digitize": lambda m: m.digitize(m.arange(4.), [1, 2]),
 "lstsq": lambda m: m.linalg.lstsq(m.eye(2), m.ones(2), rcond=None)[0],
 "pinv": lambda m: m.linalg.pinv(m.eye(2)),
 "cholesky": lambda m: m.linalg.cholesky(m.eye(2)),
 "norm_axis": lambda m: m.linalg.norm(m.ones((2, 2)), axis=0),
 "matrix_power": lambda m: m.linalg.matrix_power(m.eye(2), 3),
 "gradient": lambda m: m.gradient(m.arange(4.) ** 2),
 "nan_to_num": lambda m: m.nan_to_num(m.array([m.nan, 1.0])),
 "ptp": lambda m: m.ptp(m.ones((2, 2)), axis=0),
 "mean_axis": lambda m: m.mean(m.ones((2, 2)), axis=0),
 "median": lambda m: m.median(m.ones((2, 3)), axis=0),
 "quantile": lambda m: m.quantile(m.ones((2, 3)), 0.5, axis=0),
 "swapaxes": lambda m: m.swapaxes(m.ones((2, 3)), 0, 1),
 "moveaxis": lambda m: m.moveaxis(m.ones((2, 3, 4)), 0, -1),
 "resize": lambda m: m.resize(m.arange(3.), (2, 3)),
 "append": lambda m: m.append(m.ones(2), 3.0),
 "insert": lambda m: m.insert(m.ones(2), 1, 3.0),
 "delete": lambda m: m.delete(m.arange(3.), 1),
 "fliplr": lambda m: m.fliplr(m.ones((2, 2))),
 "ravel_multi": lambda m: m.ravel_multi_index(([0, 1], [1, 0]), (2, 2)),
 "unravel": lambda m: m.unravel_index([1, 2], (2, 2))[0],
 "argwhere": lambda m: m.argwhere(m.ones((2, 2))),
 "flatnonzero": lambda m: m.flatnonzero(m.ones(3)),
 "choose": lambda m: m.choose([0, 1], [m.ones(2), m.zeros(2)]),
 "select": lambda m: m.select([m.ones(2) > 0], [m.ones(2)]),
 "piecewise": lambda m: m.piecewise(m.arange(3.), [m.arange(3.) > 1], [1, 0]),
 "polyval": lambda m: m.polyval([1, 2], m.arange(3.)),
 "array_split": lambda m: m.array_split(m.arange(5.), 2)[1],
 "hsplit": lambda m: m.hsplit(m.ones((2, 4)), 2)[0],
 "block": lambda m: m.block([[m.ones((1, 1)), m.zeros((1, 1))]]),
 "sliding": lambda m: m.lib.stride_tricks.sliding_window_view(m.arange(5.), 3),
 "hstack": lambda m: m.hstack([m.ones(2), m.ones(2)]),
 "dstack": lambda m: m.dstack([m.ones(2), m.ones(2)]),
 "isin": lambda m: m.isin(m.arange(3), [1]),
 "logspace": lambda m: m.logspace(0, 1, 3),
 "geomspace": lambda m: m.geomspace(1, 10, 3),
 "tri": lambda m: m.tri(3),
 "ediff1d": lambda m: m.ediff1d(m.arange(4.)),
 "trim_zeros": lambda m: m.trim_zeros(m.array([0., 1, 0])),
 "angle": lambda m: m.angle(m.ones(2) * 1j),
 "sinc": lambda m: m.sinc(m.arange(3.)),
 "unwrap": lambda m: m.unwrap(m.arange(3.)),
 "cumprod": lambda m: m.cumprod(m.ones((2, 2)), axis=1),
 "fftfreq": lambda m: m.fft.fftfreq(4),
 "rfft": lambda m: m.fft.rfft(m.arange(4.)),
 "ifft2": lambda m: m.fft.ifft2(m.ones((2, 2))),
 "fftshift": lambda m: m.fft.fftshift(m.arange(4.)),
 "hanning": lambda m: m.hanning(4),
 "eye_k": lambda m: m.eye(3, k=1),
}

# Known and documented (docs/numpy_coverage.md): OWNDATA of results that are views of NumPy's own
# temporaries; nonzero/unravel_index/argwhere, whose NumPy results are columns or transposes of
# one (n, ndim) array (strided here: C-contiguous); broadcast_arrays' results (NumPy's are writable with a DeprecationWarning);
# imag of a real array (NumPy's read-only zeros own their memory).
_LAYOUT_DIFFERS = {"nonzero", "unravel", "argwhere", "broadcast_arrays"}


@pytest.mark.exhaustive_on("c")  # (~130 functions' kernels: the numpy instances check the layouts)
@pytest.mark.parametrize("eager_size", [0, 4096])
def test_function_results_have_numpys_layout_and_writeable_flag(backend, eager_size):
    with la.config(eager_size=eager_size), np.errstate(all="ignore"):
        for name, make in _RESULTS.items():
            if name in _LAYOUT_DIFFERS:
                continue
            want, got = make(np), make(la)
            assert (got.flags.c_contiguous, got.flags.f_contiguous, got.flags.writeable) == \
                (want.flags.c_contiguous, want.flags.f_contiguous, want.flags.writeable), name
            assert got.strides == want.strides or 0 in want.shape, name


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_eigh_vectors_and_choose_results_are_numpys_arrays(backend, eager_size):
    with la.config(eager_size=eager_size):
        outs = []
        for m in (np, la):
            w, v = m.linalg.eigh(m.asarray([[2.0, 1.0], [1.0, 3.0]]))
            r = v.ravel()
            r[0] = 5.0  # a view of v in NumPy: the write reaches v
            a = m.ones(2)
            c = m.choose(m.asarray([[0], [1]]), [a, m.zeros(2)])
            c[0, 0] = 7.0
            c1 = m.choose(m.asarray([0, 0]), [a])
            c1[1] = 3.0
            outs.append([np.asarray(v).tolist(), np.asarray(c).tolist(), np.asarray(a).tolist(),
                         np.asarray(c1).tolist()])
        np.testing.assert_allclose(np.asarray(outs[1][0]), np.asarray(outs[0][0]), rtol=1e-12)
        assert outs[1][1:] == outs[0][1:]


def _sharing(m):
    """may_share_memory / shares_memory over views of C, 2-D, Fortran-ordered, read-only and
    broadcast arrays (both raised AttributeError before stop 55)."""
    out = []
    a = m.arange(10.0)
    pairs = [(a[:5], a[5:]), (a[::2], a[1::2]), (a, a), (a, a.copy()), (a[2:], a[:3]),
             (a.reshape(2, 5).T, a[9:]), (a[::-1], a[:1]), (a[::-1][:3], a[:5])]
    A = m.arange(12.0).reshape(3, 4)
    pairs += [(A[0], A[1]), (A[:, 0], A[0]), (A.T[1], A[:, 1]), (A.T[1], A[:, 2]),
              (A[1:, 1:], A[0]), (A, A * 1), (A.ravel(), A)]
    F = m.asfortranarray(A)
    pairs += [(F[:, 0], F[:, 1]), (F[0], F[1]), (F.T, F)]
    b = m.broadcast_to(a[:3], (2, 3))
    pairs += [(a, b), (b[0], b[1]), (a[:1], b[:, 2]), (a[3:], b)]
    r = m.arange(6.0)
    v = r[2:]
    r.flags.writeable = False
    pairs += [(r, v), (v, r[:3]), (r, r[:3])]
    for x, y in pairs:
        out.append((m.may_share_memory(x, y), m.shares_memory(x, y)))
    out.append((m.shares_memory(a, 3.0), m.may_share_memory(a.sum(), a)))
    return out


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_may_share_memory_and_shares_memory_are_numpys(backend, eager_size):
    with la.config(eager_size=eager_size):
        assert _sharing(la) == _sharing(np)
