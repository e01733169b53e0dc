"""The C backend: kernel IR -> C source (printer, prelude, own math) -> system compiler -> cffi.

Imports the shared modules of runtime/ (backend protocol, plans, fp flags, caches), never
runtime/cuda/ or runtime/dask/."""
