#!/bin/bash
# docket on Slurm: plan -> shards (a job array) -> land, chained with
# dependencies. Run from a login node, in the project folder (project.yaml)
# on a file system every compute node mounts:
#
#   deploy/slurm/docket-shards.sh 16            # 16 shards
#   PLAN=/shared/plans/2026-12-03 deploy/slurm/docket-shards.sh 16
#
# docket and docket-worker (make build puts them side by side in bin/) must be
# on PATH on every node (the binaries, or the container image:
# set DOCKET="apptainer exec docket.sif docket").
set -euo pipefail
SHARDS=${1:?usage: docket-shards.sh SHARDS}
DOCKET=${DOCKET:-docket}
PLAN=${PLAN:-$PWD/plans/$(date -u +%Y%m%dT%H%M%SZ)}
CPUS=${CPUS:-4}          # cores per shard: docket runs one worker per core
PARTITION=${PARTITION:+--partition=$PARTITION}
LOGS=${LOGS:-$PWD/plans/logs}
mkdir -p "$LOGS"

plan=$(sbatch --parsable $PARTITION --job-name=docket-plan --cpus-per-task=2 --output="$LOGS/plan-%j.out" \
  --wrap="$DOCKET plan --shards $SHARDS --out '$PLAN'")

# SLURM_ARRAY_TASK_ID is the shard: docket reads it when --shard is not given.
# A task that fails (node lost, time limit) can be resubmitted alone:
#   sbatch --array=K ... ; a finished shard is not redone.
shards=$(sbatch --parsable $PARTITION --job-name=docket-shard --dependency=afterok:$plan --array=0-$((SHARDS - 1)) \
  --cpus-per-task="$CPUS" --mem-per-cpu=2G --output="$LOGS/shard-%A_%a.out" \
  --export=ALL,OMP_THREAD_LIMIT=1 \
  --wrap="$DOCKET load --plan '$PLAN' --workers $CPUS")

# afterany: land what finished even if a shard failed; land lists the
# shards still missing and lands them when run again.
land=$(sbatch --parsable $PARTITION --job-name=docket-land --dependency=afterany:$shards --cpus-per-task=2 \
  --output="$LOGS/land-%j.out" --wrap="$DOCKET land '$PLAN'")

echo "plan $plan -> shards $shards (array 0-$((SHARDS - 1))) -> land $land; plan folder $PLAN"
