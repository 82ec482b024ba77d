package dev.homing.core.precise;

/**
 * The holdings of an {@link InMemoryPreciseIndex}, one per (pod, block, tier), addressed by an int id rather than as
 * objects: per holding three longs side by side, its key, then pod and tier with the next holding of the same key, then
 * the previous and next in store order; 24 bytes where an object with its header and references took 48. Pages of
 * them grow without copying and never make G1 humongous objects; freed ids are reused first.
 *
 * <p>A table from key to the first holding of its chain (the holdings of one key, linked through {@link #nextOfKey})
 * keeps only that int per slot, and a byte of its distance from its home slot: 5 bytes a slot. Keys are compared
 * through the holdings, but only those of entries whose home is the key's, so a probe seldom fetches another key's
 * holding; the distance also gives a moved entry's home without one. The int's high bit is a flag the index uses to say
 * the key also has a summary ({@link #SUMMARY}).
 *
 * <p>Id 0 is the sentinel of the store-order list and, as a link, the end of a chain. Not thread-safe.
 */
final class Holdings {

    /** The end of a chain; the store-order list's sentinel. */
    static final int NONE = 0;
    /** In {@link #podTier}: the holding is speculative (its expiry is kept by {@link SpeculativeHolds}). */
    static final int SPECULATIVE = 0x80;
    static final int TIER_MASK = 0x7F;
    static final int POD_SHIFT = 8;
    /** Pod ids are below this. */
    static final int MAX_PODS = (1 << 23) - 1;
    /** In a table slot: the key has a summary. */
    static final int SUMMARY = 0x8000_0000;
    static final int ID_MASK = 0x7FFF_FFFF;

    private static final int FREE = -1; // podTier of a freed id
    private static final int PAGE_BITS = 12; // holdings per page: 96 KiB
    private static final int PAGE = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE - 1;
    private static final long LOW = 0xFFFF_FFFFL;
    // Per holding, three longs side by side, so that a key compared in the table and its chain's next are one fetch:
    private static final int KEY = 0;
    private static final int LINKS = 1; // pod and tier (high half), next holding of the same key (low half)
    private static final int ORDER = 2; // previous (high half) and next (low half) in store order

    private static final int TABLE_PAGE_BITS = 14; // slots per table page: 64 KiB
    private static final int TABLE_PAGE = 1 << TABLE_PAGE_BITS;
    private static final int TABLE_PAGE_MASK = TABLE_PAGE - 1;
    private static final int MIN_TABLE = 64;
    private static final int FAR = 127;

    private long[][] pages = new long[4][];
    private int nextId; // ids below it have been handed out at least once
    private int freeIds = NONE; // freed ids, linked through the store order's next

    private int[][] table;
    private byte[][] distances; // per slot, from its entry's home; FAR: that far or more, ask the key
    private int tableMask;
    private int keys; // slots in use

    Holdings() {
        allocateTable(MIN_TABLE);
        int sentinel = newId();
        setOrder(sentinel, sentinel, sentinel);
    }

    // ---- columns

    private long[] page(int id) {
        return pages[id >>> PAGE_BITS];
    }

    private static int offset(int id) {
        return (id & PAGE_MASK) * 3;
    }

    long key(int id) {
        return page(id)[offset(id) + KEY];
    }

    /** Pod id {@code << POD_SHIFT}, the tier and {@link #SPECULATIVE}. */
    int podTier(int id) {
        return (int) (page(id)[offset(id) + LINKS] >>> 32);
    }

    void setPodTier(int id, int podTier) {
        long[] page = page(id);
        int o = offset(id) + LINKS;
        page[o] = (long) podTier << 32 | (page[o] & LOW);
    }

    int nextOfKey(int id) {
        return (int) page(id)[offset(id) + LINKS];
    }

    void setNextOfKey(int id, int next) {
        long[] page = page(id);
        int o = offset(id) + LINKS;
        page[o] = (page[o] & ~LOW) | (next & LOW);
    }

    private int older(int id) {
        return (int) (page(id)[offset(id) + ORDER] >>> 32);
    }

    private int newerOf(int id) {
        return (int) page(id)[offset(id) + ORDER];
    }

    private void setOrder(int id, int older, int newer) {
        page(id)[offset(id) + ORDER] = (long) older << 32 | (newer & LOW);
    }

    private void setOlder(int id, int older) {
        long[] page = page(id);
        int o = offset(id) + ORDER;
        page[o] = (long) older << 32 | (page[o] & LOW);
    }

    private void setNewer(int id, int newer) {
        long[] page = page(id);
        int o = offset(id) + ORDER;
        page[o] = (page[o] & ~LOW) | (newer & LOW);
    }

    /** Whether {@code id}, handed out before, is a holding now (not freed or retired). */
    boolean live(int id) {
        return podTier(id) != FREE;
    }

    /** A new holding, not yet in any chain or in the store order. */
    int add(long key, int podTier) {
        int id = freeIds;
        if (id != NONE) {
            freeIds = newerOf(id);
        } else {
            id = newId();
        }
        long[] page = page(id);
        int o = offset(id);
        page[o + KEY] = key;
        page[o + LINKS] = (long) podTier << 32; // next of key: NONE
        page[o + ORDER] = (long) id << 32 | (id & LOW);
        return id;
    }

    private int newId() {
        if (nextId == Integer.MAX_VALUE) {
            throw new IllegalStateException("holding ids exhausted");
        }
        int id = nextId++;
        int page = id >>> PAGE_BITS;
        if (page == pages.length) {
            pages = java.util.Arrays.copyOf(pages, page * 2);
        }
        if (pages[page] == null) {
            pages[page] = new long[PAGE * 3];
        }
        return id;
    }

    /** Gives back an id that is in no chain and out of the store order. */
    void free(int id) {
        retire(id);
        reuse(id);
    }

    /**
     * Ends a holding that is in no chain and out of the store order, but keeps its id from being handed out again
     * until {@link #reuse}: something still names it (a queued expiry), and must not find another holding there.
     */
    void retire(int id) {
        page(id)[offset(id) + LINKS] = (long) FREE << 32;
        setOrder(id, NONE, NONE);
    }

    /** Lets a retired id be handed out again. */
    void reuse(int id) {
        setNewer(id, freeIds);
        freeIds = id;
    }

    // ---- store order (least recently stored first)

    /** The least recently stored holding, or {@link #NONE}. */
    int oldest() {
        return newerOf(NONE);
    }

    /** The holding stored after {@code id}, or {@link #NONE} at the end. */
    int newer(int id) {
        return newerOf(id);
    }

    void moveToNewest(int id) {
        int last = older(NONE);
        if (last == id) {
            return; // the newest already
        }
        long order = page(id)[offset(id) + ORDER];
        int older = (int) (order >>> 32);
        int newer = (int) order;
        setNewer(older, newer);
        setOlder(newer, older);
        setOrder(id, last, NONE);
        setNewer(last, id);
        setOlder(NONE, id);
    }

    void unlinkOrder(int id) {
        long order = page(id)[offset(id) + ORDER];
        int older = (int) (order >>> 32);
        int newer = (int) order;
        setNewer(older, newer);
        setOlder(newer, older);
        setOrder(id, id, id);
    }

    // ---- key table: key -> first holding of its chain, with the SUMMARY flag; and each slot's distance from home

    private void allocateTable(int capacity) {
        int pages = Math.max(1, capacity >>> TABLE_PAGE_BITS);
        int perPage = Math.min(capacity, TABLE_PAGE);
        table = new int[pages][perPage];
        distances = new byte[pages][perPage];
        tableMask = capacity - 1;
    }

    private static int home(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /**
     * The table slot of {@code key}, or when absent {@code -1 - s} where {@code s} is the free slot {@link #insert}
     * takes. Valid until the table next changes.
     */
    int slotOf(long key) {
        int d = 0;
        for (int i = home(key, tableMask); ; i = (i + 1) & tableMask, d++) {
            int v = table[i >>> TABLE_PAGE_BITS][i & TABLE_PAGE_MASK];
            if (v == 0) {
                return -1 - i;
            }
            if (sameHome(i, d) && key(v & ID_MASK) == key) {
                return i;
            }
        }
    }

    /** The first holding of {@code key}'s chain with the {@link #SUMMARY} flag, or 0 when it has none. */
    int head(long key) {
        int d = 0;
        for (int i = home(key, tableMask); ; i = (i + 1) & tableMask, d++) {
            int v = table[i >>> TABLE_PAGE_BITS][i & TABLE_PAGE_MASK];
            if (v == 0 || sameHome(i, d) && key(v & ID_MASK) == key) {
                return v;
            }
        }
    }

    /**
     * Whether the entry at slot {@code i} may have its home {@code d} slots before: an entry with another home has
     * another key, so its holding need not be fetched to compare keys.
     */
    private boolean sameHome(int i, int d) {
        int stored = distances[i >>> TABLE_PAGE_BITS][i & TABLE_PAGE_MASK];
        return stored == Math.min(d, FAR);
    }

    int slotValue(int slot) {
        return table[slot >>> TABLE_PAGE_BITS][slot & TABLE_PAGE_MASK];
    }

    void setSlotValue(int slot, int value) {
        table[slot >>> TABLE_PAGE_BITS][slot & TABLE_PAGE_MASK] = value;
    }

    private void set(int slot, int value, int distance) {
        table[slot >>> TABLE_PAGE_BITS][slot & TABLE_PAGE_MASK] = value;
        distances[slot >>> TABLE_PAGE_BITS][slot & TABLE_PAGE_MASK] = (byte) Math.min(distance, FAR);
    }

    /** The home slot of the entry at {@code slot}. */
    private int homeOf(int slot) {
        int d = distances[slot >>> TABLE_PAGE_BITS][slot & TABLE_PAGE_MASK];
        return d < FAR ? (slot - d) & tableMask : home(key(slotValue(slot) & ID_MASK), tableMask);
    }

    /**
     * Adds a key the table does not have, its chain starting at {@code value}'s holding (whose key it is), at the free
     * slot {@link #slotOf} gave ({@code -1 - absent}).
     */
    void insert(int absent, int value) {
        int slot = -1 - absent;
        set(slot, value, (slot - home(key(value & ID_MASK), tableMask)) & tableMask);
        if (++keys * 4L > (tableMask + 1L) * 3) {
            int[][] old = table;
            allocateTable((tableMask + 1) * 2);
            for (int[] page : old) {
                for (int v : page) {
                    if (v != 0) {
                        int h = home(key(v & ID_MASK), tableMask);
                        int i = h;
                        while (slotValue(i) != 0) {
                            i = (i + 1) & tableMask;
                        }
                        set(i, v, (i - h) & tableMask);
                    }
                }
            }
        }
    }

    /** Removes a key whose chain is empty now; closes the gap so that probes stay short without tombstones. */
    void removeSlot(int hole) {
        for (int j = (hole + 1) & tableMask; ; j = (j + 1) & tableMask) {
            int v = slotValue(j);
            if (v == 0) {
                break;
            }
            int home = homeOf(j);
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            boolean homeBetween = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
            if (!homeBetween) {
                set(hole, v, (hole - home) & tableMask);
                hole = j;
            }
        }
        set(hole, 0, 0);
        keys--;
    }

    /** Keys in the table. */
    int keys() {
        return keys;
    }
}
