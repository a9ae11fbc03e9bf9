// Placeholder: the logging module lands with issue 4.
enum GesturedLoggingModule {}
