# Leaves a process running after the job's own process exits.
(sleep 1000; echo "still here" > /tmp/leak) &
nohup sh -c 'while :; do sleep 1; done' >/dev/null 2>&1 &
echo "started background processes"
