#!/bin/sh
# The image's entrypoint. llm-d's inferencepool chart gives the picker's container arguments only (no command), and
# they start with a flag (--pool-name P ...): such a command line is `homing serve`'s. Anything else (a subcommand,
# --help, --version) goes to `homing` unchanged, so the image also runs `homing sim`, `homing config check`, ...
set -eu
here="$(dirname "$0")"
case "${1:-}" in
  -h|--help|-V|--version|"") ;;
  -*)
    # Homing binds loopback unless told otherwise, and the chart names no address: in a pod, the kubelet's probes,
    # the gateway and Prometheus come from outside, so bind all of the pod's addresses unless the arguments say.
    host=0.0.0.0
    admin=0.0.0.0
    for a in "$@"; do
      case "$a" in
        --host|--host=*) host= ;;
        --admin-host|--admin-host=*) admin= ;;
      esac
    done
    if [ -n "$admin" ]; then set -- --admin-host "$admin" "$@"; fi
    if [ -n "$host" ]; then set -- --host "$host" "$@"; fi
    set -- serve "$@"
    ;;
esac
# The flags ./homing gives the JVM on Java 23+; heap and other JVM options through JAVA_TOOL_OPTIONS.
exec java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -jar "$here/homing.jar" "$@"
