package dev.homing.bench.live;

/**
 * Hears how a live run is going. Counts are totals so far: {@code done} counts every request that ended, served or
 * not; {@code failed} those of them that were not served. Called from many threads, possibly out of order: a
 * listener keeps the largest counts it has seen if it cares.
 */
public interface ProgressListener {

    ProgressListener SILENT = new ProgressListener() {
        @Override
        public void progress(int sent, int done, int failed) {
        }
    };

    /** Before the first request: the run's label and how many requests the workload holds. */
    default void started(String label, int requests) {
    }

    void progress(int sent, int done, int failed);

    /** Once, after the last request ended or the deadline passed. */
    default void finished(int sent, int done, int failed) {
    }
}
