package dev.homing.router.proxy.archfixture;

import dev.homing.router.extproc.EndpointPicker;

/** Breaks "the two data planes import neither the other": a proxy class that asks the ext_proc picker. */
public final class AsksThePicker {

    EndpointPicker picker;
}
