"""A differential fuzzer of function signatures (fuzz56).

Each program defines a few inputs (arrays of every dtype, 0-d, empty, non-contiguous views, edge
values) and then calls one public name the many ways users do: every name that both `numpy` and
`lazyarray` export (ufuncs, functions, `linalg.*`, `fft.*`) and every ndarray method, with
positional inputs drawn from Python scalars, lists (ragged too), tuples, NumPy scalars and the
arrays, and keywords drawn by the parameter's name from NumPy's own signature (axis None / int /
negative / tuple / duplicate / out of range, keepdims, dtype= of every dtype, out= of the right
and wrong shape or dtype or aliasing an input, where=, initial=, order=, casting=, ddof=, bins=,
side=, kind=, mode=, copy=), plus wrong things (a str, None, a dict, an unknown keyword, one
argument too many). The same text runs with `np` bound to numpy and to lazyarray; compared: the
result's kind (NumPy scalar, 0-d array, array, tuple, list, Python scalar), dtype, shape, value
(bits; NaN aside; a few ulps for inexact functions), the exception's type and text, the
RuntimeWarnings, and the inputs after the call (mutated or not).

    python tests/fuzz_signatures.py --seed 0 --count 300 [--eager-size 0] [--backend c] [--out]
"""

from __future__ import annotations

import inspect
from typing import Any
import re
import sys
import time
import warnings

import numpy as np

import lazyarray as la

DTYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128")
SHAPES = ((), (0,), (2, 0), (5,), (3, 4), (2, 3, 2), (1, 4))
SCALARS = ("0", "1", "-1", "2", "3", "1.5", "-0.0", "float('nan')", "float('inf')", "True",
           "1j", "2**63", "-2**63", "numpy.float32(2.5)", "numpy.int8(-3)", "numpy.uint64(7)",
           "numpy.float16(1)", "numpy.bool_(False)", "numpy.complex64(1-1j)")
LISTS = ("[1, 2, 3]", "[[1, 2], [3, 4]]", "[1.5, -2.0, float('nan')]", "(1, 2, 3)", "[]",
         "[[1, 2], [3]]", "[True, False, True]", "[1, 2.5, 3j]", "[[0.5, 1], [2, 3], [4, 5]]",
         "[2**64, 1]", "[-1, 0, 1]")
WRONG = ("'abc'", "None", "{}", "object()", "[1, 'a']")
KEY_VALUES = {
    "axis": ("None", "0", "1", "-1", "-2", "2", "5", "-4", "(0,)", "(0, 1)", "(0, 0)", "(-1, 0)",
             "()", "1.0", "'x'", "numpy.int64(0)", "[0]"),
    "keepdims": ("True", "False", "None", "1"),
    "order": ("'C'", "'F'", "'A'", "'K'", "'Z'", "None"),
    "casting": ("'no'", "'equiv'", "'safe'", "'same_kind'", "'unsafe'", "'bogus'"),
    "ddof": ("0", "1", "2", "-1", "1.5", "5"),
    "correction": ("0", "1", "1.5"),
    "bins": ("3", "[0, 1, 2]", "'auto'", "0", "-1", "2.5", "[2, 1]"),
    "side": ("'left'", "'right'", "'middle'"),
    "kind": ("None", "'quicksort'", "'stable'", "'mergesort'", "'heapsort'", "'bogus'"),
    "mode": ("'raise'", "'wrap'", "'clip'", "'valid'", "'same'", "'full'", "'constant'",
             "'reflect'", "'edge'", "'bogus'", "'reduced'", "'complete'", "'r'"),
    "copy": ("True", "False", "None"),
    "initial": ("None", "0", "5", "-1.5", "True", "numpy.inf"),
    "where": ("True", "False", "[True, False, True]", "W"),
    "decimals": ("0", "1", "-1", "2"),
    "n": ("None", "0", "1", "2", "3", "-1", "8"),
    "k": ("0", "1", "-1", "2"),
    "norm": ("None", "'ortho'", "'forward'", "'backward'", "'bogus'"),
    "ord": ("None", "1", "2", "-1", "numpy.inf", "-numpy.inf", "'fro'", "'nuc'", "0", "3"),
    "q": ("50", "[25, 75]", "0.5", "[0.1, 0.9]", "150", "-1"),
    "method": ("'linear'", "'lower'", "'higher'", "'midpoint'", "'nearest'", "'bogus'"),
    "weights": ("None", "[1, 2, 3]", "A"),
    "return_counts": ("True", "False"),
    "return_index": ("True", "False"),
    "return_inverse": ("True", "False"),
    "equal_nan": ("True", "False"),
    "stable": ("True", "False", "None"),
    "endpoint": ("True", "False"),
    "retstep": ("True", "False"),
    "num": ("0", "1", "5", "-1", "2.5"),
    "repeats": ("2", "[1, 2]", "0", "-1"),
    "shape": ("(3,)", "(2, 3)", "-1", "()", "(0,)", "(2, -1)"),
    "newshape": ("(3,)", "-1"),
    "dtype": None,  # (every dtype, below)
    "out": None,  # (built from the inputs, below)
}
DTYPE_VALUES = tuple(f"'{d}'" for d in DTYPES) + ("None", "int", "float", "complex", "bool",
                                                  "numpy.float32", "'f8'", "'i4'", "'bogus'")
GENERIC = ("0", "1", "-1", "2", "None", "1.5", "True", "'x'", "[1, 2]", "A", "B", "(0, 1)")
# results that may differ in the last bits (docs/semantics.md's ulp table), compared within ulps
INEXACT = re.compile(r"exp|log|sin|cos|tan|sqrt|cbrt|pow|hypot|mean|std|var|average|linalg|"
                     r"fft|angle|reciprocal|divide|/|corrcoef|cov|quantile|percentile|median|"
                     r"interp|polyfit|roots|i0|sinc|gradient|trapezoid|kaiser|convolve|correlate|"
                     r"dot|matmul|@|inner|outer|tensordot|einsum|vdot|vecdot|matvec|vecmat|"
                     r"kron|sum|prod|cumsum|cumprod|trace|cross|polyval|polymul|polydiv|"
                     r"histogram|geomspace|logspace|unwrap|float_power|round|around")
SKIP = {"load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
        "fromfile", "fromregex", "info", "seterr", "seterrcall", "set_printoptions", "printoptions",
        "geterr", "geterrcall", "get_printoptions", "from_dlpack", "frombuffer", "fromiter",
        "fromstring", "fromfunction", "apply_along_axis", "apply_over_axes", "piecewise",
        "einsum_path", "empty", "empty_like", "copyto", "place", "put", "putmask", "fill_diagonal",
        "put_along_axis", "resize", "typename", "mask_indices"}
METHOD_SKIP = {"base", "ctypes", "data", "dump", "dumps", "tofile", "flags", "setflags", "flat",
               "device", "to_device", "getfield", "setfield", "byteswap", "resize", "put", "fill",
               "strides", "view"}


def public_names() -> list[str]:
    """The callable names both namespaces export (functions, ufuncs, linalg.*, fft.*)."""
    names = []
    for n in sorted(dir(np)):
        if n.startswith("_") or n in SKIP or not hasattr(la, n):
            continue
        f = getattr(np, n)
        if callable(f) and not isinstance(f, type):
            names.append(n)
    for mod in ("linalg", "fft"):
        for n in sorted(dir(getattr(np, mod))):
            if not n.startswith("_") and hasattr(getattr(la, mod), n) and callable(
                    getattr(getattr(np, mod), n)) and not isinstance(getattr(getattr(np, mod), n),
                                                                     type):
                names.append(f"{mod}.{n}")
    return names


def method_names() -> list[str]:
    """The ndarray methods and properties lazyarray's Array has."""
    return [n for n in dir(np.ndarray) if not n.startswith("_") and n not in METHOD_SKIP
            and hasattr(la.Array, n)]


def _signature(name: str):
    """NumPy's parameters of `name` (a ufunc's: its inputs and its keywords)."""
    obj = np
    for part in name.split("."):
        obj = getattr(obj, part)
    if isinstance(obj, np.ufunc):
        params = [inspect.Parameter(f"x{k}", inspect.Parameter.POSITIONAL_ONLY)
                  for k in range(obj.nin)]
        return params + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None)
                         for k in ("out", "where", "dtype", "casting", "order")]
    try:
        return list(inspect.signature(obj).parameters.values())
    except (TypeError, ValueError):
        return None


def _values(rng, dtype: str, n: int) -> str:
    """NumPy text for `n` values of `dtype`, edges included."""
    seed = int(rng.integers(1000))
    if dtype == "bool":
        return f"(numpy.random.default_rng({seed}).random({n}) > 0.5)"
    if dtype[0] in "iu":
        info = np.iinfo(dtype)
        edge = f"[{info.max}, 0, 1, {info.min}, 2]"
        return (f"numpy.concatenate([numpy.random.default_rng({seed}).integers(0, 9, {n}), "
                f"numpy.array({edge})])[:{n}][::-1].astype('{dtype}')")
    edge = "[0.5, -0.0, float('nan'), float('inf'), -float('inf'), 3.0, -2.5]"
    base = (f"numpy.concatenate([numpy.random.default_rng({seed}).standard_normal({n}) * 3, "
            f"numpy.array({edge})])[:{n}]")
    if rng.random() < 0.5:
        base = f"numpy.concatenate([numpy.array({edge}), {base}])[:{n}]"
    if dtype.startswith("complex"):
        return f"({base} + 1j * {base}[::-1]).astype('{dtype}')"
    return f"{base}.astype('{dtype}')"


class Generator:
    """One program: the inputs' lines and one call, from a seed."""

    def __init__(self, seed: int, names: list[str], methods: list[str]):
        self.rng = np.random.default_rng(seed)
        self.names, self.methods = names, methods
        self.lines: list[str] = []
        self.shapes: dict[str, tuple] = {}
        self.dtypes: dict[str, str] = {}

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def setup(self) -> None:
        for name in "AB":
            dtype = self.pick(DTYPES if self.rng.random() < 0.5 else (
                "float64", "int64", "float32", "bool", "complex128"))
            shape = self.pick(SHAPES)
            n = int(np.prod(shape, dtype=int))
            view = shape != () and n > 1 and self.rng.random() < 0.25
            size = n * 2 if view else n
            text = f"{_values(self.rng, dtype, size)}.reshape({shape[:-1] + (shape[-1] * 2,) if view else shape})"
            text = f"np.asarray({text})"
            if view:
                text += "[..., ::2]" if self.rng.random() < 0.5 else "[..., ::-2]"
            self.lines.append(f"{name} = {text}")
            self.shapes[name], self.dtypes[name] = shape, dtype
        self.lines.append("W = np.asarray(numpy.arange(A.size).reshape(A.shape) % 3 == 0)")

    def operand(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return self.pick(("A", "A", "B", "A.T", "A[::-1]" if self.shapes["A"] else "A"))
        if r < 0.75:
            return self.pick(SCALARS)
        if r < 0.95:
            return self.pick(LISTS)
        return self.pick(WRONG)

    def out_value(self) -> str:
        shape = self.pick((self.shapes["A"], self.shapes["B"], (3,), ()))
        dtype = self.pick(("float64", "int64", "float32", "bool", "complex128",
                           self.dtypes["A"]))
        return self.pick((f"np.asarray(numpy.zeros({shape}, '{dtype}'))", "A", "B",
                          f"(np.asarray(numpy.zeros({shape}, '{dtype}')),)", "[1, 2]"))

    def keyword(self, name: str) -> str:
        if name == "dtype":
            return self.pick(DTYPE_VALUES)
        if name == "out":
            return self.out_value()
        if name in KEY_VALUES:
            return self.pick(KEY_VALUES[name])
        return self.pick(GENERIC)

    def call_args(self, params, skip_first: bool) -> tuple[list[str], list[str]]:
        pos, kw = [], []
        P = inspect.Parameter
        params = params[1:] if skip_first else params
        for p in params:
            if p.kind in (P.VAR_POSITIONAL,):
                for _ in range(int(self.rng.integers(0, 3))):
                    pos.append(self.operand())
                continue
            if p.kind is P.VAR_KEYWORD:
                continue
            required = p.default is P.empty
            if required:
                value = self.operand() if p.name not in KEY_VALUES and p.name not in (
                    "dtype", "out") else self.keyword(p.name)
                if p.kind is P.KEYWORD_ONLY or (self.rng.random() < 0.1 and
                                                p.kind is P.POSITIONAL_OR_KEYWORD):
                    kw.append(f"{p.name}={value}")
                elif not kw:
                    pos.append(value)
            elif self.rng.random() < 0.35:
                value = self.keyword(p.name)
                if p.kind is P.POSITIONAL_OR_KEYWORD and not kw and self.rng.random() < 0.3 \
                        and len(pos) == params.index(p):
                    pos.append(value)
                elif p.kind is not P.POSITIONAL_ONLY:
                    kw.append(f"{p.name}={value}")
        r = self.rng.random()
        if r < 0.04:
            kw.append("bogus_keyword=1")
        elif r < 0.08 and not kw:
            pos.append(self.operand())
        return pos, kw

    def call(self) -> str:
        if self.rng.random() < 0.25:
            name = self.pick(self.methods)
            attr = getattr(np.ndarray, name)
            if not callable(attr):
                return f"R = {self.pick(('A', 'B', 'A.T'))}.{name}"
            params = _signature(name) if hasattr(np, name) else None
            if params is None:
                pos, kw = [self.keyword("axis")] if self.rng.random() < 0.3 else [], []
            else:
                pos, kw = self.call_args(params, skip_first=True)
            return f"R = {self.pick(('A', 'B', 'A.T'))}.{name}({', '.join(pos + kw)})"
        name = self.pick(self.names)
        params = _signature(name)
        if params is None:
            return f"R = np.{name}({', '.join(self.operand() for _ in range(2))})"
        pos, kw = self.call_args(params, skip_first=False)
        return f"R = np.{name}({', '.join(pos + kw)})"

    def program(self) -> list[str]:
        self.setup()
        self.lines.append(self.call())
        return self.lines

    def with_out(self, lines: list[str]) -> list[str] | None:
        """The program again with `out=` of NumPy's result's shape (a dtype drawn, or an input
        of that shape: aliasing), where the call takes `out=` and NumPy's result is an array."""
        call = lines[-1]
        if "out=" in call or not call.endswith(")") or "(" not in call:
            return None
        env = {"np": np, "numpy": np}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for text in lines:
                    exec(text, env)
        except Exception:  # noqa: BLE001
            return None
        r = env.get("R")
        if not isinstance(r, np.ndarray) or r.ndim == 0:
            return None
        name = call[len("R = np."):call.index("(")] if call.startswith("R = np.") else None
        params = _signature(name) if name else None
        if params is None or "out" not in [p.name for p in params]:
            return None
        same = [n for n in ("A", "B") if env[n].shape == r.shape]
        dtype = self.pick((str(r.dtype),) * 3 + ("float64", "int64", "float32", "complex128",
                                                  "bool", "int8"))
        out = self.pick(same) if same and self.rng.random() < 0.4 else (
            f"np.asarray(numpy.zeros({r.shape}, '{dtype}'))")
        if self.rng.random() < 0.3:
            out = f"({out},)"
        return lines[:-1] + [call[:-1] + (", " if call[-2] != "(" else "") + f"out={out})"]


# --- running and comparing ---------------------------------------------------------------------
def _kind(v) -> str:
    """NumPy scalar, 0-d array, array, tuple, list, or the Python type's name."""
    if isinstance(v, (np.ndarray, la.Array)):
        if v.ndim == 0:
            r = repr(v)
            return "scalar" if r.startswith("np.") else "0d"
        return "array"
    if isinstance(v, np.generic):
        return "scalar"
    return type(v).__name__ if not isinstance(v, tuple) else "tuple"


def _value(v):
    if isinstance(v, (np.ndarray, la.Array, np.generic)):
        return (_kind(v), np.array(np.asarray(v), copy=True))
    if isinstance(v, (tuple, list)):
        return (_kind(v), [_value(x) for x in v])
    if isinstance(v, (bool, int, float, complex, str, type(None))):
        return (type(v).__name__, v)
    if hasattr(v, "_fields") or type(v).__name__.endswith("Result"):
        return ("tuple", [_value(x) for x in v])
    return (type(v).__name__, None)


def _same(a, b, close: float) -> bool:
    if a[0] != b[0] and not ({a[0], b[0]} <= {"tuple", "list"} and False):
        return False
    a, b = a[1], b[1]
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.tobytes() == b.tobytes() or a.dtype.kind not in "fc":
            return a.tobytes() == b.tobytes()
        if np.array_equal(a, b, equal_nan=True):
            return True
        if not close:
            return False
        with np.errstate(all="ignore"):
            tol = 64 * max(np.finfo(a.dtype).eps, close)
            return bool(np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True))
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y, close) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return a == b


def run(lines: list[str], xp, eager_size: int, backend: str) -> tuple:
    env = {"np": xp, "numpy": np}
    error, values = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for text in lines[:-1]:
            exec(text, env)
        before = len(caught)
        with (la.config(eager_size=eager_size, backend=backend) if xp is la
              else warnings.catch_warnings()):
            try:
                exec(lines[-1], env)
                values = {k: _value(env[k]) for k in ("R", "A", "B") if k in env}
            except Exception as exc:  # noqa: BLE001
                error = exc.with_traceback(None)  # (its frames held the call's pending values)
                values = {k: _value(env[k]) for k in ("A", "B")}
        try:  # (reading the record list computes what the call left pending: an error of a
            # value the call built, not in a try block of the user's file, is raised there)
            records = list(caught[before:])
        except Exception as exc:  # noqa: BLE001
            error, records = error or exc.with_traceback(None), []
        texts = sorted({f"{w.category.__name__}: {w.message}" for w in records
                        if not issubclass(w.category, DeprecationWarning)})
    return error, texts, values


def compare(lines: list[str], eager_size: int, backend: str = "auto") -> str | None:
    """None when NumPy and lazyarray agree on the program's last line; else the difference."""
    if _NUMPY_CRASHES.search(lines[-1]):
        return "NumPy segfaults: an accumulation into a 0-d out (NumPy 2.4; test_fuzz57)"
    try:
        want = run(lines, np, eager_size, backend)
    except Exception as exc:  # noqa: BLE001
        return f"generator: NumPy failed in setup: {exc!r}"
    try:
        got = run(lines, la, eager_size, backend)
    except Exception as exc:  # noqa: BLE001
        return f"lazyarray failed in setup: {exc!r}"
    call = lines[-1]
    if (want[0] is None) != (got[0] is None):
        return f"error: NumPy {want[0]!r}, lazyarray {got[0]!r}"
    if want[0] is not None:
        w, g = want[0], got[0]
        if not (isinstance(g, type(w)) or isinstance(w, type(g))):
            return f"error type: NumPy {type(w).__name__}: {w}, lazyarray {type(g).__name__}: {g}"
        if str(w) != str(g):
            return f"error text: NumPy {str(w)!r}, lazyarray {str(g)!r}"
    if want[1] != got[1]:
        return f"warnings: NumPy {want[1]}, lazyarray {got[1]}"
    # (within ulps of the narrowest float the program computes in: `exp2(x, dtype=float32,
    # out=complex128_array)` is float32's exp2, by NumPy's loop and by this library's)
    text = "\n".join(lines)
    narrow = [np.finfo(t).eps for t in ("float16", "float32", "float64") if t in text]
    close = (narrow[0] if narrow else np.finfo(np.float64).eps) if INEXACT.search(call) else 0.0
    masked = _where_without_out(lines, want[1])
    for name, value in want[2].items():
        other = got[2].get(name, ("missing", None))
        if name == "R" and masked is not None:
            value, other = _selected(value, other, masked)
        if name == "R" and "unique_values(" in call and isinstance(value[1], np.ndarray):
            value = (value[0], np.sort(value[1]))  # (sorted here: docs/numpy_coverage.md)
        if not _same(value, other, close):
            return f"{name}: NumPy {value!r}, lazyarray {got[2].get(name)!r}"
    return None


_WHERE = re.compile(r"\bwhere=(True|False|W|\[True, False, True\])")


def _where_without_out(lines: list[str], warned: list[str]) -> Any:
    """A ufunc's `where=` mask where NumPy warned "'where' used without 'out'": its other
    elements are uninitialized memory there, 0 here (docs/semantics.md), so only the selected
    ones are compared (they were a third of the 'SILENT: value' tally)."""
    found = _WHERE.search(lines[-1])
    if found is None or not any("'where' used without 'out'" in w for w in warned):
        return None
    env = {"np": np, "numpy": np}
    for text in lines[:-1]:
        exec(text, env)
    return np.asarray(eval(found.group(1), env))


def _selected(want: tuple, got: tuple, mask: Any) -> tuple[tuple, tuple]:
    """The NumPy and lazyarray results with the unselected elements zeroed in NumPy's (where
    lazyarray's are its documented zeros: others stay, and differ)."""
    w, g = want[1], got[1]
    if not (isinstance(w, np.ndarray) and isinstance(g, np.ndarray) and w.shape == g.shape):
        return want, got
    try:
        keep = np.broadcast_to(mask, w.shape)
    except ValueError:
        return want, got
    w = w.copy()
    w[~keep] = 0
    return (want[0], w), got


# lazyarray's documented refusals (docs/numpy_coverage.md, docs/semantics.md): object and string
# arrays, the ops NumPy does not define for complex either (floor, remainder, ...)
# (NumPy 2.4's accumulate crashes the interpreter on a 0-d out: the program is not run)
_NUMPY_CRASHES = re.compile(r"cum\w*\(.*out=\(?np\.asarray\(numpy\.zeros\(\(\),")
DOCUMENTED = ("NumPy segfaults", "unsupported dtype object", "unsupported dtype <U",
              "for complex inputs",
              "histogram of complex values")


def category(problem: str) -> str:
    """The class of a difference: silent (a value, dtype, kind) or about errors/warnings."""
    if any(d in problem for d in DOCUMENTED):
        return "documented"
    if problem.startswith("error: NumPy None"):
        return "la raises, NumPy does not"
    if problem.startswith("error: "):
        return "SILENT: NumPy raises, la does not"
    if problem.startswith(("error type", "error text", "warnings", "lazyarray failed")):
        return problem.split(":")[0]
    return "SILENT: value"


def main(argv=None) -> None:
    import argparse
    import collections
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--eager-size", type=int, default=la.get_settings().eager_size)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--only", default="", help="a regex the call must match")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="print only the tally")
    parser.add_argument("--out", action="store_true",
                        help="each call again with out= of NumPy's result's shape")
    args = parser.parse_args(argv)
    names, methods = public_names(), method_names()
    start, tally, runs = time.process_time(), collections.Counter(), 0
    for seed in range(args.seed, args.seed + args.count):
        lines = Generator(seed, names, methods).program()
        if args.only and not re.search(args.only, lines[-1]):
            continue
        runs += 1
        if args.show:
            print("\n".join(lines), "\n")
        problem = compare(lines, args.eager_size, args.backend)
        if not problem and args.out:
            variant = Generator(seed, names, methods).with_out(lines)
            if variant is not None:
                lines, problem = variant, compare(variant, args.eager_size, args.backend)
        if problem:
            tally[category(problem)] += 1
            if not args.quiet and category(problem) != "documented":
                print(f"# seed {seed}: {lines[-1]}\n{problem[:600]}\n", flush=True)
    took = time.process_time() - start
    print(f"{runs} programs, {sum(tally.values())} differ, {took:.1f} s CPU; {dict(tally)}")


if __name__ == "__main__":
    main(sys.argv[1:])
