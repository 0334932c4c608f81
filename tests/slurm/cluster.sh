# A single-node Slurm cluster in a temporary folder (issue 24), for the shard test and the Slurm
# benchmark: munged, slurmctld and slurmd from Debian's packages on free ports, every daemon
# stopped by its pid at exit (also on failure). Source it from a POSIX shell script:
#   slurm_missing   prints what is not installed and succeeds when something is missing
#   slurm_start     starts the cluster; sets D (the folder, removed at exit), SLURM_CONF and port;
#                   exits 1 with the daemons' logs when the node does not come up
#   wait_job JOB    waits (at most 120 s) until the job and all its array tasks left the queue
slurm_missing() {
    for f in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd; do
        [ -x "$f" ] || { echo "$f is not installed (tools/install-deps.sh installs slurmctld slurmd slurm-client munge)"; return 0; }
    done
    for c in sbatch squeue scancel sinfo scontrol; do
        command -v $c >/dev/null 2>&1 || { echo "$c is not installed (slurm-client)"; return 0; }
    done
    return 1
}

slurm_gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }

slurm_stop_pid() {
    [ -n "$1" ] || return 0
    kill "$1" 2>/dev/null
    i=0
    while ! slurm_gone "$1" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    slurm_gone "$1" || kill -9 "$1" 2>/dev/null
}

slurm_cleanup() {
    for f in slurmd.pid slurmctld.pid munge/munged.pid; do
        [ -s "$D/$f" ] && slurm_stop_pid "$(cat "$D/$f")"
    done
    rm -rf "$D"
}

slurm_port_in_use() { ss -ltnH 2>/dev/null | awk '{print $4}' | grep -q ":$1\$"; }

slurm_start() {
    D=$(mktemp -d)
    trap slurm_cleanup EXIT
    trap 'exit 1' INT TERM HUP
    port=$((20000 + $$ % 20000))
    while slurm_port_in_use $port || slurm_port_in_use $((port + 1)); do port=$((port + 2)); done
    mkdir -p "$D/state" "$D/spool" "$D/log" "$D/munge" && chmod 700 "$D/munge"
    head -c 1024 /dev/urandom >"$D/munge/key" && chmod 400 "$D/munge/key"
    /usr/sbin/munged --force -S "$D/munge/sock" --key-file="$D/munge/key" --pid-file="$D/munge/munged.pid" \
        --log-file="$D/munge/munged.log" --seed-file="$D/munge/seed" || { echo "FAIL: munged did not start"; exit 1; }
    cat >"$D/slurm.conf" <<EOF2
ClusterName=pbtest
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/sock
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MailProg=/bin/true
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
NodeName=localhost NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=60 State=UP
EOF2
    export SLURM_CONF="$D/slurm.conf"
    /usr/sbin/slurmctld && /usr/sbin/slurmd -N localhost || { echo "FAIL: the Slurm daemons did not start"; cat "$D"/log/*; exit 1; }
    i=0
    until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
        sleep 0.05
        i=$((i + 1))
        if [ $i -gt 400 ] || ! [ -s "$D/slurmctld.pid" ] || slurm_gone "$(cat "$D/slurmctld.pid")"; then
            echo "FAIL: the node never became idle"; tail -5 "$D"/log/*.log; exit 1
        fi
    done
}

wait_job() {
    i=0
    while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
}
