/* Corpus replayer: a plain main() around a fuzz target's
 * LLVMFuzzerTestOneInput, for builds without libFuzzer (gcc, CI).
 *
 *   fuzz_X_replay [-n N] [-s SEED] PATH...
 *
 * Runs every file named or found (one level deep) in the PATHs, in sorted
 * order, then N mutants (default 0): a file picked by a xorshift generator
 * seeded with SEED (default 1), mutated by a few byte flips, inserts,
 * deletes, overwrites and splices with another file. Everything is
 * deterministic for a given corpus, N and SEED. A crash or sanitizer report
 * is the failure; the mutant that caused it can be written out with
 * AIRC_FUZZ_SAVE=path (each mutant is written there before it runs). */
#include "fuzz_common.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

typedef struct blob {
    uint8_t *data;
    size_t size;
    char *path;
} blob;

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static size_t rng_below(size_t n)
{
    return n ? (size_t)(rng_next() % n) : 0;
}

static int read_blob(const char *path, blob *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    out->data = buf;
    out->size = n;
    out->path = strdup(path);
    return out->path ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends path, or the regular files of the directory path (sorted). */
static int collect(const char *path, blob **files, size_t *n, size_t *cap)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: cannot read '%s'\n", path);
        return -1;
    }
    char **names = NULL;
    size_t nnames = 0;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return -1;
        size_t ncap = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            if (nnames == ncap) {
                ncap = ncap ? ncap * 2 : 64;
                char **more = realloc(names, ncap * sizeof *names);
                if (!more)
                    break;
                names = more;
            }
            size_t len = strlen(path) + strlen(e->d_name) + 2;
            names[nnames] = malloc(len);
            if (!names[nnames])
                break;
            snprintf(names[nnames++], len, "%s/%s", path, e->d_name);
        }
        closedir(d);
        qsort(names, nnames, sizeof *names, cmp_str);
    } else {
        names = malloc(sizeof *names);
        if (names && (names[0] = strdup(path)))
            nnames = 1;
    }
    int rc = 0;
    for (size_t i = 0; i < nnames; i++) {
        struct stat fst;
        if (rc == 0 && stat(names[i], &fst) == 0 && S_ISREG(fst.st_mode)) {
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                blob *more = realloc(*files, *cap * sizeof **files);
                if (!more)
                    rc = -1;
                else
                    *files = more;
            }
            if (rc == 0 && read_blob(names[i], &(*files)[*n]) == 0)
                (*n)++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

/* One mutant of files[pick] into buf (capacity cap); returns its size. */
static size_t mutate(const blob *files, size_t nfiles, uint8_t *buf, size_t cap)
{
    const blob *src = &files[rng_below(nfiles)];
    size_t n = src->size < cap ? src->size : cap;
    memcpy(buf, src->data, n);
    size_t steps = 1 + rng_below(4);
    for (size_t s = 0; s < steps; s++) {
        size_t at = rng_below(n + 1);
        switch (rng_below(6)) {
        case 0: /* flip a bit */
            if (n)
                buf[rng_below(n)] ^= (uint8_t)(1u << rng_below(8));
            break;
        case 1: /* set a byte to an interesting value */
            if (n) {
                static const uint8_t vals[] = {0,   1,   0x7f, 0x80, 0xff, '0', '9',  '%',
                                               '(', ')', '[',  ']',  ',',  ':', '\n', '-'};
                buf[rng_below(n)] = vals[rng_below(sizeof vals)];
            }
            break;
        case 2: /* insert random bytes */
        {
            size_t k = 1 + rng_below(8);
            if (n + k > cap)
                break;
            memmove(buf + at + k, buf + at, n - at);
            for (size_t i = 0; i < k; i++)
                buf[at + i] = (uint8_t)rng_next();
            n += k;
            break;
        }
        case 3: /* delete a run */
        {
            size_t k = 1 + rng_below(16);
            if (at + k > n)
                k = n - at;
            memmove(buf + at, buf + at + k, n - at - k);
            n -= k;
            break;
        }
        case 4: /* overwrite with a copy of another part */
            if (n > 1) {
                size_t from = rng_below(n), k = 1 + rng_below(16);
                if (from + k > n)
                    k = n - from;
                if (at + k > n)
                    k = n - at;
                memmove(buf + at, buf + from, k);
            }
            break;
        default: /* splice: the head of this one, the tail of another */
        {
            const blob *other = &files[rng_below(nfiles)];
            size_t from = rng_below(other->size + 1), k = other->size - from;
            if (at + k > cap)
                k = cap - at;
            memcpy(buf + at, other->data + from, k);
            n = at + k;
            break;
        }
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    unsigned long long nmut = 0, seed = 1;
    blob *files = NULL;
    size_t nfiles = 0, cap = 0, maxlen = 64;
    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            nmut = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (collect(argv[i], &files, &nfiles, &cap) != 0)
            return 2;
    }
    if (!nfiles) {
        fprintf(stderr, "usage: %s [-n MUTANTS] [-s SEED] CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < nfiles; i++) {
        /* a copy of exactly the file's size, so that ASan sees overreads */
        uint8_t *copy = malloc(files[i].size ? files[i].size : 1);
        if (!copy)
            return 2;
        memcpy(copy, files[i].data, files[i].size);
        LLVMFuzzerTestOneInput(copy, files[i].size);
        free(copy);
        if (files[i].size + 64 > maxlen)
            maxlen = files[i].size + 64;
    }
    rng_state = seed ? seed * 0x9E3779B97F4A7C15ull : 0x9E3779B97F4A7C15ull;
    const char *save = getenv("AIRC_FUZZ_SAVE");
    uint8_t *buf = malloc(maxlen);
    for (unsigned long long m = 0; buf && m < nmut; m++) {
        size_t n = mutate(files, nfiles, buf, maxlen);
        if (save) {
            FILE *f = fopen(save, "wb");
            if (f) {
                fwrite(buf, 1, n, f);
                fclose(f);
            }
        }
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy)
            break;
        memcpy(copy, buf, n);
        LLVMFuzzerTestOneInput(copy, n);
        free(copy);
    }
    free(buf);
    printf("%s: %zu files, %llu mutants (seed %llu): ok\n", argv[0], nfiles, nmut, seed);
    for (size_t i = 0; i < nfiles; i++) {
        free(files[i].data);
        free(files[i].path);
    }
    free(files);
    return 0;
}
