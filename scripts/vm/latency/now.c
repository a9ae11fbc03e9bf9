/* Prints CLOCK_MONOTONIC in µs: the guest script of the latency benchmark
 * notes it between a reader's unmeasured and measured cycles, and the
 * samples whose frames are older belong to the first.
 * Usage: latency-now */
#include "latency.h"

int main(void)
{
	printf("%lld\n", (long long)now_us());
	return 0;
}
