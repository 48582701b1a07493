# Sourced by perft.sbatch and selfplay.sbatch when they run outside a job
# (`bash cluster/slurm/perft.sbatch [SBATCH_OPTIONS]`): submits the template with the
# resources its settings name and the caller's options after them (sbatch takes the last
# of an option given twice), then exits with sbatch's status.
#
# Settings reach the job through the environment (--export=ALL), whole: a value may hold
# commas (EXTRA_ARGS="--uci-options Threads=1,Hash=16"), which sbatch's
# --export=NAME=VALUE,... lists would split. The job reads them as the template's defaults
# did here: a setting edited in the file applies to both.

# Slurm's --array spec (1-8, 0-30:10, 1,3,5, with %N to throttle) as its task ids.
array_ids() {
  local spec=${1%\%*} item first last step
  for item in ${spec//,/ }; do
    step=1
    [[ $item == *:* ]] && step=${item#*:} && item=${item%:*}
    first=${item%-*} last=${item#*-}
    seq "$first" "$step" "$last"
  done
}

submit_template() {
  local script=$1
  shift
  local resources=(--export=ALL --time="$TIME_LIMIT" --nodes="$NODES" --ntasks-per-node="$TASKS_PER_NODE"
                   --cpus-per-task="$CPUS_PER_TASK")
  [ -n "$PARTITION" ] && resources+=(--partition="$PARTITION")
  [ -n "$ACCOUNT" ] && resources+=(--account="$ACCOUNT")
  [ -n "$MEM_PER_NODE" ] && resources+=(--mem="$MEM_PER_NODE")
  [ -n "${ARRAY:-}" ] && resources+=(--array="$ARRAY")
  local job
  job=$(sbatch --parsable "${resources[@]}" "$@" "$script") || exit
  job=${job%%;*}
  echo "Submitted batch job $job"
  # After every task of an array has completed: one job (one core) writes their games into
  # one file of the MERGE format, batch by batch in task order.
  if [ -n "${ARRAY:-}" ] && [ -n "${MERGE:-}" ]; then
    SELFPLAY_MERGE_TASKS=$(array_ids "$ARRAY" | tr '\n' ' ')
    export SELFPLAY_MERGE_TASKS
    local merge=(--export=ALL --dependency=afterok:"$job" --job-name=chesshpc-selfplay-merge
                 --output=chesshpc-selfplay-merge-%j.log --time="$TIME_LIMIT" --nodes=1 --ntasks=1 --cpus-per-task=1)
    [ -n "$PARTITION" ] && merge+=(--partition="$PARTITION")
    [ -n "$ACCOUNT" ] && merge+=(--account="$ACCOUNT")
    job=$(sbatch --parsable "${merge[@]}" "$script") || exit
    echo "Submitted batch job ${job%%;*}"
  fi
  exit 0
}
