"""la.lib: the parts of numpy.lib that NumPy programs reach for (`la.lib.stride_tricks`)."""

from . import stride_tricks  # noqa: F401
