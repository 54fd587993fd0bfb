# Sourced by docker/fleet/run.sh and perf/fleet-*.sh: podman as it runs on these machines (runc, no
# systemd), and the fleet's compose project name, which labels its containers and names its volumes.
# shellcheck shell=bash
PODMAN=(podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs)
PROJECT=rpccompare-fleet
