/**
 * The data plane's yardstick ({@code homing bench proxy}): a load generator of its own over raw keep-alive sockets,
 * closed loop for a server's peak rate and open loop at a fixed rate with latencies taken from each request's intended
 * start (so a stalled server is charged for the requests it delayed), and the nginx processes it is compared with.
 */
package dev.homing.bench.dataplane;
