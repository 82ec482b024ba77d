package dev.homing.core.archfixture;

import java.io.IOException;

/** Breaks "no standard streams". */
public final class PrintsToStandardStreams {

    void print(Exception e) throws IOException {
        System.out.println("hello");
        System.err.println("oops");
        System.in.read();
        e.printStackTrace();
    }
}
