/* SPDX-License-Identifier: BSD-3-Clause */
// instrument_late.cc: the instrumentation of a body that gcc kept out of line, put in after
// inlining (#31; after_inline.cc decides which bodies) in SSA form: instrument.cc's entry check
// at the start, and `if (measured) scorep_plugin_leave(&descr)` for each exit marker.
#include <gcc-plugin.h>
#include <tree.h>
#include <tree-pass.h>
#include <context.h>
#include <function.h>
#include <basic-block.h>
#include <cfghooks.h>
#include <cfgloop.h>
#include <gimple.h>
#include <gimple-iterator.h>
#include <gimple-ssa.h>
#include <stringpool.h>
#include <tree-vrp.h>
#include <tree-ssanames.h>
#include <tree-cfg.h>
#include <profile-count.h>

#include "adapters/compiler/gcc_plugin/plugin.h"

static gimple *put(basic_block bb, gimple *g, location_t loc)
{
    gimple_set_location(g, loc);
    gimple_stmt_iterator gsi = gsi_last_bb(bb);
    gsi_insert_after(&gsi, g, GSI_NEW_STMT);
    return g;
}

static basic_block new_block(basic_block after, profile_count count)
{
    basic_block bb = create_empty_bb(after);
    if (current_loops)
        add_bb_to_loop(bb, after->loop_father);
    bb->count = count;
    return bb;
}

// FROM ends in a condition: its TRUE edge to YES (taken with probability P), FALSE to NO
static void branch(basic_block from, basic_block yes, basic_block no, profile_probability p)
{
    make_edge(from, yes, EDGE_TRUE_VALUE)->probability = p;
    make_edge(from, no, EDGE_FALSE_VALUE)->probability = p.invert();
}

static tree ullong_cst(unsigned long long v)
{
    return build_int_cst(long_long_unsigned_type_node, v);
}

// The throttled path in BB, on to JOIN: first = (++slot == 0), the slot at %fs:(flags) on
// x86-64, pending[flags] elsewhere; and when first (the slot's first call since the thread's
// last settle): pending[0] |= 1 << ((flags >> shift) & 63).
static void count_throttled(basic_block bb, basic_block join, tree flags, location_t loc)
{
    tree first = make_ssa_name(boolean_type_node);
    if (scorep_gcc_count_by_asm()) {
        tree slot = make_ssa_name(scorep_gcc_slot_ptr_type());
        put(bb, gimple_build_assign(slot, NOP_EXPR, flags), loc);
        SSA_NAME_DEF_STMT(first) = put(bb, scorep_gcc_count_asm(slot, first), loc);
    } else {
        tree index = make_ssa_name(sizetype);
        put(bb, gimple_build_assign(index, NOP_EXPR, flags), loc); // flags is the slot
        tree old = make_ssa_name(long_long_unsigned_type_node);
        put(bb, gimple_build_assign(old, scorep_gcc_pending_ref(index)), loc);
        tree count = make_ssa_name(long_long_unsigned_type_node);
        put(bb, gimple_build_assign(count, PLUS_EXPR, old, ullong_cst(1)), loc);
        put(bb, gimple_build_assign(scorep_gcc_pending_ref(index), count), loc);
        put(bb, gimple_build_assign(first, EQ_EXPR, count, ullong_cst(0)), loc);
    }
    put(bb, gimple_build_cond(NE_EXPR, first, boolean_false_node, NULL_TREE, NULL_TREE), loc);
    profile_probability once = profile_probability::very_unlikely(); // once per settle
    basic_block mark = new_block(bb, bb->count.apply_probability(once));
    branch(bb, mark, join, once);
    tree shifted = make_ssa_name(long_long_unsigned_type_node);
    put(mark,
        gimple_build_assign(shifted, RSHIFT_EXPR, flags,
                            build_int_cst(unsigned_type_node, scorep_gcc_bit_shift())),
        loc);
    tree bit = make_ssa_name(long_long_unsigned_type_node);
    put(mark, gimple_build_assign(bit, BIT_AND_EXPR, shifted, ullong_cst(63)), loc);
    tree mask = make_ssa_name(long_long_unsigned_type_node);
    put(mark, gimple_build_assign(mask, LSHIFT_EXPR, ullong_cst(1), bit), loc);
    tree word = make_ssa_name(long_long_unsigned_type_node);
    put(mark, gimple_build_assign(word, scorep_gcc_pending_ref(size_zero_node)), loc);
    tree marked = make_ssa_name(long_long_unsigned_type_node);
    put(mark, gimple_build_assign(marked, BIT_IOR_EXPR, word, mask), loc);
    put(mark, gimple_build_assign(scorep_gcc_pending_ref(size_zero_node), marked), loc);
    make_single_succ_edge(mark, join, EDGE_FALLTHRU);
}

// Between the function's entry and its first block:
//   flags = descr.flags (volatile); measured = flags == 0;
//   if (flags != 0) count_throttled; else scorep_plugin_enter(&descr);
// measured, defined in the first block, dominates every exit: no PHI anywhere.
static tree entry_code(function *fn, tree descr, location_t loc)
{
    basic_block head = split_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fn)));
    basic_block join = split_edge(single_succ_edge(head)); // no PHI: one predecessor
    tree flags = make_ssa_name(long_long_unsigned_type_node);
    put(head, gimple_build_assign(flags, scorep_gcc_flags_ref(descr)), loc);
    tree measured = make_ssa_name(boolean_type_node);
    put(head, gimple_build_assign(measured, EQ_EXPR, flags, ullong_cst(0)), loc);
    put(head, gimple_build_cond(NE_EXPR, flags, ullong_cst(0), NULL_TREE, NULL_TREE), loc);
    // the measured path costs tens of ns anyway: the throttled one is the likely line
    profile_probability throttled = profile_probability::likely();
    basic_block count = new_block(head, head->count.apply_probability(throttled));
    basic_block call = new_block(head, head->count.apply_probability(throttled.invert()));
    remove_edge(single_succ_edge(head));
    branch(head, count, call, throttled);
    put(call, gimple_build_call(scorep_gcc_enter_fn(), 1, build_fold_addr_expr(descr)), loc);
    make_single_succ_edge(call, join, EDGE_FALLTHRU);
    count_throttled(count, join, flags, loc);
    return measured;
}

// In place of the marker EXIT: if (measured) scorep_plugin_leave(&descr);
static void exit_code(gimple *exit, tree descr, tree measured)
{
    location_t loc = gimple_location(exit);
    basic_block bb = gimple_bb(exit);
    edge on = split_block(bb, exit); // bb ends with the marker, the rest follows
    basic_block rest = on->dest;
    gimple_stmt_iterator gsi = gsi_for_stmt(exit);
    gsi_remove(&gsi, true);
    put(bb, gimple_build_cond(NE_EXPR, measured, boolean_false_node, NULL_TREE, NULL_TREE), loc);
    profile_probability measuring = profile_probability::likely().invert(); // as at entry
    basic_block call = new_block(bb, bb->count.apply_probability(measuring));
    remove_edge(on);
    branch(bb, call, rest, measuring);
    put(call, gimple_build_call(scorep_gcc_leave_fn(), 1, build_fold_addr_expr(descr)), loc);
    make_single_succ_edge(call, rest, EDGE_FALLTHRU);
}

void scorep_gcc_instrument_late(function *fn, tree descr, const vec<gimple *> &exits)
{
    tree measured = entry_code(fn, descr, DECL_SOURCE_LOCATION(fn->decl));
    for (unsigned i = 0; i < exits.length(); i++)
        exit_code(exits[i], descr, measured);
    free_dominance_info(CDI_DOMINATORS);
    free_dominance_info(CDI_POST_DOMINATORS);
}
