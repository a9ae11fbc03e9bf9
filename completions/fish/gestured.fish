# fish completion for gestured(8).

complete -c gestured -l config -r -F -d 'configuration file'
complete -c gestured -l socket -r -F -d 'socket path'
function __gestured_nodes --description 'the evdev nodes of this machine'
    set -l nodes /dev/input/event*
    printf '%s\n' $nodes
end

complete -c gestured -l dry-run -x -a '(__gestured_nodes)' -d 'watch one device'
complete -c gestured -l replay -r -F -d 'replay a recording'
complete -c gestured -l description -r -F -d 'device description for a recording without one'
complete -c gestured -l svg -r -F -d 'with --replay: draw what happened as SVG'
complete -c gestured -l realtime -d "replay at the recording's pace"
complete -c gestured -l speed -x -d 'pace multiplier'
complete -c gestured -l demo -d 'replay the bundled recording through the daemon'
complete -c gestured -l replay-device -r -F -d 'daemon: also play FILE as a device'
complete -c gestured -l replay-wait-clients -x -d 'daemon: start replays once N clients subscribed'
complete -c gestured -l exit-after-replay -d 'daemon: stop when the replays have finished'
complete -c gestured -l no-udev -d 'daemon: open no real device'
complete -c gestured -l check-config -d 'check the configuration and exit'
complete -c gestured -l json -d 'one JSON object per event'
complete -c gestured -l touches -d 'also print raw touches'
complete -c gestured -l verbose -d 'log state transitions'
complete -c gestured -l version -d 'print the version'
complete -c gestured -l help -d 'show help'
