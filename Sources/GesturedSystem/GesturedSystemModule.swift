internal import CLinuxInput
// Placeholder: the OS door lands with issue 3.
enum GesturedSystemModule {}
