/* The compiled tier's reads of a State's slots (interpreter/accel/rulesets.py compiles a
 * ruleset's module with it; expr/names.py writes the reads as _rb_get(S, 'z_hand')).
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
 * And rb_at, an item of a list or tuple read by a small index (expr/names.py item_read).
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

/* An item of a list or tuple read by a whole number of one digit (a seat, a card), at once;
 * anything else (a negative or large index, out of range, another kind of sequence) as
 * Python reads it, PyObject_GetItem, with its errors. */
static inline PyObject *rb_at(PyObject *seq, PyObject *index) {
    if (PyLong_CheckExact(index)) {
#if PY_VERSION_HEX < 0x030C0000
        Py_ssize_t digits = Py_SIZE(index);   /* (its sign and number of digits) */
        Py_ssize_t i = digits == 1 ? (Py_ssize_t)((PyLongObject *)index)->ob_digit[0] : digits == 0 ? 0 : -1;
#else
        Py_ssize_t i = PyUnstable_Long_IsCompact((PyLongObject *)index)
            ? PyUnstable_Long_CompactValue((PyLongObject *)index) : -1;
#endif
        PyObject *item = NULL;
        if (i >= 0 && PyList_CheckExact(seq) && i < PyList_GET_SIZE(seq))
            item = PyList_GET_ITEM(seq, i);
        else if (i >= 0 && PyTuple_CheckExact(seq) && i < PyTuple_GET_SIZE(seq))
            item = PyTuple_GET_ITEM(seq, i);
        if (item != NULL) {
            Py_INCREF(item);
            return item;
        }
    }
    return PyObject_GetItem(seq, index);
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
