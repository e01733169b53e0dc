"""The IR: nodes, the op registry, graphs and their signatures. Imports nothing above it."""

from . import ops_elementwise, ops_structure  # noqa: F401  (registration side effects)
from . import ops_fft, ops_linalg, ops_random  # noqa: F401,E402  (library calls, in-kernel random)
from . import ops_complex  # noqa: F401,E402  (registration: conj, real, imag)
from . import ops_sorting  # noqa: F401,E402  (argsort, searchsorted, isin, cumprod)
from . import ops_unchecked  # noqa: F401,E402  (the dot functions' multiply, add, sum, matmul)
from . import ops_buffered  # noqa: F401,E402  (sum of an operand NumPy casts in buffers)
from . import ops_columns  # noqa: F401,E402  (complex products NumPy runs row by row)
from . import ops_einsum  # noqa: F401,E402  (one-operand einsum sums in NumPy's order)
from .dtypes import SUPPORTED, to_dtype
from .node import Node, user_site
from .graph import Graph, topological_order
from .registry import OpDef, OpKind, all_ops, get_op

__all__ = ["Graph", "topological_order", "Node", "OpDef", "OpKind", "SUPPORTED", "all_ops", "get_op", "to_dtype", "user_site"]
