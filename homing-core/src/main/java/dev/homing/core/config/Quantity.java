package dev.homing.core.config;

import java.math.BigDecimal;

/** Kubernetes resource quantities as llm-d's flow-control limits are written: {@code 512Mi}, {@code 1G}, {@code 1000}. */
final class Quantity {

    private Quantity() {
    }

    static long parse(String text) {
        String s = text.strip();
        String[][] suffixes = {{"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
                {"Pi", "1125899906842624"}, {"Ei", "1152921504606846976"}, {"k", "1000"}, {"M", "1000000"},
                {"G", "1000000000"}, {"T", "1000000000000"}, {"P", "1000000000000000"}, {"E", "1000000000000000000"}};
        for (String[] suffix : suffixes) {
            if (s.endsWith(suffix[0])) {
                return multiply(s.substring(0, s.length() - suffix[0].length()), suffix[1], text);
            }
        }
        return multiply(s, "1", text);
    }

    private static long multiply(String number, String factor, String text) {
        try {
            BigDecimal v = new BigDecimal(number).multiply(new BigDecimal(factor));
            if (v.signum() < 0) {
                throw new IllegalArgumentException("quantity '" + text + "' is negative");
            }
            return v.longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a quantity (like 512Mi, 1G or 1000)");
        }
    }
}
