package dev.homing.bench.workload;

import java.util.Arrays;

/**
 * A binary max-heap of int ids (below a fixed bound) with long keys, indexed so an id's key can be changed or the id
 * removed in O(log n): the resident set of {@link BeladyBound}, keyed by next use. Holds at most {@code capacity} ids.
 */
final class LongMaxHeap {

    private final int[] heap;
    private final long[] keys;
    /** Where each id sits in {@link #heap}, or -1 when it is not in the heap. */
    private final int[] position;
    private int size;

    LongMaxHeap(int capacity, int idBound) {
        this.heap = new int[capacity];
        this.keys = new long[capacity];
        this.position = new int[idBound];
        Arrays.fill(position, -1);
    }

    int size() {
        return size;
    }

    boolean contains(int id) {
        return position[id] >= 0;
    }

    /** The largest key; the heap must not be empty. */
    long maxKey() {
        return keys[0];
    }

    /** Adds an id that is not in the heap; the heap must not be full. */
    void add(int id, long key) {
        if (size == heap.length) {
            throw new IllegalStateException("heap full");
        }
        heap[size] = id;
        keys[size] = key;
        position[id] = size;
        up(size++);
    }

    /** Changes the key of an id in the heap. */
    void update(int id, long key) {
        int i = position[id];
        long old = keys[i];
        keys[i] = key;
        if (key > old) {
            up(i);
        } else {
            down(i);
        }
    }

    /** Removes and returns the id with the largest key. */
    int pollMax() {
        int top = heap[0];
        position[top] = -1;
        size--;
        if (size > 0) {
            heap[0] = heap[size];
            keys[0] = keys[size];
            position[heap[0]] = 0;
            down(0);
        }
        return top;
    }

    private void up(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (keys[parent] >= keys[i]) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void down(int i) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int big = l + 1 < size && keys[l + 1] > keys[l] ? l + 1 : l;
            if (keys[i] >= keys[big]) {
                return;
            }
            swap(i, big);
            i = big;
        }
    }

    private void swap(int a, int b) {
        int ia = heap[a];
        long ka = keys[a];
        heap[a] = heap[b];
        keys[a] = keys[b];
        heap[b] = ia;
        keys[b] = ka;
        position[heap[a]] = a;
        position[heap[b]] = b;
    }
}
