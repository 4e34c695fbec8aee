/* process.c - what the running process uses (process.h), read from
 * /proc/self/status. */
#define _DEFAULT_SOURCE
#include "process.h"

#include <signal.h>

#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pb_peak_rss(void) {
    FILE *in = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    if (!in) return 0;
    while (fgets(line, sizeof line, in))
        if (!strncmp(line, "VmHWM:", 6)) kb = (size_t)strtoull(line + 6, NULL, 10);
    fclose(in);
    return kb * 1024;
}

/* pb_table_map with huge pages from huge_from bytes on. */
static void *table_map(size_t *bytes, size_t huge_from) {
    int huge = *bytes >= huge_from;
    size_t unit = huge ? (size_t)2 << 20 : 4096;
    *bytes = (*bytes + unit - 1) & ~(unit - 1);
    void *mem = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    if (huge) madvise(mem, *bytes, MADV_HUGEPAGE);
#endif
    return mem;
}

void *pb_table_map(size_t *bytes) { return table_map(bytes, (size_t)16 << 20); }

void *pb_table_map_dense(size_t *bytes) { return table_map(bytes, (size_t)2 << 20); }

void pb_table_unmap(void *mem, size_t bytes) {
    if (mem) munmap(mem, bytes);
}

const char *pb_signal_name(int sig, const char *otherwise) {
    return sig == SIGTERM ? "SIGTERM" : sig ? "Ctrl-C (SIGINT)" : otherwise;
}
