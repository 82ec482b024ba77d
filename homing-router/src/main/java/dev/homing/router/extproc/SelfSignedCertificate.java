package dev.homing.router.extproc;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;

/**
 * A self-signed X.509 certificate and its key, made at start-up, as llm-d's endpoint picker serves TLS by default
 * with one it makes itself ({@code --secure-serving}): gateways talk TLS to the picker without verifying it. The JDK
 * can sign but has no public API to write a certificate, so the DER is written here: a v3 certificate, ECDSA P-256
 * with SHA-256, subject and issuer {@code CN=homing}, subject alternative names for the names given, ten years.
 */
public final class SelfSignedCertificate {

    private static final byte[] ECDSA_WITH_SHA256 = {0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x04, 0x03, 0x02};
    private static final byte[] COMMON_NAME = {0x55, 0x04, 0x03};
    private static final byte[] SUBJECT_ALT_NAME = {0x55, 0x1D, 0x11};
    private static final byte[] BASIC_CONSTRAINTS = {0x55, 0x1D, 0x13};
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final String certificatePem;
    private final String privateKeyPem;

    private SelfSignedCertificate(String certificatePem, String privateKeyPem) {
        this.certificatePem = certificatePem;
        this.privateKeyPem = privateKeyPem;
    }

    /**
     * @param names DNS names and IP addresses (v4 dotted, or v6) the certificate names besides {@code localhost}
     * @param now   the start of its validity
     */
    public static SelfSignedCertificate create(List<String> names, Instant now) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair keys = g.generateKeyPair();
            byte[] algorithm = seq(oid(ECDSA_WITH_SHA256));
            byte[] name = seq(set(seq(oid(COMMON_NAME), tlv(0x0C, "homing".getBytes(StandardCharsets.UTF_8)))));
            byte[] serial = new BigInteger(63, new SecureRandom()).add(BigInteger.ONE).toByteArray();
            byte[] tbs = seq(
                    tlv(0xA0, tlv(0x02, new byte[]{2})), // [0] version v3
                    tlv(0x02, serial),
                    algorithm,
                    name,
                    seq(time(now.minusSeconds(3600)), time(now.plusSeconds(10L * 365 * 24 * 3600))),
                    name,
                    keys.getPublic().getEncoded(), // SubjectPublicKeyInfo, DER already
                    tlv(0xA3, seq( // [3] extensions
                            seq(oid(BASIC_CONSTRAINTS), tlv(0x04, seq())),
                            seq(oid(SUBJECT_ALT_NAME), tlv(0x04, altNames(names))))));
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate());
            signer.update(tbs);
            byte[] signature = signer.sign();
            byte[] certificate = seq(tbs, algorithm, bitString(signature));
            return new SelfSignedCertificate(pem("CERTIFICATE", certificate),
                    pem("PRIVATE KEY", keys.getPrivate().getEncoded())); // PKCS#8
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a self-signed certificate: " + e.getMessage(), e);
        }
    }

    /** The certificate, PEM. */
    public String certificatePem() {
        return certificatePem;
    }

    /** Its private key, PKCS#8 PEM. */
    public String privateKeyPem() {
        return privateKeyPem;
    }

    private static byte[] altNames(List<String> names) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, tlv(0x82, "localhost".getBytes(StandardCharsets.US_ASCII))); // dNSName
        for (String n : names) {
            byte[] ip = ipAddress(n);
            if (ip != null) {
                write(out, tlv(0x87, ip)); // iPAddress
            } else if (!n.isEmpty() && !n.equals("localhost")) {
                write(out, tlv(0x82, n.getBytes(StandardCharsets.US_ASCII)));
            }
        }
        return tlv(0x30, out.toByteArray());
    }

    /** The address's bytes when {@code s} is a literal IP address, else null (never a name lookup). */
    static byte[] ipAddress(String s) {
        String h = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        if (h.indexOf(':') >= 0) {
            try {
                return java.net.InetAddress.getByName(h).getAddress(); // a name has no ':', so this never looks up
            } catch (java.net.UnknownHostException e) {
                return null;
            }
        }
        String[] parts = h.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (parts[i].isEmpty() || parts[i].length() > 3 || !parts[i].chars().allMatch(Character::isDigit)) {
                return null;
            }
            int v = Integer.parseInt(parts[i]);
            if (v > 255) {
                return null;
            }
            b[i] = (byte) v;
        }
        return b;
    }

    private static byte[] time(Instant t) {
        // RFC 5280: UTCTime through 2049, GeneralizedTime from 2050
        boolean utc = t.atZone(ZoneOffset.UTC).getYear() < 2050;
        return utc ? tlv(0x17, UTC_TIME.format(t).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(t).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] oid(byte[] encoded) {
        return tlv(0x06, encoded);
    }

    private static byte[] bitString(byte[] bits) {
        byte[] v = new byte[bits.length + 1]; // no unused bits
        System.arraycopy(bits, 0, v, 1, bits.length);
        return tlv(0x03, v);
    }

    private static byte[] seq(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            write(out, p);
        }
        return out.toByteArray();
    }

    /** A DER tag-length-value. */
    static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n > 0xFFFFFF ? 4 : n > 0xFFFF ? 3 : n > 0xFF ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        write(out, value);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, byte[] b) {
        out.write(b, 0, b.length);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
