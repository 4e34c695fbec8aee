/* process.h - what the running process uses, as the system reports it:
 * the figures a result quotes beside its own counters. */
#ifndef PB_PROCESS_H
#define PB_PROCESS_H

#include <stddef.h>

/* The peak resident memory of this process so far (VmHWM), in bytes; 0
 * where the system does not report it. */
size_t pb_peak_rss(void);

#endif
