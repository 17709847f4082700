"""JSON Schemas: the compiled validator, argument skeletons, the schema diff, and the
trusted Skill Interface Schema."""
