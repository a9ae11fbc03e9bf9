// Placeholder: the argument parser lands with issue 3.
enum GesturedCLISupportModule {}
