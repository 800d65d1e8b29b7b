# `--jobs $SLURM_CPUS_PER_TASK` in a job that did not ask for --cpus-per-task: the variable
# expands to nothing and --jobs would take the next flag; the error says so, and nothing runs.
unset SLURM_CPUS_PER_TASK
"$MSDUMP" verify "$SRC/testdata/trees/sharded_run" --shard 0/4 --jobs $SLURM_CPUS_PER_TASK --quiet \
  --batch-report reports/shard-0.json
echo "exit $?; $([ -e reports ] && echo "reports/ was created" || echo "no reports/")"
