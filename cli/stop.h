/* stop.h - SIGINT (Ctrl-C) and SIGTERM (timeout, Slurm, kill) turned into a
 * clean stop of a long run: the handler only sets a flag, which the run's
 * loops read (the `stop` of their options) before they save what is
 * finished and report. */
#ifndef PB_STOP_H
#define PB_STOP_H

#include <signal.h>

/* The flag: the number of the signal that stopped the run, 0 while none. */
volatile sig_atomic_t *pb_stop_flag(void);

/* Catches SIGINT and SIGTERM into the flag; old[2] gets the handlers that
 * pb_stop_restore puts back. */
void pb_stop_catch(struct sigaction old[2]);
void pb_stop_restore(const struct sigaction old[2]);

/* What stopped the run, for its closing line: the signal, else otherwise. */
const char *pb_stop_by(const char *otherwise);

#endif
