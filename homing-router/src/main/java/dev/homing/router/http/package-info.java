/**
 * What the router's ports and data planes share: reading a request once, bounded, and parsing it for its API ({@link
 * dev.homing.router.http.RequestIntake}); reading usage and a Responses API response's id as a response passes ({@link
 * dev.homing.router.http.UsageScanner}); answering an OpenAI-shaped error. Below the HTTP proxy, the explainer and the
 * ext_proc server, which all judge a request alike, and above nothing of the router's.
 */
package dev.homing.router.http;
