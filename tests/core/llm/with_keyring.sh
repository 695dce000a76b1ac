#!/bin/sh
# Runs a command against a throw-away Secret Service: gnome-keyring in the private D-Bus session that
# dbus-run-session started, with its keyring in a temporary HOME. The keychain code is then tested for real
# without touching anyone's keyring.
set -u
home=$(mktemp -d)
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_RUNTIME_DIR="$home"
printf 'kforge-test' | gnome-keyring-daemon --daemonize --unlock --components=secrets >/dev/null
"$@"
status=$?
rm -rf "$home"
exit $status
