/* SPDX-License-Identifier: BSD-3-Clause */
// after_inline.cc: "instrument what the optimizer keeps" (#31) for the GCC plugin. This pass
// runs after the IPA inliner. By default (scorep_gcc_late) instrument.cc put in only markers,
// which gcc's inliner ignores and drops from inlined copies: the pass instruments the bodies
// that kept their entry marker (instrument_late.cc) unless they are below the instruction
// threshold without loops or calls. With -flto (in lto1) or -fsanitize=thread the code was
// inserted before inlining (try/finally, so returns and exceptions leave), and the pass
// takes it out again where the optimizer did not keep the function: from the copies inlined
// into other functions, and from those small bodies.
#include <gcc-plugin.h>
#include <tree.h>
#include <tree-pass.h>
#include <context.h>
#include <function.h>
#include <basic-block.h>
#include <gimple.h>
#include <gimple-iterator.h>
#include <gimple-walk.h>
#include <gimple-ssa.h>
#include <stringpool.h>
#include <tree-vrp.h>
#include <tree-ssa-operands.h>
#include <tree-ssanames.h>
#include <cfganal.h>
#include <diagnostic-core.h>
#include <input.h>
#include <output.h>
#include <cgraph.h>
#include <varasm.h>
#include <internal-fn.h>
#include <tree-into-ssa.h>

#include <cxxabi.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "adapters/compiler/gcc_plugin/plugin.h"
#include "symbols/plugin_notes.h"
extern "C" {
#include "filter/filter.h"
}

namespace
{
// Per translation unit: the descriptor of each function instrumented before inlining and
// the assembler name of its function; what became of them, for the build note.
// In lto1 at link time (gcc -flto), the owners come from the descriptors themselves.
struct owner {
    std::string name, display; // assembler name of the origin; demangled, for MANIFEST.md
    bool kept = false, small = false;
    bool strip = true;      // false: the inlined copies keep their checks (link step only)
    unsigned threshold = 0; // the statement threshold for the function's own body
};
std::unordered_map<tree, size_t> owner_of;
std::unordered_map<tree, bool> looked_up; // lto1: variables asked about, descriptor or not
std::vector<owner> owners;
unsigned threshold = SCOREP_GCC_DEFAULT_THRESHOLD;

// foo.constprop.0, foo.isra.0, foo.part.0, foo._omp_fn.0: clones and parts are foo's body
std::string origin_name(tree fn)
{
    const char *s = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn));
    if (s[0] == '*')
        s++;
    const char *dot = strchr(s, '.');
    return dot ? std::string(s, dot - s) : std::string(s);
}

// As the runtime's symbols.c: __cxa_demangle for names that start with _Z, else the name.
std::string demangled(const std::string &mangled)
{
    std::string s = mangled;
    if (mangled.compare(0, 2, "_Z") == 0) {
        int status = -1;
        char *name = abi::__cxa_demangle(mangled.c_str(), NULL, NULL, &status);
        if (status == 0 && name != NULL)
            s = name;
        free(name);
    }
    return s;
}

// lto1 (gcc -flto's link step): whether T is a descriptor of this plugin, registered as an
// owner from its name, scorep_region_descr.SERIAL.RULE.MANGLED (instrument.cc), which the
// partitions that do not hold its initializer have too.
bool lto_owner(tree t)
{
    if (!in_lto_p || TREE_CODE(t) != VAR_DECL || !DECL_NAME(t))
        return false;
    auto seen = looked_up.find(t);
    if (seen != looked_up.end())
        return seen->second;
    unsigned serial, rule;
    int at = 0;
    const char *id = IDENTIFIER_POINTER(DECL_NAME(t));
    bool found = sscanf(id, "scorep_region_descr.%u.%u.%n", &serial, &rule, &at) == 2 && at > 0 &&
                 id[at] != '\0';
    if (found) {
        owner_of[t] = owners.size();
        owners.push_back(owner());
        owner &o = owners.back();
        o.name = id + at;
        o.display = demangled(o.name);
        o.strip = rule != 0;
        o.threshold = rule ? rule - 1 : 0;
    }
    looked_up[t] = found;
    return found;
}

// The descriptor (VAR_DECL) a statement of the inserted code uses, or NULL_TREE.
tree descriptor_of(gimple *stmt)
{
    tree t = NULL_TREE;
    if (is_gimple_call(stmt) && gimple_call_num_args(stmt) == 1) {
        tree fn = gimple_call_fndecl(stmt);
        const char *n = fn && DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : "";
        if (strcmp(n, "scorep_plugin_enter") != 0 && strcmp(n, "scorep_plugin_leave") != 0)
            return NULL_TREE;
        t = gimple_call_arg(stmt, 0);
        if (TREE_CODE(t) == ADDR_EXPR)
            t = TREE_OPERAND(t, 0);
    } else if (gimple_assign_load_p(stmt)) {
        // flags = descr.flags, or MEM[&descr].flags once early passes have rewritten it
        t = get_base_address(gimple_assign_rhs1(stmt));
    }
    return t && (owner_of.count(t) || lto_owner(t)) ? t : NULL_TREE;
}

// Whether a statement belongs to the inserted code: it names a scorep_ temporary (an SSA
// name of instrument.cc's create_tmp_var("scorep_...")) or a scorep_ variable.
tree scorep_operand(tree *tp, int *walk_subtrees, void *)
{
    tree t = *tp, id = NULL_TREE;
    if (TREE_CODE(t) == SSA_NAME)
        id = SSA_NAME_IDENTIFIER(t);
    else if (DECL_P(t))
        id = DECL_NAME(t);
    else
        return NULL_TREE;
    *walk_subtrees = 0;
    return id && strncmp(IDENTIFIER_POINTER(id), "scorep_", 7) == 0 ? t : NULL_TREE;
}

bool inserted(gimple *stmt)
{
    if (descriptor_of(stmt) != NULL_TREE)
        return true;
    for (unsigned i = 0; i < gimple_num_ops(stmt); i++) {
        tree op = gimple_op(stmt, i);
        if (op && walk_tree_without_duplicates(&op, scorep_operand, NULL))
            return true;
    }
    return false;
}

// instrument.cc's markers: .TSAN_FUNC_EXIT (&descr), at an exit, or (&descr, 1), at the
// entry, of one of this unit's descriptors
tree marker_descriptor(gimple *stmt)
{
    if (!gimple_call_internal_p(stmt, IFN_TSAN_FUNC_EXIT) || gimple_call_num_args(stmt) < 1 ||
        gimple_call_num_args(stmt) > 2)
        return NULL_TREE;
    tree t = gimple_call_arg(stmt, 0);
    if (TREE_CODE(t) != ADDR_EXPR)
        return NULL_TREE;
    t = TREE_OPERAND(t, 0);
    return owner_of.count(t) ? t : NULL_TREE;
}

// XRay's rule with calls added: fewer statements than the threshold (the inserted code not
// counted), no loop, no call that stays a call (internal functions expand inline).
bool below_threshold(function *fun, unsigned threshold)
{
    if (threshold == 0 || mark_dfs_back_edges(fun))
        return false;
    unsigned n = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator i = gsi_start_bb(bb); !gsi_end_p(i); gsi_next(&i)) {
        gimple *s = gsi_stmt(i);
        if (is_gimple_debug(s) || gimple_code(s) == GIMPLE_LABEL || inserted(s) ||
            marker_descriptor(s))
            continue;
        if (is_gimple_call(s) && !gimple_call_internal_p(s))
            return false;
        if (++n >= threshold)
            return false;
    }
    return true;
}

// Takes one statement of the inserted code out: the calls go, the flags load becomes 0 (the
// "measured" branch, now empty, and the counting branch fold away in later passes).
void strip(gimple_stmt_iterator *gsi)
{
    gimple *s = gsi_stmt(*gsi);
    if (is_gimple_call(s)) {
        unlink_stmt_vdef(s);
        gsi_remove(gsi, true);
        release_defs(s);
        return;
    }
    gimple_assign_set_rhs_from_tree(gsi, build_zero_cst(TREE_TYPE(gimple_assign_lhs(s))));
    gimple_set_has_volatile_ops(gsi_stmt(*gsi), false); // the load was volatile, 0 is not
    update_stmt(gsi_stmt(*gsi));
    gsi_next(gsi);
}

// With scorep_gcc_late(): FUN's markers, all of one descriptor (inlined copies have none:
// gcc dropped them), or none (the function is not instrumented); the entry one in *ENTRY.
tree markers(function *fun, vec<gimple *> *exits, gimple **entry)
{
    tree descr = NULL_TREE;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator i = gsi_start_bb(bb); !gsi_end_p(i); gsi_next(&i)) {
        tree d = marker_descriptor(gsi_stmt(i));
        if (d == NULL_TREE)
            continue;
        if (descr != NULL_TREE && d != descr)
            internal_error("scorep: %qD holds the markers of two functions", fun->decl);
        descr = d;
        if (gimple_call_num_args(gsi_stmt(i)) == 2)
            *entry = gsi_stmt(i);
        else
            exits->safe_push(gsi_stmt(i));
    }
    return descr;
}

void remove_marker(gimple *stmt)
{
    gimple_stmt_iterator gsi = gsi_for_stmt(stmt);
    gsi_remove(&gsi, true);
}

// With scorep_gcc_late(): instruments FUN if gcc kept it (it holds its entry marker) and it
// is not below the threshold; else the markers go (expanding one would stop gcc). Exit
// markers without the entry one would be a part that ipa-split took off a function's end
// (foo.part.0); the one who leaves is the function that entered.
unsigned int place_late(function *fun)
{
    auto_vec<gimple *> exits;
    gimple *entry = NULL;
    tree descr = markers(fun, &exits, &entry);
    if (descr == NULL_TREE)
        return 0;
    owner &o = owners[owner_of[descr]];
    bool small = entry == NULL || below_threshold(fun, o.threshold);
    if (entry != NULL) {
        (small ? o.small : o.kept) = true;
        remove_marker(entry);
    }
    if (small) {
        for (unsigned i = 0; i < exits.length(); i++)
            remove_marker(exits[i]);
        scorep_gcc_restore_align(fun->decl); // no check to keep in one line
        return TODO_cleanup_cfg;
    }
    scorep_gcc_instrument_late(fun, descr, exits);
    cgraph_edge::rebuild_edges(); // the calls of the runtime
    // the new loads, stores and calls: their virtual operands (TODO_update_ssa_only_virtuals)
    mark_virtual_operands_for_renaming(fun);
    return TODO_cleanup_cfg;
}

const pass_data after_inline_data = {
    GIMPLE_PASS, "scorep_after_inline",        OPTGROUP_NONE, TV_NONE, PROP_cfg | PROP_ssa, 0, 0,
    0,           TODO_update_ssa_only_virtuals};

// The owner of FUN's own instrumentation, or NULL (FUN is not instrumented).
owner *own(function *fun, const std::string &self)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator i = gsi_start_bb(bb); !gsi_end_p(i); gsi_next(&i)) {
        tree d = descriptor_of(gsi_stmt(i));
        if (d && owners[owner_of[d]].name == self)
            return &owners[owner_of[d]];
    }
    return NULL;
}

struct after_inline_pass : gimple_opt_pass {
    after_inline_pass(gcc::context *ctx) : gimple_opt_pass(after_inline_data, ctx) {}
    unsigned int execute(function *fun) override
    {
        if (owners.empty() && !in_lto_p)
            return 0;
        if (scorep_gcc_late())
            return place_late(fun);
        std::string self = origin_name(fun->decl);
        owner *mine = own(fun, self);
        bool small = mine && mine->strip && below_threshold(fun, mine->threshold), changed = false;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun)
        for (gimple_stmt_iterator i = gsi_start_bb(bb); !gsi_end_p(i);) {
            tree d = descriptor_of(gsi_stmt(i));
            owner *o = d ? &owners[owner_of[d]] : NULL;
            bool own = o && o->name == self;
            if (own)
                (small ? o->small : o->kept) = true;
            if (o && o->strip && (!own || small)) {
                strip(&i);
                changed = true;
            } else {
                gsi_next(&i);
            }
        }
        if (small)
            scorep_gcc_restore_align(fun->decl); // no check left to keep in one line
        return changed ? TODO_cleanup_cfg : 0;
    }
};

// Without the pass (gcc -flto's compile step, --instrument-inlined) no copy loses its
// instrumentation: only the filter leaves functions out.
bool after_inline = false;
std::vector<std::string> filtered;

// The source file as the LLVM plugin names it: absolute (relative to the compilation
// directory, gcc's getpwd()) and simplified as the filter simplifies it.
std::string absolute(const char *file)
{
    std::string s = file[0] == '/' ? std::string(file) : std::string(getpwd()) + "/" + file;
    std::vector<char> buf(s.begin(), s.end());
    buf.push_back('\0');
    scorep_filter_simplify_path(buf.data());
    return std::string(buf.data());
}

// The record of this translation unit, emitted as a note into the object (its own section,
// which the assembler types SHT_NOTE by the name; plugin_notes.h).
scorep_leftout_record record(bool lto)
{
    scorep_leftout_record r;
    r.unit = SCOREP_LEFTOUT_STATEMENTS;
    // whether this compilation takes instrumentation out: the compile step without -flto
    // (unless --instrument-inlined), or lto1 for the owners whose compile step asked for it
    bool decides = in_lto_p || (after_inline && !lto);
    unsigned considered = 0;
    for (const owner &o : owners)
        if (o.strip || !in_lto_p) {
            considered++;
            r.threshold = decides ? o.threshold : 0;
        }
    r.flags = (decides ? 0 : SCOREP_LEFTOUT_BEFORE_INLINING) | (lto ? SCOREP_LEFTOUT_LTO : 0) |
              (in_lto_p ? SCOREP_LEFTOUT_LINK : 0);
    r.functions = (uint32_t)(considered + filtered.size());
    r.file = in_lto_p ? std::string() : absolute(main_input_filename);
    // by reason, as the LLVM plugin lists them: first those below the threshold (out-of-line
    // functions that a user would see as regions), then the inlined ones, then the filtered
    if (decides)
        for (unsigned reason : {SCOREP_LEFTOUT_THRESHOLD, SCOREP_LEFTOUT_INLINED})
            for (const owner &o : owners)
                if (o.strip && !o.kept &&
                    (o.small ? SCOREP_LEFTOUT_THRESHOLD : SCOREP_LEFTOUT_INLINED) == reason)
                    r.add(reason, o.display);
    for (const std::string &f : filtered)
        r.add(SCOREP_LEFTOUT_FILTERED, f);
    return r;
}

void emit(const std::string &note)
{
    fprintf(asm_out_file, "\t.pushsection %s,\"a\"\n\t.balign 8", SCOREP_LEFTOUT_NOTE_SECTION);
    for (size_t i = 0; i < note.size(); i++)
        fprintf(asm_out_file, "%s%u", i % 16 ? "," : "\n\t.byte ", (unsigned char)note[i]);
    fprintf(asm_out_file, "\n\t.popsection\n");
}

// One line per translation unit, only when something was left out; and the note, for
// MANIFEST.md, whenever the plugin saw a function.
void note(void *, void *)
{
    if (flag_generate_lto)
        return; // gcc -flto's compile step: lto_note
    scorep_leftout_record r = record(false);
    if (r.functions == 0)
        return; // nothing to instrument, or lto1 with only --instrument-inlined's descriptors
    unsigned inlined = r.count[SCOREP_LEFTOUT_INLINED], small = r.count[SCOREP_LEFTOUT_THRESHOLD];
    char below[96] = "";
    if (r.threshold > 0)
        snprintf(below, sizeof below, ", %u below %u statements without loops or calls", small,
                 r.threshold);
    if (inlined + small > 0)
        inform(UNKNOWN_LOCATION,
               "scorep: %s: %u of %u functions left uninstrumented: %u inlined everywhere or "
               "unused%s (scorep-cc %<--instrument-inlined%>, %<--instrument-threshold=0%> "
               "keep them)",
               in_lto_p ? "link-time unit of gcc -flto" : main_input_filename, inlined + small,
               r.functions - r.count[SCOREP_LEFTOUT_FILTERED], inlined, below);
    if (asm_out_file)
        emit(r.note());
}

// gcc -flto's compile step: the IPA inliner runs in lto1 at link time, where the pass after
// inlining learns each descriptor's function and rule from the descriptor (lto_owner) and
// notes what it left out per link-time unit (note). The compile step's note counts the
// functions and what the filter excluded; it must travel in the IR (the linker drops the
// compile step's own sections with the IR object), so it is a variable in the note section,
// made before the IPA passes stream the unit out, and kept by DECL_PRESERVE_P ("used").
void lto_note(void *, void *)
{
    if ((owners.empty() && filtered.empty()) || !flag_generate_lto)
        return;
    inform(UNKNOWN_LOCATION,
           "scorep: %s: %<-flto%>: what is left out is decided at link time, by the plugin in "
           "lto1 (scorep-cc loads it on the link step too; without it every inlined copy keeps "
           "its check)",
           main_input_filename);
    std::string bytes = record(true).note();
    tree type = build_array_type(char_type_node, build_index_type(size_int(bytes.size() - 1)));
    tree init = build_string((int)bytes.size(), bytes.data());
    TREE_TYPE(init) = type;
    tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier("scorep_leftout_note"), type);
    TREE_STATIC(v) = 1;
    TREE_READONLY(v) = 1;
    DECL_ARTIFICIAL(v) = 1;
    DECL_IGNORED_P(v) = 1;
    TREE_USED(v) = 1;
    DECL_PRESERVE_P(v) = 1;
    SET_DECL_ALIGN(v, 8 * BITS_PER_UNIT);
    DECL_USER_ALIGN(v) = 1;
    set_decl_section_name(v, SCOREP_LEFTOUT_NOTE_SECTION);
    DECL_INITIAL(v) = init;
    varpool_node::finalize_decl(v);
    varpool_node *node = varpool_node::get(v);
    if (node && !node->analyzed) // finalize_decl analyzes only from IPA_SSA on
        node->analyze();
}
} // namespace

void scorep_gcc_note_descriptor(tree descr, tree fn, const char *name)
{
    owner_of[descr] = owners.size();
    owners.push_back(owner());
    owners.back().name = origin_name(fn);
    owners.back().display = name;
    owners.back().threshold = threshold;
}

void scorep_gcc_note_filtered(const char *name)
{
    filtered.push_back(name);
}

void scorep_gcc_leftout_register(const char *plugin_name)
{
    register_callback(plugin_name, PLUGIN_FINISH_UNIT, note, NULL);
    register_callback(plugin_name, PLUGIN_ALL_IPA_PASSES_START, lto_note, NULL);
}

void scorep_gcc_after_inline_register(const char *plugin_name, unsigned min_statements)
{
    threshold = min_statements;
    after_inline = true;
    // the first pass after the IPA passes (inlining) that every optimization level runs
    struct register_pass_info info;
    info.pass = new after_inline_pass(g);
    info.reference_pass_name = "ehdisp";
    info.ref_pass_instance_number = 1;
    info.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
