package dev.homing.core.archstandin;

/**
 * Stands for a class of homing-core in the fixtures that prove the module rules fail: test code only, in
 * homing-protocol's test jar so that every module's tests can name it, whichever modules its own tests can see.
 */
public final class CoreStandIn {

    private CoreStandIn() {
    }
}
