/* SPDX-License-Identifier: BSD-3-Clause */
/* plugin_notes.h: the ELF note in which the compiler plugins record, per translation unit, the
 * functions they left uninstrumented and why (#31), and the reader that lists them in MANIFEST.md.
 * A note costs the program nothing at run time and needs no runtime symbol: the linker gathers
 * the notes of all objects into a PT_NOTE segment, which the runtime reads at the end. */
#ifndef SCOREP_PLUGIN_NOTES_H
#define SCOREP_PLUGIN_NOTES_H

#include <stdint.h>
#include <stdio.h>

/* namesz 10 ("scorep-rt" and its NUL): the descriptor starts at offset 24 under the 4-byte and
 * the 8-byte note alignment alike, and its size is a multiple of 8, so the note reads the same
 * in a segment of either alignment (.note.gnu.property makes x86-64's first PT_NOTE 8-aligned). */
#define SCOREP_LEFTOUT_NOTE_NAME "scorep-rt"
#define SCOREP_LEFTOUT_NOTE_SECTION ".note.scorep-rt.leftout"
#define SCOREP_LEFTOUT_NOTE_TYPE 0x5331u
#define SCOREP_LEFTOUT_VERSION 1u

/* Why a function is left out; the reason byte of a listed name is '0' + reason. */
enum {
    SCOREP_LEFTOUT_INLINED,   /* inlined everywhere (or unused): no body of its own remains */
    SCOREP_LEFTOUT_THRESHOLD, /* below the threshold, without loops or calls */
    SCOREP_LEFTOUT_FILTERED,  /* excluded by the compile-time filter (scorep-cc --filter) */
    SCOREP_LEFTOUT_REASONS
};
/* Names listed per translation unit (the counts are complete), and the bytes kept of each
 * (a longer name ends in "..."). The plugins list those below the threshold first. */
#define SCOREP_LEFTOUT_NAMES 32
#define SCOREP_LEFTOUT_NAME_MAX 255

/* flags */
#define SCOREP_LEFTOUT_BEFORE_INLINING 1u /* instrumented before inlining: inlined copies count */
#define SCOREP_LEFTOUT_LTO 2u  /* gcc -flto's compile step: lto1 decides, in LINK notes */
#define SCOREP_LEFTOUT_LINK 4u /* a link-time unit of gcc -flto (lto1); no file */
/* unit of the threshold */
#define SCOREP_LEFTOUT_STATEMENTS 0u   /* GIMPLE statements (gcc) */
#define SCOREP_LEFTOUT_INSTRUCTIONS 1u /* LLVM IR instructions (clang) */

/* The descriptor: uint32_t version, flags, unit, threshold, functions (those the plugin
 * considered), count[SCOREP_LEFTOUT_REASONS], listed; then the translation unit's file and
 * `listed` entries (reason byte, name), each NUL-terminated; NUL-padded to a multiple of 8. */
#define SCOREP_LEFTOUT_WORDS (6 + SCOREP_LEFTOUT_REASONS)

/* MANIFEST.md's last section (scorep-report shows those before it as reduction notes) */
#define SCOREP_LEFTOUT_HEADING "## Left out by the compiler plugin"

/* Writes the section "Left out by the compiler plugin" of MANIFEST.md from the notes of every
 * loaded object; nothing when no object was compiled by a plugin. Returns -1 on an error of f. */
int scorep_plugin_notes_write(FILE *f);

#ifdef __cplusplus
#include <string.h>
#include <string>
#include <utility>
#include <vector>

/* What one plugin gathers per translation unit, and the note's bytes. */
struct scorep_leftout_record {
    uint32_t flags = 0, unit = 0, threshold = 0, functions = 0;
    uint32_t count[SCOREP_LEFTOUT_REASONS] = {0, 0, 0};
    std::string file;
    std::vector<std::pair<unsigned, std::string>> names;

    void add(unsigned reason, const std::string &name)
    {
        count[reason]++;
        if (names.size() < SCOREP_LEFTOUT_NAMES)
            names.emplace_back(reason, name.size() <= SCOREP_LEFTOUT_NAME_MAX
                                           ? name
                                           : name.substr(0, SCOREP_LEFTOUT_NAME_MAX - 3) + "...");
    }

    static void word(std::string &out, uint32_t w)
    {
        char b[4];
        memcpy(b, &w, 4);
        out.append(b, 4);
    }

    std::string note() const
    {
        std::string desc;
        uint32_t head[SCOREP_LEFTOUT_WORDS] = {SCOREP_LEFTOUT_VERSION, flags, unit, threshold,
                                               functions};
        for (unsigned r = 0; r < SCOREP_LEFTOUT_REASONS; r++)
            head[5 + r] = count[r];
        head[5 + SCOREP_LEFTOUT_REASONS] = (uint32_t)names.size();
        for (uint32_t w : head)
            word(desc, w);
        desc.append(file).push_back('\0');
        for (const auto &n : names) {
            desc.push_back((char)('0' + n.first));
            desc.append(n.second).push_back('\0');
        }
        desc.resize((desc.size() + 7) / 8 * 8, '\0');
        std::string out;
        word(out, sizeof SCOREP_LEFTOUT_NOTE_NAME);
        word(out, (uint32_t)desc.size());
        word(out, SCOREP_LEFTOUT_NOTE_TYPE);
        out.append(SCOREP_LEFTOUT_NOTE_NAME, sizeof SCOREP_LEFTOUT_NOTE_NAME);
        out.resize(24, '\0');
        return out + desc;
    }
};
#endif

#endif
