package dev.homing.core.framework.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What a plugin needs beside it that llm-d adds when a configuration leaves it out: a prefix scorer reads the matches
 * of a producer, which it may name, and which is created for it otherwise. Older configurations wrote the companion's
 * parameters on the plugin itself; a pairing takes them off.
 */
@FunctionalInterface
public interface Pairing {

    /**
     * @param parameters the plugin's parameters; the pairing removes the ones that belong to the companion
     * @return the companion, with the parameters it takes from the plugin
     */
    Companion pair(ObjectNode parameters);

    /**
     * The plugin a paired one needs.
     *
     * @param name       the companion's name: the one the plugin named, else the type's own
     * @param type       the type the companion is created as when the configuration does not declare it
     * @param named      the plugin named it (a parameter said which)
     * @param parameters parameters older configurations wrote on the plugin; empty when none
     * @param link       the parameter that names a companion, for messages
     * @param kind       what the companion must be
     * @param words      how messages speak of it
     */
    record Companion(String name, String type, boolean named, ObjectNode parameters, String link,
                     Class<? extends Plugin> kind, Words words) {
    }

    /**
     * How configuration errors speak of a companion, as llm-d's users know it.
     *
     * @param parameters its parameters written on the plugin ({@code index parameters})
     * @param role       what it is to the plugin ({@code producer})
     * @param notOfKind  what a plugin that is not of its kind fails to do ({@code produces no prefix matches})
     * @param ofKind     the plugins of its kind ({@code producers})
     */
    record Words(String parameters, String role, String notOfKind, String ofKind) {
    }
}
