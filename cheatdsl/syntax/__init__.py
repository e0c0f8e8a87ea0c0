"""Front ends: YAML and the text DSL, both read into one span-carrying node tree."""
