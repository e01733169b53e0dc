"""A differential fuzzer: random programs run on NumPy and on lazyarray, compared op by op.

A program is a list of Python statements over named values (`v0 = np_.add(v1, 2)`), generated from a
seed while NumPy runs them, so every statement is valid for NumPy's shapes and dtypes. The same text
then runs with `np_`/`xa` bound to lazyarray, in several ways that must all give NumPy's answer:

- eagerly, every value evaluated as one graph; each statement is checked on its own: NumPy runs it on
  lazyarray's evaluated inputs, so an error is charged to the op that made it (rounding differences
  do not compound through the program);
- only the program's final values evaluated (everything fuses), through `la.jit`, and with a node
  budget small enough that building the program cuts it: these must equal the first run's values.

Where NumPy raises, lazyarray must raise too (and the reverse) when the statement is built, except
for the deviations docs/semantics.md lists (complex ordering; float16 until seed HALF_FROM).

Run it for a while:  python -m tests.fuzz_numpy --seconds 600 [--backend c] [--seed 0]
tests/test_fuzz_numpy.py runs a bounded number of seeds on every backend.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
import warnings
from dataclasses import dataclass, field

import array_api_compat.numpy as np_api
import numpy as np

import lazyarray as la
from lazyarray.graph import semantics as la_semantics

DTYPES = tuple(np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                     "uint32", "uint64", "float32", "float64", "complex64",
                                     "complex128"))
ORDERING_UFUNCS = {"less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "floor",
                   "ceil", "trunc", "floor_divide", "remainder", "arctan2", "hypot", "logaddexp",
                   "fmax", "fmin", "fmod", "copysign", "max", "min", "argmax", "argmin", "sort",
                   "argsort", "clip", "sign_real", "nextafter", "heaviside", "logaddexp2",
                   "searchsorted", "cummax", "nanmax", "nanmin", "rint"}


# --- the two helper namespaces: where NumPy's and lazyarray's spellings differ ------------------------
class NumpyHelpers:
    """NumPy's side of the operations lazyarray spells differently or defines where NumPy does not."""

    # complex expm1: the Array API's special values where NumPy's formula multiplies an infinity
    # by 0 (docs/semantics.md, graph/semantics.py): `expm1(-inf + nan*j)` is -1+0j, not NaN
    expm1 = staticmethod(la_semantics.expm1)

    @staticmethod
    def astype(x, dtype):
        dtype = np.dtype(dtype)
        x = np.asarray(x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if x.dtype.kind == "c" and dtype.kind != "c":
                x = x.real if dtype.kind != "b" else x
            if x.dtype.kind == "f" and dtype.kind in "iu":  # docs/semantics.md (NumPy x86-64's)
                return la_semantics.cast(x, dtype)
            return x.astype(dtype)

    @staticmethod
    def setitem(x, index, value):
        y = np.array(x, copy=True)
        # lazyarray's float -> int rule for arrays (a Python scalar out of range raises in both)
        y[index] = NumpyHelpers.astype(value, y.dtype) if isinstance(value, np.ndarray) else value
        return y

    @staticmethod
    def at(x, index, how, value):
        y = np.array(x, copy=True)
        if how == "set":
            y[index] = NumpyHelpers.astype(value, y.dtype) if isinstance(value, np.ndarray) \
                else value
        else:  # NumPy's ufunc.at takes a Python int as int64 (not NEP 50's weak scalar)
            getattr(np, how).at(y, index, np.asarray(value, np.result_type(y, value)))
        return y

    @staticmethod
    def round(x, decimals=0):
        x = np.asarray(x)
        if x.dtype.kind in "iu" and decimals < 0:  # docs/semantics.md: through float64
            return NumpyHelpers.astype(np.round(x.astype(np.float64), decimals), x.dtype)
        return np.round(x, decimals)

    @staticmethod
    def argsort(x, axis=-1):
        return np.argsort(x, axis=axis)  # NumPy's default kind, its order of ties (stop 50)

    @staticmethod
    def full_like(x, value):
        x = np.asarray(x)
        if isinstance(value, float) and x.dtype.kind in "iu":  # the astype rule (semantics.md)
            return NumpyHelpers.astype(np.full(x.shape, value), x.dtype)
        return np.full_like(x, value)

    @staticmethod
    def arr(x):
        return np.asarray(x)


class LazyHelpers:
    expm1 = staticmethod(la.expm1)

    @staticmethod
    def round(x, decimals=0):
        return la.round(x, decimals)

    @staticmethod
    def argsort(x, axis=-1):
        return la.argsort(x, axis=axis)

    @staticmethod
    def full_like(x, value):
        return la.full_like(x, value)

    @staticmethod
    def astype(x, dtype):
        return x.astype(dtype)

    @staticmethod
    def setitem(x, index, value):
        y = x.copy()  # x[i] = v rebinds the handle: the caller's x must keep its value
        y[index] = value
        return y

    @staticmethod
    def at(x, index, how, value):
        return getattr(x.at[index], how)(value)

    @staticmethod
    def arr(x):
        return la.asarray(x)


# --- data ------------------------------------------------------------------------------------------
def values(rng: np.random.Generator, dtype: np.dtype, shape: tuple) -> np.ndarray:
    """Mostly ordinary values, with a share of the adversarial ones."""
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind == "c":
        part = np.float32 if dtype == np.complex64 else np.float64
        z = np.empty(shape, dtype)
        z.real = values(rng, np.dtype(part), shape)
        z.imag = values(rng, np.dtype(part), shape)
        return z
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        small = rng.integers(max(info.min, -20), min(info.max, 20), size=shape, endpoint=True)
        edge = np.array([info.min, info.max, info.min + 1, info.max - 1, 0, 1], dtype)
        pick = rng.random(shape) < 0.2
        return np.where(pick, rng.choice(edge, size=shape), small.astype(dtype)).astype(dtype)
    info = np.finfo(dtype)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, info.smallest_subnormal, info.tiny,
                        info.max, -info.max, 1.0, -1.0, 0.5, -2.5, 1e-30, 3.0], dtype)
    normal = (rng.standard_normal(shape) * rng.choice([1.0, 3.0, 100.0])).astype(dtype)
    return np.where(rng.random(shape) < 0.2, rng.choice(special, size=shape), normal).astype(dtype)


FORMS_49_FROM = 1700000  # seeds from here draw make_ufunc_method's forms too
HALF_FROM = 1800000  # and float16 arrays, whose results are compared as any other (stop 49)
FORMS_50_FROM = 1900000  # and make_forms_50's: ties in sorts, unique's options, int corners
SCALARS = (0, 1, 2, -1, 3, 7, 127, 128, 255, 256, -129, 300, 2**31, 2**63 - 1, 2**64 - 1, -2**63,
           2**63, 2**64, -2**63 - 1,
           0.5, -0.0, 2.5, 1e300, float("inf"), float("nan"), True, False, 1j, 2 - 0.5j)


# --- programs --------------------------------------------------------------------------------------
@dataclass
class Program:
    inputs: dict = field(default_factory=dict)  # name -> NumPy array (lazyarray gets la.asarray)
    consts: dict = field(default_factory=dict)  # name -> index constant, the same on both sides
    lines: list = field(default_factory=list)  # (target name, expression text, tolerance kind)

    def source(self) -> str:
        head = [f"{n} = H.arr(np.{v!r})".replace("np.array(", "np.array(") for n, v in
                self.inputs.items()]
        consts = [f"{n} = {v!r}" for n, v in self.consts.items()]
        body = [f"{t} = {e}    # {k}" for t, e, k in self.lines]
        return "\n".join(head + consts + body)


def environment(lazy: bool) -> dict:
    env = {"np_": la if lazy else np, "xa": la if lazy else np_api,
           "H": LazyHelpers if lazy else NumpyHelpers, "np": np, "Ellipsis": Ellipsis}
    return env


def run(program: Program, lazy: bool, inputs: dict | None = None) -> dict:
    env = environment(lazy)
    env.update(program.consts)
    for name, v in (inputs or program.inputs).items():
        env[name] = la.asarray(v) if lazy and not isinstance(v, la.Array) else v
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for target, expr, _ in program.lines:
                env[target] = eval(expr, env)
    return env


class Mismatch(AssertionError):
    pass


# --- comparison ------------------------------------------------------------------------------------
def check_value(got, want, kind: str, where: str, scale=None) -> None:
    """`scale`: for sums of products, the same sum over |inputs| (the error bound's scale)."""
    want = np.asarray(want)
    g = np.asarray(got)
    if g.dtype != want.dtype or g.shape != want.shape:
        raise Mismatch(f"{where}: got {g.dtype}{g.shape}, NumPy {want.dtype}{want.shape}")
    if isinstance(got, la.Array) and (got.dtype != g.dtype or got.shape != g.shape):
        raise Mismatch(f"{where}: predicted {got.dtype}{got.shape}, evaluated {g.dtype}{g.shape}")
    if kind == "exact" and want.dtype.kind == "c" and any(
            op in where for op in ("multiply", "add", "subtract", "*", "+", "-", "H.at")):
        kind = "ulp"  # NumPy's complex loops use FMA where the CPU has it
    if want.dtype.kind in "biu" or kind in ("exact", "exact_zero"):
        if want.dtype.kind in "fc":
            ok = (g == want) | (np.isnan(g) & np.isnan(want))
            if want.dtype.kind == "f" and kind == "exact":  # exact_zero: either zero (max/min)
                ok &= (np.signbit(g) == np.signbit(want)) | np.isnan(want)
        else:
            ok = g == want
        if not np.all(ok):
            bad = np.argwhere(~np.asarray(ok))[:3]
            raise Mismatch(f"{where}: differs at {bad.tolist()}: got {g[tuple(bad.T)]}, "
                           f"NumPy {want[tuple(bad.T)]}")
        return
    comps = [(g.real, want.real), (g.imag, want.imag)] if want.dtype.kind == "c" else [(g, want)]
    info = np.finfo(want.dtype)
    ulps = {"ulp": 8, "reduce": 64, "matmul": 256, "loose": 4096, "exact_zero": 0}[kind]
    with np.errstate(all="ignore"):
        scale = np.abs(want).astype(np.float64) if scale is None else np.maximum(
            np.abs(want).astype(np.float64), np.asarray(scale, np.float64))
    for gc, wc in comps:
        nan_ok = np.isnan(gc) == np.isnan(wc)
        inf = np.isinf(wc)
        inf_ok = ~inf | (gc == wc)
        with np.errstate(all="ignore"):
            mag = scale
            err = np.abs(gc.astype(np.float64) - wc.astype(np.float64))
            tol = ulps * float(info.eps) * np.where(np.isfinite(mag), mag, 0) + ulps * float(
                info.tiny)
            fin = np.isfinite(wc)
            val_ok = ~fin | (err <= tol)
        ok = nan_ok & inf_ok & val_ok
        if want.dtype.kind == "c":  # inf/nan parts of complex arithmetic: NumPy's FMA loops
            ok |= ~np.isfinite(want) & ~np.isfinite(g)  # (inf - inf in one rounding or two)
        if kind == "matmul":  # inf/nan parts of sums of products depend on the order (BLAS
            # skips zero factors: -inf * 0 is 0 there)
            ok = ~np.isfinite(want) | ~np.isfinite(scale) | (val_ok & np.isfinite(gc))
        if not np.all(ok):
            bad = np.argwhere(~np.asarray(ok))[:3]
            raise Mismatch(f"{where}: differs at {bad.tolist()}: got {g[tuple(bad.T)]}, "
                           f"NumPy {want[tuple(bad.T)]}")


# --- the generator ---------------------------------------------------------------------------------
UNARY = ("abs negative positive square sqrt exp expm1 log log1p log2 log10 sin cos tan arcsin arccos "
         "arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint sign reciprocal isnan "
         "isinf isfinite signbit logical_not invert conj real imag angle cbrt exp2 deg2rad rad2deg "
         "fabs").split()
EXACT_UNARY = set("abs negative positive floor ceil trunc rint sign isnan isinf isfinite signbit "
                  "logical_not invert conj real imag fabs".split())
BINARY = ("add subtract multiply divide floor_divide remainder power maximum minimum fmax fmin "
          "arctan2 hypot logaddexp copysign equal not_equal less less_equal greater greater_equal "
          "logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor left_shift "
          "right_shift fmod nextafter heaviside logaddexp2 true_divide").split()
EXACT_BINARY = set("maximum minimum fmax fmin copysign equal not_equal less less_equal greater "
                   "greater_equal logical_and logical_or logical_xor bitwise_and bitwise_or "
                   "bitwise_xor left_shift right_shift nextafter heaviside add subtract "
                   "multiply".split())
OPERATORS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//",
             "remainder": "%", "power": "**", "bitwise_and": "&", "bitwise_or": "|",
             "bitwise_xor": "^", "left_shift": "<<", "right_shift": ">>", "equal": "==",
             "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">",
             "greater_equal": ">=", "matmul": "@"}
REDUCTIONS = "sum prod mean var std max min argmax argmin any all cumsum cumprod".split()


class Generator:
    def __init__(self, seed: int, max_lines: int = 12):
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.dtypes = DTYPES + (np.dtype(np.float16),) if seed >= HALF_FROM else DTYPES
        self.max_lines = max_lines
        self.p = Program()
        self.np_env = environment(False)
        self.la_env = environment(True)
        self.n = 0
        self.deviations: list = []  # (expr, numpy error, lazyarray error)

    # pool helpers
    def name(self, prefix="v"):
        self.n += 1
        return f"{prefix}{self.n}"

    def pool(self):
        return [k for k in self.np_env if k.startswith(("v", "x")) and k[1:].isdigit()]

    def pick(self, pred=lambda a: True):
        names = [k for k in self.pool() if pred(self.np_env[k])]
        return names[self.rng.integers(len(names))] if names else None

    def choice(self, seq):
        return seq[self.rng.integers(len(seq))]

    def shape(self):
        nd = self.choice([0, 1, 1, 2, 2, 2, 3, 3])
        return tuple(int(self.choice([0, 1, 1, 2, 3, 4, 5])) if self.rng.random() < 0.1 else
                     int(self.choice([1, 2, 3, 4, 5])) for _ in range(nd))

    def add_input(self, dtype=None, shape=None):
        dtype = dtype or self.choice(self.dtypes)
        shape = self.shape() if shape is None else shape
        v = values(self.rng, np.dtype(dtype), shape)
        name = self.name("x")
        self.p.inputs[name] = v
        self.np_env[name] = v
        self.la_env[name] = la.asarray(v)
        return name

    def const(self, value):
        name = self.name("k")
        self.p.consts[name] = value
        self.np_env[name] = value
        self.la_env[name] = value
        return name

    # try one statement on both sides
    def attempt(self, expr: str, kind: str) -> str | None:
        target = self.name("v")
        np_err = la_err = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                try:
                    want = eval(expr, self.np_env)
                except Exception as e:  # noqa: BLE001
                    np_err = e
                try:
                    got = eval(expr, self.la_env)
                except Exception as e:  # noqa: BLE001
                    la_err = e
        if np_err is None and not isinstance(want, (np.ndarray, np.generic)):
            return None  # a Python value (shape etc.): not fuzzed here
        if np_err is None and np.asarray(want).dtype == np.float16 and self.seed < HALF_FROM:
            return None  # (computed in float32 until stop 49: older seeds draw as they did)
        if np_err is None and np.asarray(want).dtype.kind not in "biufc":
            return None
        if np_err is not None or la_err is not None:
            if not self.allowed_error_difference(expr, np_err, la_err):
                self.deviations.append((expr, np_err, la_err, self.p.source()))
            return None
        if not isinstance(got, la.Array):
            self.deviations.append((expr, None, TypeError(f"returned {type(got)}"), self.p.source()))
            return None
        if np.asarray(want).dtype != got.dtype or np.shape(want) != got.shape:
            self.deviations.append((expr, None, Mismatch(
                f"built {got.dtype}{got.shape}, NumPy {np.asarray(want).dtype}{np.shape(want)}"),
                self.p.source()))
            return None
        self.np_env[target] = np.asarray(want)
        self.la_env[target] = got
        self.p.lines.append((target, expr, kind))
        return target

    def allowed_error_difference(self, expr, np_err, la_err) -> bool:
        if np_err is not None and la_err is not None:
            return True  # both refuse (types may differ; judged by hand from the log)
        if la_err is not None and isinstance(la_err, TypeError) and "complex" in str(la_err):
            return True  # ordering of complex numbers: refused on purpose
        if la_err is not None and "float16" in str(la_err):
            return True
        if np_err is not None and "Integers to negative integer powers" in str(np_err):
            return True  # lazyarray defines it (docs/semantics.md)
        if np_err is not None and "does not have enough dimensions" in str(np_err):
            return False
        if np_err is not None and la_err is None and (
                "clip" in expr and ("None, None" in expr or "out of bounds" in str(np_err))):
            return True  # NumPy quirks: clip(bool, None, None) has no loop; clip checks a
            # dropped Python int bound
        if np_err is not None and "cumulative_" in expr and "list assignment" in str(np_err):
            return True  # array_api_compat's include_initial on a 0-d array
        return False

    # statement makers ---------------------------------------------------------------------------
    def scalar(self):
        return self.choice(SCALARS)

    def make_unary(self):
        x = self.pick()
        f = self.choice(UNARY)
        if f == "reciprocal" and self.np_env[x].dtype.kind in "biu":
            return None  # integer reciprocal(0) is 0 by definition (docs/semantics.md)
        kind = "exact" if f in EXACT_UNARY else "ulp"
        if f == "abs" and self.np_env[x].dtype.kind == "c":
            kind = "ulp"  # hypot
        if f == "expm1" and self.np_env[x].dtype.kind == "c":  # the standard's special values
            return self.attempt(f"H.expm1({x})", kind)  # (seed 20546, numpy backend)
        return self.attempt(f"np_.{f}({x})", kind)

    def make_binary(self):
        x = self.pick()
        f = self.choice(BINARY)
        kind = "exact" if f in EXACT_BINARY else "ulp"
        if f in ("maximum", "minimum", "fmax", "fmin"):
            kind = "exact_zero"  # max(0.0, -0.0): either zero (docs/semantics.md)
        if f == "power":
            kind = "loose"
        r = self.rng.random()
        if r < 0.3:
            other = repr(self.scalar())
        else:
            shape = self.np_env[x].shape
            other = self.pick(lambda a: _broadcastable(a.shape, shape)) or x
        a, b = (x, other) if self.rng.random() < 0.7 else (other, x)
        if f in OPERATORS and self.rng.random() < 0.5 and not (a[0] not in "vx" and b[0] not in
                                                               "vx"):
            return self.attempt(f"({a} {OPERATORS[f]} {b})", kind)
        return self.attempt(f"np_.{f}({a}, {b})", kind)

    def make_reduction(self):
        x = self.pick()
        nd = self.np_env[x].ndim
        f = self.choice(REDUCTIONS)
        axis = None
        if nd and self.rng.random() < 0.7:
            axis = int(self.rng.integers(-nd, nd))
            if self.rng.random() < 0.25 and nd > 1 and f not in ("argmax", "argmin", "cumsum",
                                                                   "cumprod"):
                axis = tuple(sorted({axis % nd, int(self.rng.integers(nd))}))
        args = f"{x}, axis={axis!r}"
        if f not in ("cumsum", "cumprod") and self.rng.random() < 0.4:
            args += ", keepdims=True"
        if f in ("var", "std") and self.rng.random() < 0.3:
            args += ", ddof=1"
        kind = "exact" if f in ("argmax", "argmin", "any", "all") else "reduce"
        kind = "exact_zero" if f in ("max", "min") else kind
        return self.attempt(f"np_.{f}({args})", kind)

    def make_api(self):
        """Array API spellings (array_api_compat.numpy as the reference)."""
        x = self.pick()
        a = self.np_env[x]
        nd = a.ndim
        r = self.choice(["cumulative_sum", "cumulative_prod", "permute_dims", "concat", "stack",
                         "vecdot", "matrix_transpose", "astype", "clip", "where", "take",
                         "take_along_axis", "searchsorted", "sort", "argsort", "flip", "roll",
                         "repeat", "tile", "expand_dims", "squeeze", "moveaxis", "broadcast_to",
                         "count_nonzero", "diff", "nonzero", "unique_values", "isin", "round",
                         "pow", "acos", "bitwise_left_shift", "trunc", "copysign", "signbit",
                         "logsumexp_free", "meshgrid", "tril", "triu", "reshape"])
        if r == "cumulative_sum" or r == "cumulative_prod":
            if nd > 1 or self.rng.random() < 0.5:
                ax = int(self.rng.integers(-max(nd, 1), max(nd, 1))) if nd else None
                return self.attempt(f"xa.{r}({x}, axis={ax}, include_initial="
                                    f"{bool(self.rng.random() < 0.5)})", "reduce")
            return self.attempt(f"xa.{r}({x})", "reduce")
        if r == "permute_dims":
            perm = tuple(int(i) for i in self.rng.permutation(nd))
            return self.attempt(f"xa.permute_dims({x}, {perm})", "exact")
        if r in ("concat", "stack"):
            others = [k for k in self.pool() if self.np_env[k].ndim == nd and (
                r == "stack" and self.np_env[k].shape == a.shape or r == "concat")]
            ys = [x] + [self.choice(others) for _ in range(int(self.rng.integers(0, 3)))]
            ax = int(self.rng.integers(-max(nd, 1), max(nd, 1))) if nd else 0
            if r == "stack":
                ax = int(self.rng.integers(-nd - 1, nd + 1))
            return self.attempt(f"xa.{r}([{', '.join(ys)}], axis={ax})", "exact")
        if r == "vecdot":
            y = self.pick(lambda b: _broadcastable(a.shape, b.shape)) or x
            return self.attempt(f"xa.vecdot({x}, {y})", "matmul")
        if r == "matrix_transpose":
            return self.attempt(f"xa.matrix_transpose({x})", "exact")
        if r == "astype":
            dt = self.choice(self.dtypes)
            return self.attempt(f"H.astype({x}, '{dt}')", "exact")
        if r == "clip":
            lo = self.choice(["None", repr(self.scalar()), self.pick() or "None"])
            hi = self.choice(["None", repr(self.scalar()), self.pick() or "None"])
            return self.attempt(f"np_.clip({x}, {lo}, {hi})", "exact_zero")
        if r == "where":
            c = self.pick(lambda b: b.dtype == bool and _broadcastable(a.shape, b.shape))
            c = c or f"({x} != 0)"
            y = self.choice([repr(self.scalar()), self.pick(lambda b: _broadcastable(
                a.shape, b.shape)) or x])
            return self.attempt(f"np_.where({c}, {x}, {y})", "exact")
        if r == "take":
            if nd == 0:
                return None
            ax = int(self.rng.integers(-nd, nd))
            n = a.shape[ax]
            idx = self.rng.integers(-n, n, size=self.choice([(3,), (0,), (2,)])) if n else \
                np.zeros(0, np.int64)
            k = self.const(idx)
            return self.attempt(f"xa.take({x}, {k}, axis={ax})", "exact")
        if r == "take_along_axis":
            if nd == 0:
                return None
            ax = int(self.rng.integers(-nd, nd))
            return self.attempt(f"np_.take_along_axis({x}, H.argsort({x}, axis={ax}), "
                                f"axis={ax})", "exact")
        if r in ("sort", "argsort"):
            if nd == 0:
                return None
            ax = int(self.rng.integers(-nd, nd))
            if self.rng.random() < 0.5:
                desc = bool(self.rng.random() < 0.5)
                # array_api_compat's descending sort flips a sort, which is not stable: -0.0
                # and 0.0 (equal) come out in either order there; its argsort is stable
                kind = "exact_zero" if r == "sort" and desc else "exact"
                return self.attempt(f"xa.{r}({x}, axis={ax}, descending={desc})", kind)
            # NumPy's default sort is not stable: equal -0.0 and 0.0 come out in either order
            # (seed 1505924); lazyarray's is stable (docs/semantics.md)
            return self.attempt(f"{'np_.sort' if r == 'sort' else 'H.argsort'}({x}, axis={ax})",
                                "exact_zero" if r == "sort" else "exact")
        if r == "searchsorted":
            if nd != 1:
                return None
            y = self.pick() or x
            side = self.choice(["left", "right"])
            return self.attempt(f"np_.searchsorted(np_.sort({x}), {y}, side='{side}')", "exact")
        if r == "flip":
            ax = None if nd == 0 or self.rng.random() < 0.3 else int(self.rng.integers(-nd, nd))
            return self.attempt(f"np_.flip({x}, axis={ax})", "exact")
        if r == "roll":
            sh = int(self.rng.integers(-7, 8))
            ax = None if nd == 0 or self.rng.random() < 0.3 else int(self.rng.integers(-nd, nd))
            return self.attempt(f"np_.roll({x}, {sh}, axis={ax})", "exact")
        if r == "repeat":
            reps = int(self.rng.integers(0, 3))
            ax = None if nd == 0 or self.rng.random() < 0.3 else int(self.rng.integers(-nd, nd))
            return self.attempt(f"np_.repeat({x}, {reps}, axis={ax})", "exact")
        if r == "tile":
            reps = tuple(int(i) for i in self.rng.integers(0, 3, size=int(self.rng.integers(1, 4))))
            return self.attempt(f"np_.tile({x}, {reps})", "exact")
        if r == "expand_dims":
            ax = int(self.rng.integers(-nd - 1, nd + 1))
            return self.attempt(f"xa.expand_dims({x}, axis={ax})", "exact")
        if r == "squeeze":
            ones = [i for i, s in enumerate(a.shape) if s == 1]
            ax = self.choice(ones) if ones else None
            return self.attempt(f"np_.squeeze({x}, axis={ax})", "exact")
        if r == "moveaxis":
            if nd == 0:
                return None
            return self.attempt(f"np_.moveaxis({x}, {int(self.rng.integers(-nd, nd))}, "
                                f"{int(self.rng.integers(-nd, nd))})", "exact")
        if r == "broadcast_to":
            shape = tuple(int(i) for i in self.rng.integers(1, 4, size=int(
                self.rng.integers(0, 2)))) + tuple(s if self.rng.random() < 0.8 else 1 for s in
                                                   a.shape)
            return self.attempt(f"np_.broadcast_to({x}, {shape})", "exact")
        if r == "count_nonzero":
            ax = None if nd == 0 or self.rng.random() < 0.3 else int(self.rng.integers(-nd, nd))
            return self.attempt(f"xa.count_nonzero({x}, axis={ax})", "exact")
        if r == "diff":
            if nd == 0:
                return None
            return self.attempt(f"np_.diff({x}, n={int(self.rng.integers(0, 3))}, axis="
                                f"{int(self.rng.integers(-nd, nd))})", "ulp")
        if r == "nonzero":
            if nd == 0:
                return None
            return self.attempt(f"np_.nonzero({x})[{int(self.rng.integers(nd))}]", "exact")
        if r == "unique_values":
            return self.attempt(f"np_.unique({x})", "exact")
        if r == "isin":
            y = self.pick() or x
            return self.attempt(f"np_.isin({x}, {y})", "exact")
        if r == "round":
            d = int(self.rng.integers(-2, 4))
            return self.attempt(f"H.round({x}, {d})", "ulp")
        if r == "pow":
            y = self.pick(lambda b: _broadcastable(a.shape, b.shape)) or x
            return self.attempt(f"xa.pow({x}, {y})", "loose")
        if r == "acos":
            return self.attempt(f"xa.acos({x})", "ulp")
        if r == "bitwise_left_shift":
            y = self.pick(lambda b: _broadcastable(a.shape, b.shape)) or x
            return self.attempt(f"xa.bitwise_left_shift({x}, {y})", "exact")
        if r == "trunc":
            return self.attempt(f"xa.trunc({x})", "exact")
        if r == "copysign":
            return self.attempt(f"xa.copysign({x}, {repr(self.scalar())})", "exact")
        if r == "signbit":
            return self.attempt(f"xa.signbit({x})", "exact")
        if r == "tril" or r == "triu":
            k = int(self.rng.integers(-2, 3))
            return self.attempt(f"np_.{r}({x}, k={k})", "exact")
        if r == "reshape":
            size = a.size
            shapes = [(-1,), (size,), (1, size), (size, 1), (1, -1, 1)] + (
                [(a.shape[0], -1)] if nd else []) + ([(2, -1)] if size % 2 == 0 and size else [])
            return self.attempt(f"np_.reshape({x}, {self.choice(shapes)})", "exact")
        if r == "cumulative_max":
            if nd == 0:
                return None
            return self.attempt(f"np_.maximum.accumulate({x}, axis={int(self.rng.integers(nd))})",
                                "exact")
        return None

    def make_ufunc_method(self):
        """Forms added at fuzz49 (seeds from FORMS_49_FROM): ufunc methods (`accumulate`,
        `reduce` of several axes, `reduceat`, `outer`), a ufunc's `out=` of the result's dtype,
        integer arrays with Python scalars of the weak-scalar edge, and `where` whose arm
        divides (values; the at-once fuzzer checks the warnings)."""
        x = self.pick()
        a = self.np_env[x]
        f = self.choice(["add", "multiply", "maximum", "minimum", "subtract", "logical_or",
                         "bitwise_xor"])
        r = self.choice(["accumulate", "reduce", "reduceat", "outer", "out", "int_scalar",
                         "where_div"])
        kind = "exact" if f in EXACT_BINARY or f in ("maximum", "minimum") else "reduce"
        if r == "accumulate" and a.ndim:
            return self.attempt(f"np_.{f}.accumulate({x}, axis={int(self.rng.integers(a.ndim))})",
                                kind)
        if r == "reduce" and a.ndim > 1:
            axes = tuple(int(i) for i in sorted(self.rng.choice(a.ndim, 2, replace=False)))
            return self.attempt(f"np_.{f}.reduce({x}, axis={axes})", kind)
        if r == "reduceat" and a.ndim and a.shape[-1]:
            idx = sorted(int(i) for i in self.rng.integers(0, a.shape[-1], 3))
            return self.attempt(f"np_.{f}.reduceat({x}, {idx}, axis=-1)", kind)
        if r == "outer" and a.ndim <= 1:
            y = self.pick(lambda b: b.ndim <= 1)
            return self.attempt(f"np_.{f}.outer({x}, {y})", kind)
        if r == "out":
            y = self.pick(lambda b: _broadcastable(a.shape, b.shape)) or x
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                try:
                    want = getattr(np, f)(a, self.np_env[y])
                except Exception:  # noqa: BLE001
                    return None
            out = self.const(np.zeros(want.shape, want.dtype))
            return self.attempt(f"np_.{f}({x}, {y}, out=H.arr({out}))", kind)
        if r == "int_scalar" and a.dtype.kind in "iu":
            k = self.choice([-1, 1, 2, 127, 128, 255, 256, -129, 2**31, 2**63 - 1])
            op = self.choice(["+", "-", "*", "//", "%", "&", "<", "=="])
            return self.attempt(f"({x} {op} {k})", "exact")
        if r == "where_div" and a.dtype.kind in "fiu":
            y = self.pick(lambda b: _broadcastable(a.shape, b.shape) and b.dtype.kind in "fiu")
            if y is None:
                return None
            return self.attempt(f"np_.where({x} != 0, {y} / {x}, {x})", "ulp")
        return None

    def make_forms_50(self):
        """Forms added at fuzz50 (seeds from FORMS_50_FROM): argsort/argpartition/partition of
        values with many ties (`x % 3`: NumPy's unstable default orders them its own way), sort
        kinds, np.unique's return_* options and sorted=False, and integer floor division,
        remainder and shifts against Python scalars at their corners (-1, 0, the bit width,
        the type's limits) from either side."""
        x = self.pick()
        a = self.np_env[x]
        nd = a.ndim
        r = self.choice(["argsort", "argpartition", "partition", "sort", "unique", "int_corner",
                         "int_corner", "shift"])
        tied = f"({x} % 3)" if a.dtype.kind in "iuf" else x
        if r in ("argsort", "sort") and nd and a.dtype.kind != "c":
            kind = self.choice([None, "stable", "quicksort", "heapsort"])
            ax = self.choice([-1, 0, None])
            return self.attempt(f"np_.{r}({tied}, axis={ax}, kind={kind!r})", "exact")
        if r in ("argpartition", "partition") and nd and a.dtype.kind != "c" and a.shape[-1]:
            n = a.shape[-1]
            kth = int(self.rng.integers(-n, n)) if self.rng.random() < 0.7 else \
                sorted(int(k) for k in self.rng.integers(0, n, 2))
            return self.attempt(f"np_.{r}({tied}, {kth})", "exact")
        if r == "unique" and a.dtype.kind != "c":
            opts = [o for o in ("return_index", "return_inverse", "return_counts")
                    if self.rng.random() < 0.5]
            srt = bool(self.rng.random() < 0.6)
            call = f"np_.unique({tied}, {''.join(o + '=True, ' for o in opts)}sorted={srt})"
            if not opts:
                return self.attempt(call, "exact")
            return self.attempt(f"{call}[{int(self.rng.integers(len(opts) + 1))}]", "exact")
        if r == "int_corner" and a.dtype.kind in "iu":
            k = self.choice([-1, 1, 0, -3, 7, 2**31, -2**31, 2**63 - 1, 255, -128])
            op = self.choice(["//", "%"])
            safe = f"np_.where({x} == 0, 1, {x})"  # (an int divided by a 0 array: both give 0)
            if self.rng.random() < 0.5:
                return self.attempt(f"({x} {op} {k})", "exact")
            return self.attempt(f"({k} {op} {safe})", "exact")
        if r == "shift" and a.dtype.kind in "iu":
            k = self.choice([0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 65])
            op = self.choice(["<<", ">>"])
            return self.attempt(f"({x} {op} {k})" if self.rng.random() < 0.6 else
                                f"np_.{'left' if op == '<<' else 'right'}_shift({k}, "
                                f"{x} & 7)", "exact")
        return None

    def index(self, shape):
        """A random NumPy index for an array of `shape`; returns the text of the key."""
        parts = []
        dims = list(shape)
        used_adv = False
        i = 0
        while i < len(dims):
            r = self.rng.random()
            n = dims[i]
            if r < 0.15 and n:
                parts.append(str(int(self.rng.integers(-n, n))))
            elif r < 0.25 and not used_adv and n:
                k = self.const(self.rng.integers(-n, n, size=self.choice([(2,), (3,), (1, 2)])))
                parts.append(k)
                used_adv = self.rng.random() < 0.7
            elif r < 0.32 and not used_adv:
                mask_shape = tuple(dims[i:i + self.choice([1, 1, 2])])
                k = self.const(self.rng.random(mask_shape) < 0.5)
                parts.append(k)
                used_adv = True
                i += len(mask_shape)
                continue
            elif r < 0.38:
                parts.append("None")
                continue
            elif r < 0.42 and "..." not in parts:
                parts.append("...")
                i = len(dims) - int(self.rng.integers(0, len(dims) - i + 1))
                continue
            else:
                start = self.choice([None, 0, 1, -1, -2, n, n + 3, -n - 3])
                stop = self.choice([None, 0, 2, -1, n, -n - 2])
                step = self.choice([None, 1, 2, -1, -2, 3])
                parts.append(f"{'' if start is None else start}:{'' if stop is None else stop}"
                             f":{'' if step is None else step}")
            i += 1
        if self.rng.random() < 0.3 and parts:
            parts = parts[:int(self.rng.integers(0, len(parts) + 1))]
        if len(parts) == 1 and self.rng.random() < 0.5:
            return parts[0]
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def make_index(self):
        x = self.pick()
        key = self.index(self.np_env[x].shape)
        return self.attempt(f"{x}[{key}]", "exact")

    def make_update(self):
        x = self.pick(lambda a: a.ndim > 0)
        if x is None:
            return None
        a = self.np_env[x]
        key = self.index(a.shape)
        try:
            target_shape = a[eval(key, dict(self.np_env))].shape
        except Exception:  # noqa: BLE001
            target_shape = ()
        if self.rng.random() < 0.5:
            val = repr(self.scalar())
        else:
            val = self.pick(lambda b: _broadcastable_to(b.shape, target_shape)) or repr(
                self.scalar())
        if self.rng.random() < 0.5:
            return self.attempt(f"H.setitem({x}, {key}, {val})", "exact")
        how = self.choice(["set", "add", "multiply", "minimum", "maximum"])
        try:  # .at[].add of a value of a wider dtype: NumPy computes wide, JAX casts v first
            value = eval(val, dict(self.np_env))
            if np.result_type(a, value) != a.dtype:
                how = "set"
        except Exception:  # noqa: BLE001
            pass
        la_how = {"minimum": "min", "maximum": "max"}.get(how, how)
        # the numpy side spells ufunc names; the lazy side .at[].min/max
        self.np_env["H"], self.la_env["H"] = NumpyHelpers, LazyHelpers
        return self.attempt(f"H.at({x}, {key}, '{how}' if H is not H_LAZY else '{la_how}', {val})",
                            "ulp")

    def make_matmul(self):
        x = self.pick(lambda a: a.ndim >= 1)
        if x is None:
            return None
        a = self.np_env[x]
        k = a.shape[-1]
        y = self.pick(lambda b: b.ndim >= 1 and (b.shape[-2] if b.ndim > 1 else b.shape[0]) == k)
        if y is None:
            y = self.add_input(shape=(k, int(self.rng.integers(0, 4))) if self.rng.random() < 0.7
                               else (k,))
        op = self.choice(["{} @ {}", "np_.matmul({}, {})", "np_.dot({}, {})",
                          "np_.tensordot({}, {}, axes=1)"])
        return self.attempt(op.format(x, y), "matmul")

    def make_shape(self):
        x = self.pick()
        a = self.np_env[x]
        r = self.choice(["T", "transpose", "swapaxes", "ravel", "concatenate", "ones_like",
                         "full_like", "zeros", "arange", "linspace", "eye", "outer", "einsum"])
        if r == "T":
            return self.attempt(f"{x}.T", "exact")
        if r == "transpose":
            return self.attempt(f"np_.transpose({x})", "exact")
        if r == "swapaxes" and a.ndim >= 2:
            return self.attempt(f"np_.swapaxes({x}, 0, -1)", "exact")
        if r == "ravel":
            return self.attempt(f"np_.ravel({x})", "exact")
        if r == "concatenate":
            ys = [k for k in self.pool() if self.np_env[k].ndim == a.ndim]
            return self.attempt(f"np_.concatenate([{x}, {self.choice(ys)}], axis=None)", "exact")
        if r == "ones_like":
            return self.attempt(f"np_.ones_like({x})", "exact")
        if r == "full_like":
            return self.attempt(f"H.full_like({x}, {self.scalar()!r})", "exact")
        if r == "zeros":
            return self.attempt(f"np_.zeros({a.shape}, dtype='{self.choice(DTYPES)}')", "exact")
        if r == "arange":
            start, stop, step = (self.choice([0, 1, -3, 2.5, 10]), self.choice([5, -2, 7.5, 0]),
                                 self.choice([1, 2, -1, 0.5, -0.25]))
            dt = self.choice(["None", "'int32'", "'float32'", "'uint8'"])
            return self.attempt(f"np_.arange({start}, {stop}, {step}, dtype={dt})", "ulp")
        if r == "linspace":
            return self.attempt(f"np_.linspace({self.choice([0, -1.5, 2])}, "
                                f"{self.choice([1, 10, -3.0])}, {self.choice([0, 1, 5])}, "
                                f"endpoint={bool(self.rng.random() < 0.5)})", "ulp")
        if r == "eye":
            return self.attempt(f"np_.eye({self.choice([0, 1, 3])}, {self.choice([None, 2, 4])}, "
                                f"k={self.choice([0, 1, -2, 5])})", "exact")
        if r == "outer":
            y = self.pick() or x
            return self.attempt(f"np_.outer({x}, {y})", "ulp")
        if r == "einsum":
            return self.make_einsum(x, a)
        return None

    def make_einsum(self, x, a):
        """One or two operands; labels shared, repeated (diagonals), summed or kept; explicit,
        implicit or with an ellipsis; the second operand broadcasts or takes labels of its own."""
        letters = list("abcdefg"[:a.ndim])
        if a.ndim >= 2 and a.shape[0] == a.shape[1] and self.rng.random() < 0.3:
            letters[1] = letters[0]  # a diagonal
        terms, ops = ["".join(letters)], [x]
        if self.rng.random() < 0.6:
            y = self.pick(lambda b: b.ndim <= 3)
            b = self.np_env[y]
            mine = []
            for k in range(b.ndim):
                shared = [c for c, n in zip(letters, a.shape) if n == b.shape[k] or b.shape[k] == 1]
                mine.append(self.choice(shared) if shared and self.rng.random() < 0.7 else "xyz"[k])
            terms.append("".join(mine))
            ops.append(y)
        used = sorted(set("".join(terms)))
        if self.rng.random() < 0.2 and a.ndim:  # an ellipsis over x's leading axes
            terms[0] = "..." + terms[0][1:]
            used = [c for c in used if c in "".join(terms)]
        if self.rng.random() < 0.3:
            subs = ",".join(terms)
        else:
            keep = [c for c in self.rng.permutation(used) if self.rng.random() < 0.6]
            subs = ",".join(terms) + "->" + ("..." if "..." in terms[0] else "") + "".join(keep)
        return self.attempt(f"np_.einsum({subs!r}, {', '.join(ops)})", "matmul")

    def build(self) -> Program:
        for _ in range(int(self.rng.integers(1, 4))):
            self.add_input()
        if self.rng.random() < 0.5:  # a broadcasting partner
            first = self.p.inputs[next(iter(self.p.inputs))]
            self.add_input(shape=first.shape[int(self.rng.integers(0, first.ndim + 1)):])
        makers = ([self.make_unary] * 4 + [self.make_binary] * 5 + [self.make_reduction] * 3 +
                  [self.make_api] * 5 + [self.make_index] * 3 + [self.make_update] * 2 +
                  [self.make_matmul] + [self.make_shape])
        if self.seed >= FORMS_49_FROM:  # (older seeds draw as they did: reproducible)
            makers += [self.make_ufunc_method] * 2
        if self.seed >= FORMS_50_FROM:
            makers += [self.make_forms_50] * 2
        self.np_env["H_LAZY"] = self.la_env["H_LAZY"] = LazyHelpers
        self.p.consts["H_LAZY"] = LazyHelpers
        tries = 0
        while len(self.p.lines) < self.max_lines and tries < self.max_lines * 4:
            tries += 1
            self.choice(makers)()
        return self.p


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def _broadcastable_to(a, b):
    try:
        return np.broadcast_shapes(a, b) == tuple(b)
    except ValueError:
        return False


# --- checking one program --------------------------------------------------------------------------
def check_program(program: Program, modes=("steps", "final", "jit", "cut")) -> None:
    """Raise Mismatch (with the program's source) where lazyarray differs from NumPy."""
    try:
        _check(program, modes)
    except Mismatch as e:
        raise Mismatch(f"{e}\n--- program ---\n{program.source()}") from None


def _final_targets(program: Program) -> list[str]:
    used = set()
    for _, expr, _ in program.lines:
        used.update(tok for tok in _tokens(expr))
    finals = [t for t, _, _ in program.lines if t not in used]
    return finals or [program.lines[-1][0]]


def again_kind(program: Program, target: str) -> str:
    """The same values computed in another grouping: exact for integers (check_value), else within
    rounding that may compound through the program."""
    return "loose"


def _tokens(expr):
    import re
    return re.findall(r"\b[vx]\d+\b", expr)


def _check(program: Program, modes) -> None:
    if not program.lines:
        return
    targets = [t for t, _, _ in program.lines]
    lazy = run(program, lazy=True)
    la.eval(*[lazy[t] for t in targets])
    evaluated = {t: np.asarray(lazy[t]) for t in targets}
    evaluated.update(program.inputs)
    scales: dict[str, np.ndarray] = {}  # a reduction's or product's sum over |inputs|: its error scale
    numpy_env = None  # NumPy's run of the whole program, made at a step's first mismatch
    if "steps" in modes:
        for target, expr, kind in program.lines:
            env = environment(False)
            env["H_LAZY"] = LazyHelpers
            env.update(program.consts)
            env.update({k: np.array(v) for k, v in evaluated.items() if k != target})
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with np.errstate(all="ignore"):
                    want = eval(expr, env)
                    scale = None
                    if kind in ("matmul", "reduce"):
                        env.update({k: np.abs(np.array(v)).astype(np.float64) for k, v in
                                    evaluated.items() if k != target})
                        scale = eval(expr, env)
                        if kind == "matmul" and any(
                                not np.isfinite(env[n]).all() for n in _tokens(expr)):
                            scale = np.full(np.shape(want), np.inf)  # inf/nan: BLAS-dependent
                        if expr.startswith(("np_.std(", "np_.var(")):  # |x - mean| of a
                            # constant row is rounding of |x| (complex64 mean of equal values,
                            # seed 1708105): the scale is max |x| over the row (squared: var)
                            args = expr[8:].replace(", ddof=1", "")[:-1]  # (empty rows: 0)
                            mag = eval(f"np_.max({args}, initial=0)", env)
                            scale = np.maximum(scale, mag if expr[4:7] == "std" else mag * mag)
            # a value computed at once (lazyarray/eager.py) may have recomputed its pending inputs
            # through the references: the same values in another grouping, as the fused modes
            step_kind = kind if (la.get_settings().eager_size == 0 or kind in (
                "matmul", "reduce")) else again_kind(program, target)  # (those two have a scale)
            try:
                check_value(lazy[target], want, step_kind, f"`{target} = {expr}`", scale)
            except Mismatch:
                # NumPy's own value is the second answer: a value computed at once reads its
                # pending inputs through NumPy's references, where the inputs returned came from
                # a kernel (a ulp apart: tan's, seed 5235), and a step such as `//` moves a whole
                # unit on that ulp
                if numpy_env is None:
                    numpy_env = run(program, lazy=False)
                check_value(lazy[target], numpy_env[target], step_kind,
                            f"`{target} = {expr}`", scale)
            if scale is not None:
                scales[target] = scale
    finals = _final_targets(program)
    if "final" in modes:
        again = run(program, lazy=True)
        outs = [again[t] for t in finals]
        la.eval(*outs)
        for t, o in zip(finals, outs):
            check_value(o, evaluated[t], again_kind(program, t), f"{t} evaluated alone",
                        scales.get(t))
    dynamic = any(f in expr for _, expr, _ in program.lines for f in ("unique", "nonzero"))
    if "jit" in modes and not dynamic:
        names = list(program.inputs)

        def body(*arrays):
            env = run(program, lazy=True, inputs=dict(zip(names, arrays)))
            return [env[t] for t in finals]

        fn = la.jit(body)
        traced_ref: dict = {}
        for _ in range(2):  # the trace, then the stored plan
            outs = fn(*[la.asarray(program.inputs[n]) for n in names])
            for t, o in zip(finals, outs):
                try:
                    check_value(o, traced_ref.get(t, evaluated[t]), again_kind(program, t),
                                f"{t} through la.jit", scales.get(t))
                except AssertionError:
                    # la.jit traces the lazy path (nothing runs at once while tracing); the steps
                    # may have computed a value at once, which can differ within a step's own
                    # tolerance (a complex product that overflows: `reduce` at an infinite scale,
                    # seed 1035). Compare with the lazy path's own value then.
                    if traced_ref or la.get_settings().eager_size == 0:
                        raise
                    with la.config(eager_size=0):
                        plain = run(program, lazy=True)
                        la.eval(*[plain[f] for f in finals])
                        traced_ref.update({f: np.asarray(plain[f]) for f in finals})
                    check_value(o, traced_ref[t], again_kind(program, t), f"{t} through la.jit",
                                scales.get(t))
    if "cut" in modes:
        with la.config(max_graph_nodes=2):
            again = run(program, lazy=True)
            for t in finals:
                try:
                    check_value(again[t], evaluated[t], again_kind(program, t),
                                f"{t} with max_graph_nodes=2", scales.get(t))
                except Mismatch:
                    # the second answer: NumPy's step on this run's own inputs. Cut apart, an
                    # input can be a ulp from the fused run's (a float32 var summed in another
                    # order), and a float64 dot of it carries that float32 ulp (seed 9055)
                    _check_step_on_own_inputs(program, t, again, scales.get(t))


def _check_step_on_own_inputs(program: Program, target: str, values: dict, scale) -> None:
    (expr, kind), = [(e, k) for t, e, k in program.lines if t == target]
    env = environment(False)
    env["H_LAZY"] = LazyHelpers
    env.update(program.consts)
    env.update({k: np.array(np.asarray(v)) for k, v in values.items()
                if k != target and isinstance(v, (la.Array, np.ndarray, np.generic))})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            want = eval(expr, env)
    check_value(values[target], want, kind, f"{target} with max_graph_nodes=2 (own inputs)",
                scale)


def fuzz_one(seed: int, max_lines: int = 12, modes=("steps", "final", "jit", "cut")):
    """Generate and check one program; returns (program, build-time deviations)."""
    gen = Generator(seed, max_lines)
    program = gen.build()
    check_program(program, modes)
    return program, gen.deviations


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--backend", default="c")
    ap.add_argument("--lines", type=int, default=12)
    ap.add_argument("--count", type=int, default=None, help="seeds to run (instead of --seconds)")
    ap.add_argument("--modes", default="steps,final,jit,cut")
    args = ap.parse_args(argv)
    la.config(backend=args.backend, background_compiles=False)
    end = time.time() + args.seconds
    seed = args.seed
    failures = deviations = 0
    seen = set()
    while (time.time() < end) if args.count is None else seed < args.seed + args.count:
        try:
            _, devs = fuzz_one(seed, args.lines, tuple(args.modes.split(",")))
            for expr, np_err, la_err, src in devs:
                key = (type(np_err).__name__, type(la_err).__name__, _shape_of(expr))
                if key in seen:
                    continue
                seen.add(key)
                deviations += 1
                print(f"=== seed {seed}: error parity: `{expr}`\n  numpy: {np_err!r}\n  lazy:  "
                      f"{la_err!r}\n{src}\n", flush=True)
        except Exception as e:  # noqa: BLE001
            failures += 1
            msg = str(e).splitlines()[0][:200]
            key = (type(e).__name__, _shape_of(msg))
            if key not in seen:
                seen.add(key)
                print(f"=== seed {seed}: {type(e).__name__}: {e}", flush=True)
                if not isinstance(e, Mismatch):
                    traceback.print_exc(limit=-4)
                    print(Generator(seed, args.lines).build().source())
        seed += 1
    print(f"seeds {args.seed}..{seed - 1}: {failures} failing, {deviations} error-parity reports")
    return 0


def _shape_of(text: str) -> str:
    import re
    return re.sub(r"\b[vxk]\d+\b|-?\d+(\.\d+)?", "#", text)[:120]


if __name__ == "__main__":
    sys.exit(main())
