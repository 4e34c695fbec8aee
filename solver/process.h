/* process.h - what the running process uses, as the system reports it:
 * the figures a result quotes beside its own counters. */
#ifndef PB_PROCESS_H
#define PB_PROCESS_H

#include <stddef.h>

/* The peak resident memory of this process so far (VmHWM), in bytes; 0
 * where the system does not report it. */
size_t pb_peak_rss(void);

/* Zeroed memory for a large table: anonymous pages, from 16 MiB on in
 * 2 MiB units with transparent huge pages where the kernel offers them
 * (random probes into a large table then miss the TLB far less, and a
 * sparse table costs one page fault per 2 MiB rather than per 4 KiB).  A
 * small table (an endgame's) keeps 4 KiB pages: a huge page would be
 * cleared whole for the few entries it holds.  *bytes is rounded up to the
 * length mapped; NULL if the memory is not there. */
void *pb_table_map(size_t *bytes);
/* The same for a table that will be filled at once (a quarter or more of
 * its slots), so a huge page is never cleared for a few entries: huge
 * pages from 2 MiB on. */
void *pb_table_map_dense(size_t *bytes);
/* Returns what pb_table_map or pb_table_map_dense gave (mem may be NULL). */
void pb_table_unmap(void *mem, size_t bytes);

/* The name a closing line gives the signal that stopped a run (the number
 * a stop handler stored): "SIGTERM", "Ctrl-C (SIGINT)", or `otherwise`
 * when sig is 0 (no signal: the run stopped for that reason). */
const char *pb_signal_name(int sig, const char *otherwise);

#endif
