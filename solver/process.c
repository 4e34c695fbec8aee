/* process.c - what the running process uses (process.h), read from
 * /proc/self/status. */
#include "process.h"

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
