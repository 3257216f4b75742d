/* The compiled tier's reads of a State's slots (interpreter/accel/rulesets.py compiles a
 * ruleset's module with it; expr/cdialect.py names the calls: _rb_get(S, 'z_hand')).
 *
 * Cython compiles S.z_hand to the type's generic attribute lookup, every time: the type's
 * method cache, the slot's descriptor, its checks. Here each place that reads a slot keeps
 * the State type it last saw, with that type's version tag and the slot's offset, and reads
 * the slot at the offset while the object is of that type and the type is unchanged (a class
 * attribute assigned changes the tag). Anything else (another type, a name that is not a
 * plain slot, an empty slot, a type whose attribute lookup is its own) takes the ordinary
 * lookup, PyObject_GetAttr, with its errors: the object behaves as it does in Python.
 * rb_set writes a slot the same way (expr/names.py state_write: _rb_set(S, 'v_x', value)),
 * where the type's attribute assignment is the generic one; anything else as Python assigns.
 * And rb_at, an item of a list or tuple read by a small index (expr/cdialect.py item_read);
 * rb_take_sorted, rb_insort and rb_remove, a card moved (below).
 */
#ifndef RULEBOOK_SLOTS_H
#define RULEBOOK_SLOTS_H

#include <Python.h>
#include <structmember.h>

typedef struct {
    PyTypeObject *type;      /* (borrowed: the tag says whether it is still the type seen) */
    unsigned int tag;        /* its tp_version_tag then; 0: nothing cached */
    Py_ssize_t offset;       /* of the slot in an instance */
} rb_site;

/* Find where `name` lives in instances of o's type; false when it is not a plain slot
 * (or the type has no version tag to watch it by, or reads or writes it (`writing`) by a
 * method of its own). */
static int rb_resolve(rb_site *site, PyObject *o, PyObject *name, int writing) {
    PyTypeObject *tp = Py_TYPE(o);
    PyObject *descr;
    PyMemberDef *member;
    site->tag = 0;
    if (tp->tp_getattro != PyObject_GenericGetAttr || !PyUnicode_CheckExact(name)
            || (writing && tp->tp_setattro != PyObject_GenericSetAttr))
        return 0;
    descr = _PyType_Lookup(tp, name);   /* (borrowed; assigns the type a version tag) */
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type)
        return 0;
    member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX || member->flags != 0 || tp->tp_version_tag == 0)
        return 0;
    site->type = tp;
    site->tag = tp->tp_version_tag;
    site->offset = member->offset;
    return 1;
}

static inline PyObject *rb_get(rb_site *site, PyObject *o, PyObject *name) {
    PyTypeObject *tp = Py_TYPE(o);
    if ((tp == site->type && site->tag != 0 && tp->tp_version_tag == site->tag) || rb_resolve(site, o, name, 0)) {
        PyObject *value = *(PyObject **)((char *)o + site->offset);
        if (value != NULL) {
            Py_INCREF(value);
            return value;
        }
    }
    return PyObject_GetAttr(o, name);   /* (an empty slot: its AttributeError) */
}

/* o.name = value: at the slot's offset, as rb_get reads it; else PyObject_SetAttr. */
static inline int rb_set(rb_site *site, PyObject *o, PyObject *name, PyObject *value) {
    PyTypeObject *tp = Py_TYPE(o);
    if ((tp == site->type && site->tag != 0 && tp->tp_version_tag == site->tag) || rb_resolve(site, o, name, 1)) {
        PyObject **at = (PyObject **)((char *)o + site->offset);
        PyObject *old = *at;
        Py_INCREF(value);
        *at = value;
        Py_XDECREF(old);   /* (last: the old value's finalizer may run any code) */
        return 0;
    }
    return PyObject_SetAttr(o, name, value);
}

/* The value of o where it is a whole number of one digit of exactly the int type and not
 * negative (a seat, a card); else -1. */
static inline Py_ssize_t rb_index(PyObject *o) {
    if (!PyLong_CheckExact(o))
        return -1;
#if PY_VERSION_HEX < 0x030C0000
    {
        Py_ssize_t digits = Py_SIZE(o);   /* (its sign and number of digits) */
        return digits == 1 ? (Py_ssize_t)((PyLongObject *)o)->ob_digit[0] : digits == 0 ? 0 : -1;
    }
#else
    return PyUnstable_Long_IsCompact((PyLongObject *)o) ? PyUnstable_Long_CompactValue((PyLongObject *)o) : -1;
#endif
}

/* An item of a list or tuple read by a whole number of one digit (a seat, a card), at once;
 * anything else (a negative or large index, out of range, another kind of sequence) as
 * Python reads it, PyObject_GetItem, with its errors. */
static inline PyObject *rb_at(PyObject *seq, PyObject *index) {
    Py_ssize_t i = rb_index(index);
    if (i >= 0) {
        PyObject *item = NULL;
        if (PyList_CheckExact(seq) && i < PyList_GET_SIZE(seq))
            item = PyList_GET_ITEM(seq, i);
        else if (PyTuple_CheckExact(seq) && i < PyTuple_GET_SIZE(seq))
            item = PyTuple_GET_ITEM(seq, i);
        if (item != NULL) {
            Py_INCREF(item);
            return item;
        }
    }
    return PyObject_GetItem(seq, index);
}

/* The moves of cards (expr/cdialect.py sorted_take, sorted_put, list_take): in a list of
 * rb_index's numbers, compared by their values in C, where Python would call int's comparison
 * through the generic protocol. Ints compared have no side effects, so where anything else is
 * met (another kind of card or list, an item that is no such number) the move starts again as
 * Python makes it, `python` (expr/runtime.py _remove_sorted, bisect.insort) or list.remove,
 * with its errors. */

/* Where the card `card` goes in a list kept in order, as bisect_left (right: bisect_right)
 * finds it; -1 where an item compared is not a whole number of one digit. */
static Py_ssize_t rb_bisect(PyObject *list, Py_ssize_t card, int right) {
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(list), mid, value;
    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if ((value = rb_index(PyList_GET_ITEM(list, mid))) < 0)
            return -1;
        if (right ? card < value : card <= value)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static int rb_python(PyObject *python, PyObject *seq, PyObject *card) {
    PyObject *done = PyObject_CallFunctionObjArgs(python, seq, card, NULL);
    if (done == NULL)
        return -1;
    Py_DECREF(done);
    return 0;
}

/* _remove_sorted(seq, card): the card found by bisection and deleted. */
static int rb_take_sorted(PyObject *seq, PyObject *card, PyObject *python) {
    Py_ssize_t c = rb_index(card), i;
    if (c >= 0 && PyList_CheckExact(seq) && (i = rb_bisect(seq, c, 0)) >= 0
            && i < PyList_GET_SIZE(seq) && rb_index(PyList_GET_ITEM(seq, i)) == c)
        return PyList_SetSlice(seq, i, i + 1, NULL);
    return rb_python(python, seq, card);   /* (not there too: list.remove's error) */
}

/* bisect.insort(seq, card): after the cards equal to it. */
static int rb_insort(PyObject *seq, PyObject *card, PyObject *python) {
    Py_ssize_t c = rb_index(card), i;
    if (c >= 0 && PyList_CheckExact(seq) && (i = rb_bisect(seq, c, 1)) >= 0)
        return PyList_Insert(seq, i, card);
    return rb_python(python, seq, card);
}

/* seq.remove(card): the first item that is the card, or a number of one digit equal to it;
 * at another item (which Python compares by its own __eq__), or none found, list.remove. */
static int rb_remove(PyObject *seq, PyObject *card) {
    static PyObject *name = NULL;
    PyObject *done;
    Py_ssize_t c = rb_index(card), i, value;
    if (PyList_CheckExact(seq)) {
        for (i = 0; i < PyList_GET_SIZE(seq); i++) {
            PyObject *item = PyList_GET_ITEM(seq, i);
            if (item == card)
                return PyList_SetSlice(seq, i, i + 1, NULL);
            if (c < 0 || (value = rb_index(item)) < 0)
                break;
            if (value == c)
                return PyList_SetSlice(seq, i, i + 1, NULL);
        }
    }
    if (name == NULL && (name = PyUnicode_InternFromString("remove")) == NULL)
        return -1;
    done = PyObject_CallMethodOneArg(seq, name, card);
    if (done == NULL)
        return -1;
    Py_DECREF(done);
    return 0;
}

#if defined(__GNUC__) || defined(__clang__)
/* one cache for each place that reads (a static of its own at each expansion) */
#define RB_GET(o, name) __extension__ ({ static rb_site rb_site_; rb_get(&rb_site_, (o), (name)); })
#define RB_SET(o, name, value) __extension__ ({ static rb_site rb_site_; rb_set(&rb_site_, (o), (name), (value)); })
#else
#define RB_GET(o, name) PyObject_GetAttr((o), (name))
#define RB_SET(o, name, value) PyObject_SetAttr((o), (name), (value))
#endif

#endif
