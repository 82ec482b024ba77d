package dev.homing.core.config.archfixture;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.logging.FileHandler;
import java.util.zip.ZipFile;

/** Breaks "no I/O in core": files (archives and log files too), the network (a host looked up too), processes. */
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

    String lookUp() {
        return new InetSocketAddress("localhost", 8080).getHostName();
    }

    int archives() throws IOException {
        try (ZipFile zip = new ZipFile("a.zip"); JarFile jar = new JarFile("a.jar")) {
            return zip.size() + jar.size();
        }
    }

    FileHandler log() throws IOException {
        return new FileHandler("homing.log");
    }

    void process() throws IOException {
        Runtime.getRuntime().exec(new String[] {"true"});
    }
}
