// Tests for this target land with their issue.
