package dev.homing.router.discovery;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.Consumer;

/**
 * An informer's every change (and an empty list, which notifies nothing else) as one call: the state is rebuilt from
 * the informer's store whatever changed, so which object changed and how does not matter.
 */
final class RefreshOnChange<T> implements ResourceEventHandler<T> {

    private final String what;
    private final Consumer<String> refresh;

    /** @param refresh told {@code what} changed */
    RefreshOnChange(String what, Consumer<String> refresh) {
        this.what = what;
        this.refresh = refresh;
    }

    @Override
    public void onAdd(T obj) {
        refresh.accept(what);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        refresh.accept(what);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        refresh.accept(what);
    }

    @Override
    public void onNothing() {
        refresh.accept(what);
    }
}
