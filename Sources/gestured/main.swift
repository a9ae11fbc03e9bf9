print("gestured: not yet implemented")
