package dev.homing.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The certificate written by hand is one the JDK reads, verifies and would trust for the names it carries. */
class SelfSignedCertificateTest {

    @Test
    void theJdkParsesItVerifiesItsSignatureAndReadsItsNames() throws Exception {
        Instant now = Instant.parse("2026-12-01T12:00:00Z");
        SelfSignedCertificate c = SelfSignedCertificate.create(List.of("10.0.0.7", "epp.example", "::1"), now);
        X509Certificate x = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(c.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        x.verify(x.getPublicKey());
        x.checkValidity(java.util.Date.from(now));
        x.checkValidity(java.util.Date.from(now.plusSeconds(9L * 365 * 24 * 3600)));
        assertThat(x.getVersion()).isEqualTo(3);
        assertThat(x.getSubjectX500Principal().getName()).isEqualTo("CN=homing");
        assertThat(x.getIssuerX500Principal()).isEqualTo(x.getSubjectX500Principal());
        assertThat(x.getSigAlgName()).isEqualTo("SHA256withECDSA");
        assertThat(x.getBasicConstraints()).isEqualTo(-1); // not a CA
        assertThat(x.getSubjectAlternativeNames()).extracting(l -> l.get(1).toString())
                .containsExactly("localhost", "10.0.0.7", "epp.example", "0:0:0:0:0:0:0:1");

        String key = c.privateKeyPem().replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        var privateKey = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                .decode(key)));
        Signature s = Signature.getInstance("SHA256withECDSA");
        s.initSign(privateKey);
        s.update(new byte[]{1, 2, 3});
        byte[] sig = s.sign();
        s.initVerify(x.getPublicKey());
        s.update(new byte[]{1, 2, 3});
        assertThat(s.verify(sig)).as("the key belongs to the certificate").isTrue();
    }

    @Test
    void derLengthsOfEveryFormAreWritten() {
        assertThat(SelfSignedCertificate.tlv(0x04, new byte[5])).startsWith(0x04, 5);
        assertThat(SelfSignedCertificate.tlv(0x04, new byte[200])).startsWith(0x04, 0x81, 200);
        assertThat(SelfSignedCertificate.tlv(0x04, new byte[300])).startsWith(0x04, 0x82, 0x01, 0x2C);
        assertThat(SelfSignedCertificate.tlv(0x04, new byte[70_000])).startsWith(0x04, 0x83, 0x01, 0x11, 0x70);
    }

    @Test
    void onlyLiteralAddressesAreAddresses() {
        assertThat(SelfSignedCertificate.ipAddress("192.168.1.20")).containsExactly(192, 168, 1, 20);
        assertThat(SelfSignedCertificate.ipAddress("[::1]")).hasSize(16);
        assertThat(SelfSignedCertificate.ipAddress("256.1.1.1")).isNull();
        assertThat(SelfSignedCertificate.ipAddress("epp.example")).isNull();
        assertThat(SelfSignedCertificate.ipAddress("1.2.3")).isNull();
    }
}
