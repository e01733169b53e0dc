/* The compiled IR node's layout and the C API that lazyarray/_trace.c reaches through a capsule.
 * graph/_node.c defines them; only this header is shared, so the layering stays one-way
 * (graph/ knows nothing of lazyarray/). */
#ifndef LAZYARRAY_NODE_H
#define LAZYARRAY_NODE_H

#include <Python.h>

/* The fields of graph.node.Node, in C. Every one is a Python object, as in the pure-Python class
 * (`pending` and `key` are ints), so code that reads or writes them cannot tell the paths apart. */
typedef struct {
    PyObject_HEAD
    PyObject *op, *inputs, *attrs, *shape, *dtype, *key, *pending, *data, *site;
    PyObject *weakrefs;
    long long order; /* build order of a node with inputs, set when it is complete; 0: a leaf */
} NodeObject;

typedef struct {
    /* Node(op, inputs, attrs, shape, dtype, data, site): the same budget, cut hook and interned key
     * as the Python constructor; a new reference, or NULL with an exception set. */
    PyObject *(*build)(PyObject *op, PyObject *inputs, PyObject *attrs, PyObject *shape,
                       PyObject *dtype, PyObject *data, PyObject *site);
    /* A leaf whose key is already known (no interning, no serial, pending 0). */
    PyObject *(*leaf_with_key)(PyObject *op, PyObject *shape, PyObject *dtype, PyObject *data,
                               PyObject *site, PyObject *key);
    /* graph.node.user_site from the innermost Python frame (a new reference: a tuple or None). */
    PyObject *(*user_site)(void);
    PyTypeObject *base; /* NodeObject's type: PyObject_TypeCheck against it before a cast */
    /* fp_status.clear() and fp_status.test() (graph/_node.c's fp_clear, fp_test) without their
     * Python calls: the at-once path makes both around every op */
    void (*fp_clear)(void);
    int (*fp_test)(void);
    /* build, for a view whose key is made only when asked (its `key` attribute, a signature) */
    PyObject *(*build_keyless)(PyObject *op, PyObject *inputs, PyObject *attrs, PyObject *shape,
                               PyObject *dtype, PyObject *data, PyObject *site);
    /* A leaf handed out again (lazyarray/_trace.c's recycled element Arrays): its key made again
     * (the key table may have been cleared since) and its site set. 0, or -1 with an exception. */
    int (*reuse_leaf)(PyObject *node, PyObject *site);
} NodeCAPI;

/* (the version in the name: a _trace built against another layout does not load) */
#define NODE_CAPI_NAME "lazyarray.graph._node._C_API_4"

#endif
