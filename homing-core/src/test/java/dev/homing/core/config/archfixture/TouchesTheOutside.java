package dev.homing.core.config.archfixture;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Breaks "no I/O in core": files, the network, processes. */
public final class TouchesTheOutside {

    String file() throws IOException {
        return Files.readString(Path.of("config.yaml"));
    }

    void stream() throws IOException {
        try (FileInputStream in = new FileInputStream("config.yaml")) {
            in.read();
        }
    }

    void write() throws IOException {
        try (PrintWriter out = new PrintWriter("out.txt")) {
            out.println();
        }
    }

    void network() throws IOException {
        try (Socket socket = new Socket()) {
            socket.getPort();
        }
    }

    void process() throws IOException {
        Runtime.getRuntime().exec(new String[] {"true"});
    }
}
