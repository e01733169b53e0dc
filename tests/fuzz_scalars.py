"""A differential fuzzer of mixed-type arithmetic and edge values (fuzz54).

Each program is a few statements over arrays of every dtype (0-d, small, and past the at-once
size so they stay pending), Python scalars (NEP 50's weak ones: big ints, NaN, inf, -0.0,
complex, bool), NumPy scalars (`np.float32(1.5)`, `np.uint64(3)`), and elements and reductions
of the arrays (NumPy's scalars): binary operators and ufuncs of every family, integer division,
modulo and shifts past the width, casts of NaN and inf to integers, in-place operators (NumPy's
casting errors), `x[idx] op= v` with repeated indices, `np.add.at`, `out=` aliasing an input,
`np.where`/`np.select`/`np.choose` with broadcasting. The same text runs with `np` bound to
numpy and to lazyarray; after each statement every name is compared: dtype, shape, value (bits;
NaN's sign and payload aside), the `repr` of 0-d results (NumPy's scalar vs a 0-d array), the
RuntimeWarnings' texts and the exception's type and text.

    python tests/fuzz_scalars.py --seed 0 --count 500 [--show]
"""

from __future__ import annotations

import re
import sys
import time
import warnings

import numpy as np

import lazyarray as la

INT = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
FLOAT = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
DTYPES = ("bool",) + INT + FLOAT + COMPLEX
PY = ("0", "1", "-1", "2", "3", "7", "-5", "300", "-129", "255", "2**31", "2**63 - 1", "2**63",
      "2**64", "-2**63", "0.0", "-0.0", "0.5", "1.5", "-2.5", "1e308", "float('nan')",
      "float('inf')", "-float('inf')", "1j", "(2 - 3j)", "True", "False", "64", "65", "-70")
NPS = ("numpy.float32(1.5)", "numpy.float16(2)", "numpy.uint64(3)", "numpy.int8(-5)",
       "numpy.int64(7)", "numpy.uint8(200)", "numpy.complex64(1j)", "numpy.bool_(True)",
       "numpy.float64('nan')", "numpy.int32(-2**31)", "numpy.uint32(5)", "numpy.float32(-0.0)",
       "numpy.int16(300)", "numpy.uint16(65535)", "numpy.float64(1e300)")
BINOPS = ("+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "==", "<", ">=")
BINARY = ("add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder",
          "fmod", "power", "float_power", "left_shift", "right_shift", "bitwise_and",
          "bitwise_or", "bitwise_xor", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot",
          "copysign", "nextafter", "heaviside", "logaddexp", "logaddexp2", "ldexp", "gcd", "lcm",
          "divmod", "equal", "not_equal", "less", "greater_equal", "logical_and", "logical_xor")
UNARY = ("negative", "positive", "absolute", "invert", "sqrt", "exp", "log", "log1p", "sin",
         "cos", "tan", "arcsin", "arccos", "arctan", "arccosh", "arctanh", "sinh", "tanh",
         "sign", "floor", "ceil", "rint", "trunc", "reciprocal", "square", "cbrt", "isnan",
         "isinf", "isfinite", "signbit", "conj", "real", "imag", "angle", "exp2", "expm1",
         "log2", "log10", "deg2rad", "spacing", "fabs", "logical_not", "frexp", "modf",
         "bitwise_count", "positive")
CASTS = ("int8", "uint8", "int32", "uint32", "int64", "uint64", "float32", "float64", "bool",
         "complex64", "float16")
BIG = 5000
ORDERING = ("<", ">", "maximum", "minimum", "fmax", "fmin", "less", "greater", "heaviside",
            "copysign", "nextafter", "floor", "ceil", "trunc", "arctan2", "hypot", "logaddexp",
            "fmod", "remainder", "%", "//", "divmod", "spacing", "sign(", "rint", "frexp", "modf",
            "ldexp", "float_power", "where(", "select(", "choose(")
# ops whose results may differ from NumPy's in the last bits (docs/semantics.md's ulp table)
INEXACT = ("exp", "log", "sin", "cos", "tan", "arc", "sinh", "tanh", "cbrt", "power", "**",
           "hypot", "logaddexp", "float_power", "angle", "mean", "expm1", "exp2", "abs",
           "absolute", "reciprocal", "/")


def _values(rng, dtype: str, n: int) -> str:
    """NumPy text for `n` values of `dtype`, edges included."""
    if dtype == "bool":
        return f"numpy.random.default_rng({int(rng.integers(1000))}).random({n}) > 0.5"
    if dtype in INT:
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -300), min(int(info.max), 300)
        edge = f"[{info.min}, {info.max}, 0, -1 if {info.min} < 0 else 1, 1]"
        return (f"numpy.concatenate([numpy.array({edge}, dtype='{dtype}'), numpy.random."
                f"default_rng({int(rng.integers(1000))}).integers({lo}, {hi}, {max(n - 5, 0)}, "
                f"endpoint=True).astype('{dtype}')])[:{n}]")
    edge = "[0.0, -0.0, float('nan'), float('inf'), -float('inf'), 1e300, -2.5, 0.5]"
    base = (f"numpy.concatenate([numpy.array({edge}), numpy.random.default_rng("
            f"{int(rng.integers(1000))}).standard_normal({max(n - 8, 0)}) * 100])[:{n}]")
    if dtype in COMPLEX:
        return f"({base} + 1j * {base}[::-1]).astype('{dtype}')"
    return f"{base}.astype('{dtype}')"


class Generator:
    """A program's statements, from a seed (not run on NumPy first: errors are compared too)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.lines: list[str] = []
        self.arrays: list[str] = []
        self.complex: dict[str, bool] = {}

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def setup(self) -> None:
        for k in range(int(self.rng.integers(2, 4))):
            dtype = self.pick(DTYPES)
            n = self.pick((1, 5, 8, 12, BIG))
            shape = self.pick(((n,), (n,), "0d")) if n != BIG else (n,)
            text = _values(self.rng, dtype, 8 if shape == "0d" else n)
            if shape == "0d":
                text = f"({text})[{int(self.rng.integers(8))}].reshape(())"
            name = "ABCD"[k]
            self.complex[name] = dtype in COMPLEX
            self.lines.append(f"{name} = np.asarray({text})")
            self.arrays.append(name)

    def operand(self) -> str:
        r = self.rng.random()
        a = self.pick(self.arrays)
        if r < 0.35:
            return a
        if r < 0.6:
            return self.pick(PY)
        if r < 0.8:
            return self.pick(NPS)
        return self.pick((f"{a}[0]", f"{a}.sum()", f"{a}.max()" if not self.complex[a] else
                          f"{a}.prod()", f"{a}[-1:]", f"{a}[::-1]", f"{a}.mean()"))

    def statement(self, k: int) -> str:
        while True:
            text = self._statement(k)
            if not any(f in text for f in ORDERING) or not re.search(r"\dj", text) and not any(
                    self.complex.get(n) for n in self.arrays if n in text):
                return text  # (no ordering of complex values: documented, docs/semantics.md)

    def _statement(self, k: int) -> str:
        t = f"r{k}"
        r = self.rng.random()
        a, b = self.operand(), self.operand()
        if r < 0.3:
            return f"{t} = {a} {self.pick(BINOPS)} {b}"
        if r < 0.5:
            return f"{t} = np.{self.pick(BINARY)}({a}, {b})"
        if r < 0.65:
            return f"{t} = np.{self.pick(UNARY)}({a})"
        if r < 0.72:
            return f"{t} = np.asarray({a}).astype('{self.pick(CASTS)}')"
        if r < 0.8:
            x = self.pick(self.arrays)
            op = self.pick(("+=", "-=", "*=", "/=", "//=", "%=", "**=", "<<=", "&=", "|="))
            return f"{x} {op} {b}"
        if r < 0.86:
            x = self.pick(self.arrays)
            return self.pick((f"{x}[[0, 0, -1]] += {b}", f"np.add.at({x}, [0, 0, -1], {b})",
                              f"np.multiply({x}, {b}, out={x})", f"{x}[:] = {x}[::-1]",
                              f"np.negative({x}, out={x})", f"{x}[0] = {b}",
                              f"np.subtract.at({x}, [1, 1], {b})"))
        if r < 0.93:
            c = self.pick(self.arrays)
            return self.pick((f"{t} = np.where({c} > 0, {a}, {b})",
                              f"{t} = np.select([{c} > 0, {c} < 0], [{a}, {b}], {self.pick(PY)})",
                              f"{t} = np.choose(np.asarray({c}).astype(bool).astype(int), "
                              f"[{a}, {b}])",
                              f"{t} = np.where({c})"))
        return self.pick((f"{t} = {a}.item() if hasattr({a}, "
                          f"'item') else {a}", f"{t} = repr({a})", f"{t} = np.divmod({a}, {b})",
                          f"{t} = {a} == {b}", f"{t} = bool({a} == {b})"))

    def program(self, lines: int = 4) -> list[str]:
        self.setup()
        for k in range(lines):
            self.lines.append(self.statement(k))
        return self.lines


def _snapshot(env: dict) -> dict:
    out = {}
    for k, v in env.items():
        if k.startswith("__") or k in ("np", "numpy"):
            continue
        out[k] = _value(v)
    return out


def _value(v):
    if isinstance(v, tuple):
        return tuple(_value(x) for x in v)
    if isinstance(v, (np.ndarray, la.Array, np.generic)):
        a = np.array(np.asarray(v), copy=True)
        return ("0d", repr(v), a) if a.ndim == 0 else a
    if type(v).__name__ in ("type", "module", "function", "builtin_function_or_method"):
        return None
    return v


def _same(a, b, close: bool = False) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.tobytes() == b.tobytes():
            return True
        if a.dtype.kind not in "fc":
            return False
        if close:  # (a few ulps: the inexact ops' documented bounds)
            with np.errstate(all="ignore"):
                return bool(np.allclose(a, b, rtol=4 * np.finfo(a.dtype).eps, atol=0,
                                        equal_nan=True)) and bool(np.array_equal(
                                            np.isfinite(a), np.isfinite(b)))
        return bool(np.array_equal(a, b, equal_nan=True))  # (a NaN's sign and payload)
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) == 3 and a[:1] == ("0d",) and b[:1] == ("0d",):
            kind = a[1].split("(")[0] == b[1].split("(")[0]  # (np.float64 vs array)
            return _same(a[2], b[2], close) and (kind if close else (
                a[1] == b[1] or "nan" in a[1].lower()))
        return len(a) == len(b) and all(_same(x, y, close) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return type(a) is type(b) and a == b


def run(lines: list[str], xp, eager_size: int) -> list:
    env = {"np": xp, "numpy": np}
    results = []
    for text in lines:
        error, values = None, None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with (la.config(eager_size=eager_size) if xp is la else warnings.catch_warnings()):
                try:
                    exec(text, env)
                    values = _snapshot(env)
                except Exception as exc:  # noqa: BLE001
                    error = exc
        texts = sorted({str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)})
        results.append((error, texts, values))
        if error is not None:
            break
    return results


def _error_text(e) -> str:
    return f"{type(e).__name__}: {e}"


def compare(lines: list[str], eager_size: int) -> str | None:
    want, got = run(lines, np, eager_size), run(lines, la, eager_size)
    inexact: set[str] = set()
    for k, (w, g) in enumerate(zip(want, got)):
        where = f"line {k}: {lines[k]!r}"
        if (w[0] is None) != (g[0] is None):
            return f"{where}: NumPy {w[0]!r}, lazyarray {g[0]!r}"
        if w[0] is not None:
            if not (isinstance(g[0], type(w[0])) or isinstance(w[0], type(g[0]))):
                return f"{where}: NumPy raised {_error_text(w[0])}, lazyarray {_error_text(g[0])}"
            if str(w[0]) != str(g[0]):
                return f"{where}: NumPy's text {str(w[0])!r}, lazyarray's {str(g[0])!r}"
            return None
        if w[1] != g[1]:
            return f"{where}: NumPy warned {w[1]}, lazyarray {g[1]}"
        if any(f in lines[k] for f in INEXACT):  # (its names compare within ulps from now on)
            inexact |= {n for n in w[2] if n.startswith("r") or n in lines[k].split("=")[0]}
        for name, value in w[2].items():
            if not _same(value, g[2].get(name), name in inexact):
                return f"{where}: {name} is {value!r} in NumPy, {g[2].get(name)!r} here"
    return None


def main(argv=None) -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--lines", type=int, default=4)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args(argv)
    eager = la.get_settings().eager_size
    start, failures = time.process_time(), 0
    for seed in range(args.seed, args.seed + args.count):
        lines = Generator(seed).program(args.lines)
        if args.show:
            print("\n".join(lines), "\n")
        problem = compare(lines, eager)
        if problem:
            failures += 1
            print(f"# seed {seed}\n{problem}\n" + "\n".join(lines) + "\n", flush=True)
    took = time.process_time() - start
    print(f"{args.count} programs, {failures} differ, {took:.1f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
