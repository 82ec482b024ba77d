/**
 * The router's HTTP/1.1 client to model servers: pooled keep-alive connections over blocking sockets (each request
 * runs on its own virtual thread), request bytes written as given, response bodies read as they arrive (a chunked
 * SSE stream chunk by chunk), nothing copied twice. Knows nothing of routing: the proxy gives it an address, a method,
 * headers and a body.
 */
package dev.homing.router.upstream;
