#!/usr/bin/env zsh
# Prints the matches zsh's completion system offers for a command line, one a line, by
# typing the line and a Tab into an interactive zsh in a pseudo-terminal (zsh/zpty): the
# real compinit, the project's completion functions from $1, and a compadd that records
# what is added to a file before adding it.
#   zsh-complete.zsh COMPLETION_DIR 'gesturectl listen --kind '
emulate -L zsh
zmodload zsh/zpty || exit 2
local dir=$1 line=$2
local out=$(mktemp) init=$(mktemp)
cat > $init <<INIT
PS1='> '
fpath=(${(q)dir} \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' menu no
compadd() {
  local -a head=("\${(@)argv[1,(i)(-|--)]}")
  if (( \${head[(I)-[OAD]]} )); then builtin compadd "\$@"; return; fi
  local -a matches
  builtin compadd -O matches "\$@"
  (( \$#matches )) && print -rl -- \$matches >> ${(q)out}
  builtin compadd "\$@"
}
INIT
zpty -b z zsh -f -i
zpty -w z "source ${(q)init}; print -r -- \${:-INIT}DONE"
local chunk
zpty -r z chunk '*INITDONE*'
zpty -r z chunk '*> '
zpty -w -n z "$line"$'\t'
# Then clear the line and print a marker whose echo differs from its output.
zpty -w z $'\x15print -r -- ${:-COMPLETION}DONE'
zpty -r z chunk '*COMPLETIONDONE*'
zpty -d z
sort -u $out
rm -f $out $init
