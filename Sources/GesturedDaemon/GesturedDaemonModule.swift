// Placeholder: the daemon lands with issue 4.
enum GesturedDaemonModule {}
