/**
 * Flow control as the router runs it: the core flow controller for the running config, its dispatcher thread, the
 * pool's saturation over the endpoints pod health allows. Both data planes enqueue through {@link
 * dev.homing.router.flow.FlowGate}.
 */
package dev.homing.router.flow;
