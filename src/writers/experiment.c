/* SPDX-License-Identifier: BSD-3-Clause */
/* experiment.c: creates the experiment directory and its descriptive files. */
#include "writers/experiment.h"
#include "base/log.h"
#include "base/settings.h"
#include "base/state.h"
#include "symbols/plugin_notes.h"
#include "writers/writer.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void stamp(char *buf, size_t len, const char *fmt)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(buf, len, fmt, &tm);
}

static int absolute(const char *path, char *out, size_t len)
{
    if (path[0] == '/')
        return snprintf(out, len, "%s", path) < (int)len ? 0 : -1;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    return snprintf(out, len, "%s/%s", cwd, path) < (int)len ? 0 : -1;
}

static void default_name(char *buf, size_t len)
{
    char t[32];
    struct timespec ts;
    stamp(t, sizeof t, "%Y%m%d_%H%M");
    clock_gettime(CLOCK_REALTIME, &ts);
    /* unique part: microseconds within the minute plus the pid, so two jobs started in the
     * same minute in one directory do not collide */
    snprintf(buf, len, "scorep-%s_%lu%06ld_%d", t, (unsigned long)(ts.tv_sec % 60),
             ts.tv_nsec / 1000, (int)getpid());
}

static int move_aside(const char *dir, char *err, size_t errlen)
{
    char old[PATH_MAX + 64], t[32];
    stamp(t, sizeof t, "%Y%m%d_%H%M%S");
    for (int i = 0; i < 1000; i++) {
        snprintf(old, sizeof old, i ? "%s-old-%s-%d" : "%s-old-%s", dir, t, i);
        if (access(old, F_OK) != 0)
            break;
    }
    if (rename(dir, old) != 0) {
        snprintf(err, errlen, "cannot rename the existing experiment directory '%s' aside: %s", dir,
                 strerror(errno));
        return -1;
    }
    scorep_verbose("existing experiment directory renamed to '%s'", old);
    return 0;
}

/* SCOREP_EXPERIMENT_DIRECTORY names something that is not a directory (a file: often the
 * program itself, when the directory is named after it): it is left alone, and the results go
 * to the first free "<name>-<date>[-N]" beside it, said in one warning. */
static int beside_file(char *dir, size_t len, char *err, size_t errlen)
{
    char want[PATH_MAX], t[32];
    snprintf(want, sizeof want, "%s", dir);
    stamp(t, sizeof t, "%Y%m%d_%H%M%S");
    for (int i = 0; i < 1000; i++) {
        if (snprintf(dir, len, i ? "%s-%s-%d" : "%s-%s", want, t, i) >= (int)len) {
            snprintf(err, errlen, "experiment directory name '%s-%s' is too long", want, t);
            return -1;
        }
        if (mkdir(dir, 0777) == 0) {
            scorep_warn("SCOREP_EXPERIMENT_DIRECTORY '%s' is a file, not a directory; it is left "
                        "as it is, and the results go to '%s' (choose another name to avoid this)",
                        want, dir);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    snprintf(err, errlen,
             "SCOREP_EXPERIMENT_DIRECTORY '%s' is a file, not a directory, and no directory "
             "beside it can be created (%s); choose another name",
             want, strerror(errno));
    return -1;
}

/* The directory this process created: another job with the same SCOREP_EXPERIMENT_DIRECTORY
 * may move it aside while this one runs (scorep_experiment_follow). */
static dev_t created_dev;
static ino_t created_ino;
static bool created;

static void remember(const char *dir)
{
    struct stat st;
    created = stat(dir, &st) == 0;
    created_dev = st.st_dev;
    created_ino = st.st_ino;
}

/* A spawned job's directory: the first spawn-N inside the named one that mkdir creates
 * (atomic, so jobs spawned at once do not share one). */
static int create_spawned(char *dir, size_t len, char *err, size_t errlen)
{
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    if (mkdir(parent, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create the experiment directory '%s': %s", parent,
                 strerror(errno));
        return -1;
    }
    for (int n = 1; n < 100000; n++) {
        if (snprintf(dir, len, "%s/spawn-%d", parent, n) >= (int)len) {
            snprintf(err, errlen, "experiment directory name '%s/spawn-%d' is too long", parent, n);
            return -1;
        }
        if (mkdir(dir, 0777) == 0) {
            remember(dir);
            return 0;
        }
        if (errno != EEXIST) {
            snprintf(err, errlen, "cannot create the experiment directory '%s': %s", dir,
                     strerror(errno));
            return -1;
        }
    }
    snprintf(err, errlen, "'%s' holds 99999 spawned jobs' directories already", parent);
    return -1;
}

int scorep_experiment_create(char *dir, size_t len, bool spawned, char *err, size_t errlen)
{
    char name[PATH_MAX];
    const char *want = scorep_cfg.experiment_directory;
    if (want && *want)
        snprintf(name, sizeof name, "%s", want);
    else
        default_name(name, sizeof name); /* unique: no clash with the parent's */
    if (absolute(name, dir, len) != 0) {
        snprintf(err, errlen, "experiment directory name '%s' is too long", name);
        return -1;
    }
    if (spawned && want && *want)
        return create_spawned(dir, len, err, errlen);
    struct stat st;
    /* a file, or a symbolic link to one or to nothing, is in the way but not a directory */
    if (lstat(dir, &st) == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        if (beside_file(dir, len, err, errlen) != 0)
            return -1;
        remember(dir);
        return 0;
    }
    if (stat(dir, &st) == 0) {
        if (!scorep_cfg.overwrite_experiment_directory) {
            snprintf(err, errlen,
                     "experiment directory '%s' exists and SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY"
                     " is false; remove it, choose another SCOREP_EXPERIMENT_DIRECTORY, or set "
                     "SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true",
                     dir);
            return -2;
        }
        if (move_aside(dir, err, errlen) != 0)
            return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        snprintf(err, errlen,
                 "cannot create the experiment directory '%s': %s; set "
                 "SCOREP_EXPERIMENT_DIRECTORY to a writable place",
                 dir, strerror(errno));
        return -1;
    }
    remember(dir);
    return 0;
}

static bool is_created(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_dev == created_dev &&
           st.st_ino == created_ino;
}

int scorep_experiment_follow(char *dir, size_t len)
{
    if (!created || is_created(dir))
        return 0;
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", dir);
    char *slash = strrchr(parent, '/');
    if (!slash)
        return -1;
    *slash = 0;
    DIR *d = opendir(parent[0] ? parent : "/");
    int rc = -1;
    char path[PATH_MAX + 256];
    for (struct dirent *e; d && rc != 0 && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
        if (is_created(path) && strlen(path) < len) {
            scorep_warn("the experiment directory '%s' was moved to '%s' by another job with "
                        "the same SCOREP_EXPERIMENT_DIRECTORY; this job's results go there",
                        dir, path);
            snprintf(dir, len, "%s", path);
            rc = 1;
        }
    }
    if (d)
        closedir(d);
    return rc;
}

int scorep_experiment_write_cfg(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/scorep.cfg", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = scorep_cfg_write(scorep_cfg_vars, scorep_cfg_n_vars, f);
    return fclose(f) != 0 ? -1 : rc;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "r"), *out = in ? fopen(to, "w") : NULL;
    char buf[8192];
    size_t n;
    int rc = in && out ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        rc = fwrite(buf, 1, n, out) == n ? 0 : -1;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    return rc;
}

/* The per-process I/O summaries (src/core/events_io.c): each file up to 16, else a count. */
static void list_io_summaries(FILE *f, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    int ranks[16];
    long n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        int rank, end = 0;
        if (sscanf(e->d_name, "io_summary.%d.tsv%n", &rank, &end) != 1 || e->d_name[end] != '\0')
            continue;
        if (n < 16)
            ranks[n] = rank;
        n++;
    }
    closedir(d);
    if (n > 16) {
        fprintf(f,
                "- `io_summary.<rank>.tsv` (%ld files): per-file I/O summary of each process "
                "(docs/io.md)\n",
                n);
        return;
    }
    for (long i = 1; i < n; i++) /* in rank order */
        for (long j = i; j > 0 && ranks[j - 1] > ranks[j]; j--) {
            int t = ranks[j];
            ranks[j] = ranks[j - 1];
            ranks[j - 1] = t;
        }
    for (long i = 0; i < n; i++)
        fprintf(f, "- `io_summary.%d.tsv`: per-file I/O summary of rank %d (docs/io.md)\n",
                ranks[i], ranks[i]);
}

static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;
static char notes[4096];

void scorep_experiment_note(const char *line)
{
    pthread_mutex_lock(&notes_lock);
    size_t n = strlen(notes);
    snprintf(notes + n, sizeof notes - n, "- %s\n", line);
    pthread_mutex_unlock(&notes_lock);
}

static struct {
    const char *src, *name, *what;
} kept[4];
static int n_kept;

void scorep_experiment_keep_file(const char *src, const char *name, const char *what)
{
    pthread_mutex_lock(&notes_lock);
    if (n_kept < 4) {
        kept[n_kept].src = src;
        kept[n_kept].name = name;
        kept[n_kept++].what = what;
    }
    pthread_mutex_unlock(&notes_lock);
}

int scorep_experiment_write_manifest(const char *dir, int profile, int trace)
{
    char path[PATH_MAX + 32];
    int filter = scorep_active_filter && scorep_cfg.filtering_file && *scorep_cfg.filtering_file;
    if (filter) {
        snprintf(path, sizeof path, "%s/scorep.filter", dir);
        if (copy_file(scorep_cfg.filtering_file, path) != 0)
            scorep_warn("could not copy the filter file into '%s'", dir);
    }
    int copied[4] = {0};
    for (int i = 0; i < n_kept; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, kept[i].name);
        copied[i] = copy_file(kept[i].src, path) == 0;
        if (!copied[i])
            scorep_warn("could not copy '%s' into '%s'", kept[i].src, dir);
    }
    snprintf(path, sizeof path, "%s/MANIFEST.md", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# Experiment of %s, measured by scorep-rt\n\n", scorep_program_name());
    fprintf(f, "- `scorep.cfg`: effective values of all SCOREP_* variables\n");
    if (profile)
        fprintf(f, "- `%s.cubex`: call-path profile (Cube4; open with Cube or scorep-score)\n",
                scorep_cfg.profiling_base_name);
    if (trace)
        fprintf(f, "- `traces.otf2`, `traces.def`, `traces/`: event trace (OTF2; open with "
                   "Vampir or otf2-print)\n");
    if (filter)
        fprintf(f, "- `scorep.filter`: the filter file that was applied\n");
    for (int i = 0; i < n_kept; i++)
        if (copied[i])
            fprintf(f, "- `%s`: %s\n", kept[i].name, kept[i].what);
    list_io_summaries(f, dir);
    if (trace && scorep_trace_notes())
        fputs(scorep_trace_notes(), f);
    pthread_mutex_lock(&notes_lock);
    if (notes[0])
        fprintf(f, "\n## Notes\n%s", notes);
    pthread_mutex_unlock(&notes_lock);
    /* last: scorep-report shows the sections before it as the trace's reduction notes */
    if (scorep_plugin_notes_write(f) != 0)
        scorep_warn("could not list what the compiler plugin left out in '%s'", path);
    return fclose(f) != 0 ? -1 : 0;
}
