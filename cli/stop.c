/* stop.c - the stop flag of a long run and its signal handlers (stop.h). */
#include "stop.h"

#include <string.h>

#include "../solver/process.h"

/* The one piece of global mutable state: a signal handler can reach
 * nothing else.  The runs only read it, through the pointer. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) { stop_signal = sig; }

volatile sig_atomic_t *pb_stop_flag(void) { return &stop_signal; }

void pb_stop_catch(struct sigaction old[2]) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

void pb_stop_restore(const struct sigaction old[2]) {
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

const char *pb_stop_by(const char *otherwise) { return pb_signal_name(stop_signal, otherwise); }
