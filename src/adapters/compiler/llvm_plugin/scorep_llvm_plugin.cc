/* SPDX-License-Identifier: BSD-3-Clause */
// scorep_llvm_plugin.cc: the LLVM pass plugin of `scorep-cc --instrument=plugin` for clang and
// clang++ (-fpass-plugin): the contract of the GCC plugin (gcc_plugin/instrument.cc) in LLVM IR.
// Per function a static region descriptor (plugin_region.h), an inline throttle check at entry
// and a leave at every return and, where the function may throw, every exception path.
//
// Which functions: those clang marks for -finstrument-functions (the attribute
// "instrument-function-entry"), so no_instrument_function, -finstrument-functions-exclude-*
// and clang's own choices (no global constructors it makes itself) apply unchanged; the pass
// takes the attributes off, so clang's EntryExitInstrumenter inserts no hook calls.
// When (#31): at the start of the module pipeline it only marks the functions to instrument
// ("scorep-instrument"); at the end of the optimizer, after inlining, it instruments those
// that remain (a function inlined everywhere is gone by then), less those below
// -scorep-instrument-threshold IR instructions without loops or calls. With
// -scorep-instrument-inlined it instruments at the start, before inlining, so that every
// inlined copy keeps its check (the behaviour before #31), with no threshold.
// Compile-time filter: -mllvm -scorep-filter=FILE (the plugin must then also be loaded with
// -fplugin=, which clang does before it parses -mllvm).
// libtool defines PIC; LLVM's PassBuilder.h names a parameter PIC
#undef PIC
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm/Transforms/Utils/EscapeEnumerator.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <cxxabi.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "adapters/compiler/plugin_region.h"
#include "filter/filter.h"
}
#include "symbols/plugin_notes.h"

using namespace llvm;

static cl::opt<std::string> filter_file("scorep-filter",
                                        cl::desc("scorep-rt: compile-time filter file"),
                                        cl::value_desc("file"), cl::init(""));

static cl::opt<bool> instrument_inlined(
    "scorep-instrument-inlined",
    cl::desc("scorep-rt: instrument before inlining: every inlined copy keeps its check"),
    cl::init(false));
// the GCC plugin's default too (gcc_plugin/plugin.h); chosen by LULESH's figures (docs)
static cl::opt<unsigned> instrument_threshold(
    "scorep-instrument-threshold",
    cl::desc("scorep-rt: leave functions with fewer IR instructions, no loop and no call "
             "uninstrumented (0: none)"),
    cl::value_desc("instructions"), cl::init(200));

namespace
{
// Field numbers of scorep_plugin_region (plugin_region.h) in the IR struct below.
enum { F_NAME, F_MANGLED, F_FILE, F_LINE, F_HANDLE, F_FLAGS, F_NEXT, F_COUNT };

static scorep_filter *loaded_filter(void)
{
    static bool loaded;
    static scorep_filter *filter;
    if (loaded)
        return filter;
    loaded = true;
    if (filter_file.empty())
        return nullptr;
    char err[512];
    filter = scorep_filter_new();
    if (filter == nullptr ||
        scorep_filter_parse_file(filter, filter_file.c_str(), err, sizeof err) != 0)
        report_fatal_error(Twine("scorep_llvm_plugin: bad filter file: ") +
                               (filter ? err : "out of memory"),
                           false);
    return filter;
}

// As the runtime's symbols.c: __cxa_demangle for names that start with _Z, else the name.
static std::string demangled(StringRef mangled)
{
    std::string m = mangled.str();
    if (mangled.startswith("_Z")) {
        int status = -1;
        char *name = abi::__cxa_demangle(m.c_str(), nullptr, nullptr, &status);
        if (status == 0 && name != nullptr) {
            std::string s(name);
            free(name);
            return s;
        }
        free(name);
    }
    return m;
}

// The file as DWARF names it to the runtime: relative names are relative to the compilation
// directory; then simplified as the filter and the runtime simplify it.
static std::string source_path(StringRef dir, StringRef file)
{
    SmallString<256> path;
    if (sys::path::is_absolute(file)) {
        path = file;
    } else {
        if (dir.empty() || !sys::path::is_absolute(dir)) {
            SmallString<256> cwd;
            if (!sys::fs::current_path(cwd))
                path = cwd;
            if (!dir.empty())
                sys::path::append(path, dir);
        } else {
            path = dir;
        }
        sys::path::append(path, file);
    }
    std::string s = path.str().str();
    std::vector<char> buf(s.begin(), s.end());
    buf.push_back('\0');
    scorep_filter_simplify_path(buf.data());
    return std::string(buf.data());
}

struct names {
    std::string name, mangled, file;
    unsigned line = 0;
};

static names names_of(Function &F)
{
    names n;
    StringRef mangled = F.getName();
    if (mangled.startswith("\1")) // asm("name"): verbatim
        mangled = mangled.drop_front();
    n.mangled = mangled.str();
    n.name = demangled(mangled);
    if (DISubprogram *sp = F.getSubprogram()) {
        n.file = source_path(sp->getDirectory(), sp->getFilename());
        n.line = sp->getLine();
    } else { // no debug information (-g0): the main source file, no line
        n.file = source_path("", F.getParent()->getSourceFileName());
    }
    return n;
}

class instrumenter
{
    Module &M;
    LLVMContext &C;
    StructType *region_type;
    GlobalVariable *pending;
    bool tp_words; // x86-64 (not x32): the state word is the slot's thread-pointer offset
    FunctionCallee enter, leave;
    Type *i8p, *i32, *i64;
    unsigned serial = 0;

  public:
    explicit instrumenter(Module &m) : M(m), C(m.getContext())
    {
        i8p = Type::getInt8PtrTy(C);
        i32 = Type::getInt32Ty(C);
        i64 = Type::getInt64Ty(C);
        // a type of its own: a program's "struct.scorep_plugin_region" may be another layout
        region_type = StructType::getTypeByName(C, "scorep.plugin_region");
        if (region_type == nullptr)
            region_type = StructType::create(C, {i8p, i8p, i8p, i32, i32, i64, i8p},
                                             "scorep.plugin_region");
        // extern __thread uint64_t scorep_throttle_slots_v3[1 + SLOTS] (initial-exec)
        ArrayType *pending_type = ArrayType::get(i64, 1 + SCOREP_PLUGIN_SLOTS);
        pending = M.getGlobalVariable("scorep_throttle_slots_v3");
        if (pending == nullptr)
            pending = new GlobalVariable(M, pending_type, false, GlobalValue::ExternalLinkage,
                                         nullptr, "scorep_throttle_slots_v3", nullptr,
                                         GlobalValue::InitialExecTLSModel);
        Triple target(M.getTargetTriple());
        // base/arch.h: a portable build (SCOREP_PORTABLE) counts by index on x86-64 too
        tp_words = !SCOREP_PORTABLE && target.getArch() == Triple::x86_64 &&
                   target.getEnvironment() != Triple::GNUX32 &&
                   M.getDataLayout().getPointerSizeInBits() == 64;
        // never throw, never read or write the caller's memory beyond the descriptor
        AttributeList attrs =
            AttributeList::get(C, AttributeList::FunctionIndex, {Attribute::NoUnwind});
        FunctionType *hook = FunctionType::get(Type::getVoidTy(C), {i8p}, false);
        enter = M.getOrInsertFunction("scorep_plugin_enter", hook, attrs);
        leave = M.getOrInsertFunction("scorep_plugin_leave", hook, attrs);
    }

    Constant *string(StringRef s)
    {
        Constant *init = ConstantDataArray::getString(C, s, true);
        auto *g = new GlobalVariable(M, init->getType(), true, GlobalValue::PrivateLinkage, init,
                                     "scorep_region_str");
        g->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
        g->setAlignment(Align(1));
        return ConstantExpr::getPointerCast(g, i8p);
    }

    // static scorep_plugin_region descriptor = {name, mangled, file, line, 0, 0, NULL};
    // on its own cache line: written only when the region is registered or throttled
    GlobalVariable *descriptor(const names &n)
    {
        Constant *zero = ConstantInt::get(i32, 0);
        Constant *init =
            ConstantStruct::get(region_type, {string(n.name), string(n.mangled), string(n.file),
                                              ConstantInt::get(i32, n.line), zero,
                                              ConstantInt::get(i64, 0),
                                              ConstantPointerNull::get(cast<PointerType>(i8p))});
        auto *d = new GlobalVariable(M, region_type, false, GlobalValue::InternalLinkage, init,
                                     "scorep_region_descr." + Twine(serial++));
        d->setAlignment(Align(64));
        return d;
    }

    Value *pending_slot(IRBuilder<> &b, Value *index)
    {
        return b.CreateInBoundsGEP(pending->getValueType(), pending,
                                   {ConstantInt::get(i64, 0), index});
    }

    // The slot that the state word names: on x86-64 the word is its offset from the thread
    // pointer, a pointer in address space 257 (%fs): the count becomes `addq $1, %fs:(reg)`,
    // base-only (the v2 scheme's `%fs:(%rsi,%rdx,8)`, array from the GOT and the word as
    // index, cost 1.3 ns more per call on an Intel Xeon: plugin_region.h); elsewhere the
    // word is the slot's index in the array.
    Value *slot_of(IRBuilder<> &b, Value *flags)
    {
        if (tp_words)
            return b.CreateIntToPtr(flags, PointerType::get(i64, 257), "scorep_slot");
        return pending_slot(b, flags);
    }

    // The throttled path: n = *slot + 1; *slot = n; and only when n is 0 (the slot's first
    // call since the thread's last settle, which leaves it at all ones):
    // pending[0] |= 1 << ((flags >> shift) & 63), the bit the runtime maps back to the slot.
    // As the GCC plugin's: the test on the stored value lets the backend fold the count into
    // one read-modify-write whose flags decide the branch.
    void count_throttled(IRBuilder<> &b, Value *flags)
    {
        Value *counter = slot_of(b, flags);
        Value *count = b.CreateAdd(b.CreateLoad(i64, counter, "scorep_pending"),
                                   ConstantInt::get(i64, 1), "scorep_count");
        b.CreateStore(count, counter);
        Value *first = b.CreateICmpEQ(count, ConstantInt::get(i64, 0), "scorep_first");
        MDNode *weights = MDBuilder(C).createBranchWeights(1, 1u << 20); // once per settle
        Instruction *mark = SplitBlockAndInsertIfThen(first, &*b.GetInsertPoint(), false, weights);
        IRBuilder<> m(mark);
        m.SetCurrentDebugLocation(b.getCurrentDebugLocation());
        Value *word = pending_slot(m, ConstantInt::get(i64, 0));
        unsigned shift = tp_words ? SCOREP_PLUGIN_BIT_SHIFT_TP : SCOREP_PLUGIN_BIT_SHIFT_INDEX;
        Value *bit = m.CreateAnd(m.CreateLShr(flags, shift), 63);
        m.CreateStore(m.CreateOr(m.CreateLoad(i64, word), m.CreateShl(ConstantInt::get(i64, 1), bit)),
                      word);
    }

    // flags = descr.flags (volatile: another thread throttles the region); measured = flags == 0;
    // if (measured) scorep_plugin_enter(&descr); else count. Returns measured.
    Value *entry_code(Function &F, GlobalVariable *descr, DebugLoc loc)
    {
        BasicBlock &entry = F.getEntryBlock();
        BasicBlock::iterator at = entry.getFirstInsertionPt();
        while (isa<AllocaInst>(*at)) // static allocas stay in the entry block
            ++at;
        IRBuilder<> b(&entry, at);
        b.SetCurrentDebugLocation(loc);
        Value *flags =
            b.CreateLoad(i64, b.CreateStructGEP(region_type, descr, F_FLAGS), true, "scorep_flags");
        Value *measured = b.CreateICmpEQ(flags, ConstantInt::get(i64, 0), "scorep_measured");
        Instruction *call_term, *count_term;
        // the measured path costs tens of ns anyway: the throttled one is the straight line
        MDNode *weights = MDBuilder(C).createBranchWeights(1, 1u << 20);
        SplitBlockAndInsertIfThenElse(measured, &*at, &call_term, &count_term, weights);
        IRBuilder<> call(call_term);
        call.SetCurrentDebugLocation(loc);
        call.CreateCall(enter, {ConstantExpr::getPointerCast(descr, i8p)});
        IRBuilder<> count(count_term);
        count.SetCurrentDebugLocation(loc);
        count_throttled(count, flags);
        return measured;
    }

    // if (measured) scorep_plugin_leave(&descr); -- the entry's decision, not the current flags
    void exit_code(Instruction *before, GlobalVariable *descr, Value *measured)
    {
        DebugLoc loc = before->getDebugLoc();
        Instruction *term = SplitBlockAndInsertIfThen(measured, before, false);
        IRBuilder<> b(term);
        b.SetCurrentDebugLocation(loc);
        b.CreateCall(leave, {ConstantExpr::getPointerCast(descr, i8p)});
    }

    // Every way out: returns, resumes, and (as gcc's try/finally with exceptions on) a cleanup
    // landing pad for the calls that may throw, when the function may throw. Collected first,
    // changed after: the enumerator walks the blocks being split.
    static SmallVector<Instruction *, 8> exits_of(Function &F)
    {
        SmallVector<Instruction *, 8> exits;
        EscapeEnumerator escapes(F, "scorep_cleanup", !F.doesNotThrow());
        while (IRBuilder<> *at = escapes.Next())
            exits.push_back(&*at->GetInsertPoint());
        return exits;
    }

    DebugLoc scope_line(Function &F)
    {
        if (DISubprogram *sp = F.getSubprogram())
            return DILocation::get(C, sp->getScopeLine(), 0, sp);
        return DebugLoc();
    }

    void instrument(Function &F, const names &n)
    {
        GlobalVariable *descr = descriptor(n);
        // the check's hot path in one 64-byte line, as the GCC plugin's (instrument.cc)
        if (!F.getAlign() || *F.getAlign() < Align(64))
            F.setAlignment(Align(64));
        if (split(F, descr))
            return;
        DebugLoc loc = scope_line(F);
        SmallVector<Instruction *, 8> exits = exits_of(F);
        Value *measured = entry_code(F, descr, loc);
        for (Instruction *i : exits)
            exit_code(i, descr, measured);
    }

    // Small leaf functions (no calls, at most SPLIT_LIMIT IR instructions) get their measured
    // path in a copy of their own, F.scorep_measured: enter, the body, leave. F keeps the
    // check, the count and its body, and reaches the copy by a tail call, so nothing of the
    // measured path (its calls, the values they must keep in callee-saved registers) is left
    // in F: no frame on the throttled path. A frame there pushes and pops the caller's
    // registers on every call, and those often carry the caller's loop (issue #31: a tiny
    // call's loop bound by that store and reload). LLVM does not shrink-wrap the one-body
    // form (its measured blocks rejoin the throttled ones), gcc does for tiny bodies.
    static constexpr unsigned SPLIT_LIMIT = 256;
    static bool splittable(Function &F)
    {
        if (F.isVarArg() || F.hasFnAttribute(Attribute::ReturnsTwice) ||
            F.hasFnAttribute(Attribute::Naked))
            return false;
        for (Argument &a : F.args()) // passed in the caller's frame, or Swift's registers
            if (a.hasByValAttr() || a.hasInAllocaAttr() || a.hasPreallocatedAttr() ||
                a.hasSwiftErrorAttr() || a.hasAttribute(Attribute::SwiftSelf) ||
                a.hasAttribute(Attribute::SwiftAsync))
                return false;
        unsigned n = 0;
        for (BasicBlock &bb : F) {
            if (bb.hasAddressTaken()) // blockaddress: the copy's labels would be F's
                return false;
            for (Instruction &i : bb) {
                if (isa<DbgInfoIntrinsic>(i))
                    continue;
                if (auto *call = dyn_cast<CallBase>(&i))
                    if (!isa<IntrinsicInst>(call) || call->isInlineAsm())
                        return false;
                if (++n > SPLIT_LIMIT)
                    return false;
            }
        }
        return true;
    }

    bool split(Function &F, GlobalVariable *descr)
    {
        if (!splittable(F))
            return false;
        ValueToValueMapTy vmap;
        Function *m = CloneFunction(&F, vmap);
        m->setName(F.getName() + ".scorep_measured");
        m->setLinkage(GlobalValue::InternalLinkage);
        m->setVisibility(GlobalValue::DefaultVisibility);
        m->setDLLStorageClass(GlobalValue::DefaultStorageClass);
        m->setComdat(F.getComdat()); // discarded with F's group
        m->removeFnAttr(Attribute::AlwaysInline);
        m->addFnAttr(Attribute::NoInline);
        // the copy: enter; body; leave at every exit
        SmallVector<Instruction *, 8> exits = exits_of(*m);
        BasicBlock::iterator at = m->getEntryBlock().getFirstInsertionPt();
        IRBuilder<> e(&m->getEntryBlock(), at);
        e.SetCurrentDebugLocation(scope_line(*m));
        e.CreateCall(enter, {ConstantExpr::getPointerCast(descr, i8p)});
        for (Instruction *i : exits) {
            IRBuilder<> b(i);
            b.SetCurrentDebugLocation(i->getDebugLoc());
            b.CreateCall(leave, {ConstantExpr::getPointerCast(descr, i8p)});
        }
        // F: if (flags == 0) return m(args...); count; body
        BasicBlock &entry = F.getEntryBlock();
        at = entry.getFirstInsertionPt();
        while (isa<AllocaInst>(*at))
            ++at;
        IRBuilder<> b(&entry, at);
        DebugLoc loc = scope_line(F);
        b.SetCurrentDebugLocation(loc);
        Value *flags =
            b.CreateLoad(i64, b.CreateStructGEP(region_type, descr, F_FLAGS), true, "scorep_flags");
        Value *measured = b.CreateICmpEQ(flags, ConstantInt::get(i64, 0), "scorep_measured");
        MDNode *weights = MDBuilder(C).createBranchWeights(1, 1u << 20);
        Instruction *stop = SplitBlockAndInsertIfThen(measured, &*at, true, weights);
        IRBuilder<> t(stop);
        t.SetCurrentDebugLocation(loc);
        SmallVector<Value *, 8> args;
        for (Argument &a : F.args())
            args.push_back(&a);
        CallInst *call = t.CreateCall(m, args);
        call->setTailCallKind(CallInst::TCK_Tail);
        call->setCallingConv(F.getCallingConv());
        SmallVector<AttributeSet, 8> params;
        for (unsigned i = 0; i < F.arg_size(); i++)
            params.push_back(F.getAttributes().getParamAttrs(i));
        call->setAttributes(
            AttributeList::get(C, AttributeSet(), F.getAttributes().getRetAttrs(), params));
        if (F.getReturnType()->isVoidTy())
            t.CreateRetVoid();
        else
            t.CreateRet(call);
        stop->eraseFromParent();
        IRBuilder<> count(&*at);
        count.SetCurrentDebugLocation(loc);
        count_throttled(count, flags);
        return true;
    }
};

static bool has_musttail(Function &F)
{
    for (BasicBlock &bb : F)
        if (CallInst *ci = bb.getTerminatingMustTailCall())
            return ci != nullptr;
    return false;
}

// Functions clang outlined for OpenMP constructs (.omp_outlined., .omp_outlined._debug__,
// .omp_task_entry., ...): the OMPT adapter shows the constructs themselves, and the runtime
// drops them on the hooks' path too (compiler_adapter.c). gcc outlines after the GCC plugin.
static bool outlined_by_openmp(StringRef name)
{
    return name.startswith(".omp") || name.contains(".omp_outlined") ||
           name.startswith("__omp_offloading_");
}

// Functions clang would give the -finstrument-functions hooks, less those with no frame of
// their own (naked), OpenMP's outlined bodies, coroutines before splitting, musttail calls
// (no room before the return) and bodies only kept for inlining (available_externally:
// extern gnu_inline).
static bool instrumentable(Function &F)
{
    return !F.isDeclaration() && F.hasFnAttribute("instrument-function-entry") &&
           !outlined_by_openmp(F.getName()) && !F.hasAvailableExternallyLinkage() &&
           !F.hasFnAttribute(Attribute::Naked) && !F.hasFnAttribute("coroutine.presplit") &&
           !has_musttail(F);
}

// Device code: no hooks at all (see instrument_pass::run). Returns whether it was.
static bool strip_device_marks(Module &M, bool &stripped)
{
    // device code of offloading compilations has no runtime to call: no hooks there
    // either (clang -fopenmp-targets=nvptx64 passes -finstrument-functions to the device
    // compilation too, and nvlink finds no __cyg_profile_func_enter)
    Triple triple(M.getTargetTriple());
    if (!triple.isNVPTX() && !triple.isAMDGPU() && !triple.isSPIR())
        return false;
    stripped = false;
    for (Function &F : M)
        if (F.hasFnAttribute("instrument-function-entry") ||
            F.hasFnAttribute("instrument-function-entry-inlined")) {
            F.removeFnAttr("instrument-function-entry");
            F.removeFnAttr("instrument-function-exit");
            F.removeFnAttr("instrument-function-entry-inlined");
            F.removeFnAttr("instrument-function-exit-inlined");
            stripped = true;
        }
    return true;
}

// Per module, from the start to the end of the pipeline: the functions marked at the start
// (assembler and demangled name), for the build note and the record of what was left out.
static std::vector<std::pair<std::string, std::string>> marked_in_module;
static std::vector<std::string> filtered_in_module; // demangled
static unsigned considered_in_module;

// The record as an ELF note in its own section (plugin_notes.h); the section's name makes it
// SHT_NOTE, llvm.compiler.used keeps it through the optimizer and LTO.
static void emit_note(Module &M, const scorep_leftout_record &r)
{
    LLVMContext &C = M.getContext();
    std::string bytes = r.note();
    Constant *init = ConstantDataArray::get(
        C, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
    auto *g = new GlobalVariable(M, init->getType(), true, GlobalValue::PrivateLinkage, init,
                                 "scorep_leftout_note");
    g->setSection(SCOREP_LEFTOUT_NOTE_SECTION);
    g->setAlignment(Align(8));
    appendToCompilerUsed(M, {g});
}

// XRay's -fxray-instruction-threshold with calls added: fewer IR instructions than the
// threshold (debug intrinsics not counted), no loop, no call (intrinsics are no calls).
static bool below_threshold(Function &F)
{
    if (instrument_threshold == 0)
        return false;
    SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> backedges;
    FindFunctionBackedges(F, backedges);
    if (!backedges.empty())
        return false;
    unsigned n = 0;
    for (BasicBlock &bb : F)
        for (Instruction &i : bb) {
            if (isa<DbgInfoIntrinsic>(i))
                continue;
            if (auto *call = dyn_cast<CallBase>(&i))
                if (!isa<IntrinsicInst>(call))
                    return false;
            if (++n >= instrument_threshold)
                return false;
        }
    return true;
}

// After the optimizer: instruments the marked functions that remain.
struct after_inline_pass : PassInfoMixin<after_inline_pass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
    {
        std::unique_ptr<instrumenter> ins;
        unsigned kept = 0, small = 0;
        std::vector<std::string> remained, below;
        for (Function &F : M) {
            if (F.isDeclaration() || !F.hasFnAttribute("scorep-instrument"))
                continue;
            F.removeFnAttr("scorep-instrument");
            remained.push_back(F.getName().str());
            if (below_threshold(F)) {
                small++;
                below.push_back(demangled(F.getName()));
                continue;
            }
            kept++;
            if (!ins)
                ins = std::make_unique<instrumenter>(M);
            ins->instrument(F, names_of(F));
        }
        // listed as the GCC plugin lists them: below the threshold, inlined (a marked function
        // that did not remain was inlined everywhere or was unused), filtered
        scorep_leftout_record leftout;
        for (const std::string &b : below)
            leftout.add(SCOREP_LEFTOUT_THRESHOLD, b);
        for (const auto &m : marked_in_module)
            if (std::find(remained.begin(), remained.end(), m.first) == remained.end())
                leftout.add(SCOREP_LEFTOUT_INLINED, m.second);
        for (const std::string &f : filtered_in_module)
            leftout.add(SCOREP_LEFTOUT_FILTERED, f);
        filtered_in_module.clear();
        leftout.functions = considered_in_module;
        considered_in_module = 0;
        unsigned marked = marked_in_module.size();
        marked_in_module.clear();
        if (kept < marked)
            errs() << "scorep: " << M.getSourceFileName() << ": " << marked - kept << " of "
                   << marked << " functions left uninstrumented: " << marked - kept - small
                   << " inlined everywhere or unused"
                   << (instrument_threshold > 0 ? ", " + std::to_string(small) + " below " +
                                                      std::to_string(instrument_threshold) +
                                                      " instructions without loops or calls"
                                                : std::string())
                   << " (scorep-cc --instrument-inlined, --instrument-threshold=0 keep them)\n";
        bool noted = leftout.functions > 0;
        if (noted) {
            leftout.unit = SCOREP_LEFTOUT_INSTRUCTIONS;
            leftout.threshold = instrument_inlined ? 0 : instrument_threshold;
            leftout.flags = instrument_inlined ? SCOREP_LEFTOUT_BEFORE_INLINING : 0;
            leftout.file = source_path("", M.getSourceFileName());
            emit_note(M, leftout);
        }
        if (noted)
            return PreservedAnalyses::none();
        return kept + small > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
};

// Host fallback of target constructs. clang's host code is
//   rc = __tgt_target_teams_mapper(...); if (rc != 0) __omp_offloading_..._lN(...);
// libomptarget returns before the region's host version runs, so the target-offload
// adapter's "!$omp target" region would end before the construct's body on host fallback (no
// device, OMP_TARGET_OFFLOAD=DISABLED). This brackets the host version: a call of
// scorep_rt_target_fallback_arm() before the entry point (the adapter then keeps the region
// open when the offload fails) and of scorep_rt_target_fallback_done() after the host
// version (it ends the region). Both are weak references called only when defined
// (libscorep-rt-omptarget, linked by scorep-cc for -fopenmp-targets=). At the start of the
// pipeline: clang's code as emitted, the host version not inlined yet.
static bool bracket_target_fallbacks(Module &M)
{
    static const char *const entries[] = {
        "__tgt_target_mapper",    "__tgt_target_nowait_mapper", "__tgt_target_teams_mapper",
        "__tgt_target_teams_nowait_mapper", "__tgt_target_kernel"};
    std::vector<std::pair<CallBase *, CallBase *>> sites; // (entry point call, host version call)
    for (const char *e : entries) {
        Function *tf = M.getFunction(e);
        if (!tf)
            continue;
        for (User *u : tf->users()) {
            auto *call = dyn_cast<CallBase>(u);
            if (!call || call->getCalledFunction() != tf)
                continue;
            CallBase *host = nullptr;
            for (User *cu : call->users()) {
                auto *cmp = dyn_cast<ICmpInst>(cu);
                if (!cmp || cmp->getPredicate() != ICmpInst::ICMP_NE)
                    continue;
                for (User *bu : cmp->users()) {
                    auto *br = dyn_cast<BranchInst>(bu);
                    if (!br || !br->isConditional() || host)
                        continue;
                    for (Instruction &i : *br->getSuccessor(0)) {
                        auto *fb = dyn_cast<CallBase>(&i);
                        Function *f = fb ? fb->getCalledFunction() : nullptr;
                        if (f && f->getName().startswith("__omp_offloading_")) {
                            host = fb;
                            break;
                        }
                    }
                }
            }
            if (host)
                sites.emplace_back(call, host);
        }
    }
    if (sites.empty())
        return false;
    LLVMContext &C = M.getContext();
    FunctionType *vt = FunctionType::get(Type::getVoidTy(C), false);
    auto weak = [&](const char *name) {
        Function *f = M.getFunction(name);
        if (!f)
            f = Function::Create(vt, GlobalValue::ExternalWeakLinkage, name, M);
        return f;
    };
    Function *arm = weak("scorep_rt_target_fallback_arm");
    Function *done = weak("scorep_rt_target_fallback_done");
    // if (&fn != NULL) fn(); before `at`, with at's debug location
    auto call_if_defined = [&](Function *fn, Instruction *at) {
        IRBuilder<> b(at);
        Value *defined = b.CreateICmpNE(fn, ConstantPointerNull::get(fn->getType()));
        Instruction *then = SplitBlockAndInsertIfThen(defined, at, false);
        IRBuilder<> tb(then);
        CallInst *ci = tb.CreateCall(vt, fn);
        ci->setDebugLoc(at->getDebugLoc());
    };
    for (auto &s : sites) {
        call_if_defined(done, s.second->getNextNode());
        call_if_defined(arm, s.first);
    }
    return true;
}

struct instrument_pass : PassInfoMixin<instrument_pass> {
    PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
    {
        bool stripped;
        if (strip_device_marks(M, stripped))
            return stripped ? PreservedAnalyses::none() : PreservedAnalyses::all();
        scorep_filter *filter = loaded_filter();
        std::unique_ptr<instrumenter> ins; // the runtime's declarations: only where used
        bool changed = bracket_target_fallbacks(M);
        for (Function &F : M) {
            if (F.isDeclaration() || !F.hasFnAttribute("instrument-function-entry"))
                continue;
            bool considered = instrumentable(F), ok = considered;
            names n;
            if (ok) {
                n = names_of(F);
                ok =
                    filter == nullptr || !scorep_filter_excluded(filter, n.file.c_str(),
                                                                 n.name.c_str(), n.mangled.c_str());
            }
            // no __cyg_profile_func_* calls either way: filtered means uninstrumented
            F.removeFnAttr("instrument-function-entry");
            F.removeFnAttr("instrument-function-exit");
            changed = true;
            considered_in_module += considered;
            if (!ok) {
                if (considered)
                    filtered_in_module.push_back(n.name);
                continue;
            }
            if (!instrument_inlined) { // after inlining: after_inline_pass
                F.addFnAttr("scorep-instrument");
                marked_in_module.emplace_back(F.getName().str(), n.name);
                continue;
            }
            if (!ins)
                ins = std::make_unique<instrumenter>(M);
            ins->instrument(F, n);
        }
        return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
    }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
    return {LLVM_PLUGIN_API_VERSION, "scorep_llvm_plugin", LLVM_VERSION_STRING,
            [](PassBuilder &pb) {
                pb.registerPipelineStartEPCallback([](ModulePassManager &mpm, OptimizationLevel) {
                    mpm.addPass(instrument_pass());
                });
                pb.registerOptimizerLastEPCallback([](ModulePassManager &mpm, OptimizationLevel) {
                    mpm.addPass(after_inline_pass());
                });
            }};
}
