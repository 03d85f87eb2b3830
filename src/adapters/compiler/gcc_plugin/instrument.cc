/* SPDX-License-Identifier: BSD-3-Clause */
// instrument.cc: the instrumentation of `scorep-cc --instrument=plugin`: per function a static
// region descriptor (plugin_region.h) and an inline throttle check at entry, a leave at exit.
#include <gcc-plugin.h>
#include <tree.h>
#include <tree-pass.h>
#include <context.h>
#include <function.h>
#include <basic-block.h>
#include <gimple.h>
#include <gimple-iterator.h>
#include <predict.h>
#include <gimple-predict.h>
#include <gimple-expr.h>
#include <stringpool.h>
#include <stor-layout.h>
#include <varasm.h>
#include <cgraph.h>
#include <ggc.h>
#include <attribs.h>
#include <internal-fn.h>
#include <options.h>

#include "base/arch.h" // SCOREP_PORTABLE

// The %fs: count is a matter of the compiler's TARGET, not of the machine the plugin runs on:
// a cross gcc on x86-64 for AArch64 loads a plugin built for x86-64 (__x86_64__ is defined)
// into code for AArch64. DEFAULT_TLS_SEG_REG comes only with gcc's i386 target headers (tm.h,
// through gcc-plugin.h); a portable build (base/arch.h) never counts by asm.
#if defined(DEFAULT_TLS_SEG_REG) && !SCOREP_PORTABLE
#define SCOREP_GCC_TARGET_X86 1
#include <tm_p.h> // ADDR_SPACE_SEG_FS
#else
#define SCOREP_GCC_TARGET_X86 0
#endif

#include <unordered_map>
#include <utility>

#include "adapters/compiler/gcc_plugin/plugin.h"
#include "adapters/compiler/plugin_region.h"

unsigned scorep_gcc_link_rule = SCOREP_GCC_DEFAULT_THRESHOLD + 1;
bool scorep_gcc_late_wanted = false;

// Trees made once per compilation; a GGC root keeps the collector off them.
enum { T_REGION_TYPE, T_FLAGS, T_ENTER, T_LEAVE, T_PENDING, T_SLOT_PTR, T_COUNT };
static tree trees[T_COUNT];
static const struct ggc_root_tab roots[] = {
    {trees, T_COUNT, sizeof trees[0], &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
    LAST_GGC_ROOT_TAB};

static tree field(tree *chain, const char *name, tree type)
{
    tree f = build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(name), type);
    DECL_CHAIN(f) = *chain;
    *chain = f;
    return f;
}

// The C layout of scorep_plugin_region, field for field.
static void build_region_type(void)
{
    tree type = make_node(RECORD_TYPE), chain = NULL_TREE;
    field(&chain, "name", const_ptr_type_node);
    field(&chain, "mangled", const_ptr_type_node);
    field(&chain, "file", const_ptr_type_node);
    field(&chain, "line", unsigned_type_node);
    field(&chain, "handle", unsigned_type_node); // read by the runtime only
    trees[T_FLAGS] = field(&chain, "flags", long_long_unsigned_type_node);
    field(&chain, "next", ptr_type_node);
    finish_builtin_struct(type, "scorep_plugin_region", chain, NULL_TREE);
    trees[T_REGION_TYPE] = type;
}

static tree runtime_function(const char *name)
{
    tree fn =
        build_fn_decl(name, build_function_type_list(void_type_node, ptr_type_node, NULL_TREE));
    TREE_NOTHROW(fn) = 1; // no EH edges at every instrumented entry
    DECL_ATTRIBUTES(fn) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
    return fn;
}

// extern __thread uint64_t scorep_throttle_slots_v3[1 + SLOTS] (initial-exec)
static tree pending_array(void)
{
    tree type = build_array_type(long_long_unsigned_type_node,
                                 build_index_type(size_int(SCOREP_PLUGIN_SLOTS)));
    tree v =
        build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("scorep_throttle_slots_v3"), type);
    TREE_PUBLIC(v) = 1;
    DECL_EXTERNAL(v) = 1;
    DECL_ARTIFICIAL(v) = 1;
    set_decl_tls_model(v, TLS_MODEL_INITIAL_EXEC);
    return v;
}

static tree string_value(const char *s)
{
    return build_string_literal(strlen(s) + 1, s);
}

// static scorep_plugin_region descriptor = {name, mangled, file, line, 0, 0, NULL}; named
// scorep_region_descr.SERIAL.RULE.MANGLED: gcc -flto's link step reads the function it belongs
// to and the link rule (scorep_gcc_link_rule) from the name, which every partition has.
static tree build_descriptor(const char *name, const char *mangled, const char *file, int line)
{
    tree type = trees[T_REGION_TYPE];
    vec<constructor_elt, va_gc> *v = NULL;
    tree f = TYPE_FIELDS(type);
    CONSTRUCTOR_APPEND_ELT(v, f, string_value(name));
    CONSTRUCTOR_APPEND_ELT(v, f = DECL_CHAIN(f), string_value(mangled));
    CONSTRUCTOR_APPEND_ELT(v, f = DECL_CHAIN(f), string_value(file));
    CONSTRUCTOR_APPEND_ELT(v, f = DECL_CHAIN(f), build_int_cst(unsigned_type_node, line));
    static unsigned serial;
    char *id = xasprintf("scorep_region_descr.%u.%u.%s", serial++, scorep_gcc_link_rule, mangled);
    tree d = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(id), type);
    free(id);
    TREE_STATIC(d) = 1;
    TREE_PUBLIC(d) = 0;
    DECL_ARTIFICIAL(d) = 1;
    DECL_IGNORED_P(d) = 1;
    TREE_ADDRESSABLE(d) = 1;
    TREE_USED(d) = 1;
    SET_DECL_ALIGN(d, 64 * BITS_PER_UNIT); // its own cache line: written only when throttled
    DECL_USER_ALIGN(d) = 1;
    DECL_INITIAL(d) = build_constructor(type, v);
    varpool_node::finalize_decl(d);
    return d;
}

static tree pending_ref(tree index)
{
    tree arr = trees[T_PENDING];
    return build4(ARRAY_REF, long_long_unsigned_type_node, arr, index, NULL_TREE, NULL_TREE);
}

tree scorep_gcc_pending_ref(tree index)
{
    // after inlining, the symbol table has dropped the array if no body used it so far, and
    // with it the TLS model (DECL_THREAD_LOCAL_P asks the varpool node)
    if (varpool_node::get(trees[T_PENDING]) == NULL)
        set_decl_tls_model(trees[T_PENDING], TLS_MODEL_INITIAL_EXEC);
    return pending_ref(index);
}

tree scorep_gcc_enter_fn(void)
{
    return trees[T_ENTER];
}

tree scorep_gcc_leave_fn(void)
{
    return trees[T_LEAVE];
}

static void add(gimple_seq *seq, gimple *g, location_t loc)
{
    gimple_set_location(g, loc);
    gimple_seq_add_stmt(seq, g);
}

// x86-64 (not -m32, -mx32): the state word is the slot's offset from the thread pointer
// (plugin_region.h), and the count is an asm of one instruction, addq $1 to the slot as
// `%fs:(word)` (base-only: the v2 scheme's `%fs:(%rsi,%rdx,8)` cost 1.3 ns more per call on an
// Intel Xeon), whose zero flag is the asm's output (=@ccz). gcc does not fold its own load, add,
// store and compare into that instruction, and written as `n = pending[f] + 1; ...; if (n == 0)`
// its register allocator kept a frame on the throttled path of tiny functions (a push and pop
// of the caller's registers on every call: docs/design-reduction.md, "throttled calls").
static bool count_by_asm(void)
{
#if SCOREP_GCC_TARGET_X86 // and 64-bit pointers: not -m32, -mx32
    return TYPE_PRECISION(ptr_type_node) == 64;
#else
    return false;
#endif
}

bool scorep_gcc_count_by_asm(void)
{
    return count_by_asm();
}

unsigned scorep_gcc_bit_shift(void)
{
    return count_by_asm() ? SCOREP_PLUGIN_BIT_SHIFT_TP : SCOREP_PLUGIN_BIT_SHIFT_INDEX;
}

// uint64_t __seg_fs *: the slot in gcc's named address space of %fs (ADDR_SPACE_SEG_FS)
static tree slot_ptr_type(void)
{
#if SCOREP_GCC_TARGET_X86
    tree slot = build_qualified_type(long_long_unsigned_type_node,
                                     ENCODE_QUAL_ADDR_SPACE(ADDR_SPACE_SEG_FS));
    return build_pointer_type(slot);
#else
    return NULL_TREE;
#endif
}

tree scorep_gcc_slot_ptr_type(void)
{
    return trees[T_SLOT_PTR];
}

static tree asm_operand(const char *constraint, tree value)
{
    tree c = build_string(strlen(constraint) + 1, constraint);
    return build_tree_list(build_tree_list(NULL_TREE, c), value);
}

// *slot, slot of scorep_gcc_slot_ptr_type(): a memory operand that prints as %fs:(reg)
static tree slot_ref(tree slot)
{
    tree type = TREE_TYPE(TREE_TYPE(slot));
    return build2(MEM_REF, type, slot, build_int_cst(TREE_TYPE(slot), 0));
}

gimple *scorep_gcc_count_asm(tree slot, tree first)
{
    vec<tree, va_gc> *outputs = NULL, *inputs = NULL;
    vec_safe_push(outputs, asm_operand("=@ccz", first));
    vec_safe_push(outputs, asm_operand("=m", slot_ref(slot)));
    vec_safe_push(inputs, asm_operand("m", slot_ref(slot))); // read too
    // {AT&T|Intel}: the dialect of -masm=
    return gimple_build_asm_vec("add{q $1, %1| %1, 1}", inputs, outputs, NULL, NULL);
}

// first = (++slot == 0), where a settled slot holds all ones: on x86-64 the asm on the slot
// at %fs:(flags), elsewhere pending[flags]
static void increment(gimple_seq *seq, tree flags, tree first, location_t loc)
{
    if (count_by_asm()) {
        tree slot = create_tmp_var(trees[T_SLOT_PTR], "scorep_slot");
        add(seq, gimple_build_assign(slot, NOP_EXPR, flags), loc);
        add(seq, scorep_gcc_count_asm(slot, first), loc);
        return;
    }
    tree index = create_tmp_var(sizetype, "scorep_index");
    add(seq, gimple_build_assign(index, NOP_EXPR, flags), loc); // flags is the slot
    tree old = create_tmp_var(long_long_unsigned_type_node, "scorep_pending");
    add(seq, gimple_build_assign(old, pending_ref(index)), loc);
    tree count = create_tmp_var(long_long_unsigned_type_node, "scorep_pending");
    add(seq,
        gimple_build_assign(count, PLUS_EXPR, old, build_int_cst(long_long_unsigned_type_node, 1)),
        loc);
    add(seq, gimple_build_assign(pending_ref(index), count), loc);
    add(seq,
        gimple_build_assign(first, EQ_EXPR, count, build_zero_cst(long_long_unsigned_type_node)),
        loc);
}

// The throttled path: first = (++slot == 0); and only when first (the slot's first call since
// the thread's last settle, which leaves it at all ones): pending[0] |= 1 << ((flags >> shift)
// & 63), the bit the runtime maps back to the slot. One store per call; the state word is used
// as loaded (no mask, no widening).
static void count_throttled(gimple_seq *seq, tree flags, location_t loc)
{
    tree first = create_tmp_var(boolean_type_node, "scorep_first");
    increment(seq, flags, first, loc);
    tree mark = create_artificial_label(loc), done = create_artificial_label(loc);
    add(seq, gimple_build_cond(NE_EXPR, first, boolean_false_node, mark, done), loc);
    add(seq, gimple_build_label(mark), loc);
    add(seq, gimple_build_predict(PRED_COLD_LABEL, NOT_TAKEN), loc); // once per settle
    tree shifted = create_tmp_var(long_long_unsigned_type_node, "scorep_bit");
    add(seq,
        gimple_build_assign(shifted, RSHIFT_EXPR, flags,
                            build_int_cst(unsigned_type_node, scorep_gcc_bit_shift())),
        loc);
    tree bit = create_tmp_var(long_long_unsigned_type_node, "scorep_bit");
    add(seq,
        gimple_build_assign(bit, BIT_AND_EXPR, shifted,
                            build_int_cst(long_long_unsigned_type_node, 63)),
        loc);
    tree mask = create_tmp_var(long_long_unsigned_type_node, "scorep_mask");
    add(seq,
        gimple_build_assign(mask, LSHIFT_EXPR, build_int_cst(long_long_unsigned_type_node, 1), bit),
        loc);
    tree word = create_tmp_var(long_long_unsigned_type_node, "scorep_pending");
    add(seq, gimple_build_assign(word, pending_ref(size_zero_node)), loc);
    add(seq, gimple_build_assign(word, BIT_IOR_EXPR, word, mask), loc);
    add(seq, gimple_build_assign(pending_ref(size_zero_node), word), loc);
    add(seq, gimple_build_label(done), loc);
}

// flags = descr.flags (volatile: another thread throttles the region);
// if (flags != 0) { count; measured = 0; } else { measured = 1; scorep_plugin_enter(&descr); }
tree scorep_gcc_flags_ref(tree descr)
{
    tree ref =
        build3(COMPONENT_REF, long_long_unsigned_type_node, descr, trees[T_FLAGS], NULL_TREE);
    TREE_THIS_VOLATILE(ref) = 1;
    return ref;
}

static gimple_seq entry_code(tree descr, tree measured, location_t loc)
{
    gimple_seq seq = NULL;
    tree ref = scorep_gcc_flags_ref(descr);
    tree flags = create_tmp_var(long_long_unsigned_type_node, "scorep_flags");
    add(&seq, gimple_build_assign(flags, ref), loc);
    tree call = create_artificial_label(loc), skip = create_artificial_label(loc),
         done = create_artificial_label(loc);
    add(&seq,
        gimple_build_cond(NE_EXPR, flags, build_zero_cst(long_long_unsigned_type_node), skip, call),
        loc);
    add(&seq, gimple_build_label(call), loc);
    // the measured path costs tens of ns anyway: lay out the throttled one as the straight line
    add(&seq, gimple_build_predict(PRED_COLD_LABEL, NOT_TAKEN), loc);
    add(&seq, gimple_build_assign(measured, boolean_true_node), loc);
    add(&seq, gimple_build_call(trees[T_ENTER], 1, build_fold_addr_expr(descr)), loc);
    add(&seq, gimple_build_goto(done), loc);
    add(&seq, gimple_build_label(skip), loc);
    add(&seq, gimple_build_assign(measured, boolean_false_node), loc);
    count_throttled(&seq, flags, loc);
    add(&seq, gimple_build_label(done), loc);
    return seq;
}

// if (measured) scorep_plugin_leave(&descr); -- the entry's decision, not the current flags
static gimple_seq exit_code(tree descr, tree measured, location_t loc)
{
    gimple_seq seq = NULL;
    tree yes = create_artificial_label(loc), no = create_artificial_label(loc);
    add(&seq, gimple_build_cond(NE_EXPR, measured, boolean_false_node, yes, no), loc);
    add(&seq, gimple_build_label(yes), loc);
    add(&seq, gimple_build_call(trees[T_LEAVE], 1, build_fold_addr_expr(descr)), loc);
    add(&seq, gimple_build_label(no), loc);
    return seq;
}

// The alignment of each function before instrument() raised it (the decls are the functions
// being compiled, alive until after_inline.cc is done with them)
static std::unordered_map<tree, std::pair<unsigned, bool>> aligned;

bool scorep_gcc_late(void)
{
    // lto1 turns the markers into nops when it reads the bodies (input_function, unless
    // -fsanitize=thread): gcc -flto's compile step instruments as before, and lto1 (in_lto_p)
    // takes that out of inlined copies. With -fsanitize=thread the markers are tsan's. (An
    // offload compiler's lto1 gets nops too: device code calls no runtime.) Decided once,
    // before IPA: gcc sets flag_generate_offload during IPA for a unit with target regions.
    static int late = -1;
    if (late < 0)
        late = scorep_gcc_late_wanted && !in_lto_p && !flag_generate_lto &&
               !(flag_sanitize & SANITIZE_THREAD);
    return late;
}

// The markers: .TSAN_FUNC_EXIT (&descr) at the exits, .TSAN_FUNC_EXIT (&descr, 1) at the
// entry, which cost the inliner nothing and which it drops from inlined copies. The
// descriptor keeps them apart from tsan's (no argument) and tells after_inline.cc whose body
// a clone (.constprop, .isra) is; the entry marker, that the body is a function's own start
// (a function that never returns, such as a main that ends in exit(), has no exit marker).
static gimple_seq marker(tree descr, bool entry, location_t loc)
{
    gimple_seq seq = NULL;
    tree addr = build_fold_addr_expr(descr);
    add(&seq,
        entry ? gimple_build_call_internal(IFN_TSAN_FUNC_EXIT, 2, addr, integer_one_node)
              : gimple_build_call_internal(IFN_TSAN_FUNC_EXIT, 1, addr),
        loc);
    return seq;
}

// As gcc's own -finstrument-functions (gimplify_function_tree): the body becomes
// { entry; try { body } finally { exit } }, so returns and exceptions all leave; with
// scorep_gcc_late() only { entry marker; try { body } finally { exit marker } }, as gcc's
// -fsanitize=thread (whose entry is put in after inlining, by the tsan pass).
static void instrument(function *fun, const char *name, const char *mangled, const char *file)
{
    tree fn = fun->decl;
    location_t loc = DECL_SOURCE_LOCATION(fn);
    tree descr = build_descriptor(name, mangled, file, DECL_SOURCE_LINE(fn));
    scorep_gcc_note_descriptor(descr, fn, name);
    gimple_seq body = gimple_body(fn), seq = NULL;
    if (scorep_gcc_late()) {
        seq = marker(descr, true, loc);
        add(&seq, gimple_build_try(body, marker(descr, false, loc), GIMPLE_TRY_FINALLY), loc);
    } else {
        tree measured = create_tmp_var(boolean_type_node, "scorep_measured");
        seq = entry_code(descr, measured, loc);
        add(&seq, gimple_build_try(body, exit_code(descr, measured, loc), GIMPLE_TRY_FINALLY),
            loc);
    }
    gimple_seq outer = NULL;
    gimple_seq_add_stmt(&outer, gimple_build_bind(NULL_TREE, seq, NULL_TREE));
    gimple_set_body(fn, outer);
    // A tiny function's throttled path (about 32 bytes with the check) that crosses a 64-byte
    // line costs the fetch of two: tiny() at 16-byte alignment took 2.5 instead of 1.9 ns
    // per call when it did (docs/design-reduction.md, "throttled calls")
    if (DECL_ALIGN(fn) < 64 * BITS_PER_UNIT) {
        aligned[fn] = {DECL_ALIGN(fn), (bool)DECL_USER_ALIGN(fn)};
        SET_DECL_ALIGN(fn, 64 * BITS_PER_UNIT);
        DECL_USER_ALIGN(fn) = 1;
    }
}

void scorep_gcc_restore_align(tree fn)
{
    auto a = aligned.find(fn);
    if (a == aligned.end())
        return;
    SET_DECL_ALIGN(fn, a->second.first);
    DECL_USER_ALIGN(fn) = a->second.second;
    aligned.erase(a);
}

static bool instrumentable(function *fun)
{
    tree fn = fun->decl;
    // gcc's hooks skip the same: no_instrument_function, the constructors of globals that gcc
    // makes itself, and bodies that are only inlined (C99 inline, extern gnu_inline such as
    // glibc's atol). (The gimplifier has set DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT on every
    // function by now, so the attribute is asked.) Nested functions (Fortran's internal
    // procedures, GNU C's) are instrumented as the hooks instrument them: the pass runs after
    // their lowering, so the added local lives in their own frame.
    const char *name = DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "";
    return gimple_body(fn) != NULL && !DECL_EXTERNAL(fn) &&
           !lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fn)) &&
           !lookup_attribute("naked", DECL_ATTRIBUTES(fn)) && // no frame for a local
           !(DECL_ARTIFICIAL(fn) && strncmp(name, "_GLOBAL__", 9) == 0);
}

namespace
{
const pass_data instrument_pass_data = {
    GIMPLE_PASS, "scorep_instrument", OPTGROUP_NONE, TV_NONE, PROP_gimple_any, 0, 0, 0, 0};

struct instrument_pass : gimple_opt_pass {
    instrument_pass(gcc::context *ctx) : gimple_opt_pass(instrument_pass_data, ctx) {}
    unsigned int execute(function *fun) override
    {
        if (!instrumentable(fun))
            return 0;
        scorep_gcc_names names;
        if (scorep_gcc_names_of(fun->decl, &names)) {
            if (!scorep_gcc_excluded(&names))
                instrument(fun, names.name, names.mangled, names.file);
            else
                scorep_gcc_note_filtered(names.name);
        }
        scorep_gcc_names_free(&names);
        return 0;
    }
};
} // namespace

static void make_trees(void *, void *)
{
    build_region_type();
    trees[T_ENTER] = runtime_function("scorep_plugin_enter");
    trees[T_LEAVE] = runtime_function("scorep_plugin_leave");
    trees[T_PENDING] = pending_array();
    trees[T_SLOT_PTR] = slot_ptr_type();
}

void scorep_gcc_instrument_register(const char *plugin_name)
{
    register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, (void *)roots);
    register_callback(plugin_name, PLUGIN_START_UNIT, make_trees, NULL);
    // before OpenMP lowering, as gcc's own hooks: outlined bodies stay inside the call
    struct register_pass_info info;
    info.pass = new instrument_pass(g);
    info.reference_pass_name = "omplower";
    info.ref_pass_instance_number = 1;
    info.pos_op = PASS_POS_INSERT_BEFORE;
    register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
