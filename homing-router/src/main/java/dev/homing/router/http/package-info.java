/**
 * What the router's two ports share: reading an inference request once, bounded ({@link
 * dev.homing.router.http.RequestIntake}), and answering an OpenAI-shaped error. Below the proxy and the explainer,
 * which both judge a request alike, and above nothing of the router's.
 */
package dev.homing.router.http;
