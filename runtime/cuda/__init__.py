"""The CuPy backend: the CUDA dialect of runtime/c/'s printer, compiled with NVRTC.

Imports runtime/c/ (the shared C-family printer, layout and prelude) and runtime/'s shared
modules; CuPy itself only when used."""
