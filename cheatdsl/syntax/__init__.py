"""The front end: YAML and the text DSL read into one span-carrying node tree, the field table both the
front end and the compiler read, and `extends`, `drop` and variations merged on those trees (loader.py;
blame.py puts a problem the merge causes on the house rule's line), so that the compiler is given one
merged tree."""
