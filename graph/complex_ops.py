"""Which ops take complex inputs, and their C-family templates for complex operands.

One table says both: an elementwise op takes complex64/complex128 exactly when it has a template
here (graph/ops_elementwise.py merges them into the op's `c` mapping under the dtype kind "c"),
and a reduction when it is listed in COMPLEX_REDUCTIONS. The set is the Array API standard's (2024.12) for
complex: arithmetic, `equal`/`not_equal`, `abs`, `sign`, exponentials and logarithms, `sqrt`,
trigonometric and hyperbolic functions and their inverses, `isnan`/`isinf`/`isfinite`, `round`
(rint), `sum`/`prod`. Everything else (ordering comparisons, `maximum`, `floor`, `remainder`, ...)
raises TypeError at the user's line, as the standard asks (NumPy orders complex numbers
lexicographically; lazyarray does not).

Helpers (`la_exp_c64`, ...) are rendered by runtime/c/complex.py. Their names are letters only
before the dtype suffix (`la_expmone_c64` for expm1), as the prelude's helper-name scanner expects.
"""

from __future__ import annotations

_UNARY_HELPER = {
    "abs": "abs", "negative": "neg", "exp": "exp", "expm1": "expmone", "log": "log",
    "log1p": "logonep", "log2": "logtwo", "log10": "logten", "sqrt": "sqrt", "reciprocal": "recip",
    "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "sign": "sign", "rint": "rint", "isnan": "isnan", "isinf": "isinf",
    "isfinite": "isfinite", "conj": "conj",
}
_BINARY_HELPER = {"add": "add", "subtract": "sub", "multiply": "fmul", "divide": "div",
                  "power": "cpow"}

COMPLEX_TEMPLATES: dict[str, str] = {
    **{op: f"la_{h}_{{S}}({{0}})" for op, h in _UNARY_HELPER.items()},
    **{op: f"la_{h}_{{S}}({{0}}, {{1}})" for op, h in _BINARY_HELPER.items()},
    "positive": "{0}",
    "square": "la_fmul_{S}({0}, {0})",  # (NumPy's: its square loop is its multiply's)
    "equal": "la_eq_{S}({0}, {1})",
    "not_equal": "(!la_eq_{S}({0}, {1}))",
    "real": "({0}).re",
    "imag": "({0}).im",
}

# Ops without a dtype rule of their own (NumPy ufunc) that still take complex inputs.
COMPLEX_STRUCTURAL = frozenset({"where", "cast", "stop_gradient"})
COMPLEX_REDUCTIONS = frozenset({"sum", "prod", "dot_sum", "sum_buffered", "vecdot_sum",
                                "prod_columns"})


def with_complex(name: str, c):
    """The op's C template mapping with its complex template (kind "c") added, if it has one."""
    template = COMPLEX_TEMPLATES.get(name)
    if template is None or c is None:
        return c
    if isinstance(c, str):
        c = {"*": c}
    return {**c, "c": template}


def supports_complex(op) -> bool:
    """Whether `op` is defined for complex inputs (see the module docstring)."""
    return (op.name in COMPLEX_TEMPLATES or op.name in COMPLEX_STRUCTURAL
            or op.name in COMPLEX_REDUCTIONS
            or (op.kind.value == "elementwise" and isinstance(op.c, dict) and "c" in op.c))
