// Placeholder: the configuration parser lands with issue 4.
enum GesturedConfigModule {}
