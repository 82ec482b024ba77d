package dev.homing.router.proxy.archfixture;

import io.fabric8.kubernetes.client.KubernetesClient;

/** Breaks "only discovery and election speak to Kubernetes": a proxy class holding a fabric8 client. */
public final class TalksToKubernetes {

    KubernetesClient client;
}
