/* SPDX-License-Identifier: BSD-3-Clause */
/* user_fortran.c: the Fortran entry points called by the macros of SCOREP_User.inc, with
 * Score-P's names (scorep_f_begin, ...) and gfortran's conventions: arguments by reference,
 * one hidden length (size_t) per CHARACTER argument at the end. */
#include "adapters/user/user_adapter.h"
#include "core/events.h"
#include "runtime/runtime.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

/* Fortran handles are INTEGER*8 initialised to -1 (SCOREP_USER_INVALID_* in the .inc). */
typedef int64_t fhandle;
#define F_INVALID ((fhandle)-1)

/* Each entry point under the four spellings Fortran compilers use (Score-P exports the same
 * four): lower case with one and two underscores, lower case plain, upper case plain. The
 * function itself is defined as lower_ (gfortran's). */
#define F_ALIASES(lower, upper, params)                                                            \
    API void lower params __attribute__((alias(#lower "_")));                                      \
    API void lower##__ params __attribute__((alias(#lower "_")));                                  \
    API void upper params __attribute__((alias(#lower "_")));

/* A Fortran string as a C string: trailing blanks dropped (a CHARACTER variable is padded to
 * its declared length), copied to the stack unless long. */
typedef struct {
    char *s;
    char small[256];
} cstr;

static const char *cstr_from(cstr *c, const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    c->s = len < sizeof c->small ? c->small : malloc(len + 1);
    if (!c->s)
        return NULL;
    memcpy(c->s, f, len);
    c->s[len] = '\0';
    return c->s;
}

static void cstr_free(cstr *c)
{
    if (c->s != c->small)
        free(c->s);
}

static SCOREP_User_RegionHandle region_of(const fhandle *h)
{
    fhandle v = __atomic_load_n(h, __ATOMIC_ACQUIRE);
    return v == F_INVALID ? SCOREP_USER_INVALID_REGION : (SCOREP_User_RegionHandle)(intptr_t)v;
}

/* ---------------------------------------------------------------- regions */
/* As in Score-P, Fortran regions are identified by name: every handle initialised with the
 * same name refers to the same region. */
API void scorep_f_init_(fhandle *handle, const char *name, const int32_t *type, const char *file,
                        const int32_t *line, size_t name_len, size_t file_len)
{
    if (region_of(handle))
        return;
    cstr n, f;
    const char *cn = cstr_from(&n, name, name_len);
    const char *cf = cstr_from(&f, file, file_len);
    struct SCOREP_User_Region *r =
        cn && cf
            ? scorep_user_region_by_name(cn, (SCOREP_User_RegionType)*type, cf, (uint32_t)*line)
            : NULL;
    if (r)
        __atomic_store_n(handle, (fhandle)(intptr_t)r, __ATOMIC_RELEASE);
    cstr_free(&n);
    cstr_free(&f);
}
F_ALIASES(scorep_f_init, SCOREP_F_INIT,
          (fhandle *, const char *, const int32_t *, const char *, const int32_t *, size_t, size_t))

/* sp: where the region is begun, the Fortran function's stack pointer (the entry point's
 * CFA, + SCOREP_USER_STACK_ARGS for a seventh argument): a jump out of that function leaves
 * the region (docs/design.md, "Jumps out of calls"). Each entry point computes its own:
 * one that calls another would record its own frame, below the program's. */
static void f_begin(fhandle *handle, const char *name, const int32_t *type, const char *file,
                    const int32_t *line, size_t name_len, size_t file_len, uintptr_t sp)
{
    if (!region_of(handle))
        scorep_f_init_(handle, name, type, file, line, name_len, file_len);
    scorep_user_region_enter(region_of(handle), sp);
}

API void scorep_f_begin_(fhandle *handle, const char *name, const int32_t *type, const char *file,
                         const int32_t *line, size_t name_len, size_t file_len)
{
    f_begin(handle, name, type, file, line, name_len, file_len,
            SCOREP_USER_BEGIN_SP(SCOREP_USER_STACK_ARGS));
}
F_ALIASES(scorep_f_begin, SCOREP_F_BEGIN,
          (fhandle *, const char *, const int32_t *, const char *, const int32_t *, size_t, size_t))

/* An uninitialised handle gets SCOREP_User_RegionEnter's message. */
API void scorep_f_regionenter_(const fhandle *handle)
{
    SCOREP_User_RegionHandle h = region_of(handle);
    if (!h)
        SCOREP_User_RegionEnter(h); /* its message */
    else
        scorep_user_region_enter(h, SCOREP_USER_BEGIN_SP(0));
}
F_ALIASES(scorep_f_regionenter, SCOREP_F_REGIONENTER, (const fhandle *))

API void scorep_f_regionend_(const fhandle *handle)
{
    SCOREP_User_RegionEnd(region_of(handle));
}
F_ALIASES(scorep_f_regionend, SCOREP_F_REGIONEND, (const fhandle *))

API void scorep_f_regionbynamebegin_(const char *name, const int32_t *type, const char *file,
                                     const int32_t *line, size_t name_len, size_t file_len)
{
    cstr n, f;
    const char *cn = cstr_from(&n, name, name_len);
    const char *cf = cstr_from(&f, file, file_len);
    if (cn && cf) /* six arguments: all in registers, the CFA is the caller's sp */
        scorep_user_region_by_name_begin(cn, (SCOREP_User_RegionType)*type, cf, (uint32_t)*line,
                                         SCOREP_USER_BEGIN_SP(0));
    cstr_free(&n);
    cstr_free(&f);
}
F_ALIASES(scorep_f_regionbynamebegin, SCOREP_F_REGIONBYNAMEBEGIN,
          (const char *, const int32_t *, const char *, const int32_t *, size_t, size_t))

API void scorep_f_regionbynameend_(const char *name, size_t name_len)
{
    cstr n;
    const char *cn = cstr_from(&n, name, name_len);
    if (cn)
        SCOREP_User_RegionByNameEnd(cn);
    cstr_free(&n);
}
F_ALIASES(scorep_f_regionbynameend, SCOREP_F_REGIONBYNAMEEND, (const char *, size_t))

/* ------------------------------------------------------ phases and rewind */
API void scorep_f_oabegin_(fhandle *handle, const char *name, const int32_t *type, const char *file,
                           const int32_t *line, size_t name_len, size_t file_len)
{
    f_begin(handle, name, type, file, line, name_len, file_len,
            SCOREP_USER_BEGIN_SP(SCOREP_USER_STACK_ARGS));
}
F_ALIASES(scorep_f_oabegin, SCOREP_F_OABEGIN,
          (fhandle *, const char *, const int32_t *, const char *, const int32_t *, size_t, size_t))

API void scorep_f_oaend_(const fhandle *handle)
{
    SCOREP_User_OaPhaseEnd(region_of(handle));
}
F_ALIASES(scorep_f_oaend, SCOREP_F_OAEND, (const fhandle *))

API void scorep_f_rewindbegin_(fhandle *handle, const char *name, const int32_t *type,
                               const char *file, const int32_t *line, size_t name_len,
                               size_t file_len)
{
    if (!region_of(handle))
        scorep_f_init_(handle, name, type, file, line, name_len, file_len);
    SCOREP_User_RewindRegionEnter(region_of(handle));
}
F_ALIASES(scorep_f_rewindbegin, SCOREP_F_REWINDBEGIN,
          (fhandle *, const char *, const int32_t *, const char *, const int32_t *, size_t, size_t))

/* value: a default LOGICAL; any non-zero representation counts as .true. */
API void scorep_f_rewindregionend_(const fhandle *handle, const int32_t *value)
{
    SCOREP_User_RewindRegionEnd(region_of(handle), *value != 0);
}
F_ALIASES(scorep_f_rewindregionend, SCOREP_F_REWINDREGIONEND, (const fhandle *, const int32_t *))

/* ------------------------------------------------------------- parameters */
/* The INTEGER*8 parameter handle has the C handle's representation (-1 = undefined), so the
 * C functions use it directly. The name is converted only while the handle is undefined. */
static const char *param_name(cstr *c, const fhandle *handle, const char *name, size_t len)
{
    c->s = c->small;
    c->small[0] = '\0';
    return *handle == F_INVALID ? cstr_from(c, name, len) : c->small;
}

API void scorep_f_parameterint64_(fhandle *handle, const char *name, const int64_t *value,
                                  size_t name_len)
{
    cstr n;
    const char *cn = param_name(&n, handle, name, name_len);
    if (cn)
        SCOREP_User_ParameterInt64((SCOREP_User_ParameterHandle *)handle, cn, *value);
    cstr_free(&n);
}
F_ALIASES(scorep_f_parameterint64, SCOREP_F_PARAMETERINT64,
          (fhandle *, const char *, const int64_t *, size_t))

API void scorep_f_parameteruint64_(fhandle *handle, const char *name, const uint64_t *value,
                                   size_t name_len)
{
    cstr n;
    const char *cn = param_name(&n, handle, name, name_len);
    if (cn)
        SCOREP_User_ParameterUint64((SCOREP_User_ParameterHandle *)handle, cn, *value);
    cstr_free(&n);
}
F_ALIASES(scorep_f_parameteruint64, SCOREP_F_PARAMETERUINT64,
          (fhandle *, const char *, const uint64_t *, size_t))

API void scorep_f_parameterstring_(fhandle *handle, const char *name, const char *value,
                                   size_t name_len, size_t value_len)
{
    cstr n, v;
    const char *cn = param_name(&n, handle, name, name_len);
    const char *cv = cstr_from(&v, value, value_len);
    if (cn && cv)
        SCOREP_User_ParameterString((SCOREP_User_ParameterHandle *)handle, cn, cv);
    cstr_free(&n);
    cstr_free(&v);
}
F_ALIASES(scorep_f_parameterstring, SCOREP_F_PARAMETERSTRING,
          (fhandle *, const char *, const char *, size_t, size_t))

/* ---------------------------------------------------------------- metrics */
/* The INTEGER*8 metric handle holds the C sampling set handle, or -1 before INIT. */
static SCOREP_SamplingSetHandle metric_of(const fhandle *h)
{
    return *h == F_INVALID ? SCOREP_INVALID_SAMPLING_SET : (SCOREP_SamplingSetHandle)*h;
}

API void scorep_f_initmetric_(fhandle *handle, const char *name, const char *unit,
                              const int32_t *type, const int32_t *context, size_t name_len,
                              size_t unit_len)
{
    if (metric_of(handle) != SCOREP_INVALID_SAMPLING_SET)
        return;
    cstr n, u;
    const char *cn = cstr_from(&n, name, name_len);
    const char *cu = cstr_from(&u, unit, unit_len);
    SCOREP_SamplingSetHandle s = SCOREP_INVALID_SAMPLING_SET;
    if (cn && cu)
        SCOREP_User_InitMetric(&s, cn, cu, (SCOREP_User_MetricType)*type, (int8_t)*context);
    if (s != SCOREP_INVALID_SAMPLING_SET)
        *handle = (fhandle)s;
    cstr_free(&n);
    cstr_free(&u);
}
F_ALIASES(scorep_f_initmetric, SCOREP_F_INITMETRIC,
          (fhandle *, const char *, const char *, const int32_t *, const int32_t *, size_t, size_t))

API void scorep_f_metricint64_(const fhandle *handle, const int64_t *value)
{
    SCOREP_User_TriggerMetricInt64(metric_of(handle), *value);
}
F_ALIASES(scorep_f_metricint64, SCOREP_F_METRICINT64, (const fhandle *, const int64_t *))

API void scorep_f_metricuint64_(const fhandle *handle, const uint64_t *value)
{
    SCOREP_User_TriggerMetricUint64(metric_of(handle), *value);
}
F_ALIASES(scorep_f_metricuint64, SCOREP_F_METRICUINT64, (const fhandle *, const uint64_t *))

API void scorep_f_metricdouble_(const fhandle *handle, const double *value)
{
    SCOREP_User_TriggerMetricDouble(metric_of(handle), *value);
}
F_ALIASES(scorep_f_metricdouble, SCOREP_F_METRICDOUBLE, (const fhandle *, const double *))

/* -------------------------------------------------------------- recording */
API void scorep_f_enablerecording_(void)
{
    SCOREP_User_EnableRecording();
}
F_ALIASES(scorep_f_enablerecording, SCOREP_F_ENABLERECORDING, (void))

API void scorep_f_disablerecording_(void)
{
    SCOREP_User_DisableRecording();
}
F_ALIASES(scorep_f_disablerecording, SCOREP_F_DISABLERECORDING, (void))

/* isOn: a default INTEGER, 1 while recording, else 0 (Score-P's documented convention). */
API void scorep_f_recordingenabled_(int32_t *enabled)
{
    *enabled = SCOREP_User_RecordingEnabled() ? 1 : 0;
}
F_ALIASES(scorep_f_recordingenabled, SCOREP_F_RECORDINGENABLED, (int32_t *))
