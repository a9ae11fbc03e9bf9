# fish completion for gesturectl(1): verbs, their options, device nodes, and gesture names
# from the configuration in effect (`gesturectl gestures`).

function __gesturectl_socket
    set -l words (commandline -opc)
    set -l i (contains -i -- --socket $words)
    and set -q words[(math $i + 1)]
    and printf '%s\n' --socket $words[(math $i + 1)]
end

function __gesturectl_list --description 'complete the last element of a comma-separated list'
    set -l token (commandline -ct)
    set -l prefix (string match -r '^.*,' -- $token)
    for value in $argv
        printf '%s%s\n' "$prefix" $value
    end
end

function __gesturectl_nodes --description 'the evdev nodes of this machine'
    set -l nodes /dev/input/event*
    printf '%s\n' $nodes
end

function __gesturectl_devices --description 'evdev nodes, and the devices the daemon has open'
    __gesturectl_nodes
    command gesturectl (__gesturectl_socket) devices 2>/dev/null | string match -rv '^no touch devices' | string split -f1 \t
end

set -l __gesturectl_verbs status devices list-devices listen debug-events run send-keys click reload ping record synthesize check-config gestures

complete -c gesturectl -f
complete -c gesturectl -l socket -r -F -d 'daemon socket'
complete -c gesturectl -s h -l help -d 'show help (after a verb: that verb\'s)'
complete -c gesturectl -s V -l version -d 'print the version'

complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a status -d 'daemon version, uptime, clients, devices'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a devices -d 'the touch devices the daemon has open'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a list-devices -d 'the touch devices the daemon has open'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a listen -d 'print gestures as they happen'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a debug-events -d 'print gestures as they happen'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a run -d 'run actions.conf commands for gestures'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a send-keys -d 'press a key combination through the daemon'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a click -d 'click a button through the daemon'
complete -c gesturectl -n '__fish_seen_subcommand_from click' -a 'left right middle side extra forward back task'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a reload -d 'reload the daemon configuration'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a ping -d 'check that the daemon answers'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a record -d 'write a device as evemu text'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a synthesize -d 'write a recording of scripted gestures'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a check-config -d 'check the configuration files'
complete -c gesturectl -n "not __fish_seen_subcommand_from $__gesturectl_verbs" -a gestures -d 'the configured gesture names'

complete -c gesturectl -n '__fish_seen_subcommand_from status devices list-devices reload ping listen debug-events' -l json -d 'print protocol JSON'

complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l gesture -x -d 'only these gestures' \
    -a '(__gesturectl_list (command gesturectl (__gesturectl_socket) gestures 2>/dev/null))'
complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l kind -x -d 'only these kinds' \
    -a '(__gesturectl_list tap long_press pan swipe pinch rotation edge_pan tickle)'
complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l state -x -d 'only these states' \
    -a '(__gesturectl_list began changed ended cancelled recognized)'
complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l device -x -d 'only these devices' \
    -a '(__gesturectl_list (__gesturectl_devices))'
complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l raw -d 'also raw touches'
complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l count -x -d 'stop after N gestures'
complete -c gesturectl -n '__fish_seen_subcommand_from listen debug-events' -l wait -d 'wait for the daemon'

complete -c gesturectl -n '__fish_seen_subcommand_from run' -l actions -r -F -d 'actions file'
complete -c gesturectl -n '__fish_seen_subcommand_from run' -l check -d 'validate and exit'
complete -c gesturectl -n '__fish_seen_subcommand_from run' -l dry-run -d 'print instead of running'
complete -c gesturectl -n '__fish_seen_subcommand_from run' -l verbose -d 'log every command'
complete -c gesturectl -n '__fish_seen_subcommand_from run' -l exit-on-shutdown -d 'exit with the daemon'

complete -c gesturectl -n '__fish_seen_subcommand_from record' -a '(__gesturectl_nodes)' -d 'device node'
complete -c gesturectl -n '__fish_seen_subcommand_from record' -l duration -x -d 'seconds'
complete -c gesturectl -n '__fish_seen_subcommand_from record' -l frames -x -d 'frames'

complete -c gesturectl -n '__fish_seen_subcommand_from synthesize' -a demo -d 'the bundled demo recording'
complete -c gesturectl -n '__fish_seen_subcommand_from synthesize' -F
complete -c gesturectl -n '__fish_seen_subcommand_from synthesize' -l device -r -F -d 'device description'

complete -c gesturectl -n '__fish_seen_subcommand_from check-config gestures' -F
