"""The Dask backend: a Program as a Dask graph over chunks, each chunk run by runtime/c/'s kernels.

Imports runtime/c/ and runtime/'s shared modules; Dask itself only when used."""
