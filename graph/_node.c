/* lazyarray.graph._node: the IR node's constructor and the user-site frame walk, compiled.
 *
 * Why C: building a node is tracing's hot path (one per user op). In Python, `Node.__init__`
 * cost ~0.33 us and `user_site` ~0.18 us of the ~1.2 us an `a + b` took; here they cost a few
 * tens of ns. graph/node.py defines `Node` as a subclass of `NodeBase` (properties, repr) when this
 * module imports, and its pure-Python class otherwise (no compiler, or LAZYARRAY_PURE_PYTHON=1).
 *
 * Both paths share one state, bound from graph/node.py by `bind()`: the `_KEYS` dict that interns
 * structures into keys, the `_BUDGET` list [limit, cut hook], the `_SEGMENT_START` list, the
 * per-file library cache. The counters (node serial, next key) live here and node.py calls
 * `next_serial`/`intern`, so a node's key is the same whichever path built it.
 *
 * Everything runs under the GIL; the only calls out to Python in the constructor are the node
 * budget's cut hook and the watched context variable's hook (`watch`), after which nothing
 * borrowed is reused. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>
#include <structmember.h>
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "_node.h"

#define LA_FE_TESTED (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

/* --- state shared with graph/node.py (strong references, set once by bind()) ------------------ */
static PyObject *KEYS;            /* dict: structure tuple -> key (int) */
static PyObject *BUDGET;          /* list: [pending limit (int), cut hook or None] */
static PyObject *SEGMENT_START;   /* list: [serial at the last cut] */
static PyObject *IS_LIBRARY;      /* dict: file name -> bool (graph.node._IS_LIBRARY) */
static PyObject *IS_LIBRARY_FILE; /* graph.node._is_library_file: fills IS_LIBRARY on a miss */
static Py_ssize_t MAX_KEYS = 500000;
static long long SERIAL = 0;   /* numbers the nodes with inputs (graph.node._SERIAL) */
static long long NEXT_KEY = 0; /* the last key handed out */
static long long ORDER = 0;    /* nodes with inputs completed (graph.node.built_count) */
static PyTypeObject NodeBaseType;
static PyTypeObject *NODE_CLASS = &NodeBaseType; /* what build() allocates: graph.node.Node */

/* watch(var, hook): a context variable whose value, where it is not the one the last build saw,
 * calls `hook(inputs, op)` before a node with inputs is built (it returns the inputs to build
 * on). lazyarray watches NumPy's error state this way (lazyarray/fp_state.py): one
 * PyContextVar_Get and a pointer compare per node. */
static PyObject *WATCH_VAR, *WATCH_LAST, *WATCH_HOOK;

static int
watch_check(PyObject **inputs, PyObject *op)
{
    PyObject *value;
    if (PyContextVar_Get(WATCH_VAR, NULL, &value) < 0)
        return -1;
    if (value == WATCH_LAST) {
        Py_XDECREF(value);
        return 0;
    }
    Py_XSETREF(WATCH_LAST, value); /* (before the hook: the nodes it builds check nothing) */
    PyObject *hook = Py_NewRef(WATCH_HOOK);
    PyObject *out = PyObject_CallFunctionObjArgs(hook, *inputs, op, NULL);
    Py_DECREF(hook);
    if (out == NULL)
        return -1;
    if (!PyTuple_Check(out) || PyTuple_GET_SIZE(out) != PyTuple_GET_SIZE(*inputs)) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_TypeError, "the watch hook returns a tuple of as many inputs");
        return -1;
    }
    Py_SETREF(*inputs, out);
    return 0;
}

static int
bound(void)
{
    if (KEYS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "lazyarray.graph._node: bind() was not called");
        return 0;
    }
    return 1;
}

/* _BUDGET[i] or _SEGMENT_START[0] as a C integer. */
static int
list_int(PyObject *list, Py_ssize_t i, long long *out)
{
    *out = PyLong_AsLongLong(PyList_GET_ITEM(list, i));
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static void forget_keys(void);
static Py_ssize_t KEY_CACHE_SEEN;
static PyObject *KEYS_CLEARED; /* on_keys_cleared(fn): called when KEYS is cleared */
static PyObject *UNKEYED_ATTRS; /* set_unkeyed_leaf_attrs(attrs): a leaf's mark left out of keys */
static PyObject *EMPTY_ATTRS;   /* () */
static void remember_key(PyObject *structure, PyObject *key);
static PyObject *node_key(NodeObject *node); /* a view's key, made when first asked */

/* The key of `structure`: equal structures get equal keys, keys are never reused. */
static PyObject *
intern_structure(PyObject *structure)
{
    PyObject *key = PyDict_GetItemWithError(KEYS, structure); /* borrowed */
    if (key != NULL) {
        Py_INCREF(key);
        return key;
    }
    if (PyErr_Occurred())
        return NULL;
    if (PyDict_GET_SIZE(KEYS) >= MAX_KEYS) {
        PyDict_Clear(KEYS); /* later equal structures get new keys: a miss, never a false hit */
        forget_keys();      /* (structures remembered without the dict: the same) */
        KEY_CACHE_SEEN = 0;
        if (KEYS_CLEARED != NULL) { /* keys cached outside (_bind._SCALAR_KEYS) go too */
            PyObject *r = PyObject_CallNoArgs(KEYS_CLEARED);
            if (r == NULL)
                return NULL;
            Py_DECREF(r);
        }
    }
    key = PyLong_FromLongLong(++NEXT_KEY);
    if (key == NULL || PyDict_SetItem(KEYS, structure, key) < 0) {
        Py_XDECREF(key);
        return NULL;
    }
    if (PyTuple_CheckExact(structure)) /* (node_setup's and intern()'s alike) */
        remember_key(structure, key);
    return key;
}

/* Structure -> key without building the structure tuple: a direct-mapped table of the
 * structures interned lately, by the identity of their op, attrs, dtype and shape objects and the
 * values of their input keys. Building (op, attrs, dtype, shape, *keys), hashing it (nested
 * tuples, the dtype) and the dict probe cost ~0.1 us of every node; a loop's ops bind the same
 * objects again, so this probe answers most of them. Identity implies the equality the dict
 * tests (the dict compares by identity first). An entry is made when a structure is first
 * interned and holds that structure tuple, the dict's own key: so the objects compared by
 * identity stay alive (no address is reused while cached) without the table holding references
 * to them (tests count the references to dtypes and shapes), and a structure found in the dict
 * instead (a fresh but equal shape tuple) leaves the table alone. The table is emptied when KEYS
 * is cleared (intern_structure; a smaller KEYS than last seen: someone else cleared it); a key
 * it gave after such a clear would only be an older key for the structure, never another
 * structure's (keys are never reused). Inputs: NodeBase objects with int keys, at most 3. */
#define KEY_SLOTS 16384
#define KEY_MAX_INPUTS 3
static struct {
    PyObject *structure, *key; /* strong references */
    int n;
    long long in_key[KEY_MAX_INPUTS];
} KEY_CACHE[KEY_SLOTS];
static Py_ssize_t KEY_CACHE_SEEN = 0; /* PyDict_GET_SIZE(KEYS) when last stored */

static void
forget_keys(void)
{
    for (int i = 0; i < KEY_SLOTS; i++) {
        Py_CLEAR(KEY_CACHE[i].structure);
        Py_CLEAR(KEY_CACHE[i].key);
    }
}

/* Int keys as C integers (0: the table cannot hold this structure). `items`: input nodes
 * (`nodes`) or the structure's key objects. */
static int
c_keys(PyObject *const *items, Py_ssize_t n, int nodes, long long *out)
{
    if (n > KEY_MAX_INPUTS)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = items[i];
        if (nodes) {
            if (!PyObject_TypeCheck(k, &NodeBaseType))
                return 0;
            k = node_key((NodeObject *)k);
            if (k == NULL) {
                PyErr_Clear(); /* (structure_of asks again, and raises) */
                return 0;
            }
        }
        if (k == NULL || !PyLong_CheckExact(k))
            return 0;
        int overflow;
        out[i] = PyLong_AsLongLongAndOverflow(k, &overflow);
        if (overflow || (out[i] == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

static size_t
key_slot(PyObject *op, PyObject *attrs, PyObject *dtype, PyObject *shape, const long long *keys,
         Py_ssize_t n)
{
    size_t h = (size_t)op * 31u ^ (size_t)attrs * 17u ^ (size_t)dtype * 13u ^ (size_t)shape;
    for (Py_ssize_t i = 0; i < n; i++)
        h = h * 1000003u ^ (size_t)keys[i];
    h *= (size_t)0x9E3779B97F4A7C15ull;
    return (h ^ (h >> 29)) & (KEY_SLOTS - 1);
}

/* The cached key (new reference) or NULL (no exception) on a miss. */
static PyObject *
remembered_key(PyObject *op, PyObject *attrs, PyObject *dtype, PyObject *shape, PyObject *inputs)
{
    long long keys[KEY_MAX_INPUTS];
    Py_ssize_t n = PyTuple_GET_SIZE(inputs);
    if (PyDict_GET_SIZE(KEYS) < KEY_CACHE_SEEN) { /* cleared behind intern_structure's back */
        forget_keys();
        KEY_CACHE_SEEN = 0;
        return NULL;
    }
    if (!c_keys(PySequence_Fast_ITEMS(inputs), n, 1, keys))
        return NULL;
    size_t i = key_slot(op, attrs, dtype, shape, keys, n);
    PyObject *st = KEY_CACHE[i].structure;
    if (st == NULL || KEY_CACHE[i].n != n || PyTuple_GET_ITEM(st, 0) != op
        || PyTuple_GET_ITEM(st, 1) != attrs || PyTuple_GET_ITEM(st, 2) != dtype
        || PyTuple_GET_ITEM(st, 3) != shape)
        return NULL;
    for (Py_ssize_t j = 0; j < n; j++)
        if (KEY_CACHE[i].in_key[j] != keys[j])
            return NULL;
    return Py_NewRef(KEY_CACHE[i].key);
}

/* A structure just interned (the dict's key now) and its key. */
static void
remember_key(PyObject *structure, PyObject *key)
{
    long long keys[KEY_MAX_INPUTS];
    Py_ssize_t n = PyTuple_GET_SIZE(structure) - 4;
    if (n < 0 || !c_keys(PySequence_Fast_ITEMS(structure) + 4, n, 0, keys))
        return;
    size_t i = key_slot(PyTuple_GET_ITEM(structure, 0), PyTuple_GET_ITEM(structure, 1),
                        PyTuple_GET_ITEM(structure, 2), PyTuple_GET_ITEM(structure, 3), keys, n);
    PyObject *old_structure = KEY_CACHE[i].structure, *old_key = KEY_CACHE[i].key;
    KEY_CACHE[i].structure = Py_NewRef(structure);
    KEY_CACHE[i].key = Py_NewRef(key);
    KEY_CACHE[i].n = (int)n;
    memcpy(KEY_CACHE[i].in_key, keys, sizeof(long long) * (size_t)n);
    KEY_CACHE_SEEN = PyDict_GET_SIZE(KEYS);
    Py_XDECREF(old_structure); /* last: the slot is whole before anything is freed */
    Py_XDECREF(old_key);
}

/* An input's `pending` or `key` (a NodeObject's field, else the attribute). New reference. */
static PyObject *
input_field(PyObject *input, int want_key)
{
    PyObject *value;
    if (PyObject_TypeCheck(input, &NodeBaseType)) {
        NodeObject *n = (NodeObject *)input;
        value = want_key ? node_key(n) : n->pending;
        if (value == NULL && PyErr_Occurred())
            return NULL;
        if (value != NULL) {
            Py_INCREF(value);
            return value;
        }
    }
    return PyObject_GetAttrString(input, want_key ? "key" : "pending");
}

/* 1 + the inputs' pending counts. */
static int
sum_pending(PyObject *inputs, long long *out)
{
    long long total = 1;
    Py_ssize_t n = PyTuple_GET_SIZE(inputs);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = input_field(PyTuple_GET_ITEM(inputs, i), 0);
        if (p == NULL)
            return -1;
        long long v = PyLong_AsLongLong(p);
        Py_DECREF(p);
        if (v == -1 && PyErr_Occurred())
            return -1;
        total += v;
    }
    *out = total;
    return 0;
}

/* (op, attrs, dtype, shape, *input keys): what a key stands for. */
static PyObject *
structure_of(PyObject *op, PyObject *attrs, PyObject *dtype, PyObject *shape, PyObject *inputs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(inputs);
    PyObject *s = PyTuple_New(4 + n);
    if (s == NULL)
        return NULL;
    Py_INCREF(op), Py_INCREF(attrs), Py_INCREF(dtype), Py_INCREF(shape);
    PyTuple_SET_ITEM(s, 0, op);
    PyTuple_SET_ITEM(s, 1, attrs);
    PyTuple_SET_ITEM(s, 2, dtype);
    PyTuple_SET_ITEM(s, 3, shape);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = input_field(PyTuple_GET_ITEM(inputs, i), 1);
        if (k == NULL) {
            Py_DECREF(s);
            return NULL;
        }
        PyTuple_SET_ITEM(s, 4 + i, k);
    }
    return s;
}

/* The interned key of a node's structure (new ref, NULL on error): the table first (a loop's
 * structures come back), else the structure tuple interned. */
static PyObject *
key_of(PyObject *op, PyObject *attrs, PyObject *dtype, PyObject *shape, PyObject *inputs)
{
    PyObject *key = remembered_key(op, attrs, dtype, shape, inputs);
    if (key != NULL || PyErr_Occurred())
        return key;
    PyObject *structure = structure_of(op, attrs, dtype, shape, inputs);
    if (structure == NULL)
        return NULL;
    key = intern_structure(structure);
    Py_DECREF(structure);
    return key;
}

#define SET_FIELD(self, field, value) \
    do {                              \
        Py_INCREF(value);             \
        Py_XSETREF(self->field, value); \
    } while (0)

/* graph.node.Node.__init__, line for line: serial, pending capped by the segment, the cut hook
 * past the budget, then the interned key. */
static int
node_setup_as(NodeObject *self, PyObject *op, PyObject *inputs, PyObject *attrs, PyObject *shape,
              PyObject *dtype, PyObject *data, PyObject *site, int keyless)
{
    PyObject *key;
    long long pending = 0;
    if (!bound())
        return -1;
    SET_FIELD(self, op, op);
    SET_FIELD(self, attrs, attrs);
    SET_FIELD(self, shape, shape);
    SET_FIELD(self, dtype, dtype);
    SET_FIELD(self, data, data);
    SET_FIELD(self, site, site);
    inputs = PyTuple_Check(inputs) ? (Py_INCREF(inputs), inputs) : PySequence_Tuple(inputs);
    if (inputs == NULL)
        return -1;
    if (PyTuple_GET_SIZE(inputs) > 0) {
        if (WATCH_VAR != NULL && watch_check(&inputs, op) < 0)
            goto fail;
        long long serial = ++SERIAL, limit, start;
        if (sum_pending(inputs, &pending) < 0 || list_int(BUDGET, 0, &limit) < 0)
            goto fail;
        if (pending > limit) {
            if (list_int(SEGMENT_START, 0, &start) < 0)
                goto fail;
            if (serial - start < pending) /* shared sub-graphs summed per use: cap it */
                pending = serial - start;
            PyObject *hook = PyList_GET_ITEM(BUDGET, 1);
            if (pending > limit && hook != Py_None) {
                Py_INCREF(hook);
                PyObject *cut = PyObject_CallFunctionObjArgs(hook, inputs, op, NULL);
                Py_DECREF(hook);
                if (cut == NULL)
                    goto fail;
                Py_SETREF(inputs, cut);
                if (!PyTuple_Check(inputs)) {
                    Py_SETREF(inputs, PySequence_Tuple(inputs));
                    if (inputs == NULL)
                        return -1;
                }
                if (sum_pending(inputs, &pending) < 0)
                    goto fail;
                long long built = ++SERIAL;
                if (list_int(SEGMENT_START, 0, &start) < 0)
                    goto fail;
                if (built - start < pending)
                    pending = built - start;
            }
        }
    }
    PyObject *count = PyLong_FromLongLong(pending);
    if (count == NULL)
        goto fail;
    Py_XSETREF(self->pending, count);
    PyObject *key_attrs = attrs; /* a leaf's mark is no structure (set_unkeyed_leaf_attrs) */
    if (attrs == UNKEYED_ATTRS && PyTuple_GET_SIZE(inputs) == 0)
        key_attrs = EMPTY_ATTRS;
    if (keyless && PyTuple_GET_SIZE(inputs) > 0) { /* node_key makes it when first asked */
        Py_CLEAR(self->key);
        self->order = ++ORDER;
        Py_XSETREF(self->inputs, inputs);
        return 0;
    }
    key = key_of(op, key_attrs, dtype, shape, inputs);
    if (key == NULL)
        goto fail;
    Py_XSETREF(self->key, key);
    if (PyTuple_GET_SIZE(inputs) > 0)
        self->order = ++ORDER; /* after the hook: nodes a cut builds come first */
    Py_XSETREF(self->inputs, inputs); /* steals our reference */
    return 0;
fail:
    Py_DECREF(inputs);
    return -1;
}

static int
node_setup(NodeObject *self, PyObject *op, PyObject *inputs, PyObject *attrs, PyObject *shape,
           PyObject *dtype, PyObject *data, PyObject *site)
{
    return node_setup_as(self, op, inputs, attrs, shape, dtype, data, site, 0);
}

/* The key of a node built without one (node_build_keyless), made now: its structure interned
 * as node_setup would have, its inputs' keys first (an iterative walk: a chain of such views).
 * Borrowed; NULL with an exception set. */
static PyObject *
node_key(NodeObject *node)
{
    if (node->key != NULL)
        return node->key;
    NodeObject *stack[64];
    int depth = 0;
    stack[depth++] = node;
    while (depth > 0) {
        NodeObject *top = stack[depth - 1], *missing = NULL;
        Py_ssize_t n = top->inputs == NULL ? 0 : PyTuple_GET_SIZE(top->inputs);
        for (Py_ssize_t i = 0; i < n && missing == NULL; i++) {
            PyObject *in = PyTuple_GET_ITEM(top->inputs, i);
            if (PyObject_TypeCheck(in, &NodeBaseType) && ((NodeObject *)in)->key == NULL)
                missing = (NodeObject *)in;
        }
        if (missing != NULL) {
            if (depth == 64) {
                PyErr_SetString(PyExc_RuntimeError, "node_key: a chain of 64 unkeyed views");
                return NULL;
            }
            stack[depth++] = missing;
            continue;
        }
        if (top->op == NULL || top->inputs == NULL) {
            PyErr_SetString(PyExc_AttributeError, "key");
            return NULL;
        }
        PyObject *key = key_of(top->op, top->attrs, top->dtype, top->shape, top->inputs);
        if (key == NULL)
            return NULL;
        Py_XSETREF(top->key, key);
        depth--;
    }
    return node->key;
}

static PyObject *
node_get_key(NodeObject *self, void *closure)
{
    PyObject *key = node_key(self);
    return key == NULL ? NULL : Py_NewRef(key);
}

static int
node_set_key(NodeObject *self, PyObject *value, void *closure)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "a node's key cannot be deleted");
        return -1;
    }
    Py_XSETREF(self->key, Py_NewRef(value));
    return 0;
}

static PyObject *
node_build(PyObject *op, PyObject *inputs, PyObject *attrs, PyObject *shape, PyObject *dtype,
           PyObject *data, PyObject *site)
{
    PyObject *self = NODE_CLASS->tp_alloc(NODE_CLASS, 0);
    if (self == NULL)
        return NULL;
    if (node_setup((NodeObject *)self, op, inputs, attrs, shape, dtype, data, site) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

/* node_build for a view an index loop builds (lazyarray/_trace.c's basic indexing): no key
 * until asked (node_key). Most such views are read at once and never enter a graph; a new
 * length each step (`L[i, :i]`) interned a new structure per view (~0.4 us). */
static PyObject *
node_build_keyless(PyObject *op, PyObject *inputs, PyObject *attrs, PyObject *shape, PyObject *dtype,
           PyObject *data, PyObject *site)
{
    PyObject *self = NODE_CLASS->tp_alloc(NODE_CLASS, 0);
    if (self == NULL)
        return NULL;
    if (node_setup_as((NodeObject *)self, op, inputs, attrs, shape, dtype, data, site, 1) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

/* build(op, inputs, attrs, shape, dtype, data, site): Node(...) with exactly these seven
 * arguments, without the type call's keyword parsing (~0.1 us of every node bound from Python:
 * leaves, results, library-call nodes). */
static PyObject *
py_build(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "build(op, inputs, attrs, shape, dtype, data, site)");
        return NULL;
    }
    return node_build(args[0], args[1], args[2], args[3], args[4], args[5], args[6]);
}

static PyObject *
node_leaf_with_key(PyObject *op, PyObject *shape, PyObject *dtype, PyObject *data, PyObject *site,
                   PyObject *key)
{
    static PyObject *zero;
    NodeObject *self = (NodeObject *)NODE_CLASS->tp_alloc(NODE_CLASS, 0);
    if (self == NULL)
        return NULL;
    if (zero == NULL && (zero = PyLong_FromLong(0)) == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    PyObject *empty = PyTuple_New(0); /* the shared empty tuple */
    if (empty == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    self->inputs = empty;
    Py_INCREF(empty);
    self->attrs = empty;
    SET_FIELD(self, op, op);
    SET_FIELD(self, shape, shape);
    SET_FIELD(self, dtype, dtype);
    SET_FIELD(self, data, data);
    SET_FIELD(self, site, site);
    SET_FIELD(self, pending, zero);
    SET_FIELD(self, key, key);
    return (PyObject *)self;
}

/* --- the user's line -------------------------------------------------------------------------- */

/* What the walk learned per instruction: (code, instruction offset) -> the site tuple, or NULL
 * for a library frame. A loop body's ops come back to the same instructions, so after the first
 * pass a site costs one probe here instead of a dict lookup per frame, a scan of the code's line
 * table (linear in the function's length) and a new tuple. Entries hold their code object, so an
 * address is never reused while cached; `forget_sites()` empties it when the library-file rules
 * change (graph.node.register_library_dir / register_user_file). */
/* 4096: channel_flow's step has ~700 distinct op sites; at 256 most probes missed and each miss
 * scanned its function's line table (a quarter of the program's time in PyCode_Addr2Line). */
#define SITE_SLOTS 4096
static struct {
    PyObject *code;
    int lasti;
    PyObject *site;
} SITES[SITE_SLOTS];

static int
frame_lasti(PyFrameObject *frame)
{
#if PY_VERSION_HEX >= 0x030B0000
    return PyFrame_GetLasti(frame);
#else
    return frame->f_lasti;
#endif
}

/* A code object's sites are consecutive slots from a scrambled start: one function's instructions
 * (under SITE_SLOTS of them) never evict each other, as a scrambled (code, lasti) hash let some of
 * channel_flow's do (3.6% of its samples still in PyCode_Addr2Line; now 0.6%); only two functions
 * whose windows overlap can. */
static size_t
site_slot(PyCodeObject *code, int lasti)
{
    size_t start = ((size_t)(uintptr_t)code >> 4) * 2654435761u;
    return ((start ^ (start >> 16)) + ((unsigned)lasti >> 1)) & (SITE_SLOTS - 1);
}

static void
remember_site(size_t slot, PyCodeObject *code, int lasti, PyObject *site)
{
    PyObject *old_code = SITES[slot].code, *old_site = SITES[slot].site;
    Py_INCREF(code);
    Py_XINCREF(site);
    SITES[slot].code = (PyObject *)code;
    SITES[slot].lasti = lasti;
    SITES[slot].site = site;
    Py_XDECREF(old_code); /* last: a dealloc may run code */
    Py_XDECREF(old_site);
}

static void
forget_sites(void)
{
    for (int i = 0; i < SITE_SLOTS; i++) {
        Py_CLEAR(SITES[i].code);
        Py_CLEAR(SITES[i].site);
    }
}

/* Whether a file is library code: graph.node's per-file cache, filled by its function. */
static int
is_library_file(PyObject *filename)
{
    PyObject *lib = PyDict_GetItemWithError(IS_LIBRARY, filename); /* borrowed */
    if (lib != NULL)
        return lib == Py_True ? 1 : (lib == Py_False ? 0 : PyObject_IsTrue(lib));
    if (PyErr_Occurred())
        return -1;
    PyObject *r = PyObject_CallOneArg(IS_LIBRARY_FILE, filename);
    int is_lib = r == NULL ? -1 : PyObject_IsTrue(r);
    Py_XDECREF(r);
    return is_lib;
}

/* (file name, line) of the first frame from `frame` outward whose file is not a library file;
 * None if there is none. Steals the reference to `frame`. */
static PyObject *
site_from(PyFrameObject *frame)
{
    while (frame != NULL) {
        PyCodeObject *code = PyFrame_GetCode(frame);
        int lasti = frame_lasti(frame);
        size_t slot = site_slot(code, lasti);
        PyObject *site = NULL;
        if (SITES[slot].code == (PyObject *)code && SITES[slot].lasti == lasti) {
            site = SITES[slot].site;
            Py_XINCREF(site);
        }
        else {
            int is_lib = is_library_file(code->co_filename);
            if (is_lib < 0) {
                Py_DECREF(code);
                Py_DECREF(frame);
                return NULL;
            }
            if (!is_lib) {
                site = Py_BuildValue("(Oi)", code->co_filename, PyFrame_GetLineNumber(frame));
                if (site == NULL) {
                    Py_DECREF(code);
                    Py_DECREF(frame);
                    return NULL;
                }
            }
            remember_site(slot, code, lasti, site);
        }
        Py_DECREF(code);
        if (site != NULL) {
            Py_DECREF(frame);
            return site;
        }
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    Py_RETURN_NONE;
}

static PyObject *
c_user_site(void)
{
    if (!bound())
        return NULL;
    return site_from(PyThreadState_GetFrame(PyThreadState_Get()));
}

/* user_site(depth=1): as graph.node.user_site. depth 1 is the caller of user_site, which from C
 * is the innermost Python frame; each more skips one frame outward. */
static PyObject *
py_user_site(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    long depth = 1;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "user_site() takes at most one argument");
        return NULL;
    }
    if (nargs == 1 && (depth = PyLong_AsLong(args[0])) == -1 && PyErr_Occurred())
        return NULL;
    if (!bound())
        return NULL;
    PyFrameObject *frame = PyThreadState_GetFrame(PyThreadState_Get());
    for (long i = 1; i < depth && frame != NULL; i++) {
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    if (frame == NULL) { /* as sys._getframe: deeper than the stack */
        PyErr_SetString(PyExc_ValueError, "call stack is not deep enough");
        return NULL;
    }
    return site_from(frame);
}

/* user_point(depth, op) -> (code, instruction offset, op) of the first non-library frame from
 * `depth` outward (as py_user_site counts), or None: lazyarray.cuts' program point, which it asks
 * for on every node while a cut waits for its point (the Python walk cost ~0.4 us a call). Uses
 * the same per-instruction cache as user_site: a cached entry says whether that frame is user code. */
static PyObject *
py_user_point(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "user_point(depth, op)");
        return NULL;
    }
    long depth = PyLong_AsLong(args[0]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    if (!bound())
        return NULL;
    PyFrameObject *frame = PyThreadState_GetFrame(PyThreadState_Get());
    for (long i = 1; i < depth && frame != NULL; i++) {
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    while (frame != NULL) {
        PyCodeObject *code = PyFrame_GetCode(frame);
        int lasti = frame_lasti(frame);
        size_t slot = site_slot(code, lasti);
        int is_lib;
        if (SITES[slot].code == (PyObject *)code && SITES[slot].lasti == lasti)
            is_lib = SITES[slot].site == NULL;
        else
            is_lib = is_library_file(code->co_filename);
        if (is_lib < 0) {
            Py_DECREF(code);
            Py_DECREF(frame);
            return NULL;
        }
        if (!is_lib) {
            PyObject *point = Py_BuildValue("(OiO)", code, lasti, args[1]);
            Py_DECREF(code);
            Py_DECREF(frame);
            return point;
        }
        Py_DECREF(code);
        PyFrameObject *back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    Py_RETURN_NONE;
}

/* --- NodeBase: the type ----------------------------------------------------------------------- */

static int
node_init(NodeObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"op", "inputs", "attrs", "shape", "dtype", "data", "site", NULL};
    PyObject *op, *inputs, *attrs, *shape, *dtype, *data = Py_None, *site = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO|OO:Node", kwlist, &op, &inputs, &attrs,
                                     &shape, &dtype, &data, &site))
        return -1;
    return node_setup(self, op, inputs, attrs, shape, dtype, data, site);
}

/* The heap subclass's own traverse visits its type (the base is static). */
static int
node_traverse(NodeObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->op);
    Py_VISIT(self->inputs);
    Py_VISIT(self->attrs);
    Py_VISIT(self->shape);
    Py_VISIT(self->dtype);
    Py_VISIT(self->key);
    Py_VISIT(self->pending);
    Py_VISIT(self->data);
    Py_VISIT(self->site);
    return 0;
}

static int
node_clear(NodeObject *self)
{
    Py_CLEAR(self->op);
    Py_CLEAR(self->inputs);
    Py_CLEAR(self->attrs);
    Py_CLEAR(self->shape);
    Py_CLEAR(self->dtype);
    Py_CLEAR(self->key);
    Py_CLEAR(self->pending);
    Py_CLEAR(self->data);
    Py_CLEAR(self->site);
    return 0;
}

/* Long chains (`acc = acc + x` with the budget off) free node by node: the trashcan keeps the
 * C stack flat, as for the pure-Python class (the subclass's own dealloc brings its own). */
static void
node_dealloc(NodeObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_TRASHCAN_BEGIN(self, node_dealloc)
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    node_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
    Py_TRASHCAN_END
}

#define FIELD(name) {#name, T_OBJECT_EX, offsetof(NodeObject, name), 0, NULL}
static PyMemberDef node_members[] = {
    FIELD(op), FIELD(inputs), FIELD(attrs), FIELD(shape), FIELD(dtype),
    FIELD(pending), FIELD(data), FIELD(site),
    {"order", T_LONGLONG, offsetof(NodeObject, order), READONLY,
     "Build order among nodes with inputs (graph.node.built_count); 0 for a leaf."},
    {NULL},
};

static PyGetSetDef node_getset[] = {
    {"key", (getter)node_get_key, (setter)node_set_key,
     "The interned structure's key; a view built without one gets it when first asked.", NULL},
    {NULL},
};

static PyTypeObject NodeBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyarray.graph._node.NodeBase",
    .tp_doc = "graph.node.Node's fields and constructor, compiled (graph/_node.c).",
    .tp_basicsize = sizeof(NodeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)node_init,
    .tp_dealloc = (destructor)node_dealloc,
    .tp_traverse = (traverseproc)node_traverse,
    .tp_clear = (inquiry)node_clear,
    .tp_members = node_members,
    .tp_getset = node_getset,
    .tp_weaklistoffset = offsetof(NodeObject, weakrefs),
};

/* --- graph.signature.graph_signature, compiled ---------------------------------------------- */

/* The walk's stack: strong references (nothing the walk calls runs Python code, but a GC pass
 * inside an allocation could run a finalizer that rebinds some node's inputs). */
typedef struct {
    PyObject **items;
    Py_ssize_t n, cap;
} Stack;

static int
stack_push(Stack *st, PyObject *x)
{
    if (st->n == st->cap) {
        Py_ssize_t cap = st->cap ? 2 * st->cap : 64;
        PyObject **items = PyMem_Realloc(st->items, cap * sizeof(PyObject *));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        st->items = items, st->cap = cap;
    }
    Py_INCREF(x);
    st->items[st->n++] = x;
    return 0;
}

static void
stack_free(Stack *st)
{
    while (st->n)
        Py_DECREF(st->items[--st->n]);
    PyMem_Free(st->items);
}

/* The graph walks' shared steps (graph_signature, shared_intermediates): type checks that name
 * the walk, pushing nodes so that they pop first to last, numbering a newly seen node. */
static int
check_node(PyObject *x, const char *who, const char *what)
{
    if (PyObject_TypeCheck(x, &NodeBaseType))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s: %s must be Nodes", who, what);
    return -1;
}

static int
push_nodes(Stack *st, PyObject *const *items, Py_ssize_t n, const char *who, const char *what)
{
    for (Py_ssize_t i = n - 1; i >= 0; i--)
        if (check_node(items[i], who, what) < 0 || stack_push(st, items[i]) < 0)
            return -1;
    return 0;
}

/* The node's inputs tuple (borrowed), or NULL with TypeError. */
static PyObject *
inputs_of(PyObject *node, const char *who)
{
    PyObject *inputs = ((NodeObject *)node)->inputs;
    if (inputs != NULL && PyTuple_Check(inputs))
        return inputs;
    PyErr_Format(PyExc_TypeError, "%s: a node's inputs must be a tuple", who);
    return NULL;
}

static int
number_node(PyObject *seen, PyObject *node, long long number)
{
    PyObject *k = PyLong_FromLongLong(number);
    int err = k == NULL || PyDict_SetItem(seen, node, k) < 0;
    Py_XDECREF(k);
    return err ? -1 : 0;
}

static PyObject *SIG_LEAF_KIND, *SIG_INPUT_OP; /* OpKind.LEAF and the `input` OpDef */

static int
append_pair(PyObject *list, long long a, PyObject *b_obj, long long b)
{
    PyObject *x = PyLong_FromLongLong(a), *y = b_obj ? (Py_INCREF(b_obj), b_obj)
                                                     : PyLong_FromLongLong(b);
    int err = x == NULL || y == NULL || PyList_Append(list, x) < 0 || PyList_Append(list, y) < 0;
    Py_XDECREF(x);
    Py_XDECREF(y);
    return err ? -1 : 0;
}

/* Whether `op.kind is OpKind.LEAF`, remembered per op object: the walks ask it of every leaf
 * they visit, and the attribute read cost ~30 ns of the ~40 ns a leaf's visit takes. Ops are
 * the registry's frozen OpDefs; an entry holds its op (its address is not reused meanwhile). */
#define KIND_SLOTS 64
static struct {
    PyObject *op;
    int is_leaf;
} KIND_CACHE[KIND_SLOTS];

static int
op_is_leaf(PyObject *op)
{
    static PyObject *kind_name;
    size_t slot = (((size_t)op >> 4) * (size_t)0x9E3779B97F4A7C15ull >> 58) & (KIND_SLOTS - 1);
    if (KIND_CACHE[slot].op == op)
        return KIND_CACHE[slot].is_leaf;
    if (kind_name == NULL && (kind_name = PyUnicode_InternFromString("kind")) == NULL)
        return -1;
    PyObject *kind = PyObject_GetAttr(op, kind_name);
    if (kind == NULL)
        return -1;
    int is_leaf = kind == SIG_LEAF_KIND;
    Py_DECREF(kind);
    PyObject *old = KIND_CACHE[slot].op;
    KIND_CACHE[slot].op = Py_NewRef(op);
    KIND_CACHE[slot].is_leaf = is_leaf;
    Py_XDECREF(old);
    return is_leaf;
}

/* The input leaves' buffers a walk has met, each with the slot of its first leaf: up to
 * LEAF_BUFS in place (a linear search: the dict and an int per leaf cost ~0.1 us a walk), then
 * in a dict keyed by the buffer's address (id(data)). */
#define LEAF_BUFS 16
typedef struct {
    void *data[LEAF_BUFS];
    Py_ssize_t slot[LEAF_BUFS];
    int n;
    PyObject *more; /* dict, made when the first LEAF_BUFS are taken */
} LeafBuffers;

/* The slot of the first leaf holding `data` (*first), or -1 with `slot` remembered for it. */
static int
leaf_buffer(LeafBuffers *b, void *data, Py_ssize_t slot, Py_ssize_t *first)
{
    for (int i = 0; i < b->n; i++)
        if (b->data[i] == data) {
            *first = b->slot[i];
            return 0;
        }
    *first = -1;
    if (b->n < LEAF_BUFS) {
        b->data[b->n] = data, b->slot[b->n++] = slot;
        return 0;
    }
    if (b->more == NULL && (b->more = PyDict_New()) == NULL)
        return -1;
    PyObject *id = PyLong_FromVoidPtr(data);
    if (id == NULL)
        return -1;
    PyObject *found = PyDict_GetItemWithError(b->more, id); /* borrowed */
    int err = 0;
    if (found != NULL)
        *first = PyLong_AsSsize_t(found);
    else if (PyErr_Occurred())
        err = -1;
    else {
        PyObject *s = PyLong_FromSsize_t(slot);
        err = s == NULL || PyDict_SetItem(b->more, id, s) < 0 ? -1 : 0;
        Py_XDECREF(s);
    }
    Py_DECREF(id);
    return err;
}

/* One visit of a leaf: its slot, and the aliasing record if its buffer was seen already. */
static int
visit_leaf(NodeObject *node, long long count, PyObject *sig, PyObject *leaves, LeafBuffers *buffers)
{
    int is_leaf = op_is_leaf(node->op);
    if (is_leaf < 0)
        return -1;
    if (!is_leaf)
        return 0;
    if (node->op == SIG_INPUT_OP && node->data != NULL && node->data != Py_None) {
        Py_ssize_t first;
        if (leaf_buffer(buffers, node->data, PyList_GET_SIZE(leaves), &first) < 0
            || (first >= 0 && append_pair(sig, -count, NULL, first) < 0))
            return -1;
    }
    return PyList_Append(leaves, (PyObject *)node);
}

/* One signature walk's state. Nodes are numbered in visit order: `nodes[k]` holds a strong
 * reference to visit k's node, and an open-addressing table of pointers finds a node's number
 * (a dict from node to int cost ~30-50 ns a node more: the walk runs on every evaluation).
 * `edges[k]` counts the references the graph itself holds to node k (inputs-tuple slots, the
 * outputs), for evaluation_walk's refcount test. Small graphs live in `local_*`. */
#define WALK_LOCAL 32
typedef struct {
    PyObject *leaves, *sig;
    LeafBuffers buffers;
    PyObject **nodes;
    Py_ssize_t *edges, *table; /* table entries: visit number + 1, 0 for an empty slot */
    Py_ssize_t cap, mask;      /* nodes' capacity; the table has 2 * cap slots */
    long long count;
    PyObject *local_nodes[WALK_LOCAL];
    Py_ssize_t local_edges[WALK_LOCAL], local_table[2 * WALK_LOCAL];
} Walk;

static void
walk_init(Walk *w)
{
    memset(w->local_table, 0, sizeof(w->local_table));
    w->leaves = w->sig = NULL;
    w->buffers.n = 0, w->buffers.more = NULL;
    w->nodes = w->local_nodes, w->edges = w->local_edges, w->table = w->local_table;
    w->cap = WALK_LOCAL, w->mask = 2 * WALK_LOCAL - 1;
    w->count = 0;
}

static void
walk_free(Walk *w)
{
    Py_XDECREF(w->buffers.more);
    Py_XDECREF(w->leaves);
    Py_XDECREF(w->sig);
    for (long long k = 0; k < w->count; k++)
        Py_DECREF(w->nodes[k]);
    if (w->nodes != w->local_nodes) {
        PyMem_Free(w->nodes);
        PyMem_Free(w->edges);
        PyMem_Free(w->table);
    }
}

static inline size_t
walk_slot(Walk *w, PyObject *node)
{
    size_t h = ((size_t)node >> 4) * (size_t)0x9E3779B97F4A7C15ull;
    return (h ^ (h >> 29)) & (size_t)w->mask;
}

/* The visit number of `node`, or -1 if the walk has not seen it. */
static Py_ssize_t
walk_find(Walk *w, PyObject *node)
{
    for (size_t i = walk_slot(w, node);; i = (i + 1) & (size_t)w->mask) {
        Py_ssize_t entry = w->table[i];
        if (entry == 0)
            return -1;
        if (w->nodes[entry - 1] == node)
            return entry - 1;
    }
}

static int
walk_grow(Walk *w)
{
    Py_ssize_t cap = 2 * w->cap;
    PyObject **nodes = PyMem_Malloc(cap * sizeof(PyObject *));
    Py_ssize_t *edges = PyMem_Malloc(cap * sizeof(Py_ssize_t));
    Py_ssize_t *table = PyMem_Calloc(2 * cap, sizeof(Py_ssize_t));
    if (nodes == NULL || edges == NULL || table == NULL) {
        PyMem_Free(nodes), PyMem_Free(edges), PyMem_Free(table);
        return PyErr_NoMemory(), -1;
    }
    memcpy(nodes, w->nodes, w->count * sizeof(PyObject *));
    memcpy(edges, w->edges, w->count * sizeof(Py_ssize_t));
    if (w->nodes != w->local_nodes) {
        PyMem_Free(w->nodes), PyMem_Free(w->edges), PyMem_Free(w->table);
    }
    w->nodes = nodes, w->edges = edges, w->table = table;
    w->cap = cap, w->mask = 2 * cap - 1;
    for (long long k = 0; k < w->count; k++) {
        size_t i = walk_slot(w, nodes[k]);
        while (table[i])
            i = (i + 1) & (size_t)w->mask;
        table[i] = k + 1;
    }
    return 0;
}

/* Number a newly seen node (a strong reference) with its first edge. */
static int
walk_number(Walk *w, PyObject *node)
{
    if (w->count == w->cap && walk_grow(w) < 0)
        return -1;
    Py_ssize_t k = w->count++;
    Py_INCREF(node);
    w->nodes[k] = node, w->edges[k] = 1;
    size_t i = walk_slot(w, node);
    while (w->table[i])
        i = (i + 1) & (size_t)w->mask;
    w->table[i] = k + 1;
    return 0;
}

/* graph/signature.py's walk, line for line (depth-first, inputs left to right, back-references as
 * (visits so far, visit number), same-buffer leaves as (-visits so far, first leaf), then the
 * output keys) over `outputs` (checked Nodes). Fills w->sig and w->leaves. */
static int
walk_signature(Walk *w, PyObject *const *outputs, Py_ssize_t n_out, const char *who)
{
    Stack st = {NULL, 0, 0};
    PyObject *node = NULL;
    int err = -1;
    w->leaves = PyList_New(0), w->sig = PyList_New(0);
    if (w->leaves == NULL || w->sig == NULL)
        goto done;
    PyObject *n_obj = PyLong_FromSsize_t(n_out);
    if (n_obj == NULL || PyList_Append(w->sig, n_obj) < 0) {
        Py_XDECREF(n_obj);
        goto done;
    }
    Py_DECREF(n_obj);
    if (push_nodes(&st, outputs, n_out, who, "outputs") < 0)
        goto done;
    while (st.n) {
        node = st.items[--st.n]; /* owned */
        for (;;) {
            Py_ssize_t visit = walk_find(w, node);
            if (visit >= 0) {
                w->edges[visit]++;
                if (append_pair(w->sig, w->count, NULL, visit) < 0)
                    goto done;
                break;
            }
            if (walk_number(w, node) < 0)
                goto done;
            PyObject *inputs = inputs_of(node, who);
            if (inputs == NULL)
                goto done;
            Py_ssize_t n = PyTuple_GET_SIZE(inputs);
            if (n) { /* the later inputs wait on the stack; the walk goes on with the first */
                PyObject *const *items = PySequence_Fast_ITEMS(inputs);
                if (push_nodes(&st, items + 1, n - 1, who, "inputs") < 0
                    || check_node(items[0], who, "inputs") < 0)
                    goto done;
                PyObject *first = items[0];
                Py_INCREF(first);
                Py_SETREF(node, first);
                continue;
            }
            if (visit_leaf((NodeObject *)node, w->count, w->sig, w->leaves, &w->buffers) < 0)
                goto done;
            break;
        }
        Py_CLEAR(node);
    }
    for (Py_ssize_t i = 0; i < n_out; i++) {
        PyObject *key = node_key((NodeObject *)outputs[i]);
        if (key == NULL) {
            if (PyErr_Occurred())
                goto done;
            PyErr_Format(PyExc_AttributeError, "%s: an output has no key", who);
            goto done;
        }
        if (PyList_Append(w->sig, key) < 0)
            goto done;
    }
    err = 0;
done:
    Py_XDECREF(node);
    stack_free(&st);
    return err;
}

/* graph_signature(outputs) -> (signature tuple, leaves list). */
static PyObject *
py_graph_signature(PyObject *module, PyObject *outputs_arg)
{
    if (SIG_LEAF_KIND == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "graph_signature: bind_signature() was not called");
        return NULL;
    }
    PyObject *outputs = PySequence_Fast(outputs_arg, "graph_signature: a sequence of nodes");
    if (outputs == NULL)
        return NULL;
    Walk w;
    walk_init(&w);
    PyObject *result = NULL;
    if (walk_signature(&w, PySequence_Fast_ITEMS(outputs), PySequence_Fast_GET_SIZE(outputs),
                       "graph_signature") == 0) {
        PyObject *sig_tuple = PyList_AsTuple(w.sig);
        if (sig_tuple != NULL)
            result = PyTuple_Pack(2, sig_tuple, w.leaves);
        Py_XDECREF(sig_tuple);
    }
    walk_free(&w);
    Py_DECREF(outputs);
    return result;
}

static PyObject *bind_data(PyObject *leaves);

/* evaluation_walk(node) -> (signature, leaves, arrays, scalars), or None when some intermediate
 * of the graph (a node with inputs other than `node`) is referenced from outside the graph.
 *
 * One walk for what evaluating one Array needs: graph_signature([node]), the refcount test of
 * shared_intermediates([node]) and bind_leaves(leaves), which were three walks (~1 us of the
 * implicit path). The refcount test counts the references the graph's own inputs tuples hold,
 * as the signature walk arrives at each node once per edge; the walk holds one more per node. */
static PyObject *
py_evaluation_walk(PyObject *module, PyObject *node)
{
    if (SIG_LEAF_KIND == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "evaluation_walk: bind_signature() was not called");
        return NULL;
    }
    if (check_node(node, "evaluation_walk", "outputs") < 0)
        return NULL;
    Walk w;
    walk_init(&w);
    PyObject *result = NULL;
    if (walk_signature(&w, &node, 1, "evaluation_walk") < 0)
        goto done;
    for (Py_ssize_t k = 1; k < w.count; k++) { /* visit 0 is the output: evaluated anyway */
        PyObject *x = w.nodes[k];
        if (PyTuple_GET_SIZE(((NodeObject *)x)->inputs) && Py_REFCNT(x) > w.edges[k] + 1) {
            result = Py_NewRef(Py_None); /* held from outside: the general path looks */
            goto done;
        }
    }
    PyObject *bound = bind_data(w.leaves), *sig_tuple = PyList_AsTuple(w.sig);
    if (bound != NULL && sig_tuple != NULL)
        result = PyTuple_Pack(4, sig_tuple, w.leaves, PyTuple_GET_ITEM(bound, 0),
                              PyTuple_GET_ITEM(bound, 1));
    Py_XDECREF(bound);
    Py_XDECREF(sig_tuple);
done:
    walk_free(&w);
    return result;
}

/* shared_intermediates(outputs) -> bool: whether some node the graph of `outputs` computes on
 * the way (a node with inputs that is not an output) is referenced from outside the graph: by an
 * Array, a list, anything but the inputs tuples of this graph's nodes. False proves that no Array
 * holds an intermediate, so evaluation skips its frame scan for held intermediates
 * (lazyarray/evaluation.py: ~1.5 us per evaluation, most of it reading `f_locals`). The walk's
 * own references are counted out: the dict `seen` holds one per node, the stack none at the end. */
static PyObject *
py_shared_intermediates(PyObject *module, PyObject *outputs_arg)
{
    PyObject *outputs = PySequence_Fast(outputs_arg, "shared_intermediates: a sequence of nodes");
    if (outputs == NULL)
        return NULL;
    Py_ssize_t n_out = PySequence_Fast_GET_SIZE(outputs);
    PyObject *seen = PyDict_New(), *result = NULL, *node = NULL;
    Stack st = {NULL, 0, 0};
    PyObject **nodes = NULL; /* borrowed: `seen` holds them */
    Py_ssize_t *counts = NULL, n_nodes = 0, cap = 0;
    char *is_output = NULL;
    if (seen == NULL)
        goto done;
    if (push_nodes(&st, PySequence_Fast_ITEMS(outputs), n_out, "shared_intermediates",
                   "outputs") < 0)
        goto done;
    while (st.n) {
        node = st.items[--st.n]; /* owned */
        PyObject *index = PyDict_GetItemWithError(seen, node); /* borrowed */
        Py_ssize_t k;
        if (index != NULL)
            k = PyLong_AsSsize_t(index);
        else if (PyErr_Occurred())
            goto done;
        else {
            if (n_nodes == cap) {
                Py_ssize_t new_cap = cap ? 2 * cap : 64;
                PyObject **nn = PyMem_Realloc(nodes, new_cap * sizeof(PyObject *));
                if (nn == NULL) {
                    PyErr_NoMemory();
                    goto done;
                }
                nodes = nn;
                Py_ssize_t *nc = PyMem_Realloc(counts, new_cap * sizeof(Py_ssize_t));
                if (nc == NULL) {
                    PyErr_NoMemory();
                    goto done;
                }
                counts = nc, cap = new_cap;
            }
            k = n_nodes;
            if (number_node(seen, node, k) < 0)
                goto done;
            nodes[n_nodes] = node, counts[n_nodes] = 0, n_nodes++;
            PyObject *inputs = inputs_of(node, "shared_intermediates");
            if (inputs == NULL || push_nodes(&st, PySequence_Fast_ITEMS(inputs),
                                             PyTuple_GET_SIZE(inputs), "shared_intermediates",
                                             "inputs") < 0)
                goto done;
        }
        counts[k]++; /* one more inputs-tuple slot (or the outputs list) refers to it */
        Py_CLEAR(node);
    }
    is_output = PyMem_Calloc(n_nodes ? n_nodes : 1, 1);
    if (is_output == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_out; i++) {
        PyObject *index = PyDict_GetItemWithError(seen, PySequence_Fast_GET_ITEM(outputs, i));
        if (index == NULL)
            goto done; /* every output was visited: only an error gets here */
        is_output[PyLong_AsSsize_t(index)] = 1;
    }
    int shared = 0;
    for (Py_ssize_t k = 0; k < n_nodes && !shared; k++) {
        PyObject *x = nodes[k];
        if (is_output[k] || PyTuple_GET_SIZE(((NodeObject *)x)->inputs) == 0)
            continue; /* outputs are evaluated anyway; leaves are never "held" */
        shared = Py_REFCNT(x) > counts[k] + 1; /* + 1: the key in `seen` */
    }
    result = PyBool_FromLong(shared);
done:
    Py_XDECREF(node);
    stack_free(&st);
    PyMem_Free(nodes);
    PyMem_Free(counts);
    PyMem_Free(is_output);
    Py_XDECREF(seen);
    Py_DECREF(outputs);
    return result;
}

/* (arrays, scalars) of a list of checked leaves. */
static PyObject *
bind_data(PyObject *leaves)
{
    PyObject *arrays = PyList_New(0), *scalars = PyList_New(0), *result = NULL;
    if (arrays == NULL || scalars == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(leaves); i++) {
        NodeObject *node = (NodeObject *)PySequence_Fast_GET_ITEM(leaves, i);
        PyObject *data = node->data ? node->data : Py_None;
        if (PyList_Append(node->op == SIG_INPUT_OP ? arrays : scalars, data) < 0)
            goto done;
    }
    result = PyTuple_Pack(2, arrays, scalars);
done:
    Py_XDECREF(arrays);
    Py_XDECREF(scalars);
    return result;
}

/* bind_leaves(leaves) -> (arrays, scalars): each leaf's data, array leaves (the `input` op) and
 * scalar leaves apart, in leaf order: lazyarray.cache.bind_leaves, which every evaluation and every
 * cut runs over the leaves graph_signature found (a cut of a loop with weak-scalar operands has a
 * few hundred: ~0.1 us each in Python). */
static PyObject *
py_bind_leaves(PyObject *module, PyObject *leaves_arg)
{
    if (SIG_INPUT_OP == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "bind_leaves: bind_signature() was not called");
        return NULL;
    }
    PyObject *leaves = PySequence_Fast(leaves_arg, "bind_leaves: a sequence of nodes");
    if (leaves == NULL)
        return NULL;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(leaves); i++)
        if (check_node(PySequence_Fast_GET_ITEM(leaves, i), "bind_leaves", "leaves") < 0)
            goto done;
    result = bind_data(leaves);
done:
    Py_DECREF(leaves);
    return result;
}

static PyObject *
py_bind_signature(PyObject *module, PyObject *args)
{
    PyObject *leaf_kind, *input_op;
    if (!PyArg_ParseTuple(args, "OO:bind_signature", &leaf_kind, &input_op))
        return NULL;
    Py_INCREF(leaf_kind);
    Py_INCREF(input_op);
    Py_XSETREF(SIG_LEAF_KIND, leaf_kind);
    Py_XSETREF(SIG_INPUT_OP, input_op);
    for (int i = 0; i < KIND_SLOTS; i++) /* answers against another OpKind.LEAF */
        Py_CLEAR(KIND_CACHE[i].op);
    Py_RETURN_NONE;
}

/* --- a C plan's launch without its Python launcher -------------------------------------------- */

/* The commonest C plans on the hit path, kernels and NumPy matmuls over the plan's inputs, one
 * small output and the intermediates of this thread's workspace (no other library step, scalars
 * of float64/float32/int64/bool read in place), run straight from C: what runtime/c/launch.py's generated launcher does for
 * it, with nothing left to decide (~1 us of interpreter work on a 16-element call). The plan's
 * description comes from c_launch.direct_spec; anything it does not cover returns "declined"
 * before any effect, and the Python launcher runs as before.
 *
 * An ndarray's data pointer, shape, dtype and flags are read from NumPy's public object layout
 * (PyArrayObject_fields: unchanged since NumPy 1.7, the same in 2.x), checked at bind time
 * against a probe array whose facts Python supplies: a mismatch turns this path off. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions, *strides;
    PyObject *base, *descr;
    int flags;
} ArrayFields;
#define ARRAY_C_CONTIGUOUS 0x0001
static int ARRAY_LAYOUT_OK = 0;

#define D_MAX_ARRAYS 16
#define D_MAX_ND 8
#define D_MAX_SCALARS 32
#define D_MAX_KERNELS 8
#define D_MAX_SLOTS 24
#define D_MAX_INTER 8
#define D_MAX_OUT 4
typedef void (*KernelFn)(char **, int64_t *, char *, int64_t);
/* A step's buffer: an input's position (>= 0), output m (-1 - m), or intermediate j (-1 - n_out
 * - j: the array `ws.buffers[inter_slot[j]]` of this thread's workspace of the plan, as the
 * launcher's). One output (the hit path's case): the output -1, intermediate j -2 - j. */
typedef struct {
    int n_in, n_scalars, n_steps, n_inter, n_out;
    PyObject *keep;                 /* a tuple holding every object referenced below */
    PyObject *in_dtype[D_MAX_ARRAYS];
    int in_nd[D_MAX_ARRAYS];
    Py_ssize_t in_dims[D_MAX_ARRAYS][D_MAX_ND];
    PyObject *out_dtype[D_MAX_OUT], *out_shape[D_MAX_OUT]; /* np.empty(out_shape, out_dtype) */
    PyObject *empty, *matmul;
    Py_ssize_t inter_slot[D_MAX_INTER];
    char codes[D_MAX_SCALARS];      /* struct codes: 'd', 'f', 'q', '?' */
    struct {
        KernelFn fn;                /* NULL: np.matmul(buf[0], buf[1], out=buf[2]) */
        int64_t *block;
        int64_t nt;
        int n_slots, scalar_offset;
        int slot[D_MAX_SLOTS];
    } step[D_MAX_KERNELS];
    int release_gil;                /* large work or several threads: as cffi, without the GIL */
} DirectSpec;

static void
direct_spec_free(PyObject *capsule)
{
    DirectSpec *d = PyCapsule_GetPointer(capsule, "lazyarray.direct_spec");
    if (d != NULL) {
        Py_XDECREF(d->keep);
        PyMem_Free(d);
    }
}

/* direct_spec(inputs, outputs, codes, steps, intermediates, empty, matmul, release_gil, keep)
 * -> capsule or None:
 *   inputs  ((dtype, shape), ...) in `arrays` order;  outputs ((dtype, shape), ...) likewise
 *   codes   str of struct codes, one per scalar in order
 *   steps   ((fn address, block address, nt, buffers, scalar offset), ...) for kernels (buffers
 *           numbered as above, in pointer-entry order); (0, 0, -1, (a, b, out), 0) for
 *           a matmul
 *   intermediates  the workspace slots of the intermediates the steps name
 * None where the plan is outside the limits above (the Python launcher serves it). */
static PyObject *
py_direct_spec(PyObject *module, PyObject *args)
{
    PyObject *inputs, *output, *codes, *steps, *inter, *empty, *matmul, *keep;
    int release_gil;
    if (!PyArg_ParseTuple(args, "O!O!UO!O!OOpO:direct_spec", &PyTuple_Type, &inputs,
                          &PyTuple_Type, &output, &codes, &PyTuple_Type, &steps, &PyTuple_Type,
                          &inter, &empty, &matmul, &release_gil, &keep))
        return NULL;
    if (!ARRAY_LAYOUT_OK || PyTuple_GET_SIZE(inputs) > D_MAX_ARRAYS
        || PyUnicode_GET_LENGTH(codes) > D_MAX_SCALARS || PyTuple_GET_SIZE(steps) > D_MAX_KERNELS
        || PyTuple_GET_SIZE(steps) == 0 || PyTuple_GET_SIZE(output) == 0
        || PyTuple_GET_SIZE(output) > D_MAX_OUT || PyTuple_GET_SIZE(inter) > D_MAX_INTER)
        Py_RETURN_NONE;
    DirectSpec *d = PyMem_Calloc(1, sizeof(DirectSpec));
    if (d == NULL)
        return PyErr_NoMemory();
    d->n_in = (int)PyTuple_GET_SIZE(inputs);
    for (int i = 0; i < d->n_in; i++) {
        PyObject *item = PyTuple_GET_ITEM(inputs, i), *shape;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2
            || !PyTuple_Check(shape = PyTuple_GET_ITEM(item, 1))
            || PyTuple_GET_SIZE(shape) > D_MAX_ND)
            goto decline;
        d->in_dtype[i] = PyTuple_GET_ITEM(item, 0);
        d->in_nd[i] = (int)PyTuple_GET_SIZE(shape);
        for (int k = 0; k < d->in_nd[i]; k++) {
            d->in_dims[i][k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, k));
            if (d->in_dims[i][k] == -1 && PyErr_Occurred())
                goto fail;
        }
    }
    d->n_inter = (int)PyTuple_GET_SIZE(inter);
    for (int j = 0; j < d->n_inter; j++) {
        d->inter_slot[j] = PyLong_AsSsize_t(PyTuple_GET_ITEM(inter, j));
        if (d->inter_slot[j] == -1 && PyErr_Occurred())
            goto fail;
        if (d->inter_slot[j] < 0)
            goto decline;
    }
    d->n_out = (int)PyTuple_GET_SIZE(output);
    for (int m = 0; m < d->n_out; m++) {
        PyObject *item = PyTuple_GET_ITEM(output, m);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2
            || !PyTuple_Check(PyTuple_GET_ITEM(item, 1)))
            goto decline;
        d->out_dtype[m] = PyTuple_GET_ITEM(item, 0);
        d->out_shape[m] = PyTuple_GET_ITEM(item, 1);
    }
    d->empty = empty;
    d->matmul = matmul;
    d->n_scalars = (int)PyUnicode_GET_LENGTH(codes);
    for (int i = 0; i < d->n_scalars; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(codes, i);
        if (c != 'd' && c != 'f' && c != 'q' && c != '?')
            goto decline;
        d->codes[i] = (char)c;
    }
    d->n_steps = (int)PyTuple_GET_SIZE(steps);
    for (int n = 0; n < d->n_steps; n++) {
        PyObject *k = PyTuple_GET_ITEM(steps, n), *slots;
        if (!PyTuple_Check(k) || PyTuple_GET_SIZE(k) != 5
            || !PyTuple_Check(slots = PyTuple_GET_ITEM(k, 3))
            || PyTuple_GET_SIZE(slots) > D_MAX_SLOTS)
            goto decline;
        void *fn = PyLong_AsVoidPtr(PyTuple_GET_ITEM(k, 0));
        void *block = PyLong_AsVoidPtr(PyTuple_GET_ITEM(k, 1));
        long long nt = PyLong_AsLongLong(PyTuple_GET_ITEM(k, 2));
        long offset = PyLong_AsLong(PyTuple_GET_ITEM(k, 4));
        if (PyErr_Occurred())
            goto fail;
        int is_matmul = fn == NULL && nt == -1;
        if ((!is_matmul && (fn == NULL || block == NULL)) || offset < 0 || offset > d->n_scalars
            || (is_matmul && PyTuple_GET_SIZE(slots) != 3))
            goto decline;
        d->step[n].fn = (KernelFn)fn;
        d->step[n].block = block;
        d->step[n].nt = nt;
        d->step[n].scalar_offset = (int)offset;
        d->step[n].n_slots = (int)PyTuple_GET_SIZE(slots);
        for (int j = 0; j < d->step[n].n_slots; j++) {
            long at = PyLong_AsLong(PyTuple_GET_ITEM(slots, j));
            if (at == -1 && PyErr_Occurred())
                goto fail;
            if (at >= d->n_in || at < -(d->n_out + d->n_inter))
                goto decline;
            d->step[n].slot[j] = (int)at;
        }
    }
    d->release_gil = release_gil;
    d->keep = PyTuple_Pack(7, inputs, output, steps, inter, empty, matmul, keep);
    if (d->keep == NULL)
        goto fail;
    PyObject *capsule = PyCapsule_New(d, "lazyarray.direct_spec", direct_spec_free);
    if (capsule == NULL) {
        Py_DECREF(d->keep);
        PyMem_Free(d);
    }
    return capsule;
decline:
    PyMem_Free(d);
    Py_RETURN_NONE;
fail:
    PyMem_Free(d);
    return NULL;
}

/* One scalar into its 8-byte slot, as struct.pack_into's code would; 0 where struct would
 * refuse it (the Python launcher then takes NumPy's assignment) or the value is not the plain
 * Python type the path expects. */
static int
pack_scalar(char code, PyObject *v, uint64_t *slot)
{
    *slot = 0;
    if (code == '?') {
        if (!PyBool_Check(v))
            return 0;
        *(unsigned char *)slot = v == Py_True;
        return 1;
    }
    if (code == 'q') {
        if (!PyLong_CheckExact(v))
            return 0;
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        memcpy(slot, &x, sizeof x);
        return 1;
    }
    if (!PyFloat_CheckExact(v) && !PyLong_CheckExact(v))
        return 0;
    double x = PyFloat_AsDouble(v); /* an int too large for a double: OverflowError, refused */
    if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (code == 'd') {
        memcpy(slot, &x, sizeof x);
        return 1;
    }
    float y = (float)x; /* PyFloat_Pack4: a finite double that rounds to inf is refused */
    if (isinf(y) && !isinf(x))
        return 0;
    memcpy(slot, &y, sizeof y);
    return 1;
}

/* Whether `a` is an ndarray the Python launcher would take as it is (exact type, the planned
 * dtype object, shape, C-contiguous); its data pointer in *data. */
static int
take_input(DirectSpec *d, int i, PyObject *a, PyTypeObject *ndarray, char **data)
{
    if (Py_TYPE(a) != ndarray)
        return 0;
    ArrayFields *f = (ArrayFields *)a;
    if (f->descr != d->in_dtype[i] || f->nd != d->in_nd[i] || !(f->flags & ARRAY_C_CONTIGUOUS))
        return 0;
    for (int k = 0; k < f->nd; k++)
        if (f->dimensions[k] != d->in_dims[i][k])
            return 0;
    *data = f->data;
    return 1;
}

/* This thread's workspace buffers of `plan` (plan._local.ws.buffers, a new reference), or NULL
 * (no exception) where the launcher must make the workspace first. */
static PyObject *
workspace_buffers(PyObject *plan)
{
    static PyObject *s_local, *s_ws, *s_buffers;
    if (s_local == NULL && ((s_local = PyUnicode_InternFromString("_local")) == NULL
                            || (s_ws = PyUnicode_InternFromString("ws")) == NULL
                            || (s_buffers = PyUnicode_InternFromString("buffers")) == NULL)) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *local = PyObject_GetAttr(plan, s_local), *ws = NULL, *buffers = NULL;
    if (local != NULL)
        ws = PyObject_GetAttr(local, s_ws);
    if (ws != NULL && ws != Py_None)
        buffers = PyObject_GetAttr(ws, s_buffers);
    PyErr_Clear();
    Py_XDECREF(local);
    Py_XDECREF(ws);
    if (buffers != NULL && !PyList_CheckExact(buffers))
        Py_CLEAR(buffers);
    return buffers;
}

static int
run_matmul(DirectSpec *d, int n, PyObject *const *objs)
{
    static PyObject *kwnames;
    if (kwnames == NULL && (kwnames = Py_BuildValue("(s)", "out")) == NULL)
        return -1;
    PyObject *args[3] = {objs[0], objs[1], objs[2]};
    int kept = fetestexcept(LA_FE_TESTED); /* NumPy's ufunc clears the flags the kernels raised */
    PyObject *r = PyObject_Vectorcall(d->matmul, args, 2, kwnames);
    if (kept)
        feraiseexcept(kept);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

/* The spec'd outputs, np.empty(shape, dtype) each: 1, 0 (not what the plan writes into: the
 * Python launcher sees to it), -1 (the allocation failed). */
static int
direct_outputs(DirectSpec *d, PyTypeObject *ndarray, PyObject **outs)
{
    for (int m = 0; m < d->n_out; m++) {
        PyObject *args[2] = {d->out_shape[m], d->out_dtype[m]};
        PyObject *o = PyObject_Vectorcall(d->empty, args, 2, NULL);
        if (o == NULL || Py_TYPE(o) != ndarray || ((ArrayFields *)o)->descr != d->out_dtype[m]) {
            for (int k = 0; k < m; k++)
                Py_DECREF(outs[k]);
            if (o == NULL)
                return -1;
            Py_DECREF(o);
            return 0;
        }
        outs[m] = o;
    }
    return 1;
}

/* Run the spec'd plan: 1 with *out the output (new reference; a list of them for several), 0
 * declined (nothing done), -1 with an exception (an output's allocation or a matmul failed). */
static int
direct_launch(PyObject *capsule, PyObject *plan, PyObject *arrays, PyObject *scalars,
              PyTypeObject *ndarray, PyObject **out)
{
    DirectSpec *d = PyCapsule_GetPointer(capsule, "lazyarray.direct_spec");
    if (d == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (!PyList_CheckExact(arrays) || !PyList_CheckExact(scalars)
        || PyList_GET_SIZE(arrays) != d->n_in || PyList_GET_SIZE(scalars) != d->n_scalars)
        return 0;
    char *in_data[D_MAX_ARRAYS], *inter_data[D_MAX_INTER], *out_data[D_MAX_OUT];
    PyObject *inter_obj[D_MAX_INTER], *outs[D_MAX_OUT];
    for (int i = 0; i < d->n_in; i++)
        if (!take_input(d, i, PyList_GET_ITEM(arrays, i), ndarray, &in_data[i]))
            return 0;
    uint64_t sblock[D_MAX_SCALARS + 1];
    for (int i = 0; i < d->n_scalars; i++)
        if (!pack_scalar(d->codes[i], PyList_GET_ITEM(scalars, i), &sblock[i]))
            return 0;
    PyObject *buffers = NULL; /* holds the intermediates while the steps run */
    if (d->n_inter) {
        if ((buffers = workspace_buffers(plan)) == NULL)
            return 0;
        for (int j = 0; j < d->n_inter; j++) {
            PyObject *b = d->inter_slot[j] < PyList_GET_SIZE(buffers)
                          ? PyList_GET_ITEM(buffers, d->inter_slot[j]) : NULL;
            if (b == NULL || Py_TYPE(b) != ndarray) {
                Py_DECREF(buffers);
                return 0;
            }
            inter_obj[j] = b, inter_data[j] = ((ArrayFields *)b)->data;
        }
    }
    int made = direct_outputs(d, ndarray, outs);
    if (made <= 0) {
        Py_XDECREF(buffers);
        return made;
    }
    for (int m = 0; m < d->n_out; m++)
        out_data[m] = ((ArrayFields *)outs[m])->data;
    /* The inputs stay alive: `arrays` holds them, and the caller holds `arrays`. */
    for (int n = 0; n < d->n_steps; n++) {
        char *ptrs[D_MAX_SLOTS + 1];
        PyObject *objs[3];
        for (int j = 0; j < d->step[n].n_slots; j++) {
            int at = d->step[n].slot[j];
            if (at >= 0)
                ptrs[j] = in_data[at], objs[j % 3] = PyList_GET_ITEM(arrays, at);
            else if (at >= -d->n_out)
                ptrs[j] = out_data[-1 - at], objs[j % 3] = outs[-1 - at];
            else {
                int k = -1 - d->n_out - at; /* intermediate k */
                ptrs[j] = inter_data[k], objs[j % 3] = inter_obj[k];
            }
        }
        if (d->step[n].fn == NULL) {
            if (run_matmul(d, n, objs) < 0) {
                Py_XDECREF(buffers);
                for (int m = 0; m < d->n_out; m++)
                    Py_DECREF(outs[m]);
                return -1;
            }
            continue;
        }
        char *sptr = (char *)(sblock + d->step[n].scalar_offset);
        if (d->release_gil) {
            Py_BEGIN_ALLOW_THREADS
            d->step[n].fn(ptrs, d->step[n].block, sptr, d->step[n].nt);
            Py_END_ALLOW_THREADS
        } else
            d->step[n].fn(ptrs, d->step[n].block, sptr, d->step[n].nt);
    }
    Py_XDECREF(buffers);
    if (d->n_out == 1) {
        *out = outs[0];
        return 1;
    }
    PyObject *list = PyList_New(d->n_out);
    if (list == NULL) {
        for (int m = 0; m < d->n_out; m++)
            Py_DECREF(outs[m]);
        return -1;
    }
    for (int m = 0; m < d->n_out; m++)
        PyList_SET_ITEM(list, m, outs[m]);
    *out = list;
    return 1;
}

/* check_array_layout(probe, data address, strided view) -> bool: whether ArrayFields reads
 * NumPy's arrays right (probe: a C-contiguous float32 (3, 5) array; view: probe[:, ::2]).
 * Turns the direct launch on when it does. */
static PyObject *
py_check_array_layout(PyObject *module, PyObject *args)
{
    PyObject *probe, *addr, *view, *dtype;
    if (!PyArg_ParseTuple(args, "OOOO:check_array_layout", &probe, &addr, &view, &dtype))
        return NULL;
    void *want = PyLong_AsVoidPtr(addr);
    if (want == NULL && PyErr_Occurred())
        return NULL;
    ArrayFields *f = (ArrayFields *)probe, *g = (ArrayFields *)view;
    ARRAY_LAYOUT_OK = Py_TYPE(probe) == Py_TYPE(view) && f->data == want && f->nd == 2
                      && f->dimensions[0] == 3 && f->dimensions[1] == 5 && f->strides[1] == 4
                      && f->descr == dtype && (f->flags & ARRAY_C_CONTIGUOUS)
                      && g->nd == 2 && g->dimensions[1] == 3 && g->data == want
                      && !(g->flags & ARRAY_C_CONTIGUOUS) && g->base == probe;
    return PyBool_FromLong(ARRAY_LAYOUT_OK);
}

/* --- the evaluation hit path ------------------------------------------------------------------ */

/* to_host(array): lazyarray.evaluation.to_host for the commonest evaluation there is, one pending
 * Array whose graph has the structure of the last one evaluated (a loop, `np.asarray(f(x))`,
 * `float(loss)`), in one C call: the walk, the checks that the Python path's memo of its last
 * plan (cache._last_hit) would answer with the same plan, the hit counted, the C plan's generated
 * launcher called, the result leaf built. The Python path costs ~10 frames more (to_host,
 * _evaluate_walked, evaluate, options, apply_if_changed, get_settings, run_cached, plan_for,
 * count_hit, GenericPlan.run, CPlan.run).
 *
 * The record (cache.remember_hit builds it after the Python path hit that memo) names every
 * object the Python path would consult, and the hit path checks each is still the one it names:
 *   0 cache._last_hit         (key (options token, signature), plan, plan_cache.generation)
 *                             (cache.plan_cache is read each time: tests may replace it)
 *   1 evaluation._OPTIONS[0]  (settings, backend, optimize) the options were resolved for
 *   2 evaluation._OPTIONS[1]  the options (their token is the key's first half)
 *   3, 4  the size-generic plan and its `_last` (sizes, concrete plan), or None, None
 *   5     the TieredPlan whose `_compiled` is the C plan, or None
 *   6, 7  the C plan and its launcher
 *   8     plan_cache.fast_hits, the one-cell list this path counts its hits in
 *   9     whether the launcher runs an op's Python reference (a library call): the thread is
 *         marked busy around it then, as run_cached does (a reference must not start a cut)
 *   10    the plan's direct_spec capsule (below: run from C, no launcher), or None
 * Anything else (no record, a check failing, a held intermediate, la.jit tracing, a patched
 * `evaluation.evaluate`) goes to the bound Python fallback, which evaluates the general way;
 * an error inside the launcher goes to the bound failure handler, which raises what the general
 * path raises (the user's line for data errors; cuts.forget). */
enum { R_LAST, R_SEEN, R_OPTIONS, R_GENERIC, R_GENERIC_LAST, R_TIERED, R_CPLAN, R_LAUNCH,
       R_HITS, R_BUSY, R_DIRECT, R_SIZE };
static struct {
    PyObject *holder;        /* cache._HIT: [record or None] */
    PyObject *cache_dict;    /* lazyarray.cache's globals (_last_hit) */
    PyObject *eval_dict;     /* lazyarray.evaluation's globals (evaluate) */
    PyObject *evaluate;      /* the original evaluation.evaluate: tests wrap it to count runs */
    PyObject *options;       /* evaluation._OPTIONS */
    PyObject *scope;         /* settings._scope, the ContextVar of active `with` blocks */
    PyObject *settings_dict; /* lazyarray.settings' globals (_default: rebound on changes) */
    PyObject *applied;       /* settings._applied: [settings the listeners last saw] */
    PyObject *state;         /* cache._state (threading.local: stand_ins) */
    PyObject *ndarray;       /* numpy.ndarray */
    PyObject *fallback;      /* evaluation._host_fallback(array, walked) */
    PyObject *failed;        /* evaluation._hit_failed(node, exception): raises */
} HIT;
static PyObject *S_node, *S_plan_cache, *S_last_hit, *S_generation, *S_evaluate, *S_default, *S_backend,
    *S_optimize, *S_stand_ins, *S_last, *S_compiled, *S_busy, *S_write_back, *EMPTY_TUPLE;

/* The settings in effect (borrowed), as settings.get_settings finds them, or NULL where that
 * needs Python (a `with` block made under another default). No exception is left set. */
static PyObject *
current_settings(void)
{
    PyObject *scope, *s = NULL;
    if (PyContextVar_Get(HIT.scope, NULL, &scope) < 0) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *deflt = PyDict_GetItemWithError(HIT.settings_dict, S_default); /* borrowed */
    if (deflt == NULL)
        PyErr_Clear();
    else if (scope == NULL || scope == Py_None)
        s = deflt;
    else if (PyTuple_CheckExact(scope) && PyTuple_GET_SIZE(scope) == 3
             && PyTuple_GET_ITEM(scope, 2) == deflt)
        s = PyTuple_GET_ITEM(scope, 1); /* the context holds the tuple: stays alive below */
    Py_XDECREF(scope);
    return s;
}

/* Whether attribute `name` of `obj` equals `want` (1), not (0); errors count as not. */
static int
attr_equals(PyObject *obj, PyObject *name, PyObject *want, int identity)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) {
        PyErr_Clear();
        return 0;
    }
    int same = identity ? v == want : PyObject_RichCompareBool(v, want, Py_EQ);
    Py_DECREF(v);
    if (same < 0) {
        PyErr_Clear();
        return 0;
    }
    return same;
}

/* Whether the Python path would now run `record`'s C plan for a graph of its signature: the
 * same memo, generation, settings, options, size-generic and tiered plan states. */
static int
record_valid(PyObject *rec)
{
    if (!PyTuple_CheckExact(rec) || PyTuple_GET_SIZE(rec) != R_SIZE)
        return 0;
    PyObject *last = PyDict_GetItemWithError(HIT.cache_dict, S_last_hit);
    if (last == NULL || last != PyTuple_GET_ITEM(rec, R_LAST) || !PyTuple_CheckExact(last)
        || PyTuple_GET_SIZE(last) != 3) {
        PyErr_Clear();
        return 0;
    }
    PyObject *plans = PyDict_GetItemWithError(HIT.cache_dict, S_plan_cache); /* borrowed */
    if (plans == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (!attr_equals(plans, S_generation, PyTuple_GET_ITEM(last, 2), 0))
        return 0;
    PyObject *s = current_settings(), *seen = PyTuple_GET_ITEM(rec, R_SEEN);
    if (s == NULL || !PyList_CheckExact(HIT.applied) || PyList_GET_SIZE(HIT.applied) < 1
        || PyList_GET_ITEM(HIT.applied, 0) != s)
        return 0; /* another thread's or task's settings: the listeners must see them first */
    if (!PyList_CheckExact(HIT.options) || PyList_GET_SIZE(HIT.options) != 2
        || PyList_GET_ITEM(HIT.options, 0) != seen
        || PyList_GET_ITEM(HIT.options, 1) != PyTuple_GET_ITEM(rec, R_OPTIONS)
        || !PyTuple_CheckExact(seen) || PyTuple_GET_SIZE(seen) != 3
        || PyTuple_GET_ITEM(seen, 0) != s
        || !attr_equals(s, S_backend, PyTuple_GET_ITEM(seen, 1), 0)
        || !attr_equals(s, S_optimize, PyTuple_GET_ITEM(seen, 2), 0))
        return 0;
    PyObject *evaluate = PyDict_GetItemWithError(HIT.eval_dict, S_evaluate);
    if (evaluate != HIT.evaluate) {
        PyErr_Clear();
        return 0;
    }
    PyObject *stand_ins = PyObject_GetAttr(HIT.state, S_stand_ins);
    if (stand_ins == NULL) {
        PyErr_Clear();
        return 0;
    }
    int tracing = stand_ins != Py_None && PyObject_IsTrue(stand_ins);
    Py_DECREF(stand_ins);
    if (tracing) { /* la.jit is tracing (or IsTrue failed): _check_not_traced must look */
        PyErr_Clear();
        return 0;
    }
    PyObject *generic = PyTuple_GET_ITEM(rec, R_GENERIC), *tiered = PyTuple_GET_ITEM(rec, R_TIERED);
    if (generic != Py_None && !attr_equals(generic, S_last, PyTuple_GET_ITEM(rec, R_GENERIC_LAST), 1))
        return 0;
    if (tiered != Py_None && !attr_equals(tiered, S_compiled, PyTuple_GET_ITEM(rec, R_CPLAN), 1))
        return 0;
    return PyList_CheckExact(PyTuple_GET_ITEM(rec, R_HITS))
           && PyList_GET_SIZE(PyTuple_GET_ITEM(rec, R_HITS)) == 1;
}

/* Whether the walk's signature list equals the memo key's signature tuple. */
static int
same_signature(PyObject *sig_list, PyObject *last)
{
    PyObject *key = PyTuple_GET_ITEM(last, 0);
    if (!PyTuple_CheckExact(key) || PyTuple_GET_SIZE(key) != 2)
        return 0;
    PyObject *sig = PyTuple_GET_ITEM(key, 1);
    Py_ssize_t n = PyList_GET_SIZE(sig_list);
    if (!PyTuple_CheckExact(sig) || PyTuple_GET_SIZE(sig) != n)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(sig_list, i), *y = PyTuple_GET_ITEM(sig, i);
        if (x == y)
            continue;
        int eq = PyObject_RichCompareBool(x, y, Py_EQ);
        if (eq <= 0) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* Add one to the one-cell list `cell` (a C step under the GIL: no increment is lost). */
static int
count_in(PyObject *cell)
{
    PyObject *old = PyList_GET_ITEM(cell, 0);
    PyObject *one = PyLong_FromLong(1);
    PyObject *new = one == NULL ? NULL : PyNumber_Add(old, one);
    Py_XDECREF(one);
    if (new == NULL)
        return -1;
    PyList_SET_ITEM(cell, 0, new);
    Py_DECREF(old);
    return 0;
}

/* The run failed: raise what the general path raises for this failure (NULL). */
static PyObject *
hit_failed(PyObject *node)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL && value != NULL)
        PyException_SetTraceback(value, tb);
    PyObject *r = value == NULL ? NULL
                  : PyObject_CallFunctionObjArgs(HIT.failed, node, value, NULL);
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
    Py_XDECREF(r);
    if (r != NULL) /* the handler always raises */
        PyErr_SetString(PyExc_SystemError, "lazyarray: _hit_failed returned");
    return NULL;
}

/* --- floating-point status (lazyarray/fp_errors.py) ---------------------------------------------
 * An evaluation reads the floating-point exceptions its kernels raised once: cleared before the
 * plan runs, tested after, in the calling thread (the generated kernels OR their OpenMP threads'
 * flags into it at the end of each parallel region). NumPy's ufuncs clear the hardware flags
 * around each call, so a step run by NumPy reports through NumPy's `call` mode into FP_NOTED
 * (fp_note) instead. Bits as NumPy's: 1 divide, 2 over, 4 under, 8 invalid. */
static _Thread_local int FP_NOTED;
static PyObject *FP_FIRED; /* fp_errors.fired(node, bits): reports, or raises; None: unbound */

static inline void
fp_clear(void)
{
    FP_NOTED = 0;
    if (fetestexcept(LA_FE_TESTED))
        feclearexcept(LA_FE_TESTED);
}

static inline int
fp_test(void)
{
    int f = fetestexcept(LA_FE_TESTED), bits = FP_NOTED;
    if (f) {
        bits |= (f & FE_DIVBYZERO ? 1 : 0) | (f & FE_OVERFLOW ? 2 : 0) | (f & FE_UNDERFLOW ? 4 : 0)
                | (f & FE_INVALID ? 8 : 0);
    }
    return bits;
}

static PyObject *
py_fp_clear(PyObject *module, PyObject *unused)
{
    fp_clear();
    Py_RETURN_NONE;
}

static PyObject *
py_fp_test(PyObject *module, PyObject *unused)
{
    return PyLong_FromLong(fp_test());
}

static PyObject *
py_fp_note(PyObject *module, PyObject *bits)
{
    long b = PyLong_AsLong(bits);
    if (b == -1 && PyErr_Occurred())
        return NULL;
    FP_NOTED |= (int)(b & 15);
    Py_RETURN_NONE;
}

/* fp_call(fn, a, b, c, hook, context): fn(a, b, c) between fp_clear and fp_test; a flag raised
 * calls hook(bits, context, b, c) before the result is returned (la.jit's call: one C call where
 * fp_clear() and fp_test() from Python cost ~0.2 us). */
static PyObject *
py_fp_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "fp_call(fn, a, b, c, hook, context)");
        return NULL;
    }
    fp_clear();
    PyObject *r = PyObject_Vectorcall(args[0], args + 1, 3, NULL);
    if (r == NULL)
        return NULL;
    int bits = fp_test();
    if (bits) {
        PyObject *b = PyLong_FromLong(bits);
        PyObject *h = b == NULL ? NULL
                      : PyObject_CallFunctionObjArgs(args[4], b, args[5], args[2], args[3], NULL);
        Py_XDECREF(b);
        if (h == NULL) {
            Py_DECREF(r);
            return NULL;
        }
        Py_DECREF(h);
    }
    return r;
}

static PyObject *
py_bind_fp(PyObject *module, PyObject *fired)
{
    Py_INCREF(fired);
    Py_XSETREF(FP_FIRED, fired);
    Py_RETURN_NONE;
}

/* After a hit-path run: report what fired (the Python side decides by the settings); -1 if that
 * raised (FloatingPointError under 'raise', or the user's callback's error). */
static int
fp_report(PyObject *node)
{
    int bits = fp_test();
    if (bits == 0 || FP_FIRED == NULL || FP_FIRED == Py_None)
        return 0;
    PyObject *b = PyLong_FromLong(bits);
    if (b == NULL)
        return -1;
    PyObject *r = PyObject_CallFunctionObjArgs(FP_FIRED, node, b, NULL);
    Py_DECREF(b);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

static PyObject *result_leaf(PyObject *array, PyObject *node, PyObject *buffer);

/* The record's Python launcher on the bound leaves, the thread marked busy around it where it
 * runs an op's Python reference (as `run_cached` marks it). 0 with *outs its result (NULL with
 * its exception: the run failed), or -1 where the mark itself failed (nothing ran). */
static int
run_launcher(PyObject *rec, PyObject *bound, PyObject **outs)
{
    PyObject *args[3] = {PyTuple_GET_ITEM(rec, R_CPLAN), PyTuple_GET_ITEM(bound, 0),
                         PyTuple_GET_ITEM(bound, 1)};
    PyObject *launch = PyTuple_GET_ITEM(rec, R_LAUNCH), *was_busy = NULL;
    int mark = PyTuple_GET_ITEM(rec, R_BUSY) == Py_True;
    if (mark) {
        was_busy = PyObject_GetAttr(HIT.state, S_busy);
        if (was_busy == NULL || PyObject_SetAttr(HIT.state, S_busy, Py_True) < 0) {
            Py_XDECREF(was_busy);
            return -1;
        }
    }
    Py_INCREF(launch), Py_INCREF(args[0]); /* the record may be replaced while Python runs */
    *outs = PyObject_Vectorcall(launch, args, 3, NULL);
    Py_DECREF(launch), Py_DECREF(args[0]);
    if (mark) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb); /* a failed run's exception survives the restore */
        int err = PyObject_SetAttr(HIT.state, S_busy, was_busy);
        Py_DECREF(was_busy);
        if (err < 0) {
            Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
            Py_CLEAR(*outs);
            return -1;
        }
        PyErr_Restore(type, value, tb);
    }
    return 0;
}

/* Run the record's launcher on the walked leaves; the result leaf replaces the Array's node.
 * Returns the buffer (new reference), or NULL with the general path's exception. */
static PyObject *
launch_hit(PyObject *array, PyObject *node, PyObject *rec, PyObject *bound)
{
    if (count_in(PyTuple_GET_ITEM(rec, R_HITS)) < 0)
        return NULL;
    PyObject *buffer = NULL, *direct = PyTuple_GET_ITEM(rec, R_DIRECT);
    fp_clear();
    if (direct != Py_None) {
        int r = direct_launch(direct, PyTuple_GET_ITEM(rec, R_CPLAN), PyTuple_GET_ITEM(bound, 0),
                              PyTuple_GET_ITEM(bound, 1),
                              (PyTypeObject *)HIT.ndarray, &buffer);
        if (r > 0) {
            if (fp_report(node) < 0) {
                Py_DECREF(buffer);
                return hit_failed(node);
            }
            return result_leaf(array, node, buffer);
        }
        if (r < 0)
            return hit_failed(node);
    }
    PyObject *outs = NULL;
    if (run_launcher(rec, bound, &outs) < 0)
        return NULL;
    if (outs != NULL) {
        if (PyList_CheckExact(outs) && PyList_GET_SIZE(outs) == 1)
            buffer = Py_NewRef(PyList_GET_ITEM(outs, 0));
        else
            PyErr_SetString(PyExc_SystemError, "lazyarray: a one-output plan returned another count");
        Py_DECREF(outs);
    }
    if (buffer != NULL && fp_report(node) < 0)
        Py_CLEAR(buffer);
    if (buffer == NULL)
        return hit_failed(node);
    return result_leaf(array, node, buffer);
}

/* A result leaf's attrs (borrowed), or NULL with an exception: a 0-d result of an op that is not
 * a view op stands for NumPy's scalar and keeps the at-once mark (lazyarray/evaluation.py
 * _result_mark: a later `s / 0` reports 'scalar divide', as NumPy's np.float64). */
static PyObject *
result_attrs(NodeObject *n)
{
    if (PyTuple_GET_SIZE(n->shape) != 0 || UNKEYED_ATTRS == NULL)
        return EMPTY_TUPLE;
    PyObject *wb = PyObject_GetAttr(n->op, S_write_back);
    if (wb == NULL)
        return NULL;
    Py_DECREF(wb);
    return wb == Py_None ? UNKEYED_ATTRS : EMPTY_TUPLE;
}

/* The result leaf replaces the Array's node (steals `buffer`; returns it, or NULL). */
static PyObject *
result_leaf(PyObject *array, PyObject *node, PyObject *buffer)
{
    NodeObject *n = (NodeObject *)node;
    PyObject *attrs = result_attrs(n);
    if (attrs == NULL) {
        Py_DECREF(buffer);
        return NULL;
    }
    PyObject *leaf = node_build(SIG_INPUT_OP, EMPTY_TUPLE, attrs, n->shape, n->dtype, buffer,
                                n->site);
    if (leaf == NULL || PyObject_SetAttr(array, S_node, leaf) < 0) {
        Py_XDECREF(leaf);
        Py_DECREF(buffer);
        return NULL;
    }
    Py_DECREF(leaf);
    return buffer;
}

static int held_hit(PyObject *array, PyObject *node, PyObject *rec, Walk *w, PyObject **out);

/* 1: evaluated on the hit path (*out = buffer); 0: not taken (*walked = what the fallback may
 * reuse: the walk as evaluation_walk returns it, Py_False for a held intermediate, or NULL);
 * -1: an error the general path would raise too. */
static int
try_hit(PyObject *array, PyObject *node, PyObject **out, PyObject **walked)
{
    PyObject *rec = PyList_GET_ITEM(HIT.holder, 0);
    *walked = NULL;
    if (!record_valid(rec))
        return 0;
    Py_INCREF(rec);
    Walk w;
    walk_init(&w);
    int result = 0;
    PyObject *bound = NULL;
    if (walk_signature(&w, &node, 1, "to_host") < 0) {
        PyErr_Clear(); /* the general path meets (and reports) the same problem */
        goto done;
    }
    /* The output itself read by another pending graph (`c, h = cell(x)`: h reads c): the
     * general path evaluates those siblings too (evaluation._siblings). References it has
     * here: the Array's, `node` (to_host's), the walk's. */
    if (Py_REFCNT(node) > 3) {
        *walked = Py_NewRef(Py_False);
        goto done;
    }
    for (Py_ssize_t k = 1; k < w.count; k++) {
        PyObject *x = w.nodes[k];
        if (PyTuple_GET_SIZE(((NodeObject *)x)->inputs) && Py_REFCNT(x) > w.edges[k] + 1) {
            result = held_hit(array, node, rec, &w, out); /* held from outside: a local? */
            if (result == 0)
                *walked = Py_NewRef(Py_False); /* the general path looks */
            goto done;
        }
    }
    bound = bind_data(w.leaves);
    if (bound == NULL) {
        PyErr_Clear();
        goto done;
    }
    if (!same_signature(w.sig, PyTuple_GET_ITEM(rec, R_LAST))) {
        PyObject *sig_tuple = PyList_AsTuple(w.sig);
        if (sig_tuple != NULL)
            *walked = PyTuple_Pack(4, sig_tuple, w.leaves, PyTuple_GET_ITEM(bound, 0),
                                   PyTuple_GET_ITEM(bound, 1));
        Py_XDECREF(sig_tuple);
        PyErr_Clear();
        goto done;
    }
    walk_free(&w); /* the graph's nodes are the Array's alone again before the launch */
    walk_init(&w);
    *out = launch_hit(array, node, rec, bound);
    result = *out == NULL ? -1 : 1;
done:
    walk_free(&w);
    Py_XDECREF(bound);
    Py_DECREF(rec);
    return result;
}

static PyObject *
py_to_host(PyObject *module, PyObject *array)
{
    if (HIT.holder == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "to_host: bind_hit() was not called");
        return NULL;
    }
    PyObject *node = PyObject_GetAttr(array, S_node);
    if (node == NULL)
        return NULL;
    PyObject *walked = NULL, *out = NULL;
    if (PyObject_TypeCheck(node, &NodeBaseType)) {
        NodeObject *n = (NodeObject *)node;
        if (n->op == SIG_INPUT_OP && n->data != NULL && Py_IS_TYPE(n->data, (PyTypeObject *)HIT.ndarray)) {
            out = Py_NewRef(n->data); /* evaluated already */
            Py_DECREF(node);
            return out;
        }
        if (n->inputs != NULL && PyTuple_Check(n->inputs) && PyTuple_GET_SIZE(n->inputs)
            && PyList_CheckExact(HIT.holder) && PyList_GET_SIZE(HIT.holder) == 1) {
            int r = try_hit(array, node, &out, &walked);
            if (r != 0) {
                Py_DECREF(node);
                if (r < 0)
                    return NULL;
                if (Py_IS_TYPE(out, (PyTypeObject *)HIT.ndarray))
                    return out;
                Py_DECREF(out); /* not a host array: the Python path converts it */
                return PyObject_CallFunctionObjArgs(HIT.fallback, array, Py_None, NULL);
            }
        }
    }
    Py_DECREF(node);
    out = PyObject_CallFunctionObjArgs(HIT.fallback, array, walked ? walked : Py_None, NULL);
    Py_XDECREF(walked);
    return out;
}

static PyObject *
py_bind_hit(PyObject *module, PyObject *args)
{
    PyObject *objs[12];
    if (!PyArg_ParseTuple(args, "O!O!O!OO!OO!O!OOOO:bind_hit", &PyList_Type, &objs[0],
                          &PyDict_Type, &objs[1], &PyDict_Type, &objs[2], &objs[3],
                          &PyList_Type, &objs[4], &objs[5], &PyDict_Type, &objs[6], &PyList_Type,
                          &objs[7], &objs[8], &objs[9], &objs[10], &objs[11]))
        return NULL;
    if (!PyContextVar_CheckExact(objs[5]) || !PyType_Check(objs[9])) {
        PyErr_SetString(PyExc_TypeError, "bind_hit: settings._scope is a ContextVar, ndarray a type");
        return NULL;
    }
    if (S_node == NULL) {
        const char *names[] = {"_node", "plan_cache", "_last_hit", "generation", "evaluate", "_default",
                               "backend", "optimize", "stand_ins", "_last", "_compiled", "busy",
                               "write_back"};
        PyObject **slots[] = {&S_node, &S_plan_cache, &S_last_hit, &S_generation, &S_evaluate, &S_default,
                              &S_backend, &S_optimize, &S_stand_ins, &S_last, &S_compiled, &S_busy,
                              &S_write_back};
        for (int i = 0; i < 13; i++)
            if ((*slots[i] = PyUnicode_InternFromString(names[i])) == NULL)
                return NULL;
        if ((EMPTY_TUPLE = PyTuple_New(0)) == NULL)
            return NULL;
    }
    PyObject **fields[] = {&HIT.holder, &HIT.cache_dict, &HIT.eval_dict, &HIT.evaluate,
                           &HIT.options, &HIT.scope, &HIT.settings_dict, &HIT.applied,
                           &HIT.state, &HIT.ndarray, &HIT.fallback, &HIT.failed};
    for (int i = 0; i < 12; i++) {
        Py_INCREF(objs[i]);
        Py_XSETREF(*fields[i], objs[i]);
    }
    Py_RETURN_NONE;
}

/* --- module functions ------------------------------------------------------------------------- */

static PyObject *
py_watch(PyObject *module, PyObject *args)
{
    PyObject *var, *hook;
    if (!PyArg_ParseTuple(args, "OO:watch", &var, &hook))
        return NULL;
    if (var == Py_None) {
        Py_CLEAR(WATCH_VAR);
        Py_CLEAR(WATCH_HOOK);
        Py_CLEAR(WATCH_LAST);
        Py_RETURN_NONE;
    }
    if (!PyContextVar_CheckExact(var) || !PyCallable_Check(hook)) {
        PyErr_SetString(PyExc_TypeError, "watch(var, hook): a ContextVar and a callable");
        return NULL;
    }
    PyObject *value;
    if (PyContextVar_Get(var, NULL, &value) < 0)
        return NULL;
    Py_XSETREF(WATCH_LAST, value);
    Py_XSETREF(WATCH_HOOK, Py_NewRef(hook));
    Py_XSETREF(WATCH_VAR, Py_NewRef(var));
    Py_RETURN_NONE;
}

static PyObject *
py_watch_seen(PyObject *module, PyObject *value)
{
    Py_XSETREF(WATCH_LAST, Py_NewRef(value));
    Py_RETURN_NONE;
}

static PyObject *
py_bind(PyObject *module, PyObject *args)
{
    PyObject *keys, *budget, *segment_start, *is_library, *is_library_file;
    Py_ssize_t max_keys;
    if (!PyArg_ParseTuple(args, "O!O!O!O!On:bind", &PyDict_Type, &keys, &PyList_Type, &budget,
                          &PyList_Type, &segment_start, &PyDict_Type, &is_library,
                          &is_library_file, &max_keys))
        return NULL;
    if (PyList_GET_SIZE(budget) != 2 || PyList_GET_SIZE(segment_start) != 1) {
        PyErr_SetString(PyExc_ValueError, "bind: budget has 2 items, segment_start 1");
        return NULL;
    }
    Py_INCREF(keys), Py_INCREF(budget), Py_INCREF(segment_start), Py_INCREF(is_library);
    Py_INCREF(is_library_file);
    Py_XSETREF(KEYS, keys);
    forget_keys(); /* keys of another table */
    KEY_CACHE_SEEN = 0;
    Py_XSETREF(BUDGET, budget);
    Py_XSETREF(SEGMENT_START, segment_start);
    Py_XSETREF(IS_LIBRARY, is_library);
    Py_XSETREF(IS_LIBRARY_FILE, is_library_file);
    MAX_KEYS = max_keys;
    Py_RETURN_NONE;
}

/* graph.node.Node's dealloc: NodeBase's, plus the reference every heap type's instance holds on
 * its type. CPython's generic subclass dealloc (subtype_dealloc) looks for finalizers, slots, a
 * __dict__ and weak references the subclass might add, and re-tracks the object for the GC only
 * for the base to untrack it again: ~30% of freeing a node, and every evaluation frees its
 * graph. Installed only for a subclass that adds none of those (set_node_class checks). */
static void
node_subclass_dealloc(NodeObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_TRASHCAN_BEGIN(self, node_subclass_dealloc) /* long chains free iteratively */
    if (self->weakrefs != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    node_clear(self);
    type->tp_free((PyObject *)self);
    Py_DECREF(type);
    Py_TRASHCAN_END
}

/* Whether `cls` adds nothing to NodeBase that its dealloc must see to: no instance dict, slots,
 * finalizer or weak-reference list of its own, and CPython's generic dealloc (a heap type). */
static int
plain_node_subclass(PyTypeObject *cls)
{
    return cls != &NodeBaseType && (cls->tp_flags & Py_TPFLAGS_HEAPTYPE)
           && cls->tp_base == &NodeBaseType && cls->tp_basicsize == NodeBaseType.tp_basicsize
           && cls->tp_itemsize == 0 && cls->tp_dictoffset == 0
           && cls->tp_weaklistoffset == NodeBaseType.tp_weaklistoffset
           && cls->tp_finalize == NULL && cls->tp_del == NULL
           && cls->tp_free == NodeBaseType.tp_free;
}

static PyObject *
py_set_node_class(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &NodeBaseType)) {
        PyErr_SetString(PyExc_TypeError, "set_node_class: a subclass of NodeBase");
        return NULL;
    }
    Py_INCREF(cls);
    if (NODE_CLASS != &NodeBaseType)
        Py_DECREF(NODE_CLASS);
    NODE_CLASS = (PyTypeObject *)cls;
    if (plain_node_subclass(NODE_CLASS))
        NODE_CLASS->tp_dealloc = (destructor)node_subclass_dealloc;
    Py_RETURN_NONE;
}

static PyObject *
py_next_serial(PyObject *module, PyObject *unused)
{
    return PyLong_FromLongLong(++SERIAL);
}

static PyObject *
py_built_count(PyObject *module, PyObject *unused)
{
    return PyLong_FromLongLong(ORDER);
}

static PyObject *
py_intern(PyObject *module, PyObject *structure)
{
    if (!bound())
        return NULL;
    return intern_structure(structure);
}

static PyObject *
py_forget_sites(PyObject *module, PyObject *unused)
{
    forget_sites();
    Py_RETURN_NONE;
}

/* set_unkeyed_leaf_attrs(attrs): a leaf whose attrs are this very object keys as one with ()
 * (graph.node.set_unkeyed_leaf_attrs). */
static PyObject *
py_set_unkeyed_leaf_attrs(PyObject *module, PyObject *attrs)
{
    if (EMPTY_ATTRS == NULL && (EMPTY_ATTRS = PyTuple_New(0)) == NULL)
        return NULL;
    Py_XSETREF(UNKEYED_ATTRS, Py_NewRef(attrs));
    Py_RETURN_NONE;
}

static PyObject *
py_on_keys_cleared(PyObject *module, PyObject *fn)
{
    Py_XSETREF(KEYS_CLEARED, Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* --- the per-cut walks: lazyarray/tails.py's operations_reading, lazyarray/donation.py's
 * outside_references, compiled ------------------------------------------------------------------
 *
 * A loop cut by the node budget walks each cut's graph several times in Python (the crossing
 * test, the pending count, buffer donation's reference counts): ~0.1-0.3 ms a walk on a cut of a
 * few hundred nodes, most of a stencil loop's time. Both walks keep the Walk table's strong
 * references (a visit number per node), so a node freed meanwhile cannot alias another. */

/* Whether the leaf `node` is one the last cut made: `cut_leaves[id(node)]() is node`. */
static int
is_cut_leaf(PyObject *node, PyObject *cut_leaves)
{
    PyObject *id = PyLong_FromVoidPtr(node);
    if (id == NULL)
        return -1;
    PyObject *ref = PyDict_GetItemWithError(cut_leaves, id); /* borrowed */
    Py_DECREF(id);
    if (ref == NULL)
        return PyErr_Occurred() ? -1 : 0;
    Py_INCREF(ref); /* calling it may run code that drops the dict's entry */
    PyObject *target = PyObject_CallNoArgs(ref);
    Py_DECREF(ref);
    if (target == NULL)
        return -1;
    int found = target == node;
    Py_DECREF(target);
    return found;
}

/* operations_reading(nodes, cut_leaves) -> (nodes list, reads_cut): tails.operations_reading's
 * walk, in its visit order (a stack, inputs pushed left to right; leaves not listed). */
static PyObject *
py_operations_reading(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char *who = "operations_reading";
    if (nargs != 2 || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "operations_reading(nodes, cut_leaves: dict)");
        return NULL;
    }
    PyObject *nodes = PySequence_Fast(args[0], "operations_reading: a sequence of nodes");
    if (nodes == NULL)
        return NULL;
    PyObject *cut_leaves = args[1], *node = NULL, *result = NULL, *list = NULL;
    Stack st = {NULL, 0, 0};
    Walk w;
    walk_init(&w);
    int reads_cut = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(nodes);
    PyObject *const *items = PySequence_Fast_ITEMS(nodes);
    for (Py_ssize_t i = 0; i < n; i++)
        if (check_node(items[i], who, "nodes") < 0 || stack_push(&st, items[i]) < 0)
            goto done;
    while (st.n) {
        node = st.items[--st.n]; /* owned */
        if (walk_find(&w, node) < 0) {
            if (walk_number(&w, node) < 0)
                goto done;
            PyObject *inputs = inputs_of(node, who);
            if (inputs == NULL)
                goto done;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inputs); i++) {
                PyObject *x = PyTuple_GET_ITEM(inputs, i);
                if (check_node(x, who, "inputs") < 0)
                    goto done;
                PyObject *x_inputs = inputs_of(x, who);
                if (x_inputs == NULL)
                    goto done;
                if (PyTuple_GET_SIZE(x_inputs)) {
                    if (stack_push(&st, x) < 0)
                        goto done;
                }
                else if (!reads_cut && (reads_cut = is_cut_leaf(x, cut_leaves)) < 0)
                    goto done;
            }
        }
        Py_CLEAR(node);
    }
    list = PyList_New(w.count);
    if (list == NULL)
        goto done;
    for (long long k = 0; k < w.count; k++)
        PyList_SET_ITEM(list, k, Py_NewRef(w.nodes[k]));
    result = Py_BuildValue("(OO)", list, reads_cut ? Py_True : Py_False);
done:
    Py_XDECREF(node);
    Py_XDECREF(list);
    stack_free(&st);
    walk_free(&w);
    Py_DECREF(nodes);
    return result;
}

/* outside_references(outputs, nodes) -> list of ints, or None: None when a node the graph of
 * `outputs` computes on the way (with inputs, not an output) is referenced from outside the
 * graph (shared_intermediates); else, per node of `nodes`, its references other than the slots
 * of the graph's inputs tuples (each graph node counted once): donation.dead_inputs' test of a
 * dead leaf, from one walk instead of shared_intermediates' and a Python one. */
static PyObject *
py_outside_references(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char *who = "outside_references";
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "outside_references(outputs, nodes)");
        return NULL;
    }
    PyObject *outputs = PySequence_Fast(args[0], "outside_references: a sequence of nodes");
    if (outputs == NULL)
        return NULL;
    PyObject *nodes = PySequence_Fast(args[1], "outside_references: a sequence of nodes");
    if (nodes == NULL) {
        Py_DECREF(outputs);
        return NULL;
    }
    PyObject *node = NULL, *result = NULL;
    Stack st = {NULL, 0, 0};
    Walk w;
    walk_init(&w);
    char *is_output = NULL;
    Py_ssize_t n_out = PySequence_Fast_GET_SIZE(outputs);
    if (push_nodes(&st, PySequence_Fast_ITEMS(outputs), n_out, who, "outputs") < 0)
        goto done;
    while (st.n) { /* edges[k]: arrivals at node k (inputs-tuple slots, outputs listings) */
        node = st.items[--st.n]; /* owned */
        Py_ssize_t k = walk_find(&w, node);
        if (k >= 0)
            w.edges[k]++;
        else {
            if (walk_number(&w, node) < 0)
                goto done;
            PyObject *inputs = inputs_of(node, who);
            if (inputs == NULL || push_nodes(&st, PySequence_Fast_ITEMS(inputs),
                                             PyTuple_GET_SIZE(inputs), who, "inputs") < 0)
                goto done;
        }
        Py_CLEAR(node);
    }
    is_output = PyMem_Calloc(w.count ? w.count : 1, 1);
    if (is_output == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_out; i++) { /* a listing is no inputs-tuple slot */
        Py_ssize_t k = walk_find(&w, PySequence_Fast_GET_ITEM(outputs, i));
        is_output[k] = 1, w.edges[k]--;
    }
    for (long long k = 0; k < w.count; k++) { /* + 1: the walk's own reference */
        PyObject *x = w.nodes[k];
        if (!is_output[k] && PyTuple_GET_SIZE(((NodeObject *)x)->inputs)
            && Py_REFCNT(x) > w.edges[k] + 1) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(nodes);
    PyObject *list = PyList_New(n);
    if (list == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(nodes, i);
        Py_ssize_t k = walk_find(&w, x);
        PyObject *refs = PyLong_FromSsize_t(Py_REFCNT(x) - (k >= 0 ? w.edges[k] + 1 : 0));
        if (refs == NULL) {
            Py_DECREF(list);
            goto done;
        }
        PyList_SET_ITEM(list, i, refs);
    }
    result = list;
done:
    Py_XDECREF(node);
    stack_free(&st);
    walk_free(&w);
    PyMem_Free(is_output);
    Py_DECREF(nodes);
    Py_DECREF(outputs);
    return result;
}

/* --- held intermediates: the user's locals read in place; their evaluation on the hit path ----
 *
 * An evaluation forced inside a loop (`float(sum(w * w))` after `w = w * 0.99 + a * 0.01`) also
 * evaluates the pending Arrays the caller's three innermost user frames hold whose nodes its graph
 * computes anyway (lazyarray/evaluation.py `_held_in_frames`: the next iteration starts from
 * leaves). Python reads them from `frame.f_locals`, which before 3.13 builds a snapshot dict of
 * every local (~1.5-3 us). `frame_arrays` reads the same values where the frame keeps them (3.11's
 * fast-locals array; a module frame's dict), in f_locals' order, and `held_hit` uses it to run the
 * multi-output plan of the last such evaluation without Python frames. Other Python versions, and
 * frames it does not read (a class body with fast locals, a locals mapping other than a dict),
 * answer None: the Python scan runs. */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define Py_BUILD_CORE
#include "internal/pycore_code.h"
#include "internal/pycore_frame.h"
#undef Py_BUILD_CORE
#define HELD_LOCALS 1
#endif

static struct {
    PyTypeObject *array; /* lazyarray.array.Array: only its exact instances count, as in Python */
    PyObject *own;       /* donation.own(buffer): results a later plan may write over */
    PyObject *failed;    /* evaluation._held_failed(array, outputs, exception) -> ndarray */
    Py_ssize_t min_bytes; /* donation.MIN_BYTES: smaller results are never owned */
    int frames;          /* evaluation._USER_FRAMES: how many user frames are read */
    PyObject *views;     /* evaluation._VIEW_OPS: a frozenset of the view ops */
} HELD;

/* Whether `node` is a chain of views down to a leaf (evaluation._is_view_of_leaf): computed as a
 * held Array it would become a C-ordered copy, losing NumPy's memory order of the view, for no
 * saved work. 1, 0, or -1. */
static int
view_of_leaf(NodeObject *node)
{
    for (int depth = 0; depth < 64; depth++) {
        PyObject *inputs = node->inputs;
        if (!PyTuple_Check(inputs) || PyTuple_GET_SIZE(inputs) == 0)
            return depth > 0;
        if (HELD.views == NULL)
            return 0;
        int r = PySet_Contains(HELD.views, node->op);
        if (r <= 0)
            return r;
        for (Py_ssize_t i = 1; i < PyTuple_GET_SIZE(inputs); i++) { /* a slice's starts */
            PyObject *arg = PyTuple_GET_ITEM(inputs, i);
            if (!PyObject_TypeCheck(arg, &NodeBaseType)
                    || !PyTuple_Check(((NodeObject *)arg)->inputs)
                    || PyTuple_GET_SIZE(((NodeObject *)arg)->inputs) != 0)
                return 0;
        }
        PyObject *next = PyTuple_GET_ITEM(inputs, 0);
        if (!PyObject_TypeCheck(next, &NodeBaseType))
            return 0;
        node = (NodeObject *)next;
    }
    return 0;
}

/* Append `v` to `out` if it is an Array on a pending node (a node with inputs): 0, or -1. */
static int
held_candidate(PyObject *v, PyObject *out)
{
    if (v == NULL || Py_TYPE(v) != HELD.array)
        return 0;
    PyObject *node = PyObject_GetAttr(v, S_node);
    if (node == NULL)
        return -1;
    int pending = PyObject_TypeCheck(node, &NodeBaseType)
                  && PyTuple_GET_SIZE(((NodeObject *)node)->inputs) > 0;
    if (pending) {
        int view = view_of_leaf((NodeObject *)node);
        if (view < 0) {
            Py_DECREF(node);
            return -1;
        }
        pending = !view;
    }
    Py_DECREF(node);
    return pending ? PyList_Append(out, v) : 0;
}

/* held_candidate for a local's value and, where it is a short tuple, for its items: a function's
 * results returned as a tuple and read one by one (`out = f(x); np.asarray(out[0]); ...`, the
 * corpus harness's `to_numpy`) are siblings as locals are (evaluation.HELD_TUPLE_MAX). Named
 * tuples too: `res = np.linalg.svd(a); res.U; res.S` ran the SVD once per part read. */
#define HELD_TUPLE_MAX 32
static int
held_candidates(PyObject *v, PyObject *out)
{
    if (v == NULL || !PyTuple_Check(v))
        return held_candidate(v, out);
    Py_ssize_t n = PyTuple_GET_SIZE(v);
    if (n > HELD_TUPLE_MAX)
        return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (held_candidate(PyTuple_GET_ITEM(v, i), out) < 0)
            return -1;
    return 0;
}

#ifdef HELD_LOCALS
/* One frame's values as f_locals lists them: 1, 0 (not read here: the Python scan decides), -1. */
static int
frame_values_into(_PyInterpreterFrame *frame, PyObject *out)
{
    PyCodeObject *co = frame->f_code;
    if (!(co->co_flags & CO_OPTIMIZED)) { /* a module's code: f_locals is its dict */
        PyObject *locals = frame->f_locals, *key, *value;
        if (co->co_nlocalsplus != 0 || locals == NULL || !PyDict_CheckExact(locals))
            return 0;
        Py_ssize_t pos = 0;
        while (PyDict_Next(locals, &pos, &key, &value)) /* (a slot read runs no code) */
            if (held_candidates(value, out) < 0)
                return -1;
        return 1;
    }
    PyObject **fast = _PyFrame_GetLocalsArray(frame);
    for (int i = 0; i < co->co_nlocalsplus; i++) {
        PyObject *value = fast[i];
        _PyLocals_Kind kind = _PyLocals_GetKind(co->co_localspluskinds, i);
        if (value != NULL && (kind & (CO_FAST_CELL | CO_FAST_FREE)) && PyCell_Check(value))
            value = PyCell_GET(value); /* f_locals shows a cell's contents */
        if (held_candidates(value, out) < 0)
            return -1;
    }
    return 1;
}
#endif

/* The pending Arrays of the `frames` innermost user (non-library) frames: 1 with `out` filled,
 * 0 where a frame is not read here, -1 on an error. The interpreter's frames are walked as
 * sys._getframe and f_back walk them (incomplete frames skipped), without making frame objects. */
static int
frame_arrays_into(PyObject *out, int frames)
{
#ifdef HELD_LOCALS
    _PyInterpreterFrame *frame = PyThreadState_Get()->cframe->current_frame;
    int r = 1;
    for (; frame != NULL && frames > 0 && r > 0; frame = frame->previous) {
        if (_PyFrame_IsIncomplete(frame))
            continue;
        int is_lib = is_library_file(frame->f_code->co_filename);
        if (is_lib < 0)
            return -1;
        if (!is_lib) {
            frames--;
            r = frame_values_into(frame, out);
        }
    }
    return r;
#else
    return 0;
#endif
}

/* frame_arrays(frames) -> list or None: evaluation._held_in_frames' candidates read in place. */
static PyObject *
py_frame_arrays(PyObject *module, PyObject *frames_arg)
{
    long frames = PyLong_AsLong(frames_arg);
    if (frames == -1 && PyErr_Occurred())
        return NULL;
    if (HELD.array == NULL || !bound())
        Py_RETURN_NONE;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    int r = frame_arrays_into(out, (int)frames);
    if (r > 0)
        return out;
    Py_DECREF(out);
    if (r < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* bind_held(Array, own, failed, min_bytes, frames, views): what frame_arrays and held_hit need. */
static PyObject *
py_bind_held(PyObject *module, PyObject *args)
{
    PyObject *array, *own, *failed, *views;
    Py_ssize_t min_bytes;
    int frames;
    if (!PyArg_ParseTuple(args, "O!OOniO!:bind_held", &PyType_Type, &array, &own, &failed,
                          &min_bytes, &frames, &PyFrozenSet_Type, &views))
        return NULL;
    HELD.frames = frames;
    Py_XSETREF(HELD.views, Py_NewRef(views));
    Py_XSETREF(HELD.array, (PyTypeObject *)Py_NewRef(array));
    Py_XSETREF(HELD.own, Py_NewRef(own));
    Py_XSETREF(HELD.failed, Py_NewRef(failed));
    HELD.min_bytes = min_bytes;
    Py_RETURN_NONE;
}

/* Whether a result may reach donation.MIN_BYTES (then donation.own sees it, as evaluate_nodes
 * does): its elements times the widest itemsize (32 bytes, complex long double); not an ndarray
 * or an unread layout: asked. */
static int
maybe_owned(PyObject *buffer)
{
    if (!ARRAY_LAYOUT_OK || !Py_IS_TYPE(buffer, (PyTypeObject *)HIT.ndarray))
        return 1;
    ArrayFields *a = (ArrayFields *)buffer;
    Py_ssize_t n = 32;
    for (int d = 0; d < a->nd; d++)
        n *= a->dimensions[d];
    return n >= HELD.min_bytes;
}

static inline int
pending_node(PyObject *n)
{
    return PyObject_TypeCheck(n, &NodeBaseType) && PyTuple_Check(((NodeObject *)n)->inputs)
           && PyTuple_GET_SIZE(((NodeObject *)n)->inputs) > 0;
}

/* Whether `root`'s pending graph reaches a pending node that `computed` numbers (evaluation.
 * _reads_computed: a sibling of this evaluation). `dead` gathers the nodes found not to reach,
 * shared by the candidates of one evaluation as Python's memo is. 1, 0, or -1. */
static int
reads_computed(PyObject *root, Walk *computed, Walk *dead)
{
    Walk seen;
    walk_init(&seen);
    Stack st = {NULL, 0, 0};
    int found = 0, err = stack_push(&st, root);
    while (!err && st.n && !found) {
        PyObject *n = st.items[--st.n]; /* owned */
        if (walk_find(&seen, n) < 0 && walk_find(dead, n) < 0) {
            if (n != root && walk_find(computed, n) >= 0)
                found = 1;
            else if ((err = walk_number(&seen, n)) == 0) {
                PyObject *inputs = ((NodeObject *)n)->inputs;
                for (Py_ssize_t i = PyTuple_GET_SIZE(inputs) - 1; i >= 0 && !err; i--)
                    if (pending_node(PyTuple_GET_ITEM(inputs, i)))
                        err = stack_push(&st, PyTuple_GET_ITEM(inputs, i));
            }
        }
        Py_DECREF(n);
    }
    for (long long k = 0; !err && !found && k < seen.count; k++)
        err = walk_number(dead, seen.nodes[k]); /* nothing below reaches either */
    walk_free(&seen);
    stack_free(&st);
    return err ? -1 : found;
}

/* Number the pending nodes of the graph of `outputs`, the outputs included (what an evaluation
 * of them computes). 0 or -1. */
static int
walk_pending(Walk *w, PyObject *const *outputs, Py_ssize_t n_out)
{
    Stack st = {NULL, 0, 0};
    int err = push_nodes(&st, outputs, n_out, "held_split", "outputs");
    while (!err && st.n) {
        PyObject *n = st.items[--st.n]; /* owned */
        if (pending_node(n) && walk_find(w, n) < 0 && (err = walk_number(w, n)) == 0) {
            PyObject *inputs = ((NodeObject *)n)->inputs;
            for (Py_ssize_t i = PyTuple_GET_SIZE(inputs) - 1; i >= 0 && !err; i--)
                if (pending_node(PyTuple_GET_ITEM(inputs, i)))
                    err = stack_push(&st, PyTuple_GET_ITEM(inputs, i));
        }
        Py_DECREF(n);
    }
    stack_free(&st);
    return err;
}

/* held_split(nodes, held) -> list: of the pending Arrays `held` (none on an output), those on a
 * node the graph of `nodes` computes, then those whose graphs read one (siblings): what
 * evaluation._held_in_frames keeps, its two Python walks in one table. */
static PyObject *
py_held_split(PyObject *module, PyObject *args)
{
    PyObject *nodes_arg, *held;
    if (!PyArg_ParseTuple(args, "OO!:held_split", &nodes_arg, &PyList_Type, &held))
        return NULL;
    if (S_node == NULL && (S_node = PyUnicode_InternFromString("_node")) == NULL)
        return NULL;
    PyObject *nodes = PySequence_Fast(nodes_arg, "held_split: a sequence of nodes");
    if (nodes == NULL)
        return NULL;
    PyObject *kept = PyList_New(0), *others = PyList_New(0);
    Walk w, dead;
    walk_init(&w);
    walk_init(&dead);
    int err = kept == NULL || others == NULL
              || walk_pending(&w, PySequence_Fast_ITEMS(nodes), PySequence_Fast_GET_SIZE(nodes));
    for (Py_ssize_t pass = 0; pass < 2 && !err; pass++) {
        PyObject *from = pass == 0 ? held : others;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(from) && !err; i++) {
            PyObject *a = PyList_GET_ITEM(from, i), *n = PyObject_GetAttr(a, S_node);
            if (n == NULL || !pending_node(n)) {
                if (n != NULL)
                    PyErr_SetString(PyExc_TypeError, "held_split: Arrays on pending nodes");
                Py_XDECREF(n);
                err = 1;
                break;
            }
            int r = pass == 0 ? walk_find(&w, n) >= 0 : reads_computed(n, &w, &dead);
            Py_DECREF(n);
            if (r < 0)
                err = 1;
            else if (r || pass == 0) /* kept: inside, or a sibling; after pass 0: a candidate */
                err = PyList_Append(r ? kept : others, a) < 0;
        }
    }
    walk_free(&w);
    walk_free(&dead);
    Py_DECREF(nodes);
    Py_XDECREF(others);
    if (err) {
        Py_XDECREF(kept);
        return NULL;
    }
    return kept;
}

/* The outputs of the held evaluation: `node`, then each found Array's node once, in the order
 * found (evaluation.evaluate_arrays' `pending`); found Arrays whose graphs do not touch this one
 * are left out (they stay pending, as in Python). NULL without an error where Python decides: a
 * sibling (its nodes are not in this walk: evaluation._siblings), or no found Array inside. */
static PyObject *
held_outputs(PyObject *node, PyObject *found, Walk *w)
{
    PyObject *outputs = PyList_New(1);
    if (outputs == NULL)
        return NULL;
    PyList_SET_ITEM(outputs, 0, Py_NewRef(node));
    Walk dead;
    walk_init(&dead);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(found); i++) {
        PyObject *n = PyObject_GetAttr(PyList_GET_ITEM(found, i), S_node);
        if (n != NULL && n != node && walk_find(w, n) <= 0) {
            int sibling = reads_computed(n, w, &dead);
            Py_DECREF(n);
            if (sibling == 0)
                continue; /* a pending value this graph does not touch: it stays pending */
            n = NULL; /* a sibling (its graph and plan are Python's to find) or an error */
        }
        if (n == NULL) {
            walk_free(&dead);
            Py_DECREF(outputs);
            return NULL;
        }
        int seen = 0;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(outputs) && !seen; j++)
            seen = PyList_GET_ITEM(outputs, j) == n;
        int err = seen ? 0 : PyList_Append(outputs, n);
        Py_DECREF(n);
        if (err < 0) {
            walk_free(&dead);
            Py_DECREF(outputs);
            return NULL;
        }
    }
    walk_free(&dead);
    if (PyList_GET_SIZE(outputs) == 1)
        Py_CLEAR(outputs); /* nothing held in the frames (a list holds it): Python's case */
    return outputs;
}

static PyObject *held_outs(PyObject *outs, PyObject *outputs);

/* The record's direct launch or launcher on the bound leaves (launch_hit's, for several
 * outputs): the list
 * of their buffers, or NULL with the launcher's (or the floating-point report's) exception. */
static PyObject *
held_launch(PyObject *rec, PyObject *bound, PyObject *outputs)
{
    if (count_in(PyTuple_GET_ITEM(rec, R_HITS)) < 0)
        return NULL;
    fp_clear();
    PyObject *outs = NULL, *direct = PyTuple_GET_ITEM(rec, R_DIRECT);
    if (direct != Py_None) {
        int r = direct_launch(direct, PyTuple_GET_ITEM(rec, R_CPLAN), PyTuple_GET_ITEM(bound, 0),
                              PyTuple_GET_ITEM(bound, 1), (PyTypeObject *)HIT.ndarray, &outs);
        if (r < 0)
            return NULL;
        if (r > 0)
            return held_outs(outs, outputs);
    }
    if (run_launcher(rec, bound, &outs) < 0)
        return NULL;
    return outs == NULL ? NULL : held_outs(outs, outputs);
}

/* The launch's buffers checked (one per output) and the floating-point flags reported: `outs`
 * (stolen), or NULL. */
static PyObject *
held_outs(PyObject *outs, PyObject *outputs)
{
    if (outs != NULL && (!PyList_CheckExact(outs)
                         || PyList_GET_SIZE(outs) != PyList_GET_SIZE(outputs))) {
        PyErr_SetString(PyExc_SystemError, "lazyarray: a plan returned another output count");
        Py_CLEAR(outs);
    }
    if (outs != NULL && fp_report(outputs) < 0)
        Py_CLEAR(outs);
    return outs;
}

/* The run failed: evaluation._held_failed does what evaluate_arrays does then (the retry without
 * the held Arrays, or the raise). Its answer (the Array's host buffer), or NULL. */
static PyObject *
held_failed(PyObject *array, PyObject *outputs)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL && value != NULL)
        PyException_SetTraceback(value, tb);
    PyObject *r = value == NULL ? NULL
                  : PyObject_CallFunctionObjArgs(HELD.failed, array, outputs, value, NULL);
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
    return r;
}

/* Each output's result leaf, bound to the Array evaluated and to every found Array on that
 * output (duplicates share one leaf, as evaluate_arrays' `done`): the first buffer, or NULL. */
static PyObject *
held_bind(PyObject *array, PyObject *found, PyObject *outputs, PyObject *buffers)
{
    Py_ssize_t n = PyList_GET_SIZE(outputs);
    PyObject *leaves = PyList_New(n), *result = NULL;
    if (leaves == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        NodeObject *o = (NodeObject *)PyList_GET_ITEM(outputs, i);
        PyObject *buffer = PyList_GET_ITEM(buffers, i);
        if (maybe_owned(buffer)) {
            PyObject *r = PyObject_CallOneArg(HELD.own, buffer);
            if (r == NULL)
                goto done;
            Py_DECREF(r);
        }
        PyObject *attrs = result_attrs(o);
        PyObject *leaf = attrs == NULL ? NULL : node_build(SIG_INPUT_OP, EMPTY_TUPLE, attrs,
                                                           o->shape, o->dtype, buffer, o->site);
        if (leaf == NULL)
            goto done;
        PyList_SET_ITEM(leaves, i, leaf);
    }
    if (PyObject_SetAttr(array, S_node, PyList_GET_ITEM(leaves, 0)) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(found); i++) {
        PyObject *a = PyList_GET_ITEM(found, i), *node = PyObject_GetAttr(a, S_node);
        if (node == NULL)
            goto done;
        Py_ssize_t k = 0;
        while (k < n && PyList_GET_ITEM(outputs, k) != node)
            k++;
        Py_DECREF(node);
        if (k < n && PyObject_SetAttr(a, S_node, PyList_GET_ITEM(leaves, k)) < 0)
            goto done;
    }
    result = Py_NewRef(PyList_GET_ITEM(buffers, 0));
done:
    Py_DECREF(leaves);
    return result;
}

/* Whether `x` (an entry of a signature tuple) equals `y`; errors count as not. */
static int
sig_item_equals(PyObject *x, PyObject *y)
{
    if (x == y)
        return 1;
    int eq = PyObject_RichCompareBool(x, y, Py_EQ);
    if (eq < 0)
        PyErr_Clear();
    return eq > 0;
}

/* Whether `x` is the int `v`; errors count as not. */
static int
sig_item_is(PyObject *x, Py_ssize_t v)
{
    Py_ssize_t got = PyLong_Check(x) ? PyLong_AsSsize_t(x) : -1;
    if (got == -1 && PyErr_Occurred())
        PyErr_Clear();
    return PyLong_Check(x) && got == v;
}

/* Whether the memo key's signature is graph_signature(outputs), read off the walk of
 * outputs[0] alone: the held outputs are intermediates of its graph, so the several-output walk
 * visits exactly what that walk visited, then meets each held output again (one back-reference
 * (visits, its visit number) each), then lists every output's key. No second walk. */
static int
held_signature_matches(Walk *w, PyObject *outputs, PyObject *last)
{
    PyObject *key = PyTuple_GET_ITEM(last, 0);
    if (!PyTuple_CheckExact(key) || PyTuple_GET_SIZE(key) != 2)
        return 0;
    PyObject *sig = PyTuple_GET_ITEM(key, 1);
    Py_ssize_t n_out = PyList_GET_SIZE(outputs), body = PyList_GET_SIZE(w->sig) - 2;
    if (!PyTuple_CheckExact(sig) || PyTuple_GET_SIZE(sig) != 1 + body + 3 * n_out - 2
        || !sig_item_is(PyTuple_GET_ITEM(sig, 0), n_out))
        return 0;
    for (Py_ssize_t i = 1; i <= body; i++)
        if (!sig_item_equals(PyList_GET_ITEM(w->sig, i), PyTuple_GET_ITEM(sig, i)))
            return 0;
    Py_ssize_t at = 1 + body;
    for (Py_ssize_t m = 1; m < n_out; m++, at += 2)
        if (!sig_item_is(PyTuple_GET_ITEM(sig, at), (Py_ssize_t)w->count)
            || !sig_item_is(PyTuple_GET_ITEM(sig, at + 1),
                            walk_find(w, PyList_GET_ITEM(outputs, m))))
            return 0;
    for (Py_ssize_t m = 0; m < n_out; m++, at++) {
        PyObject *k = node_key((NodeObject *)PyList_GET_ITEM(outputs, m));
        if (k == NULL) {
            PyErr_Clear();
            return 0;
        }
        if (!sig_item_equals(k, PyTuple_GET_ITEM(sig, at)))
            return 0;
    }
    return 1;
}

/* try_hit found an intermediate held from outside the graph. 1: evaluated here with the held
 * Arrays of the user's frames, as evaluate_arrays would (*out = the Array's buffer); 0: Python
 * decides (no such Array, one outside the graph, another signature than the record's, la.grad
 * tracing); -1: an error the general path would raise too. `w` is try_hit's walk of `node`. */
static int
held_hit(PyObject *array, PyObject *node, PyObject *rec, Walk *w, PyObject **out)
{
    if (HELD.array == NULL)
        return 0;
    PyObject *busy = PyObject_GetAttr(HIT.state, S_busy);
    if (busy == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(busy);
    if (busy != Py_False) /* la.grad traces (cache.busy): evaluation._held_in_frames keeps none */
        return 0;
    PyObject *found = PyList_New(0), *outputs = NULL, *bound = NULL, *buffers = NULL;
    int result = 0;
    if (found == NULL || frame_arrays_into(found, HELD.frames) <= 0
        || (outputs = held_outputs(node, found, w)) == NULL
        || !held_signature_matches(w, outputs, PyTuple_GET_ITEM(rec, R_LAST))
        || (bound = bind_data(w->leaves)) == NULL) /* (the several-output walk's leaves too) */
        goto done;
    walk_free(w); /* the graph's nodes are its holders' alone again before the launch */
    walk_init(w);
    buffers = held_launch(rec, bound, outputs);
    *out = buffers == NULL ? held_failed(array, outputs)
                           : held_bind(array, found, outputs, buffers);
    result = *out == NULL ? -1 : 1;
done:
    if (result == 0)
        PyErr_Clear(); /* whatever declined here, the general path meets it again */
    Py_XDECREF(found);
    Py_XDECREF(outputs);
    Py_XDECREF(bound);
    Py_XDECREF(buffers);
    return result;
}

/* live_holders(refs, node) -> list: the objects alive behind the weak references `refs` (cuts'
 * _LIVE: every Array made on a pending node) whose `_node` is `node`, in order. eager._held_value
 * asks it for every large node of a small graph it computes at once (nbody's masks: ~6 a walk),
 * and its Python loop over the few hundred references cost ~10 us each time. */
static PyObject *
py_live_holders(PyObject *module, PyObject *args)
{
    PyObject *refs, *node;
    if (!PyArg_ParseTuple(args, "O!O:live_holders", &PyList_Type, &refs, &node))
        return NULL;
    if (S_node == NULL && (S_node = PyUnicode_InternFromString("_node")) == NULL)
        return NULL;
    PyObject *found = PyList_New(0);
    if (found == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(refs); i++) {
        PyObject *ref = PyList_GET_ITEM(refs, i);
        if (!PyWeakref_Check(ref)) {
            PyErr_SetString(PyExc_TypeError, "live_holders: a list of weak references");
            goto fail;
        }
        PyObject *a = PyWeakref_GET_OBJECT(ref); /* borrowed */
        if (a == Py_None)
            continue;
        Py_INCREF(a);
        PyObject *held = PyObject_GetAttr(a, S_node);
        int err = held == NULL || (held == node && PyList_Append(found, a) < 0);
        Py_XDECREF(held);
        Py_DECREF(a);
        if (err)
            goto fail;
    }
    return found;
fail:
    Py_DECREF(found);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"set_unkeyed_leaf_attrs", py_set_unkeyed_leaf_attrs, METH_O,
     "set_unkeyed_leaf_attrs(attrs): leaves with these very attrs key as leaves with ()."},
    {"on_keys_cleared", py_on_keys_cleared, METH_O,
     "on_keys_cleared(fn): fn() runs when the structure-key table is cleared (keys cached "
     "outside it, such as _bind._SCALAR_KEYS, must go: a stale key makes a plan miss)."},
    {"graph_signature", py_graph_signature, METH_O,
     "graph_signature(outputs) -> (signature, leaves): graph.signature's walk, compiled."},
    {"shared_intermediates", py_shared_intermediates, METH_O,
     "shared_intermediates(outputs) -> bool: whether a non-output node of the graph is referenced "
     "from outside it (an Array may hold it)."},
    {"evaluation_walk", py_evaluation_walk, METH_O,
     "evaluation_walk(node) -> (signature, leaves, arrays, scalars), or None when an intermediate "
     "is referenced from outside the graph: the three walks of evaluating one Array in one."},
    {"to_host", py_to_host, METH_O,
     "to_host(array) -> ndarray: lazyarray.evaluation.to_host, with the last plan's hit path in C."},
    {"direct_spec", py_direct_spec, METH_VARARGS,
     "direct_spec(inputs, output, codes, steps, intermediates, empty, matmul, release_gil, keep) "
     "-> capsule or None: "
     "a C plan the hit path runs without its Python launcher (runtime/c_launch.direct_spec)."},
    {"check_array_layout", py_check_array_layout, METH_VARARGS,
     "check_array_layout(probe, data address, probe[:, ::2], float32) -> bool: NumPy's array "
     "fields as the direct launch reads them (turns it on)."},
    {"fp_clear", py_fp_clear, METH_NOARGS, "Clear the thread's floating-point exception flags."},
    {"fp_test", py_fp_test, METH_NOARGS,
     "The flags raised since fp_clear, NumPy's bits (1 divide, 2 over, 4 under, 8 invalid)."},
    {"fp_note", py_fp_note, METH_O, "OR NumPy's error bits (its `call` mode) into fp_test's."},
    {"bind_fp", py_bind_fp, METH_O, "The hit path's report: fired(node, bits)."},
    {"fp_call", (PyCFunction)(void (*)(void))py_fp_call, METH_FASTCALL,
     "fn(a, b, c) between fp_clear and fp_test; hook(bits, context, b, c) if a flag fired."},
    {"bind_hit", py_bind_hit, METH_VARARGS,
     "bind_hit(holder, cache globals, evaluation globals, evaluate, _OPTIONS, "
     "settings._scope, settings globals, settings._applied, cache._state, ndarray, fallback, "
     "failed): what to_host's hit path checks."},
    {"bind_leaves", py_bind_leaves, METH_O,
     "bind_leaves(leaves) -> (arrays, scalars): lazyarray.cache.bind_leaves, compiled."},
    {"bind_signature", py_bind_signature, METH_VARARGS,
     "bind_signature(OpKind.LEAF, the input OpDef): what graph_signature compares against."},
    {"forget_sites", py_forget_sites, METH_NOARGS,
     "Empty the per-instruction site cache (the library-file rules changed)."},
    {"watch", py_watch, METH_VARARGS,
     "watch(var, hook): where var's value is not the one the last build saw, hook(inputs, op) "
     "runs before a node with inputs is built and returns its inputs; watch(None, None): off."},
    {"watch_seen", py_watch_seen, METH_O,
     "watch_seen(value): the watched variable's value counts as seen (the next build that finds "
     "another calls the hook)."},
    {"bind", py_bind, METH_VARARGS,
     "bind(keys, budget, segment_start, is_library, is_library_file, max_keys): share "
     "graph.node's tables."},
    {"set_node_class", py_set_node_class, METH_O, "The NodeBase subclass that C builds."},
    {"build", (PyCFunction)(void (*)(void))py_build, METH_FASTCALL,
     "build(op, inputs, attrs, shape, dtype, data, site): Node(...) without keyword parsing."},
    {"next_serial", py_next_serial, METH_NOARGS, "The next node serial (graph.node._SERIAL)."},
    {"built_count", py_built_count, METH_NOARGS,
     "Nodes with inputs completed so far: the last one's `order` (graph.node.built_count)."},
    {"intern", py_intern, METH_O, "The key of a structure tuple (graph.node._intern)."},
    {"user_point", (PyCFunction)(void (*)(void))py_user_point, METH_FASTCALL,
     "user_point(depth, op) -> (code, lasti, op) or None: lazyarray.cuts' program point, compiled."},
    {"user_site", (PyCFunction)(void (*)(void))py_user_site, METH_FASTCALL,
     "user_site(depth=1): graph.node.user_site, compiled."},
    {"operations_reading", (PyCFunction)(void (*)(void))py_operations_reading, METH_FASTCALL,
     "operations_reading(nodes, cut_leaves) -> (nodes, reads_cut): lazyarray.tails', compiled."},
    {"outside_references", (PyCFunction)(void (*)(void))py_outside_references, METH_FASTCALL,
     "outside_references(outputs, nodes) -> references per node, or None: lazyarray.donation's."},

    {"frame_arrays", py_frame_arrays, METH_O,
     "frame_arrays(frames) -> list or None: the pending Arrays in the user frames' locals."},
    {"held_split", py_held_split, METH_VARARGS,
     "held_split(nodes, held) -> list: the held Arrays inside the graph of nodes, then siblings."},
    {"live_holders", py_live_holders, METH_VARARGS,
     "live_holders(refs, node) -> list: the live referents of `refs` whose _node is `node`."},
    {"bind_held", py_bind_held, METH_VARARGS,
     "bind_held(Array, own, failed, min_bytes, frames): what to_host's held hit path needs."},
    {NULL},
};

static void
capi_fp_clear(void)
{
    fp_clear();
}

static int
capi_fp_test(void)
{
    return fp_test();
}

/* NodeCAPI.reuse_leaf: node_setup's key for a leaf, made again, and the new site. */
static int
capi_reuse_leaf(PyObject *node, PyObject *site)
{
    NodeObject *n = (NodeObject *)node;
    if (!bound())
        return -1;
    PyObject *key_attrs = n->attrs == UNKEYED_ATTRS ? EMPTY_ATTRS : n->attrs;
    PyObject *key = key_of(n->op, key_attrs, n->dtype, n->shape, n->inputs);
    if (key == NULL)
        return -1;
    Py_XSETREF(n->key, key);
    SET_FIELD(n, site, site);
    return 0;
}

static NodeCAPI capi = {node_build, node_leaf_with_key, c_user_site, &NodeBaseType, capi_fp_clear,
                        capi_fp_test, node_build_keyless, capi_reuse_leaf};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_node",
    "graph.node's Node constructor and user-site walk, compiled (see graph/_node.c).", -1,
    module_methods,
};

PyMODINIT_FUNC
PyInit__node(void)
{
    if (PyType_Ready(&NodeBaseType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    Py_INCREF(&NodeBaseType);
    if (PyModule_AddObject(m, "NodeBase", (PyObject *)&NodeBaseType) < 0) {
        Py_DECREF(&NodeBaseType);
        Py_DECREF(m);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(&capi, NODE_CAPI_NAME, NULL);
    if (capsule == NULL || PyModule_AddObject(m, "_C_API_4", capsule) < 0) { /* NODE_CAPI_NAME */
        Py_XDECREF(capsule);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
