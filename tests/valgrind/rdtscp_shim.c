/* rdtscp_shim.c: preloaded into Octave under valgrind on machines whose CPU
 * does not report RDTSCP (tests/valgrind/memcheck.sh decides).
 *
 * valgrind 3.19 decodes RDTSCP only when the host CPU reports it, yet the
 * CPU it describes to the program always has it.  Octave loads libhwy
 * (through its image libraries), and libhwy measures its timer's resolution
 * with RDTSCP while it loads, so Octave dies of SIGILL before it starts.
 * This stands in for that one measurement; nothing of the package or of
 * the tests reads libhwy's timer. */
double hwy_timer_resolution(void) __asm__("_ZN3hwy8platform15TimerResolutionEv");

double hwy_timer_resolution(void)
{
    return 1.0;  /* ticks: any positive value */
}
