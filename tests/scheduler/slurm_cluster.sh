# A one-node Slurm cluster on localhost for the sharding tests, sourced by run_slurm_example.sh.
# Everything lives in $CLUSTER (a fresh temporary directory): munge key and socket, slurm.conf,
# state, spool, logs, pid files. Needs root (slurmd runs jobs as their user) and Debian's munge,
# slurmctld, slurmd and slurm-client (scripts/install-deps.sh --with-scheduler); uses loopback
# only. slurm_start fails (never skips) when a daemon does not come up; slurm_stop stops exactly
# the daemons it started, by their pid files.

# A TCP port nobody listens on at 127.0.0.1 (a refused connection).
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
}

# Prints the daemon logs (on failure).
slurm_logs() {
  local f
  for f in "$CLUSTER"/log/*.log; do
    [ -f "$f" ] || continue
    echo "---- $f (last 30 lines)" >&2
    tail -n 30 "$f" >&2
  done
}

# Waits up to $2 seconds for the command $1 to succeed.
wait_for() {
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    if eval "$1" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}

write_slurm_conf() {
  local host=$1 cpus=$2
  cat >"$CLUSTER/slurm.conf" <<CONF
ClusterName=msdumptest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$CLUSTER/munge/munge.socket
StateSaveLocation=$CLUSTER/state
SlurmdSpoolDir=$CLUSTER/spool
SlurmctldPidFile=$CLUSTER/run/slurmctld.pid
SlurmdPidFile=$CLUSTER/run/slurmd.pid
SlurmctldLogFile=$CLUSTER/log/slurmctld.log
SlurmdLogFile=$CLUSTER/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=10 State=UP
CONF
}

slurm_start() {
  local host
  host=$(hostname -s)
  mkdir -p "$CLUSTER"/{munge,state,spool,run,log}
  chmod 755 "$CLUSTER"/munge  # munged wants its socket directory searchable by all
  # munged: its own key, socket, pid and log files, nothing from /etc or /run.
  mungekey --create --keyfile="$CLUSTER/munge/munge.key" --force
  munged --key-file="$CLUSTER/munge/munge.key" --socket="$CLUSTER/munge/munge.socket" \
    --pid-file="$CLUSTER/run/munged.pid" --log-file="$CLUSTER/log/munged.log" \
    --seed-file="$CLUSTER/munge/munged.seed" --force
  wait_for "[ -S '$CLUSTER/munge/munge.socket' ] && munge -n --socket='$CLUSTER/munge/munge.socket' | unmunge --socket='$CLUSTER/munge/munge.socket'" 10 ||
    { echo "slurm_cluster: munged did not start" >&2; slurm_logs; return 1; }
  write_slurm_conf "$host" "${SLURM_TEST_CPUS:-32}"
  export SLURM_CONF="$CLUSTER/slurm.conf"
  slurmctld -i || { echo "slurm_cluster: slurmctld failed to start" >&2; slurm_logs; return 1; }
  wait_for "scontrol ping | grep -q UP" 20 || { echo "slurm_cluster: slurmctld does not answer" >&2; slurm_logs; return 1; }
  slurmd -N "$host" || { echo "slurm_cluster: slurmd failed to start" >&2; slurm_logs; return 1; }
  wait_for "sinfo -h -N -o %T | grep -Eq '^(idle|mixed|allocated)'" 30 ||
    { echo "slurm_cluster: node $host did not become idle" >&2; sinfo -N >&2 || true; slurm_logs; return 1; }
}

# Stops the daemons started above (TERM, then KILL after 10 s), by their pid files.
slurm_stop() {
  local name pid i
  for name in slurmd slurmctld munged; do
    pid=$(cat "$CLUSTER/run/$name.pid" 2>/dev/null) || continue
    kill -TERM "$pid" 2>/dev/null || continue
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
