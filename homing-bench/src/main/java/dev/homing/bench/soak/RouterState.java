package dev.homing.bench.soak;

/**
 * The router's process at one moment, seen from outside.
 *
 * @param heapAfterGcBytes heap in use after a full collection (jcmd), or -1 when it could not be read
 * @param threads          threads of the process ({@code /proc/PID/status}), or -1
 * @param fds              open file descriptors ({@code /proc/PID/fd}), or -1
 * @param residentBytes    resident memory ({@code VmRSS}), or -1
 * @param inFlight         requests it has sent to pods and not seen end, summed over pods
 *                         ({@code homing_endpoint_in_flight_requests}), or NaN when its metrics could not be read
 * @param running          requests it is serving, summed over models ({@code inference_objective_running_requests}),
 *                         or NaN
 * @param problem          what could not be read, or empty
 */
public record RouterState(long heapAfterGcBytes, int threads, int fds, long residentBytes, double inFlight,
                          double running, String problem) {
}
