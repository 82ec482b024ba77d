#!/bin/sh
# The image's entrypoint. llm-d's inferencepool chart gives the picker's container arguments only (no command), and
# they start with a flag (--pool-name P ...): such a command line is `homing serve`'s. Anything else (a subcommand,
# --help, --version) goes to `homing` unchanged, so the image also runs `homing sim`, `homing config check`, ...
set -eu
here="$(dirname "$0")"
case "${1:-}" in
  -h|--help|-V|--version|"") ;;
  -*)
    set -- serve "$@"
    ;;
esac
# The flags ./homing gives the JVM on Java 23+; heap and other JVM options through JAVA_TOOL_OPTIONS.
exec java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -jar "$here/homing.jar" "$@"
