/* SPDX-License-Identifier: BSD-3-Clause */
/* bind_iface.c: what the C++ extension of Score-P's Python bindings calls in Score-P
 * (scorep_binding_python's src/methods.cpp, src/scorepy/events.cpp), built as that extension is
 * (a shared library with scorep-config's include flags, not linked with the runtime, which is
 * preloaded) and called through ctypes (test_python_bindings_iface.sh). run() defines a
 * region as the bindings do (module:function, its group the module), visits it 3 times,
 * records a string parameter, registers the exit handler again, prints the experiment
 * directory's name, finalizes the measurement and then visits the region once more, which
 * must not be recorded. */
#include <scorep/SCOREP_User_Functions.h>

#include <stdio.h>

/* declared by the bindings themselves (no public Score-P header has them) */
extern const char *SCOREP_GetExperimentDirName(void);
extern void SCOREP_RegisterExitHandler(void);
extern void SCOREP_FinalizeMeasurement(void);

int run(void);

int run(void)
{
    static SCOREP_User_RegionHandle region = SCOREP_USER_INVALID_REGION;
    static SCOREP_User_ParameterHandle param = SCOREP_USER_INVALID_PARAMETER;
    SCOREP_User_RegionInit(&region, NULL, NULL, "__main__:foo", SCOREP_USER_REGION_TYPE_FUNCTION,
                           "/work/foo.py", 3);
    SCOREP_User_RegionSetGroup(region, "__main__");
    for (int i = 0; i < 3; i++) {
        SCOREP_User_RegionEnter(region);
        SCOREP_User_RegionEnd(region);
    }
    SCOREP_User_RegionEnter(region);
    SCOREP_User_ParameterString(&param, "leave-region", "foo");
    SCOREP_User_RegionEnd(region);
    SCOREP_User_DisableRecording();
    SCOREP_User_EnableRecording();
    SCOREP_RegisterExitHandler();
    printf("experiment %s\n", SCOREP_GetExperimentDirName());
    fflush(stdout);
    SCOREP_FinalizeMeasurement();
    SCOREP_User_RegionEnter(region); /* after the end: not recorded */
    SCOREP_User_RegionEnd(region);
    return 0;
}
