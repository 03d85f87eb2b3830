/* SPDX-License-Identifier: BSD-3-Clause */
// after_inline.cc: "instrument what the optimizer keeps" (#31) for the GCC plugin. The
// instrumentation is inserted before inlining (instrument.cc: try/finally, so returns and
// exceptions leave); this pass runs after the IPA inliner and takes it out again where the
// optimizer did not keep the function: from the copies inlined into other functions, and
// from out-of-line bodies below the instruction threshold without loops or calls.
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
struct owner {
    std::string name, display; // assembler name of the origin; demangled, for MANIFEST.md
    bool kept = false, small = false;
};
std::unordered_map<tree, size_t> owner_of;
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
    return t && owner_of.count(t) ? t : NULL_TREE;
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

// XRay's rule with calls added: fewer statements than the threshold (the inserted code not
// counted), no loop, no call that stays a call (internal functions expand inline).
bool below_threshold(function *fun)
{
    if (threshold == 0 || mark_dfs_back_edges(fun))
        return false;
    unsigned n = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    for (gimple_stmt_iterator i = gsi_start_bb(bb); !gsi_end_p(i); gsi_next(&i)) {
        gimple *s = gsi_stmt(i);
        if (is_gimple_debug(s) || gimple_code(s) == GIMPLE_LABEL || inserted(s))
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

const pass_data after_inline_data = {
    GIMPLE_PASS, "scorep_after_inline",        OPTGROUP_NONE, TV_NONE, PROP_cfg | PROP_ssa, 0, 0,
    0,           TODO_update_ssa_only_virtuals};

struct after_inline_pass : gimple_opt_pass {
    after_inline_pass(gcc::context *ctx) : gimple_opt_pass(after_inline_data, ctx) {}
    unsigned int execute(function *fun) override
    {
        if (owners.empty())
            return 0;
        std::string self = origin_name(fun->decl);
        bool small = below_threshold(fun), changed = false;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun)
        for (gimple_stmt_iterator i = gsi_start_bb(bb); !gsi_end_p(i);) {
            tree d = descriptor_of(gsi_stmt(i));
            owner *o = d ? &owners[owner_of[d]] : NULL;
            bool own = o && o->name == self;
            if (own)
                (small ? o->small : o->kept) = true;
            if (o && (!own || small)) {
                strip(&i);
                changed = true;
            } else {
                gsi_next(&i);
            }
        }
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
    r.threshold = after_inline && !lto ? threshold : 0;
    r.flags = (after_inline && !lto ? 0 : SCOREP_LEFTOUT_BEFORE_INLINING) |
              (lto ? SCOREP_LEFTOUT_LTO : 0);
    r.functions = (uint32_t)(owners.size() + filtered.size());
    r.file = absolute(main_input_filename);
    // by reason, as the LLVM plugin lists them: first those below the threshold (out-of-line
    // functions that a user would see as regions), then the inlined ones, then the filtered
    if (after_inline && !lto)
        for (unsigned reason : {SCOREP_LEFTOUT_THRESHOLD, SCOREP_LEFTOUT_INLINED})
            for (const owner &o : owners)
                if (!o.kept &&
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
    if ((owners.empty() && filtered.empty()) || flag_generate_lto)
        return; // lto1 at link time, nothing to instrument, or gcc -flto (lto_note)
    scorep_leftout_record r = record(false);
    unsigned inlined = r.count[SCOREP_LEFTOUT_INLINED], small = r.count[SCOREP_LEFTOUT_THRESHOLD];
    char below[96] = "";
    if (r.threshold > 0)
        snprintf(below, sizeof below, ", %u below %u statements without loops or calls", small,
                 threshold);
    if (inlined + small > 0)
        inform(UNKNOWN_LOCATION,
               "scorep: %s: %u of %u functions left uninstrumented: %u inlined everywhere or "
               "unused%s (scorep-cc %<--instrument-inlined%>, %<--instrument-threshold=0%> "
               "keep them)",
               main_input_filename, inlined + small, (unsigned)owners.size(), inlined, below);
    if (asm_out_file)
        emit(r.note());
}

// gcc -flto's compile step: the IPA inliner runs in lto1 at link time, where no owner is
// known, so every inlined copy keeps its check (exact visits, as --instrument-inlined). The
// note says so; it must travel in the IR (the linker drops the compile step's own sections
// with the IR object), so it is a variable in the note section, made before the IPA passes
// stream the unit out, and kept by DECL_PRESERVE_P ("used").
void lto_note(void *, void *)
{
    if ((owners.empty() && filtered.empty()) || !flag_generate_lto)
        return;
    inform(UNKNOWN_LOCATION,
           "scorep: %s: %<-flto%>: instrumented before the link-time inliner of gcc: every inlined "
           "copy keeps its check and its visits, as with scorep-cc %<--instrument-inlined%>",
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
