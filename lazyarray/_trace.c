/* lazyarray._trace: the operators', unary functions' and basic indexing's common case, compiled.
 *
 * Why C: `a + b` on two small Arrays took ~1.2 us in Python: the operator method, `user_site`,
 * `_bind.binary` (loop cache, shape check, weak-scalar leaf), `Node(...)` and `Array(...)` (its
 * weak reference for the cuts). Here the whole of it is one C call into graph/_node.c's
 * constructor (reached through its capsule; graph/ never imports lazyarray/).
 *
 * Only the common case is here, and it decides before it builds anything:
 *   Array op Array      `_bind._LOOPS` already knows the loop with no cast needed, and the shapes
 *                       are equal or their broadcast is in `_bind._BROADCASTS`;
 *   Array op scalar     a Python float/int/bool whose side of the loop is float32/float64 (no int
 *                       range check, no complex leaf) and whose scalar-leaf key is cached
 *                       (`_bind._SCALAR_KEYS`);
 *   unary(Array)        `_LOOPS` knows the loop and the input needs no cast;
 *   Array[key]          a key of Python ints in range, slices of Python ints or None, None and
 *                       one Ellipsis (below, "basic indexing").
 * Anything else returns to the Python path (the operator's Python method, or None from
 * `unary`/`binary` so the caller runs `_bind`), which does the same thing with every rule; so the
 * two paths build identical graphs: the same nodes, keys, sites and pending counts
 * (tests/test_trace_paths.py). Everything runs under the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#include "_node.h"
#include <float.h>
#include <math.h>
#include <limits.h>
#include <stdint.h>

static NodeCAPI *NODE; /* graph/_node.c */

/* --- lazyarray's tables, bound once by install() (strong references) -------------------------- */
static PyTypeObject *ARRAY;      /* lazyarray.array.Array */
static Py_ssize_t NODE_OFFSET;   /* where its `_node` slot lives in the object */
static Py_ssize_t VIEW_OFFSET;   /* and its `_view` slot (lazyarray/writes.py: write links) */
static PyObject *LIVE;           /* cuts._LIVE: weak references to pending Arrays */
static PyObject *LIVE_LIMIT;     /* cuts._LIMIT: [length past which LIVE is pruned] */
static PyObject *PRUNE;          /* cuts._prune */
static PyObject *LOOPS;          /* _bind._LOOPS: (op, dtype or scalar type, ...) -> loop dtypes */
static PyObject *SCALAR_KEYS;    /* _bind._SCALAR_KEYS: (dtype, shape) -> key of the scalar leaf */
static PyObject *BUDGET;         /* graph.node._BUDGET: [limit, cut hook] */
static PyObject *SCALAR_OP;      /* the `scalar` OpDef */
static PyObject *SCALAR_DTYPES;  /* tuple: loop dtypes a weak scalar may take here (float32/64) */
static PyObject *BROADCASTS;     /* _bind._BROADCASTS: (shape, shape) -> their broadcast shape */
static PyObject *BROADCAST_OP;   /* the `broadcast_to` OpDef */
static PyObject *EMPTY;          /* () */
static int ENABLED = 1;          /* set_enabled(False): every call takes the Python path (tests) */
/* lazyarray/eager.py, bound by install_eager(): small values read out of computed arrays run at
 * once. EAGER_LIMIT is eager.LIMIT ([elements]; 0: off), EAGER_HOOK eager.run_candidate. */
static PyObject *EAGER_LIMIT, *EAGER_HOOK, *EAGER_MARK, *EAGER_VIEW_OPS, *CAST_OP;
static PyObject *EAGER_SEED_OPS; /* ops whose result is an indexed read (take) */
static PyObject *EAGER_ELEMENT;  /* eager.element: an element read computed now, or None */
static PyObject *EAGER_PAUSED;   /* cache.PAUSED: [open busy/tracing blocks] */
static PyObject *INPUT_OP, *NP_ASARRAY, *EMPTY_SHAPE; /* element_now's leaf */
static PyObject *FLOAT64_DTYPE; /* np.dtype("float64"): install_setitem() */
/* one_op_now: NumPy's error-state context variable and its 'call' mode value (fp_status), the
 * flags' clear and test, and eager.finish_one for results that need more than a leaf */
static PyObject *EXTOBJ_VAR, *CALL_MODE, *FP_CLEAR, *FP_TEST, *EAGER_FINISH;
/* FP_CLEAR and FP_TEST are graph/_node.c's own (fp_status' compiled path): call_checked calls
 * them through NODE, without a Python call each (~0.1 us of an op) */
static int FP_DIRECT;

/* The four operators with a C method each: the OpDef and the Python methods to fall back on. */
enum { ADD, SUB, MUL, DIV, N_OPERATORS };
static PyObject *OPERATOR_OP[N_OPERATORS];
static PyObject *FALLBACK[N_OPERATORS][2]; /* [forward, reflected] */

#define NODE_OF(array) (*(PyObject **)((char *)(array) + NODE_OFFSET))
#define VIEW_OF(array) (*(PyObject **)((char *)(array) + VIEW_OFFSET))

static int
is_view_op(PyObject *op)
{
    Py_ssize_t n = PyTuple_GET_SIZE(EAGER_VIEW_OPS);
    for (Py_ssize_t k = 0; k < n; k++)
        if (PyTuple_GET_ITEM(EAGER_VIEW_OPS, k) == op)
            return 1;
    return 0;
}

/* eager.run_now's cheap tests in C (1: call it; 0: stay lazy; -1: error): the rule is on, the
 * node is small and no view, and an input is an indexed read (a view op over something) or an
 * eager result, through casts and broadcasts. */
static PyTypeObject *NDARRAY_TYPE; /* numpy.ndarray, recorded the first time one is seen */

static int
is_ndarray(PyObject *x)
{
    if (x == NULL)
        return 0;
    if (NDARRAY_TYPE != NULL)
        return Py_TYPE(x) == NDARRAY_TYPE;
    if (strcmp(Py_TYPE(x)->tp_name, "numpy.ndarray") != 0)
        return 0;
    NDARRAY_TYPE = Py_TYPE(x); /* (a static type of NumPy's: it lives as long as the process) */
    return 1;
}

/* NumPy's array object: its leading fields as numpy/ndarraytypes.h's `PyArrayObject_fields` lays
 * them out (NumPy's ABI keeps this layout: extensions built against NumPy 1.x run on 2.x). Read
 * directly, they spare the at-once path its attribute lookups (`a.flags` makes an object per read;
 * ~0.25 us an op for dtype, base, flags and shape). `check_array_fields` tests the layout on probe
 * arrays at install; where it does not match, ARRAY_FIELDS stays 0 and the attribute path runs. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} NumpyArrayFields;
enum { NPY_FLAG_C_CONTIGUOUS = 0x0001, NPY_FLAG_OWNDATA = 0x0004, NPY_FLAG_WRITEABLE = 0x0400 };
static int ARRAY_FIELDS; /* the probes matched the layout */
static PyObject *COPY_NAME; /* "copy" (interned once the fields are checked) */
#define FIELDS(a) ((NumpyArrayFields *)(a))

/* Two functions of NumPy's C API, reached through its capsule (numpy._core._multiarray_umath
 * ._ARRAY_API, whose table order is NumPy's ABI: slots 94 and 282): a view whose dims, strides
 * and address are known here becomes NumPy's array in one call (numpy_view), where indexing
 * made a key of slices for NumPy to parse (~0.15 us a view). load_numpy_api checks them on a
 * probe; NULL where it did not (indexing's way then). */
typedef PyObject *(*NewFromDescrFn)(PyTypeObject *, PyObject *, int, const Py_ssize_t *,
                                    const Py_ssize_t *, void *, int, PyObject *);
typedef int (*SetBaseObjectFn)(PyObject *, PyObject *);
static NewFromDescrFn NP_NEW_FROM_DESCR;
static PyObject *NP_ADD, *NP_SUBTRACT, *NP_MULTIPLY, *NP_DIVIDE; /* small_float_loop's */
static PyObject *NP_MATMUL, *NP_DOT_FN; /* `x @ y` and np.dot of vectors at once (dot_now) */
/* NumPy's float64 dot function (the dtype's ArrFuncs `dotfunc`: BLAS's ddot where the strides
 * allow, else its loop), which np.dot and np.matmul of two vectors call: dot_direct */
typedef void (*DotFn)(void *, Py_ssize_t, void *, Py_ssize_t, void *, Py_ssize_t, void *);
static DotFn NP_DOUBLE_DOT;
static SetBaseObjectFn NP_SET_BASE;

/* NumPy's view of `root`'s memory at `data` with these dims and strides (writeable as root is),
 * root its base: a new reference, or NULL on error. */
static PyObject *
numpy_view(PyObject *root, int nd, const Py_ssize_t *dims, const Py_ssize_t *strides, char *data)
{
    PyObject *descr = Py_NewRef(FIELDS(root)->descr); /* (NewFromDescr takes this reference) */
    PyObject *view = NP_NEW_FROM_DESCR(Py_TYPE(root), descr, nd, dims, strides, data,
                                       FIELDS(root)->flags & NPY_FLAG_WRITEABLE, NULL);
    if (view == NULL)
        return NULL;
    if (NP_SET_BASE(view, Py_NewRef(root)) < 0) { /* (it takes that reference, even failing) */
        Py_DECREF(view);
        return NULL;
    }
    return view;
}

/* After the fields check: the capsule's two functions, kept where a view of the probe `a` made
 * with them is `b` (a[:, ::2]) field for field. Errors cleared: the API is an optimisation. */
static void
load_numpy_api(PyObject *a, PyObject *b)
{
    NP_NEW_FROM_DESCR = NULL, NP_SET_BASE = NULL;
    PyObject *module = PyImport_ImportModule("numpy._core._multiarray_umath");
    PyObject *capsule = module == NULL ? NULL : PyObject_GetAttrString(module, "_ARRAY_API");
    void **api = capsule == NULL || !PyCapsule_CheckExact(capsule)
                     ? NULL : (void **)PyCapsule_GetPointer(capsule, NULL);
    Py_XDECREF(capsule);
    Py_XDECREF(module);
    if (api == NULL || api[94] == NULL || api[282] == NULL) {
        PyErr_Clear();
        return;
    }
    NP_NEW_FROM_DESCR = (NewFromDescrFn)api[94], NP_SET_BASE = (SetBaseObjectFn)api[282];
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (numpy != NULL) { /* (small_float_loop's ufuncs: NumPy's module attributes) */
        Py_XSETREF(NP_ADD, PyObject_GetAttrString(numpy, "add"));
        Py_XSETREF(NP_SUBTRACT, PyObject_GetAttrString(numpy, "subtract"));
        Py_XSETREF(NP_MULTIPLY, PyObject_GetAttrString(numpy, "multiply"));
        Py_XSETREF(NP_DIVIDE, PyObject_GetAttrString(numpy, "true_divide"));
        Py_XSETREF(NP_MATMUL, PyObject_GetAttrString(numpy, "matmul"));
        Py_XSETREF(NP_DOT_FN, PyObject_GetAttrString(numpy, "dot"));
        Py_DECREF(numpy);
    }
    Py_ssize_t dims[2] = {FIELDS(b)->dimensions[0], FIELDS(b)->dimensions[1]};
    Py_ssize_t strides[2] = {FIELDS(b)->strides[0], FIELDS(b)->strides[1]};
    PyObject *view = numpy_view(a, 2, dims, strides, FIELDS(a)->data);
    int same = view != NULL && Py_TYPE(view) == Py_TYPE(b) && FIELDS(view)->nd == 2 &&
               FIELDS(view)->data == FIELDS(b)->data && FIELDS(view)->descr == FIELDS(b)->descr &&
               FIELDS(view)->base == a && FIELDS(view)->flags == FIELDS(b)->flags &&
               memcmp(FIELDS(view)->dimensions, dims, sizeof dims) == 0 &&
               memcmp(FIELDS(view)->strides, strides, sizeof strides) == 0;
    Py_XDECREF(view);
    PyErr_Clear();
    if (!same)
        NP_NEW_FROM_DESCR = NULL, NP_SET_BASE = NULL;
    /* float64's dotfunc: ArrFuncs (slot 365 gives a dtype's) holds 21 casts, getitem, setitem,
     * copyswapn, copyswap, compare and argmax before it; kept where it sums a probe right */
    NP_DOUBLE_DOT = NULL;
    typedef void **(*ArrFuncsFn)(PyObject *);
    void **funcs = same && api[365] != NULL /* (the probe `a` is float64) */
                       ? ((ArrFuncsFn)api[365])(FIELDS(a)->descr) : NULL;
    if (funcs != NULL && funcs[27] != NULL) {
        double x[3] = {1.5, 2.25, -3.0}, y[6] = {0.5, 9.0, 4.0, 9.0, 2.0, 9.0}, out = 0.0;
        ((DotFn)funcs[27])(x, sizeof(double), y, 2 * sizeof(double), &out, 3, NULL);
        if (out == 3.75)
            NP_DOUBLE_DOT = (DotFn)funcs[27];
    }
    PyErr_Clear();
}

/* Whether ndarray `a` has exactly the shape `shape` (a tuple of ints): 1, 0, or -1 (error). */
static int
fields_shape_is(PyObject *a, PyObject *shape)
{
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    if (FIELDS(a)->nd != nd)
        return 0;
    for (Py_ssize_t k = 0; k < nd; k++) {
        Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k));
        if (n == -1 && PyErr_Occurred())
            return -1;
        if (FIELDS(a)->dimensions[k] != n)
            return 0;
    }
    return 1;
}

/* Whether ndarray `a`'s dtype is `dtype`: the same descriptor object (NumPy's builtin dtypes are
 * singletons), else compared. 1, 0 or -1. */
static int
fields_dtype_is(PyObject *a, PyObject *dtype)
{
    PyObject *descr = FIELDS(a)->descr;
    return descr == dtype ? 1 : PyObject_RichCompareBool(descr, dtype, Py_EQ);
}

/* check_array_fields(a, b): a = np.empty((2, 3)), b = a[:, ::2]. Sets ARRAY_FIELDS where the
 * layout above reads them right; returns whether it does. */
static PyObject *
py_check_array_fields(PyObject *module, PyObject *args)
{
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "OO:check_array_fields", &a, &b))
        return NULL;
    ARRAY_FIELDS = 0;
    if (!is_ndarray(a) || !is_ndarray(b))
        Py_RETURN_FALSE;
    PyObject *dtype = PyObject_GetAttrString(a, "dtype");
    if (dtype == NULL)
        return NULL;
    NumpyArrayFields *fa = FIELDS(a), *fb = FIELDS(b);
    int ok = fa->nd == 2 && fb->nd == 2 && fa->dimensions[0] == 2 && fa->dimensions[1] == 3 &&
             fb->dimensions[0] == 2 && fb->dimensions[1] == 2 && fa->strides[0] == 24 &&
             fa->strides[1] == 8 && fb->strides[1] == 16 && fa->base == NULL && fb->base == a &&
             fb->data == fa->data && fa->descr == dtype && fb->descr == dtype &&
             (fa->flags & (NPY_FLAG_C_CONTIGUOUS | NPY_FLAG_OWNDATA | NPY_FLAG_WRITEABLE)) ==
                 (NPY_FLAG_C_CONTIGUOUS | NPY_FLAG_OWNDATA | NPY_FLAG_WRITEABLE) &&
             (fb->flags & (NPY_FLAG_C_CONTIGUOUS | NPY_FLAG_OWNDATA)) == 0 &&
             (fb->flags & NPY_FLAG_WRITEABLE) != 0;
    Py_DECREF(dtype);
    if (ok && COPY_NAME == NULL && (COPY_NAME = PyUnicode_InternFromString("copy")) == NULL)
        return NULL;
    ARRAY_FIELDS = ok;
    if (ok)
        load_numpy_api(a, b);
    return PyBool_FromLong(ok);
}

/* Attribute lookups on the hot paths by interned name: PyObject_GetAttrString makes and hashes a
 * new string per call (~40 ns each, several per op). */
static PyObject *ATTR_NAMES[8];
enum { A_BASE, A_C_CONTIGUOUS, A_DTYPE, A_FLAGS, A_OWNDATA, A_REFERENCE, A_SHAPE, A_WRITEABLE };
static const char *ATTR_TEXT[] = {"base", "c_contiguous", "dtype", "flags", "owndata", "reference", "shape", "writeable"};

static PyObject *
getattr_named(PyObject *o, int which)
{
    if (ATTR_NAMES[which] == NULL &&
        (ATTR_NAMES[which] = PyUnicode_InternFromString(ATTR_TEXT[which])) == NULL)
        return NULL;
    return PyObject_GetAttr(o, ATTR_NAMES[which]);
}

/* eager.run_candidate's common case in C: one op whose inputs are all computed buffers, run
 * through its reference under NumPy's 'call' error state between the flags' clear and test.
 * A new leaf node; Py_None (borrowed) to let Python do it (other inputs, an exception, which
 * Python's run reports with the op and the line); NULL on error. */
static PyObject *view_value_c(NodeObject *node);
static int drops_unit_dims(PyObject *spec, PyObject *shape);
static int same_memory(PyObject *a, PyObject *b);
static PyObject *UFUNC_CODE; /* the code object of graph.ops_elementwise's plain ufunc reference */

/* An input's value for one_op_now (a new reference), or NULL with no error set where C does not
 * take it: a computed buffer, a Python scalar leaf (a 0-d array of its dtype, as
 * eager._leaf_values makes it), a chain of slices and reshapes over a computed buffer (NumPy's
 * view), and, where the op's reference broadcasts itself (`broadcasts`), a broadcast_to of one of
 * those or a scalar's leaf of the broadcast shape (`row * 0.5`: NumPy broadcasts). */
static PyObject *one_op_now(NodeObject *node);
static int INNER_OP; /* one_op_now is computing an input's op (one level only) */
/* An input's op may have this many elements where above eager_size: one_op_now(node, bound)
 * for eager._walk_and_run's bound (a loop's update, `w += lr * np.outer(...)`); else 0. */
static Py_ssize_t INNER_BOUND;
#define OUTER_UPDATE 16 /* eager._UPDATE: a loop's update (its outer too) may have this many
                         * times eager_size elements */

/* A pending input that is itself one small ufunc op over computed values (`row += w * 0.01`: `w *
 * 0.01` is lazy, w being no indexed read): its value computed here (a new reference), as
 * eager._run computes such an input; NULL with no error set where C does not take it. */
static PyObject *
inner_value(NodeObject *i)
{
    if (INNER_OP || UFUNC_CODE == NULL || EAGER_LIMIT == NULL)
        return NULL;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)), size = 1;
    for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(i->shape); d++)
        size *= PyLong_AsSsize_t(PyTuple_GET_ITEM(i->shape, d));
    if (PyErr_Occurred() || limit <= 0 || size < 0 || size > (INNER_BOUND > limit ? INNER_BOUND
                                                                              : limit)) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *reference = getattr_named(i->op, A_REFERENCE);
    int plain = reference != NULL && PyFunction_Check(reference) &&
                PyFunction_GET_CODE(reference) == UFUNC_CODE;
    Py_XDECREF(reference);
    PyErr_Clear();
    if (!plain)
        return NULL;
    INNER_OP = 1;
    PyObject *leaf = one_op_now(i);
    INNER_OP = 0;
    if (leaf == NULL || leaf == Py_None || ((NodeObject *)leaf)->data == NULL
        || ((NodeObject *)leaf)->data == Py_None) { /* (a view in NumPy's memory order: Python's) */
        Py_XDECREF(leaf == Py_None ? NULL : leaf);
        PyErr_Clear();
        return NULL;
    }
    PyObject *value = Py_NewRef(((NodeObject *)leaf)->data);
    Py_DECREF(leaf);
    return value;
}

/* A Python float's or int's 0-d array of `dtype` (np.asarray(value, dtype)), read-only, from a
 * small cache: a loop's constants (`0.5 * row`, `alpha * x`) come back every iteration, and the
 * conversion (~0.14 us) would be paid each time. (Passing the Python number to the ufunc as it is
 * costs more: NumPy's weak-scalar promotion.) A new reference, NULL on error. */
#define SCALAR_SLOTS 64
static struct { PyObject *number, *dtype, *array; } SCALAR_ARRAYS[SCALAR_SLOTS];

/* The cache slot of a number's bits and dtype: a product's high bits (a round float's low bits
 * are all zero: the old `bits ^ bits >> 29` put 0.5, 0.25, 2.0 and 9.0 in one slot). */
static size_t
scalar_slot(uint64_t bits, PyObject *dtype)
{
    uint64_t h = (bits ^ ((uint64_t)(uintptr_t)dtype >> 4)) * 0x9E3779B97F4A7C15ULL;
    return (size_t)((h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL >> 40) % SCALAR_SLOTS;
}

static PyObject *
scalar_array(PyObject *number, PyObject *dtype)
{
    size_t slot;
    if (PyFloat_CheckExact(number)) {
        double v = PyFloat_AS_DOUBLE(number);
        if (dtype != FLOAT64_DTYPE) { /* float32 (the other weak-scalar dtype) or uncached */
            int float32 = SCALAR_DTYPES != NULL && PyTuple_GET_SIZE(SCALAR_DTYPES) == 2 &&
                          PyTuple_GET_ITEM(SCALAR_DTYPES, 0) == dtype;
            if (!float32)
                return PyObject_CallFunctionObjArgs(NP_ASARRAY, number, dtype, NULL);
            if (isfinite(v) && isinf((float)v))
                return NULL; /* `x32 + 1e300`: the general path reports the cast's overflow */
        }
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        slot = scalar_slot(bits, dtype); /* (0.5, 2.0, 9.0: their low bits are all 0) */
        if (SCALAR_ARRAYS[slot].number != NULL && SCALAR_ARRAYS[slot].dtype == dtype &&
            PyFloat_CheckExact(SCALAR_ARRAYS[slot].number)) {
            double w = PyFloat_AS_DOUBLE(SCALAR_ARRAYS[slot].number);
            if (memcmp(&v, &w, sizeof v) == 0) /* the same bits: -0.0 and NaNs apart */
                return Py_NewRef(SCALAR_ARRAYS[slot].array);
        }
    }
    else if (PyLong_CheckExact(number)) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return PyObject_CallFunctionObjArgs(NP_ASARRAY, number, dtype, NULL);
        }
        slot = scalar_slot((uint64_t)v, dtype);
        if (SCALAR_ARRAYS[slot].number != NULL && SCALAR_ARRAYS[slot].dtype == dtype &&
            PyLong_CheckExact(SCALAR_ARRAYS[slot].number) &&
            PyLong_AsLongLong(SCALAR_ARRAYS[slot].number) == v)
            return Py_NewRef(SCALAR_ARRAYS[slot].array);
    }
    else
        return PyObject_CallFunctionObjArgs(NP_ASARRAY, number, dtype, NULL);
    PyObject *array = PyObject_CallFunctionObjArgs(NP_ASARRAY, number, dtype, NULL);
    if (array == NULL || !ARRAY_FIELDS || !is_ndarray(array))
        return array; /* (read-only needs the fields: uncached without them) */
    FIELDS(array)->flags &= ~NPY_FLAG_WRITEABLE; /* shared: no one may write into it */
    Py_XSETREF(SCALAR_ARRAYS[slot].number, Py_NewRef(number));
    Py_XSETREF(SCALAR_ARRAYS[slot].dtype, Py_NewRef(dtype));
    Py_XSETREF(SCALAR_ARRAYS[slot].array, Py_NewRef(array));
    return array;
}

/* Whether a cast from dtype `from` to `to` raises no floating-point flag for any value: NumPy's
 * 'safe' casts (float32 -> float64, ints and bools to floats and wider ints). 1, 0, -1 on error.
 * The few pairs a program casts between are remembered by identity. */
#define SAFE_CAST_SLOTS 8
static struct { PyObject *from, *to; int safe; } SAFE_CASTS[SAFE_CAST_SLOTS];
static int SAFE_CAST_NEXT;

static int
safe_cast(PyObject *from, PyObject *to)
{
    static PyObject *can_cast, *safe_word;
    for (int k = 0; k < SAFE_CAST_SLOTS; k++)
        if (SAFE_CASTS[k].from == from && SAFE_CASTS[k].to == to)
            return SAFE_CASTS[k].safe;
    if (can_cast == NULL) {
        PyObject *numpy = PyImport_ImportModule("numpy");
        can_cast = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "can_cast");
        Py_XDECREF(numpy);
        if (can_cast == NULL)
            return -1;
    }
    if (safe_word == NULL && (safe_word = PyUnicode_InternFromString("safe")) == NULL)
        return -1;
    PyObject *answer = PyObject_CallFunctionObjArgs(can_cast, from, to, safe_word, NULL);
    if (answer == NULL)
        return -1;
    int safe = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    if (safe < 0)
        return -1;
    int k = SAFE_CAST_NEXT++ % SAFE_CAST_SLOTS;
    Py_XSETREF(SAFE_CASTS[k].from, Py_NewRef(from));
    Py_XSETREF(SAFE_CASTS[k].to, Py_NewRef(to));
    SAFE_CASTS[k].safe = safe;
    return safe;
}

static PyObject *input_value(NodeObject *i, int broadcasts);

/* `value.astype(to)` where a cast from `from` is safe (no flag for any value: nothing to
 * record), as the cast op's reference computes it. Steals `value`; a new reference, or NULL with
 * no error set where the cast is not safe or failed. */
static PyObject *
safe_astype(PyObject *value, PyObject *from, PyObject *to)
{
    static PyObject *astype_name;
    if (value == NULL)
        return NULL;
    int safe = from == NULL ? 0 : safe_cast(from, to);
    if (safe > 0 && astype_name == NULL &&
        (astype_name = PyUnicode_InternFromString("astype")) == NULL)
        safe = -1;
    PyObject *cast = safe > 0 ? PyObject_CallMethodOneArg(value, astype_name, to) : NULL;
    Py_DECREF(value);
    if (cast == NULL)
        PyErr_Clear();
    return cast;
}

/* A ufunc op's input that is a safe cast of a value input_value takes (`a1 * img[:, j]`: a
 * float64 coefficient times a float32 column, NumPy's promotion, made a cast node by the
 * binding): that value's safe_astype. A new reference, or NULL with no error set where C does
 * not take it. */
static PyObject *
cast_value(NodeObject *i)
{
    NodeObject *x = (NodeObject *)PyTuple_GET_ITEM(i->inputs, 0);
    return safe_astype(input_value(x, 1), x->dtype, i->dtype);
}

static PyObject *
input_value(NodeObject *i, int broadcasts)
{
    if (broadcasts && i->op == BROADCAST_OP && PyTuple_GET_SIZE(i->inputs) == 1)
        i = (NodeObject *)PyTuple_GET_ITEM(i->inputs, 0);
    if (broadcasts && i->op == CAST_OP && CAST_OP != NULL && PyTuple_GET_SIZE(i->inputs) == 1)
        return cast_value(i);
    if (PyTuple_GET_SIZE(i->inputs) != 0) {
        PyObject *view = view_value_c(i);
        if (view == NULL)
            PyErr_Clear();
        else if (view == Py_None) {
            Py_CLEAR(view);
            if (broadcasts)
                view = inner_value(i);
        }
        return view;
    }
    if (i->op == INPUT_OP && is_ndarray(i->data))
        return Py_NewRef(i->data);
    /* a Python scalar's leaf: 0-d, or of the broadcast shape where NumPy broadcasts it */
    if (i->op == SCALAR_OP && (PyTuple_GET_SIZE(i->shape) == 0 || broadcasts) &&
        (PyFloat_CheckExact(i->data) || PyLong_CheckExact(i->data) || PyBool_Check(i->data) ||
         PyComplex_CheckExact(i->data))) {
        PyObject *value = scalar_array(i->data, i->dtype);
        if (value == NULL)
            PyErr_Clear();
        return value;
    }
    return NULL;
}

/* Whether ndarray `out`'s dtype is `dtype` (1, 0, -1 on error). */
static int
dtype_is(PyObject *out, PyObject *dtype)
{
    if (ARRAY_FIELDS)
        return fields_dtype_is(out, dtype);
    PyObject *own = getattr_named(out, A_DTYPE);
    int same = own == NULL ? -1 : PyObject_RichCompareBool(own, dtype, Py_EQ);
    Py_XDECREF(own);
    return same;
}

/* Whether a reference's result `out` (an ndarray) is a fresh C-contiguous array of the node's
 * dtype and shape (NumPy may broadcast less than the node): the leaf then holds it as it is.
 * 1, 0, -1 on error. */
static int
fresh_result_of(PyObject *out, PyObject *node_shape, PyObject *node_dtype)
{
    if (ARRAY_FIELDS) {
        if (FIELDS(out)->base != NULL || !(FIELDS(out)->flags & NPY_FLAG_C_CONTIGUOUS))
            return 0;
        int same = fields_shape_is(out, node_shape);
        return same <= 0 ? same : fields_dtype_is(out, node_dtype);
    }
    PyObject *dtype = getattr_named(out, A_DTYPE);
    PyObject *base = getattr_named(out, A_BASE);
    PyObject *flags = getattr_named(out, A_FLAGS);
    PyObject *contiguous = flags ? getattr_named(flags, A_C_CONTIGUOUS) : NULL;
    PyObject *shape = getattr_named(out, A_SHAPE);
    int plain = dtype != NULL && base == Py_None && contiguous == Py_True && shape != NULL &&
                PyObject_RichCompareBool(dtype, node_dtype, Py_EQ) == 1 &&
                PyObject_RichCompareBool(shape, node_shape, Py_EQ) == 1;
    Py_XDECREF(dtype);
    Py_XDECREF(base);
    Py_XDECREF(flags);
    Py_XDECREF(contiguous);
    Py_XDECREF(shape);
    return PyErr_Occurred() ? -1 : plain;
}

/* The ufunc a plain ufunc reference (graph.ops_elementwise's `ufunc(*xs)`) calls (borrowed), or
 * NULL. */
static PyObject *
plain_ufunc(PyObject *reference)
{
    PyObject *closure = PyFunction_GET_CLOSURE(reference);
    if (closure == NULL || PyTuple_GET_SIZE(closure) != 1)
        return NULL;
    return PyCell_GET(PyTuple_GET_ITEM(closure, 0));
}

/* `ufunc(*args)` (or, without a ufunc, `reference(args, attrs, dtype)`) under NumPy's 'call'
 * error state, between the flags' clear and test: 0 with *out and *bits new references, or both
 * NULL and no error set where the call raised (Python runs it again and raises naming the line);
 * -1 on error. */
static int
call_checked(PyObject *ufunc, PyObject *reference, PyObject *args, PyObject *attrs,
             PyObject *dtype, PyObject **out, PyObject **bits)
{
    *out = *bits = NULL;
    PyObject *token = PyContextVar_Set(EXTOBJ_VAR, CALL_MODE);
    if (token == NULL)
        return -1;
    PyObject *cleared = FP_DIRECT ? (NODE->fp_clear(), Py_NewRef(Py_None))
                                  : PyObject_CallNoArgs(FP_CLEAR);
    *out = cleared == NULL ? NULL
           : ufunc != NULL ? PyObject_Vectorcall(ufunc, ((PyTupleObject *)args)->ob_item,
                                                 PyTuple_GET_SIZE(args), NULL)
           : PyObject_CallFunctionObjArgs(reference, args, attrs, dtype, NULL);
    *bits = *out == NULL ? NULL
            : FP_DIRECT  ? PyLong_FromLong(NODE->fp_test())
                         : PyObject_CallNoArgs(FP_TEST);
    Py_XDECREF(cleared);
    if (PyContextVar_Reset(EXTOBJ_VAR, token) < 0) {
        Py_DECREF(token);
        Py_CLEAR(*out);
        Py_CLEAR(*bits);
        return -1;
    }
    Py_DECREF(token);
    if (*out == NULL || *bits == NULL) {
        Py_CLEAR(*out);
        Py_CLEAR(*bits);
        PyErr_Clear();
    }
    return 0;
}

/* Whether a reference's result *out, no flag raised (`bits` 0), is a leaf's data as it is: a fresh
 * C-contiguous array of `shape` and `dtype` (a 0-d op's NumPy scalar becomes a 0-d array first,
 * replacing *out). 1, 0, or -1 on error (*out may then be NULL). */
static int
plain_result(PyObject **out, PyObject *bits, PyObject *shape, PyObject *dtype)
{
    long raised = PyLong_AsLong(bits);
    if (raised == -1 && PyErr_Occurred())
        return -1;
    if (raised != 0)
        return 0;
    if (is_ndarray(*out))
        return fresh_result_of(*out, shape, dtype);
    PyObject *array = PyObject_CallOneArg(NP_ASARRAY, *out); /* a 0-d op's NumPy scalar */
    Py_SETREF(*out, array);
    if (array == NULL)
        return -1;
    return is_ndarray(array) && PyTuple_GET_SIZE(shape) == 0 ? dtype_is(array, dtype) : 0;
}

static PyObject *small_float_loop(PyObject *ufunc, PyObject *args, PyObject *shape,
                                  PyObject *dtype);

static PyObject *
one_op_now(NodeObject *node)
{
    if (EXTOBJ_VAR == NULL)
        return Py_None;
    Py_ssize_t n = PyTuple_GET_SIZE(node->inputs);
    PyObject *reference = getattr_named(node->op, A_REFERENCE);
    if (reference == NULL || reference == Py_None) {
        Py_XDECREF(reference);
        PyErr_Clear();
        return Py_None;
    }
    int broadcasts = UFUNC_CODE != NULL && PyFunction_Check(reference) &&
                     PyFunction_GET_CODE(reference) == UFUNC_CODE;
    PyObject *args = PyTuple_New(n);
    if (args == NULL) {
        Py_DECREF(reference);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *value = input_value((NodeObject *)PyTuple_GET_ITEM(node->inputs, k), broadcasts);
        if (value == NULL) {
            Py_DECREF(args);
            Py_DECREF(reference);
            return Py_None;
        }
        PyTuple_SET_ITEM(args, k, value);
    }
    /* a plain ufunc reference (`ufunc(*xs)`) is called as its ufunc, without its Python frame */
    PyObject *ufunc = broadcasts ? plain_ufunc(reference) : NULL, *out, *bits = NULL;
    int failed = 0;
    out = small_float_loop(ufunc, args, node->shape, node->dtype);
    if (out != NULL && out != Py_None && (bits = PyLong_FromLong(0)) == NULL)
        Py_CLEAR(out);
    if (out == NULL)
        failed = 1;
    else if (out == Py_None) {
        Py_DECREF(out);
        failed = call_checked(ufunc, reference, args, node->attrs, node->dtype, &out, &bits);
    }
    Py_DECREF(reference);
    Py_DECREF(args);
    if (failed)
        return NULL;
    if (out == NULL) /* Python runs it again and raises naming the line */
        return Py_None;
    int plain = plain_result(&out, bits, node->shape, node->dtype);
    if (plain < 0) {
        Py_XDECREF(out);
        Py_DECREF(bits);
        return NULL;
    }
    PyObject *leaf;
    if (plain)
        leaf = NODE->build(INPUT_OP, EMPTY, EAGER_MARK, node->shape, node->dtype, out,
                           node->site);
    else
        leaf = PyObject_CallFunctionObjArgs(EAGER_FINISH, (PyObject *)node, out, bits, NULL);
    Py_DECREF(out);
    Py_DECREF(bits);
    return leaf;
}

static int reads_indexed(PyObject *const *inputs, Py_ssize_t n, int depth);

/* eager_candidate's tests of the rule's state and the result's size: 1 when a result of `shape`
 * may be computed now, 0 when not, -1 on error. */
static int
eager_allowed(PyObject *shape)
{
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
    if (limit <= 0)
        return limit == -1 && PyErr_Occurred() ? -1 : 0;
    Py_ssize_t paused = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0));
    if (paused != 0)
        return paused == -1 && PyErr_Occurred() ? -1 : 0;
    Py_ssize_t size = 1, nd = PyTuple_GET_SIZE(shape);
    for (Py_ssize_t k = 0; k < nd; k++) {
        Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k));
        if (s == -1 && PyErr_Occurred())
            return -1;
        size *= s;
        if (size > limit)
            return 0;
    }
    return 1;
}

static int
is_seed_op(PyObject *op)
{
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(EAGER_SEED_OPS); s++)
        if (PyTuple_GET_ITEM(EAGER_SEED_OPS, s) == op)
            return 1;
    return 0;
}

static int
eager_candidate(NodeObject *node)
{
    if (EAGER_HOOK == NULL || node->op == BROADCAST_OP)
        return 0;
    NodeObject *below = node; /* a view of a computed array stays a view; of a result, not */
    while (is_view_op(below->op) && PyTuple_GET_SIZE(below->inputs) >= 1) /* (+ a slice's starts) */
        below = (NodeObject *)PyTuple_GET_ITEM(below->inputs, 0);
    if (PyTuple_GET_SIZE(below->inputs) == 0 || below->op == BROADCAST_OP)
        return 0;
    int allowed = eager_allowed(node->shape);
    if (allowed <= 0)
        return allowed;
    if (is_seed_op(below->op))
        return 1; /* a gather out of an array: an indexed read (a copy) itself */
    return reads_indexed(((PyTupleObject *)below->inputs)->ob_item,
                         PyTuple_GET_SIZE(below->inputs), 1);
}

/* Whether one of these `n` inputs (through casts and broadcasts), or with `depth` left an input
 * of such an input, is an indexed read: a view op over something, an eager result, a gather. */
static int
reads_indexed(PyObject *const *inputs, Py_ssize_t n, int depth)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        NodeObject *i = (NodeObject *)inputs[k];
        while ((i->op == CAST_OP || i->op == BROADCAST_OP) && PyTuple_GET_SIZE(i->inputs) == 1)
            i = (NodeObject *)PyTuple_GET_ITEM(i->inputs, 0);
        if (i->attrs == EAGER_MARK || (PyTuple_GET_SIZE(i->inputs) > 0 && is_view_op(i->op)))
            return 1;
        if (is_seed_op(i->op))
            return 1;
        if (depth > 0 && PyTuple_GET_SIZE(i->inputs) > 0 &&
            reads_indexed(((PyTupleObject *)i->inputs)->ob_item, PyTuple_GET_SIZE(i->inputs),
                          depth - 1))
            return 1;
    }
    return 0;
}

/* cuts._prune in C, as make_array calls it (every view and pending result appends to cuts._LIVE;
 * the list is pruned each time it doubles): the weak references whose Array is alive and
 * pending kept in place, the limit twice their number (at least cuts._MIN_LIMIT). Python's
 * `_prune` where an entry is not what C reads (no compiled node). 0, or -1 on error. */
static Py_ssize_t LIVE_MIN_LIMIT = 256; /* cuts._MIN_LIMIT: set_live_min_limit() */

static int
prune_live(void)
{
    Py_ssize_t n = PyList_GET_SIZE(LIVE), kept = 0;
    for (Py_ssize_t k = 0; k < n; k++) { /* (first: every entry one C reads) */
        PyObject *ref = PyList_GET_ITEM(LIVE, k);
        PyObject *a = PyWeakref_Check(ref) ? PyWeakref_GET_OBJECT(ref) : NULL;
        if (a == NULL || (a != Py_None && (!PyObject_TypeCheck(a, ARRAY) || NODE_OF(a) == NULL ||
                                           !PyObject_TypeCheck(NODE_OF(a), NODE->base))))
            goto python;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *ref = PyList_GET_ITEM(LIVE, k), *a = PyWeakref_GET_OBJECT(ref);
        if (a == Py_None || PyTuple_GET_SIZE(((NodeObject *)NODE_OF(a))->inputs) == 0)
            continue;
        if (kept != k) { /* moved down: the list's count of the reference is unchanged */
            PyObject *old = PyList_GET_ITEM(LIVE, kept);
            Py_INCREF(ref);
            PyList_SET_ITEM(LIVE, kept, ref);
            Py_DECREF(old);
        }
        kept++;
    }
    if (kept != n && PyList_SetSlice(LIVE, kept, n, NULL) < 0)
        return -1;
    PyObject *limit = PyLong_FromSsize_t(2 * kept > LIVE_MIN_LIMIT ? 2 * kept : LIVE_MIN_LIMIT);
    if (limit == NULL)
        return -1;
    return PyList_SetItem(LIVE_LIMIT, 0, limit);
python:;
    PyObject *alive = PyObject_CallNoArgs(PRUNE);
    Py_XDECREF(alive);
    return alive == NULL ? -1 : 0;
}

/* set_live_min_limit(n): cuts._MIN_LIMIT, the least limit prune_live sets. */
static PyObject *
py_set_live_min_limit(PyObject *module, PyObject *n)
{
    Py_ssize_t v = PyLong_AsSsize_t(n);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    LIVE_MIN_LIMIT = v;
    Py_RETURN_NONE;
}

/* install_raise_hook(on, hook): Array.__init__'s last step (lazyarray/_handled.py
 * raises_at_the_line), called for a pending Array while `on[0]` is True (settings.RAISE_MODE_ON:
 * the settings applied last have a floating-point mode 'raise'); else one pointer test. */
static PyObject *RAISE_ON, *RAISE_HOOK;

static PyObject *
py_install_raise_hook(PyObject *module, PyObject *args)
{
    PyObject *seen, *hook;
    if (!PyArg_ParseTuple(args, "O!O:install_raise_hook", &PyList_Type, &seen, &hook))
        return NULL;
    if (PyList_GET_SIZE(seen) != 1) {
        PyErr_SetString(PyExc_ValueError, "install_raise_hook: a list of one flag");
        return NULL;
    }
    Py_XSETREF(RAISE_ON, Py_NewRef(seen));
    Py_XSETREF(RAISE_HOOK, Py_NewRef(hook));
    Py_RETURN_NONE;
}

/* Array(node), with `Array.__init__`'s bookkeeping: a pending Array is tracked (weakly) for the
 * cuts. Steals `node`. */
static PyObject *
make_array(PyObject *node)
{
    PyObject *array = ARRAY->tp_alloc(ARRAY, 0);
    if (array == NULL) {
        Py_DECREF(node);
        return NULL;
    }
    NODE_OF(array) = node;
    /* Array.__init__'s `self._view`: False for a 0-d result of an op (NumPy's scalar, whose views
     * are copies), else None */
    NodeObject *n = (NodeObject *)node;
    int scalar = n->shape != NULL && PyTuple_GET_SIZE(n->shape) == 0 &&
                 (PyTuple_GET_SIZE(n->inputs) == 0 ? n->attrs == EAGER_MARK && EAGER_MARK != NULL
                  : EAGER_VIEW_OPS != NULL && !is_view_op(n->op));
    VIEW_OF(array) = Py_NewRef(scalar ? Py_False : Py_None);
    PyObject *inputs = ((NodeObject *)node)->inputs;
    if (inputs != NULL && PyTuple_GET_SIZE(inputs) > 0) {
        int now = eager_candidate((NodeObject *)node);
        if (now < 0) {
            Py_DECREF(array);
            return NULL;
        }
        if (now) {
            PyObject *done = one_op_now((NodeObject *)node);
            if (done == Py_None)
                done = PyObject_CallOneArg(EAGER_HOOK, node);
            else if (done != NULL && done != Py_None) {
                Py_SETREF(NODE_OF(array), done);
                return array;
            }
            if (done == NULL) {
                Py_DECREF(array);
                return NULL;
            }
            if (done != Py_None) {
                Py_SETREF(NODE_OF(array), done);
                return array;
            }
            Py_DECREF(done);
        }
        PyObject *ref = PyWeakref_NewRef(array, NULL);
        if (ref == NULL || PyList_Append(LIVE, ref) < 0) {
            Py_XDECREF(ref);
            Py_DECREF(array);
            return NULL;
        }
        Py_DECREF(ref);
        Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(LIVE_LIMIT, 0));
        if (limit == -1 && PyErr_Occurred()) {
            Py_DECREF(array);
            return NULL;
        }
        if (PyList_GET_SIZE(LIVE) > limit && prune_live() < 0) {
            Py_DECREF(array);
            return NULL;
        }
        if (RAISE_ON != NULL && PyList_GET_ITEM(RAISE_ON, 0) == Py_True) {
            PyObject *r = PyObject_CallOneArg(RAISE_HOOK, array);
            if (r == NULL) {
                Py_DECREF(array);
                return NULL;
            }
            Py_DECREF(r);
        }
    }
    return array;
}

static int is_node(PyObject *n);

/* The node of an exact Array whose node is a compiled Node, else NULL (borrowed). is_node's
 * identity test: every element read and op asks this of each operand (~4% of them in
 * PyType_IsSubtype). */
static NodeObject *
array_node(PyObject *x)
{
    if (Py_TYPE(x) != ARRAY)
        return NULL;
    PyObject *node = NODE_OF(x);
    if (node == NULL || !is_node(node))
        return NULL;
    return (NodeObject *)node;
}

static int
is_weak_scalar(PyObject *x)
{
    if (PyLong_CheckExact(x)) { /* beyond int64: the Python path applies NumPy's range rules */
        int overflow;
        PyLong_AsLongLongAndOverflow(x, &overflow);
        return overflow == 0;
    }
    return PyFloat_CheckExact(x) || PyBool_Check(x);
}

/* _LOOPS[key] (borrowed) or NULL; -1 on error. */
static int
lookup(PyObject *table, PyObject *key, PyObject **out)
{
    if (key == NULL)
        return -1;
    *out = PyDict_GetItemWithError(table, key);
    Py_DECREF(key);
    if (*out == NULL && PyErr_Occurred())
        return -1;
    return 0;
}

/* table[(a, b)] or table[(a, b, c)] (c NULL: a pair), through a small cache keyed by the parts'
 * identities: _bind's _LOOPS ((op, dtype, dtype) -> loop dtypes) and _BROADCASTS ((shape, shape)
 * -> shape) are functions of their keys, and the same dtype, op and shape objects come back
 * every op of a loop, where hashing a fresh tuple of them costs ~0.1 us. The entries hold their
 * parts (identity stays meaningful) and value. Borrowed result or NULL; -1 on error. */
#define MEMO_SLOTS 128
typedef struct { PyObject *a, *b, *c, *value; } MemoEntry;
static MemoEntry LOOP_MEMO[MEMO_SLOTS], BROADCAST_MEMO[MEMO_SLOTS];

static int
memo_lookup(MemoEntry *memo, PyObject *table, PyObject *a, PyObject *b, PyObject *c,
            PyObject **out)
{
    uint64_t h = ((uint64_t)(uintptr_t)a >> 4) * 31u ^ ((uint64_t)(uintptr_t)b >> 4) * 17u ^
                 ((uint64_t)(uintptr_t)c >> 4);
    h *= 0x9E3779B97F4A7C15ULL; /* (dtypes lie 512 bytes apart: the high bits of a product) */
    MemoEntry *e = &memo[(h >> 40) % MEMO_SLOTS];
    if (e->value != NULL && e->a == a && e->b == b && e->c == c) {
        *out = e->value;
        return 0;
    }
    if (lookup(table, c != NULL ? PyTuple_Pack(3, a, b, c) : PyTuple_Pack(2, a, b), out) < 0)
        return -1;
    if (*out != NULL) {
        PyObject *old[4] = {e->a, e->b, e->c, e->value};
        e->a = Py_NewRef(a), e->b = Py_NewRef(b), e->c = Py_XNewRef(c);
        e->value = Py_NewRef(*out);
        for (int k = 0; k < 4; k++) /* last: the entry is whole before anything is freed */
            Py_XDECREF(old[k]);
    }
    return 0;
}

/* Whether a weak scalar of this loop dtype takes the fast path: 1 with its leaf's cached key
 * (borrowed) in *key, 0 if not, -1 on error. Only decides; builds nothing. */
static PyObject *INT_RANGES; /* integer dtype -> (min, max): set_int_ranges() */

static int
scalar_key(PyObject *dtype, PyObject *shape, PyObject *value, PyObject **key)
{
    int fits = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(SCALAR_DTYPES); i++)
        fits |= PyTuple_GET_ITEM(SCALAR_DTYPES, i) == dtype;
    if (!fits && INT_RANGES != NULL && PyLong_CheckExact(value)) {
        /* a Python int in an integer loop: here only where the dtype holds it (NumPy 2's
         * OverflowError, and its exact comparisons past the range, are the Python path's) */
        PyObject *range = PyDict_GetItemWithError(INT_RANGES, dtype);
        if (range == NULL)
            return PyErr_Occurred() ? -1 : 0;
        int low = PyObject_RichCompareBool(value, PyTuple_GET_ITEM(range, 0), Py_GE);
        int high = low == 1 ? PyObject_RichCompareBool(value, PyTuple_GET_ITEM(range, 1), Py_LE) : 0;
        if (low < 0 || high < 0)
            return -1;
        fits = low && high;
    }
    if (!fits)
        return 0;
    if (lookup(SCALAR_KEYS, PyTuple_Pack(2, dtype, shape), key) < 0)
        return -1;
    return *key != NULL;
}

/* The weak scalar's leaf: `_bind._scalar_operand` for a float loop dtype with a cached key. The
 * key is set directly, as there, except while the node budget watches every node (a cut pending:
 * `_BUDGET[0] < 2`), when the leaf is built and interned the ordinary way (the same key). */
static PyObject *
scalar_leaf(PyObject *value, PyObject *dtype, PyObject *shape, PyObject *site, PyObject *key)
{
    long long limit = PyLong_AsLongLong(PyList_GET_ITEM(BUDGET, 0));
    if (limit == -1 && PyErr_Occurred())
        return NULL;
    if (limit < 2)
        return NODE->build(SCALAR_OP, EMPTY, EMPTY, shape, dtype, value, site);
    return NODE->leaf_with_key(SCALAR_OP, shape, dtype, value, site, key);
}

/* `_bind.broadcast_to`: the node itself if it has the shape, else broadcast_to(node) (new ref). */
static PyObject *
widen(NodeObject *node, PyObject *shape, PyObject *site)
{
    int same = node->shape == shape ? 1 : PyObject_RichCompareBool(node->shape, shape, Py_EQ);
    if (same < 0)
        return NULL;
    if (same) {
        Py_INCREF(node);
        return (PyObject *)node;
    }
    PyObject *inputs = PyTuple_Pack(1, (PyObject *)node), *attrs = PyTuple_Pack(1, shape);
    PyObject *out = inputs && attrs ? NODE->build(BROADCAST_OP, inputs, attrs, shape, node->dtype,
                                                  Py_None, site)
                                    : NULL;
    Py_XDECREF(inputs);
    Py_XDECREF(attrs);
    return out;
}

/* Node(op, inputs, (), shape, dtype, None, site) wrapped in an Array. Steals `inputs`. */
static PyObject *
bind(PyObject *op, PyObject *inputs, PyObject *shape, PyObject *dtype, PyObject *site)
{
    if (inputs == NULL)
        return NULL;
    PyObject *node = NODE->build(op, inputs, EMPTY, shape, dtype, Py_None, site);
    Py_DECREF(inputs);
    return node == NULL ? NULL : make_array(node);
}

/* --- float64 element arithmetic: `A[i, j] / A[j, j]` -----------------------------------------
 * An index loop's arithmetic on elements it read (0-d float64 results of the at-once path) and
 * Python numbers, in C doubles: +, -, *, / of IEEE doubles are NumPy's float64 loops' bits. Only
 * where NumPy raises no floating-point flag: finite operands and a finite result that is normal
 * or an exact zero (a division by zero, an overflow, an underflow, a NaN go the general way,
 * which reports them as NumPy does). ~0.5 us instead of ~1.6 through one_op_now. */

/* An operand's double: 1 for a computed 0-d float64 leaf (*eager set when it is a result of the
 * at-once path) or a Python float or int of at most 53 bits; 0 otherwise. */
static int
f64_operand(PyObject *x, double *out, int *eager)
{
    if (PyFloat_CheckExact(x)) {
        *out = PyFloat_AS_DOUBLE(x);
        return 1;
    }
    if (PyLong_CheckExact(x)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (overflow || v > (1LL << 53) || v < -(1LL << 53))
            return 0;
        *out = (double)v;
        return 1;
    }
    NodeObject *n = array_node(x);
    if (n == NULL || n->op != INPUT_OP || n->dtype != FLOAT64_DTYPE ||
        PyTuple_GET_SIZE(n->inputs) != 0 || PyTuple_GET_SIZE(n->shape) != 0 || !is_ndarray(n->data))
        return 0;
    double v;
    if (ARRAY_FIELDS && FIELDS(n->data)->nd == 0 && FIELDS(n->data)->descr == FLOAT64_DTYPE)
        memcpy(&v, FIELDS(n->data)->data, sizeof v); /* (no Python float made and freed) */
    else if ((v = PyFloat_AsDouble(n->data)) == -1.0 && PyErr_Occurred()) { /* its __float__ */
        PyErr_Clear();
        return 0;
    }
    *out = v;
    *eager |= n->attrs == EAGER_MARK;
    return 1;
}

static PyObject *template_copy(PyObject *descr, const void *bytes, size_t size);
static PyObject *element_leaf(PyObject *descr, const void *bytes, size_t size, PyObject *site);
typedef unsigned char npy_bool_c; /* NumPy's bool: one byte, 0 or 1 */

/* Whether `n` is a node: graph.node.Node, a subclass of NODE->base, compared by identity once
 * seen (PyObject_TypeCheck walks the MRO: ~4% of a recycled view or element). */
static PyTypeObject *NODE_TYPE_SEEN;
static int
is_node(PyObject *n)
{
    if (Py_TYPE(n) == NODE_TYPE_SEEN)
        return 1;
    if (!PyObject_TypeCheck(n, NODE->base))
        return 0;
    Py_INCREF(Py_TYPE(n)); /* (held: no other type can take its address) */
    Py_XSETREF(NODE_TYPE_SEEN, Py_TYPE(n));
    return 1;
}
static PyObject *INT32_DTYPE_C, *INT64_DTYPE_C; /* set_int_ranges() */
static PyObject *INT8_DTYPE_C, *INT16_DTYPE_C;  /* (and these: ising's int8 spins) */

/* The width of a signed integer dtype the element paths compute in (int8 to int64), else 0. */
static int
int_bits(PyObject *dtype)
{
    return dtype == NULL ? 0 : dtype == INT64_DTYPE_C ? 64 : dtype == INT32_DTYPE_C ? 32
         : dtype == INT16_DTYPE_C ? 16 : dtype == INT8_DTYPE_C ? 8 : 0;
}

/* r wrapped to a signed `bits`-wide integer, as NumPy's integer loops wrap (no flag). */
static long long
wrap_int(unsigned long long r, int bits)
{
    return bits == 64 ? (long long)r : bits == 32 ? (long long)(int32_t)(uint32_t)r
         : bits == 16 ? (long long)(int16_t)(uint16_t)r : (long long)(int8_t)(uint8_t)r;
}

/* Whether a Python int operand (`kind` 2 of int_operand) fits a `bits`-wide dtype: NumPy 2
 * raises OverflowError for one that does not (the general path says so). */
static int
int_fits(int kind, long long v, int bits)
{
    return kind != 2 || bits == 64 || (v >= -(1LL << (bits - 1)) && v < (1LL << (bits - 1)));
}

/* A 0-d leaf of the at-once path holding `value` (a Python number, stolen) as `dtype`. */
static PyObject *
leaf_array(PyObject *value, PyObject *dtype)
{
    if (value == NULL)
        return NULL;
    /* the number's bytes into a copy of the dtype's 0-d template (element_copy's way), else
     * NumPy's conversion */
    PyObject *site = NODE->user_site();
    if (site == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    PyObject *data = Py_None;
    if (PyFloat_CheckExact(value) && dtype == FLOAT64_DTYPE) {
        double v = PyFloat_AS_DOUBLE(value);
        data = element_leaf(dtype, &v, sizeof v, site);
    }
    else if (PyLong_CheckExact(value) && int_bits(dtype)) {
        long long v = PyLong_AsLongLong(value); /* (in range: the callers wrapped it) */
        int32_t v32 = (int32_t)v;
        int16_t v16 = (int16_t)v;
        int8_t v8 = (int8_t)v;
        int bits = int_bits(dtype);
        data = v == -1 && PyErr_Occurred() ? NULL
               : bits == 64 ? element_leaf(dtype, &v, sizeof v, site)
               : bits == 32 ? element_leaf(dtype, &v32, sizeof v32, site)
               : bits == 16 ? element_leaf(dtype, &v16, sizeof v16, site)
                            : element_leaf(dtype, &v8, sizeof v8, site);
    }
    if (data != Py_None) { /* the element's Array, or an error */
        Py_DECREF(value);
        Py_DECREF(site);
        return data;
    }
    data = PyObject_CallFunctionObjArgs(NP_ASARRAY, value, dtype, NULL);
    Py_DECREF(value);
    if (data == NULL) {
        Py_DECREF(site);
        return NULL;
    }
    PyObject *node = NODE->build(INPUT_OP, EMPTY, EAGER_MARK, EMPTY_SHAPE, dtype, data, site);
    Py_DECREF(data);
    Py_DECREF(site);
    return node == NULL ? NULL : make_array(node);
}

static int leaf_int_value(NodeObject *n, long long *out);

/* A computed 0-d signed integer leaf beside a float64 element or a Python float (not a Python
 * int: two integers are the integer side's): NumPy promotes it to float64 (a float64 0-d array,
 * or a weak Python float beside an integer array, gives float64) by C's conversion, so the
 * float64 arithmetic below is NumPy's (`A[i, j] - x * x` with x from an int64 array: 0.97 us
 * through the general path). 1 with *out set, 0 where not. */
static int
int_element_double(PyObject *x, double *out, int *eager)
{
    NodeObject *n = array_node(x);
    long long v;
    if (n == NULL || n->op != INPUT_OP || PyTuple_GET_SIZE(n->inputs) != 0 ||
        PyTuple_GET_SIZE(n->shape) != 0 || !leaf_int_value(n, &v))
        return 0;
    *out = (double)v;
    *eager |= n->attrs == EAGER_MARK;
    return 1;
}

/* which(x, y) as a 0-d float64 leaf's Array, or Py_None (borrowed) for the general path. */
static PyObject *
element_arithmetic(int which, PyObject *x, PyObject *y)
{
    if (FLOAT64_DTYPE == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    double a, b, r;
    int eager = 0;
    int ka = f64_operand(x, &a, &eager), kb = f64_operand(y, &b, &eager);
    if (ka != kb) { /* one operand an integer element: float64 where the other is a float */
        if (PyLong_Check(ka ? x : y) || !int_element_double(ka ? y : x, ka ? &b : &a, &eager))
            return Py_None;
    }
    else if (!ka)
        return Py_None;
    if (!eager)
        return Py_None; /* (no result of the at-once path among them: the lazy rules) */
    int exact_zero;
    switch (which) {
    case ADD: r = a + b; exact_zero = 1; break;
    case SUB: r = a - b; exact_zero = 1; break;
    case MUL: r = a * b; exact_zero = a == 0.0 || b == 0.0; break;
    default:  r = a / b; exact_zero = a == 0.0; break;
    }
    if (!isfinite(a) || !isfinite(b) || !isfinite(r) ||
        (r == 0.0 ? !exact_zero : fabs(r) < DBL_MIN))
        return Py_None;
    return leaf_array(PyFloat_FromDouble(r), FLOAT64_DTYPE);
}

/* The bytes of a 0-d leaf's value where its buffer is a 0-d ndarray of the node's own (native)
 * dtype, read in place: the element paths' `item()` and `__index__` calls cost ~0.05 us each
 * (an attribute lookup, NumPy's scalar getter, a Python object made and freed). NULL where the
 * buffer is anything else (its methods then). */
static const char *
leaf_bytes(NodeObject *n)
{
    if (!ARRAY_FIELDS || !is_ndarray(n->data) || FIELDS(n->data)->nd != 0 ||
        FIELDS(n->data)->descr != n->dtype)
        return NULL;
    return FIELDS(n->data)->data;
}

/* A signed integer leaf's value (int_bits' dtypes), as NumPy's item() gives it: 1, or 0 where
 * leaf_bytes has none. */
static int
leaf_int_value(NodeObject *n, long long *out)
{
    const char *at = leaf_bytes(n);
    int bits = int_bits(n->dtype);
    if (at == NULL || bits == 0)
        return 0;
    int64_t v64;
    int32_t v32;
    int16_t v16;
    int8_t v8;
    switch (bits) {
    case 64: memcpy(&v64, at, sizeof v64); *out = v64; break;
    case 32: memcpy(&v32, at, sizeof v32); *out = v32; break;
    case 16: memcpy(&v16, at, sizeof v16); *out = v16; break;
    default: memcpy(&v8, at, sizeof v8); *out = v8;
    }
    return 1;
}

/* The integer side of element arithmetic: int32 and int64 elements (nussinov's table) and
 * Python ints the dtype holds, wrapping as NumPy's integer loops do (no flag for integers);
 * `/` is NumPy's true division of the two as float64 (a division by zero: the general path). */
/* 1: a computed 0-d int32/int64 leaf (its dtype in *dtype), 2: a Python int in int64, 0: no */
static int
int_operand(PyObject *x, long long *out, PyObject **dtype, int *eager)
{
    int overflow = 0;
    if (PyLong_CheckExact(x)) {
        *out = PyLong_AsLongLongAndOverflow(x, &overflow);
        return overflow ? 0 : 2;
    }
    NodeObject *n = array_node(x);
    if (n == NULL || n->op != INPUT_OP || !int_bits(n->dtype) ||
        PyTuple_GET_SIZE(n->inputs) != 0 || PyTuple_GET_SIZE(n->shape) != 0 || !is_ndarray(n->data))
        return 0;
    if (!leaf_int_value(n, out)) { /* (another layout: its __index__) */
        PyObject *v = PyNumber_Index(n->data);
        if (v == NULL) {
            PyErr_Clear();
            return 0;
        }
        *out = PyLong_AsLongLongAndOverflow(v, &overflow);
        Py_DECREF(v);
        if (overflow || (*out == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
    }
    *dtype = n->dtype;
    *eager |= n->attrs == EAGER_MARK;
    return 1;
}

static PyObject *
int_element_arithmetic(int which, PyObject *x, PyObject *y)
{
    if (INT32_DTYPE_C == NULL || INT64_DTYPE_C == NULL)
        return Py_None;
    long long a, b;
    PyObject *da = NULL, *db = NULL;
    int eager = 0;
    int ka = int_operand(x, &a, &da, &eager), kb = ka ? int_operand(y, &b, &db, &eager) : 0;
    if (!ka || !kb || !eager || (da != NULL && db != NULL && da != db))
        return Py_None; /* (int32 with int64 promotes: the general path) */
    PyObject *dtype = da != NULL ? da : db;
    int bits = int_bits(dtype);
    if (!int_fits(ka, a, bits) || !int_fits(kb, b, bits))
        return Py_None; /* NumPy 2's OverflowError for the Python int: the general path */
    if (which == DIV) {
        if (b == 0)
            return Py_None;
        return leaf_array(PyFloat_FromDouble((double)a / (double)b), FLOAT64_DTYPE);
    }
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    unsigned long long r = which == ADD ? ua + ub : which == SUB ? ua - ub : ua * ub;
    return leaf_array(PyLong_FromLongLong(wrap_int(r, bits)), dtype);
}

/* --- element operators: `crc ^ b`, `k % 3`, `k >> 1`, `e // 2.0`, `e ** 2` on elements ----------
 * Array's Python methods for & | ^ << >> // % ** took NumPy's ufunc call under the error state
 * (~1.6 us, NumPy's scalars ~0.04). These C methods compute int32/int64 elements of the at-once
 * path and Python ints the dtype holds (int_element_arithmetic's operands) as NumPy's integer
 * loops do: wrapping; a shift by a negative count or past the width gives 0 (or -1 for a
 * negative value shifted right); floor division and modulo take the divisor's sign. A division
 * by zero, MIN // -1 and a negative exponent (NumPy's warnings and error) take the Python
 * method, as does anything else; float64 elements' `//`, `%` (float_element_divmod) and `** 2`
 * (float_element_square) too. Set by install_element_operators(). */
enum { I_AND, I_OR, I_XOR, I_LSHIFT, I_RSHIFT, I_FLOORDIV, I_MOD, I_POW, N_ELEMENT_OPERATORS };
static PyObject *bool_element_op(int which, int logic, PyObject *x, PyObject *y);
static PyObject *TWO_C; /* the Python int 2 (float_element_square) */
enum { U_ABS, U_SQRT, U_SQUARE, U_FLOOR, U_CEIL, U_TRUNC, U_SIGN, N_ELEMENT_UNARY };
static PyObject *ELEMENT_UNARY_OP[N_ELEMENT_UNARY]; /* set_element_ops()'s optional OpDefs */
static PyObject *try_unary(PyObject *op, PyObject *x);
static int set_array_method(PyMethodDef *def, const char *name);
static int installed(void);
static PyObject *ELEMENT_FALLBACK[N_ELEMENT_OPERATORS][2];
/* Each operator's OpDef (install_element_operators' argument; NULL: none): arrays and Python
 * scalars take try_binary before the Python method, as its namespace function would first */
static PyObject *ELEMENT_OP[N_ELEMENT_OPERATORS];
static PyObject *try_binary(PyObject *op, PyObject *x, PyObject *y);

static PyObject *
int_element_operator(int which, PyObject *x, PyObject *y)
{
    if (INT32_DTYPE_C == NULL || INT64_DTYPE_C == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    long long a, b;
    PyObject *da = NULL, *db = NULL;
    int eager = 0;
    int ka = int_operand(x, &a, &da, &eager), kb = ka ? int_operand(y, &b, &db, &eager) : 0;
    if (!ka || !kb || !eager || (da != NULL && db != NULL && da != db))
        return Py_None;
    PyObject *dtype = da != NULL ? da : db;
    int bits = int_bits(dtype);
    if (!int_fits(ka, a, bits) || !int_fits(kb, b, bits))
        return Py_None;
    long long min = bits == 64 ? LLONG_MIN : -(1LL << (bits - 1));
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b, r;
    switch (which) {
    case I_AND: r = ua & ub; break;
    case I_OR: r = ua | ub; break;
    case I_XOR: r = ua ^ ub; break;
    case I_LSHIFT:
        r = b < 0 || b >= bits ? 0 : ua << b;
        break;
    case I_RSHIFT:
        r = (unsigned long long)(b < 0 || b >= bits ? (a < 0 ? -1 : 0) : a >> b);
        break;
    case I_POW: /* wrapping, by squaring; a negative exponent: NumPy's ValueError */
        if (b < 0)
            return Py_None;
        r = 1;
        for (unsigned long long base = ua, e = ub; e; e >>= 1, base *= base)
            if (e & 1)
                r *= base;
        break;
    default: {
        if (b == 0 || (a == min && b == -1))
            return Py_None; /* (NumPy's warnings: the Python method) */
        long long q = a / b, m = a % b;
        if (m != 0 && ((m < 0) != (b < 0)))
            q -= 1, m += b;
        r = (unsigned long long)(which == I_FLOORDIV ? q : m);
    }
    }
    return leaf_array(PyLong_FromLongLong(wrap_int(r, bits)), dtype);
}

/* `e ** 2` of a float64 element: the correctly rounded square NumPy's scalar power gives (an
 * overflow or underflow: the general path, NumPy's warning); Py_None otherwise. */
static PyObject *
float_element_square(PyObject *x, PyObject *y)
{
    double a, r;
    int eager = 0;
    if (!(PyLong_CheckExact(y) || PyFloat_CheckExact(y)) || PyObject_RichCompareBool(y, TWO_C, Py_EQ) != 1 ||
        PyFloat_Check(x) || PyLong_Check(x) || !f64_operand(x, &a, &eager) || !eager ||
        EAGER_LIMIT == NULL || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0) {
        PyErr_Clear();
        return Py_None;
    }
    r = a * a;
    if (isfinite(a) && (!isfinite(r) || (r == 0.0 ? a != 0.0 : r < DBL_MIN)))
        return Py_None;
    return leaf_array(PyFloat_FromDouble(r), FLOAT64_DTYPE);
}

/* `a // b` or `a % b` of float64 elements and Python numbers: NumPy's npy_divmod (fmod, then
 * the quotient snapped to an integer, signs as Python's), for finite operands, a nonzero divisor
 * and results that raise no flag but inexact (an overflow, a subnormal: the general path). */
static PyObject *
float_element_divmod(int which, PyObject *x, PyObject *y)
{
    double a, b;
    int eager = 0;
    if (FLOAT64_DTYPE == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0 || !f64_operand(x, &a, &eager) ||
        !f64_operand(y, &b, &eager) || !eager || !isfinite(a) || !isfinite(b) || b == 0.0)
        return Py_None;
    double mod = fmod(a, b), diff = a - mod, div = diff / b, floordiv;
    if (!isfinite(div) || (diff != 0.0 && fabs(diff) < DBL_MIN) ||
        (div != 0.0 && fabs(div) < DBL_MIN))
        return Py_None;
    if (mod != 0.0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1.0;
        }
    }
    else
        mod = copysign(0.0, b);
    if (div != 0.0) {
        floordiv = floor(div);
        if (div - floordiv > 0.5)
            floordiv += 1.0;
    }
    else {
        double q = a / b;
        if (q != 0.0 && fabs(q) < DBL_MIN)
            return Py_None; /* (NumPy's a / b there: an underflow) */
        floordiv = copysign(0.0, q);
    }
    if (mod != 0.0 && fabs(mod) < DBL_MIN)
        return Py_None;
    return leaf_array(PyFloat_FromDouble(which == I_FLOORDIV ? floordiv : mod), FLOAT64_DTYPE);
}

/* `x ** 2` of a float Array as `np.square(x)` (_methods._power_method's rewrite: NumPy's
 * operator takes square, whose name an overflow report gives; ml_from_scratch's
 * `np.sum((x1 - x2) ** 2)` per row) without the Python method's frame; Py_None (borrowed) for it. */
static PyObject *
float_array_square(PyObject *self, PyObject *other)
{
    static PyObject *kind_name;
    NodeObject *nx = array_node(self);
    if (nx == NULL || !PyLong_CheckExact(other) || OPERATOR_OP[MUL] == NULL)
        return Py_None;
    int overflow = 0;
    if (PyLong_AsLongAndOverflow(other, &overflow) != 2 || overflow)
        return PyErr_Occurred() ? NULL : Py_None;
    if (kind_name == NULL && (kind_name = PyUnicode_InternFromString("kind")) == NULL)
        return NULL;
    PyObject *kind = PyObject_GetAttr(nx->dtype, kind_name);
    int is_float = kind != NULL && PyUnicode_Check(kind) && PyUnicode_GET_LENGTH(kind) == 1 &&
                   PyUnicode_READ_CHAR(kind, 0) == 'f';
    Py_XDECREF(kind);
    if (!is_float)
        return PyErr_Occurred() ? NULL : Py_None;
    if (ELEMENT_UNARY_OP[U_SQUARE] == NULL)
        return Py_None;
    return try_unary(ELEMENT_UNARY_OP[U_SQUARE], self);
}

static PyObject *
element_operator(int which, int reflected, PyObject *self, PyObject *other)
{
    if (!installed())
        return NULL;
    if (which == I_POW && !reflected && FLOAT64_DTYPE != NULL) {
        PyObject *out = float_element_square(self, other);
        if (out != Py_None)
            return out;
        out = float_array_square(self, other);
        if (out != Py_None)
            return out;
    }
    if (which == I_FLOORDIV || which == I_MOD) {
        PyObject *out = reflected ? float_element_divmod(which, other, self)
                                  : float_element_divmod(which, self, other);
        if (out != Py_None)
            return out;
    }
    PyObject *out = reflected ? int_element_operator(which, other, self)
                              : int_element_operator(which, self, other);
    if (out != Py_None)
        return out;
    if (which == I_AND || which == I_OR || which == I_XOR) {
        out = reflected ? bool_element_op(which, 1, other, self)
                        : bool_element_op(which, 1, self, other);
        if (out != Py_None)
            return out;
    }
    if (ELEMENT_OP[which] != NULL) { /* `(rule >> code) & 1` of arrays: the namespace
                                        * function's C path without its two Python frames */
        out = reflected ? try_binary(ELEMENT_OP[which], other, self)
                        : try_binary(ELEMENT_OP[which], self, other);
        if (out != Py_None)
            return out;
    }
    PyObject *call[2] = {self, other};
    return PyObject_Vectorcall(ELEMENT_FALLBACK[which][reflected], call, 2, NULL);
}

#define ELEMENT_OPERATOR_METHODS(NAME, WHICH)                                        \
    static PyObject *NAME##_int_forward(PyObject *self, PyObject *other)          \
    {                                                                            \
        return element_operator(WHICH, 0, self, other);                              \
    }                                                                            \
    static PyObject *NAME##_int_reflected(PyObject *self, PyObject *other)        \
    {                                                                            \
        return element_operator(WHICH, 1, self, other);                              \
    }
ELEMENT_OPERATOR_METHODS(and, I_AND)
ELEMENT_OPERATOR_METHODS(or, I_OR)
ELEMENT_OPERATOR_METHODS(xor, I_XOR)
ELEMENT_OPERATOR_METHODS(lshift, I_LSHIFT)
ELEMENT_OPERATOR_METHODS(rshift, I_RSHIFT)
ELEMENT_OPERATOR_METHODS(floordiv, I_FLOORDIV)
ELEMENT_OPERATOR_METHODS(mod, I_MOD)
ELEMENT_OPERATOR_METHODS(pow, I_POW)

static PyMethodDef element_operator_methods[N_ELEMENT_OPERATORS][2] = {
    {{"__and__", and_int_forward, METH_O, "self & other"},
     {"__rand__", and_int_reflected, METH_O, "other & self"}},
    {{"__or__", or_int_forward, METH_O, "self | other"},
     {"__ror__", or_int_reflected, METH_O, "other | self"}},
    {{"__xor__", xor_int_forward, METH_O, "self ^ other"},
     {"__rxor__", xor_int_reflected, METH_O, "other ^ self"}},
    {{"__lshift__", lshift_int_forward, METH_O, "self << other"},
     {"__rlshift__", lshift_int_reflected, METH_O, "other << self"}},
    {{"__rshift__", rshift_int_forward, METH_O, "self >> other"},
     {"__rrshift__", rshift_int_reflected, METH_O, "other >> self"}},
    {{"__floordiv__", floordiv_int_forward, METH_O, "self // other"},
     {"__rfloordiv__", floordiv_int_reflected, METH_O, "other // self"}},
    {{"__mod__", mod_int_forward, METH_O, "self % other"},
     {"__rmod__", mod_int_reflected, METH_O, "other % self"}},
    {{"__pow__", pow_int_forward, METH_O, "self ** other"},
     {"__rpow__", pow_int_reflected, METH_O, "other ** self"}},
};

/* install_element_operators([ops]): Array's & | ^ << >> // % ** (and reflected) become the C
 * methods above, each with Array's present (Python) method as its fallback; `ops`, a tuple of
 * each one's OpDef or None, gives arrays try_binary first. After install_methods(). */
static PyObject *
py_install_element_operators(PyObject *module, PyObject *args)
{
    PyObject *ops = NULL;
    if (!PyArg_ParseTuple(args, "|O!:install_element_operators", &PyTuple_Type, &ops))
        return NULL;
    if (ARRAY == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "install_element_operators: install() first");
        return NULL;
    }
    if (ops != NULL && PyTuple_GET_SIZE(ops) != N_ELEMENT_OPERATORS) {
        PyErr_SetString(PyExc_ValueError, "install_element_operators: one op (or None) each");
        return NULL;
    }
    for (int i = 0; ops != NULL && i < N_ELEMENT_OPERATORS; i++) {
        PyObject *op = PyTuple_GET_ITEM(ops, i);
        Py_XSETREF(ELEMENT_OP[i], op == Py_None ? NULL : Py_NewRef(op));
    }
    if (TWO_C == NULL && (TWO_C = PyLong_FromLong(2)) == NULL)
        return NULL;
    for (int i = 0; i < N_ELEMENT_OPERATORS; i++)
        for (int r = 0; r < 2; r++) {
            PyMethodDef *def = &element_operator_methods[i][r];
            PyObject *fallback = PyObject_GetAttrString((PyObject *)ARRAY, def->ml_name);
            if (fallback == NULL)
                return NULL;
            Py_XSETREF(ELEMENT_FALLBACK[i][r], fallback);
            if (set_array_method(def, def->ml_name) < 0)
                return NULL;
        }
    Py_RETURN_NONE;
}

/* The ufunc of `op` where its reference is a plain ufunc (`ufunc(*xs)`: NumPy broadcasts its
 * inputs itself): a new reference, or NULL with no error set. */
static PyObject *
plain_ufunc_of(PyObject *op)
{
    PyObject *reference = getattr_named(op, A_REFERENCE);
    if (reference == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *ufunc = UFUNC_CODE != NULL && PyFunction_Check(reference) &&
                              PyFunction_GET_CODE(reference) == UFUNC_CODE
                          ? plain_ufunc(reference) : NULL;
    Py_XINCREF(ufunc);
    Py_DECREF(reference);
    return ufunc;
}

/* make_array's at-once test (eager_candidate), made on the op and operands of a node not built
 * yet: 1 where the node would be computed now, 0 where not, -1 on error. */
static int
at_once(PyObject *op, PyObject *const *operands, Py_ssize_t n, PyObject *shape)
{
    if (EAGER_HOOK == NULL || EXTOBJ_VAR == NULL || UFUNC_CODE == NULL || op == BROADCAST_OP)
        return 0;
    int allowed = eager_allowed(shape);
    if (allowed <= 0)
        return allowed;
    return is_seed_op(op) || reads_indexed(operands, n, 1);
}

/* `ufunc(*args)` (args stolen; NULL: an input C did not take, its error cleared) as the Array of
 * an at-once leaf of `shape` and `dtype`: where the result is a fresh C-contiguous array of both
 * and no flag was raised. Py_None (borrowed) for the general path, NULL on error. */
/* An operand's strides for small_float_loop's two dims (the result's `dims`, `nd` of them, padded
 * in front with 1s): its own where it has the result's shape, 0 for a 0-d one; 0 where it
 * broadcasts otherwise (NumPy's call then). */
static int
loop_strides(PyObject *x, int nd, const Py_ssize_t *dims, Py_ssize_t *strides)
{
    strides[0] = strides[1] = 0;
    if (FIELDS(x)->nd == 0)
        return 1;
    if (FIELDS(x)->nd != nd)
        return 0;
    for (int k = 0; k < nd; k++) {
        if (FIELDS(x)->dimensions[k] != dims[2 - nd + k])
            return 0;
        strides[2 - nd + k] = FIELDS(x)->strides[k];
    }
    return 1;
}

/* `x op y` for + - * / of float64 or float32 values of at most SMALL_LOOP elements, in a plain C
 * loop into a new array: NumPy's ufunc call costs ~0.25 us before its loop, more than the loop
 * itself here. IEEE-754's correctly rounded operations give NumPy's bits; where one raised a flag (division by
 * zero, overflow, underflow, invalid) the result is dropped and NumPy's call runs and reports it.
 * A new reference, or Py_None (new) where it does not apply; NULL on error. */
#define SMALL_LOOP 256
#define SMALL_DENSE_LOOP 1024

/* small_float_loop's contiguous row: `out = a OP b` where a and b are rows or (step 0) one
 * value; out is fresh, so nothing aliases. Their own functions, marked hot: inside
 * small_float_loop gcc's estimate called these loops cold and left them scalar, unrotated. */
#define DENSE_LOOP_OF(OP)                                                                   \
    if (a_row && b_row)                                                                     \
        for (Py_ssize_t j = 0; j < n; j++)                                                  \
            out[j] = a[j] OP b[j];                                                          \
    else if (a_row) {                                                                       \
        const T s = b[0];                                                                   \
        for (Py_ssize_t j = 0; j < n; j++)                                                  \
            out[j] = a[j] OP s;                                                             \
    }                                                                                       \
    else {                                                                                  \
        const T s = a[0];                                                                   \
        for (Py_ssize_t j = 0; j < n; j++)                                                  \
            out[j] = s OP b[j];                                                             \
    }
#define DENSE_FUNCTION(NAME, TYPE)                                                          \
    __attribute__((hot, noinline)) static void                                              \
    NAME(int which, TYPE *restrict out, const TYPE *restrict a, const TYPE *restrict b,     \
         Py_ssize_t n, int a_row, int b_row)                                                \
    {                                                                                       \
        typedef TYPE T;                                                                     \
        switch (which) {                                                                    \
        case 0: DENSE_LOOP_OF(+) break;                                                     \
        case 1: DENSE_LOOP_OF(-) break;                                                     \
        case 2: DENSE_LOOP_OF(*) break;                                                     \
        default: DENSE_LOOP_OF(/) break;                                                    \
        }                                                                                   \
    }
DENSE_FUNCTION(dense_float64_loop, double)
DENSE_FUNCTION(dense_float32_loop, float)
#undef DENSE_FUNCTION
#undef DENSE_LOOP_OF

/* The float32 dtype (np.dtype("float32")): the first of SCALAR_DTYPES when it holds both. */
static PyObject *
float32_dtype(void)
{
    return SCALAR_DTYPES != NULL && PyTuple_GET_SIZE(SCALAR_DTYPES) == 2
               ? PyTuple_GET_ITEM(SCALAR_DTYPES, 0) : NULL;
}

static PyObject *
small_float_loop(PyObject *ufunc, PyObject *args, PyObject *shape, PyObject *dtype)
{
    int which = ufunc == NULL ? -1 : ufunc == NP_ADD ? 0 : ufunc == NP_SUBTRACT ? 1
                : ufunc == NP_MULTIPLY ? 2 : ufunc == NP_DIVIDE ? 3 : -1;
    int nd = (int)PyTuple_GET_SIZE(shape);
    int f32 = dtype != FLOAT64_DTYPE;
    if (which < 0 || (f32 && (dtype == NULL || dtype != float32_dtype())) ||
        NP_NEW_FROM_DESCR == NULL || !FP_DIRECT || PyTuple_GET_SIZE(args) != 2 || nd > 2)
        return Py_NewRef(Py_None);
    PyObject *x = PyTuple_GET_ITEM(args, 0), *y = PyTuple_GET_ITEM(args, 1);
    if (!is_ndarray(x) || !is_ndarray(y) || FIELDS(x)->descr != dtype ||
        FIELDS(y)->descr != dtype)
        return Py_NewRef(Py_None);
    const Py_ssize_t item = f32 ? (Py_ssize_t)sizeof(float) : (Py_ssize_t)sizeof(double);
    Py_ssize_t dims[2] = {1, 1}, xs[2], ys[2];
    for (int k = 0; k < nd; k++)
        dims[2 - nd + k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k));
    if (PyErr_Occurred())
        return NULL;
    if (dims[0] < 0 || dims[1] < 0 || !loop_strides(x, nd, dims, xs) ||
        !loop_strides(y, nd, dims, ys))
        return Py_NewRef(Py_None);
    /* an operand whose columns run in memory (`A.T * 2`): NumPy's result is Fortran-ordered
     * (order K), which this C-ordered loop would lose: NumPy's call, then the leaf in its order
     * (lazyarray/result_layout.py, eager.py `_leaf`) */
    if (dims[0] > 1 && dims[1] > 1 &&
        ((xs[0] != 0 && xs[1] != 0 && llabs(xs[0]) < llabs(xs[1])) ||
         (ys[0] != 0 && ys[1] != 0 && llabs(ys[0]) < llabs(ys[1]))))
        return Py_NewRef(Py_None);
    /* contiguous rows (or a 0-d operand) take the loops the compiler vectorizes: NumPy's call
     * costs more than their ~1000 elements; any other layout, ~256 */
    int dense = dims[0] == 1 && (xs[1] == item || xs[1] == 0) && (ys[1] == item || ys[1] == 0) &&
                (xs[1] | ys[1]) != 0;
    /* (one row of another stride, `alpha * np.flip(y[:k])`: a strided loop, ~1 ns an element,
     * still below NumPy's call up to the dense bound) */
    if (dims[0] * dims[1] > (dense || dims[0] == 1 ? SMALL_DENSE_LOOP : SMALL_LOOP))
        return Py_NewRef(Py_None);
    PyObject *out = NP_NEW_FROM_DESCR(NDARRAY_TYPE, Py_NewRef(dtype), nd, dims + 2 - nd,
                                      NULL, NULL, 0, NULL);
    if (out == NULL)
        return NULL;
    char *o = FIELDS(out)->data;
    const char *xp = FIELDS(x)->data, *yp = FIELDS(y)->data;
    NODE->fp_clear();
    if (dense) {
        Py_ssize_t n = dims[1];
        if ((uintptr_t)xp % (uintptr_t)item != 0 || (uintptr_t)yp % (uintptr_t)item != 0)
            dense = 0; /* (a misaligned buffer: the strided loops' memcpy) */
        else if (f32)
            dense_float32_loop(which, (float *)o, (const float *)xp, (const float *)yp, n,
                               xs[1] != 0, ys[1] != 0);
        else
            dense_float64_loop(which, (double *)o, (const double *)xp, (const double *)yp, n,
                               xs[1] != 0, ys[1] != 0);
    }
    if (!dense) {
#define SMALL_LOOP_OF(T, OP)                                                                \
    for (Py_ssize_t i = 0; i < dims[0]; i++)                                                \
        for (Py_ssize_t j = 0; j < dims[1]; j++, o += sizeof(T)) {                         \
            T a, b, r;                                                                      \
            memcpy(&a, xp + i * xs[0] + j * xs[1], sizeof a);                              \
            memcpy(&b, yp + i * ys[0] + j * ys[1], sizeof b);                              \
            r = a OP b;                                                                     \
            memcpy(o, &r, sizeof r);                                                        \
        }
#define SMALL_LOOPS_OF(T)                                                                   \
        switch (which) {                                                                    \
        case 0: SMALL_LOOP_OF(T, +) break;                                                  \
        case 1: SMALL_LOOP_OF(T, -) break;                                                  \
        case 2: SMALL_LOOP_OF(T, *) break;                                                  \
        default: SMALL_LOOP_OF(T, /) break;                                                 \
        }
        if (f32) {
            SMALL_LOOPS_OF(float)
        }
        else {
            SMALL_LOOPS_OF(double)
        }
#undef SMALL_LOOPS_OF
#undef SMALL_LOOP_OF
    }
    if (NODE->fp_test() != 0) {
        Py_DECREF(out);
        return Py_NewRef(Py_None);
    }
    return out;
}

/* small_float_loop's result `out` (C-contiguous, fresh: no overlap) into `target`, an ndarray of
 * its shape and dtype (NumPy's `target[...] = out` without its call). */
static void
store_small(PyObject *target, PyObject *out)
{
    int nd = FIELDS(target)->nd;
    Py_ssize_t dims[2] = {1, 1}, strides[2] = {0, 0};
    for (int k = 0; k < nd; k++) {
        dims[2 - nd + k] = FIELDS(target)->dimensions[k];
        strides[2 - nd + k] = FIELDS(target)->strides[k];
    }
    const char *from = FIELDS(out)->data;
    const size_t item = FIELDS(target)->descr == FLOAT64_DTYPE ? sizeof(double) : sizeof(float);
    for (Py_ssize_t i = 0; i < dims[0]; i++)
        for (Py_ssize_t j = 0; j < dims[1]; j++, from += item)
            memcpy(FIELDS(target)->data + i * strides[0] + j * strides[1], from, item);
}

static PyObject *
ufunc_leaf(PyObject *ufunc, PyObject *args, PyObject *shape, PyObject *dtype)
{
    if (args == NULL) {
        PyErr_Clear();
        return Py_None;
    }
    PyObject *out, *bits, *result = Py_None;
    out = small_float_loop(ufunc, args, shape, dtype);
    if (out == NULL) {
        Py_DECREF(args);
        return NULL;
    }
    if (out != Py_None) {
        Py_DECREF(args);
        bits = PyLong_FromLong(0);
        if (bits == NULL) {
            Py_DECREF(out);
            return NULL;
        }
    }
    else {
        Py_DECREF(out);
        int failed = call_checked(ufunc, NULL, args, NULL, NULL, &out, &bits);
        Py_DECREF(args);
        if (failed)
            return NULL;
        if (out == NULL)
            return Py_None;
    }
    int plain = plain_result(&out, bits, shape, dtype);
    if (plain < 0)
        result = NULL;
    else if (plain) {
        PyObject *site = NODE->user_site();
        PyObject *leaf = site == NULL ? NULL
                         : NODE->build(INPUT_OP, EMPTY, EAGER_MARK, shape, dtype, out, site);
        Py_XDECREF(site);
        result = leaf == NULL ? NULL : make_array(leaf);
    }
    Py_XDECREF(out);
    Py_XDECREF(bits);
    return result;
}

/* An Array operand's value for binary_now in the loop's `dtype`: input_value, safely cast where
 * the operand has another dtype (the node would have cast it: `a1 * img[:, j]`, float64 times a
 * float32 column). A new reference, or NULL with no error set. */
static PyObject *
operand_value(NodeObject *n, PyObject *dtype)
{
    PyObject *value = input_value(n, 1);
    return n->dtype == dtype ? value : safe_astype(value, n->dtype, dtype);
}

/* The at-once path's common case before any node is built: `x op y` whose node one_op_now would
 * compute (at_once) with a plain ufunc into a fresh array, no flag raised. Its leaf's Array,
 * without the op node, the scalar's leaf and the broadcast that the node would have needed and
 * dropped (~0.3 us). Py_None (borrowed) where it does not apply: the general path then builds
 * the node (and computes it, reporting flags); NULL on error. `loop`: (x's, y's, the result's
 * dtype); `shape`: the broadcast shape. */
static PyObject *
binary_now(PyObject *op, PyObject *x, PyObject *y, NodeObject *nx, NodeObject *ny,
           PyObject *loop, PyObject *shape)
{
    PyObject *operands[2];
    Py_ssize_t n = 0;
    if (nx != NULL)
        operands[n++] = (PyObject *)nx;
    if (ny != NULL)
        operands[n++] = (PyObject *)ny;
    int now = at_once(op, operands, n, shape);
    PyObject *ufunc = now > 0 ? plain_ufunc_of(op) : NULL;
    if (ufunc == NULL)
        return now < 0 ? NULL : Py_None;
    Py_INCREF(loop); /* held: the values below may run Python */
    Py_INCREF(shape);
    PyObject *a = nx ? operand_value(nx, PyTuple_GET_ITEM(loop, 0))
                     : scalar_array(x, PyTuple_GET_ITEM(loop, 0));
    PyObject *b = a == NULL ? NULL
                  : ny ? operand_value(ny, PyTuple_GET_ITEM(loop, 1))
                       : scalar_array(y, PyTuple_GET_ITEM(loop, 1));
    PyObject *args = b == NULL ? NULL : PyTuple_Pack(2, a, b);
    Py_XDECREF(a);
    Py_XDECREF(b);
    PyObject *result = ufunc_leaf(ufunc, args, shape, PyTuple_GET_ITEM(loop, 2));
    Py_DECREF(ufunc);
    Py_DECREF(loop);
    Py_DECREF(shape);
    return result;
}

/* np.maximum / np.minimum of elements (nussinov's `np.maximum(table[i, j], table[i, k] + ...)`)
 * in C, as element_arithmetic: int32/int64 elements and Python ints the dtype holds, float64
 * elements and Python numbers; NumPy's `a >= b ? a : b` (`<=` for the minimum). Floats only
 * where that cannot differ from NumPy's loop: no NaN, not two zeros (their signs). Py_None
 * (borrowed) for the general path. Set by set_extrema_ops(). */
static PyObject *MAXIMUM_OP, *MINIMUM_OP, *NEGATIVE_OP;

/* op(x) for a float64 element of the at-once path, in C where the result is NumPy's bits and
 * raises no flag: abs, floor, ceil, trunc exact; sqrt correctly rounded (a negative operand:
 * NumPy's 'invalid', the general path); square a product (an overflow or underflow: the general
 * path); sign exact (NaN, which NumPy returns as it is: the general path). `np.abs(t)`,
 * `np.sqrt(t)`, `np.sign(theta)` of an element took NumPy's ufunc call (~1.1-1.7 us). Py_None
 * (borrowed) for the general path. */
static PyObject *
element_unary_f64(PyObject *op, PyObject *x)
{
    int which = -1;
    for (int k = 0; k < N_ELEMENT_UNARY; k++)
        if (op == ELEMENT_UNARY_OP[k])
            which = k;
    double a, r;
    int eager = 0;
    if (which < 0 || FLOAT64_DTYPE == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0 || PyFloat_Check(x) ||
        PyLong_Check(x) || !f64_operand(x, &a, &eager) || !eager)
        return Py_None;
    switch (which) {
    case U_ABS: r = fabs(a); break;
    case U_SQRT:
        if (a < 0.0)
            return Py_None;
        r = sqrt(a);
        break;
    case U_SQUARE:
        r = a * a;
        if (isfinite(a) && (!isfinite(r) || (r == 0.0 ? a != 0.0 : r < DBL_MIN)))
            return Py_None;
        break;
    case U_FLOOR: r = floor(a); break;
    case U_CEIL: r = ceil(a); break;
    case U_SIGN:
        if (isnan(a))
            return Py_None;
        r = a > 0.0 ? 1.0 : a < 0.0 ? -1.0 : 0.0;
        break;
    default: r = trunc(a); break;
    }
    return leaf_array(PyFloat_FromDouble(r), FLOAT64_DTYPE);
}

/* abs(x) of an int32/int64 element (`min(abs(x) for x in v)`): NumPy's integer absolute, which
 * wraps the most negative value to itself and raises no flag; Py_None (borrowed) for the general
 * path (~1.3 us there, NumPy 0.07). */
static PyObject *
element_abs_int(PyObject *op, PyObject *x)
{
    long long v;
    PyObject *dtype = NULL;
    int eager = 0;
    if (op != ELEMENT_UNARY_OP[U_ABS] || op == NULL || INT32_DTYPE_C == NULL ||
        EAGER_LIMIT == NULL || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0 ||
        int_operand(x, &v, &dtype, &eager) != 1 || !eager)
        return Py_None;
    unsigned long long r = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    return leaf_array(PyLong_FromLongLong(wrap_int(r, int_bits(dtype))), dtype);
}

static PyObject *
element_extremum(PyObject *op, PyObject *x, PyObject *y)
{
    if (EAGER_LIMIT == NULL || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0 || INT32_DTYPE_C == NULL ||
        FLOAT64_DTYPE == NULL)
        return PyErr_Occurred() ? NULL : Py_None;
    int is_max = op == MAXIMUM_OP, eager = 0;
    long long a, b;
    PyObject *da = NULL, *db = NULL;
    int ka = int_operand(x, &a, &da, &eager), kb = ka ? int_operand(y, &b, &db, &eager) : 0;
    if (ka && kb && eager && (da == NULL || db == NULL || da == db) && (da != NULL || db != NULL)) {
        PyObject *dtype = da != NULL ? da : db;
        int bits = int_bits(dtype);
        if (!int_fits(ka, a, bits) || !int_fits(kb, b, bits))
            return Py_None; /* NumPy 2's OverflowError for the Python int: the general path */
        long long r = is_max ? (a >= b ? a : b) : (a <= b ? a : b);
        return leaf_array(PyLong_FromLongLong(r), dtype);
    }
    double fa, fb;
    eager = 0;
    int floats = array_node(x) != NULL || array_node(y) != NULL; /* (not two Python numbers) */
    if (!floats || !f64_operand(x, &fa, &eager) || !f64_operand(y, &fb, &eager) || !eager ||
        isnan(fa) || isnan(fb) || (fa == 0.0 && fb == 0.0))
        return Py_None;
    return leaf_array(PyFloat_FromDouble(is_max ? (fa >= fb ? fa : fb) : (fa <= fb ? fa : fb)),
                      FLOAT64_DTYPE);
}

/* `-alpha` of an element (durbin's `alpha = -(r[k] + ...) / beta`): a float64 element's negation
 * (no flag: the sign bit flips, NaN included), or an int32/int64 element's, wrapping as NumPy's
 * integer loop does; Py_None (borrowed) for the general path. */
static PyObject *
element_negative(PyObject *x)
{
    NodeObject *n = array_node(x);
    if (n == NULL || n->attrs != EAGER_MARK || PyTuple_GET_SIZE(n->shape) != 0 ||
        PyTuple_GET_SIZE(n->inputs) != 0 || !is_ndarray(n->data) || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return PyErr_Occurred() ? NULL : Py_None;
    if (n->dtype == FLOAT64_DTYPE) {
        double v = PyFloat_AsDouble(n->data);
        if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return Py_None;
        }
        return leaf_array(PyFloat_FromDouble(-v), FLOAT64_DTYPE);
    }
    long long v;
    PyObject *dtype = NULL;
    int eager = 0;
    if (int_operand(x, &v, &dtype, &eager) != 1)
        return Py_None;
    unsigned long long r = 0ull - (unsigned long long)v;
    return leaf_array(PyLong_FromLongLong(wrap_int(r, int_bits(dtype))), dtype);
}

/* set_element_ops(maximum, minimum, negative): the OpDefs element_extremum and element_negative
 * serve. */
static PyObject *
py_set_element_ops(PyObject *module, PyObject *args)
{
    PyObject *maximum, *minimum, *negative, *unary[N_ELEMENT_UNARY] = {NULL};
    if (!PyArg_ParseTuple(args, "OOO|OOOOOOO:set_element_ops", &maximum, &minimum, &negative,
                          &unary[0], &unary[1], &unary[2], &unary[3], &unary[4], &unary[5],
                          &unary[6]))
        return NULL;
    for (int k = 0; k < N_ELEMENT_UNARY; k++)
        Py_XSETREF(ELEMENT_UNARY_OP[k], Py_XNewRef(unary[k]));
    Py_XSETREF(MAXIMUM_OP, Py_NewRef(maximum));
    Py_XSETREF(MINIMUM_OP, Py_NewRef(minimum));
    Py_XSETREF(NEGATIVE_OP, Py_NewRef(negative));
    Py_RETURN_NONE;
}

/* op(x, y) on the fast path: a new Array, Py_None (borrowed, not increfed) when the Python path
 * must run, NULL on error. */
static PyObject *
try_binary(PyObject *op, PyObject *x, PyObject *y)
{
    if (!ENABLED)
        return Py_None;
    if (op != NULL && (op == MAXIMUM_OP || op == MINIMUM_OP)) {
        PyObject *out = element_extremum(op, x, y);
        if (out != Py_None)
            return out;
    }
    NodeObject *nx = array_node(x), *ny = array_node(y);
    if ((nx == NULL && !is_weak_scalar(x)) || (ny == NULL && !is_weak_scalar(y)) ||
        (nx == NULL && ny == NULL))
        return Py_None;
    PyObject *kx = nx ? nx->dtype : (PyObject *)Py_TYPE(x);
    PyObject *ky = ny ? ny->dtype : (PyObject *)Py_TYPE(y);
    PyObject *loop, *shape, *key_x = NULL, *key_y = NULL;
    if (memo_lookup(LOOP_MEMO, LOOPS, op, kx, ky, &loop) < 0)
        return NULL;
    if (loop == NULL || !PyTuple_CheckExact(loop) || PyTuple_GET_SIZE(loop) != 3)
        return Py_None;
    shape = nx ? nx->shape : ny->shape;
    if (nx != NULL && ny != NULL) {
        int same = nx->shape == ny->shape
                       ? 1 : PyObject_RichCompareBool(nx->shape, ny->shape, Py_EQ);
        if (same < 0)
            return NULL;
        if (!same) { /* the broadcast shape, if `_bind.broadcast_shapes` has met the pair */
            if (memo_lookup(BROADCAST_MEMO, BROADCASTS, nx->shape, ny->shape, NULL, &shape) < 0)
                return NULL;
            if (shape == NULL)
                return Py_None;
        }
    }
    /* an Array of another dtype than the loop's is cast: at once below, else the Python path */
    int cast = (nx != NULL && nx->dtype != PyTuple_GET_ITEM(loop, 0)) ||
               (ny != NULL && ny->dtype != PyTuple_GET_ITEM(loop, 1));
    if (nx == NULL && scalar_key(PyTuple_GET_ITEM(loop, 0), shape, x, &key_x) <= 0)
        return PyErr_Occurred() ? NULL : Py_None; /* a leaf built the long way */
    if (ny == NULL && scalar_key(PyTuple_GET_ITEM(loop, 1), shape, y, &key_y) <= 0)
        return PyErr_Occurred() ? NULL : Py_None;
    PyObject *now = binary_now(op, x, y, nx, ny, loop, shape);
    if (now != Py_None || cast)
        return now;
    /* Every check passed: build. user_site may run Python (a file seen for the first time), and
     * so may the cut hook inside NODE->build: hold everything borrowed so far. */
    PyObject *held[] = {loop, shape, (PyObject *)nx, (PyObject *)ny, key_x, key_y};
    for (int i = 0; i < 6; i++)
        Py_XINCREF(held[i]);
    PyObject *out = NULL, *a = NULL, *b = NULL;
    PyObject *site = NODE->user_site();
    if (site == NULL)
        goto done;
    a = nx ? widen(nx, shape, site) : scalar_leaf(x, PyTuple_GET_ITEM(loop, 0), shape, site, key_x);
    if (a == NULL)
        goto done;
    b = ny ? widen(ny, shape, site) : scalar_leaf(y, PyTuple_GET_ITEM(loop, 1), shape, site, key_y);
    if (b != NULL)
        out = bind(op, PyTuple_Pack(2, a, b), shape, PyTuple_GET_ITEM(loop, 2), site);
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(site);
    for (int i = 0; i < 6; i++)
        Py_XDECREF(held[i]);
    return out;
}

/* binary_now for one operand (`np.abs(A[i:, i])`, `np.sqrt(row)`): a plain ufunc of an indexed
 * read computed before any node is built; its leaf's Array, Py_None (borrowed) for the general
 * path, NULL on error. `loop`: (x's dtype, the result's). */
static PyObject *
unary_now(PyObject *op, NodeObject *nx, PyObject *loop)
{
    PyObject *operand = (PyObject *)nx;
    int now = at_once(op, &operand, 1, nx->shape);
    PyObject *ufunc = now > 0 ? plain_ufunc_of(op) : NULL;
    if (ufunc == NULL)
        return now < 0 ? NULL : Py_None;
    Py_INCREF(loop); /* held: the value below may run Python */
    Py_INCREF(nx);
    PyObject *a = input_value(nx, 1), *args = a == NULL ? NULL : PyTuple_Pack(1, a);
    Py_XDECREF(a);
    PyObject *result = ufunc_leaf(ufunc, args, nx->shape, PyTuple_GET_ITEM(loop, 1));
    Py_DECREF(ufunc);
    Py_DECREF(loop);
    Py_DECREF(nx);
    return result;
}

static PyObject *try_unary(PyObject *op, PyObject *x);

/* op(x) of a Python float (`np.exp(-beta * dE)`): _bind._of_a_python_number in C, the float as
 * a computed 0-d float64 leaf given to the at-once unary, where that function has seen this op
 * take the same loop for a Python float as for float64 (it remembers both); Py_None (borrowed)
 * for the Python path, which decides the rest. */
static PyObject *
unary_of_a_float(PyObject *op, PyObject *x)
{
    PyObject *weak, *loop;
    if (FLOAT64_DTYPE == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    if (memo_lookup(LOOP_MEMO, LOOPS, op, (PyObject *)&PyFloat_Type, NULL, &weak) < 0 ||
        memo_lookup(LOOP_MEMO, LOOPS, op, FLOAT64_DTYPE, NULL, &loop) < 0)
        return NULL;
    if (weak == NULL || loop == NULL || PyObject_RichCompareBool(weak, loop, Py_EQ) != 1 ||
        !PyTuple_CheckExact(loop) || PyTuple_GET_SIZE(loop) != 2 ||
        PyTuple_GET_ITEM(loop, 0) != FLOAT64_DTYPE)
        return PyErr_Occurred() ? NULL : Py_None;
    PyObject *leaf = leaf_array(Py_NewRef(x), FLOAT64_DTYPE);
    if (leaf == NULL)
        return NULL;
    PyObject *out = try_unary(op, leaf);
    Py_DECREF(leaf);
    return out;
}

/* op(x) on the fast path; as try_binary. */
static PyObject *
try_unary(PyObject *op, PyObject *x)
{
    NodeObject *nx = array_node(x);
    PyObject *loop;
    if (nx == NULL && ENABLED && PyFloat_CheckExact(x))
        return unary_of_a_float(op, x);
    if (nx == NULL || !ENABLED)
        return Py_None;
    if (op == NEGATIVE_OP && op != NULL) {
        PyObject *out = element_negative(x);
        if (out != Py_None)
            return out;
    }
    else if (op != NULL && PyTuple_GET_SIZE(nx->shape) == 0) {
        PyObject *out = nx->dtype == FLOAT64_DTYPE ? element_unary_f64(op, x)
                                                   : element_abs_int(op, x);
        if (out != Py_None)
            return out;
    }
    if (memo_lookup(LOOP_MEMO, LOOPS, op, nx->dtype, NULL, &loop) < 0)
        return NULL;
    if (loop == NULL || !PyTuple_CheckExact(loop) || PyTuple_GET_SIZE(loop) != 2 ||
        PyTuple_GET_ITEM(loop, 0) != nx->dtype)
        return Py_None;
    PyObject *now = unary_now(op, nx, loop);
    if (now != Py_None)
        return now;
    Py_INCREF(loop); /* held across user_site, which may run Python */
    Py_INCREF(nx);
    PyObject *out = NULL, *site = NODE->user_site();
    if (site != NULL)
        out = bind(op, PyTuple_Pack(1, (PyObject *)nx), nx->shape, PyTuple_GET_ITEM(loop, 1), site);
    Py_XDECREF(site);
    Py_DECREF(nx);
    Py_DECREF(loop);
    return out;
}

static int
installed(void)
{
    if (ARRAY == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install() was not called");
        return 0;
    }
    return 1;
}

/* --- the operator methods (method descriptors on Array: no Python frame per operator) --------- */

static PyObject *
operator(int which, int reflected, PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "expected 1 argument");
        return NULL;
    }
    if (!installed())
        return NULL;
    PyObject *other = args[0];
    PyObject *out = reflected ? element_arithmetic(which, other, self)
                              : element_arithmetic(which, self, other);
    if (out == Py_None && FLOAT64_DTYPE != NULL && EAGER_LIMIT != NULL &&
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) > 0 &&
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) == 0)
        out = reflected ? int_element_arithmetic(which, other, self)
                        : int_element_arithmetic(which, self, other);
    if (out != Py_None)
        return out;
    out = reflected ? try_binary(OPERATOR_OP[which], other, self)
                    : try_binary(OPERATOR_OP[which], self, other);
    if (out != Py_None)
        return out;
    PyObject *call[2] = {self, other};
    return PyObject_Vectorcall(FALLBACK[which][reflected], call, 2, NULL);
}

#define OPERATOR_METHODS(NAME, WHICH)                                                  \
    static PyObject *NAME##_forward(PyObject *self, PyObject *const *args, Py_ssize_t n) \
    {                                                                                  \
        return operator(WHICH, 0, self, args, n);                                      \
    }                                                                                  \
    static PyObject *NAME##_reflected(PyObject *self, PyObject *const *args, Py_ssize_t n) \
    {                                                                                  \
        return operator(WHICH, 1, self, args, n);                                      \
    }
OPERATOR_METHODS(add, ADD)
OPERATOR_METHODS(sub, SUB)
OPERATOR_METHODS(mul, MUL)
OPERATOR_METHODS(div, DIV)

/* `x op= y` for the four operators: `x op y` as the operator method computes it, then, where x
 * has no view to write through or follow (`_view` None or an empty list) and the result
 * is a computed value of x's dtype and shape, the handle takes it; x a NumPy scalar (`_view`
 * False: an element, a 0-d result of an op) gives the result itself (an index loop's `t -= d`);
 * else writes.inplace_rest, given the result (no second computation). Set by install_inplace(). */
static PyObject *INPLACE_REST, *INPLACE_UFUNC[N_OPERATORS];
static int write_through_view_c(PyObject *self, PyObject *key, PyObject *value, int whole);

/* `view op= other` at once (`C[i, :i + 1] += v`, `row *= 0.5`): where the general path would
 * compute `view op other` now (its result a fresh array of the view's dtype, no flag raised)
 * and write it through the view into the root's buffer, the same in one step: the checks that
 * the write is safe first (writable_target), then NumPy's op on the buffer's view and the
 * other value, assigned into the view. No result node, leaf or Array (~1 us less). 1 done, 0
 * for the general path (nothing written: a raised flag, a cast, a shape NumPy refuses), -1 on
 * error. */
static NodeObject *synced_view(PyObject *self, NodeObject **old);
static int writable_target(PyObject *self, NodeObject *vn, NodeObject *old, PyObject **target,
                           PyObject **live);
static void reread_views(PyObject *live);

static int
inplace_now(int which, PyObject *self, PyObject *other)
{
    NodeObject *sn = array_node(self), *no = array_node(other), *old, *vn;
    if (sn == NULL || !ENABLED || UFUNC_CODE == NULL || EXTOBJ_VAR == NULL || EAGER_HOOK == NULL ||
        (no == NULL && !is_weak_scalar(other)) || (vn = synced_view(self, &old)) == NULL)
        return 0;
    PyObject *op = OPERATOR_OP[which], *loop, *key = NULL;
    PyObject *ko = no ? no->dtype : (PyObject *)Py_TYPE(other);
    if (memo_lookup(LOOP_MEMO, LOOPS, op, sn->dtype, ko, &loop) < 0)
        return -1;
    if (loop == NULL || !PyTuple_CheckExact(loop) || PyTuple_GET_SIZE(loop) != 3 ||
        PyTuple_GET_ITEM(loop, 0) != sn->dtype || PyTuple_GET_ITEM(loop, 2) != sn->dtype)
        return 0; /* a cast of the result into the view: the general path */
    if (no ? no->dtype != PyTuple_GET_ITEM(loop, 1)
           : scalar_key(PyTuple_GET_ITEM(loop, 1), sn->shape, other, &key) <= 0)
        return PyErr_Occurred() ? -1 : 0;
    int allowed = eager_allowed(sn->shape);
    if (allowed <= 0)
        return allowed;
    PyObject *ufunc = plain_ufunc_of(op);
    if (ufunc == NULL)
        return 0;
    PyObject *target, *live, *b = NULL, *args = NULL, *out = NULL, *bits = NULL;
    Py_INCREF(loop);
    int result = writable_target(self, vn, old, &target, &live);
    if (result <= 0)
        goto done;
    result = 0;
    b = no ? input_value(no, 1) : scalar_array(other, PyTuple_GET_ITEM(loop, 1));
    args = b == NULL ? NULL : PyTuple_Pack(2, target, b);
    if (args == NULL) {
        PyErr_Clear(); /* (a value C does not take: the general path) */
        goto release;
    }
    out = small_float_loop(ufunc, args, sn->shape, sn->dtype);
    if (out == NULL) {
        result = -1;
        goto release;
    }
    if (out != Py_None) { /* a fresh C-contiguous array: copied in, stride by stride */
        store_small(target, out);
        goto stored;
    }
    Py_CLEAR(out);
    if (call_checked(ufunc, NULL, args, NULL, NULL, &out, &bits) < 0) {
        result = -1;
        goto release;
    }
    if (out == NULL)
        goto release;
    int plain = plain_result(&out, bits, sn->shape, sn->dtype);
    if (plain <= 0) {
        result = plain;
        goto release;
    }
    if (PyObject_SetItem(target, Py_Ellipsis, out) < 0) {
        result = -1;
        goto release;
    }
stored:
    reread_views(live); /* the views read the buffer again */
    result = 1;
release:
    Py_XDECREF(out);
    Py_XDECREF(bits);
    Py_XDECREF(args);
    Py_XDECREF(b);
    Py_DECREF(live);
    Py_DECREF(target);
done:
    Py_DECREF(ufunc);
    Py_DECREF(loop);
    return result;
}

#define UPDATE_NODES 24 /* eager._MAX_NODES: the nodes _reads_at_once_leaf looks at */

/* Whether a leaf of `node`'s graph (at most UPDATE_NODES nodes looked at, in
 * eager._reads_at_once_leaf's order) is a result of the at-once rule. */
static int
reads_at_once_leaf(NodeObject *node)
{
    NodeObject *stack[UPDATE_NODES + 8];
    Py_ssize_t top = 0, seen = 0;
    stack[top++] = node;
    while (top > 0 && seen <= UPDATE_NODES) {
        NodeObject *n = stack[--top];
        seen++;
        Py_ssize_t k = PyTuple_GET_SIZE(n->inputs);
        if (k == 0) {
            if (n->attrs == EAGER_MARK)
                return 1;
            continue;
        }
        if (top + k > UPDATE_NODES + 8)
            return 0; /* (more than the walk would look at: Python's path decides) */
        for (Py_ssize_t i = 0; i < k; i++)
            stack[top++] = (NodeObject *)PyTuple_GET_ITEM(n->inputs, i);
    }
    return 0;
}

/* eager.loop_update_now for `x op= v`'s result `node` of one op over one plain ufunc op of
 * computed values (mnist_mlp's `weights_1 += learning_rate * np.outer(...)`, 12,544 elements):
 * within OUTER_UPDATE times eager_size, reading a result of the rule, one_op_now with the
 * node's size as its inner bound (as eager._walk_and_run calls it). A leaf, Py_None (borrowed)
 * for writes.inplace_rest, NULL on error. */
static PyObject *
loop_update_c(NodeObject *node)
{
    if (EAGER_LIMIT == NULL || EAGER_VIEW_OPS == NULL || EAGER_SEED_OPS == NULL ||
        is_view_op(node->op) || is_seed_op(node->op) ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)), size = 1;
    for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(node->shape); d++)
        size *= PyLong_AsSsize_t(PyTuple_GET_ITEM(node->shape, d));
    if (PyErr_Occurred() || limit <= 0 || size < 0 || size > limit * OUTER_UPDATE ||
        !reads_at_once_leaf(node)) {
        PyErr_Clear();
        return Py_None;
    }
    INNER_BOUND = size;
    PyObject *done = one_op_now(node);
    INNER_BOUND = 0;
    if (done == Py_None)
        PyErr_Clear();
    return done;
}

static void release_ring_views(PyObject *target);
static Py_ssize_t ring_holds(PyObject *root, NodeObject *old);
static int ring_only(PyObject *v);
static int sole_node(PyObject *n, Py_ssize_t count);

static PyObject *bool_dtype(void);

/* Whether `self /= other` is NumPy's in-place cast error before anything is computed: self an
 * integer or bool Array with a view or a root to write (not an element, NumPy's scalar: `t /= 2` is
 * `t = t / 2`), other an Array or a Python scalar (its true_divide loop gives a float or a
 * complex, which no integer dtype takes under 'same_kind'). 1, 0, -1 on error. */
static int
int_quotient_target(PyObject *self, PyObject *other)
{
    NodeObject *sn = array_node(self);
    if (sn == NULL || INT_RANGES == NULL || VIEW_OF(self) == Py_False ||
        (array_node(other) == NULL && !is_weak_scalar(other)))
        return 0;
    if (sn->dtype == bool_dtype())
        return 1;
    PyObject *range = PyDict_GetItemWithError(INT_RANGES, sn->dtype);
    return range != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
}

static PyObject *
inplace_operator(int which, PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "expected 1 argument");
        return NULL;
    }
    release_ring_views(self);
    PyObject *link0 = array_node(self) == NULL ? NULL : VIEW_OF(self);
    if (link0 != NULL && PyTuple_CheckExact(link0) && PyTuple_GET_SIZE(link0) >= 4 &&
        !PyObject_IsTrue(PyTuple_GET_ITEM(link0, 3))) {
        /* a read-only view: NumPy's "output array is read-only" before `x op y` computes (or
         * warns): writes.inplace_rest raises it */
        PyObject *call[4] = {self, Py_None, args[0], INPLACE_UFUNC[which]};
        return PyObject_Vectorcall(INPLACE_REST, call, 4, NULL);
    }
    int refused = which == DIV ? int_quotient_target(self, args[0]) : 0;
    if (refused != 0) {
        /* `int_array /= y`: NumPy's UFuncTypeError (a float quotient into ints) before it
         * computes, so no RuntimeWarning of `x / 0` first (fuzz56): inplace_rest raises it */
        PyObject *marker = refused < 0 ? NULL : PyObject_CallFunction(
            PyExc_ValueError, "s", "an integer array's in-place true division");
        if (marker == NULL)
            return NULL;
        PyObject *call[4] = {self, marker, args[0], INPLACE_UFUNC[which]};
        PyObject *out = PyObject_Vectorcall(INPLACE_REST, call, 4, NULL);
        Py_DECREF(marker);
        return out;
    }
    int now = inplace_now(which, self, args[0]);
    if (now != 0)
        return now < 0 ? NULL : Py_NewRef(self);
    PyObject *result = operator(which, 0, self, args, 1);
    if (result == NULL && (PyErr_ExceptionMatches(PyExc_ValueError) ||
                           PyErr_ExceptionMatches(PyExc_FloatingPointError) ||
                           PyErr_ExceptionMatches(PyExc_RuntimeWarning))) {
        /* `x op y` refused the shapes, or its value computed at once raised a flag: NumPy
         * checks the in-place cast and the output's shape first (inplace_rest raises its
         * UFuncTypeError or ValueError, else this error again) */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        if (tb != NULL)
            PyException_SetTraceback(value, tb);
        Py_XDECREF(type);
        Py_XDECREF(tb);
        PyObject *call[4] = {self, value, args[0], INPLACE_UFUNC[which]};
        PyObject *out = PyObject_Vectorcall(INPLACE_REST, call, 4, NULL);
        Py_DECREF(value);
        return out;
    }
    if (result == NULL || result == Py_NotImplemented)
        return result;
    NodeObject *sn = array_node(self), *rn = array_node(result);
    PyObject *link = sn == NULL ? NULL : VIEW_OF(self);
    if (link == Py_False)
        return result; /* NumPy's scalar: `t op= y` is `t = t op y` (writes.inplace_rest) */
    if (rn != NULL && link != NULL && PyTuple_GET_SIZE(rn->inputs) == 0 && rn->dtype == sn->dtype &&
        (link == Py_None || (PyList_CheckExact(link) && PyList_GET_SIZE(link) == 0))) {
        int same = rn->shape == sn->shape ? 1 : PyObject_RichCompareBool(rn->shape, sn->shape, Py_EQ);
        if (same < 0) {
            Py_DECREF(result);
            return NULL;
        }
        if (same) {
            Py_SETREF(NODE_OF(self), Py_NewRef((PyObject *)rn));
            Py_DECREF(result);
            return Py_NewRef(self);
        }
    }
    else if (rn != NULL && link != NULL && rn->dtype == sn->dtype &&
             (link == Py_None || (PyList_CheckExact(link) && PyList_GET_SIZE(link) == 0))) {
        /* an index loop's update of a whole root (`w += lr * np.outer(...)`): at once in C
         * where inplace_rest's loop_update_now would take it to one_op_now */
        int same = rn->shape == sn->shape ? 1 : PyObject_RichCompareBool(rn->shape, sn->shape, Py_EQ);
        PyObject *done = same == 1 ? loop_update_c(rn) : same == 0 ? Py_None : NULL;
        if (done == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        if (done != Py_None) {
            Py_SETREF(NODE_OF(self), done);
            Py_DECREF(result);
            return Py_NewRef(self);
        }
    }
    else if (rn != NULL && link != NULL && PyTuple_CheckExact(link) &&
             PyTuple_GET_SIZE(rn->inputs) == 0 && rn->dtype == sn->dtype && EAGER_LIMIT != NULL &&
             PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) > 0) {
        /* `A[:, j] -= x` on the view: into the root's buffer through NumPy's view (the shape
         * is checked there), as inplace_rest would */
        int done = write_through_view_c(self, NULL, (PyObject *)rn, 1);
        if (done != 0) {
            Py_DECREF(result);
            return done < 0 ? NULL : Py_NewRef(self);
        }
    }
    PyObject *call[4] = {self, result, args[0], INPLACE_UFUNC[which]};
    PyObject *out = PyObject_Vectorcall(INPLACE_REST, call, 4, NULL);
    Py_DECREF(result);
    return out;
}

#define INPLACE_METHOD(NAME, WHICH)                                                        \
    static PyObject *NAME##_inplace(PyObject *self, PyObject *const *args, Py_ssize_t n)    \
    {                                                                                      \
        return inplace_operator(WHICH, self, args, n);                                     \
    }
INPLACE_METHOD(add, ADD)
INPLACE_METHOD(sub, SUB)
INPLACE_METHOD(mul, MUL)
INPLACE_METHOD(div, DIV)

#define METHOD(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
static PyMethodDef operator_methods[N_OPERATORS][2] = {
    {METHOD("__add__", add_forward, "self + other"),
     METHOD("__radd__", add_reflected, "other + self")},
    {METHOD("__sub__", sub_forward, "self - other"),
     METHOD("__rsub__", sub_reflected, "other - self")},
    {METHOD("__mul__", mul_forward, "self * other"),
     METHOD("__rmul__", mul_reflected, "other * self")},
    {METHOD("__truediv__", div_forward, "self / other"),
     METHOD("__rtruediv__", div_reflected, "other / self")},
};

static PyMethodDef inplace_methods[N_OPERATORS] = {
    METHOD("__iadd__", add_inplace, "self += other"),
    METHOD("__isub__", sub_inplace, "self -= other"),
    METHOD("__imul__", mul_inplace, "self *= other"),
    METHOD("__itruediv__", div_inplace, "self /= other"),
};

/* --- comparisons and unary operators ---------------------------------------------------------
 * `x > 0` ran two Python frames (Array's method, then the namespace function `greater`) before
 * reaching the fast path, `-x` one (`negative`): ~0.5 and ~0.15 us of a ~0.7 us op. These C
 * methods try the namespace function's fast path (`try_binary`, `try_unary`) and call Array's
 * Python method for everything else (NotImplemented for foreign operands, casts, errors), so they
 * build what the Python methods build. Set by install_methods(). */
enum { LT, LE, GT, GE, EQ, NE, NEG, POS, ABS, INVERT, N_METHODS };
static PyObject *METHOD_OP[N_METHODS];       /* the OpDef each method binds */
static PyObject *METHOD_FALLBACK[N_METHODS]; /* Array's Python method */

/* The Python method with these arguments (the fast path declined). */
static PyObject *
method_fallback(int which, PyObject *const *args, Py_ssize_t n)
{
    if (METHOD_FALLBACK[which] == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install_methods() was not called");
        return NULL;
    }
    return PyObject_Vectorcall(METHOD_FALLBACK[which], args, n, NULL);
}

/* np.dtype(bool), looked up once (NumPy's builtin dtypes are singletons); NULL on error. */
static PyObject *
bool_dtype(void)
{
    static PyObject *dtype;
    if (dtype == NULL) {
        PyObject *np = PyImport_ImportModule("numpy");
        dtype = np == NULL ? NULL : PyObject_CallMethod(np, "dtype", "s", "bool");
        Py_XDECREF(np);
    }
    return dtype;
}

/* Bool elements (a maze's `if Z[y, x] == 0:`, `visited[u] & done`): 1 for a computed 0-d
 * bool leaf (its 0 or 1 in *out; *eager marks one of the at-once path), 2 for a Python bool, 3
 * for a Python int within int64 when `ints` (a comparison: NumPy compares a bool with a Python
 * int as int64s), 0 for anything else (the general path). */
static int
bool_operand(PyObject *x, long long *out, int *eager, int ints)
{
    if (PyBool_Check(x)) {
        *out = x == Py_True;
        return 2;
    }
    if (ints && PyLong_CheckExact(x)) {
        int overflow = 0;
        *out = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (*out == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return overflow ? 0 : 3;
    }
    NodeObject *n = array_node(x);
    PyObject *dtype = bool_dtype();
    if (n == NULL || dtype == NULL || n->op != INPUT_OP || n->dtype != dtype || !ARRAY_FIELDS ||
        PyTuple_GET_SIZE(n->inputs) != 0 || PyTuple_GET_SIZE(n->shape) != 0 ||
        !is_ndarray(n->data) || FIELDS(n->data)->nd != 0)
        return 0;
    *out = *(const npy_bool_c *)FIELDS(n->data)->data != 0;
    *eager |= n->attrs == EAGER_MARK;
    return 1;
}

/* `which` (EQ..., or I_AND/I_OR/I_XOR as `logic`) of bool elements and Python bools (ints too
 * for a comparison) as NumPy's bool scalar's element Array; Py_None (borrowed) for the general
 * path: no bool element of the at-once path among them, or other operands. */
static PyObject *
bool_element_op(int which, int logic, PyObject *x, PyObject *y)
{
    if (EAGER_LIMIT == NULL || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    long long a, b;
    int eager = 0;
    int ka = bool_operand(x, &a, &eager, !logic), kb = ka ? bool_operand(y, &b, &eager, !logic) : 0;
    if (!ka || !kb || !eager || (ka != 1 && kb != 1))
        return Py_None;
    npy_bool_c r;
    if (logic)
        r = which == I_AND ? (a & b) : which == I_OR ? (a | b) : (a ^ b);
    else
        r = which == LT ? a < b : which == LE ? a <= b : which == GT ? a > b
          : which == GE ? a >= b : which == EQ ? a == b : a != b;
    PyObject *site = NODE->user_site();
    if (site == NULL)
        return NULL;
    PyObject *out = element_leaf(bool_dtype(), &r, sizeof r, site);
    Py_DECREF(site);
    return out;
}

/* `x < y` (and the other five) of float64 elements of the at-once path and Python numbers, in C
 * doubles: IEEE's comparisons are NumPy's float64 loops' (a NaN compares unequal, no flag), the
 * result NumPy's bool scalar as an element Array; Py_None (borrowed) for the general path. An
 * index loop's `if abs(lam - old) < tol:` went through NumPy's ufunc call (~0.9 us). */
static PyObject *
element_compare(int which, PyObject *x, PyObject *y)
{
    if (FLOAT64_DTYPE == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    double a, b;
    long long ia, ib;
    PyObject *da = NULL, *db = NULL;
    int eager = 0, ints = 0;
    if (!f64_operand(x, &a, &eager) || !f64_operand(y, &b, &eager) || !eager) {
        /* int32/int64 elements and Python ints within int64: exact integer comparisons */
        eager = 0;
        int ka = INT32_DTYPE_C == NULL ? 0 : int_operand(x, &ia, &da, &eager);
        int kb = ka ? int_operand(y, &ib, &db, &eager) : 0;
        if (!ka || !kb || !eager)
            return bool_element_op(which, 0, x, y);
        ints = 1;
    }
    PyObject *dtype = bool_dtype();
    if (dtype == NULL)
        return NULL;
    npy_bool_c r;
    switch (which) {
    case LT: r = ints ? ia < ib : a < b; break;
    case LE: r = ints ? ia <= ib : a <= b; break;
    case GT: r = ints ? ia > ib : a > b; break;
    case GE: r = ints ? ia >= ib : a >= b; break;
    case EQ: r = ints ? ia == ib : a == b; break;
    default: r = ints ? ia != ib : a != b; break;
    }
    PyObject *site = NODE->user_site();
    if (site == NULL)
        return NULL;
    PyObject *out = element_leaf(dtype, &r, sizeof r, site);
    Py_DECREF(site);
    return out;
}

static PyObject *
compare(int which, PyObject *self, PyObject *other)
{
    if (!installed())
        return NULL;
    PyObject *out = element_compare(which, self, other);
    if (out != Py_None)
        return out;
    out = METHOD_OP[which] ? try_binary(METHOD_OP[which], self, other) : Py_None;
    if (out != Py_None)
        return out;
    PyObject *args[2] = {self, other};
    return method_fallback(which, args, 2);
}

static PyObject *
unary_operator(int which, PyObject *self)
{
    if (!installed())
        return NULL;
    double a;
    int eager = 0;
    if (which == ABS && FLOAT64_DTYPE != NULL && EAGER_LIMIT != NULL &&
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) > 0 &&
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) == 0 && f64_operand(self, &a, &eager) &&
        eager) /* abs of a float64 element: fabs, NumPy's (no flag, a NaN's sign cleared too) */
        return leaf_array(PyFloat_FromDouble(fabs(a)), FLOAT64_DTYPE);
    if (which == INVERT) { /* `~visited[u]`: NumPy's logical not of a bool element */
        PyObject *out = bool_element_op(I_XOR, 1, self, Py_True);
        if (out != Py_None)
            return out;
    }
    PyObject *out = METHOD_OP[which] ? try_unary(METHOD_OP[which], self) : Py_None;
    if (out != Py_None)
        return out;
    return method_fallback(which, &self, 1);
}

#define COMPARE_METHOD(NAME, WHICH)                                \
    static PyObject *NAME##_method(PyObject *self, PyObject *other) \
    {                                                              \
        return compare(WHICH, self, other);                        \
    }
#define UNARY_METHOD(NAME, WHICH)                                   \
    static PyObject *NAME##_method(PyObject *self, PyObject *unused) \
    {                                                               \
        return unary_operator(WHICH, self);                         \
    }
COMPARE_METHOD(lt, LT)
COMPARE_METHOD(le, LE)
COMPARE_METHOD(gt, GT)
COMPARE_METHOD(ge, GE)
COMPARE_METHOD(eq, EQ)
COMPARE_METHOD(ne, NE)
UNARY_METHOD(neg, NEG)
UNARY_METHOD(pos, POS)
UNARY_METHOD(abs, ABS)
UNARY_METHOD(invert, INVERT)

static PyMethodDef extra_methods[N_METHODS] = {
    {"__lt__", lt_method, METH_O, "self < other"},
    {"__le__", le_method, METH_O, "self <= other"},
    {"__gt__", gt_method, METH_O, "self > other"},
    {"__ge__", ge_method, METH_O, "self >= other"},
    {"__eq__", eq_method, METH_O, "self == other"},
    {"__ne__", ne_method, METH_O, "self != other"},
    {"__neg__", neg_method, METH_NOARGS, "-self"},
    {"__pos__", pos_method, METH_NOARGS, "+self"},
    {"__abs__", abs_method, METH_NOARGS, "abs(self)"},
    {"__invert__", invert_method, METH_NOARGS, "~self"},
};

/* --- x.sum(), x.min(), x.max(), x.any(), x.all() of an at-once value ----------------------------
 * An index loop's `row.sum()`, `row.min()` (row_loop), `np.isnan(row).any()` (csv_table): the
 * whole reduction of a float (sum/min/max) or bool (any/all) at-once leaf or view of a computed
 * buffer, built as reductions.sum/min/max/any/all build it (axes all dims, keepdims False, the
 * input's dtype: any/all cast to bool, which a bool input needs not) and computed by one_op_now:
 * the Python method's ~2-4 us of argument handling skipped. Any argument, another dtype, a
 * pending input, an empty min/max, or a value one_op_now declines: the Python method
 * (install_reductions). */
enum { R_SUM, R_MIN, R_MAX, R_ANY, R_ALL, N_REDUCTIONS };
static PyObject *REDUCTION_OP[N_REDUCTIONS], *REDUCTION_FALLBACK[N_REDUCTIONS];
static PyObject *REDUCTION_DTYPES; /* the dtypes taken: float32, float64 */

/* `row.sum()`, `row.max()`, `mask.any()` of an at-once value or view without arguments: the
 * reduction's reference, its ufunc's reduce (`np.add.reduce(value, None, dtype)`,
 * `np.maximum.reduce(value, None)`, `np.logical_or.reduce(...)`), called from C on the NumPy
 * value under the 'call' error state, without the reduction's node and the reference's Python
 * frame (python_builtins' `max(range(len(P)), key=lambda i: P[i].sum())` ~2.3 -> ~1.4 us,
 * csv_table's `np.isnan(row).any()`; NumPy's `.sum()` ~1.0). Over all axes at once (None) as
 * over the reference's tuple of them: the same pairwise sum. Py_None (borrowed) where C cannot
 * read the value, the result is not the node's dtype, or a flag was raised (an overflow): the
 * node's path then runs and reports it at the line. */
static PyObject *REDUCE_FN[N_REDUCTIONS]; /* the ufuncs' reduce methods, looked up once */

static PyObject *
reduce_fn(int which)
{
    static const char *names[N_REDUCTIONS] = {"add", "minimum", "maximum", "logical_or",
                                              "logical_and"};
    if (REDUCE_FN[which] == NULL) {
        PyObject *numpy = PyImport_ImportModule("numpy");
        PyObject *ufunc = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, names[which]);
        REDUCE_FN[which] = ufunc == NULL ? NULL : PyObject_GetAttrString(ufunc, "reduce");
        Py_XDECREF(numpy);
        Py_XDECREF(ufunc);
        if (REDUCE_FN[which] == NULL)
            PyErr_Clear();
    }
    return REDUCE_FN[which];
}

static PyObject *
reduce_value_now(int which, NodeObject *nx)
{
    PyObject *fn = reduce_fn(which);
    if (fn == NULL)
        return Py_None;
    PyObject *value = input_value(nx, 0);
    if (value == NULL) {
        PyErr_Clear();
        return Py_None;
    }
    PyObject *args = which == R_SUM ? PyTuple_Pack(3, value, Py_None, nx->dtype)
                                    : PyTuple_Pack(2, value, Py_None);
    PyObject *out = NULL, *bits = NULL;
    Py_DECREF(value);
    if (args == NULL || call_checked(fn, NULL, args, NULL, NULL, &out, &bits) < 0) {
        Py_XDECREF(args);
        return NULL;
    }
    Py_DECREF(args);
    if (out == NULL)
        return Py_None;
    if (nx->dtype == FLOAT64_DTYPE && PyFloat_Check(out) && !PyFloat_CheckExact(out)) {
        /* NumPy's float64 scalar, no flag raised: its bytes in an element's Array (one handed
         * out again where free), as `t + u` gives one; np.asarray of the scalar and a new leaf
         * and Array were ~0.35 us of `P[i].sum()` */
        long raised = PyLong_AsLong(bits);
        double v = PyFloat_AS_DOUBLE(out);
        PyObject *site = raised == 0 ? NODE->user_site() : NULL;
        PyObject *leaf = site == NULL ? NULL : element_leaf(FLOAT64_DTYPE, &v, sizeof v, site);
        Py_XDECREF(site);
        if (leaf != NULL && leaf != Py_None) {
            Py_DECREF(out);
            Py_DECREF(bits);
            return leaf;
        }
        if (PyErr_Occurred()) {
            Py_DECREF(out);
            Py_DECREF(bits);
            return NULL;
        }
    }
    int plain = plain_result(&out, bits, EMPTY, nx->dtype);
    Py_DECREF(bits);
    if (plain <= 0) {
        Py_XDECREF(out);
        if (plain < 0)
            return NULL;
        return Py_None;
    }
    PyObject *site = NODE->user_site();
    PyObject *leaf = site == NULL ? NULL
                     : NODE->build(INPUT_OP, EMPTY, EAGER_MARK, EMPTY, nx->dtype, out, site);
    Py_XDECREF(site);
    Py_DECREF(out);
    return leaf == NULL ? NULL : make_array(leaf); /* (steals leaf) */
}

static PyObject *
reduce_all_now(int which, PyObject *self)
{
    NodeObject *nx = array_node(self);
    if (nx == NULL || REDUCTION_OP[which] == NULL || REDUCTION_DTYPES == NULL ||
        EAGER_MARK == NULL || EAGER_VIEW_OPS == NULL || EXTOBJ_VAR == NULL)
        return Py_None;
    int dtype_ok = 0;
    if (which == R_ANY || which == R_ALL)
        dtype_ok = nx->dtype == bool_dtype();
    else
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(REDUCTION_DTYPES); k++)
            dtype_ok |= PyTuple_GET_ITEM(REDUCTION_DTYPES, k) == nx->dtype;
    int computed = PyTuple_GET_SIZE(nx->inputs) == 0 ? nx->attrs == EAGER_MARK
                                                     : is_view_op(nx->op);
    if (!dtype_ok || !computed)
        return Py_None;
    Py_ssize_t nd = PyTuple_GET_SIZE(nx->shape), size = 1;
    for (Py_ssize_t d = 0; d < nd; d++)
        size *= PyLong_AsSsize_t(PyTuple_GET_ITEM(nx->shape, d));
    if (PyErr_Occurred())
        return NULL;
    if (size == 0 && (which == R_MIN || which == R_MAX))
        return Py_None; /* (NumPy's error: the Python path raises it) */
    int allowed = eager_allowed(EMPTY);
    if (allowed <= 0)
        return allowed < 0 ? NULL : Py_None;
    if (size > 0) {
        PyObject *out = reduce_value_now(which, nx);
        if (out != Py_None)
            return out;
    }
    PyObject *axes = PyTuple_New(nd);
    for (Py_ssize_t d = 0; axes != NULL && d < nd; d++) {
        PyObject *a = PyLong_FromSsize_t(d);
        if (a == NULL)
            Py_CLEAR(axes);
        else
            PyTuple_SET_ITEM(axes, d, a);
    }
    PyObject *attrs = axes == NULL ? NULL : PyTuple_Pack(2, axes, Py_False);
    Py_XDECREF(axes);
    PyObject *site = attrs == NULL ? NULL : NODE->user_site();
    PyObject *inputs = site == NULL ? NULL : PyTuple_Pack(1, (PyObject *)nx);
    PyObject *node = inputs == NULL ? NULL
                     : NODE->build(REDUCTION_OP[which], inputs, attrs, EMPTY, nx->dtype, Py_None,
                                   site);
    Py_XDECREF(attrs);
    Py_XDECREF(site);
    Py_XDECREF(inputs);
    if (node == NULL)
        return NULL;
    PyObject *leaf = one_op_now((NodeObject *)node);
    Py_DECREF(node);
    if (leaf == NULL || leaf == Py_None)
        return leaf;
    return make_array(leaf);
}

/* reduce_all(which, x): `x.sum()` (0), `x.min()` (1), `x.max()` (2) as the C methods compute
 * them (reduce_all_now), for the namespace functions' positional case (`np.sum(d2)` of an
 * at-once value: ml_from_scratch's distance per training row); None where C does not take it. */
static PyObject *
py_reduce_all(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyLong_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "reduce_all(which: int, x)");
        return NULL;
    }
    long which = PyLong_AsLong(args[0]);
    if (which < 0 || which > R_MAX || REDUCTION_OP[which] == NULL || !ENABLED || !installed())
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    PyObject *out = reduce_all_now((int)which, args[1]);
    return out == Py_None ? Py_NewRef(Py_None) : out;
}

static PyObject *
reduction_method(int which, PyObject *self, PyObject *const *args, size_t nargsf,
                 PyObject *kwnames)
{
    if (!installed())
        return NULL;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs == 0 && kwnames == NULL && ENABLED) {
        PyObject *out = reduce_all_now(which, self);
        if (out != Py_None)
            return out;
    }
    if (REDUCTION_FALLBACK[which] == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install_reductions() first");
        return NULL;
    }
    PyObject *small[8], **call = small;
    Py_ssize_t total = nargs + 1 + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    if (total > 8 && (call = PyMem_Malloc(total * sizeof(PyObject *))) == NULL)
        return PyErr_NoMemory();
    call[0] = self;
    for (Py_ssize_t k = 1; k < total; k++)
        call[k] = args[k - 1];
    PyObject *out = PyObject_Vectorcall(REDUCTION_FALLBACK[which], call, nargs + 1, kwnames);
    if (call != small)
        PyMem_Free(call);
    return out;
}

#define REDUCTION_METHOD(NAME, WHICH)                                                       \
    static PyObject *NAME##_reduction(PyObject *self, PyObject *const *args, size_t nargsf, \
                                      PyObject *kwnames)                                    \
    {                                                                                       \
        return reduction_method(WHICH, self, args, nargsf, kwnames);                        \
    }
REDUCTION_METHOD(sum, R_SUM)
REDUCTION_METHOD(min, R_MIN)
REDUCTION_METHOD(max, R_MAX)
REDUCTION_METHOD(any, R_ANY)
REDUCTION_METHOD(all, R_ALL)

static PyMethodDef reduction_methods[N_REDUCTIONS] = {
    {"sum", (PyCFunction)(void (*)(void))sum_reduction, METH_FASTCALL | METH_KEYWORDS,
     "numpy.ndarray.sum"},
    {"min", (PyCFunction)(void (*)(void))min_reduction, METH_FASTCALL | METH_KEYWORDS,
     "numpy.ndarray.min"},
    {"max", (PyCFunction)(void (*)(void))max_reduction, METH_FASTCALL | METH_KEYWORDS,
     "numpy.ndarray.max"},
    {"any", (PyCFunction)(void (*)(void))any_reduction, METH_FASTCALL | METH_KEYWORDS,
     "numpy.ndarray.any"},
    {"all", (PyCFunction)(void (*)(void))all_reduction, METH_FASTCALL | METH_KEYWORDS,
     "numpy.ndarray.all"},
};

/* --- basic indexing: x[ints, slices, None, ...] (issues 9 and 11) ------------------------------
 *
 * `g[:, k*H:(k+1)*H]` cost ~3 us through indexing.py (getitem, _basic_getitem, slice_node,
 * _bind.primitive, Array) against ~0.3 us for an add here; an LSTM cell traces four of them per
 * step. This builds what indexing.general_getitem builds for a key of Python ints, slices of
 * Python ints or None, None and at most one Ellipsis: one `slice` node with attrs
 * (((start, step, length), ...),) unless every dimension stays whole, then one `reshape` node with
 * attrs (shape,) unless the shape is already right. A start the key gives (an index, a slice's
 * start) in a dimension not kept whole has None in the attrs and is an int64 `scalar` leaf input
 * (indexing.index_slice_node): the structure of `x[k:k+m]` does not change with k, so a loop over
 * k finds one plan. Anything else (NumPy integers, bools, arrays,
 * masks, traced ints, an int out of range, a zero step, bounds beyond int64, too many indices or
 * ellipses) returns to the Python `__getitem__`, which keeps every rule and raises every error. */

#define MAX_DIMS 64 /* NumPy's limit; more goes the Python way */

static PyObject *SLICE_OP, *RESHAPE_OP; /* the `slice` and `reshape` OpDefs */
static PyObject *PERMUTE_OP;            /* the `permute` OpDef (`J.T`): NULL in an older caller */
static PyObject *INT64_DTYPE;           /* np.dtype("int64"): a run-time slice start's leaf */

/* NumPy's view of a chain of slices and reshapes over a computed buffer (eager.view_value's
 * common case, ~4x faster): a new reference, Py_None (new) where the chain holds another op or
 * does not end at a computed buffer (Python's view_value then decides), NULL on error. A slice's
 * spec is (start, step, length) per dim, a start of None read from its run-time scalar leaves in
 * order (graph/ops_structure.py slice_index). */
/* Where the view `node` lies in a computed buffer: a chain of slices, permutes (`J.T`) and of
 * reshapes that only add or drop length-1 dims, followed from the root's dims and strides to the
 * view's (`dims` and `strides` of MAX_DIMS). 1 with *root (borrowed), *nd and *data set; 0 where
 * the chain holds anything else; -1 on error. */
static int
view_layout(NodeObject *node, PyObject **root_out, Py_ssize_t *nd_out, Py_ssize_t *dims,
            Py_ssize_t *strides, char **data_out)
{
    NodeObject *chain[32], *n = node;
    int depth = 0;
    if (!ARRAY_FIELDS || SLICE_OP == NULL || RESHAPE_OP == NULL)
        return 0;
    while (PyTuple_GET_SIZE(n->inputs) != 0) {
        if (depth == 32 || (n->op != SLICE_OP && n->op != RESHAPE_OP &&
                            (n->op != PERMUTE_OP || PERMUTE_OP == NULL)))
            return 0;
        chain[depth++] = n;
        n = (NodeObject *)PyTuple_GET_ITEM(n->inputs, 0);
    }
    if (n->op != INPUT_OP || !is_ndarray(n->data) || FIELDS(n->data)->nd > MAX_DIMS)
        return 0;
    PyObject *root = n->data;
    Py_ssize_t nd = FIELDS(root)->nd, new_dims[MAX_DIMS], new_strides[MAX_DIMS];
    char *data = FIELDS(root)->data;
    memcpy(dims, FIELDS(root)->dimensions, (size_t)nd * sizeof dims[0]);
    memcpy(strides, FIELDS(root)->strides, (size_t)nd * sizeof strides[0]);
    while (depth > 0) {
        NodeObject *m = chain[--depth];
        Py_ssize_t out_nd = PyTuple_GET_SIZE(m->shape);
        if (out_nd > MAX_DIMS)
            return 0;
        if (m->op == PERMUTE_OP) { /* attrs (axes,): output dim e is input dim axes[e] */
            PyObject *axes = PyTuple_GET_ITEM(m->attrs, 0);
            if (!PyTuple_CheckExact(axes) || PyTuple_GET_SIZE(axes) != nd || out_nd != nd)
                return 0;
            for (Py_ssize_t e = 0; e < nd; e++) {
                Py_ssize_t a = PyLong_AsSsize_t(PyTuple_GET_ITEM(axes, e));
                if (a < 0 || a >= nd)
                    return PyErr_Occurred() ? -1 : 0;
                new_dims[e] = dims[a], new_strides[e] = strides[a];
            }
            memcpy(dims, new_dims, (size_t)nd * sizeof dims[0]);
            memcpy(strides, new_strides, (size_t)nd * sizeof strides[0]);
        }
        else if (m->op == SLICE_OP) { /* (start, step, length) per dim; a None start: a leaf */
            PyObject *spec = PyTuple_GET_ITEM(m->attrs, 0);
            Py_ssize_t given = 1;
            if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != nd || out_nd != nd)
                return 0;
            for (Py_ssize_t d = 0; d < nd; d++) {
                PyObject *item = PyTuple_GET_ITEM(spec, d), *start_obj = PyTuple_GET_ITEM(item, 0);
                if (start_obj == Py_None) {
                    NodeObject *leaf = given < PyTuple_GET_SIZE(m->inputs)
                        ? (NodeObject *)PyTuple_GET_ITEM(m->inputs, given++) : NULL;
                    if (leaf == NULL || leaf->op != SCALAR_OP ||
                        PyTuple_GET_SIZE(leaf->inputs) != 0 || !PyLong_Check(leaf->data))
                        return 0;
                    start_obj = leaf->data;
                }
                Py_ssize_t start = PyLong_AsSsize_t(start_obj);
                Py_ssize_t step = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 1));
                Py_ssize_t length = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 2));
                if (PyErr_Occurred())
                    return -1;
                if (length < 0 || (length > 0 && (start < 0 || start >= dims[d] ||
                                                  start + step * (length - 1) < 0 ||
                                                  start + step * (length - 1) >= dims[d])))
                    return 0; /* (cannot be: the checks built it) */
                if (length > 0)
                    data += start * strides[d];
                strides[d] *= step;
                dims[d] = length;
            }
        }
        else { /* a reshape: the non-1 dims the same, in order */
            Py_ssize_t k = 0;
            for (Py_ssize_t e = 0; e < out_nd; e++) {
                Py_ssize_t len = PyLong_AsSsize_t(PyTuple_GET_ITEM(m->shape, e));
                if (len == 1) {
                    new_dims[e] = 1, new_strides[e] = 0;
                    continue;
                }
                while (k < nd && dims[k] == 1)
                    k++;
                if (k == nd || dims[k] != len)
                    return PyErr_Occurred() ? -1 : 0;
                new_dims[e] = len, new_strides[e] = strides[k++];
            }
            while (k < nd && dims[k] == 1)
                k++;
            if (k != nd)
                return 0;
            nd = out_nd;
            memcpy(dims, new_dims, (size_t)nd * sizeof dims[0]);
            memcpy(strides, new_strides, (size_t)nd * sizeof strides[0]);
        }
    }
    *root_out = root, *nd_out = nd, *data_out = data;
    return 1;
}

/* view_value_c's common case without indexing: the view's layout (view_layout), then one
 * numpy_view. A new reference, or Py_None (new) for view_value_c's way, NULL on error. */
static PyObject *
view_direct(NodeObject *node)
{
    PyObject *root;
    Py_ssize_t nd, dims[MAX_DIMS], strides[MAX_DIMS];
    char *data;
    if (NP_NEW_FROM_DESCR == NULL)
        return Py_NewRef(Py_None);
    int found = view_layout(node, &root, &nd, dims, strides, &data);
    if (found <= 0)
        return found < 0 ? NULL : Py_NewRef(Py_None);
    return numpy_view(root, (int)nd, dims, strides, data);
}

static PyObject *
view_value_c(NodeObject *node)
{
    NodeObject *chain[32];
    int depth = 0;
    NodeObject *n = node;
    if (SLICE_OP == NULL || RESHAPE_OP == NULL)
        return Py_NewRef(Py_None);
    PyObject *direct = view_direct(node);
    if (direct != Py_None)
        return direct;
    Py_DECREF(direct);
    while (PyTuple_GET_SIZE(n->inputs) != 0) {
        if (depth == 32 || (n->op != SLICE_OP && n->op != RESHAPE_OP))
            return Py_NewRef(Py_None);
        chain[depth++] = n;
        n = (NodeObject *)PyTuple_GET_ITEM(n->inputs, 0);
    }
    if (n->op != INPUT_OP || !is_ndarray(n->data))
        return Py_NewRef(Py_None);
    PyObject *value = Py_NewRef(n->data);
    while (depth > 0) {
        NodeObject *m = chain[--depth];
        PyObject *next;
        if (m->op == RESHAPE_OP) {
            static PyObject *reshape_name;
            if (reshape_name == NULL && (reshape_name = PyUnicode_InternFromString("reshape")) == NULL) {
                Py_DECREF(value);
                return NULL;
            }
            PyObject *call[2] = {value, m->shape};
            next = PyObject_VectorcallMethod(reshape_name, call, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                             NULL);
        }
        else {
            PyObject *spec = PyTuple_GET_ITEM(m->attrs, 0);
            Py_ssize_t dims = PyTuple_GET_SIZE(spec), given = 1;
            /* `A[i, :j]` is a slice to (1, j) and a reshape to (j,): with the reshape dropping
             * exactly the slice's length-1 dims, index those by their start (NumPy's view of
             * the same memory) and skip the reshape: one NumPy call instead of two */
            int drop = depth > 0 && chain[depth - 1]->op == RESHAPE_OP &&
                       drops_unit_dims(spec, chain[depth - 1]->shape);
            /* (a trailing Ellipsis: a key of ints alone gives NumPy's scalar, a copy, not the
             * 0-d view of the element; `B.reshape(8, 6)[j][i]` exported a np.float64) */
            PyObject *key = PyTuple_New(dims + drop);
            if (key == NULL) {
                Py_DECREF(value);
                return NULL;
            }
            if (drop)
                PyTuple_SET_ITEM(key, dims, Py_NewRef(Py_Ellipsis));
            for (Py_ssize_t d = 0; d < dims; d++) {
                PyObject *item = PyTuple_GET_ITEM(spec, d);
                PyObject *start_obj = PyTuple_GET_ITEM(item, 0);
                long long start, step = PyLong_AsLongLong(PyTuple_GET_ITEM(item, 1));
                long long length = PyLong_AsLongLong(PyTuple_GET_ITEM(item, 2));
                if (start_obj == Py_None) {
                    NodeObject *leaf = given < PyTuple_GET_SIZE(m->inputs)
                        ? (NodeObject *)PyTuple_GET_ITEM(m->inputs, given++) : NULL;
                    if (leaf == NULL || leaf->op != SCALAR_OP ||
                        PyTuple_GET_SIZE(leaf->inputs) != 0 || !PyLong_Check(leaf->data)) {
                        Py_DECREF(key);
                        Py_DECREF(value);
                        return Py_NewRef(Py_None);
                    }
                    start = PyLong_AsLongLong(leaf->data);
                }
                else
                    start = PyLong_AsLongLong(start_obj);
                if (PyErr_Occurred()) {
                    Py_DECREF(key);
                    Py_DECREF(value);
                    return NULL;
                }
                PyObject *sl;
                if (drop && length == 1) {
                    sl = PyLong_FromLongLong(start);
                }
                else if (length == 0) {
                    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1);
                    sl = zero && one ? PySlice_New(zero, zero, one) : NULL;
                    Py_XDECREF(zero);
                    Py_XDECREF(one);
                }
                else {
                    long long stop = start + step * length;
                    PyObject *a = PyLong_FromLongLong(start), *c = PyLong_FromLongLong(step);
                    PyObject *b = stop >= 0 ? PyLong_FromLongLong(stop) : Py_NewRef(Py_None);
                    sl = a && b && c ? PySlice_New(a, b, c) : NULL;
                    Py_XDECREF(a);
                    Py_XDECREF(b);
                    Py_XDECREF(c);
                }
                if (sl == NULL) {
                    Py_DECREF(key);
                    Py_DECREF(value);
                    return NULL;
                }
                PyTuple_SET_ITEM(key, d, sl);
            }
            next = PyObject_GetItem(value, key);
            Py_DECREF(key);
            if (drop)
                depth--; /* the reshape is done */
        }
        Py_DECREF(value);
        if (next == NULL)
            return NULL;
        value = next;
    }
    return value;
}

/* Whether `shape` (a reshape's) is the slice `spec`'s lengths without its length-1 dims, and
 * the slice has at least one of those. */
static int
drops_unit_dims(PyObject *spec, PyObject *shape)
{
    Py_ssize_t dims = PyTuple_GET_SIZE(spec), kept = 0, k = 0;
    if (!PyTuple_CheckExact(shape))
        return 0;
    for (Py_ssize_t d = 0; d < dims; d++) {
        long long length = PyLong_AsLongLong(PyTuple_GET_ITEM(PyTuple_GET_ITEM(spec, d), 2));
        if (length == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (length == 1)
            continue;
        if (k >= PyTuple_GET_SIZE(shape) ||
            PyLong_AsLongLong(PyTuple_GET_ITEM(shape, k)) != length) {
            PyErr_Clear();
            return 0;
        }
        k++, kept++;
    }
    return k == PyTuple_GET_SIZE(shape) && kept < dims;
}

static PyObject *
py_view_value(PyObject *module, PyObject *node)
{
    if (NODE == NULL || !PyObject_TypeCheck(node, NODE->base)) {
        PyErr_SetString(PyExc_TypeError, "view_value: a graph Node is needed");
        return NULL;
    }
    return view_value_c((NodeObject *)node);
}

/* one_op_now(node[, bound]): the node's value as an at-once leaf, its inputs being computed
 * buffers or views of them (eager.reduce_now: a reduction of an at-once value, `row.sum()`), or
 * one small ufunc op over such (inner_value; of up to `bound` elements where that is above
 * eager_size: eager._walk_and_run's): its reference under the 'call' error state, flags
 * reported as eager's, in C; None where C does not take it (the Python path then runs, and
 * raises where the reference raised). */
static PyObject *
py_one_op_now(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2 || NODE == NULL || !PyObject_TypeCheck(args[0], NODE->base)) {
        PyErr_SetString(PyExc_TypeError, "one_op_now(node: Node[, bound: int])");
        return NULL;
    }
    Py_ssize_t bound = nargs == 2 ? PyLong_AsSsize_t(args[1]) : 0;
    if (bound == -1 && PyErr_Occurred())
        return NULL;
    INNER_BOUND = bound;
    PyObject *done = one_op_now((NodeObject *)args[0]);
    INNER_BOUND = 0;
    return done == Py_None ? Py_NewRef(Py_None) : done;
}

/* same_view(a, b): whether two NumPy arrays are the same view of memory (start address, shape,
 * strides, item size), through the buffer protocol: the address costs ~1 us through
 * `__array_interface__` in Python. False where either exports no strided buffer. */
/* Whether two objects export the same strided memory: start address, shape, strides (where a
 * dim has more than one element), item size. 0 where either exports no strided buffer. */
static int
same_memory(PyObject *a, PyObject *b)
{
    Py_buffer x, y;
    if (PyObject_GetBuffer(a, &x, PyBUF_STRIDES) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (PyObject_GetBuffer(b, &y, PyBUF_STRIDES) < 0) {
        PyErr_Clear();
        PyBuffer_Release(&x);
        return 0;
    }
    int same = x.buf == y.buf && x.ndim == y.ndim && x.itemsize == y.itemsize;
    for (int d = 0; same && d < x.ndim; d++)
        same = x.shape[d] == y.shape[d] && (x.shape[d] <= 1 || x.strides[d] == y.strides[d]);
    PyBuffer_Release(&x);
    PyBuffer_Release(&y);
    return same;
}

static PyObject *
py_same_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "same_view(a, b)");
        return NULL;
    }
    return PyBool_FromLong(same_memory(args[0], args[1]));
}

/* set_ufunc_reference(code): the code object of graph.ops_elementwise's plain ufunc reference
 * (one_op_now lets NumPy broadcast the inputs of an op whose reference it is). */
static PyObject *
py_set_ufunc_reference(PyObject *module, PyObject *code)
{
    Py_XSETREF(UFUNC_CODE, Py_NewRef(code));
    Py_RETURN_NONE;
}
static PyObject *GETITEM_FALLBACK;      /* Array's Python __getitem__ */
static PyObject *PRUNE_VIEWS;           /* writes.prune_views(list): drops dead view references */
#define PRUNE_VIEWS_AT 32                /* writes._PRUNE_AT */
#define WRITE_LIMIT_C (1 << 22)          /* eager.WRITE_LIMIT */

/* NumPy gives a basic index as a view of its base: link `out` = self[key] to self's root, as
 * writes.view_of does (link = (root, view node, root node, writable); the root's `_view` lists weak
 * references to its views); `built_from` is the node `out` was built over. 0, or -1 with an
 * exception set, or 1 where only the Python path can link it (nothing done). */
/* writes.prune_views in C: the dead weak references of a root's view list dropped, in place (a
 * loop taking `A[i, :j]` makes one per step). 0, or -1 on error. */
static int
prune_dead_views(PyObject *views)
{
    Py_ssize_t n = PyList_GET_SIZE(views), kept = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *ref = PyList_GET_ITEM(views, k);
        if (PyWeakref_Check(ref) && PyWeakref_GET_OBJECT(ref) == Py_None)
            continue;
        if (kept != k) { /* move the reference down: the list's count of it is unchanged */
            PyObject *old = PyList_GET_ITEM(views, kept);
            Py_INCREF(ref);
            PyList_SET_ITEM(views, kept, ref);
            Py_DECREF(old);
        }
        kept++;
    }
    return kept == n ? 0 : PyList_SetSlice(views, kept, n, NULL);
}

static int
link_view(PyObject *self, PyObject *out, PyObject *built_from)
{
    PyObject *link = VIEW_OF(self), *root, *root_node = NULL, *writable;
    if (PyTuple_CheckExact(link) && PyTuple_GET_SIZE(link) != 4)
        return 1; /* a dynamic view: writes.view_of resolves it first */
    if (PyTuple_CheckExact(link)) {
        root = PyTuple_GET_ITEM(link, 0);
        root_node = PyTuple_GET_ITEM(link, 2);
        writable = PyTuple_GET_ITEM(link, 3);
    }
    else {
        root = self, writable = Py_True;
    }
    /* What `out` rests on: the node it was built over, or, where a cut inside that build
     * evaluated self, self's new node (the cut hands the build its leaves). */
    PyObject *base = PyTuple_CheckExact(link) ? PyTuple_GET_ITEM(link, 1) : NULL;
    PyObject *node = NODE_OF(out), *now = NODE_OF(self);
    for (int step = 0; step < 3; step++) {
        if (node == now || node == built_from)
            break;
        PyObject *inputs = ((NodeObject *)node)->inputs; /* a slice's starts follow its input */
        if (inputs == NULL || PyTuple_GET_SIZE(inputs) < 1)
            return 1;
        node = PyTuple_GET_ITEM(inputs, 0);
    }
    if (node != now && node != built_from)
        return 1;
    if (base == NULL)
        root_node = node;
    else if (node != base)
        return 1; /* a view whose node a cut replaced: the Python path builds its chain */
    PyObject *new_link = PyTuple_Pack(4, root, NODE_OF(out), root_node, writable);
    if (new_link == NULL)
        return -1;
    Py_SETREF(VIEW_OF(out), new_link);
    PyObject *views = VIEW_OF(root);
    if (!PyList_CheckExact(views)) {
        views = PyList_New(0);
        if (views == NULL)
            return -1;
        Py_SETREF(VIEW_OF(root), views);
    }
    PyObject *ref = PyWeakref_NewRef(out, NULL);
    if (ref == NULL || PyList_Append(views, ref) < 0) {
        Py_XDECREF(ref);
        return -1;
    }
    Py_DECREF(ref);
    Py_ssize_t n = PyList_GET_SIZE(views);
    if (n >= PRUNE_VIEWS_AT && (n & (n - 1)) == 0) /* writes.prune_due */
        return prune_dead_views(views);
    return 0;
}

/* A basic key resolved against a shape: the slice spec per input dimension and the result shape. */
typedef struct {
    Py_ssize_t ndim, nout;
    Py_ssize_t in[MAX_DIMS];                                      /* the input's shape */
    Py_ssize_t start[MAX_DIMS], step[MAX_DIMS], length[MAX_DIMS]; /* per input dimension */
    char given[MAX_DIMS]; /* the key gave the start (an index, a slice's start): run time */
    Py_ssize_t out[MAX_DIMS];                                     /* None adds a 1 */
} Basic;

/* The node's shape into b->in: 1, or 0 if it is not a tuple of small Python ints. */
static int
read_shape(PyObject *shape, Basic *b)
{
    if (!PyTuple_CheckExact(shape) || PyTuple_GET_SIZE(shape) > MAX_DIMS)
        return 0;
    b->ndim = PyTuple_GET_SIZE(shape);
    for (Py_ssize_t i = 0; i < b->ndim; i++) {
        PyObject *s = PyTuple_GET_ITEM(shape, i);
        int overflow = 0;
        long long v = PyLong_CheckExact(s) ? PyLong_AsLongLongAndOverflow(s, &overflow) : -1;
        if (overflow || v < 0 || v > PY_SSIZE_T_MAX)
            return 0;
        b->in[i] = (Py_ssize_t)v;
    }
    return 1;
}

/* NumPy's integer scalar types (np.int64, np.intp, ...: set_index_types()): indices as common as
 * Python ints in loops over np.arange or NumPy results. Exact types only: their __index__ is C. */
#define MAX_INDEX_TYPES 32
static PyTypeObject *INDEX_TYPES[MAX_INDEX_TYPES];
static int N_INDEX_TYPES;

/* Whether k is a Python int (not a bool) or one of NumPy's integer scalars. */
static int
is_index(PyObject *k)
{
    if (PyLong_CheckExact(k))
        return 1;
    for (int i = 0; i < N_INDEX_TYPES; i++)
        if (Py_TYPE(k) == INDEX_TYPES[i])
            return 1;
    return 0;
}

/* An index's value: 1 with *out set, 0 if k is not one (is_index) or does not fit a long long. */
static int
index_value(PyObject *k, long long *out)
{
    int overflow = 0;
    if (PyLong_CheckExact(k)) {
        *out = PyLong_AsLongLongAndOverflow(k, &overflow);
        return !overflow;
    }
    if (!is_index(k))
        return 0;
    PyObject *value = PyNumber_Index(k);
    if (value == NULL) {
        PyErr_Clear(); /* the Python path reports it */
        return 0;
    }
    *out = PyLong_AsLongLongAndOverflow(value, &overflow);
    Py_DECREF(value);
    return !overflow;
}

/* A computed 0-d integer Array's value (`A_col[A_row[i]:A_row[i + 1]]`: the bounds were read out
 * of an array, so they are computed buffers): 1 with *out set, as its __index__ would give it
 * (the Python path calls that); 0 for anything else, a pending Array included. */
static int
computed_index(PyObject *v, long long *out)
{
    if (ARRAY == NULL || Py_TYPE(v) != ARRAY)
        return 0;
    NodeObject *n = (NodeObject *)NODE_OF(v);
    if (n->op != INPUT_OP || PyTuple_GET_SIZE(n->inputs) != 0 || PyTuple_GET_SIZE(n->shape) != 0 ||
        !is_ndarray(n->data))
        return 0;
    PyObject *value = PyNumber_Index(n->data); /* TypeError for a float or bool: fall back */
    if (value == NULL) {
        PyErr_Clear();
        return 0;
    }
    int overflow = 0;
    *out = PyLong_AsLongLongAndOverflow(value, &overflow);
    Py_DECREF(value);
    return !overflow;
}

/* A computed element used as an index (`spins[i, j]` with `i, j = sites[k]`): NumPy's integer
 * scalar, a basic index (indexing._scalar_indices); a 0-d array (`_view` not False) is NumPy's
 * advanced index and a pending element is evaluated at the line: both go the Python way. */
static int
element_index(PyObject *k, long long *out)
{
    return ARRAY != NULL && Py_TYPE(k) == ARRAY && VIEW_OF(k) == Py_False &&
           computed_index(k, out);
}

/* A slice bound: 1 with *out set (*present 0 for None), 0 for anything but None or an index
 * within int64's range minus its minimum (PySlice_Unpack would clamp it: a different step). */
static int
slice_bound(PyObject *v, Py_ssize_t *out, int *present)
{
    long long x;
    *present = v != Py_None;
    if (!*present)
        return 1;
    if (!index_value(v, &x) && !computed_index(v, &x))
        return 0;
    if (x <= -PY_SSIZE_T_MAX - 1 || x > PY_SSIZE_T_MAX)
        return 0;
    *out = (Py_ssize_t)x;
    return 1;
}

/* One input dimension's spec from a slice (Python's slice.indices): 1, or 0 to fall back. */
static int
put_slice(PyObject *k, Basic *b, Py_ssize_t dim)
{
    PySliceObject *s = (PySliceObject *)k;
    Py_ssize_t start = 0, stop = 0, step = 1;
    int has_start, has_stop, has_step;
    if (!slice_bound(s->start, &start, &has_start) || !slice_bound(s->stop, &stop, &has_stop) ||
        !slice_bound(s->step, &step, &has_step) || step == 0) /* zero: NumPy's ValueError */
        return 0;
    if (!has_start) /* PySlice_Unpack's defaults */
        start = step < 0 ? PY_SSIZE_T_MAX : 0;
    if (!has_stop)
        stop = step < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX;
    b->length[dim] = PySlice_AdjustIndices(b->in[dim], &start, &stop, step);
    b->start[dim] = start;
    b->given[dim] = (char)has_start;
    b->step[dim] = step;
    b->out[b->nout++] = b->length[dim];
    return 1;
}

/* One input dimension's spec from an index in range: 1, or 0 to fall back (out of range is the
 * Python path's IndexError). */
static int
put_int(PyObject *k, Basic *b, Py_ssize_t dim)
{
    long long i;
    Py_ssize_t n = b->in[dim];
    if ((!index_value(k, &i) && !element_index(k, &i)) || i < -(long long)n ||
        i >= (long long)n)
        return 0;
    b->start[dim] = (Py_ssize_t)(i < 0 ? i + n : i);
    b->given[dim] = 1;
    b->step[dim] = 1;
    b->length[dim] = 1;
    return 1;
}

/* Whole dimensions [dim, dim + count): `:` for each. */
static void
put_whole(Basic *b, Py_ssize_t dim, Py_ssize_t count)
{
    for (Py_ssize_t d = dim; d < dim + count; d++) {
        b->start[d] = 0, b->step[d] = 1, b->length[d] = b->in[d], b->given[d] = 0;
        b->out[b->nout++] = b->in[d];
    }
}

/* How many dimensions the key's items index; -1 if an item is not a basic one (an index, a
 * slice, None, Ellipsis) or there are two ellipses. */
static Py_ssize_t
consumed_dims(PyObject *const *items, Py_ssize_t n, int *has_ellipsis)
{
    Py_ssize_t consumed = 0;
    *has_ellipsis = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *k = items[j];
        if (k == Py_Ellipsis) {
            if ((*has_ellipsis)++)
                return -1;
        }
        else if (PySlice_Check(k) || is_index(k) ||
                 (ARRAY != NULL && Py_TYPE(k) == ARRAY && VIEW_OF(k) == Py_False))
            consumed++; /* (an element index: put_int reads it, or the key falls back) */
        else if (k != Py_None)
            return -1;
    }
    return consumed;
}

/* The key against the shape in b->in: 1 with b filled, or 0 to fall back. */
static int
resolve_basic(PyObject *const *items, Py_ssize_t n, Basic *b)
{
    int has_ellipsis;
    Py_ssize_t consumed = consumed_dims(items, n, &has_ellipsis);
    if (consumed < 0 || consumed > b->ndim || n + b->ndim > MAX_DIMS) /* bounds b->out too */
        return 0;
    Py_ssize_t dim = 0;
    b->nout = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *k = items[j];
        if (k == Py_None)
            b->out[b->nout++] = 1;
        else if (k == Py_Ellipsis) {
            put_whole(b, dim, b->ndim - consumed);
            dim += b->ndim - consumed;
        }
        else if (!(PySlice_Check(k) ? put_slice(k, b, dim) : put_int(k, b, dim)))
            return 0;
        else
            dim++;
    }
    put_whole(b, dim, b->ndim - dim);
    return 1;
}

/* (v[0], ..., v[n-1]) as Python ints (new ref). */
static PyObject *
ssize_tuple(const Py_ssize_t *v, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t != NULL && i < n; i++) {
        PyObject *x = PyLong_FromSsize_t(v[i]);
        if (x == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* Whether dimension d stays whole (start 0, step 1, every element): no run-time start. */
static int
dim_whole(const Basic *b, Py_ssize_t d)
{
    return b->start[d] == 0 && b->step[d] == 1 && b->length[d] == b->in[d];
}

/* Whether dimension d's start is a run-time input: the key gave it and the dimension is not kept
 * whole (a start the key left out is a function of the step and the size: structure). */
static int
dim_runtime(const Basic *b, Py_ssize_t d)
{
    return b->given[d] && !dim_whole(b, d);
}

/* index_slice_node's attribute: (start, step, length) per input dimension, start None where it is
 * a run-time input (new ref). */
static PyObject *
spec_tuple(const Basic *b)
{
    PyObject *spec = PyTuple_New(b->ndim);
    for (Py_ssize_t d = 0; spec != NULL && d < b->ndim; d++) {
        Py_ssize_t triple[3] = {b->start[d], b->step[d], b->length[d]};
        PyObject *t = ssize_tuple(triple, 3);
        if (t != NULL && dim_runtime(b, d)) { /* the start is an input: None here */
            PyObject *start = PyTuple_GET_ITEM(t, 0);
            PyTuple_SET_ITEM(t, 0, Py_NewRef(Py_None));
            Py_DECREF(start);
        }
        if (t == NULL)
            Py_CLEAR(spec);
        else
            PyTuple_SET_ITEM(spec, d, t);
    }
    return spec;
}

/* Whether the spec keeps every dimension whole: slice_node then returns the node itself. */
static int
keeps_whole(const Basic *b)
{
    for (Py_ssize_t d = 0; d < b->ndim; d++)
        if (!dim_whole(b, d))
            return 0;
    return 1;
}

/* The objects a basic key's nodes hold: the slice's shape and attrs ((spec,)), the reshape's
 * shape (target) and attrs ((target,): one tuple for both, as `_bind.primitive(_RESHAPE, ...,
 * (target,), target, ...)` passes it). A loop body indexes with the same few keys every step, so
 * the last ones seen are kept in a small direct-mapped cache and shared between nodes (tuples are
 * immutable): no tuples or ints to allocate and free per node, and graph/_node.c's key cache,
 * which compares attrs and shapes by identity, can then hit. */
enum { SLICE_SHAPE, SLICE_ATTRS, TARGET, RESHAPE_ATTRS, N_PARTS };
#define SPEC_SLOTS 4096
#define SPEC_DIMS 8 /* keys of more dimensions are not cached */
typedef struct {
    Py_ssize_t ndim, nout; /* all zero at first: the 0-d key, its parts not made yet */
    Py_ssize_t v[4 * SPEC_DIMS];
    PyObject *part[N_PARTS]; /* made when first needed */
} SpecEntry;
static SpecEntry SPEC_CACHE[SPEC_SLOTS];

/* The cache entry for b's spec and result shape (emptied and taken over if it held another), or
 * NULL if b has too many dimensions. */
static SpecEntry *
spec_entry(const Basic *b)
{
    Py_ssize_t v[4 * SPEC_DIMS], n = 0;
    if (b->ndim > SPEC_DIMS || b->nout > SPEC_DIMS)
        return NULL;
    for (Py_ssize_t d = 0; d < b->ndim; d++) /* a start that is an input is not in the attrs */
        v[n++] = dim_runtime(b, d) ? PY_SSIZE_T_MIN : b->start[d], v[n++] = b->step[d],
        v[n++] = b->length[d];
    for (Py_ssize_t o = 0; o < b->nout; o++)
        v[n++] = b->out[o];
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(b->ndim * 64 + b->nout);
    for (Py_ssize_t i = 0; i < n; i++)
        h = (h ^ (uint64_t)v[i]) * 1099511628211ULL;
    h ^= h >> 29; /* (FNV's low bits mix only the values' low bits: `1:-1` and `:-2` met) */
    h *= 0x9E3779B97F4A7C15ULL;
    SpecEntry *e = &SPEC_CACHE[(h >> 40) % SPEC_SLOTS];
    if (e->ndim == b->ndim && e->nout == b->nout && memcmp(e->v, v, n * sizeof v[0]) == 0)
        return e;
    for (int p = 0; p < N_PARTS; p++) /* tuples of ints: freeing them runs no Python code */
        Py_CLEAR(e->part[p]);
    e->ndim = b->ndim, e->nout = b->nout;
    memcpy(e->v, v, n * sizeof v[0]);
    return e;
}

/* One part, made from b (new ref); `target` is TARGET, for RESHAPE_ATTRS. */
static PyObject *
make_part(const Basic *b, int part, PyObject *target)
{
    PyObject *spec, *out;
    switch (part) {
    case SLICE_SHAPE:
        return ssize_tuple(b->length, b->ndim);
    case SLICE_ATTRS:
        if ((spec = spec_tuple(b)) == NULL)
            return NULL;
        out = PyTuple_Pack(1, spec);
        Py_DECREF(spec);
        return out;
    case TARGET:
        return ssize_tuple(b->out, b->nout);
    default:
        return PyTuple_Pack(1, target);
    }
}

/* New references to the parts the nodes need (the others NULL): the slice's when `slice`, the
 * reshape's when `reshape`. Taken before any node is built, as building may run Python (the cut
 * hook) and so another thread may reuse the cache slot. 0, or -1 with every part NULL. */
static int
basic_parts(const Basic *b, int slice, int reshape, PyObject *parts[N_PARTS])
{
    int want[N_PARTS] = {slice, slice, reshape, reshape};
    SpecEntry *e = spec_entry(b);
    for (int p = 0; p < N_PARTS; p++) {
        parts[p] = NULL;
        if (!want[p])
            continue;
        if (e != NULL && e->part[p] != NULL)
            parts[p] = Py_NewRef(e->part[p]);
        else if ((parts[p] = make_part(b, p, parts[TARGET])) != NULL && e != NULL)
            e->part[p] = Py_NewRef(parts[p]);
        if (parts[p] == NULL) {
            for (int q = 0; q < p; q++)
                Py_CLEAR(parts[q]);
            return -1;
        }
    }
    return 0;
}

/* Node(op, (input,), attrs, shape, dtype, None, site) (new ref). */
static PyObject *
build_view(PyObject *op, PyObject *input, PyObject *attrs, PyObject *shape, PyObject *dtype,
           PyObject *site)
{
    PyObject *inputs = PyTuple_Pack(1, input);
    PyObject *out = inputs ? NODE->build(op, inputs, attrs, shape, dtype, Py_None, site) : NULL;
    Py_XDECREF(inputs);
    return out;
}

/* A run-time slice start: the 0-d int64 `scalar` leaf `_bind._scalar_operand` builds, its key
 * set directly once _bind._SCALAR_KEYS knows it (new ref). */
static PyObject *
start_leaf(PyObject *start, PyObject *site)
{
    static PyObject *table_key; /* (int64, ()) */
    if (table_key == NULL && (table_key = PyTuple_Pack(2, INT64_DTYPE, EMPTY)) == NULL)
        return NULL;
    /* looked up each time, never kept here: _bind._SCALAR_KEYS is emptied when the key table is
     * cleared, and a key kept past that made equal structures miss their plans */
    PyObject *key = PyDict_GetItemWithError(SCALAR_KEYS, table_key);
    if (key != NULL)
        return scalar_leaf(start, INT64_DTYPE, EMPTY, site, key);
    if (PyErr_Occurred())
        return NULL;
    PyObject *leaf = NODE->build(SCALAR_OP, EMPTY, EMPTY, EMPTY, INT64_DTYPE, start, site);
    if (leaf != NULL && PyDict_GET_SIZE(SCALAR_KEYS) < 4096 &&
        PyDict_SetItem(SCALAR_KEYS, table_key, ((NodeObject *)leaf)->key) < 0)
        Py_CLEAR(leaf);
    return leaf;
}

/* The slice node over `input` with each run-time start (dim_runtime) as an int64 scalar leaf
 * input, in dimension order (indexing.index_slice_node) (new ref). */
static PyObject *
build_slice(PyObject *input, const Basic *b, PyObject *attrs, PyObject *shape, PyObject *dtype,
            PyObject *site)
{
    Py_ssize_t n = 1;
    for (Py_ssize_t d = 0; d < b->ndim; d++)
        n += dim_runtime(b, d);
    PyObject *inputs = PyTuple_New(n), *out = NULL;
    if (inputs == NULL)
        return NULL;
    PyTuple_SET_ITEM(inputs, 0, Py_NewRef(input));
    for (Py_ssize_t d = 0, k = 1; d < b->ndim; d++) {
        if (!dim_runtime(b, d))
            continue;
        PyObject *start = PyLong_FromSsize_t(b->start[d]);
        PyObject *leaf = start ? start_leaf(start, site) : NULL;
        Py_XDECREF(start);
        if (leaf == NULL)
            goto done;
        PyTuple_SET_ITEM(inputs, k++, leaf);
    }
    out = NODE->build_keyless(SLICE_OP, inputs, attrs, shape, dtype, Py_None, site);
done:
    Py_DECREF(inputs);
    return out;
}

/* general_getitem's nodes for a resolved basic key: slice_node, then reshape_node (new ref). */
static PyObject *
build_basic(NodeObject *node, const Basic *b, PyObject *site)
{
    int slice = !keeps_whole(b), reshape = b->nout != b->ndim;
    for (Py_ssize_t d = 0; !reshape && d < b->ndim; d++)
        reshape = b->out[d] != b->length[d];
    PyObject *parts[N_PARTS], *out;
    if (basic_parts(b, slice, reshape, parts) < 0)
        return NULL;
    out = slice ? build_slice((PyObject *)node, b, parts[SLICE_ATTRS], parts[SLICE_SHAPE],
                              node->dtype, site)
                : Py_NewRef((PyObject *)node);
    if (out != NULL && reshape) {
        PyObject *inputs = PyTuple_Pack(1, out);
        Py_SETREF(out, inputs == NULL ? NULL
                       : NODE->build_keyless(RESHAPE_OP, inputs, parts[RESHAPE_ATTRS],
                                             parts[TARGET], node->dtype, Py_None, site));
        Py_XDECREF(inputs);
    }
    for (int p = 0; p < N_PARTS; p++)
        Py_XDECREF(parts[p]);
    return out;
}

/* NumPy gives an element (every dimension indexed by an integer, no Ellipsis) as a scalar, a
 * copy; anything else of a basic key is a view of its base. */
static int
scalar_result(const Basic *b, PyObject *const *items, Py_ssize_t n)
{
    if (b->nout != 0)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (items[i] == Py_Ellipsis)
            return 0;
    return 1;
}

/* Element reads without NumPy's scalar: a copy of a 0-d array of the source's dtype (a template
 * per dtype, made by the first read the general way) takes the element's bytes, at the address
 * the array's fields give. ~0.2 us less per read than `np.asarray(source[i, j])`. Only for
 * dtypes of plain bytes (numbers and bools: no object references to count). */
#define ELEMENT_TEMPLATES 16
/* RECYCLED: the last 0-d arrays template_copy handed out per dtype, kept (a strong reference
 * each) so that one nothing else holds any more (its leaf freed: reference count 1, ours) is
 * handed out again instead of a new copy. NumPy's copy of the template was ~40% of an element
 * op (`t + u`); nobody else holds the array, so nobody sees its bytes change. */
#define RECYCLED 16
static struct {
    PyObject *descr, *array;
    Py_ssize_t itemsize;
    PyObject *recycled[RECYCLED];
    int next;
    PyObject *leaves[RECYCLED]; /* element_leaf's Arrays */
    int next_leaf;
} ELEMENT_TEMPLATE[ELEMENT_TEMPLATES];
static size_t TEMPLATE_EVICT; /* the next slot a new dtype takes when all are full */

/* The slot of `descr`'s template; where there is none, a slot holding another dtype (the callers
 * compare the descr). A scan, not a hash: NumPy's builtin dtypes lie 512 bytes apart, and all of
 * them fell in one slot of `address >> 4`: an int read then a float read replaced each other's
 * template, each read going the general way. */
static size_t
template_slot(PyObject *descr)
{
    for (size_t k = 0; k < ELEMENT_TEMPLATES; k++)
        if (ELEMENT_TEMPLATE[k].descr == descr)
            return k;
    return 0;
}

/* The slot a new template of `descr` goes in: its own, else an empty one, else the next in turn. */
static size_t
template_slot_to_fill(PyObject *descr)
{
    for (size_t k = 0; k < ELEMENT_TEMPLATES; k++)
        if (ELEMENT_TEMPLATE[k].descr == descr || ELEMENT_TEMPLATE[k].descr == NULL)
            return k;
    return TEMPLATE_EVICT++ % ELEMENT_TEMPLATES;
}

/* After a read the general way: `value` (np.asarray of the element) becomes the template of
 * `descr` (the source's dtype) where it has that very dtype and plain bytes. Errors cleared. */
static void
remember_element_template(PyObject *descr, PyObject *value)
{
    if (descr == NULL || !ARRAY_FIELDS || !is_ndarray(value) || FIELDS(value)->nd != 0 ||
        FIELDS(value)->descr != descr)
        return;
    PyObject *kind = PyObject_GetAttrString(descr, "kind");
    PyObject *size = kind == NULL ? NULL : PyObject_GetAttrString(descr, "itemsize");
    const char *k = kind != NULL && PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : NULL;
    Py_ssize_t itemsize = size == NULL ? -1 : PyLong_AsSsize_t(size);
    Py_XDECREF(kind);
    Py_XDECREF(size);
    if (k == NULL || itemsize <= 0 || itemsize > 32 || strchr("biufc", k[0]) == NULL ||
        k[0] == 0) {
        PyErr_Clear();
        return;
    }
    PyObject *copy = PyObject_CallMethodNoArgs(value, COPY_NAME); /* the template: its own */
    if (copy == NULL) {
        PyErr_Clear();
        return;
    }
    size_t slot = template_slot_to_fill(descr);
    Py_XSETREF(ELEMENT_TEMPLATE[slot].descr, Py_NewRef(descr));
    Py_XSETREF(ELEMENT_TEMPLATE[slot].array, copy);
    ELEMENT_TEMPLATE[slot].itemsize = itemsize;
    for (int k = 0; k < RECYCLED; k++) { /* (arrays of the dtype the slot held before) */
        Py_CLEAR(ELEMENT_TEMPLATE[slot].recycled[k]);
        Py_CLEAR(ELEMENT_TEMPLATE[slot].leaves[k]);
    }
}

/* The element of ndarray `source` at b's integer starts as a new 0-d array (a copy), or Py_None
 * (borrowed) where there is no template for its dtype yet; NULL on error. */
static PyObject *
element_copy(PyObject *source, const Basic *b)
{
    if (!ARRAY_FIELDS || COPY_NAME == NULL || FIELDS(source)->nd != b->ndim)
        return Py_None;
    PyObject *descr = FIELDS(source)->descr;
    size_t slot = template_slot(descr);
    if (ELEMENT_TEMPLATE[slot].descr != descr)
        return Py_None;
    const char *at = FIELDS(source)->data;
    for (Py_ssize_t k = 0; k < b->ndim; k++)
        at += b->start[k] * FIELDS(source)->strides[k];
    return template_copy(descr, at, (size_t)ELEMENT_TEMPLATE[slot].itemsize);
}

/* Whether template_copy may hand out `a`, one of its RECYCLED arrays, again: held by nothing but
 * the list (no leaf, no export, no weak reference), still a writeable 0-d array of `descr` that
 * owns its bytes (an export may have changed its flags or dtype before it was let go). */
static int
recyclable(PyObject *a, PyObject *descr)
{
    if (Py_REFCNT(a) != 1 || !is_ndarray(a) || FIELDS(a)->nd != 0 || FIELDS(a)->descr != descr ||
        FIELDS(a)->base != NULL ||
        (FIELDS(a)->flags & (NPY_FLAG_OWNDATA | NPY_FLAG_WRITEABLE)) !=
            (NPY_FLAG_OWNDATA | NPY_FLAG_WRITEABLE))
        return 0;
    Py_ssize_t weak = Py_TYPE(a)->tp_weaklistoffset;
    return weak <= 0 || *(PyObject **)((char *)a + weak) == NULL;
}

/* A new 0-d array of dtype `descr` holding these `size` bytes (a copy of the dtype's template),
 * or Py_None (borrowed) where there is no template of that size; NULL on error. */
/* The slot of `descr`'s template, made where no element read made it yet (a loop of dots,
 * `u @ v`: one of NumPy's, the 0-d array NewFromDescr makes); -1 on error. The caller compares
 * the slot's descr: a dtype of no plain bytes has none. */
static Py_ssize_t
template_made(PyObject *descr)
{
    size_t slot = template_slot(descr);
    if (ELEMENT_TEMPLATE[slot].descr != descr && NP_NEW_FROM_DESCR != NULL &&
        NDARRAY_TYPE != NULL && ARRAY_FIELDS && COPY_NAME != NULL) {
        PyObject *fresh = NP_NEW_FROM_DESCR(NDARRAY_TYPE, Py_NewRef(descr), 0, NULL, NULL, NULL,
                                            0, NULL);
        if (fresh == NULL)
            return -1;
        remember_element_template(descr, fresh);
        Py_DECREF(fresh);
        slot = template_slot(descr);
    }
    return (Py_ssize_t)slot;
}

/* A new 0-d array of slot's dtype, its bytes to be written by the caller: NumPy's array made
 * from the descr in one call (NewFromDescr: its own memory, writeable, aligned) where the API
 * was found, as the template's copy() makes it (~0.1 us less: no method call, no copy loop;
 * `list(v)` of held elements makes one per element). */
static PyObject *
fresh_element(size_t slot)
{
    PyObject *descr = ELEMENT_TEMPLATE[slot].descr;
    if (NP_NEW_FROM_DESCR != NULL && NDARRAY_TYPE != NULL)
        return NP_NEW_FROM_DESCR(NDARRAY_TYPE, Py_NewRef(descr), 0, NULL, NULL, NULL, 0, NULL);
    return PyObject_CallMethodNoArgs(ELEMENT_TEMPLATE[slot].array, COPY_NAME);
}

static PyObject *
template_copy(PyObject *descr, const void *bytes, size_t size)
{
    Py_ssize_t made = template_made(descr);
    if (made < 0)
        return NULL;
    size_t slot = (size_t)made;
    if (!ARRAY_FIELDS || COPY_NAME == NULL || ELEMENT_TEMPLATE[slot].descr != descr ||
        (size_t)ELEMENT_TEMPLATE[slot].itemsize != size)
        return Py_None;
    int k = ELEMENT_TEMPLATE[slot].next;
    ELEMENT_TEMPLATE[slot].next = (k + 1) % RECYCLED;
    PyObject *out = ELEMENT_TEMPLATE[slot].recycled[k];
    if (out != NULL && recyclable(out, descr))
        Py_INCREF(out);
    else {
        out = fresh_element(slot);
        if (out == NULL)
            return NULL;
        if (!is_ndarray(out) || FIELDS(out)->descr != descr || FIELDS(out)->nd != 0) {
            Py_DECREF(out);
            return Py_None;
        }
        Py_XSETREF(ELEMENT_TEMPLATE[slot].recycled[k], Py_NewRef(out));
    }
    memcpy(FIELDS(out)->data, bytes, size);
    return out;
}

/* Whether element_leaf may hand out `a`, one of its Arrays, again: held by nothing but the ring,
 * and so are its leaf node and the node's 0-d buffer (reference counts 1, no weak reference: no
 * graph, plan, cut, view, export or caller reads any of them), all three as element_leaf made
 * them (an in-place op may have given the Array another node). */
static int
leaf_reusable(PyObject *a, PyObject *descr)
{
    if (Py_REFCNT(a) != 1 || Py_TYPE(a) != ARRAY || VIEW_OF(a) != Py_False)
        return 0;
    Py_ssize_t weak = ARRAY->tp_weaklistoffset;
    if (weak > 0 && *(PyObject **)((char *)a + weak) != NULL)
        return 0;
    NodeObject *n = (NodeObject *)NODE_OF(a);
    return n != NULL && Py_REFCNT(n) == 1 && is_node((PyObject *)n) &&
           Py_TYPE(n)->tp_dictoffset == 0 &&
           n->weakrefs == NULL && n->op == INPUT_OP && n->inputs != NULL &&
           PyTuple_GET_SIZE(n->inputs) == 0 && n->attrs == EAGER_MARK && n->dtype == descr &&
           n->shape == EMPTY_SHAPE && n->data != NULL && recyclable(n->data, descr);
}

/* An element's Array (`A[i, j]`, `t + u` at once: NumPy's scalar, `_view` False) holding these
 * `size` bytes of dtype `descr`: one of the last RECYCLED it made, where nothing else holds it
 * any more (leaf_reusable), else a new one kept in their place. An index loop makes an Array, a
 * leaf and a 0-d buffer per element read and op, and frees them a statement later: their
 * allocations and frees were ~40% of `A[i, j] += A[i, j - 1]`. Py_None (borrowed) where the
 * dtype has no template of that size; NULL on error. */
/* An element's Array and its leaf, out of the garbage collector's lists: `list(v)`,
 * `[x + 1 for x in v]` hold thousands of them, and every collection walked them all (with a
 * process's ~300,000 other objects, `list(v)` of 3,000 elements 856 -> 599 us, the collector's
 * whole share). Neither can be part of a reference cycle: the leaf refers to its op, dtype,
 * shape and mark (module-level objects), a 0-d numeric ndarray with no base (no references)
 * and its site (a (file, line) tuple); what later writes its fields writes the same kinds
 * (reuse_leaf: a site; donation: a _Lost stand-in of shape and dtype). The Array refers to a
 * node and to its `_view`: False here, as for any element (NumPy's scalar: its views are
 * copies, so it is never a root with views), and a node never refers to an Array (attrs are
 * parts of interned keys, hashable, and Arrays are not; data are buffers). Whatever refers to
 * the Array is still tracked, so a cycle *through* its holders is collected as before
 * (tests/test_element_paths.py). Exact types without a __dict__ only. */
static void
untrack_element(PyObject *array)
{
    PyObject *node = NODE_OF(array);
    if (Py_TYPE(array) != ARRAY || ARRAY->tp_dictoffset != 0 || node == NULL ||
        Py_TYPE(node)->tp_dictoffset != 0 || VIEW_OF(array) != Py_False)
        return;
    PyObject_GC_UnTrack(node);
    PyObject_GC_UnTrack(array);
}

static PyObject *
element_leaf(PyObject *descr, const void *bytes, size_t size, PyObject *site)
{
    Py_ssize_t made = template_made(descr);
    if (made < 0)
        return NULL;
    size_t slot = (size_t)made;
    if (!ARRAY_FIELDS || COPY_NAME == NULL || EAGER_MARK == NULL ||
        ELEMENT_TEMPLATE[slot].descr != descr || (size_t)ELEMENT_TEMPLATE[slot].itemsize != size)
        return Py_None;
    int k = ELEMENT_TEMPLATE[slot].next_leaf;
    ELEMENT_TEMPLATE[slot].next_leaf = (k + 1) % RECYCLED;
    PyObject *a = ELEMENT_TEMPLATE[slot].leaves[k];
    if (a != NULL && leaf_reusable(a, descr)) {
        NodeObject *n = (NodeObject *)NODE_OF(a);
        if (NODE->reuse_leaf((PyObject *)n, site) < 0)
            return NULL;
        memcpy(FIELDS(n->data)->data, bytes, size);
        return Py_NewRef(a);
    }
    PyObject *data = fresh_element(slot);
    if (data == NULL)
        return NULL;
    if (!is_ndarray(data) || FIELDS(data)->descr != descr || FIELDS(data)->nd != 0) {
        Py_DECREF(data);
        return Py_None;
    }
    memcpy(FIELDS(data)->data, bytes, size);
    PyObject *node = NODE->build(INPUT_OP, EMPTY, EAGER_MARK, EMPTY_SHAPE, descr, data, site);
    Py_DECREF(data);
    PyObject *out = node == NULL ? NULL : make_array(node);
    if (out == NULL)
        return NULL;
    Py_SETREF(VIEW_OF(out), Py_NewRef(Py_False));
    untrack_element(out);
    Py_XSETREF(ELEMENT_TEMPLATE[slot].leaves[k], Py_NewRef(out));
    return out;
}

/* `A[i][j]`'s element without NumPy's view of the row (view_value_c's ~0.2 us): b's starts, an
 * element of the view `nx`, through the view's layout in its root buffer (view_layout: a chain
 * of slices and of reshapes that only add or drop length-1 dims). 1 with *addr and *root
 * (borrowed) set, 0 where the chain holds anything else (the caller takes view_value_c's way),
 * -1 on error. */
static int
view_element_address(NodeObject *nx, const Basic *b, const char **addr, PyObject **root)
{
    Py_ssize_t nd, dims[MAX_DIMS], strides[MAX_DIMS];
    char *data;
    int found = view_layout(nx, root, &nd, dims, strides, &data);
    if (found <= 0 || nd != b->ndim)
        return found < 0 ? -1 : 0;
    for (Py_ssize_t k = 0; k < nd; k++) {
        if (b->start[k] < 0 || b->start[k] >= dims[k])
            return 0; /* (cannot be, for a key the checks resolved: the general way, then) */
        data += b->start[k] * strides[k];
    }
    *addr = data;
    return 1;
}

/* An element of the computed buffer of `nx` (a new 0-d leaf holding a copy, in an Array that is
 * NumPy's scalar: `_view` False), or Py_None (borrowed) where lazyarray/eager.py is off or
 * paused, or the buffer is no ndarray; NULL on error. */
static PyObject *
element_now(NodeObject *nx, const Basic *b, PyObject *site)
{
    if (EAGER_ELEMENT == NULL || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return PyErr_Occurred() ? NULL : Py_None;
    PyObject *source; /* the computed buffer, or NumPy's view of one (`A[i][j]`: a row view) */
    const char *at;
    PyObject *value, *root;
    int found = PyTuple_GET_SIZE(nx->inputs) == 0 ? 0 : view_element_address(nx, b, &at, &root);
    if (found < 0)
        return NULL;
    if (!found && PyTuple_GET_SIZE(nx->inputs) == 0 && is_ndarray(nx->data) && ARRAY_FIELDS &&
        FIELDS(nx->data)->nd == b->ndim) { /* an element of a computed buffer */
        root = nx->data, at = FIELDS(root)->data, found = 1;
        for (Py_ssize_t k = 0; k < b->ndim; k++)
            at += b->start[k] * FIELDS(root)->strides[k];
    }
    if (found) {
        PyObject *descr = FIELDS(root)->descr;
        size_t slot = template_slot(descr);
        PyObject *out = ELEMENT_TEMPLATE[slot].descr != descr || descr != nx->dtype
                            ? Py_None
                            : element_leaf(descr, at, (size_t)ELEMENT_TEMPLATE[slot].itemsize,
                                           site);
        if (out != Py_None)
            return out;
    }
    if (PyTuple_GET_SIZE(nx->inputs) == 0) {
        if (!is_ndarray(nx->data))
            return Py_None;
        source = Py_NewRef(nx->data);
    }
    else {
        source = view_value_c(nx);
        if (source == NULL || !is_ndarray(source)) {
            Py_XDECREF(source);
            PyErr_Clear();
            return Py_None;
        }
    }
    value = element_copy(source, b);
    if (value != Py_None) {
        Py_DECREF(source);
        if (value == NULL)
            return NULL;
        goto leaf;
    }
    PyObject *index = PyTuple_New(b->ndim);
    if (index == NULL) {
        Py_DECREF(source);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < b->ndim; k++) {
        PyObject *i = PyLong_FromSsize_t(b->start[k]);
        if (i == NULL) {
            Py_DECREF(index);
            Py_DECREF(source);
            return NULL;
        }
        PyTuple_SET_ITEM(index, k, i);
    }
    PyObject *source_descr = ARRAY_FIELDS ? FIELDS(source)->descr : NULL;
    Py_XINCREF(source_descr);
    PyObject *item = PyObject_GetItem(source, index);
    Py_DECREF(source);
    Py_DECREF(index);
    if (item == NULL) {
        Py_XDECREF(source_descr);
        return NULL;
    }
    value = PyObject_CallOneArg(NP_ASARRAY, item);
    Py_DECREF(item);
    if (value == NULL) {
        Py_XDECREF(source_descr);
        return NULL;
    }
    remember_element_template(source_descr, value);
    Py_XDECREF(source_descr);
leaf:;
    PyObject *node = NODE->build(INPUT_OP, EMPTY, EAGER_MARK, EMPTY_SHAPE, nx->dtype, value, site);
    Py_DECREF(value);
    if (node == NULL)
        return NULL;
    PyObject *out = make_array(node);
    if (out != NULL)
        Py_SETREF(VIEW_OF(out), Py_NewRef(Py_False));
    return out;
}

/* self[key] on the fast path: a new Array, Py_None (borrowed) for the Python path, NULL on
 * error. */
/* The last view of a root made here (a weak reference: it keeps no reader of the buffer alive)
 * and its key (a strong one: its identity stays meaningful): NumPy's `A[j] -= x` writes the
 * view `A[j]` back to `A[j]` with the same key object, a no-op that try_same_view_write then
 * sees without making NumPy's views. */
static PyObject *LAST_VIEW, *LAST_VIEW_KEY;

/* `A[j] -= x` gives the view `out` = A[key] back to A[j]: try_same_view_write knows it. 0, or -1
 * with an exception set. */
static int
remember_last_view(PyObject *out, PyObject *key)
{
    PyObject *ref = PyWeakref_NewRef(out, NULL); /* (link_view's, shared) */
    if (ref == NULL)
        return -1;
    Py_XSETREF(LAST_VIEW, ref);
    Py_XSETREF(LAST_VIEW_KEY, Py_NewRef(key));
    return 0;
}

/* --- views handed out again: `A[i][j]`, `A[i - 1, :-2]` in an index loop ---------------------
 * A view of a computed root is an Array over a reshape over a slice whose run-time starts are
 * scalar leaves, linked to its root (~0.45 us to build and free, NumPy's view ~0.1). A loop makes
 * the same view with another start each step and drops it a statement later. VIEW_RING keeps the
 * last few such views; one that nothing but the ring holds (reference counts of the Array, its
 * nodes and its weak reference: no name, no graph, no plan, no export, no weak reference but its
 * root's list) is the same view with other starts: its start leaves take the new values and it is
 * handed out again. A view in the ring is a live view of its root (writes through the root keep
 * it in sync, as every live view), and it holds its root: only roots of at most
 * VIEW_RING_BYTES are kept, and the ring lets go of its dead views before any write
 * (release_ring_views) so that a write into a root nothing else reads stays in place. */
#define VIEW_RING 4
#define VIEW_RING_BYTES (1 << 22)
static PyObject *VIEW_RING_ARRAYS[VIEW_RING];
static int VIEW_RING_NEXT;

/* Whether the view `v` is one only the ring holds: nobody reads it (a write into its root's
 * buffer in place leaves it in sync: its nodes read the buffer; ring_view checks it again). */
static int
ring_only(PyObject *v)
{
    if (Py_REFCNT(v) != 1)
        return 0;
    for (int k = 0; k < VIEW_RING; k++)
        if (VIEW_RING_ARRAYS[k] == v)
            return 1;
    return 0;
}

/* The references to `root`'s node `old` that the ring's views of it hold, views only the ring
 * holds: two each (its link's root node, its slice's input), where the view is in sync. */
static Py_ssize_t
ring_holds(PyObject *root, NodeObject *old)
{
    Py_ssize_t count = 0;
    for (int k = 0; k < VIEW_RING; k++) {
        PyObject *v = VIEW_RING_ARRAYS[k], *link = v == NULL ? NULL : VIEW_OF(v);
        if (v == NULL || Py_REFCNT(v) != 1 || !PyTuple_CheckExact(link) ||
            PyTuple_GET_SIZE(link) != 4 || PyTuple_GET_ITEM(link, 0) != root ||
            PyTuple_GET_ITEM(link, 2) != (PyObject *)old || Py_REFCNT(link) != 1)
            continue;
        NodeObject *top = (NodeObject *)PyTuple_GET_ITEM(link, 1), *sl = top;
        if (NODE_OF(v) != (PyObject *)top || !sole_node((PyObject *)top, 2))
            continue;
        if (top->op == RESHAPE_OP && PyTuple_GET_SIZE(top->inputs) == 1) {
            sl = (NodeObject *)PyTuple_GET_ITEM(top->inputs, 0);
            if (!sole_node((PyObject *)sl, 1))
                continue;
        }
        if (sl->op == SLICE_OP && PyTuple_GET_ITEM(sl->inputs, 0) == (PyObject *)old)
            count += 2;
    }
    return count;
}

/* The ring's views of `target` that only the ring holds, let go, where `target` is a root: the
 * writes into a root (an element, a region, in place) that go into its buffer at once are those
 * no live view reads (writes through a view keep the root's live views in sync, ring's too). */
static void
release_ring_views(PyObject *target)
{
    if (ARRAY == NULL || Py_TYPE(target) != ARRAY || PyTuple_CheckExact(VIEW_OF(target)))
        return;
    for (int k = 0; k < VIEW_RING; k++) {
        PyObject *v = VIEW_RING_ARRAYS[k];
        if (v != NULL && Py_REFCNT(v) == 1 && PyTuple_CheckExact(VIEW_OF(v)) &&
            PyTuple_GET_ITEM(VIEW_OF(v), 0) == target)
            Py_CLEAR(VIEW_RING_ARRAYS[k]);
    }
}

/* The ring's views that only the ring holds and that no longer follow their root's node (a
 * write gave the root a new node: they would keep the old one, and its buffer, from being
 * freed or donated); every one only the ring holds where `all` (before a graph runs:
 * evaluation.evaluate, so that its dead inputs may be donated). */
static void
release_stale_ring_views(int all)
{
    for (int k = 0; k < VIEW_RING; k++) {
        PyObject *v = VIEW_RING_ARRAYS[k], *link = v == NULL ? NULL : VIEW_OF(v);
        if (v == NULL || Py_REFCNT(v) != 1)
            continue;
        if (all || !PyTuple_CheckExact(link) || PyTuple_GET_SIZE(link) != 4 ||
            NODE_OF(PyTuple_GET_ITEM(link, 0)) != PyTuple_GET_ITEM(link, 2))
            Py_CLEAR(VIEW_RING_ARRAYS[k]);
    }
}

/* release_view_ring(): release_stale_ring_views(all) for Python (evaluation.evaluate). */
static PyObject *
py_release_view_ring(PyObject *module, PyObject *unused)
{
    release_stale_ring_views(1);
    Py_RETURN_NONE;
}

/* Whether `n` is a node only its one holder reads: reference count `count`, no weak reference. */
static int
sole_node(PyObject *n, Py_ssize_t count)
{
    return is_node(n) && Py_REFCNT(n) == count &&
           ((NodeObject *)n)->weakrefs == NULL;
}

/* Whether `v`'s only weak reference is the one lazyarray keeps: in its root's view list, the
 * cuts' list of pending Arrays (make_array's LIVE) and LAST_VIEW. */
static int
weakly_held_by_root_only(PyObject *v)
{
    Py_ssize_t offset = ARRAY->tp_weaklistoffset;
    if (offset <= 0)
        return 0;
    PyWeakReference *ref = *(PyWeakReference **)((char *)v + offset);
    if (ref == NULL)
        return 1;
    Py_ssize_t last = LAST_VIEW == (PyObject *)ref ? 1 : 0;
    return ref->wr_next == NULL && ref->wr_callback == NULL && Py_TYPE(ref) == &_PyWeakref_RefType &&
           Py_REFCNT(ref) <= 2 + last;
}

/* A view node of the ring given its new attrs, shape and site; its key dropped. */
static void
set_view_node(NodeObject *n, PyObject *attrs, PyObject *shape, PyObject *site)
{
    Py_INCREF(attrs);
    Py_SETREF(n->attrs, attrs);
    Py_INCREF(shape);
    Py_SETREF(n->shape, shape);
    Py_INCREF(site);
    Py_SETREF(n->site, site);
    Py_CLEAR(n->key);
}

/* The view self[b] (self a root over the computed leaf `nx`) from the ring, its starts and
 * sites set, or Py_None (borrowed) where none fits; NULL on error. `parts` as basic_parts gave
 * them for b. */
static PyObject *
ring_view(PyObject *self, NodeObject *nx, const Basic *b, PyObject *parts[N_PARTS], int slice,
          int reshape, PyObject *site)
{
    for (int k = 0; k < VIEW_RING; k++) {
        PyObject *v = VIEW_RING_ARRAYS[k];
        if (v == NULL || Py_REFCNT(v) != 1 || Py_TYPE(v) != ARRAY)
            continue;
        PyObject *link = VIEW_OF(v);
        if (!PyTuple_CheckExact(link) || PyTuple_GET_SIZE(link) != 4 ||
            PyTuple_GET_ITEM(link, 0) != self || PyTuple_GET_ITEM(link, 2) != (PyObject *)nx ||
            PyTuple_GET_ITEM(link, 1) != NODE_OF(v) || PyTuple_GET_ITEM(link, 3) != Py_True ||
            Py_REFCNT(link) != 1 || !weakly_held_by_root_only(v))
            continue;
        NodeObject *top = (NodeObject *)NODE_OF(v), *sl = top;
        if (!sole_node((PyObject *)top, 2)) /* (the Array and its link) */
            continue;
        if (reshape) {
            if (top->op != RESHAPE_OP || !PyTuple_CheckExact(top->shape) ||
                PyTuple_GET_SIZE(top->shape) != b->nout || PyTuple_GET_SIZE(top->inputs) != 1)
                continue;
            sl = (NodeObject *)PyTuple_GET_ITEM(top->inputs, 0);
            if (!sole_node((PyObject *)sl, 1))
                continue;
        }
        if (!slice || sl->op != SLICE_OP || PyTuple_GET_ITEM(sl->inputs, 0) != (PyObject *)nx ||
            (!reshape && (!PyTuple_CheckExact(sl->shape) || PyTuple_GET_SIZE(sl->shape) != b->nout)))
            continue;
        Py_ssize_t n = PyTuple_GET_SIZE(sl->inputs), want = 1;
        for (Py_ssize_t d = 0; d < b->ndim; d++)
            want += dim_runtime(b, d);
        int fits = n == want;
        for (Py_ssize_t i = 1; fits && i < n; i++) {
            NodeObject *leaf = (NodeObject *)PyTuple_GET_ITEM(sl->inputs, i);
            fits = sole_node((PyObject *)leaf, 1) && leaf->op == SCALAR_OP &&
                   PyTuple_GET_SIZE(leaf->inputs) == 0 && leaf->dtype == INT64_DTYPE &&
                   PyLong_CheckExact(leaf->data);
        }
        if (!fits)
            continue;
        for (Py_ssize_t d = 0, i = 1; d < b->ndim; d++) {
            if (!dim_runtime(b, d))
                continue;
            NodeObject *leaf = (NodeObject *)PyTuple_GET_ITEM(sl->inputs, i++);
            PyObject *start = PyLong_FromSsize_t(b->start[d]);
            if (start == NULL || NODE->reuse_leaf((PyObject *)leaf, site) < 0) {
                Py_XDECREF(start);
                return NULL;
            }
            Py_SETREF(leaf->data, start);
        }
        /* the new spec and shapes (another length: `A[i, :j]`), and no key until asked
         * (node_build_keyless's views) */
        set_view_node(sl, parts[SLICE_ATTRS], parts[SLICE_SHAPE], site);
        if (top != sl)
            set_view_node(top, parts[RESHAPE_ATTRS], parts[TARGET], site);
        return Py_NewRef(v);
    }
    return Py_None;
}

/* A view just built and linked: kept in the ring (its root small enough), in the place of the
 * oldest one. */
static void
ring_keep(PyObject *v, NodeObject *nx)
{
    if (!is_ndarray(nx->data))
        return;
    PyObject *nbytes = PyObject_GetAttrString(nx->data, "nbytes");
    Py_ssize_t size = nbytes == NULL ? -1 : PyLong_AsSsize_t(nbytes);
    Py_XDECREF(nbytes);
    if (size < 0 || size > VIEW_RING_BYTES) {
        PyErr_Clear();
        return;
    }
    int k = VIEW_RING_NEXT;
    VIEW_RING_NEXT = (k + 1) % VIEW_RING;
    Py_XSETREF(VIEW_RING_ARRAYS[k], Py_NewRef(v));
}

/* runtime/spare_outputs.py's `_held` (id(buffer) -> the pool's references to it), set by
 * set_spare_pool(): the pool keeps a large result for its plan's next run and hands it out only
 * when nothing else references it, so its reference does not make a buffer shared. */
static PyObject *SPARE_HELD;

/* References to `data` beyond the pool's (the `Py_REFCNT(old->data)` the checks below take). */
static Py_ssize_t
buffer_refs(PyObject *data)
{
    Py_ssize_t refs = Py_REFCNT(data);
    if (refs < 2 || SPARE_HELD == NULL || PyDict_GET_SIZE(SPARE_HELD) == 0)
        return refs;
    PyObject *key = PyLong_FromVoidPtr(data);
    if (key == NULL) {
        PyErr_Clear();
        return refs;
    }
    PyObject *count = PyDict_GetItemWithError(SPARE_HELD, key);
    Py_DECREF(key);
    if (count == NULL) {
        PyErr_Clear();
        return refs;
    }
    Py_ssize_t held = PyLong_AsSsize_t(count);
    if (held < 0) {
        PyErr_Clear();
        return refs;
    }
    return refs - held;
}

static PyObject *
py_set_spare_pool(PyObject *module, PyObject *held)
{
    if (!PyDict_CheckExact(held)) {
        PyErr_SetString(PyExc_TypeError, "set_spare_pool(held): a dict");
        return NULL;
    }
    Py_XSETREF(SPARE_HELD, Py_NewRef(held));
    Py_RETURN_NONE;
}

/* eager.fill_read, set by set_fill_read(): a fill read by an index loop becomes its buffer. */
static PyObject *FILL_READ;
static int take(PyObject **slot, PyObject *value);

/* Whether the broadcast `n` is of a leaf that may be a fill's value (a Python number's
 * `scalar`, a 0-d buffer): eager.fill_read decides, this only spares other broadcasts its call. */
static int
fill_like(NodeObject *n)
{
    if (PyTuple_GET_SIZE(n->inputs) != 1)
        return 0;
    NodeObject *v = (NodeObject *)PyTuple_GET_ITEM(n->inputs, 0);
    return PyTuple_GET_SIZE(v->inputs) == 0 &&
           (v->op == SCALAR_OP || (v->op == INPUT_OP && is_ndarray(v->data) &&
                                   ARRAY_FIELDS && FIELDS(v->data)->nd == 0));
}

static PyObject *
py_set_fill_read(PyObject *module, PyObject *fn)
{
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "set_fill_read(fn): a callable");
        return NULL;
    }
    take(&FILL_READ, fn);
    Py_RETURN_NONE;
}

/* ring_view for self[b], self a root (not a view, not NumPy's scalar) over a computed leaf. */
static PyObject *
ring_lookup(PyObject *self, NodeObject *nx, const Basic *b, PyObject *site)
{
    PyObject *link = VIEW_OF(self);
    if (link == Py_False || PyTuple_CheckExact(link) || nx->op != INPUT_OP ||
        PyTuple_GET_SIZE(nx->inputs) != 0 || !is_ndarray(nx->data))
        return Py_None;
    int slice = !keeps_whole(b), reshape = b->nout != b->ndim;
    for (Py_ssize_t d = 0; !reshape && d < b->ndim; d++)
        reshape = b->out[d] != b->length[d];
    if (!slice)
        return Py_None;
    PyObject *parts[N_PARTS];
    if (basic_parts(b, slice, reshape, parts) < 0)
        return NULL;
    PyObject *out = ring_view(self, nx, b, parts, slice, reshape, site);
    for (int p = 0; p < N_PARTS; p++)
        Py_XDECREF(parts[p]);
    return out;
}

static PyObject *
try_getitem(PyObject *self, PyObject *key)
{
    NodeObject *nx = array_node(self);
    if (nx == NULL || !ENABLED || SLICE_OP == NULL)
        return Py_None;
    PyObject *link = VIEW_OF(self);
    if (nx->op == BROADCAST_OP && link == Py_None && FILL_READ != NULL && fill_like(nx)) {
        PyObject *done = PyObject_CallOneArg(FILL_READ, self); /* eager.fill_read */
        if (done == NULL)
            return NULL;
        Py_DECREF(done);
        if ((nx = array_node(self)) == NULL)
            return Py_None;
        link = VIEW_OF(self);
    }
    if (PyTuple_CheckExact(link) &&
        (PyTuple_GET_ITEM(link, 1) != (PyObject *)nx || PyTuple_GET_SIZE(link) != 4))
        return Py_None; /* an evaluated view: the Python path builds its link's chain too; a
                           dynamic view (a gather): the Python path resolves it first */
    int is_tuple = PyTuple_CheckExact(key);
    PyObject *const *items = is_tuple ? ((PyTupleObject *)key)->ob_item : &key;
    Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(key) : 1;
    Basic b;
    if (!read_shape(nx->shape, &b) || !resolve_basic(items, n, &b))
        return Py_None;
    /* Every check passed: build. user_site and the cut hook inside NODE->build may run Python
     * (a cut may even give self another node): hold the node and its dtype. */
    PyObject *dtype = nx->dtype;
    Py_INCREF(nx);
    Py_INCREF(dtype);
    PyObject *out = NULL, *site = NODE->user_site();
    if (site != NULL && (nx->op == INPUT_OP || (EAGER_VIEW_OPS != NULL && is_view_op(nx->op))) &&
        scalar_result(&b, items, n)) {
        out = element_now(nx, &b, site); /* an element of a computed array (or of NumPy's view
                                            of one): a copy, now */
        if (out != Py_None) {
            Py_XDECREF(site);
            Py_DECREF(dtype);
            Py_DECREF(nx);
            return out;
        }
        out = NULL;
    }
    if (site != NULL && !scalar_result(&b, items, n) && RESHAPE_OP != NULL) {
        out = ring_lookup(self, nx, &b, site); /* the same view, dropped: handed out again */
        if (out != Py_None) {
            if (out != NULL && remember_last_view(out, key) < 0)
                Py_CLEAR(out);
            Py_XDECREF(site);
            Py_DECREF(dtype);
            Py_DECREF(nx);
            return out;
        }
        out = NULL;
    }
    if (site != NULL) {
        PyObject *node = build_basic(nx, &b, site);
        out = node == NULL ? NULL : make_array(node);
        if (out != NULL) {
            if (scalar_result(&b, items, n)) { /* NumPy's scalar: its own views are copies */
                Py_SETREF(VIEW_OF(out), Py_NewRef(Py_False));
                if (EAGER_ELEMENT != NULL) {
                    /* an element of a computed array: read now (lazyarray/eager.py) */
                    PyObject *done = PyObject_CallOneArg(EAGER_ELEMENT, NODE_OF(out));
                    if (done == NULL)
                        Py_CLEAR(out);
                    else if (done != Py_None)
                        Py_SETREF(NODE_OF(out), done);
                    else
                        Py_DECREF(done);
                }
            }
            else if (VIEW_OF(self) != Py_False) {
                int linked = link_view(self, out, (PyObject *)nx);
                if (linked == 0 && !PyTuple_CheckExact(VIEW_OF(self))) {
                    if (remember_last_view(out, key) < 0)
                        Py_CLEAR(out);
                    else if (nx->op == INPUT_OP && PyTuple_GET_SIZE(nx->inputs) == 0 &&
                             NODE_OF(self) == (PyObject *)nx)
                        ring_keep(out, nx);
                }
                if (linked != 0) { /* -1: an error; 1: the Python path links it */
                    Py_CLEAR(out);
                    if (linked == 1)
                        out = Py_None;
                }
            }
        }
    }
    Py_XDECREF(site);
    Py_DECREF(dtype);
    Py_DECREF(nx);
    return out;
}

/* `x[cols]` in an index loop (spmv's `x[A_col[lo:hi]]`): eager.gather in C, NumPy's
 * `values[positions]` at once for a computed x (a buffer or a view of one) and a computed
 * integer index array of at least one dim, the result within the at-once size; Py_None
 * (borrowed) for the Python path, which also raises NumPy's IndexError naming the line. */
static int row_list_key(PyObject *key, Py_ssize_t n);

static PyObject *
gather_now(PyObject *self, PyObject *key)
{
    NodeObject *nx = array_node(self), *ni = PyList_CheckExact(key) ? NULL : array_node(key);
    if (PyList_CheckExact(key)) { /* `A[[p, i]]`: a row list (row_list_key), NumPy's copy */
        if (nx == NULL || PyTuple_GET_SIZE(nx->shape) == 0 ||
            !row_list_key(key, PyLong_AsSsize_t(PyTuple_GET_ITEM(nx->shape, 0))))
            return PyErr_Occurred() ? NULL : Py_None;
        ni = NULL;
    }
    else if (nx == NULL || ni == NULL || PyTuple_GET_SIZE(nx->shape) == 0 ||
             PyTuple_GET_SIZE(ni->shape) == 0)
        return Py_None;
    if (!ENABLED || !ARRAY_FIELDS || INT_RANGES == NULL || EAGER_LIMIT == NULL)
        return Py_None;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
    Py_ssize_t paused = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0));
    int integer = ni == NULL ? 1 : PyDict_Contains(INT_RANGES, ni->dtype);
    if (limit <= 0 || paused != 0 || integer <= 0) {
        PyErr_Clear();
        return Py_None;
    }
    PyObject *values = PyTuple_GET_SIZE(nx->inputs) == 0
                           ? (is_ndarray(nx->data) ? Py_NewRef(nx->data) : NULL)
                           : view_value_c(nx);
    PyObject *positions = values == NULL || values == Py_None ? NULL
                          : ni == NULL ? PyObject_CallOneArg(NP_ASARRAY, key)
                          : PyTuple_GET_SIZE(ni->inputs) == 0
                              ? (is_ndarray(ni->data) ? Py_NewRef(ni->data) : NULL)
                              : view_value_c(ni);
    PyObject *out = NULL, *result = Py_None;
    if (positions == NULL || positions == Py_None || !is_ndarray(values) ||
        !is_ndarray(positions) || FIELDS(values)->nd == 0)
        goto done;
    Py_ssize_t count = 1, row = 1;
    for (int k = 0; k < FIELDS(positions)->nd; k++)
        count *= FIELDS(positions)->dimensions[k];
    for (int k = 1; k < FIELDS(values)->nd; k++)
        row *= FIELDS(values)->dimensions[k];
    if (count * row > limit)
        goto done;
    out = PyObject_GetItem(values, positions);
    if (out == NULL || !is_ndarray(out) || FIELDS(out)->descr != nx->dtype)
        goto done; /* (an index out of range: the Python path raises it at the line) */
    PyObject *shape = ssize_tuple(FIELDS(out)->dimensions, FIELDS(out)->nd);
    PyObject *site = shape == NULL ? NULL : NODE->user_site();
    PyObject *leaf = site == NULL ? NULL
                     : NODE->build(INPUT_OP, EMPTY, EAGER_MARK, shape, nx->dtype, out, site);
    Py_XDECREF(shape);
    Py_XDECREF(site);
    result = leaf == NULL ? NULL : make_array(leaf);
done:
    if (result == Py_None)
        PyErr_Clear();
    Py_XDECREF(out);
    Py_XDECREF(values); /* (view_value_c's None is a new reference too) */
    Py_XDECREF(positions);
    return result;
}

/* A list key whose items are Python ints and computed integer elements (`A[[i, k]]` with `k = i +
 * np.argmax(...)`: NumPy's integer scalar) as a list of Python ints, what NumPy's indexing makes
 * of both: a new list where an item was an element, else `key` itself (a new reference; any
 * other item, a bool, a pending Array: key as it is, the general path decides). */
static PyObject *
int_list_key(PyObject *key)
{
    Py_ssize_t m = PyList_GET_SIZE(key), elements = 0;
    long long v;
    if (m > 8) /* (row_list_key's bound) */
        return Py_NewRef(key);
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *item = PyList_GET_ITEM(key, k);
        if (PyLong_CheckExact(item))
            continue;
        if (!element_index(item, &v))
            return Py_NewRef(key);
        elements++;
    }
    if (elements == 0)
        return Py_NewRef(key);
    PyObject *ints = PyList_New(m);
    for (Py_ssize_t k = 0; ints != NULL && k < m; k++) {
        PyObject *item = PyList_GET_ITEM(key, k);
        PyObject *value = PyLong_CheckExact(item) ? Py_NewRef(item)
                          : element_index(item, &v) ? PyLong_FromLongLong(v) : NULL;
        if (value == NULL) {
            Py_CLEAR(ints);
            break;
        }
        PyList_SET_ITEM(ints, k, value);
    }
    return ints;
}

/* Array.__getitem__ (a method descriptor: no Python frame for a basic key). The fallback is the
 * Python method, so indexing.getitem's user_site(2) still lands on the user's frame. */
static PyObject *
getitem_method(PyObject *self, PyObject *key)
{
    if (!installed())
        return NULL;
    long long element;
    PyObject *out;
    if (PyList_CheckExact(key)) {
        PyObject *ints = int_list_key(key);
        out = ints == NULL ? NULL : gather_now(self, ints);
        Py_XDECREF(ints);
    }
    /* a computed element as the key (`dist[u]`, u an argmin): NumPy's integer scalar, a basic
     * index (indexing._scalar_indices), as in a tuple key; other Arrays gather */
    else if (Py_TYPE(key) == ARRAY)
        out = element_index(key, &element) ? try_getitem(self, key) : gather_now(self, key);
    else
        out = try_getitem(self, key);
    if (out != Py_None)
        return out;
    if (GETITEM_FALLBACK == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install_getitem() was not called");
        return NULL;
    }
    PyObject *call[2] = {self, key};
    return PyObject_Vectorcall(GETITEM_FALLBACK, call, 2, NULL);
}

static PyMethodDef getitem_def = {"__getitem__", getitem_method, METH_O, "self[key]"};

/* --- element writes: `A[i, j] = v` ------------------------------------------------------------
 * eager.write_basic's element case in C, before Array's Python __setitem__: an index loop's
 * `A[i, j] = v` (and the store of `A[i, j] -= d`) written straight into A's buffer, ~0.3 us
 * instead of ~1.5 through Python. The same proof as write_basic: A is a root without live views
 * whose value is a computed buffer of its own (owndata, writeable) that only its node holds, and
 * its node only the handle; the key is ints in range, one per dimension; the value a Python float
 * into float64 or a computed 0-d Array of A's dtype. Anything else goes to SETITEM_FALLBACK. */
static PyObject *SETITEM_FALLBACK; /* Array's Python __setitem__ */

/* Whether `views` (a root's `_view`: None, or a list of weak references) holds no live view; a
 * list of dead ones is emptied, as _methods._none_alive does. -1 on error. */
static int
no_live_views(PyObject *views)
{
    if (views == Py_None)
        return 1;
    if (!PyList_CheckExact(views))
        return 0;
    Py_ssize_t n = PyList_GET_SIZE(views);
    int ring = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *ref = PyList_GET_ITEM(views, i);
        if (!PyWeakref_CheckRef(ref))
            return 0;
        PyObject *target = PyWeakref_GetObject(ref); /* borrowed; Py_None when dead */
        if (target == NULL)
            return -1;
        if (target != Py_None && !ring_only(target))
            return 0;
        ring |= target != Py_None;
    }
    /* (the ring's views stay listed: a write that is not in place must find them) */
    return ring ? prune_dead_views(views) == 0 ? 1 : -1
           : n  ? PyList_SetSlice(views, 0, n, NULL) == 0 ? 1 : -1
                : 1;
}

/* Whether `key` is one in-range int per dimension of `shape`. */
static int
element_key(PyObject *key, PyObject *shape)
{
    Py_ssize_t ndim = PyTuple_GET_SIZE(shape);
    int one = !PyTuple_CheckExact(key);
    if ((one ? 1 : PyTuple_GET_SIZE(key)) != ndim || ndim == 0)
        return 0;
    for (Py_ssize_t d = 0; d < ndim; d++) {
        long long k, n = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, d));
        if (!index_value(one ? key : PyTuple_GET_ITEM(key, d), &k) || k < -n || k >= n)
            return 0;
    }
    return 1;
}

/* The value to store for an element write into an array of `dtype` (borrowed), or NULL. */
static PyObject *
element_value(PyObject *value, PyObject *dtype)
{
    if (PyFloat_CheckExact(value))
        return dtype == FLOAT64_DTYPE ? value : NULL;
    if (PyBool_Check(value)) /* `visited[u] = True` */
        return dtype == bool_dtype() ? value : NULL;
    if (PyLong_CheckExact(value) && dtype == bool_dtype())
        return value; /* `Z[y, x] = 1` (a maze): NumPy stores the int's truth, of any size */
    if (PyLong_CheckExact(value) && dtype == FLOAT64_DTYPE) {
        /* `A[i, j] = i * j + 1`: NumPy's conversion, float(v), where it cannot raise */
        if (PyLong_AsDouble(value) == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
        return value;
    }
    if (PyLong_CheckExact(value)) { /* an int the dtype holds (NumPy 2's OverflowError: Python) */
        int overflow = 0, bits = int_bits(dtype);
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return NULL;
        }
        return !overflow && bits && int_fits(2, v, bits) ? value : NULL;
    }
    NodeObject *nv = array_node(value);
    if (nv == NULL || nv->op != INPUT_OP || PyTuple_GET_SIZE(nv->inputs) != 0 ||
        PyTuple_GET_SIZE(nv->shape) != 0 || nv->dtype != dtype || !is_ndarray(nv->data))
        return NULL;
    return nv->data;
}

/* store_element's address and copy: key's indices (element_key checked them) into data. */
static int
store_element_bytes(PyObject *data, PyObject *key, const void *bytes, size_t size)
{
    int one = !PyTuple_CheckExact(key);
    Py_ssize_t nd = FIELDS(data)->nd;
    char *at = FIELDS(data)->data;
    for (Py_ssize_t d = 0; d < nd; d++) {
        long long k, n = (long long)FIELDS(data)->dimensions[d];
        if (!index_value(one ? key : PyTuple_GET_ITEM(key, d), &k) || k < -n || k >= n) {
            PyErr_Clear();
            return 0;
        }
        at += (k < 0 ? k + n : k) * FIELDS(data)->strides[d];
    }
    memmove(at, bytes, size);
    return 1;
}

/* The bytes of `v` (a value element_value gave) as an element of `descr`, into `buf` (*size
 * set): 1, or 0 where NumPy's setitem must convert it (a dtype of no plain bytes, a number that
 * needs a conversion). */
static int
element_bytes(PyObject *descr, PyObject *v, char buf[32], size_t *size)
{
    Py_ssize_t made = template_made(descr); /* (a loop that writes before any element read) */
    if (made < 0) {
        PyErr_Clear(); /* (NumPy's setitem then) */
        return 0;
    }
    size_t slot = (size_t)made;
    if (ELEMENT_TEMPLATE[slot].descr != descr)
        return 0;
    *size = (size_t)ELEMENT_TEMPLATE[slot].itemsize;
    if (PyFloat_CheckExact(v)) {
        double number = PyFloat_AS_DOUBLE(v);
        return descr == FLOAT64_DTYPE && (memcpy(buf, &number, sizeof number), 1);
    }
    if (PyBool_Check(v)) { /* (element_value: into bool) */
        npy_bool_c flag = v == Py_True;
        return descr == bool_dtype() && (memcpy(buf, &flag, sizeof flag), 1);
    }
    if (PyLong_CheckExact(v)) { /* element_value checked it converts without error */
        if (descr == bool_dtype()) {
            int truth = PyObject_IsTrue(v);
            npy_bool_c flag = truth > 0;
            return truth >= 0 && (memcpy(buf, &flag, sizeof flag), 1);
        }
        if (descr == FLOAT64_DTYPE) {
            double number = PyLong_AsDouble(v);
            return memcpy(buf, &number, sizeof number), 1;
        }
        long long n = PyLong_AsLongLong(v); /* (in the dtype's range) */
        int32_t n32 = (int32_t)n;
        int16_t n16 = (int16_t)n;
        int8_t n8 = (int8_t)n;
        if (n == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        switch (int_bits(descr)) {
        case 64: memcpy(buf, &n, sizeof n); return 1;
        case 32: memcpy(buf, &n32, sizeof n32); return 1;
        case 16: memcpy(buf, &n16, sizeof n16); return 1;
        case 8: memcpy(buf, &n8, sizeof n8); return 1;
        default: return 0;
        }
    }
    if (!is_ndarray(v) || FIELDS(v)->nd != 0 || FIELDS(v)->descr != descr)
        return 0;
    memcpy(buf, FIELDS(v)->data, *size);
    return 1;
}

/* `data[key] = v` for an element key element_key checked and a value element_value gave, as
 * the element's bytes stored at its address (NumPy's setitem parses the key again: ~0.1 us of
 * `A[i, j] = v`): 1 done, 0 where NumPy's setitem must do it (element_bytes). */
static int
store_element(PyObject *data, PyObject *key, PyObject *v)
{
    char buf[32];
    size_t size;
    if (!ARRAY_FIELDS || !is_ndarray(data) || !element_bytes(FIELDS(data)->descr, v, buf, &size))
        return 0;
    return store_element_bytes(data, key, buf, size);
}

/* Whether the ndarray owns its memory and may be written. -1 on error. */
static int
owned_writeable(PyObject *data)
{
    if (ARRAY_FIELDS && is_ndarray(data))
        return (FIELDS(data)->flags & (NPY_FLAG_OWNDATA | NPY_FLAG_WRITEABLE)) ==
               (NPY_FLAG_OWNDATA | NPY_FLAG_WRITEABLE);
    PyObject *flags = getattr_named(data, A_FLAGS);
    if (flags == NULL)
        return -1;
    PyObject *own = getattr_named(flags, A_OWNDATA);
    PyObject *writeable = own == NULL ? NULL : getattr_named(flags, A_WRITEABLE);
    Py_DECREF(flags);
    int ok = writeable != NULL && own == Py_True && writeable == Py_True;
    Py_XDECREF(own);
    if (writeable == NULL)
        return -1;
    Py_DECREF(writeable);
    return ok;
}

/* A small computed buffer an element write went into is an index loop's value (eager.py
 * `write_basic`, `mark_written`): its node becomes a leaf of the at-once rule, so a product of
 * the whole buffer (jacobi_eigen's `V @ J`, J = np.eye(n) set by elements) runs at once as
 * products of its slices do, instead of a lazy chain cut through plans. Only where the handle
 * alone holds the node (no ring view rests on it). 0, or -1 on error. */
static int
mark_written(PyObject *self, NodeObject *old)
{
    if (old->attrs == EAGER_MARK || Py_REFCNT(old) != 1 || !is_ndarray(old->data))
        return 0;
    int allowed = eager_allowed(old->shape);
    if (allowed <= 0)
        return allowed;
    PyObject *node = NODE->build(INPUT_OP, EMPTY, EAGER_MARK, old->shape, old->dtype, old->data,
                                 old->site);
    if (node == NULL)
        return -1;
    Py_SETREF(NODE_OF(self), node);
    return 0;
}

/* 1 when the element write was done, 0 to fall back, -1 on error. */
static int
try_write_element(PyObject *self, PyObject *key, PyObject *value)
{
    if (ARRAY == NULL || Py_TYPE(self) != ARRAY || EAGER_LIMIT == NULL || FLOAT64_DTYPE == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return 0;
    NodeObject *old = array_node(self);
    if (old == NULL || old->op != INPUT_OP || PyTuple_GET_SIZE(old->inputs) != 0 ||
        !is_ndarray(old->data))
        return 0;
    PyObject *v = element_value(value, old->dtype);
    if (v == NULL || !element_key(key, old->shape))
        return 0; /* (IndexError and other keys or values: the Python path) */
    /* only the handle holds the node (and the ring's views of it: ring_holds), only the node
     * the buffer (write_basic's counts) */
    if (Py_REFCNT(old) != 1 + ring_holds(self, old) || buffer_refs(old->data) != 1 ||
        v == old->data)
        return 0;
    int none = VIEW_OF(self) == NULL ? 0 : no_live_views(VIEW_OF(self));
    if (none <= 0)
        return none;
    int ok = owned_writeable(old->data);
    if (ok <= 0)
        return ok;
    if (!store_element(old->data, key, v) && PyObject_SetItem(old->data, key, v) < 0)
        return -1;
    return mark_written(self, old) < 0 ? -1 : 1;
}

/* runtime/backend.py's CopyStats (install_setitem's third argument): a masked write in place
 * counts in `in_place_updates`, as eager.masked_write counts it. */
static PyObject *COPY_STATS;

/* Whether a node's op is a plain ufunc call (its reference is eager's `ufunc(*xs)`). */
static int
plain_ufunc_op(NodeObject *n)
{
    PyObject *reference = getattr_named(n->op, A_REFERENCE);
    int plain = reference != NULL && UFUNC_CODE != NULL && PyFunction_Check(reference) &&
                PyFunction_GET_CODE(reference) == UFUNC_CODE;
    Py_XDECREF(reference);
    PyErr_Clear();
    return plain;
}

/* A bool mask Array's value for a masked write: NumPy's array (a new reference) of a computed
 * buffer, a view of one, or one plain ufunc op over computed values computed now (`h[h < 0] =
 * 0`; the Array takes the leaf, as masking._computed_mask does); NULL with no error set where C
 * does not take it. */
static PyObject *
mask_value(PyObject *key)
{
    NodeObject *m = array_node(key);
    if (m == NULL || PyTuple_GET_SIZE(m->inputs) == 0)
        return m != NULL && is_ndarray(m->data) ? Py_NewRef(m->data) : NULL;
    if (!is_view_op(m->op)) {
        if (!plain_ufunc_op(m))
            return NULL;
        PyObject *leaf = one_op_now(m);
        if (leaf == NULL || leaf == Py_None) {
            PyErr_Clear(); /* (the Python path runs it again and raises naming the line) */
            return NULL;
        }
        Py_SETREF(NODE_OF(key), leaf);
        return is_ndarray(((NodeObject *)leaf)->data) ? Py_NewRef(((NodeObject *)leaf)->data)
                                                       : NULL;
    }
    PyObject *view = view_value_c(m);
    if (view == NULL || !is_ndarray(view)) {
        Py_XDECREF(view);
        PyErr_Clear();
        return NULL;
    }
    return view;
}

/* eager.only_holder's test of the buffer: writeable, and owning its memory or a view (a plan's
 * result may be a reshape of the array it allocated) whose bases are NumPy arrays nothing else
 * references (eager.bases_unshared). 1 or 0, or -1 on error. */
static int
unshared_writeable(PyObject *data)
{
    if (!ARRAY_FIELDS)
        return owned_writeable(data);
    if (!(FIELDS(data)->flags & NPY_FLAG_WRITEABLE))
        return 0;
    for (PyObject *base = FIELDS(data)->base; base != NULL; base = FIELDS(base)->base)
        if (!is_ndarray(base) || Py_REFCNT(base) != 1)
            return 0;
    return 1;
}

/* `x[mask] = v` (masking.write_now's common case) for a root without live views whose buffer
 * only its node holds (try_write_element's proof), a bool mask Array of x's leading dims
 * (mask_value) and v a number element_value takes or a computed 0-d Array of x's dtype
 * (dijkstra's `pred[better] = u`, pong_pg's `h[h < 0] = 0`): NumPy's masked assignment into the
 * buffer, ~6 -> ~3 us (NumPy's own ~2.5). 1 done, 0 fall back, -1 error. */
static int
try_write_masked(PyObject *self, PyObject *key, PyObject *value)
{
    if (COPY_STATS == NULL || Py_TYPE(key) != ARRAY ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return 0;
    NodeObject *old = array_node(self), *m = array_node(key);
    if (old == NULL || m == NULL || old->op != INPUT_OP || PyTuple_GET_SIZE(old->inputs) != 0 ||
        !is_ndarray(old->data) || m->dtype != bool_dtype())
        return 0;
    Py_ssize_t nd = PyTuple_GET_SIZE(m->shape);
    if (nd == 0 || nd > PyTuple_GET_SIZE(old->shape))
        return 0;
    for (Py_ssize_t d = 0; d < nd; d++) {
        int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(m->shape, d),
                                            PyTuple_GET_ITEM(old->shape, d), Py_EQ);
        if (same <= 0)
            return same;
    }
    PyObject *v = element_value(value, old->dtype);
    if (v == NULL) {
        PyErr_Clear();
        return 0;
    }
    int none = VIEW_OF(self) == NULL ? 0 : no_live_views(VIEW_OF(self));
    if (none <= 0)
        return none;
    PyObject *bits = mask_value(key); /* (computing it may drop its graph's hold on old) */
    if (bits == NULL)
        return 0;
    int ok = Py_REFCNT(old) == 1 + ring_holds(self, old) && buffer_refs(old->data) == 1 &&
             v != old->data ? unshared_writeable(old->data) : 0;
    if (ok > 0 && PyObject_SetItem(old->data, bits, v) < 0)
        ok = -1;
    Py_DECREF(bits);
    if (ok <= 0)
        return ok;
    PyObject *count = PyObject_GetAttrString(COPY_STATS, "in_place_updates");
    Py_ssize_t n = count == NULL ? -1 : PyLong_AsSsize_t(count);
    PyObject *more = n == -1 && PyErr_Occurred() ? NULL : PyLong_FromSsize_t(n + 1);
    int set = more == NULL ? -1 : PyObject_SetAttrString(COPY_STATS, "in_place_updates", more);
    Py_XDECREF(count);
    Py_XDECREF(more);
    return set < 0 ? -1 : 1;
}

static Py_ssize_t view_holders_c(PyObject *old, PyObject *views, PyObject *extra);
static int write_through_view_c(PyObject *self, PyObject *key, PyObject *value, int whole);

/* The live views of a root's `_view` list appended to `live`: 1, 0 where an entry is no weak
 * reference (the Python path then decides), -1 on error. */
static int
live_views(PyObject *views, PyObject *live)
{
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(views); k++) {
        PyObject *ref = PyList_GET_ITEM(views, k);
        PyObject *alive = PyWeakref_CheckRef(ref) ? PyWeakref_GetObject(ref) : NULL;
        if (alive == NULL)
            return 0;
        if (alive != Py_None && PyList_Append(live, alive) < 0)
            return -1;
    }
    return 1;
}

/* After a write into the root's buffer, each live view reads it again (its node: its chain). */
static void
reread_views(PyObject *live)
{
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(live); k++) {
        PyObject *w = PyList_GET_ITEM(live, k), *wl = Py_TYPE(w) == ARRAY ? VIEW_OF(w) : NULL;
        if (wl != NULL && PyTuple_CheckExact(wl) && PyTuple_GET_SIZE(wl) >= 2)
            Py_SETREF(NODE_OF(w), Py_NewRef(PyTuple_GET_ITEM(wl, 1)));
    }
}

/* eager.write_basic_through_view's element case: `row[j] = v` (`A[i][j] = v`) for a view in
 * sync with its root, into NumPy's view of the root's buffer, when only the root and its live
 * views read that buffer (view_holders_c). 1 done, 0 fall back, -1 error. */
/* Whether `key` is `:` (a slice of Nones). */
static int
is_whole_slice(PyObject *key)
{
    if (!PySlice_Check(key))
        return 0;
    PySliceObject *sl = (PySliceObject *)key;
    return sl->start == Py_None && sl->stop == Py_None && sl->step == Py_None;
}

static int
try_write_through_view(PyObject *self, PyObject *key, PyObject *value)
{
    if (Py_TYPE(value) == ARRAY && (key == Py_Ellipsis || is_whole_slice(key))) {
        /* `row[:] = 0.5 * row + 0.25 * prev`: a computed value of the view's shape and dtype */
        NodeObject *nv = array_node(value);
        return nv == NULL ? 0 : write_through_view_c(self, key, (PyObject *)nv, 1);
    }
    return write_through_view_c(self, key, value, 0);
}

/* The view `self`'s own node when it is a writable view in sync with a root whose value is a
 * computed buffer (the link writes.py keeps), else NULL (borrowed); *old: the root's node. */
static NodeObject *
synced_view(PyObject *self, NodeObject **old)
{
    PyObject *link = VIEW_OF(self);
    /* (five items: a dynamic view, a gather; writes.py scatters through it by its key) */
    if (!PyTuple_CheckExact(link) || PyTuple_GET_SIZE(link) != 4 || FLOAT64_DTYPE == NULL ||
        EAGER_LIMIT == NULL || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) <= 0 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return NULL;
    PyObject *root = PyTuple_GET_ITEM(link, 0), *view_node = PyTuple_GET_ITEM(link, 1);
    *old = (NodeObject *)PyTuple_GET_ITEM(link, 2);
    if (PyTuple_GET_ITEM(link, 3) != Py_True || NODE_OF(self) != view_node ||
        Py_TYPE(root) != ARRAY || NODE_OF(root) != (PyObject *)*old || VIEW_OF(root) == NULL ||
        !PyObject_TypeCheck(view_node, NODE->base) || (*old)->op != INPUT_OP ||
        PyTuple_GET_SIZE((*old)->inputs) != 0 || !is_ndarray((*old)->data) ||
        !PyList_CheckExact(VIEW_OF(root)))
        return NULL;
    return (NodeObject *)view_node;
}

/* NumPy's view of the buffer that the synced view `self` (node `vn`, root node `old`) reads, when
 * writing into it now is safe: only the root and its live views read the buffer (their links
 * and chains account for every reference to `old`, `view_holders`), the buffer is the root's
 * own and writable, and the view is NumPy's view of it (not a copy a reshape made). A new
 * reference, with the live views (to re-read after the write) in *live; 0 (NULL, nothing set)
 * where not; -1 on error. */
static int
writable_target(PyObject *self, NodeObject *vn, NodeObject *old, PyObject **target,
                PyObject **live)
{
    *target = *live = NULL;
    PyObject *t = view_value_c(vn);
    if (t == NULL || !is_ndarray(t)) {
        Py_XDECREF(t);
        PyErr_Clear();
        return 0;
    }
    PyObject *base = !ARRAY_FIELDS ? getattr_named(t, A_BASE)
                     : Py_NewRef(FIELDS(t)->base ? FIELDS(t)->base : Py_None);
    int same_base = base == old->data; /* (not: a reshape NumPy would copy) */
    Py_XDECREF(base); /* (its reference would count as a reader below) */
    PyObject *views = VIEW_OF(PyTuple_GET_ITEM(VIEW_OF(self), 0));
    PyObject *listed_views = base == NULL ? NULL : PyList_New(0);
    if (listed_views == NULL)
        goto error;
    if (!same_base)
        goto no;
    int listed = live_views(views, listed_views);
    if (listed <= 0) {
        if (listed < 0)
            goto error;
        goto no;
    }
    Py_ssize_t holders = view_holders_c((PyObject *)old, listed_views, Py_None);
    /* references to old: the root's node and the views' links and chains (holders); to the
     * buffer: the node's data and t's base */
    if (holders < 0 || Py_REFCNT(old) > 1 + holders || buffer_refs(old->data) > 2)
        goto no;
    int ok = owned_writeable(old->data);
    if (ok < 0)
        goto error;
    if (!ok)
        goto no;
    *target = t, *live = listed_views;
    return 1;
no:
    Py_XDECREF(listed_views);
    Py_DECREF(t);
    return 0;
error:
    Py_XDECREF(listed_views);
    Py_DECREF(t);
    return -1;
}

/* An element write through the view `vn` (`A[i][j] = v`; key and v as element_key and
 * element_value take them) into the root's buffer at the element's address
 * (view_element_address), without NumPy's view of the row: writable_target's proof, where no
 * view of ours reads the buffer. 1 done, 0 for writable_target's way, -1 on error. */
static int
write_element_through_view(PyObject *self, NodeObject *vn, NodeObject *old, PyObject *key,
                           PyObject *v)
{
    Basic b;
    b.ndim = PyTuple_GET_SIZE(vn->shape);
    if (b.ndim > MAX_DIMS)
        return 0;
    int one = !PyTuple_CheckExact(key);
    for (Py_ssize_t d = 0; d < b.ndim; d++) { /* (element_key checked them) */
        long long k, n = PyLong_AsLongLong(PyTuple_GET_ITEM(vn->shape, d));
        if (!index_value(one ? key : PyTuple_GET_ITEM(key, d), &k))
            return PyErr_Occurred() ? -1 : 0;
        b.start[d] = (Py_ssize_t)(k < 0 ? k + n : k);
    }
    const char *at;
    PyObject *root;
    int found = view_element_address(vn, &b, &at, &root);
    if (found <= 0 || root != old->data)
        return found < 0 ? -1 : 0;
    char bytes[32];
    size_t size;
    if (!element_bytes(FIELDS(root)->descr, v, bytes, &size))
        return 0;
    PyObject *live = PyList_New(0);
    if (live == NULL)
        return -1;
    int listed = live_views(VIEW_OF(PyTuple_GET_ITEM(VIEW_OF(self), 0)), live), ok = listed;
    if (listed > 0) {
        /* references to old: the root's node and the views' links and chains (holders, -1
         * where it cannot tell); to the buffer: the node's data alone */
        Py_ssize_t holders = view_holders_c((PyObject *)old, live, Py_None);
        ok = holders >= 0 && Py_REFCNT(old) <= 1 + holders && buffer_refs(old->data) <= 1
                 ? owned_writeable(old->data) : 0;
    }
    if (ok > 0) {
        memmove((char *)at, bytes, size);
        reread_views(live); /* the views read the buffer again */
    }
    Py_DECREF(live);
    return ok;
}

/* The core of the writes through a view: `whole` 0 for an element write (key and value as
 * element_key and element_value take them), 1 for the whole view written with `value`, a
 * computed Node of the view's shape and dtype (`row -= x` after its result was computed). */
static int
write_through_view_c(PyObject *self, PyObject *key, PyObject *value, int whole)
{
    NodeObject *old, *vn = synced_view(self, &old);
    if (vn == NULL)
        return 0;
    PyObject *v;
    if (whole) {
        NodeObject *nv = PyObject_TypeCheck(value, NODE->base) ? (NodeObject *)value : NULL;
        int same_shape = nv == NULL ? 0 : nv->shape == vn->shape ? 1
                         : PyObject_RichCompareBool(nv->shape, vn->shape, Py_EQ);
        if (same_shape < 0)
            return -1;
        if (!same_shape || nv->op != INPUT_OP || PyTuple_GET_SIZE(nv->inputs) != 0 ||
            nv->dtype != vn->dtype || !is_ndarray(nv->data))
            return 0;
        v = nv->data, key = Py_Ellipsis;
    }
    else {
        v = element_value(value, vn->dtype);
        if (v == NULL || !element_key(key, vn->shape))
            return 0;
        int done = write_element_through_view(self, vn, old, key, v);
        if (done != 0)
            return done;
    }
    PyObject *target, *live;
    int found = writable_target(self, vn, old, &target, &live);
    if (found <= 0)
        return found;
    int result = PyObject_SetItem(target, key, v) < 0 ? -1 : 1;
    if (result == 1)
        reread_views(live); /* the views read the buffer again */
    Py_DECREF(live);
    Py_DECREF(target);
    return result;
}

/* NumPy's second write of `A[j] -= x` (`A[j] = view` after the view was written in place): 1
 * when `value` is a view of the root `self`, in sync, whose memory is `self`'s buffer at `key`
 * (address, shape, strides: indexing.set_through_view's is_same_view), a no-op then; else 0. */
static int
try_same_view_write(PyObject *self, PyObject *key, PyObject *value)
{
    if (Py_TYPE(value) != ARRAY)
        return 0;
    PyObject *vlink = VIEW_OF(value);
    NodeObject *old = array_node(self);
    if (vlink == NULL || !PyTuple_CheckExact(vlink) || PyTuple_GET_SIZE(vlink) != 4 ||
        PyTuple_GET_ITEM(vlink, 0) != self || old == NULL ||
        PyTuple_GET_ITEM(vlink, 2) != (PyObject *)old || old->op != INPUT_OP ||
        !is_ndarray(old->data) || NODE_OF(value) != PyTuple_GET_ITEM(vlink, 1) ||
        ((NodeObject *)PyTuple_GET_ITEM(vlink, 1))->dtype != old->dtype)
        return 0; /* (another dtype would be a cast, not a no-op) */
    if (key == LAST_VIEW_KEY && LAST_VIEW != NULL && PyWeakref_GET_OBJECT(LAST_VIEW) == value)
        return 1; /* the view this root made for this very key, in sync with it */
    int is_tuple = PyTuple_CheckExact(key);
    Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(key) : 1, ints = 0;
    if (n > PyTuple_GET_SIZE(old->shape))
        return 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = is_tuple ? PyTuple_GET_ITEM(key, k) : key;
        if (is_index(item))
            ints++;
        else if (!PySlice_Check(item))
            return 0;
    }
    if (ints == PyTuple_GET_SIZE(old->shape))
        return 0; /* an element: NumPy's scalar, no view */
    PyObject *target = PyObject_GetItem(old->data, key);
    if (target == NULL) {
        PyErr_Clear(); /* (an index out of range: the Python path raises it) */
        return 0;
    }
    PyObject *view = view_value_c((NodeObject *)PyTuple_GET_ITEM(vlink, 1));
    int same = view != NULL && view != Py_None && same_memory(target, view);
    PyErr_Clear();
    Py_XDECREF(view);
    Py_DECREF(target);
    return same;
}

/* Whether `key` is a basic key of ints and slices (a tuple of them, or one) of at most `ndim`. */
static int
basic_key(PyObject *key, Py_ssize_t ndim)
{
    int is_tuple = PyTuple_CheckExact(key);
    Py_ssize_t n = is_tuple ? PyTuple_GET_SIZE(key) : 1;
    if (n > ndim)
        return 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = is_tuple ? PyTuple_GET_ITEM(key, k) : key;
        if (!is_index(item) && !PySlice_Check(item))
            return 0;
    }
    return 1;
}

/* Whether `key` is a list of distinct Python ints, each in range for a first dimension of `n`
 * (`A[[i, p]]`: a row swap's key; no bools, which NumPy reads as a mask, and no repeats, whose
 * write order NumPy leaves open). */
static int
row_list_key(PyObject *key, Py_ssize_t n)
{
    Py_ssize_t m = PyList_GET_SIZE(key);
    if (m == 0 || m > 8)
        return 0;
    long long seen[8];
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *item = PyList_GET_ITEM(key, k);
        if (!PyLong_CheckExact(item))
            return 0;
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (overflow || v < -(long long)n || v >= (long long)n) {
            PyErr_Clear();
            return 0;
        }
        seen[k] = v < 0 ? v + n : v;
        for (Py_ssize_t j = 0; j < k; j++)
            if (seen[j] == seen[k])
                return 0;
    }
    return 1;
}

/* Whether a write casts a value of dtype `from` into an array of dtype `to` as the cast op's
 * reference does, by astype: a float or complex array, and a bool, integer or float value (or a
 * complex one into complex). 1, 0 (ints, whose float casts saturate here, and complex into real,
 * which warns), -1 on error. */
static int
write_cast_kinds(PyObject *from, PyObject *to)
{
    static PyObject *kind_name;
    if (kind_name == NULL && (kind_name = PyUnicode_InternFromString("kind")) == NULL)
        return -1;
    PyObject *a = PyObject_GetAttr(from, kind_name), *b = a ? PyObject_GetAttr(to, kind_name) : NULL;
    int ok = -1;
    if (b != NULL && PyUnicode_Check(a) && PyUnicode_Check(b) && PyUnicode_GET_LENGTH(a) == 1 &&
        PyUnicode_GET_LENGTH(b) == 1) {
        Py_UCS4 f = PyUnicode_READ_CHAR(a, 0), t = PyUnicode_READ_CHAR(b, 0);
        ok = (t == 'f' || t == 'c') && (f == 'b' || f == 'i' || f == 'u' || f == 'f' ||
                                        (f == 'c' && t == 'c'));
    }
    else if (b != NULL)
        ok = 0;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return ok;
}

/* `value.astype(dtype)` under NumPy's 'call' error state between the flags' clear and test (a
 * write's cast: float64 into float32 may overflow): the copy where no flag was raised, else NULL
 * with no error set, the general path then casting and reporting. Steals `value`. */
static PyObject *
checked_astype(PyObject *value, PyObject *dtype)
{
    static PyObject *astype_name;
    if (astype_name == NULL && (astype_name = PyUnicode_InternFromString("astype")) == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    PyObject *method = PyObject_GetAttr(value, astype_name);
    Py_DECREF(value);
    PyObject *args = method == NULL ? NULL : PyTuple_Pack(1, dtype), *out = NULL, *bits = NULL;
    if (args != NULL && call_checked(method, NULL, args, NULL, NULL, &out, &bits) == 0 &&
        out != NULL) {
        long raised = PyLong_AsLong(bits);
        if (raised != 0)
            Py_CLEAR(out);
    }
    Py_XDECREF(method);
    Py_XDECREF(args);
    Py_XDECREF(bits);
    if (out == NULL)
        PyErr_Clear();
    return out;
}

/* eager.written_value's computation of a pending value in C: one op over computed values (and
 * one plain ufunc op of them) within eager_size, or a loop's update above it (loop_update_c). A
 * leaf, Py_None (borrowed) where C does not take it (the Python path walks it), NULL on error. */
static PyObject *
pending_value_c(NodeObject *nv)
{
    if (is_seed_op(nv->op) || EAGER_LIMIT == NULL)
        return Py_None;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)), size = 1;
    for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(nv->shape); d++)
        size *= PyLong_AsSsize_t(PyTuple_GET_ITEM(nv->shape, d));
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return Py_None;
    }
    if (size > limit)
        return loop_update_c(nv);
    PyObject *done = one_op_now(nv);
    if (done == Py_None)
        PyErr_Clear();
    return done;
}

/* `A[key] = V` for a root A whose buffer only A and its live views read (view_holders_c), a
 * basic key, and V a Python number A's dtype holds (element_value) or a computed value of A's
 * dtype (a buffer or NumPy's view of one, A's own included: `p[:, -1] = p[:, -2]`): NumPy's
 * `data[key] = V` (it handles overlap), the live views reading the buffer again, as NumPy's
 * views see the write. The Python path built a scatter and refreshed every view (~100 us with a
 * few views). 1 done, 0 fall back, -1 error. */
static int
try_write_region(PyObject *self, PyObject *key, PyObject *value)
{
    NodeObject *old = array_node(self);
    PyObject *views = VIEW_OF(self);
    if (old == NULL || views == NULL || old->op != INPUT_OP || PyTuple_GET_SIZE(old->inputs) != 0 ||
        !is_ndarray(old->data) || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return 0;
    /* a basic key writes NumPy's view of the region; a row list (`A[[i, p]] = A[[p, i]]`)
     * writes the rows through NumPy's own indexed assignment */
    int rows = PyList_CheckExact(key) && PyTuple_GET_SIZE(old->shape) >= 1 &&
               row_list_key(key, PyLong_AsSsize_t(PyTuple_GET_ITEM(old->shape, 0)));
    if (!rows && !basic_key(key, PyTuple_GET_SIZE(old->shape)))
        return PyErr_Occurred() ? -1 : 0;
    PyObject *source; /* a new reference */
    int fresh = 0;    /* source is NumPy's view made here (its base reference is ours) */
    if (PyFloat_CheckExact(value) || PyLong_CheckExact(value) || PyBool_Check(value)) {
        /* a number NumPy's setitem stores without an error or a warning (element_value: a
         * float into float64, an int into float64 or an integer dtype that holds it, a bool or
         * an int into bool): cavity_flow's `u[0, :] = 0` took the Python path, ~3 us */
        if (element_value(value, old->dtype) == NULL)
            return PyErr_Occurred() ? -1 : 0;
        source = Py_NewRef(value);
    }
    else {
        NodeObject *nv = array_node(value);
        if (nv != NULL && PyTuple_GET_SIZE(nv->inputs) != 0 && nv->dtype == old->dtype &&
            VIEW_OF(value) == Py_None && !is_view_op(nv->op)) {
            /* a pending value (householder's `R[j:, :] = R[j:, :] - np.outer(...)`): computed
             * first, as eager.written_value computes it, and its Array takes the leaf */
            PyObject *leaf = pending_value_c(nv);
            if (leaf == NULL || leaf == Py_None)
                return leaf == NULL ? -1 : 0;
            Py_SETREF(NODE_OF(value), leaf);
            nv = (NodeObject *)leaf;
        }
        int cast = nv != NULL && nv->dtype != old->dtype;
        if (nv == NULL || (cast && !write_cast_kinds(nv->dtype, old->dtype)))
            return PyErr_Occurred() ? -1 : 0;
        fresh = PyTuple_GET_SIZE(nv->inputs) != 0;
        source = !fresh ? (is_ndarray(nv->data) ? Py_NewRef(nv->data) : NULL) : view_value_c(nv);
        if (source != NULL && cast && is_ndarray(source)) {
            source = checked_astype(source, old->dtype);
            fresh = 0; /* (a copy: no base to count) */
        }
        if (source == NULL || !is_ndarray(source)) {
            Py_XDECREF(source);
            PyErr_Clear();
            return 0;
        }
    }
    int result = 0;
    PyObject *live = PyList_New(0), *target = NULL;
    if (live == NULL)
        goto error;
    if (PyList_CheckExact(views)) {
        int listed = live_views(views, live);
        if (listed <= 0) {
            if (listed < 0)
                goto error;
            goto done;
        }
    }
    else if (views != Py_None)
        goto done;
    int element = 0; /* `A[i, j] = v` while a view of A lives (try_write_element declined) */
    if (!rows) {
        target = PyObject_GetItem(old->data, key);
        if (target == NULL) {
            PyErr_Clear(); /* (an index out of range: the Python path raises it) */
            goto done;
        }
        if (!is_ndarray(target)) { /* an element (NumPy's scalar): written by its key */
            Py_CLEAR(target);
            element = 1;
        }
    }
    Py_ssize_t holders = PyList_GET_SIZE(live) ? view_holders_c((PyObject *)old, live, Py_None) : 0;
    /* readers of the buffer: the node's data, target's base (a basic key's view), and the base
     * of the view of it made here; any other (another Array's buffer viewing it, an export) is
     * a reader that must keep its value: then no write in place */
    Py_ssize_t allowed = rows || element ? 1 : 2;
    if (fresh) {
        PyObject *base = ARRAY_FIELDS ? Py_NewRef(FIELDS(source)->base ? FIELDS(source)->base
                                                                     : Py_None)
                                      : getattr_named(source, A_BASE);
        if (base == NULL)
            goto error;
        allowed += base == old->data;
        Py_DECREF(base);
    }
    int ok = holders >= 0 && Py_REFCNT(old) <= 1 + holders && buffer_refs(old->data) <= allowed
                 ? owned_writeable(old->data) : 0;
    if (ok < 0)
        goto error;
    PyObject *copy = NULL; /* another reader of the buffer: the handle's own copy, written */
    if (!ok) {
        if (holders != 0 || PyList_GET_SIZE(live) != 0 || COPY_NAME == NULL)
            goto done; /* (live views see the root's buffer: the Python path re-points them) */
        Py_ssize_t size = 1;
        for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(old->shape); d++)
            size *= PyLong_AsSsize_t(PyTuple_GET_ITEM(old->shape, d));
        if (PyErr_Occurred())
            goto error;
        if (size > WRITE_LIMIT_C)
            goto done;
        copy = PyObject_CallMethodNoArgs(old->data, COPY_NAME); /* C order, its own */
        PyObject *into = copy == NULL || rows || element ? Py_XNewRef(copy)
                                                         : PyObject_GetItem(copy, key);
        if (into == NULL) {
            Py_XDECREF(copy);
            goto error;
        }
        if (rows || element)
            Py_DECREF(into);
        else
            Py_SETREF(target, into);
    }
    int keyed = rows || element; /* written by the key itself, not into target's view */
    PyObject *dest = !keyed ? target : copy != NULL ? copy : old->data; /* (borrowed) */
    if (is_ndarray(source)) { /* NumPy drops leading unit dims here: the general path decides */
        int nd_t, nd_s;
        if (ARRAY_FIELDS && is_ndarray(dest))
            nd_t = FIELDS(dest)->nd, nd_s = FIELDS(source)->nd;
        else {
            PyObject *t = PyObject_GetAttrString(dest, "ndim");
            PyObject *s = t == NULL ? NULL : PyObject_GetAttrString(source, "ndim");
            nd_t = t == NULL ? -1 : (int)PyLong_AsLong(t);
            nd_s = s == NULL ? -1 : (int)PyLong_AsLong(s);
            Py_XDECREF(t);
            Py_XDECREF(s);
            if (PyErr_Occurred())
                goto error;
        }
        if (element ? nd_s != 0 : nd_s > nd_t) {
            Py_XDECREF(copy);
            goto done;
        }
    }
    if (PyObject_SetItem(dest, keyed ? key : Py_Ellipsis, source) < 0) {
        Py_XDECREF(copy);
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            goto error;
        PyErr_Clear(); /* shapes that do not broadcast: nothing written, the Python path raises */
        goto done;
    }
    if (copy != NULL) { /* eager.settle's copy: a plain leaf of the handle's own buffer */
        PyObject *leaf = NODE->build(INPUT_OP, EMPTY, EMPTY, old->shape, old->dtype, copy,
                                     old->site);
        Py_DECREF(copy);
        if (leaf == NULL)
            goto error;
        Py_SETREF(NODE_OF(self), leaf);
        if (PyList_CheckExact(views) && PyList_GET_SIZE(views) != 0 &&
            PyList_SetSlice(views, 0, PyList_GET_SIZE(views), NULL) < 0)
            goto error; /* (_none_alive: a list of dead views emptied) */
        result = 1;
        goto done;
    }
    reread_views(live); /* the views read the buffer again */
    result = 1;
    goto done;
error:
    result = -1;
done:
    Py_XDECREF(target);
    Py_XDECREF(live);
    Py_DECREF(source);
    return result;
}

/* `key` with its computed elements (`spins[i, j] *= -1` with `i, j = sites[k]`: NumPy's integer
 * scalars, basic indices, as element_index reads them) as Python ints: a new tuple or int, or
 * NULL where it holds none (or another kind of entry: the key is left as it is). The C write
 * paths take ints; a write keyed by elements took the Python path (~2.4 us, 0.09 by ints). */
static PyObject *
element_int_key(PyObject *key)
{
    long long v;
    if (ARRAY == NULL)
        return NULL;
    if (!PyTuple_CheckExact(key))
        return Py_TYPE(key) == ARRAY && element_index(key, &v) ? PyLong_FromLongLong(v) : NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(key), elements = 0;
    for (Py_ssize_t d = 0; d < n; d++) /* (the common key, ints alone, leaves here) */
        elements += Py_TYPE(PyTuple_GET_ITEM(key, d)) == ARRAY;
    if (!elements)
        return NULL;
    for (Py_ssize_t d = 0; d < n; d++) {
        PyObject *k = PyTuple_GET_ITEM(key, d);
        if (Py_TYPE(k) == ARRAY ? !element_index(k, &v) : !is_index(k))
            return NULL;
    }
    PyObject *ints = PyTuple_New(n);
    for (Py_ssize_t d = 0; ints != NULL && d < n; d++) {
        PyObject *k = PyTuple_GET_ITEM(key, d);
        PyObject *i = Py_TYPE(k) == ARRAY && element_index(k, &v) ? PyLong_FromLongLong(v)
                                                                  : Py_NewRef(k);
        if (i == NULL)
            Py_CLEAR(ints);
        else
            PyTuple_SET_ITEM(ints, d, i);
    }
    return ints;
}

static PyObject *
setitem_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "__setitem__(key, value)");
        return NULL;
    }
    PyObject *link = ARRAY != NULL && Py_TYPE(self) == ARRAY ? VIEW_OF(self) : NULL;
    PyObject *ints = link == NULL ? NULL : element_int_key(args[0]);
    if (ints == NULL && PyErr_Occurred())
        return NULL;
    PyObject *key = ints != NULL ? ints : args[0]; /* (the Python path gets the user's key) */
    int done = link == NULL ? 0 /* (a subclass, or an Array never initialised) */
               : PyTuple_CheckExact(link) ? try_write_through_view(self, key, args[1])
                                          : try_write_element(self, key, args[1]);
    if (done == 0 && link != NULL && !PyTuple_CheckExact(link) && Py_TYPE(args[0]) == ARRAY)
        done = try_write_masked(self, args[0], args[1]); /* (counts them as try_write_element) */
    if (done == 0 && link != NULL && !PyTuple_CheckExact(link))
        release_ring_views(self); /* (try_write_element counts the ring's views; the rest not) */
    if (done == 0 && link != NULL && !PyTuple_CheckExact(link) && EAGER_LIMIT != NULL &&
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) > 0)
        done = try_same_view_write(self, key, args[1]);
    if (done == 0 && link != NULL && !PyTuple_CheckExact(link) && EAGER_LIMIT != NULL &&
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0)) > 0) {
        PyObject *region = PyList_CheckExact(key) ? int_list_key(key) : Py_NewRef(key);
        done = region == NULL ? -1 : try_write_region(self, region, args[1]);
        Py_XDECREF(region);
    }
    Py_XDECREF(ints);
    if (done < 0)
        return NULL;
    if (done)
        Py_RETURN_NONE;
    if (SETITEM_FALLBACK == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install_setitem() was not called");
        return NULL;
    }
    PyObject *call[3] = {self, args[0], args[1]};
    PyObject *out = PyObject_Vectorcall(SETITEM_FALLBACK, call, 3, NULL);
    release_stale_ring_views(0); /* (the write may have given the root a new node) */
    return out;
}

static PyMethodDef setitem_def = {"__setitem__", (PyCFunction)(void (*)(void))setitem_method,
                                  METH_FASTCALL, "self[key] = value"};

/* --- dot_now: `np.dot(A[i, :j], A[j, :j])` at once ------------------------------------------
 * eager.vector_dot in one C call: both vectors' NumPy views (view_value_c), NumPy's dot under
 * the 'call' error state between the flags' clear and test, the 0-d result as a leaf. ~4.5 ->
 * ~1.5 us. Py_None (borrowed) where C does not take it: Python's vector_dot then decides. */
/* np.dot, and np.matmul for `@`: for vectors both are NumPy's DOUBLE_dot (BLAS's ddot) where
 * the strides are positive, but np.dot copies a vector of negative stride first (BLAS, in its
 * order) where matmul sums it in a plain loop: their last bits differ there. */
static PyObject *MATMUL_FN;
static int take(PyObject **slot, PyObject *value);
#define DOT_WORK 64         /* eager._WORK: a vector may have this many times eager_size elements */

/* Whether np.dot hands a vector at `data` with this stride to its dot function as it is
 * (NumPy's cblasfuncs.c `_bad_strides` copies it first otherwise). */
static int
dot_layout(const char *data, Py_ssize_t stride, Py_ssize_t n)
{
    return (uintptr_t)data % sizeof(double) == 0 && stride >= 0 &&
           stride % (Py_ssize_t)sizeof(double) == 0 && !(stride == 0 && n > 1);
}

/* np.matmul (`matmul` 1) or np.dot of two computed float64 vectors through NumPy's own dot
 * function (NP_DOUBLE_DOT), without the call's conversions and views (~0.4 us): np.matmul's
 * vector product is that function for every stride; np.dot's where the strides are BLAS's
 * (dot_layout) and the length is 2 or more (a length-1 np.dot multiplies). A leaf node, Py_None
 * (borrowed) where it does not apply or a flag was raised (NumPy's call then reports it), NULL on
 * error. */
static PyObject *
dot_direct(NodeObject *a, NodeObject *b, PyObject *site, int matmul)
{
    PyObject *ra, *rb;
    Py_ssize_t nda, ndb, da[MAX_DIMS], sa[MAX_DIMS], db[MAX_DIMS], sb[MAX_DIMS];
    char *pa, *pb;
    int fa = view_layout(a, &ra, &nda, da, sa, &pa);
    int fb = fa <= 0 ? fa : view_layout(b, &rb, &ndb, db, sb, &pb);
    if (fa < 0 || fb < 0)
        return NULL;
    if (!fa || !fb || nda != 1 || ndb != 1 || da[0] != db[0] ||
        FIELDS(ra)->descr != FLOAT64_DTYPE || FIELDS(rb)->descr != FLOAT64_DTYPE)
        return Py_None;
    Py_ssize_t n = da[0];
    if (n < 1 || (!matmul && (n < 2 || !dot_layout(pa, sa[0], n) || !dot_layout(pb, sb[0], n))))
        return Py_None;
    double out = 0.0;
    NODE->fp_clear();
    NP_DOUBLE_DOT(pa, sa[0], pb, sb[0], &out, n, NULL);
    if (NODE->fp_test() != 0)
        return Py_None;
    PyObject *value = template_copy(FLOAT64_DTYPE, &out, sizeof out);
    if (value == NULL || value == Py_None)
        return value;
    PyObject *node = NODE->build(INPUT_OP, EMPTY, EAGER_MARK, EMPTY_SHAPE, FLOAT64_DTYPE, value,
                                 site);
    Py_DECREF(value);
    return node;
}

static PyObject *
dot_now(NodeObject *a, NodeObject *b, PyObject *site, PyObject *fn)
{
    if (EXTOBJ_VAR == NULL || fn == NULL || EAGER_LIMIT == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0 ||
        PyTuple_GET_SIZE(a->shape) != 1)
        return Py_None;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
    Py_ssize_t size = PyLong_AsSsize_t(PyTuple_GET_ITEM(a->shape, 0));
    if (limit <= 0 || size < 0 || size > limit * DOT_WORK) {
        PyErr_Clear();
        return Py_None;
    }
    if (NP_DOUBLE_DOT != NULL && FP_DIRECT && a->dtype == FLOAT64_DTYPE &&
        b->dtype == FLOAT64_DTYPE && fn != NULL &&
        (fn == NP_MATMUL || fn == NP_DOT_FN || fn == MATMUL_FN)) { /* (np.dot's _implementation) */
        PyObject *node = dot_direct(a, b, site, fn == NP_MATMUL);
        if (node != Py_None)
            return node;
    }
    PyObject *va = input_value(a, 0);
    if (va == NULL)
        return Py_None;
    PyObject *vb = input_value(b, 0);
    if (vb == NULL) {
        Py_DECREF(va);
        return Py_None;
    }
    PyObject *args = PyTuple_Pack(2, va, vb), *out, *bits;
    Py_DECREF(va);
    Py_DECREF(vb);
    if (args == NULL)
        return NULL;
    int failed = call_checked(fn, NULL, args, NULL, NULL, &out, &bits);
    Py_DECREF(args);
    if (failed)
        return NULL;
    long fired = bits == NULL ? -1 : PyLong_AsLong(bits);
    Py_XDECREF(bits);
    if (out == NULL || fired != 0) { /* an error or a flag: Python's path reports it */
        Py_XDECREF(out);
        PyErr_Clear();
        return Py_None;
    }
    if (!is_ndarray(out)) { /* NumPy's scalar: a 0-d array (a float64's from its template) */
        PyObject *array = Py_None;
        if (a->dtype == FLOAT64_DTYPE && PyFloat_Check(out)) {
            double v = PyFloat_AS_DOUBLE(out);
            array = template_copy(FLOAT64_DTYPE, &v, sizeof v);
        }
        if (array == Py_None)
            array = PyObject_CallOneArg(NP_ASARRAY, out);
        Py_SETREF(out, array);
        if (out == NULL)
            return NULL;
    }
    PyObject *dtype = getattr_named(out, A_DTYPE);
    PyObject *node = dtype == NULL ? NULL
                     : NODE->build(INPUT_OP, EMPTY, EAGER_MARK, EMPTY_SHAPE, dtype, out, site);
    Py_XDECREF(dtype);
    Py_DECREF(out);
    return node;
}

/* Array.__array_function__ for `np.dot(A[i, :j], A[j, :j])`: NumPy's dispatch reaches this C
 * method, which runs dot_now for two computed vectors of one float dtype (~1.9 us of Python
 * layers less: _protocols.array_function, la.dot, matmul) and matrix_now_c for a computed
 * vector or matrix by a matrix; anything else calls the Python method. Set by
 * install_array_function(). */
static PyObject *ARRAY_FUNCTION_FALLBACK, *NP_DOT, *DOT_DTYPES, *NP_FLIP, *REVERSED;
static PyObject *try_getitem(PyObject *self, PyObject *key);

static int set_array_method(PyMethodDef *def, const char *name);

/* `fn(x, y)` (np.dot, or np.matmul for `x @ y`) of two computed vectors of one float or complex
 * dtype and length, at once (dot_now): a new Array, Py_None (borrowed) for the general path,
 * NULL on error. */
static PyObject *
vector_dot_c(PyObject *x, PyObject *y, PyObject *fn)
{
    NodeObject *a = array_node(x), *b = array_node(y);
    if (a == NULL || b == NULL || fn == NULL || DOT_DTYPES == NULL || a->dtype != b->dtype ||
        PyTuple_GET_SIZE(a->shape) != 1 || PyTuple_GET_SIZE(b->shape) != 1)
        return Py_None;
    int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(a->shape, 0),
                                        PyTuple_GET_ITEM(b->shape, 0), Py_EQ);
    int dots = same == 1 ? PySet_Contains(DOT_DTYPES, a->dtype) : same;
    if (dots <= 0) {
        PyErr_Clear();
        return Py_None;
    }
    Py_INCREF(a);
    Py_INCREF(b);
    PyObject *site = NODE->user_site();
    PyObject *node = site == NULL ? NULL : dot_now(a, b, site, fn);
    Py_XDECREF(site);
    Py_DECREF(a);
    Py_DECREF(b);
    if (node == NULL || node == Py_None)
        return node;
    return make_array(node);
}

/* Whether `n` is an indexed read (a view op over something, a gather) or a result of the
 * at-once rule: eager._indexed. */
static int
indexed_node(NodeObject *n)
{
    return n->attrs == EAGER_MARK || is_seed_op(n->op) ||
           (PyTuple_GET_SIZE(n->inputs) != 0 && is_view_op(n->op));
}

/* The sizes of a 1-D or 2-D shape into dims[2]; 0 for another rank or an error (cleared). */
static int
small_dims(PyObject *shape, Py_ssize_t *dims)
{
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    for (Py_ssize_t k = 0; k < nd && nd <= 2; k++)
        if ((dims[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k))) < 0) {
            PyErr_Clear();
            return 0;
        }
    return nd >= 1 && nd <= 2 ? (int)nd : 0;
}

/* `x @ y` of computed matrices (or a matrix and a vector) of one float or complex dtype:
 * eager.matrix_product in C (scattering_self_energies' `G[k, E - w, n] @ dH[a, b, i]` of 4 x 4
 * complex blocks: ~6 -> ~1.5 us), where its rule applies (a vector or an indexed read among
 * them; the operands within eager_size times DOT_WORK, the result within eager_size): `fn`
 * (np.matmul for `@`, np.dot's implementation for np.dot: each its own bits) of their NumPy
 * views under the 'call' error state, the result a leaf's new Array. Py_None (borrowed) for
 * the Python method otherwise, and where a flag was raised (it reports it); NULL on error. */
static PyObject *
matrix_now_c(PyObject *x, PyObject *y, PyObject *fn)
{
    NodeObject *a = array_node(x), *b = array_node(y);
    Py_ssize_t da[2], db[2];
    if (a == NULL || b == NULL || DOT_DTYPES == NULL || fn == NULL || EXTOBJ_VAR == NULL ||
        EAGER_LIMIT == NULL || EAGER_VIEW_OPS == NULL || EAGER_SEED_OPS == NULL ||
        a->dtype != b->dtype || PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    int na = small_dims(a->shape, da), nb = na ? small_dims(b->shape, db) : 0;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
    if (!na || !nb || na + nb == 2 || limit <= 0 || da[na - 1] != db[0])
        return Py_None; /* (vectors: vector_dot_c; shapes that do not contract: Python raises) */
    Py_ssize_t size_a = na == 2 ? da[0] * da[1] : da[0], size_b = nb == 2 ? db[0] * db[1] : db[0];
    Py_ssize_t rows = na == 2 ? da[0] : 1, cols = nb == 2 ? db[1] : 1;
    if (size_a > limit * DOT_WORK || size_b > limit * DOT_WORK || rows * cols > limit ||
        !(na == 1 || nb == 1 || indexed_node(a) || indexed_node(b)))
        return Py_None;
    int dots = PySet_Contains(DOT_DTYPES, a->dtype);
    if (dots <= 0) {
        PyErr_Clear();
        return Py_None;
    }
    Py_INCREF(a);
    Py_INCREF(b);
    PyObject *result = Py_None, *va = input_value(a, 0), *vb = va == NULL ? NULL : input_value(b, 0);
    PyObject *args = vb == NULL ? NULL : PyTuple_Pack(2, va, vb), *out = NULL, *bits = NULL;
    if (args != NULL && call_checked(fn, NULL, args, NULL, NULL, &out, &bits) < 0)
        result = NULL;
    long fired = bits == NULL ? -1 : PyLong_AsLong(bits);
    if (result != NULL && out != NULL && fired == 0 && is_ndarray(out) &&
        dtype_is(out, a->dtype) == 1) {
        PyObject *shape = getattr_named(out, A_SHAPE), *site = NODE->user_site();
        PyObject *node = shape == NULL || site == NULL ? NULL
                         : NODE->build(INPUT_OP, EMPTY, EAGER_MARK, shape, a->dtype, out, site);
        result = node == NULL ? NULL : make_array(node); /* (steals node) */
        Py_XDECREF(shape);
        Py_XDECREF(site);
    }
    if (result == Py_None)
        PyErr_Clear();
    Py_XDECREF(out);
    Py_XDECREF(bits);
    Py_XDECREF(args);
    Py_XDECREF(va);
    Py_XDECREF(vb);
    Py_DECREF(a);
    Py_DECREF(b);
    return result;
}

/* `np.outer(x, y)` of two computed float or complex vectors of one dtype: eager.outer_now in C
 * (mnist_mlp's `np.outer(layer_0, delta)`, householder's `np.outer(tau * w, w @ R[j:, :])`), where
 * its rule applies (an indexed read among them; the result within eager_size, or within
 * OUTER_UPDATE times it where an operand is a result of the rule; each within DOT_WORK times it):
 * NumPy's multiply of `x[:, None]` and `y[None, :]` (np.outer's own computation) under the 'call'
 * error state, the result a leaf's new Array. Py_None (borrowed) for the Python path otherwise,
 * and where a flag was raised (it reports it); NULL on error. */
static PyObject *
outer_now_c(PyObject *x, PyObject *y)
{
    NodeObject *a = array_node(x), *b = array_node(y);
    if (a == NULL || b == NULL || DOT_DTYPES == NULL || NP_MULTIPLY == NULL ||
        EXTOBJ_VAR == NULL || EAGER_LIMIT == NULL || EAGER_VIEW_OPS == NULL ||
        EAGER_SEED_OPS == NULL || a->dtype != b->dtype || PyTuple_GET_SIZE(a->shape) != 1 ||
        PyTuple_GET_SIZE(b->shape) != 1 ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return Py_None;
    Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
    Py_ssize_t na = PyLong_AsSsize_t(PyTuple_GET_ITEM(a->shape, 0));
    Py_ssize_t nb = PyLong_AsSsize_t(PyTuple_GET_ITEM(b->shape, 0));
    if (PyErr_Occurred() || limit <= 0 || na < 0 || nb < 0 || na > limit * DOT_WORK ||
        nb > limit * DOT_WORK || (nb != 0 && na > limit * OUTER_UPDATE / nb) ||
        !(indexed_node(a) || indexed_node(b)) ||
        (na * nb > limit && a->attrs != EAGER_MARK && b->attrs != EAGER_MARK)) {
        PyErr_Clear();
        return Py_None;
    }
    int dots = PySet_Contains(DOT_DTYPES, a->dtype);
    if (dots <= 0) {
        PyErr_Clear();
        return Py_None;
    }
    Py_INCREF(a);
    Py_INCREF(b);
    PyObject *result = Py_None, *va = input_value(a, 0), *vb = va == NULL ? NULL : input_value(b, 0);
    PyObject *column = NULL, *row = NULL, *args = NULL, *out = NULL, *bits = NULL;
    PyObject *all = vb == NULL ? NULL : PySlice_New(NULL, NULL, NULL);
    PyObject *key_column = all == NULL ? NULL : PyTuple_Pack(2, all, Py_None);
    PyObject *key_row = key_column == NULL ? NULL : PyTuple_Pack(2, Py_None, all);
    if (key_row != NULL && (column = PyObject_GetItem(va, key_column)) != NULL &&
        (row = PyObject_GetItem(vb, key_row)) != NULL &&
        (args = PyTuple_Pack(2, column, row)) != NULL &&
        call_checked(NP_MULTIPLY, NULL, args, NULL, NULL, &out, &bits) < 0)
        result = NULL;
    long fired = bits == NULL ? -1 : PyLong_AsLong(bits);
    if (result != NULL && out != NULL && fired == 0 && is_ndarray(out) &&
        dtype_is(out, a->dtype) == 1) {
        PyObject *shape = getattr_named(out, A_SHAPE), *site = NODE->user_site();
        PyObject *node = shape == NULL || site == NULL ? NULL
                         : NODE->build(INPUT_OP, EMPTY, EAGER_MARK, shape, a->dtype, out, site);
        result = node == NULL ? NULL : make_array(node); /* (steals node) */
        Py_XDECREF(shape);
        Py_XDECREF(site);
    }
    if (result == Py_None)
        PyErr_Clear();
    Py_XDECREF(out);
    Py_XDECREF(bits);
    Py_XDECREF(args);
    Py_XDECREF(row);
    Py_XDECREF(column);
    Py_XDECREF(key_row);
    Py_XDECREF(key_column);
    Py_XDECREF(all);
    Py_XDECREF(va);
    Py_XDECREF(vb);
    Py_DECREF(a);
    Py_DECREF(b);
    return result;
}

/* Array.__matmul__: `L[i, :i] @ x[:i]` of two computed vectors in C (vector_dot_c), past the
 * Python layers (~1 us), and `A[i] @ B[j]` of small computed matrices (matrix_now_c); anything
 * else calls the Python method. Set by install_matmul(). */
static PyObject *MATMUL_FALLBACK;

static PyObject *
matmul_method(PyObject *self, PyObject *other)
{
    PyObject *out = vector_dot_c(self, other, NP_MATMUL);
    if (out == Py_None)
        out = matrix_now_c(self, other, NP_MATMUL);
    if (out != Py_None)
        return out;
    PyObject *call[2] = {self, other};
    return PyObject_Vectorcall(MATMUL_FALLBACK, call, 2, NULL);
}

static PyMethodDef matmul_def = {"__matmul__", matmul_method, METH_O, "self @ other"};

/* Array's method `def` in C, handing what it declines to the Python method `fallback` (kept in
 * `slot`); `ready`: the installs whose state it reads ran first (`usage` says which). */
static PyObject *
install_with_fallback(PyMethodDef *def, PyObject **slot, PyObject *fallback, int ready,
                      const char *usage)
{
    if (!installed())
        return NULL;
    if (!PyCallable_Check(fallback) || !ready) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    take(slot, fallback);
    if (set_array_method(def, def->ml_name) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* install_matmul(fallback): Array.__matmul__ becomes matmul_method, with the Python method
 * `fallback`. After install_array_function(). */
static PyObject *
py_install_matmul(PyObject *module, PyObject *fallback)
{
    return install_with_fallback(&matmul_def, &MATMUL_FALLBACK, fallback, DOT_DTYPES != NULL,
                                 "install_matmul(fallback): after install_array_function");
}

/* `np.flip(x)` (axis None) of an Array of at least one dim: `x[::-1, ::-1, ...]`, the view
 * la.flip builds (the same slices), through the C getitem; Py_None for the Python path. */
static PyObject *
flip_now(PyObject *x)
{
    NodeObject *n = array_node(x);
    Py_ssize_t ndim = n == NULL ? 0 : PyTuple_GET_SIZE(n->shape);
    if (ndim == 0 || REVERSED == NULL)
        return Py_None;
    PyObject *key = PyTuple_New(ndim);
    if (key == NULL)
        return NULL;
    for (Py_ssize_t d = 0; d < ndim; d++)
        PyTuple_SET_ITEM(key, d, Py_NewRef(REVERSED));
    PyObject *out = try_getitem(x, key);
    Py_DECREF(key);
    return out;
}

/* --- int(x), float(x), operator.index(x), bool(x) of a computed 0-d Array ---------------------
 * Array's Python methods read the value through `_scalar` and `_to_host` (~1.1 us; crc16's
 * `int(b)` per byte was half its time); a 0-d leaf holding a NumPy array (no device buffer, not
 * while evaluating or tracing: cache.PAUSED) converts its `item()` here, as those methods do.
 * Anything else calls the Python method. Set by install_scalar_conversions(). */
enum { TO_INT, TO_FLOAT, TO_INDEX, TO_BOOL, N_CONVERSIONS };
static PyObject *CONVERSION_FALLBACK[N_CONVERSIONS];
static PyObject *ITEM_NAME;

/* The item() of self's value where self is a computed 0-d leaf, else NULL with no error set. */
static PyObject *
leaf_item(PyObject *self)
{
    NodeObject *n = array_node(self);
    if (n == NULL || ITEM_NAME == NULL || n->op != INPUT_OP || PyTuple_GET_SIZE(n->inputs) != 0 ||
        PyTuple_GET_SIZE(n->shape) != 0 || !is_ndarray(n->data) || EAGER_PAUSED == NULL ||
        PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_PAUSED, 0)) != 0)
        return NULL;
    long long i;
    const char *at = leaf_bytes(n);
    if (at != NULL && n->dtype == FLOAT64_DTYPE) { /* (item()'s value, without the call) */
        double v;
        memcpy(&v, at, sizeof v);
        return PyFloat_FromDouble(v);
    }
    if (at != NULL && n->dtype == bool_dtype())
        return PyBool_FromLong(*(const npy_bool_c *)at != 0);
    if (leaf_int_value(n, &i))
        return PyLong_FromLongLong(i);
    PyObject *item = PyObject_CallMethodNoArgs(n->data, ITEM_NAME);
    if (item == NULL)
        PyErr_Clear(); /* (the Python method raises what it raises) */
    return item;
}

static PyObject *
convert_scalar(PyObject *self, int which)
{
    PyObject *item = leaf_item(self), *out = NULL;
    if (item != NULL) {
        int complex_item = PyComplex_Check(item); /* (float() of NumPy's complex scalar warns) */
        switch (which) {
        case TO_INT: out = PyNumber_Long(item); break;
        case TO_FLOAT: out = PyNumber_Float(item); break;
        case TO_INDEX: out = PyLong_CheckExact(item) ? Py_NewRef(item) : NULL; break;
        default: {
            int truth = PyObject_IsTrue(item);
            out = truth < 0 ? NULL : PyBool_FromLong(truth);
        }
        }
        Py_DECREF(item);
        if (out != NULL || ((which == TO_INT || which == TO_FLOAT) && !complex_item))
            return out; /* (int(nan): Python's own error, as the methods'; a complex: theirs) */
        PyErr_Clear(); /* (an index of a float or bool: the Python method's TypeError) */
    }
    return PyObject_CallOneArg(CONVERSION_FALLBACK[which], self);
}

static PyObject *int_method(PyObject *self, PyObject *unused) { return convert_scalar(self, TO_INT); }
static PyObject *float_method(PyObject *self, PyObject *unused) { return convert_scalar(self, TO_FLOAT); }
static PyObject *index_method(PyObject *self, PyObject *unused) { return convert_scalar(self, TO_INDEX); }
static PyObject *bool_method(PyObject *self, PyObject *unused) { return convert_scalar(self, TO_BOOL); }

static PyMethodDef conversion_defs[N_CONVERSIONS] = {
    {"__int__", int_method, METH_NOARGS, "int(self)"},
    {"__float__", float_method, METH_NOARGS, "float(self)"},
    {"__index__", index_method, METH_NOARGS, "operator.index(self)"},
    {"__bool__", bool_method, METH_NOARGS, "bool(self)"},
};

/* install_scalar_conversions(int_, float_, index, bool_): Array's Python methods, which the C
 * methods above replace and call for everything they do not take. */
static PyObject *
py_install_scalar_conversions(PyObject *module, PyObject *args)
{
    if (!installed())
        return NULL;
    PyObject *fallback[N_CONVERSIONS];
    if (!PyArg_ParseTuple(args, "OOOO:install_scalar_conversions", &fallback[0], &fallback[1],
                          &fallback[2], &fallback[3]))
        return NULL;
    if (ITEM_NAME == NULL && (ITEM_NAME = PyUnicode_InternFromString("item")) == NULL)
        return NULL;
    for (int k = 0; k < N_CONVERSIONS; k++) {
        if (!PyCallable_Check(fallback[k])) {
            PyErr_SetString(PyExc_TypeError, "install_scalar_conversions: four callables");
            return NULL;
        }
    }
    for (int k = 0; k < N_CONVERSIONS; k++) {
        take(&CONVERSION_FALLBACK[k], fallback[k]);
        if (set_array_method(&conversion_defs[k], conversion_defs[k].ml_name) < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* computed_dot(x, y): la.dot's `dot(A[i, :j], A[j, :j])` of two computed vectors in C
 * (vector_dot_c), and its `dot(layer_0, weights_1)` of a computed vector or matrix by a matrix
 * (matrix_now_c, np.dot's bits), or None for its Python path. */
static PyObject *
py_computed_dot(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "computed_dot(x, y)");
        return NULL;
    }
    PyObject *out = vector_dot_c(args[0], args[1], MATMUL_FN);
    if (out == Py_None)
        out = matrix_now_c(args[0], args[1], MATMUL_FN);
    return out == Py_None ? Py_NewRef(Py_None) : out;
}

/* outer_now(x, y): la.outer's `np.outer(layer_0, delta)` of two computed float or complex
 * vectors at once in C (outer_now_c), or None for its Python path. */
static PyObject *
py_outer_now(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "outer_now(x, y)");
        return NULL;
    }
    PyObject *out = outer_now_c(args[0], args[1]);
    return out == Py_None ? Py_NewRef(Py_None) : out;
}

/* flip_view(x): la.flip(x) (every axis) as the view x[::-1, ...] through the C getitem, or None
 * for its Python path. */
static PyObject *
py_flip_view(PyObject *module, PyObject *x)
{
    PyObject *out = flip_now(x);
    return out == Py_None ? Py_NewRef(Py_None) : out;
}

static PyObject *
array_function_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs == 4 && args[0] == NP_FLIP && NP_FLIP != NULL && PyTuple_CheckExact(args[2]) &&
        PyTuple_GET_SIZE(args[2]) == 1 && PyDict_CheckExact(args[3]) &&
        PyDict_GET_SIZE(args[3]) == 0) {
        PyObject *out = flip_now(PyTuple_GET_ITEM(args[2], 0));
        if (out != Py_None)
            return out; /* (NULL: the error) */
    }
    if (nargs == 4 && args[0] == NP_DOT && NP_DOT != NULL && PyTuple_CheckExact(args[2]) &&
        PyTuple_GET_SIZE(args[2]) == 2 && PyDict_CheckExact(args[3]) &&
        PyDict_GET_SIZE(args[3]) == 0) {
        PyObject *x = PyTuple_GET_ITEM(args[2], 0), *y = PyTuple_GET_ITEM(args[2], 1);
        PyObject *out = vector_dot_c(x, y, MATMUL_FN);
        if (out == Py_None) /* mnist_mlp's `np.dot(layer_0, weights_1)`: ~4 us of Python less */
            out = matrix_now_c(x, y, MATMUL_FN);
        if (out != Py_None)
            return out; /* (NULL: the error) */
    }
    if (ARRAY_FUNCTION_FALLBACK == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install_array_function() was not called");
        return NULL;
    }
    PyObject *call[5] = {self};
    for (Py_ssize_t k = 0; k < nargs && k < 4; k++)
        call[k + 1] = args[k];
    return PyObject_Vectorcall(ARRAY_FUNCTION_FALLBACK, call, nargs + 1, NULL);
}

static PyMethodDef array_function_def = {
    "__array_function__", (PyCFunction)(void (*)(void))array_function_method, METH_FASTCALL,
    "NEP 18 dispatch (np.dot of two computed vectors in C)"};

/* Array.__array_ufunc__ for `np.maximum(t, u)`: a ufunc whose lazyarray function is the plain
 * op (ufunc -> OpDef in UFUNC_OPS), called with its inputs only, takes try_binary / try_unary,
 * as `la.maximum` does (~0.65 us of Python layers less); anything else calls the Python method.
 * Set by install_array_ufunc(). */
static PyObject *ARRAY_UFUNC_FALLBACK, *UFUNC_OPS, *CALL_NAME;

static PyObject *
array_ufunc_method(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs >= 3 && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0) && UFUNC_OPS != NULL &&
        PyUnicode_Check(args[1]) && PyUnicode_Compare(args[1], CALL_NAME) == 0) {
        PyObject *op = PyDict_GetItemWithError(UFUNC_OPS, args[0]);
        if (op == NULL && PyErr_Occurred())
            return NULL;
        PyObject *out = Py_None;
        if (op != NULL && nargs == 4)
            out = try_binary(op, args[2], args[3]);
        else if (op != NULL && nargs == 3)
            out = try_unary(op, args[2]);
        if (out != Py_None)
            return out; /* (NULL: the error) */
    }
    if (ARRAY_UFUNC_FALLBACK == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray._trace: install_array_ufunc() was not called");
        return NULL;
    }
    PyObject *small[8], **call = small;
    Py_ssize_t total = nargs + 1 + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    if (total > 8 && (call = PyMem_Malloc(total * sizeof(PyObject *))) == NULL)
        return PyErr_NoMemory();
    call[0] = self;
    for (Py_ssize_t k = 0; k < total - 1; k++)
        call[k + 1] = args[k];
    PyObject *result = PyObject_Vectorcall(ARRAY_UFUNC_FALLBACK, call, nargs + 1, kwnames);
    if (call != small)
        PyMem_Free(call);
    return result;
}

static PyMethodDef array_ufunc_def = {
    "__array_ufunc__", (PyCFunction)(void (*)(void))array_ufunc_method,
    METH_FASTCALL | METH_KEYWORDS, "NEP 13 dispatch (a plain ufunc call on the C path)"};

/* dot_now(a, b, site, matmul): eager.vector_dot's node, or None for Python's vector_dot. */
static PyObject *
py_dot_now(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyObject_TypeCheck(args[0], NODE->base) ||
        !PyObject_TypeCheck(args[1], NODE->base)) {
        PyErr_SetString(PyExc_TypeError, "dot_now(a: Node, b: Node, site, matmul)");
        return NULL;
    }
    PyObject *out = dot_now((NodeObject *)args[0], (NodeObject *)args[1], args[2], args[3]);
    if (out == Py_None)
        Py_INCREF(out);
    return out;
}

/* --- view_holders: who may read a buffer written through a view ------------------------------
 * eager.view_holders in C (~10 us in Python for a loop's two row views): the references to the
 * root's node `old` that its live views hold (their links and view chains), or -1 when a node of
 * those chains has a reader besides them (a pending `row * 2` would see the write). Counts by
 * linear search: a loop holds a few views, each a chain of a few nodes. */
#define HOLDER_NODES 256

typedef struct {
    PyObject *node[HOLDER_NODES];
    Py_ssize_t count[HOLDER_NODES];
    int n;
} HolderCounts;

/* count[node] += 1; 0 when the table is full */
static int
holder_add(HolderCounts *h, PyObject *node)
{
    for (int k = 0; k < h->n; k++)
        if (h->node[k] == node) {
            h->count[k]++;
            return 1;
        }
    if (h->n == HOLDER_NODES)
        return 0;
    h->node[h->n] = node, h->count[h->n++] = 1;
    return 1;
}

static Py_ssize_t
holder_count(HolderCounts *h, PyObject *node)
{
    for (int k = 0; k < h->n; k++)
        if (h->node[k] == node)
            return h->count[k];
    return 0;
}

static Py_ssize_t
view_holders_c(PyObject *old, PyObject *views, PyObject *extra)
{
    HolderCounts expected;
    PyObject *chain[HOLDER_NODES];
    int n_chain = 0;
    expected.n = 0;
    if (extra != Py_None && !holder_add(&expected, extra))
        return -1;
    Py_ssize_t n_views = PyList_GET_SIZE(views);
    for (Py_ssize_t v = 0; v < n_views; v++) {
        PyObject *view = PyList_GET_ITEM(views, v);
        if (Py_TYPE(view) != ARRAY)
            return -1;
        PyObject *link = VIEW_OF(view);
        if (link == NULL || !PyTuple_CheckExact(link) || PyTuple_GET_SIZE(link) < 3 ||
            PyTuple_GET_ITEM(link, 2) != old)
            return -1;
        PyObject *n = PyTuple_GET_ITEM(link, 1);
        if (!holder_add(&expected, NODE_OF(view)) || !holder_add(&expected, n) ||
            !holder_add(&expected, old))
            return -1;
        while (n != old) {
            int seen = 0;
            for (int k = 0; k < n_chain && !seen; k++)
                seen = chain[k] == n;
            if (seen)
                break;
            if (n_chain == HOLDER_NODES || !PyObject_TypeCheck(n, NODE->base))
                return -1;
            chain[n_chain++] = n;
            NodeObject *node = (NodeObject *)n;
            Py_ssize_t arity = PyTuple_GET_SIZE(node->inputs);
            if (arity == 0 || !is_view_op(node->op))
                return -1;
            for (Py_ssize_t k = 1; k < arity; k++) { /* (a slice's start leaves) */
                NodeObject *start = (NodeObject *)PyTuple_GET_ITEM(node->inputs, k);
                if ((PyObject *)start == old || PyTuple_GET_SIZE(start->inputs) != 0)
                    return -1;
            }
            n = PyTuple_GET_ITEM(node->inputs, 0);
            if (!holder_add(&expected, n))
                return -1;
        }
    }
    for (int k = 0; k < n_chain; k++) /* (borrowed here: the count is the readers') */
        if (Py_REFCNT(chain[k]) != holder_count(&expected, chain[k]))
            return -1;
    return holder_count(&expected, old);
}

/* view_holders(old, views, extra): eager.view_holders; extra a node with one more known reader,
 * or None. An int, or None where another reader exists. */
static PyObject *
py_view_holders(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyList_CheckExact(args[1]) || ARRAY == NULL || EAGER_VIEW_OPS == NULL) {
        PyErr_SetString(PyExc_TypeError, "view_holders(old, views: list, extra) after install");
        return NULL;
    }
    Py_ssize_t holders = view_holders_c(args[0], args[1], args[2]);
    if (holders < 0)
        Py_RETURN_NONE;
    return PyLong_FromSsize_t(holders);
}

/* --- module functions ------------------------------------------------------------------------- */

/* unary(op, x): Array or None (run `_bind.unary`). */
static PyObject *
py_unary(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "unary(op, x)");
        return NULL;
    }
    if (!installed())
        return NULL;
    PyObject *out = try_unary(args[0], args[1]);
    if (out == Py_None)
        Py_INCREF(out);
    return out;
}

/* binary(op, x, y): Array or None (run `_bind.binary`). */
static PyObject *
py_binary(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "binary(op, x, y)");
        return NULL;
    }
    if (!installed())
        return NULL;
    PyObject *out = try_binary(args[0], args[1], args[2]);
    if (out == Py_None)
        Py_INCREF(out);
    return out;
}

/* --- la.maximum(x, y), la.sqrt(x) & co. without a Python frame ----------------------------------
 * A program that imports lazyarray as np calls the namespace's ufuncs (`np.maximum(t[i, j], ...)`
 * per element in nussinov); each class's `__call__` was a Python function whose positional
 * case is `binary(op, x, y)` / `unary(op, x)` (~0.3 us of frame). fast_function(op, fallback,
 * arity) is that case in C: a builtin bound to (op, fallback, arity) that calls `fallback` (the
 * Python function) with the same arguments for everything else (keywords, out=, a None). */
static PyObject *
fast_call(PyObject *bound, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *op = PyTuple_GET_ITEM(bound, 0), *fallback = PyTuple_GET_ITEM(bound, 1);
    Py_ssize_t arity = PyLong_AsSsize_t(PyTuple_GET_ITEM(bound, 2));
    if (kwnames == NULL && nargs == arity && installed()) {
        PyObject *out = arity == 1 ? try_unary(op, args[0]) : try_binary(op, args[0], args[1]);
        if (out != Py_None)
            return out; /* (a new Array, or NULL with the error) */
    }
    PyErr_Clear(); /* (installed()'s RuntimeError: the Python function decides) */
    return PyObject_Vectorcall(fallback, args, nargs, kwnames);
}

static PyMethodDef fast_call_def = {"fast_call", (PyCFunction)(void (*)(void))fast_call,
                                    METH_FASTCALL | METH_KEYWORDS, "the ufunc's call"};

static PyObject *
py_fast_function(PyObject *module, PyObject *args)
{
    PyObject *op, *fallback;
    Py_ssize_t arity;
    if (!PyArg_ParseTuple(args, "OOn:fast_function", &op, &fallback, &arity))
        return NULL;
    if ((arity != 1 && arity != 2) || !PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "fast_function(op, fallback, arity 1 or 2)");
        return NULL;
    }
    PyObject *bound = Py_BuildValue("(OOn)", op, fallback, arity);
    if (bound == NULL)
        return NULL;
    PyObject *fn = PyCFunction_New(&fast_call_def, bound);
    Py_DECREF(bound);
    return fn;
}

static int
take(PyObject **slot, PyObject *value)
{
    Py_INCREF(value);
    Py_XSETREF(*slot, value);
    return 0;
}

/* install(Array, tables, operators): bind lazyarray's tables and set the operator methods.
 * tables = (live, live_limit, prune, loops, scalar_keys, budget, scalar_op, scalar_dtypes,
 *           broadcasts, broadcast_op);
 * operators = ((op, forward fallback, reflected fallback) for add, subtract, multiply, divide). */
static PyObject *
py_install(PyObject *module, PyObject *args)
{
    PyObject *array_type, *tables, *operators;
    PyObject *live, *live_limit, *prune, *loops, *scalar_keys, *budget, *scalar_op, *dtypes;
    PyObject *broadcasts, *broadcast_op;
    if (!PyArg_ParseTuple(args, "O!O!O!:install", &PyType_Type, &array_type, &PyTuple_Type,
                          &tables, &PyTuple_Type, &operators))
        return NULL;
    if (!PyArg_ParseTuple(tables, "O!O!OO!O!O!OO!O!O:install tables", &PyList_Type, &live,
                          &PyList_Type, &live_limit, &prune, &PyDict_Type, &loops, &PyDict_Type,
                          &scalar_keys, &PyList_Type, &budget, &scalar_op, &PyTuple_Type, &dtypes,
                          &PyDict_Type, &broadcasts, &broadcast_op))
        return NULL;
    if (PyTuple_GET_SIZE(operators) != N_OPERATORS || PyList_GET_SIZE(live_limit) != 1 ||
        PyList_GET_SIZE(budget) != 2) {
        PyErr_SetString(PyExc_ValueError, "install: 4 operators, _LIMIT of 1, _BUDGET of 2");
        return NULL;
    }
    PyObject *descr = PyDict_GetItemString(((PyTypeObject *)array_type)->tp_dict, "_node");
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type ||
        ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX) {
        PyErr_SetString(PyExc_TypeError, "install: Array needs a `_node` slot");
        return NULL;
    }
    NODE_OFFSET = ((PyMemberDescrObject *)descr)->d_member->offset;
    descr = PyDict_GetItemString(((PyTypeObject *)array_type)->tp_dict, "_view");
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type ||
        ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX) {
        PyErr_SetString(PyExc_TypeError, "install: Array needs a `_view` slot");
        return NULL;
    }
    VIEW_OFFSET = ((PyMemberDescrObject *)descr)->d_member->offset;
    for (int i = 0; i < N_OPERATORS; i++) {
        PyObject *entry = PyTuple_GET_ITEM(operators, i);
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) {
            PyErr_SetString(PyExc_ValueError, "install: (op, forward, reflected) per operator");
            return NULL;
        }
        take(&OPERATOR_OP[i], PyTuple_GET_ITEM(entry, 0));
        take(&FALLBACK[i][0], PyTuple_GET_ITEM(entry, 1));
        take(&FALLBACK[i][1], PyTuple_GET_ITEM(entry, 2));
    }
    take(&LIVE, live), take(&LIVE_LIMIT, live_limit), take(&PRUNE, prune), take(&LOOPS, loops);
    take(&SCALAR_KEYS, scalar_keys), take(&BUDGET, budget), take(&SCALAR_OP, scalar_op);
    take(&SCALAR_DTYPES, dtypes), take(&BROADCASTS, broadcasts), take(&BROADCAST_OP, broadcast_op);
    for (int i = 0; i < N_OPERATORS; i++) {
        for (int r = 0; r < 2; r++) {
            PyMethodDef *def = &operator_methods[i][r];
            PyObject *method = PyDescr_NewMethod((PyTypeObject *)array_type, def);
            if (method == NULL || PyObject_SetAttrString(array_type, def->ml_name, method) < 0) {
                Py_XDECREF(method);
                return NULL;
            }
            Py_DECREF(method);
        }
    }
    Py_INCREF(array_type);
    Py_XSETREF(ARRAY, (PyTypeObject *)array_type);
    Py_RETURN_NONE;
}

/* install_eager(limit, hook, mark, view_ops, seed_ops, cast_op, element): bind lazyarray/eager.py's
 * rule; `element(node)` computes an element read of a computed array (a leaf) or gives None. */
/* Whether `fn` is graph/_node.c's builtin `name` (fp_status' compiled clear or test), which
 * NODE's function pointers are. */
static int
is_node_function(PyObject *fn, const char *name)
{
    if (!PyCFunction_Check(fn))
        return 0;
    PyObject *module = PyObject_GetAttrString(fn, "__module__");
    PyObject *own = PyObject_GetAttrString(fn, "__name__");
    int same = module != NULL && own != NULL && PyUnicode_Check(module) && PyUnicode_Check(own) &&
               PyUnicode_CompareWithASCIIString(module, "lazyarray.graph._node") == 0 &&
               PyUnicode_CompareWithASCIIString(own, name) == 0;
    Py_XDECREF(module);
    Py_XDECREF(own);
    PyErr_Clear();
    return same;
}

static PyObject *
py_install_eager(PyObject *module, PyObject *args)
{
    PyObject *limit, *hook, *mark, *view_ops, *seed_ops, *cast_op, *element, *paused, *input_op;
    PyObject *asarray, *extobj_var, *call_mode, *fp_clear, *fp_test, *finish;
    if (!PyArg_ParseTuple(args, "O!OO!O!O!OOO!OOOOOOO:install_eager", &PyList_Type, &limit,
                          &hook, &PyTuple_Type, &mark, &PyTuple_Type, &view_ops, &PyTuple_Type,
                          &seed_ops, &cast_op, &element, &PyList_Type, &paused, &input_op,
                          &asarray, &extobj_var, &call_mode, &fp_clear, &fp_test, &finish))
        return NULL;
    if (extobj_var != Py_None && !PyContextVar_CheckExact(extobj_var)) {
        PyErr_SetString(PyExc_TypeError, "install_eager: NumPy's error state is a ContextVar");
        return NULL;
    }
    if (extobj_var != Py_None) {
        take(&EXTOBJ_VAR, extobj_var), take(&CALL_MODE, call_mode);
        take(&FP_CLEAR, fp_clear), take(&FP_TEST, fp_test), take(&EAGER_FINISH, finish);
        FP_DIRECT = is_node_function(fp_clear, "fp_clear") && is_node_function(fp_test, "fp_test");
        if (PyErr_Occurred())
            return NULL;
    }
    if (PyList_GET_SIZE(paused) != 1) {
        PyErr_SetString(PyExc_ValueError, "install_eager: a paused list of one");
        return NULL;
    }
    take(&EAGER_PAUSED, paused), take(&INPUT_OP, input_op), take(&NP_ASARRAY, asarray);
    if (EMPTY_SHAPE == NULL && (EMPTY_SHAPE = PyTuple_New(0)) == NULL)
        return NULL;
    if (PyList_GET_SIZE(limit) != 1) {
        PyErr_SetString(PyExc_ValueError, "install_eager: a limit list of one");
        return NULL;
    }
    take(&EAGER_LIMIT, limit), take(&EAGER_MARK, mark), take(&EAGER_VIEW_OPS, view_ops);
    take(&CAST_OP, cast_op), take(&EAGER_SEED_OPS, seed_ops), take(&EAGER_ELEMENT, element);
    take(&EAGER_HOOK, hook);
    Py_RETURN_NONE;
}

/* Array.<name> becomes the C method `def` (a method descriptor: no Python frame). */
static int
set_array_method(PyMethodDef *def, const char *name)
{
    PyObject *method = PyDescr_NewMethod(ARRAY, def);
    if (method == NULL)
        return -1;
    int failed = PyObject_SetAttrString((PyObject *)ARRAY, name, method);
    Py_DECREF(method);
    return failed;
}

/* install_getitem(fallback, slice_op, reshape_op, prune_views, int64): Array.__getitem__ becomes
 * the C method, linking each result as a view (link_view), with
 * the Python method `fallback` for every key it does not take. After install(). */
static PyObject *
py_install_getitem(PyObject *module, PyObject *args)
{
    PyObject *fallback, *slice_op, *reshape_op, *prune_views = NULL, *int64 = NULL;
    PyObject *permute_op = NULL;
    if (!PyArg_ParseTuple(args, "OOO|OOO:install_getitem", &fallback, &slice_op, &reshape_op,
                          &prune_views, &int64, &permute_op))
        return NULL;
    if (prune_views == NULL || int64 == NULL) {
        PyErr_SetString(PyExc_TypeError, "install_getitem: writes.prune_views and the int64 dtype "
                        "are needed (rebuild lazyarray._trace)");
        return NULL;
    }
    take(&INT64_DTYPE, int64);
    take(&PRUNE_VIEWS, prune_views);
    if (!installed())
        return NULL;
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "install_getitem: the fallback must be callable");
        return NULL;
    }
    take(&GETITEM_FALLBACK, fallback), take(&SLICE_OP, slice_op), take(&RESHAPE_OP, reshape_op);
    if (permute_op != NULL)
        take(&PERMUTE_OP, permute_op);
    if (set_array_method(&getitem_def, "__getitem__") < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* --- Array.T in C -------------------------------------------------------------------------
 * array.py's `T` (permute_dims with reversed axes, linked as a view of self's root by
 * writes.view_of) in one C call: the permute node, its Array (make_array) and its view link
 * (link_view, as the C getitem links its views). `J.T @ A @ J` in jacobi_eigen's rotation loop
 * paid ~2 us for the Python property (NumPy's `.T`: 0.1 us). Py_None (borrowed) where Python
 * decides: fewer than 2 dims, an element's or a dynamic view's link, a link only the Python path
 * can build (a cut during the build, a transpose computed at once). */
static PyObject *T_FALLBACK; /* the Python property's getter */

static PyObject *
transpose_now(PyObject *self)
{
    if (!ENABLED || PERMUTE_OP == NULL || ARRAY == NULL || Py_TYPE(self) != ARRAY)
        return Py_None;
    PyObject *link = VIEW_OF(self);
    NodeObject *nx = array_node(self);
    if (nx == NULL || link == Py_False || (PyTuple_CheckExact(link) && PyTuple_GET_SIZE(link) != 4))
        return Py_None;
    Py_ssize_t nd = PyTuple_GET_SIZE(nx->shape);
    if (nd < 2)
        return Py_None;
    PyObject *axes = PyTuple_New(nd), *shape = PyTuple_New(nd);
    if (axes == NULL || shape == NULL) {
        Py_XDECREF(axes);
        Py_XDECREF(shape);
        return NULL;
    }
    for (Py_ssize_t d = 0; d < nd; d++) {
        PyObject *a = PyLong_FromSsize_t(nd - 1 - d);
        if (a == NULL) {
            Py_DECREF(axes);
            Py_DECREF(shape);
            return NULL;
        }
        PyTuple_SET_ITEM(axes, d, a);
        PyTuple_SET_ITEM(shape, d, Py_NewRef(PyTuple_GET_ITEM(nx->shape, nd - 1 - d)));
    }
    PyObject *attrs = PyTuple_Pack(1, axes), *site = attrs == NULL ? NULL : NODE->user_site();
    Py_DECREF(axes);
    Py_INCREF(nx); /* (a cut inside the build may replace self's node) */
    PyObject *node = site == NULL ? NULL
                     : build_view(PERMUTE_OP, (PyObject *)nx, attrs, shape, nx->dtype, site);
    Py_XDECREF(attrs);
    Py_XDECREF(site);
    Py_DECREF(shape);
    PyObject *out = node == NULL ? NULL : make_array(node); /* (steals node) */
    int linked = out == NULL ? -1 : link_view(self, out, (PyObject *)nx);
    Py_DECREF(nx);
    if (linked != 0) {
        Py_XDECREF(out);
        return linked < 0 ? NULL : Py_None;
    }
    return out;
}

static PyObject *
transpose_getter(PyObject *self, void *closure)
{
    PyObject *out = transpose_now(self);
    if (out != Py_None)
        return out;
    return PyObject_CallOneArg(T_FALLBACK, self);
}

static PyGetSetDef transpose_def = {"T", transpose_getter, NULL, "self transposed (a view)", NULL};

/* install_transpose(fallback): Array.T becomes the C getter, with the Python property's getter
 * `fallback`. After install_getitem() (its permute op). */
static PyObject *
py_install_transpose(PyObject *module, PyObject *fallback)
{
    if (!installed())
        return NULL;
    if (!PyCallable_Check(fallback) || PERMUTE_OP == NULL) {
        PyErr_SetString(PyExc_TypeError, "install_transpose(fallback): after install_getitem");
        return NULL;
    }
    take(&T_FALLBACK, fallback);
    PyObject *descr = PyDescr_NewGetSet(ARRAY, &transpose_def);
    if (descr == NULL)
        return NULL;
    int failed = PyObject_SetAttrString((PyObject *)ARRAY, "T", descr);
    Py_DECREF(descr);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* iter_now's iterator where Array.__getitem__ is getitem_method: `self[k]` for k in
 * range(n) by a direct call, as `map(self.__getitem__, range(n))` gives them (the map, its
 * bound method's call and the range iterator were ~25 ns of each element of `sum(v)`,
 * `max(v)`, `for x in row`). The length is read once, as range's. */
typedef struct {
    PyObject_HEAD
    PyObject *array; /* NULL once exhausted */
    Py_ssize_t next, stop;
} ElementIterObject;

static PyObject *getitem_method(PyObject *self, PyObject *key);

static void
element_iter_dealloc(ElementIterObject *it)
{
    PyObject_GC_UnTrack(it);
    Py_XDECREF(it->array);
    PyObject_GC_Del(it);
}

static int
element_iter_traverse(ElementIterObject *it, visitproc visit, void *arg)
{
    Py_VISIT(it->array);
    return 0;
}

static PyObject *
element_iter_next(ElementIterObject *it)
{
    if (it->array == NULL)
        return NULL;
    if (it->next >= it->stop) {
        Py_CLEAR(it->array);
        return NULL;
    }
    PyObject *k = PyLong_FromSsize_t(it->next++);
    if (k == NULL)
        return NULL;
    PyObject *out = getitem_method(it->array, k);
    Py_DECREF(k);
    return out;
}

static PyTypeObject ElementIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyarray._trace.element_iterator",
    .tp_basicsize = sizeof(ElementIterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_dealloc = (destructor)element_iter_dealloc,
    .tp_traverse = (traverseproc)element_iter_traverse,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)element_iter_next,
};

static PyObject *
element_iter(PyObject *array, Py_ssize_t n)
{
    if (n < 0 && PyErr_Occurred())
        return NULL;
    if (PyType_Ready(&ElementIterType) < 0)
        return NULL;
    ElementIterObject *it = PyObject_GC_New(ElementIterObject, &ElementIterType);
    if (it == NULL)
        return NULL;
    it->array = Py_NewRef(array);
    it->next = 0;
    it->stop = n;
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static PyObject *GETITEM_NAME; /* "__getitem__", interned */

/* --- Array.__iter__ in C ---------------------------------------------------------------------
 * array.py's `__iter__` for a computed buffer or a view of one that C can read (view_layout):
 * `map(self.__getitem__, range(len))` after writes.release_dead_root's test, without the
 * Python frame and its property reads (ising's `i, j = sites[k]`: ~0.6 -> ~0.2 us before the
 * two element reads). Py_None (borrowed) for the Python method: a 0-d value (its TypeError), a
 * pending value (evaluated there), a view only Python can replay. */
static PyObject *ITER_FALLBACK;

static PyObject *
iter_now(PyObject *self)
{
    NodeObject *nx = array_node(self);
    if (!ENABLED || nx == NULL || Py_TYPE(self) != ARRAY || EAGER_LIMIT == NULL ||
        PyTuple_GET_SIZE(nx->shape) == 0)
        return Py_None;
    if (PyTuple_GET_SIZE(nx->shape) == 1) { /* the at-once path off: array.py's host elements */
        Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
        if (limit <= 0)
            return PyErr_Occurred() ? NULL : Py_None;
    }
    PyObject *link = VIEW_OF(self);
    /* writes.release_dead_root: a writable static view whose root only the link holds */
    if (PyTuple_CheckExact(link) && PyTuple_GET_SIZE(link) == 4 &&
        PyTuple_GET_ITEM(link, 3) == Py_True && Py_REFCNT(PyTuple_GET_ITEM(link, 0)) == 1)
        Py_SETREF(VIEW_OF(self), Py_NewRef(Py_None));
    if (PyTuple_GET_SIZE(nx->inputs) != 0) {
        Py_ssize_t limit = PyLong_AsSsize_t(PyList_GET_ITEM(EAGER_LIMIT, 0));
        if (limit <= 0)
            return PyErr_Occurred() ? NULL : Py_None;
        PyObject *root;
        Py_ssize_t nd, dims[MAX_DIMS], strides[MAX_DIMS];
        char *data;
        int readable = view_layout(nx, &root, &nd, dims, &strides[0], &data);
        if (readable <= 0)
            return readable < 0 ? NULL : Py_None;
    }
    PyObject *getitem = _PyType_Lookup(ARRAY, GETITEM_NAME); /* (borrowed) */
    if (getitem != NULL && Py_IS_TYPE(getitem, &PyMethodDescr_Type) &&
        ((PyMethodDescrObject *)getitem)->d_method->ml_meth == (PyCFunction)getitem_method)
        return element_iter(self, PyLong_AsSsize_t(PyTuple_GET_ITEM(nx->shape, 0)));
    getitem = PyObject_GetAttrString(self, "__getitem__");
    PyObject *range = getitem == NULL ? NULL
                      : PyObject_CallOneArg((PyObject *)&PyRange_Type,
                                            PyTuple_GET_ITEM(nx->shape, 0));
    PyObject *out = range == NULL ? NULL
                    : PyObject_CallFunctionObjArgs((PyObject *)&PyMap_Type, getitem, range, NULL);
    Py_XDECREF(getitem);
    Py_XDECREF(range);
    return out;
}

static PyObject *
iter_method(PyObject *self, PyObject *unused)
{
    PyObject *out = iter_now(self);
    if (out != Py_None)
        return out;
    return PyObject_CallOneArg(ITER_FALLBACK, self);
}

static PyMethodDef iter_def = {"__iter__", iter_method, METH_NOARGS, "iter(self)"};

/* install_iter(fallback): Array.__iter__ becomes iter_method, with the Python method `fallback`.
 * After install_getitem() (view_value_c's ops). */
static PyObject *
py_install_iter(PyObject *module, PyObject *fallback)
{
    if (GETITEM_NAME == NULL && (GETITEM_NAME = PyUnicode_InternFromString("__getitem__")) == NULL)
        return NULL;
    return install_with_fallback(&iter_def, &ITER_FALLBACK, fallback, SLICE_OP != NULL,
                                 "install_iter(fallback): after install_getitem");
}

/* write_view_value(view, node): an in-place operator's computed result `node` written into the
 * root's buffer through the view `view` (writes.inplace_method's `A[:, j] -= x`), under
 * write_basic_through_view's proof: True, or False for the Python path. */
static PyObject *
py_write_view_value(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || ARRAY == NULL || Py_TYPE(args[0]) != ARRAY) {
        PyErr_SetString(PyExc_TypeError, "write_view_value(view: Array, node)");
        return NULL;
    }
    if (VIEW_OF(args[0]) == NULL || !PyTuple_CheckExact(VIEW_OF(args[0])))
        Py_RETURN_FALSE;
    int done = write_through_view_c(args[0], NULL, args[1], 1);
    if (done < 0)
        return NULL;
    return PyBool_FromLong(done);
}

/* install_array_function(fallback, np_dot, dtypes, dot): Array.__array_function__ becomes
 * array_function_method, with the Python method `fallback`; `dtypes` the frozenset of float
 * dtypes whose vectors it dots, `dot` np.dot (dot_now's function). After install_eager(). */
static PyObject *
py_install_array_function(PyObject *module, PyObject *args)
{
    PyObject *fallback, *np_dot, *dtypes, *dot, *np_flip = NULL;
    if (!PyArg_ParseTuple(args, "OOOO|O:install_array_function", &fallback, &np_dot, &dtypes,
                          &dot, &np_flip))
        return NULL;
    if (np_flip != NULL) {
        take(&NP_FLIP, np_flip);
        if (REVERSED == NULL) {
            PyObject *minus = PyLong_FromLong(-1);
            REVERSED = minus == NULL ? NULL : PySlice_New(Py_None, Py_None, minus);
            Py_XDECREF(minus);
            if (REVERSED == NULL)
                return NULL;
        }
    }
    if (!installed())
        return NULL;
    if (!PyCallable_Check(fallback) || !PyFrozenSet_Check(dtypes) || EAGER_LIMIT == NULL) {
        PyErr_SetString(PyExc_TypeError, "install_array_function: after install_eager");
        return NULL;
    }
    take(&ARRAY_FUNCTION_FALLBACK, fallback), take(&NP_DOT, np_dot), take(&DOT_DTYPES, dtypes);
    if (MATMUL_FN == NULL)
        take(&MATMUL_FN, dot);
    if (set_array_method(&array_function_def, "__array_function__") < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* install_inplace(rest, ufuncs): Array's __iadd__, __isub__, __imul__, __itruediv__ become the C
 * methods above, with writes.inplace_rest for what they do not finish; `ufuncs` NumPy's four
 * (add, subtract, multiply, true_divide: its casting rule's names). After install(). */
static PyObject *
py_install_inplace(PyObject *module, PyObject *args)
{
    PyObject *rest, *ufuncs;
    if (!PyArg_ParseTuple(args, "OO:install_inplace", &rest, &ufuncs))
        return NULL;
    if (!installed())
        return NULL;
    if (!PyCallable_Check(rest) || !PyTuple_Check(ufuncs) || PyTuple_GET_SIZE(ufuncs) != N_OPERATORS) {
        PyErr_SetString(PyExc_TypeError, "install_inplace(rest, (add, subtract, multiply, divide))");
        return NULL;
    }
    take(&INPLACE_REST, rest);
    for (int k = 0; k < N_OPERATORS; k++)
        take(&INPLACE_UFUNC[k], PyTuple_GET_ITEM(ufuncs, k));
    for (int k = 0; k < N_OPERATORS; k++)
        if (set_array_method(&inplace_methods[k], inplace_methods[k].ml_name) < 0)
            return NULL;
    Py_RETURN_NONE;
}

/* set_int_ranges({dtype: (min, max)}): the integer dtypes whose loops take a Python int on the
 * fast path, where it fits. */
static PyObject *
py_set_int_ranges(PyObject *module, PyObject *ranges)
{
    if (!PyDict_CheckExact(ranges)) {
        PyErr_SetString(PyExc_TypeError, "set_int_ranges({dtype: (min, max)})");
        return NULL;
    }
    take(&INT_RANGES, ranges);
    PyObject *dtype, *range;
    Py_ssize_t pos = 0;
    while (PyDict_Next(ranges, &pos, &dtype, &range)) { /* int8 to int64 by their ranges */
        if (!PyTuple_Check(range) || PyTuple_GET_SIZE(range) != 2)
            continue;
        long long low = PyLong_AsLongLong(PyTuple_GET_ITEM(range, 0));
        if (low == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            continue;
        }
        if (low == INT32_MIN)
            take(&INT32_DTYPE_C, dtype);
        else if (low == LLONG_MIN)
            take(&INT64_DTYPE_C, dtype);
        else if (low == INT16_MIN)
            take(&INT16_DTYPE_C, dtype);
        else if (low == INT8_MIN)
            take(&INT8_DTYPE_C, dtype);
    }
    Py_RETURN_NONE;
}

/* install_array_ufunc(fallback, ops): Array.__array_ufunc__ becomes array_ufunc_method, with
 * the Python method `fallback`; `ops` maps NumPy's ufuncs to the OpDefs whose lazyarray function
 * is the plain op. After install(). */
static PyObject *
py_install_array_ufunc(PyObject *module, PyObject *args)
{
    PyObject *fallback, *ops;
    if (!PyArg_ParseTuple(args, "OO!:install_array_ufunc", &fallback, &PyDict_Type, &ops))
        return NULL;
    if (!installed())
        return NULL;
    if (CALL_NAME == NULL && (CALL_NAME = PyUnicode_InternFromString("__call__")) == NULL)
        return NULL;
    take(&ARRAY_UFUNC_FALLBACK, fallback), take(&UFUNC_OPS, ops);
    if (set_array_method(&array_ufunc_def, "__array_ufunc__") < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* install_setitem(fallback, float64[, copy_stats]): Array.__setitem__ becomes setitem_method
 * (element writes into a buffer only the handle holds; masked writes in place, counted in
 * copy_stats), with the Python method `fallback` for the rest. After
 * install() and install_eager(). */
static PyObject *
py_install_setitem(PyObject *module, PyObject *args)
{
    PyObject *fallback, *float64, *stats = NULL;
    if (!PyArg_ParseTuple(args, "OO|O:install_setitem", &fallback, &float64, &stats))
        return NULL;
    if (!installed())
        return NULL;
    if (!PyCallable_Check(fallback) || EAGER_LIMIT == NULL) {
        PyErr_SetString(PyExc_TypeError, "install_setitem: a callable fallback, after install_eager");
        return NULL;
    }
    take(&SETITEM_FALLBACK, fallback), take(&FLOAT64_DTYPE, float64);
    if (stats != NULL)
        take(&COPY_STATS, stats);
    if (set_array_method(&setitem_def, "__setitem__") < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* One (name, op, fallback) entry of install_methods/install_reductions: the index of the C
 * method of that name in `table` (borrowed op and fallback set), or -1 with an exception. */
static int
method_entry(PyObject *entry, PyMethodDef *table, int n, const char *caller, const char **name,
             PyObject **op, PyObject **fallback)
{
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3 ||
        (*name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(entry, 0))) == NULL) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s: entries are (name, op, fallback)", caller);
        return -1;
    }
    *op = PyTuple_GET_ITEM(entry, 1), *fallback = PyTuple_GET_ITEM(entry, 2);
    int which = 0;
    while (which < n && strcmp(table[which].ml_name, *name) != 0)
        which++;
    if (which == n || !PyCallable_Check(*fallback)) {
        PyErr_Format(PyExc_ValueError, "%s: no C method %s, or no fallback", caller, *name);
        return -1;
    }
    return which;
}

/* install_methods(((name, op, fallback), ...)): Array's comparison and unary operator `name`
 * becomes the C method above binding `op`, with Array's Python method `fallback`. After
 * install(). */
static PyObject *
py_install_methods(PyObject *module, PyObject *entries)
{
    if (!installed())
        return NULL;
    if (!PyTuple_Check(entries)) {
        PyErr_SetString(PyExc_TypeError, "install_methods(((name, op, fallback), ...))");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(entries); j++) {
        const char *name;
        PyObject *op, *fallback;
        int which = method_entry(PyTuple_GET_ITEM(entries, j), extra_methods, N_METHODS,
                                "install_methods", &name, &op, &fallback);
        if (which < 0)
            return NULL;
        take(&METHOD_OP[which], op), take(&METHOD_FALLBACK[which], fallback);
        if (set_array_method(&extra_methods[which], name) < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* install_reductions(((name, op, fallback), ...), dtypes): Array's `sum`, `min`, `max` (`any`,
 * `all`) become the C methods above binding `op` for float `dtypes` (bool), Array's Python
 * method `fallback` for the rest. After install(). */
static PyObject *
py_install_reductions(PyObject *module, PyObject *args)
{
    PyObject *entries, *dtypes;
    if (!installed() || !PyArg_ParseTuple(args, "O!O!:install_reductions", &PyTuple_Type,
                                          &entries, &PyTuple_Type, &dtypes))
        return NULL;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(entries); j++) {
        const char *name;
        PyObject *op, *fallback;
        int which = method_entry(PyTuple_GET_ITEM(entries, j), reduction_methods, N_REDUCTIONS,
                                "install_reductions", &name, &op, &fallback);
        if (which < 0)
            return NULL;
        take(&REDUCTION_OP[which], op), take(&REDUCTION_FALLBACK[which], fallback);
        if (set_array_method(&reduction_methods[which], name) < 0)
            return NULL;
    }
    take(&REDUCTION_DTYPES, dtypes);
    Py_RETURN_NONE;
}

/* set_index_types(types): the exact types besides int that basic indexing takes as integers
 * (NumPy's integer scalars); at most 32. */
static PyObject *
py_set_index_types(PyObject *module, PyObject *types)
{
    if (!PyTuple_Check(types) || PyTuple_GET_SIZE(types) > MAX_INDEX_TYPES) {
        PyErr_SetString(PyExc_TypeError, "set_index_types: a tuple of at most 32 types");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(types); i++) {
        PyObject *t = PyTuple_GET_ITEM(types, i);
        if (!PyType_Check(t) || ((PyTypeObject *)t)->tp_as_number == NULL ||
            ((PyTypeObject *)t)->tp_as_number->nb_index == NULL ||
            PyType_IsSubtype((PyTypeObject *)t, &PyBool_Type)) {
            PyErr_SetString(PyExc_TypeError, "set_index_types: integer types with __index__");
            return NULL;
        }
    }
    for (int i = 0; i < N_INDEX_TYPES; i++)
        Py_CLEAR(INDEX_TYPES[i]);
    N_INDEX_TYPES = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(types); i++)
        INDEX_TYPES[N_INDEX_TYPES++] = (PyTypeObject *)Py_NewRef(PyTuple_GET_ITEM(types, i));
    Py_RETURN_NONE;
}

/* set_enabled(flag): whether the fast path runs; returns the previous setting. With False, every
 * call goes the Python way on the same lines: tests compare the graphs both paths build. */
/* template_dtypes(): the dtypes whose element template is kept (tests: reads of several dtypes
 * in turn keep theirs, template_slot). */
static PyObject *
py_template_dtypes(PyObject *module, PyObject *unused)
{
    PyObject *out = PyList_New(0);
    for (size_t k = 0; out != NULL && k < ELEMENT_TEMPLATES; k++)
        if (ELEMENT_TEMPLATE[k].descr != NULL && PyList_Append(out, ELEMENT_TEMPLATE[k].descr) < 0)
            Py_CLEAR(out);
    return out;
}

static PyObject *
py_set_enabled(PyObject *module, PyObject *flag)
{
    int on = PyObject_IsTrue(flag);
    if (on < 0)
        return NULL;
    PyObject *was = PyBool_FromLong(ENABLED);
    ENABLED = on;
    return was;
}

static PyMethodDef module_methods[] = {
    {"set_enabled", py_set_enabled, METH_O, "set_enabled(flag) -> previous: the fast path on/off."},
    {"template_dtypes", py_template_dtypes, METH_NOARGS,
     "template_dtypes() -> list: the dtypes whose element reads copy a kept 0-d template."},
    {"install", py_install, METH_VARARGS,
     "install(Array, tables, operators): bind lazyarray's tables, set Array's +, -, *, /."},
    {"install_setitem", py_install_setitem, METH_VARARGS,
     "install_setitem(fallback, float64): set Array's __setitem__ (element writes in C)"},
    {"dot_now", (PyCFunction)(void (*)(void))py_dot_now, METH_FASTCALL,
     "dot_now(a, b, site, matmul): np.dot of two computed vectors as a leaf node, or None"},
    {"view_holders", (PyCFunction)(void (*)(void))py_view_holders, METH_FASTCALL,
     "view_holders(old, views, extra): eager.view_holders in C"},
    {"write_view_value", (PyCFunction)(void (*)(void))py_write_view_value, METH_FASTCALL,
     "write_view_value(view, node): an in-place result written through the view, or False"},
    {"install_array_function", py_install_array_function, METH_VARARGS,
     "install_array_function(fallback, np_dot, dtypes, dot): Array's __array_function__ in C"},
    {"install_inplace", py_install_inplace, METH_VARARGS,
     "install_inplace(rest, ufuncs): Array's four in-place operators in C"},
    {"set_int_ranges", py_set_int_ranges, METH_O,
     "set_int_ranges({dtype: (min, max)}): Python ints in integer loops on the fast path"},
    {"install_array_ufunc", py_install_array_ufunc, METH_VARARGS,
     "install_array_ufunc(fallback, ops): Array's __array_ufunc__ in C"},
    {"release_view_ring", py_release_view_ring, METH_NOARGS,
     "release_view_ring(): let go of the views kept to be handed out again that nothing else "
     "holds (before a graph runs: their roots' buffers may then be donated)."},
    {"install_getitem", py_install_getitem, METH_VARARGS,
     "install_getitem(fallback, slice_op, reshape_op, prune_views, int64[, permute_op]): set "
     "Array's __getitem__ (basic keys in C, results linked as views)."},
    {"set_spare_pool", py_set_spare_pool, METH_O,
     "The spare-output pool's id -> references dict (runtime/spare_outputs.py `_held`)."},
    {"set_fill_read", py_set_fill_read, METH_O,
     "set_fill_read(fn): eager.fill_read, called where the C getitem reads a fill"},
    {"install_iter", py_install_iter, METH_O,
     "install_iter(fallback): Array.__iter__ in C (after install_getitem)"},
    {"install_transpose", py_install_transpose, METH_O,
     "install_transpose(fallback): Array.T in C (after install_getitem)"},
    {"set_index_types", py_set_index_types, METH_O,
     "set_index_types(types): NumPy's integer scalar types, taken by basic indexing as ints."},
    {"install_methods", py_install_methods, METH_O,
     "install_methods(((name, op, fallback), ...)): Array's comparisons and unary operators in C."},
    {"install_eager", py_install_eager, METH_VARARGS,
     "install_eager(limit, hook, mark, view_ops, seed_ops, cast_op, element, paused, input_op, asarray): bind lazyarray/eager.py's rule."},
    {"check_array_fields", py_check_array_fields, METH_VARARGS,
     "check_array_fields(a, b): whether NumPy's array fields read right (a = np.empty((2, 3)), "
     "b = a[:, ::2]); the at-once path reads them directly where they do."},
    {"install_matmul", py_install_matmul, METH_O,
     "install_matmul(fallback): Array's __matmul__ in C for two computed vectors."},
    {"reduce_all", (PyCFunction)(void (*)(void))py_reduce_all, METH_FASTCALL,
     "reduce_all(which, x): x.sum() / x.min() / x.max() (0, 1, 2) of an at-once value in C, or "
     "None."},
    {"install_element_operators", py_install_element_operators, METH_VARARGS,
     "install_element_operators([ops]): Array's & | ^ << >> // % ** of elements (and with ops, "
     "arrays) in C, the present methods as fallbacks."},
    {"set_element_ops", py_set_element_ops, METH_VARARGS,
     "set_element_ops(maximum, minimum, negative[, abs, sqrt, square, floor, ceil, trunc]): "
     "np.maximum/np.minimum/- (and these) of elements in C."},
    {"outer_now", (PyCFunction)(void (*)(void))py_outer_now, METH_FASTCALL,
     "outer_now(x, y): np.outer of computed vectors at once, or None."},
    {"computed_dot", (PyCFunction)(void (*)(void))py_computed_dot, METH_FASTCALL,
     "computed_dot(x, y): np.dot of computed vectors / matrices at once, or None."},
    {"flip_view", py_flip_view, METH_O, "flip_view(x): x[::-1, ...] as a view, or None."},
    {"fast_function", py_fast_function, METH_VARARGS,
     "fast_function(op, fallback, arity): a ufunc's positional call in C, else fallback."},
    {"install_scalar_conversions", py_install_scalar_conversions, METH_VARARGS,
     "install_scalar_conversions(int_, float_, index, bool_): Array's scalar conversions in C."},
    {"install_raise_hook", py_install_raise_hook, METH_VARARGS,
     "install_raise_hook(on, hook): hook(array) for a pending Array while on[0] is True."},
    {"set_live_min_limit", py_set_live_min_limit, METH_O,
     "set_live_min_limit(n): cuts._MIN_LIMIT for the C prune of cuts._LIVE."},
    {"install_reductions", py_install_reductions, METH_VARARGS,
     "install_reductions(((name, op, fallback), ...), dtypes): sum/min/max of at-once values in C."},
    {"one_op_now", (PyCFunction)(void (*)(void))py_one_op_now, METH_FASTCALL,
     "one_op_now(node[, bound]): node's value computed now from computed inputs (a leaf), or "
     "None"},
    {"view_value", py_view_value, METH_O,
     "view_value(node): NumPy's view of a slice/reshape chain over a computed buffer, or None."},
    {"same_view", (PyCFunction)(void (*)(void))py_same_view, METH_FASTCALL,
     "same_view(a, b): whether two NumPy arrays view the same memory the same way."},
    {"set_ufunc_reference", py_set_ufunc_reference, METH_O,
     "set_ufunc_reference(code): the plain ufunc reference's code object (NumPy broadcasts)."},
    METHOD("unary", py_unary, "unary(op, x): the Array op(x) on the fast path, or None."),
    METHOD("binary", py_binary, "binary(op, x, y): the Array op(x, y) on the fast path, or None."),
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_trace",
    "The operators' and basic indexing's common case, compiled (see lazyarray/_trace.c).", -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__trace(void)
{
    NODE = (NodeCAPI *)PyCapsule_Import(NODE_CAPI_NAME, 0);
    if (NODE == NULL)
        return NULL;
    if (EMPTY == NULL && (EMPTY = PyTuple_New(0)) == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
