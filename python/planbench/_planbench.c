/* planbench for Python: the extension module `planbench._planbench` (issue 23).
 *
 * A thin layer over the public C API (include/planbench/): engines (files the command line
 * reads, image maps from numpy arrays, black boxes from Python callables), planners, solves.
 * The Python package (python/planbench/__init__.py) wraps what this module returns into
 * result objects. Solves run with the GIL released; Python callbacks take it back for the
 * call only. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <planbench/bench.h>
#include <planbench/blackbox.h>
#include <planbench/image.h>
#include <planbench/planner.h>

static PyObject *error_base, *error_value, *error_file;

/* Raise the exception for a failed call, with the CLI's one-line message. */
static PyObject *raise_status(pb_status status, const pb_diag *diag)
{
    char msg[1024];
    pb_diag_format(diag, msg, sizeof msg);
    if (!msg[0])
        snprintf(msg, sizeof msg, "%s", pb_status_str(status));
    PyObject *kind = status == PB_ERR_IO      ? error_file
                     : status == PB_ERR_NOMEM ? PyExc_MemoryError
                                              : error_value;
    PyErr_SetString(kind, msg);
    return NULL;
}

/* ---- engines ---------------------------------------------------------------------------- */

typedef struct engine_object {
    PyObject_HEAD pb_engine *engine;
    PyObject *feasible;  /* Python callables of a black box; NULL for built-in engines */
    PyObject *clearance; /* optional */
    PyObject *batch;     /* optional: (n, d) array -> n bools */
    int dim;
    int busy;           /* a solve on a Python black box is under way */
    PyObject *exc_type; /* the exception a callback raised during the current solve */
    PyObject *exc_value, *exc_tb;
    pb_atomic_flag *cancel; /* the current solve's stop flag */
    unsigned long calls;
} engine_object;

static PyTypeObject engine_type;

static void engine_dealloc(engine_object *self)
{
    pb_engine_destroy(self->engine);
    Py_XDECREF(self->feasible);
    Py_XDECREF(self->clearance);
    Py_XDECREF(self->batch);
    Py_XDECREF(self->exc_type);
    Py_XDECREF(self->exc_value);
    Py_XDECREF(self->exc_tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *engine_wrap(pb_engine *engine)
{
    engine_object *self = PyObject_New(engine_object, &engine_type);
    if (!self) {
        pb_engine_destroy(engine);
        return NULL;
    }
    self->engine = engine;
    self->feasible = self->clearance = self->batch = NULL;
    self->exc_type = self->exc_value = self->exc_tb = NULL;
    self->dim = pb_engine_dim(engine);
    self->busy = 0;
    self->cancel = NULL;
    self->calls = 0;
    return (PyObject *)self;
}

static PyObject *vector(const double *v, int dim)
{
    npy_intp d = dim;
    PyObject *a = PyArray_SimpleNew(1, &d, NPY_DOUBLE);
    if (a)
        memcpy(PyArray_DATA((PyArrayObject *)a), v, sizeof(double) * (size_t)dim);
    return a;
}

/* Read `obj` as `dim` finite numbers into `out`; `what` names it in the message. */
static int read_config(PyObject *obj, int dim, double *out, const char *what)
{
    PyArrayObject *a =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 0, 0, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
    if (!a) {
        PyErr_Clear();
        PyErr_Format(error_value, "%s: expected %d numbers, got a %.100s", what, dim, Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyArray_NDIM(a) != 1 || PyArray_DIM(a, 0) != dim) {
        PyErr_Format(error_value, "%s: expected %d numbers (the engine's dimension), got a %d-D array of %zd",
                     what, dim, PyArray_NDIM(a), (Py_ssize_t)PyArray_SIZE(a));
        Py_DECREF(a);
        return -1;
    }
    const double *v = PyArray_DATA(a);
    for (int i = 0; i < dim; i++) {
        if (!isfinite(v[i])) {
            PyErr_Format(error_value, "%s: coordinate %d is not a finite number", what, i);
            Py_DECREF(a);
            return -1;
        }
        out[i] = v[i];
    }
    Py_DECREF(a);
    return 0;
}

static PyObject *engine_get_name(engine_object *self, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(pb_engine_name(self->engine));
}
static PyObject *engine_get_dim(engine_object *self, void *unused)
{
    (void)unused;
    return PyLong_FromLong(self->dim);
}
static PyObject *engine_get_lower(engine_object *self, void *unused)
{
    (void)unused;
    return vector(pb_engine_lower(self->engine), self->dim);
}
static PyObject *engine_get_upper(engine_object *self, void *unused)
{
    (void)unused;
    return vector(pb_engine_upper(self->engine), self->dim);
}
static PyObject *engine_get_defaults(engine_object *self, void *unused)
{
    (void)unused;
    double s[PB_MAX_DIM], g[PB_MAX_DIM];
    if (!pb_engine_defaults(self->engine, s, g))
        Py_RETURN_NONE;
    return Py_BuildValue("(NN)", vector(s, self->dim), vector(g, self->dim));
}
static PyObject *engine_get_edge_check(engine_object *self, void *unused)
{
    (void)unused;
    double r = 0.0;
    pb_edge_check c = pb_engine_edge_check(self->engine, &r);
    return Py_BuildValue("(sd)", pb_edge_check_str(c), r);
}

static PyObject *take_callback_error(engine_object *self);

/* Read the method's `n` configurations (1 or 2) into `q`, rows of PB_MAX_DIM. */
static int read_configs(engine_object *self, PyObject *args, int n, double q[][PB_MAX_DIM])
{
    static const char *const names[2] = {"a", "b"};
    if (PyTuple_Size(args) != n) {
        PyErr_Format(PyExc_TypeError, "expected %d configuration%s", n, n == 1 ? "" : "s");
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (read_config(PyTuple_GET_ITEM(args, i), self->dim, q[i], n == 1 ? "q" : names[i]) < 0)
            return -1;
    return 0;
}

/* A query's answer, or the exception a callback raised during it. */
static PyObject *query_answer(engine_object *self, bool ok)
{
    if (self->exc_type)
        return take_callback_error(self);
    return PyBool_FromLong(ok);
}

static PyObject *engine_feasible(engine_object *self, PyObject *args)
{
    double q[1][PB_MAX_DIM];
    if (read_configs(self, args, 1, q) < 0)
        return NULL;
    return query_answer(self, pb_engine_feasible(self->engine, q[0]));
}

static PyObject *engine_visible(engine_object *self, PyObject *args)
{
    double q[2][PB_MAX_DIM];
    if (read_configs(self, args, 2, q) < 0)
        return NULL;
    return query_answer(self, pb_engine_visible(self->engine, q[0], q[1]));
}

static PyObject *engine_distance(engine_object *self, PyObject *args)
{
    double q[2][PB_MAX_DIM];
    if (read_configs(self, args, 2, q) < 0)
        return NULL;
    return PyFloat_FromDouble(pb_engine_distance(self->engine, q[0], q[1]));
}

static PyObject *engine_repr(engine_object *self)
{
    return PyUnicode_FromFormat("<planbench.Engine %s, %d-D>", pb_engine_name(self->engine), self->dim);
}

static PyMethodDef engine_methods[] = {
    {"feasible", (PyCFunction)engine_feasible, METH_VARARGS, "feasible(q) -> bool: is configuration q free?"},
    {"visible", (PyCFunction)engine_visible, METH_VARARGS,
     "visible(a, b) -> bool: is the straight edge from a to b free (endpoints included)?"},
    {"distance", (PyCFunction)engine_distance, METH_VARARGS,
     "distance(a, b) -> float under the engine's metric"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef engine_getset[] = {
    {"name", (getter)engine_get_name, NULL, "the engine's registered name", NULL},
    {"dim", (getter)engine_get_dim, NULL, "number of coordinates", NULL},
    {"lower", (getter)engine_get_lower, NULL, "lower bounds (numpy array)", NULL},
    {"upper", (getter)engine_get_upper, NULL, "upper bounds (numpy array)", NULL},
    {"defaults", (getter)engine_get_defaults, NULL, "(start, goal) of the map, or None", NULL},
    {"edge_check", (getter)engine_get_edge_check, NULL, "(kind, resolution) of the edge check", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject engine_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "planbench.Engine",
    .tp_basicsize = sizeof(engine_object),
    .tp_dealloc = (destructor)engine_dealloc,
    .tp_repr = (reprfunc)engine_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A configuration space: made by planbench.load(), image(), blackbox().",
    .tp_methods = engine_methods,
    .tp_getset = engine_getset,
};

/* ---- Python callbacks (called with the GIL released; they take it) ---------------------- */

/* Keep the pending exception for after the solve and stop the solve. GIL held. */
static void callback_failed(engine_object *self)
{
    if (!self->exc_type)
        PyErr_Fetch(&self->exc_type, &self->exc_value, &self->exc_tb);
    else
        PyErr_Clear();
    if (self->cancel)
        atomic_store(self->cancel, 1);
}

static PyObject *take_callback_error(engine_object *self)
{
    PyErr_Restore(self->exc_type, self->exc_value, self->exc_tb);
    self->exc_type = self->exc_value = self->exc_tb = NULL;
    return NULL;
}

static PyObject *call_with_view(engine_object *self, PyObject *fn, const double *q)
{
    npy_intp d = self->dim;
    PyObject *view =
        PyArray_New(&PyArray_Type, 1, &d, NPY_DOUBLE, NULL, (void *)q, 0, NPY_ARRAY_CARRAY_RO, NULL);
    if (!view)
        return NULL;
    PyObject *r = PyObject_CallOneArg(fn, view);
    Py_DECREF(view);
    /* Ctrl-C: the interpreter runs signal handlers only between bytecodes of the main thread. */
    if (r && (++self->calls & 255u) == 0 && PyErr_CheckSignals() < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

static bool py_feasible(const double *q, void *payload)
{
    engine_object *self = payload;
    PyGILState_STATE gil = PyGILState_Ensure();
    bool ok = false;
    if (!self->exc_type) {
        PyObject *r = call_with_view(self, self->feasible, q);
        if (r) {
            if (PyBool_Check(r) || PyArray_IsScalar(r, Bool))
                ok = PyObject_IsTrue(r) == 1;
            else
                PyErr_Format(PyExc_TypeError, "the feasible callable must return a bool, not %.100s",
                             Py_TYPE(r)->tp_name);
            Py_DECREF(r);
        }
        if (PyErr_Occurred()) {
            ok = false;
            callback_failed(self);
        }
    }
    PyGILState_Release(gil);
    return ok;
}

static void py_batch(const double *qs, size_t n, bool *free, void *payload)
{
    engine_object *self = payload;
    PyGILState_STATE gil = PyGILState_Ensure();
    memset(free, 0, n);
    if (!self->exc_type) {
        npy_intp d[2] = {(npy_intp)n, self->dim};
        PyObject *view =
            PyArray_New(&PyArray_Type, 2, d, NPY_DOUBLE, NULL, (void *)qs, 0, NPY_ARRAY_CARRAY_RO, NULL);
        PyObject *r = view ? PyObject_CallOneArg(self->batch, view) : NULL;
        Py_XDECREF(view);
        if (r) {
            PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(r, NPY_NOTYPE, 0, 0, NPY_ARRAY_CARRAY_RO);
            if (!a || PyArray_TYPE(a) != NPY_BOOL || PyArray_NDIM(a) != 1 ||
                PyArray_DIM(a, 0) != (npy_intp)n) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError,
                             "the batch callable must return a bool array of shape (%zu,), not %.100s of "
                             "%d-D, %zd values",
                             n, a ? PyArray_DESCR(a)->typeobj->tp_name : Py_TYPE(r)->tp_name,
                             a ? PyArray_NDIM(a) : 0, a ? (Py_ssize_t)PyArray_SIZE(a) : (Py_ssize_t)0);
            } else {
                memcpy(free, PyArray_DATA(a), n);
            }
            Py_XDECREF(a);
            Py_DECREF(r);
        }
        if (PyErr_Occurred()) {
            memset(free, 0, n);
            callback_failed(self);
        } else if ((++self->calls & 15u) == 0 && PyErr_CheckSignals() < 0) {
            memset(free, 0, n);
            callback_failed(self);
        }
    }
    PyGILState_Release(gil);
}

static double py_clearance(const double *q, void *payload)
{
    engine_object *self = payload;
    PyGILState_STATE gil = PyGILState_Ensure();
    double c = 0.0;
    if (!self->exc_type) {
        PyObject *r = call_with_view(self, self->clearance, q);
        if (r) {
            c = PyFloat_AsDouble(r);
            if (c == -1.0 && PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "the clearance callable must return a number, not %.100s",
                             Py_TYPE(r)->tp_name);
            Py_DECREF(r);
        }
        if (PyErr_Occurred()) {
            c = 0.0;
            callback_failed(self);
        }
    }
    PyGILState_Release(gil);
    return c;
}

/* ---- module functions ------------------------------------------------------------------- */

static PyObject *mod_load(PyObject *mod, PyObject *args, PyObject *kwargs)
{
    (void)mod;
    static char *kw[] = {"path", "engine", "options", NULL};
    const char *path = NULL, *name = NULL;
    PyObject *options = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "z|zO:load", kw, &path, &name, &options))
        return NULL;
    if (options == Py_None)
        options = NULL;
    if (options && !PyDict_Check(options)) {
        PyErr_Format(PyExc_TypeError, "load: options must be a dict of engine options, not %.100s",
                     Py_TYPE(options)->tp_name);
        return NULL;
    }
    if (!path && !name) {
        PyErr_SetString(error_value, "load: give a map, world or problem file, or an engine name");
        return NULL;
    }
    Py_ssize_t n = options ? PyDict_Size(options) : 0;
    pb_option *opts = calloc((size_t)n + 1, sizeof *opts);
    PyObject **texts = calloc((size_t)n + 1, sizeof *texts);
    if (!opts || !texts) {
        free(opts);
        free(texts);
        return PyErr_NoMemory();
    }
    PyObject *key, *value, *result = NULL;
    Py_ssize_t pos = 0, i = 0;
    while (options && PyDict_Next(options, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) {
            PyErr_SetString(error_value, "load: option names must be strings");
            goto done;
        }
        texts[i] = PyBool_Check(value)      ? PyUnicode_FromString(value == Py_True ? "true" : "false")
                   : PyUnicode_Check(value) ? (Py_INCREF(value), value)
                                            : PyObject_Str(value);
        if (!texts[i])
            goto done;
        opts[i].name = PyUnicode_AsUTF8(key);
        opts[i].value = PyUnicode_AsUTF8(texts[i]);
        i++;
        if (!opts[i - 1].name || !opts[i - 1].value)
            goto done;
    }
    if (path && !name && access(path, R_OK) != 0) {
        PyErr_Format(error_file, "%s: no such file", path);
        goto done;
    }
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    pb_status s;
    PyThreadState *released = PyEval_SaveThread();
    s = pb_engine_load(&engine, name, path, opts, (size_t)n, &diag);
    PyEval_RestoreThread(released);
    if (s != PB_OK)
        raise_status(s, &diag);
    else
        result = engine_wrap(engine);
done:
    for (Py_ssize_t j = 0; j < n; j++)
        Py_XDECREF(texts[j]);
    free(texts);
    free(opts);
    return result;
}

/* _image_png(mask, path): write a 2-D C-contiguous uint8 array (255 free, 0 blocked) as a PNG. */
static PyObject *mod_write_png(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyArrayObject *a;
    const char *path;
    if (!PyArg_ParseTuple(args, "O!s", &PyArray_Type, &a, &path))
        return NULL;
    if (PyArray_NDIM(a) != 2 || PyArray_TYPE(a) != NPY_UINT8 || !PyArray_IS_C_CONTIGUOUS(a)) {
        PyErr_SetString(error_value, "image: internal error, expected a contiguous 2-D uint8 mask");
        return NULL;
    }
    const int h = (int)PyArray_DIM(a, 0), w = (int)PyArray_DIM(a, 1);
    pb_image img;
    pb_diag diag = {0};
    pb_status s = pb_image_init(&img, w, h);
    if (s != PB_OK)
        return raise_status(s, &diag);
    const uint8_t *m = PyArray_DATA(a);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        memset(img.rgb + 3 * i, m[i], 3);
    s = pb_image_save_png(&img, path, &diag);
    pb_image_finish(&img);
    if (s != PB_OK)
        return raise_status(s, &diag);
    Py_RETURN_NONE;
}

static int read_bounds(PyObject *obj, double *out, const char *what)
{
    PyArrayObject *a =
        (PyArrayObject *)PyArray_FROMANY(obj, NPY_DOUBLE, 1, 1, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
    if (!a) {
        PyErr_Clear();
        PyErr_Format(error_value, "%s: expected a sequence of numbers", what);
        return -1;
    }
    int n = (int)PyArray_DIM(a, 0);
    if (n < 1 || n > PB_MAX_DIM) {
        PyErr_Format(error_value, "%s: %d coordinates, expected 1 to %d", what, n, PB_MAX_DIM);
        Py_DECREF(a);
        return -1;
    }
    memcpy(out, PyArray_DATA(a), sizeof(double) * (size_t)n);
    Py_DECREF(a);
    return n;
}

static PyObject *mod_blackbox(PyObject *mod, PyObject *args, PyObject *kwargs)
{
    (void)mod;
    static char *kw[] = {"feasible", "lower", "upper", "resolution", "clearance",
                         "start",    "goal",  "batch", NULL};
    PyObject *feasible, *lo, *hi, *clearance = Py_None, *start = Py_None, *goal = Py_None, *batch = Py_None;
    double resolution = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|dOOOO:blackbox", kw, &feasible, &lo, &hi, &resolution,
                                     &clearance, &start, &goal, &batch))
        return NULL;
    if (!PyCallable_Check(feasible) || (clearance != Py_None && !PyCallable_Check(clearance)) ||
        (batch != Py_None && !PyCallable_Check(batch))) {
        PyErr_SetString(PyExc_TypeError, "blackbox: feasible, clearance and batch must be callables");
        return NULL;
    }
    pb_blackbox_config c = pb_blackbox_config_default(1);
    int nl = read_bounds(lo, c.lower, "lower"), nu = nl < 0 ? -1 : read_bounds(hi, c.upper, "upper");
    if (nl < 0 || nu < 0)
        return NULL;
    if (nl != nu) {
        PyErr_Format(error_value, "blackbox: lower has %d coordinates but upper has %d", nl, nu);
        return NULL;
    }
    if (!isfinite(resolution) || resolution < 0) {
        PyErr_SetString(error_value, "resolution: must be a non-negative finite number (0: the default)");
        return NULL;
    }
    c.dim = nl;
    c.resolution = resolution;
    if ((start == Py_None) != (goal == Py_None)) {
        PyErr_SetString(error_value, "blackbox: give both a default start and goal, or neither");
        return NULL;
    }
    if (start != Py_None) {
        if (read_config(start, c.dim, c.default_start, "start") < 0 ||
            read_config(goal, c.dim, c.default_goal, "goal") < 0)
            return NULL;
        c.has_defaults = true;
    }
    engine_object *self = PyObject_New(engine_object, &engine_type);
    if (!self)
        return NULL;
    self->engine = NULL;
    Py_INCREF(feasible);
    self->feasible = feasible;
    self->clearance = clearance == Py_None ? NULL : (Py_INCREF(clearance), clearance);
    self->batch = batch == Py_None ? NULL : (Py_INCREF(batch), batch);
    self->exc_type = self->exc_value = self->exc_tb = NULL;
    self->dim = c.dim;
    self->busy = 0;
    self->cancel = NULL;
    self->calls = 0;
    c.feasible = py_feasible;
    c.clearance = self->clearance ? py_clearance : NULL;
    c.feasible_batch = self->batch ? py_batch : NULL;
    c.payload = self;
    pb_diag diag = {0};
    pb_status s = pb_blackbox_create(&self->engine, &c, &diag);
    if (s != PB_OK) {
        Py_DECREF(self);
        return raise_status(s, &diag);
    }
    return (PyObject *)self;
}

/* The planners and their parameters. */
static PyObject *mod_planners(PyObject *mod, PyObject *unused)
{
    (void)mod;
    (void)unused;
    static const char *const types[] = {"float", "int", "bool"};
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < pb_planner_registry_count(); i++) {
        const pb_planner_impl *impl = pb_planner_registry_get(i);
        size_t n = 0;
        const pb_param_def *defs = pb_planner_impl_params(impl, &n);
        PyObject *params = PyList_New(0), *aliases = PyList_New(0);
        for (size_t k = 0; params && k < n; k++) {
            PyObject *p =
                Py_BuildValue("{s:s,s:s,s:d,s:d,s:d,s:s}", "name", defs[k].name, "type", types[defs[k].type],
                              "default", defs[k].default_value, "low", defs[k].low, "high", defs[k].high,
                              "doc", defs[k].doc ? defs[k].doc : "");
            if (!p || PyList_Append(params, p) < 0)
                Py_CLEAR(params);
            Py_XDECREF(p);
        }
        for (const char *const *a = pb_planner_impl_aliases(impl); aliases && a && *a; a++) {
            PyObject *s = PyUnicode_FromString(*a);
            if (!s || PyList_Append(aliases, s) < 0)
                Py_CLEAR(aliases);
            Py_XDECREF(s);
        }
        PyObject *d = params && aliases
                          ? Py_BuildValue("{s:s,s:s,s:O,s:N,s:N}", "name", pb_planner_impl_name(impl),
                                          "summary", pb_planner_impl_summary(impl), "anytime",
                                          pb_planner_impl_anytime(impl) ? Py_True : Py_False, "aliases",
                                          aliases, "params", params)
                          : NULL;
        if (!d) {
            Py_XDECREF(params);
            Py_XDECREF(aliases);
        }
        if (!d || PyList_Append(list, d) < 0)
            Py_CLEAR(list);
        Py_XDECREF(d);
    }
    return list;
}

/* ---- solving ---------------------------------------------------------------------------- */

typedef struct solve_watch {
    pb_atomic_flag cancel;
    double next_poll;
    bool interrupted;
    bool python_engine; /* callbacks check signals themselves */
    bool want_tree;
    int dim;
    double *verts; /* tree: vertices (dim each) and edges (2 * dim each) */
    size_t n_verts, cap_verts;
    double *edges;
    size_t n_edges, cap_edges;
    bool oom;
} solve_watch;

static void push(double **buf, size_t *n, size_t *cap, const double *v, size_t k, bool *oom)
{
    if (*n + k > *cap) {
        size_t c = *cap ? *cap * 2 : 1024;
        while (c < *n + k)
            c *= 2;
        double *p = realloc(*buf, c * sizeof(double));
        if (!p) {
            *oom = true;
            return;
        }
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *n, v, k * sizeof(double));
    *n += k;
}

/* Observer: record the tree on request, and every few milliseconds look at Ctrl-C. */
static void watch_event(const pb_event *ev, void *payload)
{
    solve_watch *w = payload;
    if (w->want_tree && ev->type == PB_EVENT_NODE_ADDED && ev->q && !w->oom) {
        push(&w->verts, &w->n_verts, &w->cap_verts, ev->q, (size_t)w->dim, &w->oom);
        if (ev->parent_q && ev->parent != UINT32_MAX) {
            push(&w->edges, &w->n_edges, &w->cap_edges, ev->parent_q, (size_t)w->dim, &w->oom);
            push(&w->edges, &w->n_edges, &w->cap_edges, ev->q, (size_t)w->dim, &w->oom);
        }
    }
    if (w->python_engine)
        return;
    double now = pb_clock_seconds();
    if (now < w->next_poll)
        return;
    w->next_poll = now + 0.005;
    PyGILState_STATE gil = PyGILState_Ensure();
    if (PyErr_CheckSignals() < 0) {
        w->interrupted = true;
        atomic_store(&w->cancel, 1);
    }
    PyGILState_Release(gil);
}

static PyObject *array2(const double *v, size_t rows, int cols)
{
    npy_intp d[2] = {(npy_intp)rows, cols};
    PyObject *a = PyArray_SimpleNew(2, d, NPY_DOUBLE);
    if (a && rows)
        memcpy(PyArray_DATA((PyArrayObject *)a), v, sizeof(double) * rows * (size_t)cols);
    return a;
}

static int set_params(pb_planner *planner, PyObject *params)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (params && PyDict_Next(params, &pos, &key, &value)) {
        const char *name = PyUnicode_AsUTF8(key);
        if (!name)
            return -1;
        double v;
        if (PyBool_Check(value)) {
            v = value == Py_True;
        } else if (PyFloat_Check(value) || PyLong_Check(value) || PyArray_IsScalar(value, Number)) {
            v = PyFloat_AsDouble(value);
            if (v == -1.0 && PyErr_Occurred())
                return -1;
        } else {
            PyErr_Format(error_value, "parameter %s: expected a number or a bool, got a %.100s", name,
                         Py_TYPE(value)->tp_name);
            return -1;
        }
        pb_diag diag = {0};
        if (!pb_planner_has_param(planner, name)) {
            PyErr_Format(error_value, "planner '%s' has no parameter '%s'", pb_planner_name(planner), name);
            return -1;
        }
        if (pb_planner_set_param_double(planner, name, v, &diag) != PB_OK) {
            PyErr_Format(error_value, "parameter %s: %s", name, diag.message);
            return -1;
        }
    }
    return 0;
}

static PyObject *result_dict(const pb_result *r, const pb_engine *engine, solve_watch *w)
{
    const int dim = pb_engine_dim(engine);
    PyObject *trace = PyList_New((Py_ssize_t)r->n_cost_trace);
    for (size_t i = 0; trace && i < r->n_cost_trace; i++)
        PyList_SET_ITEM(trace, (Py_ssize_t)i,
                        Py_BuildValue("(dd)", r->cost_trace[i].time_s, r->cost_trace[i].cost));
    PyObject *extra = PyDict_New();
    for (size_t i = 0; extra && i < r->n_extra; i++) {
        PyObject *v = PyFloat_FromDouble(r->extra[i].value);
        if (!v || PyDict_SetItemString(extra, r->extra[i].name, v) < 0)
            Py_CLEAR(extra);
        Py_XDECREF(v);
    }
    PyObject *tree = Py_None;
    Py_INCREF(tree);
    if (w->want_tree) {
        Py_DECREF(tree);
        PyObject *edges = array2(w->edges, w->n_edges / (size_t)dim, dim);
        if (edges) {
            npy_intp shape[3] = {(npy_intp)(w->n_edges / (size_t)(2 * dim)), 2, dim};
            PyArray_Dims d = {shape, 3};
            PyObject *e3 = PyArray_Newshape((PyArrayObject *)edges, &d, NPY_CORDER);
            Py_DECREF(edges);
            edges = e3;
        }
        tree = edges ? Py_BuildValue("{s:N,s:N}", "vertices", array2(w->verts, w->n_verts / (size_t)dim, dim),
                                     "edges", edges)
                     : NULL;
    }
    PyObject *path = array2(r->path.q, r->path.n, dim);
    if (!trace || !extra || !tree || !path) {
        Py_XDECREF(trace);
        Py_XDECREF(extra);
        Py_XDECREF(tree);
        Py_XDECREF(path);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:d,s:N,s:K,s:K,s:d,s:d,s:d,s:{s:K,s:K,s:K,s:K},s:N,s:N,s:N,s:O}", "outcome",
                         pb_outcome_str(r->outcome), "cost", r->cost, "path", path, "iterations",
                         (unsigned long long)r->iterations, "nodes", (unsigned long long)r->nodes, "time_s",
                         r->time_s, "cpu_s", r->cpu_s, "time_to_first_s", r->time_to_first_s, "counts",
                         "n_feasible", (unsigned long long)r->counters.n_feasible, "n_visible",
                         (unsigned long long)r->counters.n_visible, "n_edge_states",
                         (unsigned long long)r->counters.n_edge_states, "n_pixels",
                         (unsigned long long)r->counters.n_pixels, "cost_trace", trace, "extra", extra,
                         "tree", tree, "interrupted", w->interrupted ? Py_True : Py_False);
}

/* "O&" converter: a non-negative integer (a negative one or a float is an error, not wrapped). */
static int to_count(PyObject *obj, void *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "expected a non-negative integer, got %.100s", Py_TYPE(obj)->tp_name);
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(error_value, "expected a non-negative integer below 2**64, got %R", obj);
        return 0;
    }
    *(unsigned long long *)out = v;
    return 1;
}

static PyObject *mod_plan(PyObject *mod, PyObject *args, PyObject *kwargs)
{
    (void)mod;
    static char *kw[] = {"planner",     "engine",         "start",        "goal",        "seed",
                         "time_limit",  "max_iterations", "max_nodes",    "goal_radius", "first_solution",
                         "approximate", "tree",           "on_interrupt", "params",      NULL};
    const char *name;
    engine_object *eo;
    PyObject *ostart = Py_None, *ogoal = Py_None, *ofirst = Py_None, *params = NULL;
    unsigned long long seed = 1, max_it = 0, max_nodes = 0;
    double time_limit = 10.0, goal_radius = 0.0;
    int approximate = 0, want_tree = 0;
    const char *on_interrupt = "raise";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sO!|OOO&dO&O&dOppsO!:plan", kw, &name, &engine_type, &eo,
                                     &ostart, &ogoal, to_count, &seed, &time_limit, to_count, &max_it,
                                     to_count, &max_nodes, &goal_radius, &ofirst, &approximate, &want_tree,
                                     &on_interrupt, &PyDict_Type, &params))
        return NULL;
    if (!(time_limit >= 0.0) || !isfinite(time_limit)) {
        PyErr_SetString(error_value,
                        "time_limit: must be a non-negative finite number of seconds (0: no limit)");
        return NULL;
    }
    if (!(goal_radius >= 0.0) || !isfinite(goal_radius)) {
        PyErr_SetString(error_value,
                        "goal_radius: must be a positive finite distance (0: the planner's default)");
        return NULL;
    }
    const bool keep_best = strcmp(on_interrupt, "return") == 0;
    if (!keep_best && strcmp(on_interrupt, "raise") != 0) {
        PyErr_SetString(error_value, "on_interrupt: 'raise' or 'return'");
        return NULL;
    }
    const pb_planner_impl *impl = pb_planner_registry_find(name);
    if (!impl) {
        PyObject *names = PyList_New(0), *sep = PyUnicode_FromString(", "), *joined = NULL;
        for (size_t i = 0; names && i < pb_planner_registry_count(); i++) {
            PyObject *n = PyUnicode_FromString(pb_planner_impl_name(pb_planner_registry_get(i)));
            if (!n || PyList_Append(names, n) < 0)
                Py_CLEAR(names);
            Py_XDECREF(n);
        }
        if (names && sep && (joined = PyUnicode_Join(sep, names)))
            PyErr_Format(error_value, "unknown planner '%s' (planners: %U)", name, joined);
        Py_XDECREF(joined);
        Py_XDECREF(sep);
        Py_XDECREF(names);
        return NULL;
    }
    const int dim = eo->dim;
    double start[PB_MAX_DIM], goal[PB_MAX_DIM], ds[PB_MAX_DIM], dg[PB_MAX_DIM];
    const bool has_defaults = pb_engine_defaults(eo->engine, ds, dg);
    if ((ostart == Py_None || ogoal == Py_None) && !has_defaults) {
        PyErr_Format(error_value,
                     "this %s engine has no default start and goal: give them, as in start=..., goal=...",
                     pb_engine_name(eo->engine));
        return NULL;
    }
    if (ostart == Py_None)
        memcpy(start, ds, sizeof start);
    else if (read_config(ostart, dim, start, "start") < 0)
        return NULL;
    if (ogoal == Py_None)
        memcpy(goal, dg, sizeof goal);
    else if (read_config(ogoal, dim, goal, "goal") < 0)
        return NULL;

    const bool python_engine = eo->feasible != NULL;
    if (python_engine && eo->busy) {
        PyErr_SetString(
            error_base,
            "this black-box engine is already planning in another thread; make one engine per thread");
        return NULL;
    }
    pb_engine *engine = eo->engine, *handle = NULL;
    pb_diag diag = {0};
    pb_status s;
    if (!python_engine) { /* a handle of its own, so threads can share an engine */
        if ((s = pb_engine_share(&handle, eo->engine)) != PB_OK)
            return raise_status(s, &diag);
        engine = handle;
    }
    pb_planner *planner = NULL;
    if ((s = pb_planner_create(&planner, name, engine, &diag)) != PB_OK) {
        pb_engine_destroy(handle);
        return raise_status(s, &diag);
    }
    PyObject *out = NULL;
    pb_result result;
    pb_result_init(&result, dim);
    solve_watch w = {.python_engine = python_engine, .want_tree = want_tree, .dim = dim};
    atomic_init(&w.cancel, 0);
    if (set_params(planner, params) < 0)
        goto done;
    pb_planner_set_seed(planner, seed);
    pb_planner_set_observer(planner, watch_event, &w);
    pb_problem problem = {.start = start,
                          .goal = goal,
                          .goal_radius =
                              goal_radius > 0.0 ? goal_radius : pb_planner_default_goal_radius(planner)};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = time_limit;
    stop.max_iterations = max_it;
    stop.max_nodes = max_nodes;
    stop.first_solution = ofirst == Py_None ? !pb_planner_impl_anytime(impl) : PyObject_IsTrue(ofirst) == 1;
    stop.approximate = approximate;
    stop.cancel = &w.cancel;
    if (python_engine) {
        eo->busy = 1;
        eo->cancel = &w.cancel;
    }
    PyThreadState *released = PyEval_SaveThread(); /* callbacks take the GIL back */
    if (!pb_engine_feasible(engine, start))
        result.outcome = PB_OUTCOME_INVALID_START;
    else if (!pb_engine_feasible(engine, goal))
        result.outcome = PB_OUTCOME_INVALID_GOAL;
    else
        s = pb_planner_solve(planner, &problem, &stop, &result);
    PyEval_RestoreThread(released);
    if (python_engine) {
        eo->busy = 0;
        eo->cancel = NULL;
    }
    if (eo->exc_type) { /* a callback raised: that exception, with its traceback */
        PyObject *t = eo->exc_type;
        if (keep_best && PyErr_GivenExceptionMatches(t, PyExc_KeyboardInterrupt)) {
            Py_CLEAR(eo->exc_type);
            Py_CLEAR(eo->exc_value);
            Py_CLEAR(eo->exc_tb);
            w.interrupted = true;
        } else {
            take_callback_error(eo);
            goto done;
        }
    } else if (w.interrupted && !keep_best) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        goto done;
    } else if (w.interrupted) {
        PyErr_Clear();
    }
    if (w.oom) {
        PyErr_NoMemory();
        goto done;
    }
    if (s != PB_OK && !w.interrupted) {
        pb_diag fault = {0};
        if (pb_engine_fault(engine, &fault) != PB_OK)
            PyErr_Format(error_base, "planning failed: %s", fault.message);
        else if (s == PB_ERR_NOMEM)
            PyErr_NoMemory();
        else
            PyErr_Format(error_value, "planning failed: the goal radius %g is not a positive finite distance",
                         problem.goal_radius);
        goto done;
    }
    out = result_dict(&result, engine, &w);
done:
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    pb_engine_destroy(handle);
    free(w.verts);
    free(w.edges);
    return out;
}

/* _bench(script, csv_path, out_dir, jobs, runs, time_limit): run a benchmark script (forked
 * runs, as planbench bench does) and write one CSV row per run. */
static PyObject *mod_bench(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *script_path, *csv_path, *out_dir;
    int jobs;
    unsigned int runs;
    double time_limit;
    if (!PyArg_ParseTuple(args, "sssiId", &script_path, &csv_path, &out_dir, &jobs, &runs, &time_limit))
        return NULL;
    if (access(script_path, R_OK) != 0) {
        PyErr_Format(error_file, "%s: no such file", script_path);
        return NULL;
    }
    pb_diag diag = {0};
    pb_bench_script *script = NULL;
    pb_bench_results *results = NULL;
    pb_status s;
    pb_bench_config config = pb_bench_config_default();
    config.jobs = jobs;
    config.out_dir = out_dir;
    config.runs = runs;
    config.time_limit_s = time_limit;
    PyThreadState *released = PyEval_SaveThread();
    s = pb_bench_script_load(&script, script_path, &diag);
    if (s == PB_OK)
        s = pb_bench_script_check(script, &diag);
    if (s == PB_OK)
        s = pb_bench_run(&results, script, &config, &diag);
    if (s == PB_OK)
        s = pb_bench_save_csv(script, results, csv_path, &diag);
    PyEval_RestoreThread(released);
    pb_bench_results_destroy(results);
    pb_bench_script_destroy(script);
    if (s != PB_OK)
        return raise_status(s, &diag);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_bench", mod_bench, METH_VARARGS, "internal: run a benchmark script into a CSV file"},
    {"load", (PyCFunction)(void (*)(void))mod_load, METH_VARARGS | METH_KEYWORDS,
     "load(path, engine=None, options=None) -> Engine: a map, world or problem file the CLI reads"},
    {"blackbox", (PyCFunction)(void (*)(void))mod_blackbox, METH_VARARGS | METH_KEYWORDS,
     "blackbox(feasible, lower, upper, resolution=0, clearance=None, start=None, goal=None) -> Engine"},
    {"_write_png", mod_write_png, METH_VARARGS, "internal: write a uint8 mask as a PNG map"},
    {"_plan", (PyCFunction)(void (*)(void))mod_plan, METH_VARARGS | METH_KEYWORDS,
     "internal: planbench.plan() without the result wrapper"},
    {"_planners", mod_planners, METH_NOARGS, "internal: the planner registry as dicts"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                                        "_planbench",
                                        "planbench's C extension; use the planbench package.",
                                        -1,
                                        module_methods,
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL};

PyMODINIT_FUNC PyInit__planbench(void);
PyMODINIT_FUNC PyInit__planbench(void)
{
    import_array();
    if (PyType_Ready(&engine_type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    error_base =
        PyErr_NewExceptionWithDoc("planbench.Error", "Base class of planbench's errors.", NULL, NULL);
    PyObject *bases_v = Py_BuildValue("(OO)", error_base, PyExc_ValueError);
    PyObject *bases_f = Py_BuildValue("(OO)", error_base, PyExc_FileNotFoundError);
    error_value =
        PyErr_NewExceptionWithDoc("planbench.InvalidInput", "Bad input (a ValueError).", bases_v, NULL);
    error_file = PyErr_NewExceptionWithDoc(
        "planbench.FileNotFound", "A file that cannot be read (a FileNotFoundError).", bases_f, NULL);
    Py_XDECREF(bases_v);
    Py_XDECREF(bases_f);
    Py_INCREF(&engine_type);
    if (!error_value || !error_file ||
        PyModule_AddObject(m, "Error", (Py_INCREF(error_base), error_base)) < 0 ||
        PyModule_AddObject(m, "InvalidInput", (Py_INCREF(error_value), error_value)) < 0 ||
        PyModule_AddObject(m, "FileNotFound", (Py_INCREF(error_file), error_file)) < 0 ||
        PyModule_AddObject(m, "Engine", (PyObject *)&engine_type) < 0 ||
        PyModule_AddStringConstant(m, "version", pb_version()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
