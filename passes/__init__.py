"""Graph → graph rewrites and the fusion and memory planners. Import graph/ only."""
