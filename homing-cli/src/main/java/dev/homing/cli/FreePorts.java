package dev.homing.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Distinct free loopback ports for processes a command or a test starts: each socket is held until all are chosen. */
final class FreePorts {

    private FreePorts() {
    }

    static int[] of(int n) throws IOException {
        ServerSocket[] held = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                held[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = held[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }
}
