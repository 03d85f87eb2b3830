# SPDX-License-Identifier: BSD-3-Clause
# idioms.py: Score-P's user idioms of its Python bindings (test_python_user.sh): a user
# region as context manager, @region() and @region("name") on functions, parameters, and the
# instrumenter switched off and on around blocks (with and without a region name).
import scorep.instrumenter
import scorep.user


def work():
    return 1


@scorep.user.region()
def decorated():
    return work()


@scorep.user.region("named")
def named():
    return 2


with scorep.user.region("phase"):
    work()
for _ in range(2):
    decorated()
named()
with scorep.user.region("params"):
    # parameters nest in the call path until the enclosing region ends (Score-P's semantics)
    scorep.user.parameter_int("iterations", 3)
    scorep.user.parameter_uint("count", 4)
    scorep.user.parameter_string("mode", "fast")
with scorep.instrumenter.disable():
    work()
with scorep.instrumenter.disable("quiet"):
    work()
with scorep.instrumenter.enable():
    work()
with scorep.instrumenter.enable("loud"):
    work()
print("done")
