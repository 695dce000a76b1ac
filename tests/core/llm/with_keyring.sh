#!/bin/sh
# Runs a command against a throw-away Secret Service: gnome-keyring in the private D-Bus session that
# dbus-run-session started, with its keyring in a temporary HOME. The keychain code is then tested for real
# without touching anyone's keyring.
set -u
home=$(mktemp -d)
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_RUNTIME_DIR="$home"
printf 'kforge-test' | gnome-keyring-daemon --daemonize --unlock --components=secrets >/dev/null
# Wait until the daemon owns the bus name and has made its login keyring; asking earlier would make D-Bus
# start a second, locked daemon that wants a password prompt. NameHasOwner does not start anything.
i=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' &&
      dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets/collection/login \
        org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection string:Locked >/dev/null 2>&1; do
  i=$((i + 1))
  if [ "$i" -ge 100 ]; then
    echo "with_keyring.sh: gnome-keyring did not come up" >&2
    rm -rf "$home"
    exit 1
  fi
  sleep 0.1
done
"$@"
status=$?
rm -rf "$home"
exit $status
