// Placeholder: test helpers land with the engine.
enum GesturedTestSupportModule {}
