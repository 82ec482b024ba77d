package dev.homing.router.extproc.archfixture;

import dev.homing.router.proxy.ApiPort;

/** Breaks "the two data planes import neither the other": an ext_proc class that forwards as the proxy does. */
public final class RelaysLikeTheProxy {

    ApiPort port;
}
